// Finds the islands in the page and hydrates each when its strategy fires.
// This module and everything it imports statically must stay free of React:
// React and each island are separate chunks, fetched only when an island hydrates.
import type { ComponentType } from "react";
import type { hydrate } from "../shared/hydrate";
import { readProps } from "../shared/page-props";
import { placedFiles, preloadPlaced } from "../shared/module-preload";
import { holdInteractions } from "./hold";
import { shieldFromReact } from "./shield";
import { importIsland } from "./island-files";
import { afterEngaged, idle, mediaMatches, whenIdle, whenInteracted, whenMedia, whenPageEngaged, whenVisible, type Cancel } from "./triggers";

/** What every island's browser module exports (the island file's component, and the shared hydrate). */
interface IslandModule {
  default: ComponentType<object>;
  hydrate: typeof hydrate;
}

/**
 * The island's module, from src/islands/<name>.tsx (its chunk, as the placement names it);
 * rejects when there is none. Its shape is not checked here, to keep the runtime small: the build
 * made every entry with both exports, and refused an island file without a default export.
 */
function loadIsland(element: Element, name: string): Promise<IslandModule> {
  return importIsland(name, placedFiles(element)[0]) as Promise<IslandModule>;
}

export async function hydrateIsland(element: Element, name: string): Promise<void> {
  // All of the island's files at once: its import() would otherwise find React only after its
  // own chunk arrived, a round trip later.
  const arrived = preloadPlaced(element);
  // data-hydrating, then data-hydrated: where each island is, for tests, the benchmark and styles.
  element.setAttribute("data-hydrating", "");
  const held = holdInteractions(element);
  // The placement's id, unique on the page: its props, and React's prefix (as on the server).
  const id = element.getAttribute("data-placement") ?? name;
  let unshield = (): void => undefined;
  try {
    const props = readProps(id);
    // No press waits for React (the loader answers them all until it listens), so React's
    // evaluation and the start of hydration wait for an idle moment, each on its own, rather
    // than running the moment the files arrive, perhaps in front of a press.
    await arrived;
    await idle();
    const module = await loadIsland(element, name);
    await idle();
    // Until hydration has committed the page's scripts answer every press, and React sees none.
    unshield = shieldFromReact(element);
    // The props were serialized by the Rust CLI for exactly this placement.
    await module.hydrate(element, module.default, props as object, id);
  } catch (error) {
    unshield();
    held.giveUp();
    element.removeAttribute("data-hydrating");
    throw error;
  }
  // From here React answers the island's presses (the page's plan script stops answering them),
  // in the same task as the shield goes: no press is answered by both, none by neither.
  unshield();
  element.setAttribute("data-react", "");
  held.releaseClick();
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
  // Never before the visitor engages: a visit that only loads the page fetches no island's code.
  if (strategy === "idle") {
    cancels.push(afterEngaged(whenIdle, once));
  } else {
    // Anything else is "visible": the build accepts no other strategy.
    cancels.push(afterEngaged((fire) => whenVisible(element, fire), once));
  }
  cancels.push(whenInteracted(element, once));
}

/** An island whose strategy is a media query runs only where that query matches (the menu on phones). */
function mayRunHere(strategy: string): boolean {
  return !strategy.startsWith("media:") || mediaMatches(strategy.slice("media:".length));
}

export function initIslands(root: ParentNode = document): void {
  const islands = [...root.querySelectorAll("[data-island]")];
  // A visitor who scrolls or taps is reading on: fetch the code the islands this viewport may
  // hydrate share (React above all), so it is there by the time an island scrolls into view.
  // Each island's own chunk (the first of its files) comes when that island is due, so it takes
  // no bandwidth from the chunk the island in view waits for. A page that is only loaded
  // fetches nothing, on a phone as on a desktop.
  whenPageEngaged(() => {
    for (const element of islands) {
      if (mayRunHere(element.getAttribute("data-hydrate") ?? "visible")) void preloadPlaced(element, 1);
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
