// The header's menu is a popover the browser opens and closes by itself. A link in it to a
// section of this same page jumps there without leaving the page, and the open list would then
// cover the section it jumped to: close it. (A link to another page leaves, list and all.)

/** Starts closing an open popover when a link inside it is followed. */
export function closePopoversOnLink(): void {
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("[popover] a[href]") : null;
    const popover = link?.closest("[popover]");
    // Engines without popovers show the list as a plain one: nothing to close.
    if (popover instanceof HTMLElement && typeof popover.hidePopover === "function" && popover.matches(":popover-open")) {
      popover.hidePopover();
    }
  });
}
