// The files an element names, and one `<link rel=modulepreload>` per file: the browser fetches
// (and compiles) a module without running it, so an island's import() later finds it at hand.
// Used by the head's script (its element names the page's files) and the runtime (a placement
// names its island's).

/** The files `element` names (`data-files`: for a placement, its island's own chunk first, then the chunks it imports). */
export function placedFiles(element: Element): string[] {
  return (element.getAttribute("data-files") ?? "").split(" ").filter(Boolean);
}

/** Asks for the module at `file` (a path or URL) unless the page already has. */
export function preloadModule(file: string): void {
  const href = new URL(file, document.baseURI).href;
  for (const link of document.head.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload]")) {
    if (link.href === href) return;
  }
  const link = document.createElement("link");
  link.rel = "modulepreload";
  link.href = href;
  document.head.append(link);
}

/** Preloads the files `element` names, from the `from`th on. */
export function preloadPlaced(element: Element, from = 0): void {
  for (const file of placedFiles(element).slice(from)) preloadModule(file);
}
