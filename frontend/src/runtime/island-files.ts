// How the runtime imports an island: one file per island in src/islands/, with no table of names.
//
// This is the form tests run (Vitest): each island straight from its folder, with the shared
// hydrate. The build replaces the whole module (scripts/island-server.mjs) with one that imports
// `file`, the island's entry chunk as its placement names it (the first of its data-files).

/** The island's browser module: its component as `default`, and `hydrate`. */
export function importIsland(name: string, _file?: string): Promise<unknown> {
  return Promise.all([import(`../islands/${name}.tsx`), import("../shared/hydrate")]).then(
    ([island, shared]: [unknown, unknown]) => ({ ...(island as object), ...(shared as object) }),
  );
}
