// The inline script at the end of every page that places islands: it makes the Start buttons
// work at once (src/loader/plan-start.ts), answers the form's ZIP before React
// (src/shared/form-early.ts), and starts the islands runtime (src/entries/runtime.ts) once the page has
// painted. Reading the page needs no JavaScript, so the runtime's start-up may not compete
// with the first paint on a slow phone. The runtime is the only file fetched before the visitor
// engages: the islands' code (React above all) waits for a scroll, tap, key or focus.
//
// The build inlines it at the end of <body>, allowed by its hash in the
// Content-Security-Policy. The runtime's URL comes from the element's data-runtime
// attribute, so this text, and with it the hash, stays the same from build to build.
// (It exports nothing: an export would be dead code in every page.)
import { markEngagement } from "../shared/engaged";
import { answerZipBeforeReact } from "../shared/form-early";
import { afterFirstPaint } from "../loader/after-first-paint";
import { replayEarlyTap } from "../loader/early-tap";
import { closePopoversOnLink } from "../loader/menu-links";
import { initPlanStarts } from "../loader/plan-start";

const script = document.currentScript;
const runtime = script instanceof HTMLScriptElement ? script.dataset.runtime : undefined;
try {
  initPlanStarts();
} catch (error) {
  // The links still jump to the form, and the runtime below still starts.
  console.error("[islands] the Start buttons could not be prepared", error);
}
closePopoversOnLink();
answerZipBeforeReact();
markEngagement();
if (runtime) {
  replayEarlyTap(
    new Promise((resolve, reject) => {
      afterFirstPaint(() => {
        import(runtime).then(resolve, reject);
      });
    }),
  );
}
