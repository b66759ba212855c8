// When the islands runtime may start: once the page's words have painted, or at the visitor's
// first tap, key or scroll, whichever comes first. Imported by src/entries/loader.ts. The runtime
// fetches no island's code by itself: that waits for the visitor (src/runtime/triggers.ts).

/** With paint timing but no paint reported (a page loaded in a background tab), the runtime starts this long after load. */
export const FALLBACK_DELAY_MS = 1000;

/**
 * Calls `painted` once the browser reports the first contentful paint, the first with the page's
 * words (a "first-paint" entry may come before it with nothing but the background). Returns false,
 * and never calls it, where the browser has no paint timing.
 */
export function onFirstContentfulPaint(painted: () => void): boolean {
  const paintTiming =
    typeof PerformanceObserver === "function" && (PerformanceObserver.supportedEntryTypes ?? []).includes("paint");
  if (!paintTiming) return false;
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntries().some((entry) => entry.name === "first-contentful-paint")) return;
    observer.disconnect();
    painted();
  });
  // Buffered: the first paint may come before this script has run.
  observer.observe({ type: "paint", buffered: true });
  return true;
}

/**
 * Calls `start` once: when the first contentful paint is reported; at the first pointer, key or
 * scroll (so a tap waits as little as possible); or after load, at once in a browser
 * without paint timing and FALLBACK_DELAY_MS later in one that reports no paint.
 */
export function afterFirstPaint(start: () => void): void {
  let started = false;
  const once = (): void => {
    if (started) return;
    started = true;
    start();
  };
  // The runtime must not compete with the words' paint.
  const paintTiming = onFirstContentfulPaint(once);
  for (const type of ["pointerdown", "keydown", "scroll"]) {
    window.addEventListener(type, once, { once: true, passive: true, capture: true });
  }
  window.addEventListener("load", () => window.setTimeout(once, paintTiming ? FALLBACK_DELAY_MS : 0), { once: true });
}
