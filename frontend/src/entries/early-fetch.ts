// The inline script in the head of every page that places islands: on a touch-first screen
// (src/loader/after-first-screen.ts), it asks for the runtime and the files the page's islands name
// (React's chunk among them) as soon as the first screen is done: the HTML has arrived, the page
// has been laid out, and the head's priority pictures are in. They are preloads: nothing runs
// until the inline loader at the end of the body starts the runtime and an island is due.
//
// It must run in the head: the loader runs only once the whole body has been parsed, which on a
// slow phone comes well after the words are on screen. The files come from the element's
// data-files attribute, written by the build for each page, so this text, and with it its hash
// in the Content-Security-Policy, stays the same from page to page.
import { placedFiles, preloadPlaced } from "../shared/module-preload";
import { afterFirstScreen, fetchesEarly } from "../loader/after-first-screen";

const script = document.currentScript;
if (script && placedFiles(script).length > 0 && fetchesEarly()) {
  afterFirstScreen(() => preloadPlaced(script));
}
