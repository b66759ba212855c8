// The sign-up form's first answers before React listens in its island, so a press or a keystroke
// shows its result at once on a slow phone instead of when React has arrived: a whole ZIP gets
// its note, and a submit the page holds for the island shows that it is being sent. Each is what
// the island itself shows; the island marks the two elements with suppressHydrationWarning, since
// the page may have changed them before hydration. Used by the inline loader and the runtime.
import { isRecord, readProps } from "./page-props";
import type { ZipProps } from "./island-types";
import { zipMessage } from "./zip";

function isZipProps(value: unknown): value is ZipProps {
  return isRecord(value) && Array.isArray(value.serviceArea) && typeof value.inArea === "string" && typeof value.outsideArea === "string";
}

/** The props of the placement holding `element`, or null outside an island or without props. */
function placementProps(element: Element): Record<string, unknown> | null {
  const island = element.closest<HTMLElement>("[data-island]");
  if (!island) return null;
  try {
    const props = readProps(island.dataset.placement ?? island.dataset.island ?? "");
    return isRecord(props) ? props : null;
  } catch {
    return null;
  }
}

/** Until React listens in its island, a ZIP field's note (the element it is described by) follows what is typed. */
export function answerZipBeforeReact(): () => void {
  const onInput = (event: Event): void => {
    const field = event.target;
    if (!(field instanceof HTMLInputElement) || field.name !== "zip" || field.closest("[data-react]")) return;
    const zip = placementProps(field)?.zip;
    const note = document.getElementById(field.getAttribute("aria-describedby") ?? "");
    if (isZipProps(zip) && note) note.textContent = zipMessage(field.value, zip);
  };
  document.addEventListener("input", onInput, true);
  return () => document.removeEventListener("input", onInput, true);
}

/**
 * Shows on a held form's submit button that it is being sent (disabled, with the words of its
 * `data-submitting`, which the island writes), and returns what puts the button back as it was.
 * The button is put back just before the held submit is sent again, in the same task: the island
 * then shows its own sending state, and a form that no longer validates keeps a button that works.
 */
export function showSending(form: HTMLFormElement): () => void {
  const button = form.querySelector<HTMLButtonElement>("button[data-submitting]");
  if (!button) return () => undefined;
  const { textContent: idle, disabled } = button;
  button.textContent = button.dataset.submitting ?? idle;
  button.disabled = true;
  return () => {
    button.textContent = idle;
    button.disabled = disabled;
  };
}
