// Between a visitor's first tap in an island and its hydration the island's
// buttons have no handlers yet. Hold that tap (and any submit) and replay it
// once React is listening, so the first tap is never lost and a submit never
// leaves the page for the form service's own page.
// Links and form fields need no help: the browser already does the right thing.

import { showSending } from "../shared/form-early";

export interface Held {
  /** hydrateRoot has been called: React now handles clicks itself (hydrating first), so replay the held one. */
  releaseClick(): void;
  /** Hydration has committed: React's onSubmit is in place, so replay a held submit through it. */
  releaseSubmit(): void;
  /** Hydration failed: let a held submit go through natively, as without JS. */
  giveUp(): void;
}

/**
 * What a click needs no hold on: what the browser completes by itself (links, fields) or turns
 * into a submit, and the plan's switch and words, which the page's plan script answers until
 * React listens (and React after).
 */
const NO_HOLD =
  "a[href], input, select, textarea, label, button[type=submit], button:not([type]), [data-plan-toggle], [data-plan-option]";

export function needsNoHold(target: Element): boolean {
  return target.closest(NO_HOLD) !== null;
}

export function holdInteractions(island: Element): Held {
  let click: HTMLElement | null = null;
  let form: HTMLFormElement | null = null;
  let putBack = (): void => undefined;

  const onClick = (event: Event): void => {
    const target = event.target;
    // A submit button's click becomes a submit event, handled below.
    if (!(target instanceof HTMLElement) || !island.contains(target) || needsNoHold(target)) return;
    click = target;
  };
  // Both on the document, capturing: registered before the runtime keeps the island's events
  // from a hydrating React (src/runtime/shield.ts), so they still see them. React listens only
  // once these are released, so a held submit is sent once, through it.
  const onSubmit = (event: Event): void => {
    const target = event.target;
    if (!(target instanceof HTMLFormElement) || !island.contains(target) || event.defaultPrevented) return;
    event.preventDefault();
    if (form === target) return;
    form = target;
    // Shown at once, as the island would once it listens.
    putBack = showSending(target);
  };
  document.addEventListener("click", onClick, true);
  document.addEventListener("submit", onSubmit, true);

  const stopClicks = (): void => document.removeEventListener("click", onClick, true);
  const stopSubmits = (): void => document.removeEventListener("submit", onSubmit, true);
  return {
    releaseClick() {
      stopClicks();
      if (click?.isConnected) click.click();
    },
    releaseSubmit() {
      stopSubmits();
      if (!form?.isConnected) return;
      putBack();
      form.requestSubmit();
    },
    giveUp() {
      stopClicks();
      stopSubmits();
      if (form?.isConnected) form.submit();
    },
  };
}
