// A copy of the project that a describe block changes, built for Caddy and served by it with
// the configuration the build wrote (support/caddy-host.mjs): compressed, with a real host's
// rules, as the site a visitor meets. (support/served-copy.ts serves a copy with `curbside
// serve` instead, the owner's preview, which sends nothing compressed.) Made and started before
// the block's first test, on 127.0.0.1 and a port of its own; stopped and removed after its last.
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Browser } from "@playwright/test";
import { curbsideBinary } from "./curbside-binary.mjs";
import { freePort } from "./free-port.mjs";
import { copyServedBy } from "./served-copy";
import { startCaddyHost } from "./start-caddy-host.mjs";

export interface HostedCopy {
  /** The copy's folder. */
  root: string;
  /** Where Caddy serves it: `http://127.0.0.1:PORT`. */
  origin: string;
}

/**
 * Registers the hooks where it is called, and returns the hosted copy for the tests to read
 * (it throws when the copy was not served).
 * @param prepare  changes the copy before it is built
 */
export function hostedCopy({
  timeout = 120_000,
  prepare,
}: {
  /** For the copy, the change, its build and Caddy's start together. */
  timeout?: number;
  prepare?: (root: string, fixtures: { browser: Browser }) => void | Promise<void>;
} = {}): () => HostedCopy {
  const start = async (root: string): Promise<{ origin: string; stop: () => Promise<void> }> => {
    const site = path.join(root, "dist");
    execFileSync(curbsideBinary(), ["build", "--root", root, "--out", site, "--hosting", "caddy"], { stdio: ["ignore", "ignore", "inherit"] });
    const port = await freePort();
    const host = startCaddyHost(site, port, timeout - 10_000);
    try {
      await host.ready;
    } catch (error) {
      await host.stop();
      throw error;
    }
    return { origin: `http://127.0.0.1:${port}`, stop: host.stop };
  };
  return copyServedBy(start, { timeout, prepare });
}
