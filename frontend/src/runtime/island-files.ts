// Where the runtime finds each island: one file per island in src/islands/, with no table of names.
//
// This is the form tests run (Vitest): each island straight from its folder, with the shared
// hydrate. The build replaces the whole module (scripts/island-server.mjs) with the same two
// exports over the built chunks: `islandFiles` lists each island's entry chunk and every chunk it
// imports (React among them), so the runtime can fetch them side by side, and `importIsland`
// imports the entry chunk by its hashed name.
export const islandFiles: Readonly<Record<string, readonly string[]>> = {};

/** The island's browser module: its component as `default`, and `hydrate`. */
export function importIsland(name: string): Promise<unknown> {
  return Promise.all([import(`../islands/${name}.tsx`), import("../hydrate")]).then(
    ([island, shared]: [unknown, unknown]) => ({ ...(island as object), ...(shared as object) }),
  );
}
