// The inline loader: the runtime starts once the first paint is reported (or at the
// visitor's first tap, key or scroll), once only, and still starts after load where paint
// timing is missing or silent.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FALLBACK_DELAY_MS, afterFirstPaint } from "../src/loader/after-first-paint";

type Callback = (list: unknown, observer: FakePerformanceObserver) => void;

class FakePerformanceObserver {
  static supportedEntryTypes: readonly string[] = ["paint"];
  static instances: FakePerformanceObserver[] = [];
  observed: PerformanceObserverInit | undefined;
  disconnected = false;
  constructor(readonly callback: Callback) {
    FakePerformanceObserver.instances.push(this);
  }
  observe(options: PerformanceObserverInit): void {
    this.observed = options;
  }
  disconnect(): void {
    this.disconnected = true;
  }
  /** The browser reports a paint entry. */
  paint(): void {
    this.callback({}, this);
  }
}

describe("afterFirstPaint", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakePerformanceObserver.instances = [];
    FakePerformanceObserver.supportedEntryTypes = ["paint"];
    vi.stubGlobal("PerformanceObserver", FakePerformanceObserver);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("starts once the first paint is reported, and only once", () => {
    const start = vi.fn();
    afterFirstPaint(start);
    const [observer] = FakePerformanceObserver.instances;
    // Buffered, so a paint that came before the script ran still counts.
    expect(observer?.observed).toEqual({ type: "paint", buffered: true });
    expect(start).not.toHaveBeenCalled();
    observer?.paint();
    expect(start).toHaveBeenCalledTimes(1);
    expect(observer?.disconnected).toBe(true);
    window.dispatchEvent(new Event("load"));
    vi.advanceTimersByTime(FALLBACK_DELAY_MS * 2);
    expect(start).toHaveBeenCalledTimes(1);
  });

  for (const type of ["pointerdown", "keydown", "scroll"]) {
    it(`starts at the visitor's first ${type}, before any paint is reported`, () => {
      const start = vi.fn();
      afterFirstPaint(start);
      window.dispatchEvent(new Event(type));
      expect(start).toHaveBeenCalledTimes(1);
      FakePerformanceObserver.instances[0]?.paint();
      window.dispatchEvent(new Event(type));
      expect(start).toHaveBeenCalledTimes(1);
    });
  }

  it("starts after load when no paint is reported, as in a background tab", () => {
    const start = vi.fn();
    afterFirstPaint(start);
    window.dispatchEvent(new Event("load"));
    vi.advanceTimersByTime(FALLBACK_DELAY_MS - 1);
    expect(start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(start).toHaveBeenCalledTimes(1);
    FakePerformanceObserver.instances[0]?.paint();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("starts right after load in a browser without paint timing", () => {
    FakePerformanceObserver.supportedEntryTypes = ["mark", "measure"];
    const start = vi.fn();
    afterFirstPaint(start);
    expect(FakePerformanceObserver.instances).toHaveLength(0);
    window.dispatchEvent(new Event("load"));
    vi.advanceTimersByTime(0);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("starts right after load in a browser without PerformanceObserver", () => {
    vi.stubGlobal("PerformanceObserver", undefined);
    const start = vi.fn();
    afterFirstPaint(start);
    window.dispatchEvent(new Event("load"));
    vi.advanceTimersByTime(0);
    expect(start).toHaveBeenCalledTimes(1);
  });
});
