// When the code the islands share (React above all) is fetched before the visitor does anything.
//
// On a desktop nothing is fetched until the first scroll, tap or key: its link brings React in
// about a tenth of a second once the visitor engages. On a touch-first screen the visitor is most
// likely on a phone, whose link may take half a second or more for React (about 68 KB compressed
// at 1.6 Mbps and 150 ms round trip): fetched only at the first swipe, it would arrive after the
// pricing island has scrolled into view, and the island would answer late. So there the runtime
// fetches it as soon as it starts, after the page's words have painted, as a preload that runs
// nothing until an island is due. A visitor who asked to save data (Save-Data) gets the desktop's
// rule.

/** A screen whose main pointer is a finger, without hover: a phone or a tablet. */
export const TOUCH_FIRST_QUERY = "(hover: none) and (pointer: coarse)";

interface SaveDataConnection {
  saveData?: boolean;
}

/** True where the islands' shared code is fetched at once instead of at the first engagement. */
export function fetchesEarly(): boolean {
  const connection = (navigator as Navigator & { connection?: SaveDataConnection }).connection;
  if (connection?.saveData === true) return false;
  return typeof window.matchMedia === "function" && window.matchMedia(TOUCH_FIRST_QUERY).matches;
}
