// Small test doubles for browser APIs jsdom lacks.
import { expect, onTestFinished, vi } from "vitest";
import { initPlanStarts } from "../src/loader/plan-start";
import type { Plan } from "../src/shared/island-types";

/** Records every plan-change on window until `stop()`. */
export function recordPlanChanges(): { details: Plan[]; stop: () => void } {
  const details: Plan[] = [];
  const listener = (event: CustomEvent<Plan>): void => {
    details.push(event.detail);
  };
  window.addEventListener("plan-change", listener);
  return { details, stop: () => window.removeEventListener("plan-change", listener) };
}

/**
 * Presses a Start button with `press`, then waits for what the plan script does just after the
 * frame that shows the plan: the scroll to the form and its focus (in one task, so once the scroll
 * has been asked for, both are done).
 */
export async function pressStart(press: () => unknown): Promise<void> {
  const scroll = vi.mocked(Element.prototype.scrollIntoView);
  const before = scroll.mock.calls.length;
  await press();
  await vi.waitFor(() => expect(scroll.mock.calls.length).toBeGreaterThan(before));
}

/** window.matchMedia answering `matching(query)`, with change events fired by the test. */
export type FakeMediaQueryList = MediaQueryList & { fire(matches: boolean): void };

export function stubMatchMedia(matching: (query: string) => boolean): { lists: Map<string, FakeMediaQueryList> } {
  const lists = new Map<string, FakeMediaQueryList>();
  vi.stubGlobal("matchMedia", (query: string) => {
    const existing = lists.get(query);
    if (existing) return existing;
    const state = { matches: matching(query) };
    const target = new EventTarget();
    const list = Object.assign(target, {
      media: query,
      get matches() {
        return state.matches;
      },
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      fire(matches: boolean) {
        state.matches = matches;
        target.dispatchEvent(Object.assign(new Event("change"), { matches, media: query }));
      },
    }) as unknown as FakeMediaQueryList;
    lists.set(query, list);
    return list;
  });
  return { lists };
}

export function stubReducedMotion(reduce: boolean): void {
  stubMatchMedia((query) => reduce && query.includes("prefers-reduced-motion: reduce"));
}

/** A controllable IntersectionObserver: tests decide when elements intersect. */
export class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly observed = new Set<Element>();
  disconnected = false;
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(element: Element): void {
    this.observed.add(element);
  }
  unobserve(element: Element): void {
    this.observed.delete(element);
  }
  disconnect(): void {
    this.disconnected = true;
    this.observed.clear();
  }
  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }
  /** Reports `element` as intersecting (or not) to this observer's callback. */
  report(element: Element, isIntersecting: boolean): void {
    const entry = { target: element, isIntersecting, intersectionRatio: isIntersecting ? 1 : 0 } as IntersectionObserverEntry;
    this.callback([entry], this as unknown as IntersectionObserver);
  }
  static observing(element: Element): FakeIntersectionObserver[] {
    return FakeIntersectionObserver.instances.filter((o) => o.observed.has(element));
  }
}

export function stubIntersectionObserver(): void {
  FakeIntersectionObserver.instances = [];
  vi.stubGlobal("IntersectionObserver", FakeIntersectionObserver);
}

/**
 * The page around islands as the build writes it: each island's props as JSON in the page, and
 * the loader's plan script (Start buttons, the plan's markup) listening, until the test ends.
 */
export function pageWithPlanScript(props: Record<string, object>): void {
  const scripts = Object.entries(props).map(([name, value]) => {
    const script = document.createElement("script");
    script.type = "application/json";
    script.id = `props-${name}`;
    script.textContent = JSON.stringify(value);
    document.head.append(script);
    return script;
  });
  const stop = initPlanStarts();
  onTestFinished(() => {
    stop();
    for (const script of scripts) script.remove();
  });
}

type PaintCallback = (list: unknown, observer: FakePerformanceObserver) => void;

/** PerformanceObserver with paint timing, whose paints the test reports. */
export class FakePerformanceObserver {
  static supportedEntryTypes: readonly string[] = ["paint"];
  static instances: FakePerformanceObserver[] = [];
  observed: PerformanceObserverInit | undefined;
  disconnected = false;
  constructor(readonly callback: PaintCallback) {
    FakePerformanceObserver.instances.push(this);
  }
  observe(options: PerformanceObserverInit): void {
    this.observed = options;
  }
  disconnect(): void {
    this.disconnected = true;
  }
  /** The browser reports a paint entry. */
  paint(name = "first-contentful-paint"): void {
    this.callback({ getEntries: () => [{ name, entryType: "paint" }] }, this);
  }
}
