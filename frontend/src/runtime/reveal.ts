// Reveal-on-scroll for [data-reveal]. Only JS adds the hiding class, so nothing is
// hidden without JS; nothing already in view at load is hidden (no flash); the
// effect uses opacity and transform only (no layout shift); reduced motion skips it.
import { prefersReducedMotion } from "../motion";

/** Spec section 9: revealed when 15% of the element is visible. */
export const REVEAL_THRESHOLD = 0.15;

export function initReveal(): void {
  if (prefersReducedMotion() || typeof IntersectionObserver !== "function") return;
  const elements = Array.from(document.querySelectorAll<HTMLElement>("[data-reveal]"));
  const viewportHeight = window.innerHeight;
  // Read every position before changing any class, so the browser lays out once.
  const outOfView = elements.filter((element) => {
    const rect = element.getBoundingClientRect();
    return rect.bottom <= 0 || rect.top >= viewportHeight;
  });
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        entry.target.classList.add("revealed");
        observer.unobserve(entry.target);
      }
    },
    { threshold: REVEAL_THRESHOLD },
  );
  for (const element of outOfView) {
    element.classList.add("reveal");
    observer.observe(element);
  }
}
