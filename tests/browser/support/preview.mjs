// @ts-check
// A copy of the project to edit freely, and `curbside serve` (the preview server) on a
// folder, for every JavaScript test and benchmark: the Playwright specs (through
// served-copy.ts), the engines' journey and the benchmarks in tests/bench.
//
// The same in Rust is tests/it/support/fixture.rs (the copy) and server.rs
// (the server); in shell, tests/bench/preview.sh.

import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { curbsideBinary } from "./curbside-binary.mjs";

/** The repository, whose project the copies are made of and the preview serves by default. */
export const repo = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * A copy of the project (content/, layouts/, frontend/) to edit freely. frontend/node_modules
 * is a folder of links to the real packages, so nothing is installed again, while the caches
 * the island server writes there (.cache) stay the copy's own. When the real packages are not
 * installed yet, a build of the repository installs them first.
 * @param {{ into?: string, binary?: string }} [options]
 *   into: the folder to make (by default a new one under the system's temporary folder);
 *   binary: the curbside binary for that install (by default `curbsideBinary()`)
 * @returns {string} the copy's folder
 */
export function copyProject({ into, binary } = {}) {
  const root = into ?? mkdtempSync(join(tmpdir(), "curbside-preview-"));
  for (const folder of ["content", "layouts"]) cpSync(join(repo, folder), join(root, folder), { recursive: true });
  const frontend = join(repo, "frontend");
  cpSync(frontend, join(root, "frontend"), {
    recursive: true,
    filter: (source) => source !== join(frontend, "node_modules"),
  });
  const modules = join(frontend, "node_modules");
  if (!existsSync(join(modules, ".curbside-installed"))) {
    // A build installs the frontend's packages first.
    const warmUp = mkdtempSync(join(tmpdir(), "curbside-install-"));
    try {
      execFileSync(binary ?? curbsideBinary(), ["--root", repo, "build", "--out", join(warmUp, "site")], { stdio: ["ignore", "ignore", "inherit"] });
    } finally {
      rmSync(warmUp, { recursive: true, force: true });
    }
    if (!existsSync(join(modules, ".curbside-installed"))) {
      throw new Error("frontend/node_modules is not installed: run `npm ci` in frontend/ (tests/run.sh does)");
    }
  }
  mkdirSync(join(root, "frontend/node_modules"));
  for (const entry of readdirSync(modules)) {
    if (entry !== ".cache") symlinkSync(join(modules, entry), join(root, "frontend/node_modules", entry));
  }
  return root;
}

/**
 * Replaces the one occurrence of `old` in `file` of the copy at `root`; throws when the file
 * holds it any other number of times, so a case never silently runs on the unchanged project.
 * @param {string} root @param {string} file  relative to root @param {string} old @param {string} replacement
 */
export function replaceOnce(root, file, old, replacement) {
  const path = join(root, file);
  const text = readFileSync(path, "utf8");
  const found = text.split(old).length - 1;
  if (found !== 1) {
    throw new Error(`${file} should hold ${JSON.stringify(old)} exactly once, not ${found} times: update this case to the current project`);
  }
  writeFileSync(path, text.replace(old, () => replacement));
}

/**
 * `curbside serve` running as a child process.
 * @typedef {object} Preview
 * @property {string} origin  where it serves, as `http://127.0.0.1:PORT` (no trailing slash)
 * @property {number} port
 * @property {import("node:child_process").ChildProcess} server
 * @property {string[]} output  everything it has printed so far, stdout and stderr together
 * @property {() => Promise<void>} stop  stops it (SIGTERM) and resolves once it has exited
 */

/** Servers still running, stopped when this process exits however it ends. */
/** @type {Set<import("node:child_process").ChildProcess>} */
const running = new Set();
process.once("exit", () => {
  for (const server of running) server.kill("SIGTERM");
});

/**
 * Starts `curbside --root <root> serve --port <port> <args>` and resolves once it prints
 * "Serving http://…". Rejects, with what it printed, when it exits first or has not
 * served within `timeout` ms (then it is stopped).
 * @param {string} root
 * @param {{ args?: readonly string[], binary?: string, port?: number, timeout?: number }} [options]
 *   args: more arguments, such as `--watch` or `--out DIR`; binary: by default `curbsideBinary()`
 *   ($CURBSIDE_BIN, else the one cargo builds); port: 0 (the default) lets the system choose
 * @returns {Promise<Preview>}
 */
export async function startPreview(root, { args = [], binary = curbsideBinary(), port = 0, timeout = 120_000 } = {}) {
  const server = spawn(binary, ["--root", root, "serve", "--port", String(port), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(server);
  server.once("exit", () => running.delete(server));
  /** @type {string[]} */
  const output = [];
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((done) => server.once("exit", done));
    server.kill("SIGTERM");
    await exited;
  };
  try {
    /** @type {string} */
    const origin = await new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`the preview did not start within ${timeout / 1000} s:\n${output.join("")}`)), timeout);
      /** @param {Buffer} chunk */
      const read = (chunk) => {
        output.push(chunk.toString("utf8"));
        // The address is whole once the slash after it has come.
        const serving = /^Serving (http:\/\/[^\s/]+)\//m.exec(output.join(""));
        if (serving) {
          clearTimeout(timer);
          done(/** @type {string} */ (serving[1]));
        }
      };
      server.stdout.on("data", read);
      server.stderr.on("data", read);
      server.once("error", (error) => {
        clearTimeout(timer);
        fail(error);
      });
      server.once("exit", (code, signal) => {
        clearTimeout(timer);
        fail(new Error(`the preview exited (${code ?? signal}) before it served:\n${output.join("")}`));
      });
    });
    return { origin, port: Number(new URL(origin).port), server, output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
