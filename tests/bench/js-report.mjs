#!/usr/bin/env node
// @ts-check
// How much JavaScript each page loads, and when: a report, never a gate.
//
//   node tests/bench/js-report.mjs [--settle-ms N] [--paths /,/privacypolicy] [--json FILE]     (from anywhere)
//
// 1. Builds the site (`curbside build --out <tmp>`) with the binary of
//    tests/browser/support/curbside-binary.mjs: $CURBSIDE_BIN, or the release binary cargo
//    builds first when it is out of date.
// 2. Serves it with Caddy (tests/browser/support/caddy-host.mjs) on a free 127.0.0.1 port, with the
//    headers the build wrote into its Caddy configuration (so the real CSP applies).
// 3. Opens every page (or those --paths lists) in Debian's Chromium at desktop (1280×800) and phone (Pixel 7, 390×844)
//    size, a fresh browser context each time (empty cache), and records every script fetched,
//    in three steps of one visit:
//      (a) before interaction: --settle-ms (2 s) after `load`, no scroll, no input;
//      (b) after scrolling to the bottom, half a screen at a time;
//      (c) after interacting: the billing switch clicked, the form's first field focused,
//          the menu opened (where each exists and is shown at that size; the menu is a popover and loads no code).
//    Each script is counted in the step that first fetched it, by its gzipped size (the bytes
//    fetched, gzipped here with node:zlib at level 9).
// 4. Prints one table of chunks and one of totals per step (cumulative); with --json, also
//    writes the figures to FILE.
//
// Exit code 0 whatever the figures; 1 only if no measurement could be taken. Nothing leaves
// the machine: Chromium resolves no name but 127.0.0.1. The run stops itself after 4 minutes.

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { args, executablePath } from "../browser/support/chromium.mjs";
import { curbsideBinary } from "../browser/support/curbside-binary.mjs";
import { freePort } from "../browser/support/free-port.mjs";
import { startCaddyHost } from "../browser/support/start-caddy-host.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const require = createRequire(new URL("../browser/package.json", import.meta.url));
// Resolved from tests/browser/node_modules (a name in a variable, so tsc does not look it up from here).
const playwrightTest = "@playwright/test";
/** @type {typeof import("../browser/node_modules/@playwright/test")} */
const { chromium, devices } = require(playwrightTest);

const { values: options } = parseArgs({
  options: {
    "settle-ms": { type: "string", default: "2000" },
    paths: { type: "string", default: "" },
    json: { type: "string" },
  },
});
const settleMs = Number(options["settle-ms"]);

const ALL_PAGES = ["/", "/privacypolicy", "/termsofservice", "/missing"];
// The test command's smoke run takes `--settle-ms 0 --paths /`: the home page has every control step (c) uses.
const onlyPaths = (options.paths ?? "").split(",").filter(Boolean);
const PAGES = onlyPaths.length ? onlyPaths : ALL_PAGES;
const VIEWPORTS = [
  { name: "desktop", use: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 } },
  {
    name: "phone",
    use: { ...devices["Pixel 7"], viewport: { width: 390, height: 844 } },
  },
];
const STEPS = /** @type {const} */ (["a", "b", "c"]);
const STEP_NAMES = {
  a: `(a) before interaction: ${settleMs / 1000} s after load, no scroll`,
  b: "(b) after scrolling to the bottom",
  c: "(c) after interacting: switch, form field, menu",
};

/** @type {Array<() => void>} */
const cleanups = [];
function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      cleanup();
    } catch {
      // Best effort: the process is ending.
    }
  }
}
const watchdog = setTimeout(() => {
  console.error("js-report: still running after 4 minutes, stopping");
  cleanUp();
  process.exit(1);
}, 240_000);
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => {
    cleanUp();
    process.exit(1);
  });
}

function buildSite() {
  const binary = curbsideBinary();
  const out = mkdtempSync(join(tmpdir(), "curbside-js-report-"));
  cleanups.push(() => rmSync(out, { recursive: true, force: true }));
  const site = join(out, "site");
  execFileSync(binary, ["build", "--root", repo, "--out", site], {
    cwd: repo,
    stdio: ["ignore", "ignore", "inherit"],
    timeout: 120_000,
  });
  return site;
}

/** @param {string} root @param {number} port @returns {Promise<void>} */
function serve(root, port) {
  const host = startCaddyHost(root, port, 10_000);
  cleanups.push(() => host.child.kill());
  return host.ready;
}

/**
 * @typedef {{ page: string, viewport: string, chunk: string, raw: number, gzip: number, step: "a" | "b" | "c" }} Row
 * @typedef {{ page: string, viewport: string, interactions: string[] }} Visit
 */

/**
 * One visit of one page at one size.
 * @param {import("../browser/node_modules/@playwright/test").Browser} browser
 * @param {string} origin @param {string} path @param {typeof VIEWPORTS[number]} viewport
 * @returns {Promise<{ rows: Row[], visit: Visit }>}
 */
