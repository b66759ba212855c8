// The islands runtime plus two stateless behaviours, imported by the inline loader
// (src/entries/loader.ts) once the page has painted. It imports no React; React and the islands
// are chunks it loads on demand.
import { initBackToTop } from "../runtime/back-to-top";
import { initIslands } from "../runtime/islands";
import { initReveal } from "../runtime/reveal";

function start(): void {
  initReveal();
  initBackToTop();
  initIslands();
}

// Imported after the first paint, parsing is normally over; the check covers a very early start.
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start, { once: true });
} else {
  start();
}
