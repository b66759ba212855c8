// The browser side of an island: hydrate its server HTML. Every island's entry (made by
// the island server for each src/islands/*.tsx) re-exports this, so esbuild puts React and
// React DOM together in one chunk shared by all islands.
import type { ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { IslandRoot } from "./island-root";

/**
 * Resolves once hydration has committed (every effect of the island has run). `id` is the
 * placement's, unique on the page: React's ids start with it, as on the server.
 */
export function hydrate<P extends object>(element: Element, Island: ComponentType<P>, props: P, id: string): Promise<void> {
  return new Promise((resolve, reject) => {
    hydrateRoot(
      element,
      <IslandRoot onHydrated={resolve}>
        <Island {...props} />
      </IslandRoot>,
      {
        // Must match src/server.tsx, or useId values differ and hydration fails.
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
}
