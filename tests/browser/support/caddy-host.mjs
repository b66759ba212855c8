// @ts-check
// The site as the browser tests and the benchmarks see it: served by Debian's Caddy with the
// configuration the build wrote for it (DIR-server/Caddyfile), so the pages get a real host's
// URL rules, headers, 404 page and compressed copies, not a copy of those rules made for tests.
//
//   node support/caddy-host.mjs --root DIR --port N [--build]
//
// With --build it first builds the site for Caddy into DIR (and DIR-server) with the curbside
// binary (support/curbside-binary.mjs: $CURBSIDE_BIN, or the one cargo builds now). A site
// built otherwise needs `--hosting caddy` or `--hosting nginx` for its .br/.gz copies. Caddy runs in
// the foreground until this process is stopped; its state stays in a temporary folder.

import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { caddyEnvironment, caddyfile, generatedConfig, importGenerated } from "./caddy-config.mjs";
import { curbsideBinary } from "./curbside-binary.mjs";

const { values } = parseArgs({
  options: {
    root: { type: "string" },
    port: { type: "string", default: "4173" },
    build: { type: "boolean", default: false },
  },
});
if (!values.root) throw new Error("--root is required");
const root = resolve(values.root);
const repo = fileURLToPath(new URL("../../..", import.meta.url));

if (values.build) {
  execFileSync(curbsideBinary(), ["build", "--root", repo, "--out", root, "--hosting", "caddy"], { stdio: "inherit" });
}
const generated = generatedConfig(root);
if (!existsSync(generated)) throw new Error(`${generated} is missing: build the site into ${root} first`);

const state = mkdtempSync(join(tmpdir(), "curbside-caddy-"));
const config = join(state, "Caddyfile");
writeFileSync(config, caddyfile({ port: values.port ?? "4173", root, siteBody: importGenerated(root) }));
const caddy = spawn("caddy", ["run", "--config", config, "--adapter", "caddyfile"], {
  // Caddy logs to stderr; stdout carries only the line below, which scripts wait for.
  stdio: ["ignore", "ignore", "inherit"],
  env: caddyEnvironment(state),
});
caddy.on("error", (error) => {
  console.error(`could not start Caddy (Debian's package: apt-get install caddy): ${error.message}`);
  process.exit(1);
});
for (const signal of /** @type {const} */ (["SIGTERM", "SIGINT"])) process.on(signal, () => caddy.kill(signal));
/** Set when Caddy never answered: its stop is then a failure. */
let notReady = false;
caddy.on("exit", (code, signal) => {
  rmSync(state, { recursive: true, force: true });
  process.exit(notReady ? 1 : (code ?? (signal ? 0 : 1)));
});

// Ready once Caddy answers the home page (bounded: Caddy's own error shows above when it fails).
const url = `http://127.0.0.1:${values.port}/`;
const deadline = Date.now() + 30_000;
/** The home page's status, 0 while nothing answers. node:http, not fetch: fetch refuses ports on
 * the web's list of blocked ports (4190, 6000, …), which Caddy and Chromium serve and use. */
function homeStatus() {
  return new Promise((done) => {
    const request = get(url, (response) => {
      response.resume();
      done(response.statusCode ?? 0);
    });
    request.on("error", () => done(0));
  });
}
while ((await homeStatus()) !== 200) {
  if (Date.now() > deadline) {
    console.error(`Caddy did not answer ${url} within 30 s`);
    notReady = true;
    caddy.kill("SIGTERM");
    await new Promise(() => undefined); // Caddy's exit ends this process
  }
  await new Promise((done) => setTimeout(done, 100));
}
console.log(`caddy host on ${url} serving ${root}`);
