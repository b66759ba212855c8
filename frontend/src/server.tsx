// Server HTML of each island, rendered at build time by scripts/island-server.mjs.
// renderToString (never renderToStaticMarkup) so the browser can hydrate it.
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { IslandRoot } from "./island-root";
import Contact from "./islands/contact";
import Menu from "./islands/menu";
import Pricing from "./islands/pricing";
import type { IslandProps } from "./props";

const islands: { [Name in keyof IslandProps]: ComponentType<IslandProps[Name]> } = {
  pricing: Pricing,
  menu: Menu,
  contact: Contact,
};

function isIslandName(name: string): name is keyof IslandProps {
  return Object.hasOwn(islands, name);
}

export const islandNames: readonly string[] = Object.keys(islands);

export function render(name: string, props: unknown): string {
  if (!isIslandName(name)) {
    throw new Error(`unknown island "${name}" (known: ${islandNames.join(", ")})`);
  }
  if (typeof props !== "object" || props === null || Array.isArray(props)) {
    throw new Error(`props of island "${name}" must be a JSON object`);
  }
  // Same wrapper and prefix as src/hydrate.tsx, so useId values match on both sides.
  const Island = islands[name] as ComponentType<object>;
  return renderToString(
    <IslandRoot>
      <Island {...props} />
    </IslandRoot>,
    { identifierPrefix: `${name}-` },
  );
}
