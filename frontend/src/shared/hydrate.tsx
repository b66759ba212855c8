// The browser side of an island: hydrate its server HTML. Every island's entry (made by
// the island server for each src/islands/*.tsx) re-exports this, so esbuild puts React and
// React DOM together in one chunk shared by all islands.
import { startTransition, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { IslandRoot } from "./island-root";

/**
 * Resolves once hydration has committed (every effect of the island has run). `id` is the
 * placement's, unique on the page: React's ids start with it, as on the server.
 */
export function hydrate<P extends object>(element: Element, Island: ComponentType<P>, props: P, id: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // As a transition, React hydrates in slices of a few milliseconds, so the browser still
    // paints between them: a press elsewhere on the page (a Start button scrolling to the
    // form, which brings this island into view) shows its result without waiting for the whole
    // island. A press inside the island is not kept waiting: React hydrates what it lands on
    // at once, and replays it.
    startTransition(() => {
      hydrateRoot(
        element,
        <IslandRoot onHydrated={resolve}>
          <Island {...props} />
        </IslandRoot>,
        {
          // Must match src/entries/server.tsx, or useId values differ and hydration fails.
          identifierPrefix: `${id}-`,
          onRecoverableError(error, info) {
            // React recovers by rendering on the client; the page still works, but this is a bug to fix.
            console.error(`[islands] ${id}: hydration error`, error, info.componentStack ?? "");
          },
          onUncaughtError(error, info) {
            console.error(`[islands] ${id}: uncaught error`, error, info.componentStack ?? "");
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        },
      );
    });
  });
}
