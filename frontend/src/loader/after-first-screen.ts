// When the islands' code (React above all) is fetched before the visitor does anything.
//
// On a desktop nothing is fetched until the first scroll, tap or key (the runtime does it then):
// its link brings React in about a tenth of a second. On a touch-first screen the visitor is
// most likely on a phone, whose link may take half a second or more for React (about 68 KB
// compressed at 1.6 Mbps and 150 ms round trip): fetched only at the first swipe, it would arrive
// after the pricing island has scrolled into view, and the island would answer late. So there
// the page's head script (src/entries/early-fetch.ts) asks for the runtime and every file its islands name,
// as preloads that run nothing, as soon as the first screen is done. A visitor who asked to save
// data (Save-Data) gets the desktop's rule.

import { FALLBACK_DELAY_MS, onFirstContentfulPaint } from "./after-first-paint";

/** A screen whose main pointer is a finger, without hover: a phone or a tablet. */
export const TOUCH_FIRST_QUERY = "(hover: none) and (pointer: coarse)";

interface SaveDataConnection {
  saveData?: boolean;
}

/** True where the islands' code is fetched as soon as the first screen is done instead of at the first engagement. */
export function fetchesEarly(): boolean {
  const connection = (navigator as Navigator & { connection?: SaveDataConnection }).connection;
  if (connection?.saveData === true) return false;
  return typeof window.matchMedia === "function" && window.matchMedia(TOUCH_FIRST_QUERY).matches;
}

/** True once the page's HTML has arrived in full (or where the browser does not say). */
function htmlArrived(): boolean {
  const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
  return navigation === undefined || navigation.responseEnd > 0;
}

/**
 * Calls `fire` once the first screen is done: the browser has reported the words' paint, the
 * page's HTML has arrived in full and been laid out for a frame, and every picture the head
 * preloads (the page's largest paint) has arrived, so the islands' code takes no bandwidth or
 * CPU from any of them. Where the browser reports no paint (a tab in the background), it fires
 * FALLBACK_DELAY_MS after load; where it has no paint timing, at the second frame or at load.
 *
 * The paint's report, not a frame alone: a frame laid out may reach the screen well after it,
 * even after the load event, and code fetched and compiled before that paint delays it.
 */
export function afterFirstScreen(fire: () => void, head: ParentNode = document.head): void {
  let fired = false;
  const once = (): void => {
    if (fired) return;
    fired = true;
    fire();
  };
  const pictures = [...head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')];
  let waiting = pictures.length + 1;
  const settle = (): void => {
    waiting -= 1;
    if (waiting === 0) once();
  };
  for (const link of pictures) {
    // One of the two comes.
    link.addEventListener("load", settle, { once: true });
    link.addEventListener("error", settle, { once: true });
  }
  // The first callback runs as the first frame is being made; from the second on, the page has
  // been laid out, and the browser reports a response it has received in full.
  const frame = (first: boolean): void => {
    window.requestAnimationFrame(() => (!first && htmlArrived() ? settle() : frame(false)));
  };
  const paintTiming = onFirstContentfulPaint(() => frame(true));
  if (!paintTiming) frame(true);
  window.addEventListener("load", () => (paintTiming ? window.setTimeout(once, FALLBACK_DELAY_MS) : once()), { once: true });
}
