// While an island hydrates, React answers a press inside it by hydrating the whole island at once,
// in that press's task: on a slow phone a long task in front of the press, the very wait the
// loader exists to avoid. So until hydration has committed, the visitor's own events inside the
// island stop at the document, after the page's own listeners (the loader's plan and ZIP
// answers, the runtime's hold), and React's listeners on the island never see them. React
// then hydrates in its slices, in between presses, and takes over once it is done.

/** The events React hydrates an island for, at once, when one reaches it mid-hydration. */
const PRESSES = [
  "pointerdown",
  "pointerup",
  "pointercancel",
  "mousedown",
  "mouseup",
  "touchstart",
  "touchend",
  "touchcancel",
  "click",
  "auxclick",
  "dblclick",
  "contextmenu",
  "keydown",
  "keypress",
  "keyup",
  "beforeinput",
  "input",
  "change",
  "submit",
  "reset",
  "focusin",
  "focusout",
  "compositionstart",
  "compositionend",
  "copy",
  "cut",
  "paste",
  "dragstart",
  "dragend",
  "drop",
] as const;

/**
 * Keeps the visitor's events inside `island` from React until the returned function is called.
 * Registered after the page's own listeners on the document, so those still run. Only events
 * the browser made: a page script's own (the promotion's change a Start button fires, a held
 * press replayed) go through as before.
 */
export function shieldFromReact(island: Element): () => void {
  const stop = (event: Event): void => {
    if (event.isTrusted && event.target instanceof Node && island.contains(event.target)) event.stopPropagation();
  };
  for (const type of PRESSES) document.addEventListener(type, stop, { capture: true, passive: true });
  return () => {
    for (const type of PRESSES) document.removeEventListener(type, stop, { capture: true });
  };
}
