// Server HTML of each island, rendered at build time by scripts/island-server.mjs.
// renderToString (never renderToStaticMarkup) so the browser can hydrate it.
// An island is one file, src/islands/<name>.tsx, found by its name: no table to keep.
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { IslandRoot } from "./island-root";

async function component(name: string): Promise<ComponentType<object>> {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`"${name}" is not an island name (lower-case letters, digits and dashes)`);
  let module: unknown;
  try {
    // esbuild bundles every file this pattern can match; Vitest imports the one asked for.
    module = await import(`./islands/${name}.tsx`);
  } catch {
    throw new Error(`unknown island "${name}": there is no frontend/src/islands/${name}.tsx`);
  }
  const Island = typeof module === "object" && module !== null ? (module as { default?: unknown }).default : undefined;
  if (typeof Island !== "function") throw new Error(`frontend/src/islands/${name}.tsx must export its component as default`);
  return Island as ComponentType<object>;
}

export async function render(name: string, props: unknown): Promise<string> {
  const Island = await component(name);
  if (typeof props !== "object" || props === null || Array.isArray(props)) {
    throw new Error(`props of island "${name}" must be a JSON object`);
  }
  // Same wrapper and prefix as src/hydrate.tsx, so useId values match on both sides.
  return renderToString(
    <IslandRoot>
      <Island {...props} />
    </IslandRoot>,
    { identifierPrefix: `${name}-` },
  );
}
