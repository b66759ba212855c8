// When the islands' code (React above all) is fetched before the visitor does anything.
//
// On a desktop nothing is fetched until the first scroll, tap or key (the runtime does it then):
// its link brings React in about a tenth of a second. On a touch-first screen the visitor is
// most likely on a phone, whose link may take half a second or more for React (about 68 KB
// compressed at 1.6 Mbps and 150 ms round trip): fetched only at the first swipe, it would arrive
// after the pricing island has scrolled into view, and the island would answer late. So there
// the loader asks for every file the page's islands name as it starts the runtime, after the
// page's words have painted and side by side with the runtime, as preloads that run nothing
// until an island is due. A visitor who asked to save data (Save-Data) gets the desktop's rule.
import { preloadPlaced } from "../module-preload";
import { mediaMatches } from "../runtime/triggers";

/** A screen whose main pointer is a finger, without hover: a phone or a tablet. */
export const TOUCH_FIRST_QUERY = "(hover: none) and (pointer: coarse)";

interface SaveDataConnection {
  saveData?: boolean;
}

/** True where the islands' code is fetched as the runtime starts instead of at the first engagement. */
export function fetchesEarly(): boolean {
  const connection = (navigator as Navigator & { connection?: SaveDataConnection }).connection;
  if (connection?.saveData === true) return false;
  return typeof window.matchMedia === "function" && window.matchMedia(TOUCH_FIRST_QUERY).matches;
}

/**
 * Preloads the files every placed island names (`data-files`: its own chunk, then the chunks it
 * imports), once each; an island whose moment is a media query that does not match is left out.
 */
export function preloadPlacedIslands(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>("[data-island]")) {
    const strategy = element.dataset.hydrate ?? "";
    if (!strategy.startsWith("media:") || mediaMatches(strategy.slice("media:".length))) preloadPlaced(element);
  }
}
