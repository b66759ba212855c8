// Live reload for `curbside serve --watch`, served by the preview server only.
// It reloads the page after a good rebuild and draws a failed build's error
// over the page. The site's Content-Security-Policy applies to it too: no
// inline script or style, no eval, and text only ever set as textContent.
const stylesheet = new URL("/__curbside/overlay.css", location.href);
const events = new EventSource(new URL("/__curbside/events", location.href));
let overlay = null;

events.addEventListener("reload", () => location.reload());

events.addEventListener("error", (event) => {
  // The browser fires a plain "error" of its own when the connection drops
  // (it then reconnects by itself); only the server's carries the build error.
  if (event instanceof MessageEvent) show(event.data);
});

function show(message) {
  if (!document.querySelector("link[data-curbside-overlay]")) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = stylesheet.href;
    link.dataset.curbsideOverlay = "";
    document.head.append(link);
  }
  overlay?.remove();
  overlay = document.createElement("div");
  overlay.className = "curbside-overlay";
  overlay.setAttribute("role", "alert");

  const box = document.createElement("div");
  box.className = "curbside-overlay__box";
  const heading = document.createElement("h2");
  heading.textContent = "The site could not be rebuilt";
  const note = document.createElement("p");
  note.textContent =
    "This page is the last good build. Fix the error below and save: the page reloads by itself.";
  const text = document.createElement("pre");
  text.textContent = message;
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "Close";
  close.addEventListener("click", hide);

  box.append(heading, note, text, close);
  overlay.append(box);
  document.body.append(overlay);
}

function hide() {
  overlay?.remove();
  overlay = null;
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") hide();
});
