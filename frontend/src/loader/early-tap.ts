// A tap on an island's button before the runtime has started would be lost: the runtime's
// own hold (src/runtime/hold.ts) is not listening yet. Remember the last such tap and, once
// the runtime has started, press that button again the way a tap arrives (pointerdown, then
// click): the island hydrates and the runtime's hold replays the click into it.
// A form sent that early is held the same way, rather than leaving the page for the form
// service's own: once the runtime is listening, it is sent again through the island; if the
// runtime never comes, it is sent as the page would send it without JavaScript.
import { showSending } from "../shared/form-early";
import { needsNoHold } from "../runtime/hold";

export function replayEarlyTap(started: Promise<unknown>): void {
  let tapped: HTMLElement | null = null;
  // A visitor who leaves while the runtime is still loading makes its import fail: that is no
  // error of the page, and must not be reported as one. Firefox aborts the page's loads as soon
  // as a navigation starts, right after beforeunload and before the next page has even answered
  // (pagehide comes only then), so beforeunload is the first sign. Listened to only while the
  // runtime loads: a beforeunload listener keeps Firefox from caching the page for Back.
  let leaving = false;
  const onLeave = (): void => {
    leaving = true;
  };
  window.addEventListener("beforeunload", onLeave);
  window.addEventListener("pagehide", onLeave);
  const onClick = (event: Event): void => {
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("[data-island]") && !needsNoHold(target)) tapped = target;
  };
  let submitted: { form: HTMLFormElement; submitter: HTMLElement | null; putBack: () => void } | null = null;
  // Bubbling, on document: a submit something else already handled is left alone.
  const onSubmit = (event: SubmitEvent): void => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.closest("[data-island]") || event.defaultPrevented) return;
    event.preventDefault();
    // Shown at once, as the island would; a second press while held changes nothing.
    if (submitted?.form === form) return;
    submitted = { form, submitter: event.submitter, putBack: showSending(form) };
  };
  document.addEventListener("click", onClick, true);
  document.addEventListener("submit", onSubmit);
  const stop = (): void => {
    document.removeEventListener("click", onClick, true);
    document.removeEventListener("submit", onSubmit);
    window.removeEventListener("beforeunload", onLeave);
    window.removeEventListener("pagehide", onLeave);
  };
  // The runtime has run by the time this settles (module evaluation, then this reaction),
  // so a tap after that reaches its hold and is not pressed twice.
  started.then(
    () => {
      stop();
      if (submitted?.form.isConnected) {
        submitted.putBack();
        // Wakes the island (its hold is then listening), which takes the submit from here.
        submitted.form.dispatchEvent(new Event("pointerdown", { bubbles: true, composed: true }));
        submitted.form.requestSubmit(submitted.submitter);
      }
      if (!tapped?.isConnected) return;
      tapped.dispatchEvent(new Event("pointerdown", { bubbles: true, composed: true }));
      tapped.click();
    },
    (error: unknown) => {
      stop();
      if (submitted?.form.isConnected) submitted.form.submit();
      // Reported, as a failed module script would be, but never as an unhandled rejection.
      if (!leaving) console.error("[islands] the runtime could not load", error);
    },
  );
}
