// The one inline script of every page: it starts the islands runtime (src/runtime.ts)
// once the page has painted. Reading the page needs no JavaScript, so neither the
// runtime's download nor its start-up may compete with the first paint on a slow phone.
//
// The build inlines it at the end of <body>, allowed by its hash in the
// Content-Security-Policy. The runtime's URL comes from the element's data-runtime
// attribute, so this text, and with it the hash, stays the same from build to build.

/** Without paint timing, or when no paint is reported, the runtime starts this long after load. */
export const FALLBACK_DELAY_MS = 1000;

/** Calls `start` once: after the first paint is reported, or failing that after load. */
export function afterFirstPaint(start: () => void): void {
  let started = false;
  const once = (): void => {
    if (started) return;
    started = true;
    start();
  };
  const paintTiming =
    typeof PerformanceObserver === "function" && (PerformanceObserver.supportedEntryTypes ?? []).includes("paint");
  if (paintTiming) {
    const observer = new PerformanceObserver(() => {
      observer.disconnect();
      once();
    });
    // Buffered: the first paint may come before this script has run.
    observer.observe({ type: "paint", buffered: true });
  }
  // A page loaded in a background tab paints only once shown; older browsers report no paints.
  window.addEventListener("load", () => window.setTimeout(once, paintTiming ? FALLBACK_DELAY_MS : 0), { once: true });
}

const script = document.currentScript;
const runtime = script instanceof HTMLScriptElement ? script.dataset.runtime : undefined;
if (runtime) afterFirstPaint(() => void import(runtime));
