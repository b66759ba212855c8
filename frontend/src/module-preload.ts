// One `<link rel=modulepreload>` per file: the browser fetches (and compiles) a module without
// running it, so an island's import() later finds it at hand. Used by the loader and the runtime.

/** Asks for the module at `href` (absolute) unless the page already has. */
export function preloadModule(href: string): void {
  for (const link of document.head.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload]")) {
    if (link.href === href) return;
  }
  const link = document.createElement("link");
  link.rel = "modulepreload";
  link.href = href;
  document.head.append(link);
}
