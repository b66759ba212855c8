// The page's only script: the islands runtime plus two stateless behaviours.
// It imports no React; React and the islands are chunks it loads on demand.
import { initBackToTop } from "./runtime/back-to-top";
import { initIslands } from "./runtime/islands";
import { initReveal } from "./runtime/reveal";

function start(): void {
  initReveal();
  initBackToTop();
  initIslands();
}

// Module scripts run after parsing; the check covers an inline or async inclusion.
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start, { once: true });
} else {
  start();
}
