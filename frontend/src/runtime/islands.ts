// Finds the islands in the page and hydrates each when its strategy fires.
// This module and everything it imports statically must stay free of React:
// React and each island are separate chunks, fetched only when an island hydrates.
import type { ComponentType } from "react";
import type { hydrate } from "../hydrate";
import type { ContactProps, MenuProps, PricingProps } from "../props";
import { readProps } from "../page-props";
import { holdInteractions } from "./hold";
import { islandFiles } from "./island-files";
import { mediaMatches, whenIdle, whenInteracted, whenMedia, whenPageEngaged, whenVisible, type Cancel } from "./triggers";

/** Hydrates the island; resolves once hydration has committed. */
type Mount = (element: Element, props: unknown) => Promise<void>;

interface IslandModule<P extends object> {
  default: ComponentType<P>;
  hydrate: typeof hydrate;
}

function mounter<P extends object>(name: string, module: IslandModule<P>): Mount {
  // The props were serialized by the Rust CLI for exactly this island.
  return (element, props) => module.hydrate(element, module.default, props as P, name);
}

// Literal import() paths, so esbuild makes each island its own chunk.
export const islandLoaders: Record<string, () => Promise<Mount>> = {
  pricing: () => import("../client/pricing").then((m) => mounter<PricingProps>("pricing", m)),
  menu: () => import("../client/menu").then((m) => mounter<MenuProps>("menu", m)),
  contact: () => import("../client/contact").then((m) => mounter<ContactProps>("contact", m)),
};

const preloaded = new Set<string>();

/**
 * Asks for all of an island's files at once, as `<link rel=modulepreload>`: its import() would
 * otherwise find React only after its own chunk arrived, a round trip later. Nothing runs yet.
 */
export function preloadIsland(name: string): void {
  for (const file of islandFiles[name] ?? []) {
    const href = new URL(file, import.meta.url).href;
    if (preloaded.has(href)) continue;
    preloaded.add(href);
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.append(link);
  }
}

export async function hydrateIsland(element: Element, name: string): Promise<void> {
  const load = islandLoaders[name];
  if (!load) throw new Error(`unknown island "${name}"`);
  preloadIsland(name);
  // data-hydrating, then data-hydrated: where each island is, for tests, the benchmark and styles.
  element.setAttribute("data-hydrating", "");
  const held = holdInteractions(element);
  try {
    const props = readProps(name);
    const mount = await load();
    const hydrated = mount(element, props);
    held.releaseClick();
    await hydrated;
  } catch (error) {
    held.giveUp();
    element.removeAttribute("data-hydrating");
    throw error;
  }
  // Only now: React drops a submit on a root that is still hydrating.
  held.releaseSubmit();
  element.removeAttribute("data-hydrating");
  element.setAttribute("data-hydrated", "");
  // Visible in the browser's performance panel, and read by the benchmark.
  performance.mark(`island ${name} hydrated`);
}

/** Calls `fire` once, when the island's `data-hydrate` strategy says so. */
export function schedule(element: Element, strategy: string, fire: () => void): void {
  let done = false;
  const cancels: Cancel[] = [];
  const once = (): void => {
    if (done) return;
    done = true;
    for (const cancel of cancels) cancel();
    fire();
  };
  if (strategy.startsWith("media:")) {
    const query = strategy.slice("media:".length);
    cancels.push(whenMedia(query, once));
    // A tap only counts where the island is meant to run (the menu is inert on wide screens).
    cancels.push(whenInteracted(element, () => (mediaMatches(query) ? once() : undefined)));
    return;
  }
  if (strategy === "idle") {
    cancels.push(whenIdle(once));
  } else {
    if (strategy !== "visible") console.error(`[islands] unknown data-hydrate "${strategy}", using "visible"`);
    cancels.push(whenVisible(element, once));
  }
  cancels.push(whenInteracted(element, once));
}

/** An island whose strategy is a media query runs only where that query matches (the menu on phones). */
function mayRunHere(strategy: string): boolean {
  return !strategy.startsWith("media:") || mediaMatches(strategy.slice("media:".length));
}

export function initIslands(root: ParentNode = document): void {
  const islands = [...root.querySelectorAll("[data-island]")];
  // A visitor who scrolls or taps is reading on: fetch the islands this viewport may hydrate now,
  // so an island's code is there by the time it scrolls into view. A page that is only loaded
  // fetches nothing.
  whenPageEngaged(() => {
    for (const element of islands) {
      if (mayRunHere(element.getAttribute("data-hydrate") ?? "visible")) preloadIsland(element.getAttribute("data-island") ?? "");
    }
  });
  for (const element of islands) {
    const name = element.getAttribute("data-island") ?? "";
    const strategy = element.getAttribute("data-hydrate") ?? "visible";
    schedule(element, strategy, () => {
      hydrateIsland(element, name).catch((error: unknown) => {
        // The server HTML stays in place and keeps working as a plain page.
        console.error(`[islands] ${name}: could not hydrate`, error);
      });
    });
  }
}