async function measure(browser, origin, path, viewport) {
  const context = await browser.newContext({ ...viewport.use });
  const page = await context.newPage();
  /** @type {"a" | "b" | "c"} */
  let step = "a";
  /** @type {Promise<Row | null>[]} */
  const pending = [];
  let inFlight = 0;
  let lastActivity = Date.now();
  page.on("request", () => {
    inFlight++;
    lastActivity = Date.now();
  });
  const settled = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = Date.now();
  };
  page.on("requestfinished", settled);
  page.on("requestfailed", settled);
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    const fetchedIn = step;
    pending.push(
      response.body().then(
        (body) => ({
          page: path,
          viewport: viewport.name,
          chunk: new URL(response.url()).pathname.replace(/^\/assets\//, ""),
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          step: fetchedIn,
        }),
        () => null,
      ),
    );
  });
  /** Waits until no request has been in flight for 500 ms (at least `min`, at most 10 s). */
  const quiet = async (min = 500) => {
    const start = Date.now();
    await page.waitForTimeout(min);
    while (Date.now() - start < 10_000 && (inFlight > 0 || Date.now() - lastActivity < 500)) {
      await page.waitForTimeout(100);
    }
  };

  await page.goto(origin + path, { waitUntil: "load" });
  await page.waitForTimeout(settleMs);

  step = "b";
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const screen = (viewport.use.viewport?.height ?? 800) / 2;
  for (let y = screen; y < height + screen; y += screen) {
    await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
    await page.waitForTimeout(50);
  }
  await quiet(1000);

  step = "c";
  /** @type {string[]} */
  const interactions = [];
  const toggle = page.getByRole("switch");
  if ((await toggle.count()) > 0 && (await toggle.isVisible())) {
    await toggle.click();
    interactions.push("switch");
  }
  const field = page.locator("#firstName");
  if ((await field.count()) > 0 && (await field.isVisible())) {
    await field.click();
    interactions.push("form field");
  }
  const menu = page.getByRole("button", { name: "Menu" });
  if ((await menu.count()) > 0 && (await menu.isVisible())) {
    await menu.click();
    await page.keyboard.press("Escape");
    interactions.push("menu");
  }
  await quiet(1000);

  const rows = /** @type {Row[]} */ ((await Promise.all(pending)).filter(Boolean));
  await context.close();
  return { rows, visit: { page: path, viewport: viewport.name, interactions } };
}

/** @param {number} bytes */
function kb(bytes) {
  return bytes === 0 ? "0" : `${(bytes / 1024).toFixed(1)} KB`;
}

/** @param {string[][]} table @param {boolean[]} right */
function printTable(table, right) {
  const widths = table[0]?.map((_, i) => Math.max(...table.map((row) => (row[i] ?? "").length))) ?? [];
  const line = (/** @type {string[]} */ row) =>
    row.map((cell, i) => (right[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join("  ").trimEnd();
  console.log(line(table[0] ?? []));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of table.slice(1)) console.log(line(row));
}

async function main() {
  console.error("js-report: building the site");
  const root = buildSite();
  const port = await freePort();
  await serve(root, port);
  const origin = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath, args });
  cleanups.push(() => void browser.close());

  /** @type {Row[]} */
  const rows = [];
  /** @type {Visit[]} */
  const visits = [];
  for (const path of PAGES) {
    for (const viewport of VIEWPORTS) {
      console.error(`js-report: ${path} at ${viewport.name}`);
      const result = await measure(browser, origin, path, viewport);
      rows.push(...result.rows);
      visits.push(result.visit);
    }
  }
  await browser.close();

  console.log("\nJavaScript loaded per page, gzipped (node:zlib level 9), by chunk and by the step that first fetched it");
  for (const step of STEPS) console.log(`  ${STEP_NAMES[step]}`);
  console.log("");
  printTable(
    [
      ["page", "viewport", "chunk", "raw", "gzip", "step"],
      ...rows.map((r) => [r.page, r.viewport, r.chunk, String(r.raw), String(r.gzip), r.step]),
    ],
    [false, false, false, true, true, false],
  );

  console.log("\nTotals, gzipped, cumulative after each step (new chunks in that step in brackets)\n");
  printTable(
    [
      ["page", "viewport", "(a) no interaction", "(b) scrolled", "(c) interacted", "interactions in (c)"],
      ...visits.map((visit) => {
        const mine = rows.filter((r) => r.page === visit.page && r.viewport === visit.viewport);
        let total = 0;
        const cells = STEPS.map((step) => {
          const fetched = mine.filter((r) => r.step === step);
          const added = fetched.reduce((sum, r) => sum + r.gzip, 0);
          total += added;
          return `${kb(total)} [${fetched.length}]`;
        });
        return [visit.page, visit.viewport, ...cells, visit.interactions.join(", ") || "none available"];
      }),
    ],
    [false, false, true, true, true, false],
  );

  if (options.json) {
    writeFileSync(options.json, JSON.stringify({ settleMs, rows, visits }, null, 2) + "\n");
    console.error(`js-report: figures written to ${options.json}`);
  }
}

try {
  await main();
  cleanUp();
  clearTimeout(watchdog);
  process.exit(0);
} catch (error) {
  console.error("js-report: could not measure:", error instanceof Error ? error.stack ?? error.message : error);
  cleanUp();
  process.exit(1);
}
