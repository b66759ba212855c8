// The files an element names, and one `<link rel=modulepreload>` per file: the browser fetches
// (and compiles) a module without running it, so an island's import() later finds it at hand.
// Used by the runtime: a placement names its island's files.

/** The files `element` names (`data-files`: for a placement, its island's own chunk first, then the chunks it imports). */
export function placedFiles(element: Element): string[] {
  return (element.getAttribute("data-files") ?? "").split(" ").filter(Boolean);
}

/** Each file asked for, by its URL: settles once it has arrived (or failed: the import then reports it). */
const asked = new Map<string, Promise<void>>();

function supportsModulePreload(link: HTMLLinkElement): boolean {
  try {
    return link.relList.supports("modulepreload");
  } catch {
    return false;
  }
}

/** Asks for the module at `file` (a path or URL) unless this page already has; settles once it is in. */
export function preloadModule(file: string): Promise<void> {
  const href = new URL(file, document.baseURI).href;
  const known = asked.get(href);
  if (known) return known;
  const link = document.createElement("link");
  link.rel = "modulepreload";
  link.href = href;
  // A browser without module preloads fetches nothing here and fires neither event: its import()
  // fetches instead, so there is nothing to wait for.
  const arrived = !supportsModulePreload(link)
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        link.addEventListener("load", () => resolve(), { once: true });
        link.addEventListener("error", () => resolve(), { once: true });
      });
  asked.set(href, arrived);
  document.head.append(link);
  return arrived;
}

/** Preloads the files `element` names, from the `from`th on; settles once all of them are in. */
export function preloadPlaced(element: Element, from = 0): Promise<void> {
  return Promise.all(placedFiles(element).slice(from).map(preloadModule)).then(() => undefined);
}
