// The inline loader: the runtime starts once the first contentful paint is reported (or at the
// visitor's first tap, key or scroll), once only, and still starts after load where paint
// timing is missing or silent.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FALLBACK_DELAY_MS, afterFirstPaint } from "../src/loader/after-first-paint";
import { replayEarlyTap } from "../src/loader/early-tap";
import { FakePerformanceObserver } from "./helpers";

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

  it("waits for the first contentful paint, not a first paint of the background alone", () => {
    const start = vi.fn();
    afterFirstPaint(start);
    const [observer] = FakePerformanceObserver.instances;
    observer?.paint("first-paint");
    expect(start).not.toHaveBeenCalled();
    expect(observer?.disconnected).toBe(false);
    observer?.paint("first-contentful-paint");
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

describe("replayEarlyTap", () => {
  afterEach(() => {
    document.body.innerHTML = "";
  });

  function page(): { button: HTMLButtonElement; link: HTMLAnchorElement; submit: HTMLButtonElement; outside: HTMLButtonElement } {
    document.body.innerHTML = `
      <div data-island="pricing"><button type="button" id="switch">Annual</button><a href="#contact" id="link">Start</a></div>
      <div data-island="contact"><form><button id="submit" data-submitting="Sending…">Sign me up</button></form></div>
      <button type="button" id="outside">Back to top</button>`;
    const get = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
    return { button: get("switch"), link: get("link"), submit: get("submit"), outside: get("outside") };
  }

  /** Every pointerdown and click that reaches `element`, in order. */
  function record(element: HTMLElement): string[] {
    const seen: string[] = [];
    for (const type of ["pointerdown", "click"]) element.addEventListener(type, () => seen.push(type));
    return seen;
  }

  it("presses a button tapped before the runtime started again once it has", async () => {
    const { button } = page();
    let started!: () => void;
    replayEarlyTap(new Promise<void>((resolve) => (started = resolve)));
    button.click();
    const seen = record(button);
    started();
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual(["pointerdown", "click"]);
    // A tap after the start reaches the runtime itself and is not pressed twice.
    button.click();
    await Promise.resolve();
    expect(seen).toEqual(["pointerdown", "click", "click"]);
  });

  it("leaves links, submit buttons and everything outside islands to the browser", async () => {
    const { link, submit, outside } = page();
    submit.closest("form")?.addEventListener("submit", (event) => event.preventDefault());
    let started!: () => void;
    replayEarlyTap(new Promise<void>((resolve) => (started = resolve)));
    const seen = [link, submit, outside].map((element) => {
      element.click();
      return record(element);
    });
    started();
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual([[], [], []]);
  });

  it("presses nothing when nothing was tapped", async () => {
    const { button } = page();
    const seen = record(button);
    await new Promise<void>((resolve) => {
      replayEarlyTap(Promise.resolve());
      setTimeout(resolve, 0);
    });
    expect(seen).toEqual([]);
  });

  it("reports a runtime that failed to load once, as an error, and never as an unhandled rejection", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const failure = new TypeError("Importing a module script failed.");
    replayEarlyTap(Promise.reject(failure));
    // Vitest fails the run on any unhandled rejection; settle the reaction first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]).toContain(failure);
  });

  it("says nothing when the import failed because the visitor is leaving the page", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    let fail!: (error: Error) => void;
    replayEarlyTap(new Promise((_resolve, reject) => (fail = reject)));
    window.dispatchEvent(new Event("pagehide"));
    fail(new TypeError("error loading dynamically imported module"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).not.toHaveBeenCalled();
  });

  it("says nothing when the import failed after the navigation began, before pagehide", async () => {
    // Firefox aborts the page's loads right after beforeunload; pagehide comes only once the next page answers.
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    let fail!: (error: Error) => void;
    replayEarlyTap(new Promise((_resolve, reject) => (fail = reject)));
    window.dispatchEvent(new Event("beforeunload"));
    fail(new TypeError("error loading dynamically imported module"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).not.toHaveBeenCalled();
  });

  it("stops listening for the page being left once the runtime has loaded", async () => {
    const removed = vi.spyOn(window, "removeEventListener");
    replayEarlyTap(Promise.resolve());
    await new Promise((resolve) => setTimeout(resolve, 0));
    // A beforeunload listener keeps Firefox from caching the page for Back.
    expect(removed.mock.calls.map(([type]) => type)).toEqual(expect.arrayContaining(["beforeunload", "pagehide"]));
  });

  it("holds a form sent before the runtime started, and sends it again once it has", async () => {
    const { submit } = page();
    const form = submit.closest("form") as HTMLFormElement;
    const seen: boolean[] = [];
    const nativeSubmit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => undefined);
    let started!: () => void;
    replayEarlyTap(new Promise<void>((resolve) => (started = resolve)));
    // After the loader's, on document, as the runtime's own hold listens: whether the page kept the submit.
    const record = (event: Event): void => {
      seen.push(event.defaultPrevented);
      // What the runtime's hold does with it; jsdom cannot send a form anywhere.
      event.preventDefault();
    };
    document.addEventListener("submit", record);
    form.requestSubmit(submit);
    expect(seen).toEqual([true]);
    // Held, and shown at once as being sent, in the island's words (its button's data-submitting).
    expect(submit).toHaveTextContent("Sending…");
    expect(submit).toBeDisabled();
    const woken = vi.fn();
    form.closest("[data-island]")?.addEventListener("pointerdown", woken, true);
    started();
    await Promise.resolve();
    await Promise.resolve();
    // Sent again, this time for the runtime to take (nothing here prevents it), after waking the island.
    expect(woken).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([true, false]);
    // Put back before it was sent again: the island (here nothing) shows its own state from there.
    expect(submit).toHaveTextContent("Sign me up");
    expect(submit).toBeEnabled();
    expect(nativeSubmit).not.toHaveBeenCalled();
    document.removeEventListener("submit", record);
  });

  it("sends a held form as the page would without JavaScript when the runtime never comes", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { submit } = page();
    const nativeSubmit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => undefined);
    replayEarlyTap(Promise.reject(new TypeError("Importing a module script failed.")));
    (submit.closest("form") as HTMLFormElement).requestSubmit(submit);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(nativeSubmit).toHaveBeenCalledTimes(1);
  });
});
