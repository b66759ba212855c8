// Whether the visitor has engaged with the page: a scroll, a touch, a press, a key or a focus.
// Only then is the islands' code fetched (never by a timer or a paint). The inline loader marks
// the page at the first such event, from the end of the body on, so the runtime, which starts
// later (after the first paint, or at that very event), still knows the visitor has engaged.

/** On <html> once the visitor has engaged. */
export const ENGAGED_ATTRIBUTE = "data-engaged";

/** What counts as engaging, seen on window in the capture phase. */
export const ENGAGEMENT_EVENTS = ["scroll", "pointerdown", "touchstart", "keydown", "wheel", "focusin"] as const;

export function hasEngaged(): boolean {
  return document.documentElement.hasAttribute(ENGAGED_ATTRIBUTE);
}

/** Marks the page at the visitor's first engagement (the loader calls it once). */
export function markEngagement(): void {
  const mark = (): void => {
    document.documentElement.setAttribute(ENGAGED_ATTRIBUTE, "");
    for (const type of ENGAGEMENT_EVENTS) window.removeEventListener(type, mark, true);
  };
  for (const type of ENGAGEMENT_EVENTS) window.addEventListener(type, mark, { capture: true, passive: true });
}
