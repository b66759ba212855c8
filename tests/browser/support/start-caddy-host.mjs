// @ts-check
// Runs support/caddy-host.mjs as a child process, for the benchmarks that serve a site they
// built themselves, and tells when Caddy answers.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("./caddy-host.mjs", import.meta.url));

/**
 * Serves the site built into `root` with Caddy on 127.0.0.1:`port`. The child is returned at
 * once, so the caller can stop it whatever happens; `ready` resolves when Caddy answers, and
 * rejects when the host exits first or stays silent for `timeoutMs`; `stop` ends the host with
 * SIGTERM (so it stops Caddy and removes Caddy's state folder) and resolves once it has exited.
 * @param {string} root @param {number} port @param {number} timeoutMs
 */
export function startCaddyHost(root, port, timeoutMs) {
  const child = spawn(process.execPath, [script, "--root", root, "--port", String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  /** @type {Promise<void>} */
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Caddy did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    child.once("exit", (code) => reject(new Error(`Caddy exited with ${code}`)));
    child.stdout?.on("data", (data) => {
      // The one line caddy-host.mjs prints once Caddy answers.
      if (String(data).includes("caddy host on")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once("exit", done));
    child.kill("SIGTERM");
    await exited;
  };
  return { child, ready, stop };
}
