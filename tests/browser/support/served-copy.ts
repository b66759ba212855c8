// A copy of the project that a spec (or a describe block) changes and serves with
// `curbside serve` (support/preview.mjs): made and started before its first test, on
// 127.0.0.1 and a port of its own, then stopped and removed after its last.
import { rmSync } from "node:fs";
import { test, type Browser } from "@playwright/test";
import { copyProject, startPreview, type Preview } from "./preview.mjs";

export interface ServedCopy extends Preview {
  /** The copy's folder. */
  root: string;
}

/**
 * Registers the hooks where it is called, and returns the served copy for the tests to
 * read (it throws when the preview did not start).
 * @param prepare  changes the copy before the server starts
 */
export function servedCopy({
  args = [],
  timeout = 120_000,
  prepare,
}: {
  /** More arguments for `curbside serve`, such as `--watch`. */
  args?: readonly string[];
  /** For the copy, the change and the server's first build together. */
  timeout?: number;
  prepare?: (root: string, fixtures: { browser: Browser }) => void | Promise<void>;
} = {}): () => ServedCopy {
  // The hook's time less 10 s for the copy and the change: a first build too slow fails
  // here, with the preview's own message.
  return copyServedBy((root) => startPreview(root, { args, timeout: timeout - 10_000 }), { timeout, prepare });
}

/**
 * The hooks of a copy served by anything: before the block's first test, the copy made,
 * changed by `prepare` and handed to `start`; after its last, what `start` returned stopped
 * and the copy removed. Returns what `start` returned, with the copy's folder.
 */
export function copyServedBy<Served extends { stop: () => Promise<void> }>(
  start: (root: string) => Promise<Served>,
  { timeout, prepare }: { timeout: number; prepare?: (root: string, fixtures: { browser: Browser }) => void | Promise<void> },
): () => Served & { root: string } {
  let served: (Served & { root: string }) | undefined;

  test.beforeAll(async ({ browser }, testInfo) => {
    testInfo.setTimeout(timeout);
    const root = copyProject();
    try {
      await prepare?.(root, { browser });
      served = { ...(await start(root)), root };
    } catch (error) {
      rmSync(root, { recursive: true, force: true });
      throw error;
    }
  });

  test.afterAll(async () => {
    const stopping = served;
    served = undefined;
    if (!stopping) return;
    await stopping.stop();
    rmSync(stopping.root, { recursive: true, force: true });
  });

  return () => {
    if (!served) throw new Error("the copy was not served");
    return served;
  };
}
