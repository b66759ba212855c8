// Server HTML of each island, rendered at build time by scripts/island-server.mjs.
// renderToString (never renderToStaticMarkup) so the browser can hydrate it.
// An island is one file, src/islands/<name>.tsx, found by its name: no table to keep.
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { IslandRoot } from "../shared/island-root";

/** When an island hydrates, from its file's `export const hydration`; "visible" when it says nothing. */
const HYDRATION = /^(visible|idle|media:\(.+\))$/;

interface IslandModule {
  Island: ComponentType<object>;
  hydration: string;
}

async function load(name: string): Promise<IslandModule> {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`"${name}" is not an island name (lower-case letters, digits and dashes)`);
  let module: unknown;
  try {
    // esbuild bundles every file this pattern can match; Vitest imports the one asked for.
    module = await import(`../islands/${name}.tsx`);
  } catch {
    throw new Error(`unknown island "${name}": there is no frontend/src/islands/${name}.tsx`);
  }
  const exports = typeof module === "object" && module !== null ? (module as { default?: unknown; hydration?: unknown }) : {};
  const Island = exports.default;
  if (typeof Island !== "function") throw new Error(`frontend/src/islands/${name}.tsx must export its component as default`);
  const hydration = exports.hydration ?? "visible";
  if (typeof hydration !== "string" || !HYDRATION.test(hydration)) {
    throw new Error(
      `frontend/src/islands/${name}.tsx: \`export const hydration\` must be "visible", "idle" or "media:(<query>)", not ${JSON.stringify(hydration)}`,
    );
  }
  return { Island: Island as ComponentType<object>, hydration };
}

/**
 * An island's server HTML, and when the browser hydrates it. `prefix` starts React's ids: the
 * placement's own (`<id>-`), so two placements on a page never share one.
 */
export async function render(name: string, props: unknown, prefix = `${name}-`): Promise<{ html: string; hydrate: string }> {
  const { Island, hydration } = await load(name);
  if (typeof props !== "object" || props === null || Array.isArray(props)) {
    throw new Error(`props of island "${name}" must be a JSON object`);
  }
  // Same wrapper and prefix as src/shared/hydrate.tsx, so useId values match on both sides.
  const html = renderToString(
    <IslandRoot>
      <Island {...props} />
    </IslandRoot>,
    { identifierPrefix: prefix },
  );
  return { html, hydrate: hydration };
}
