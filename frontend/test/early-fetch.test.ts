// The head's script: on a touch-first screen, unless the visitor saves data, it asks for the
// files its element names once the first screen is done (the HTML in, a frame laid out, the
// head's preloaded pictures in), or at load; nowhere else does it fetch anything before the
// visitor engages.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FALLBACK_DELAY_MS } from "../src/loader/after-first-paint";
import { TOUCH_FIRST_QUERY, afterFirstScreen, fetchesEarly } from "../src/loader/after-first-screen";
import { FakePerformanceObserver, stubMatchMedia } from "./helpers";

/** requestAnimationFrame, run frame by frame by the test. */
function stubFrames(): { next: () => void } {
  let queue: FrameRequestCallback[] = [];
  vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => {
    queue.push(callback);
    return queue.length;
  });
  return {
    next() {
      const due = queue;
      queue = [];
      for (const callback of due) callback(performance.now());
    },
  };
}

/** Paint timing, with the paints reported by the test; returns the report of the words' paint. */
function stubPaintTiming(): () => void {
  FakePerformanceObserver.instances = [];
  FakePerformanceObserver.supportedEntryTypes = ["paint"];
  vi.stubGlobal("PerformanceObserver", FakePerformanceObserver);
  return () => {
    for (const observer of FakePerformanceObserver.instances) observer.paint();
  };
}

const preloads = (): string[] =>
  [...document.head.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload]")].map((link) => new URL(link.href).pathname);

afterEach(() => {
  document.head.innerHTML = "";
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.resetModules();
});

describe("where the islands' code is fetched early", () => {
  it("on a touch-first screen, not on one with a mouse", () => {
    stubMatchMedia((query) => query === TOUCH_FIRST_QUERY);
    expect(fetchesEarly()).toBe(true);
    stubMatchMedia(() => false);
    expect(fetchesEarly()).toBe(false);
  });

  it("not for a visitor who asked to save data", () => {
    stubMatchMedia((query) => query === TOUCH_FIRST_QUERY);
    vi.stubGlobal("navigator", Object.assign(Object.create(navigator) as Navigator, { connection: { saveData: true } }));
    expect(fetchesEarly()).toBe(false);
  });
});

describe("afterFirstScreen", () => {
  let frames: { next: () => void };
  beforeEach(() => {
    frames = stubFrames();
  });

  it("fires once a frame has been laid out: at the second animation frame, not the first", () => {
    const fire = vi.fn();
    afterFirstScreen(fire);
    frames.next();
    expect(fire).not.toHaveBeenCalled();
    frames.next();
    expect(fire).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event("load"));
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it("waits for every picture the head preloads, whether it arrives or fails", () => {
    document.head.innerHTML = `<link rel="preload" as="image" href="/a.avif"><link rel="preload" as="image" href="/b.avif"><link rel="preload" as="font" href="/f.woff2">`;
    const [first, second] = document.head.querySelectorAll("link[as=image]");
    const fire = vi.fn();
    afterFirstScreen(fire);
    frames.next();
    frames.next();
    first?.dispatchEvent(new Event("load"));
    expect(fire).not.toHaveBeenCalled();
    second?.dispatchEvent(new Event("error"));
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it("waits, frame after frame, until the page's HTML has arrived in full", () => {
    let responseEnd = 0;
    vi.spyOn(performance, "getEntriesByType").mockImplementation((type) =>
      type === "navigation" ? ([{ responseEnd }] as unknown as PerformanceEntryList) : [],
    );
    const fire = vi.fn();
    afterFirstScreen(fire);
    frames.next();
    frames.next();
    frames.next();
    expect(fire).not.toHaveBeenCalled();
    responseEnd = 120;
    frames.next();
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it("where the browser reports paints, waits for the words' paint: frames laid out before it do not count", () => {
    const painted = stubPaintTiming();
    const fire = vi.fn();
    afterFirstScreen(fire);
    frames.next();
    frames.next();
    frames.next();
    expect(fire).not.toHaveBeenCalled();
    // Buffered, so a paint that came before the script ran still counts.
    expect(FakePerformanceObserver.instances[0]?.observed).toEqual({ type: "paint", buffered: true });
    painted();
    frames.next();
    expect(fire).not.toHaveBeenCalled();
    frames.next();
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it("where the browser reports paints, a load before the paint fires it only after the fallback delay", () => {
    vi.useFakeTimers();
    try {
      stubPaintTiming();
      const fire = vi.fn();
      afterFirstScreen(fire);
      window.dispatchEvent(new Event("load"));
      vi.advanceTimersByTime(FALLBACK_DELAY_MS - 1);
      expect(fire).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fire).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("fires at the load event where no frame is made (a tab in the background)", () => {
    document.head.innerHTML = `<link rel="preload" as="image" href="/a.avif">`;
    const fire = vi.fn();
    afterFirstScreen(fire);
    window.dispatchEvent(new Event("load"));
    expect(fire).toHaveBeenCalledTimes(1);
    frames.next();
    frames.next();
    document.head.querySelector("link")?.dispatchEvent(new Event("load"));
    expect(fire).toHaveBeenCalledTimes(1);
  });
});

describe("the head's script", () => {
  /** Runs src/entries/early-fetch.ts as the page would, from a script element naming `files`. */
  async function runScript(files: string): Promise<void> {
    const script = document.createElement("script");
    script.dataset.files = files;
    document.head.append(script);
    vi.spyOn(document, "currentScript", "get").mockReturnValue(script);
    await import("../src/entries/early-fetch");
  }

  it("on a touch-first screen, preloads each file its element names, once the first screen is done", async () => {
    const frames = stubFrames();
    stubMatchMedia((query) => query === TOUCH_FIRST_QUERY);
    await runScript("/assets/islands-1.js /assets/pricing-2.js /assets/chunk-3.js");
    frames.next();
    expect(preloads()).toEqual([]);
    frames.next();
    expect(preloads()).toEqual(["/assets/islands-1.js", "/assets/pricing-2.js", "/assets/chunk-3.js"]);
  });

  it("with a mouse, fetches nothing", async () => {
    const frames = stubFrames();
    stubMatchMedia(() => false);
    await runScript("/assets/islands-1.js /assets/chunk-3.js");
    frames.next();
    frames.next();
    window.dispatchEvent(new Event("load"));
    expect(preloads()).toEqual([]);
  });
});
