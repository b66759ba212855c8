#!/usr/bin/env node
// @ts-check
// The benchmark of curbside and the site it builds. It measures, reports and
// compares each figure with its target (the targets are listed at the end of
// this file); it never gates: the exit code is 0 whatever the figures are, and
// also when a tool could not take one measurement (rebuild.sh failing, every
// Lighthouse run of a page failing: reported as such); it is 1 only when the
// script itself failed (no site to measure, or a crash).
//
//   node tests/bench/bench.mjs [options]          (from the repository root or anywhere)
//
//   --lighthouse-runs N   Lighthouse runs per page, the median run is reported (default 3)
//   --build-runs N        timed runs of `curbside build` after one warm-up (default 5)
//   --settle-ms N         how long to record requests after load, and after scrolling (default 2000)
//   --skip LIST           comma-separated steps to leave out: cargo, build-time, bytes, lighthouse, rebuild
//   --root DIR            the project to build (default: this repository), such as a copy with a
//                         hero photo (tests/bench/photo-site.sh makes one)
//   --desktop             Lighthouse's desktop configuration instead of the mobile default
//   --paths LIST          comma-separated pages for Lighthouse (default: every page below)
//
// What it does, in order:
//   1. `cargo build --release` (or $CURBSIDE_BIN, see
//      tests/browser/support/curbside-binary.mjs), then builds the site with
//      that binary into a temporary folder.
//   2. Build time: the median wall-clock time of N runs of
//      `curbside build --out <fresh temporary folder> --hosting nginx` (with the .br/.gz copies).
//   3. Page weight: serves the site with Caddy (tests/browser/support/caddy-host.mjs),
//      compressed copies sent, on 127.0.0.1 and opens each page in Chromium (Playwright)
//      at 1280×800 and at 390×844 (Pixel 7), recording every response for
//      --settle-ms after `load` with no interaction, then again after scrolling
//      to the bottom. Bytes are given raw (decoded) and gzipped (the size of the
//      `.gz` the build wrote beside the file, which nginx or Caddy sends to a gzip
//      client). JavaScript is split into the page's own entry scripts ("loader")
//      and React/island chunks (any other script, or one containing React).
//   4. Lighthouse 12 (its default config: mobile, simulated throttling) on `/`,
//      `/privacypolicy`, `/termsofservice` and `/missing` (the 404 page as visitors
//      meet it, status 404, run with ignoreStatusCode), N runs each; the median run (Lighthouse's own
//      computeMedianRun) gives the scores and metrics, and every audit that does
//      not pass is listed with the number of runs it failed in.
//   5. Rebuild times: runs tests/bench/rebuild.sh when it exists.
//
// Output: a table on stdout (progress on stderr) and the same figures as JSON in
// tests/bench/results/latest.json, each beside its target with pass/fail; the
// median Lighthouse reports (HTML and JSON) go to tests/bench/results/lighthouse/.
// tests/bench/results/ is git-ignored; $CURBSIDE_BENCH_RESULTS names another folder
// (the test command's smoke run writes there, leaving a person's figures alone).
//
// Nothing leaves the machine: the site is served on 127.0.0.1, Chromium runs
// with a host-resolver rule that resolves no other name, and every request to
// another host is recorded as a problem. Chromium is Debian's (/usr/bin/chromium,
// or CHROME_PATH); packages come from tests/browser/node_modules (run
// `npm ci` there first). Every child process has a time limit, and the whole run
// stops itself after 45 minutes.

import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createRequire } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { curbsideBinary } from "../browser/support/curbside-binary.mjs";
import { freePort } from "../browser/support/free-port.mjs";
import { startCaddyHost } from "../browser/support/start-caddy-host.mjs";
import { checks, render } from "./bench-report.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const browserDir = join(repo, "tests/browser");
const resultsDir = process.env.CURBSIDE_BENCH_RESULTS ?? join(repo, "tests/bench/results");
/** A path as the report shows it: from the repository's root when inside it. @param {string} path */
const shown = (path) => (relative(repo, path).startsWith("..") ? path : relative(repo, path));
const require = createRequire(new URL("../browser/package.json", import.meta.url));
const { executablePath: chromePath, args: chromeArgs } = await import("../browser/support/chromium.mjs");

const { values: options } = parseArgs({
  options: {
    "lighthouse-runs": { type: "string", default: "3" },
    "build-runs": { type: "string", default: "5" },
    "settle-ms": { type: "string", default: "2000" },
    skip: { type: "string", default: "" },
    root: { type: "string" },
    desktop: { type: "boolean", default: false },
    paths: { type: "string", default: "" },
  },
});
const lighthouseRuns = Math.max(1, Number(options["lighthouse-runs"]));
const buildRuns = Math.max(1, Number(options["build-runs"]));
const settleMs = Math.max(0, Number(options["settle-ms"]));
const skip = new Set((options.skip ?? "").split(",").filter(Boolean));

// The 404 page at an unknown address, as visitors meet it (status 404, which two audits fail
// by definition). Caddy, with the configuration the build writes, answers its own address
// /404 with 404 too, so that address would only repeat it.
const allPages = [
  { path: "/", status: 200 },
  { path: "/privacypolicy", status: 200 },
  { path: "/termsofservice", status: 200 },
  { path: "/missing", status: 404 },
];
const onlyPaths = (options.paths ?? "").split(",").filter(Boolean);
const pages = onlyPaths.length ? allPages.filter((p) => onlyPaths.includes(p.path)) : allPages;
const project = options.root ?? repo;
const viewports = /** @type {const} */ ([
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
]);
const KB = 1024;
const targets = {
  lighthouseScore: 100,
  homeLcpMs: 800,
  homeHtmlCssGzip: 14 * KB,
  desktopIslandJsBeforeInteraction: 0,
  buildRequiredMs: 1000,
  buildAimMs: 300,
  contentRebuildMs: 50,
};

// ---------------------------------------------------------------- utilities

/** @param {string} message */
const log = (message) => process.stderr.write(`[bench] ${message}\n`);

/** @param {number[]} xs */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}


/**
 * Runs a command to completion with a time limit.
 * @param {string} command @param {string[]} args
 * @param {{ cwd?: string, timeoutMs: number, inherit?: boolean, env?: NodeJS.ProcessEnv }} opts
 * `ms` runs until the process exits; `closedMs` until its output pipes close too,
 * which is later when a process it started outlives it holding them open.
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string, ms: number, closedMs: number }>}
 */
function run(command, args, opts) {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: opts.cwd ?? repo,
      env: opts.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let exitedAt = NaN;
    child.on("exit", () => {
      exitedAt = performance.now();
    });
    child.stdout.on("data", (d) => {
      stdout += d;
      if (opts.inherit) process.stderr.write(d);
    });
    child.stderr.on("data", (d) => {
      stderr += d;
      if (opts.inherit) process.stderr.write(d);
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} took longer than ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const now = performance.now();
      resolvePromise({ code, stdout, stderr, ms: (Number.isNaN(exitedAt) ? now : exitedAt) - started, closedMs: now - started });
    });
  });
}

/** @type {Array<() => void>} */
const cleanups = [];
function cleanUp() {
  while (cleanups.length) {
    try {
      cleanups.pop()?.();
    } catch {
      // best effort
    }
  }
}
process.on("exit", cleanUp);
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}
// Stops by itself whatever happens.
setTimeout(() => {
  log("gave up after 45 minutes");
  cleanUp();
  process.exit(1);
}, 45 * 60_000).unref();

/**
 * Serves `root` with Caddy and its generated configuration (compressed copies sent), on loopback.
 * @param {string} root
 * @returns {Promise<string>} the base URL
 */
async function startCaddy(root) {
  const port = await freePort();
  const host = startCaddyHost(root, port, 15_000);
  cleanups.push(() => host.child.kill());
  await host.ready;
  return `http://127.0.0.1:${port}`;
}

/** @param {string} url */
const isLoopback = (url) => {
  const { protocol, hostname } = new URL(url);
  return !["http:", "https:", "ws:", "wss:"].includes(protocol) || hostname === "127.0.0.1";
};

// ---------------------------------------------------------------- the steps

/** A measurement a tool could not take (it is reported; the run goes on). */
class MeasurementError extends Error {}

/** Steps that could not measure: reported, exit code unchanged. */
/** @type {string[]} */
const errors = [];
/** Whether the script itself failed (exit code 1): a crash, or no site to measure. */
let broken = false;
/**
 * Runs one step; a step that throws is recorded and the others still run.
 * @template T @param {string} name @param {() => Promise<T>} body
 * @returns {Promise<T | { error: string }>}
 */
async function step(name, body) {
  const started = performance.now();
  log(`${name}…`);
  try {
    const result = await body();
    log(`${name}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  } catch (error) {
    const expected = error instanceof MeasurementError;
    if (!expected) broken = true;
    const message = error instanceof Error ? (expected ? error.message : (error.stack ?? error.message)) : String(error);
    errors.push(`${name}: ${message}`);
    log(`${name} FAILED: ${message}`);
    return { error: message };
  }
}

/** The binary measured: set by the cargo step, or $CURBSIDE_BIN when that step is skipped. */
let binary = process.env.CURBSIDE_BIN ?? "";

async function cargoBuild() {
  binary = curbsideBinary();
  // rebuild.sh (and anything else started from here) runs the same binary.
  process.env.CURBSIDE_BIN = binary;
}

/** @param {string} out */
async function buildSite(out) {
  if (!binary) throw new Error("no curbside binary: leave the cargo step in, or set CURBSIDE_BIN");
  // For nginx: the build then writes the .br/.gz copies too, the whole work a
  // build can do, and the site is served precompressed as nginx or Caddy sends it.
  const result = await run(binary, ["build", "--root", project, "--out", out, "--hosting", "nginx"], { timeoutMs: 120_000 });
  if (result.code !== 0) throw new Error(`curbside build failed (${result.code}):\n${result.stderr}${result.stdout}`);
  return result;
}

/** Median of `buildRuns` timed full builds, each into a fresh folder. */
async function buildTime(/** @type {string} */ scratch) {
  await buildSite(join(scratch, "warm-up"));
  /** @type {number[]} */
  const wall = [];
  /** @type {number[]} */
  const reported = [];
  /** @type {number[]} */
  const closed = [];
  for (let i = 0; i < buildRuns; i++) {
    const out = join(scratch, `build-${i}`);
    const result = await buildSite(out);
    wall.push(Math.round(result.ms));
    closed.push(Math.round(result.closedMs));
    const own = /Built .* in (\d+(?:\.\d+)?) ?ms/.exec(result.stdout + result.stderr);
    if (own) reported.push(Number(own[1]));
    rmSync(out, { recursive: true, force: true });
    rmSync(`${out}-server`, { recursive: true, force: true });
    log(`  build ${i + 1}/${buildRuns}: ${Math.round(result.ms)} ms (output closed at ${Math.round(result.closedMs)} ms)`);
  }
  const medianMs = median(wall);
  return {
    command: `curbside build --out <fresh temporary folder> --hosting nginx`,
    runsMs: wall,
    medianMs,
    reportedByCurbsideMs: reported,
    // Until stdout/stderr close: what a caller reading them through a pipe
    // (CI logs, `| tee`, $(…)) waits for.
    untilOutputClosedMs: closed,
    untilOutputClosedMedianMs: median(closed),
    target: { requiredMs: targets.buildRequiredMs, aimMs: targets.buildAimMs },
    pass: { required: medianMs <= targets.buildRequiredMs, aim: medianMs <= targets.buildAimMs },
  };
}

/**
 * The `.gz` the build wrote for `body` when there is one, else gzip -9 of it.
 * @param {string} site @param {string} pathname @param {Buffer} body
 */
function gzipSize(site, pathname, body) {
  const candidates = [pathname, `${pathname}.html`, `${pathname}/index.html`, pathname.endsWith("/") ? `${pathname}index.html` : "", "/404.html"];
  for (const candidate of candidates.filter(Boolean)) {
    const file = join(site, candidate);
    if (!file.startsWith(site) || !existsSync(file) || !statSync(file).isFile() || !existsSync(`${file}.gz`)) continue;
    if (readFileSync(file).equals(body)) return { bytes: statSync(`${file}.gz`).size, from: "build" };
  }
  return { bytes: gzipSync(body, { level: 9 }).length, from: "zlib -9" };
}

/**
 * @typedef {{ url: string, type: string, status: number, encoding: string, raw: number, gzip: number,
 *   gzipFrom: string, transfer: number, react: boolean, entry: boolean }} Resource
 */

/** @param {Resource[]} list */
const total = (list) => ({
  files: list.length,
  raw: list.reduce((n, r) => n + r.raw, 0),
  gzip: list.reduce((n, r) => n + r.gzip, 0),
  transfer: list.reduce((n, r) => n + r.transfer, 0),
  urls: list.map((r) => new URL(r.url).pathname),
});

/** Page weight at each viewport, before interaction and after scrolling. */
async function pageWeight(/** @type {string} */ site, /** @type {string} */ base) {
  const { chromium, devices } = /** @type {typeof import("../browser/node_modules/@playwright/test")} */ (
    require(require.resolve("@playwright/test"))
  );
  const browser = await chromium.launch({ executablePath: chromePath, args: chromeArgs, timeout: 60_000 });
  cleanups.push(() => void browser.close().catch(() => {}));
  /** @type {Record<string, unknown>} */
  const result = { chromium: browser.version() };
  try {
    for (const viewport of viewports) {
      const device = viewport.name === "phone" ? devices["Pixel 7"] : devices["Desktop Chrome"];
      /** @type {Record<string, unknown>} */
      const perPage = {};
      for (const { path, status } of pages) {
        const context = await browser.newContext({ ...device, viewport: { width: viewport.width, height: viewport.height } });
        const page = await context.newPage();
        page.setDefaultTimeout(30_000);
        /** @type {Array<{ response: import("../browser/node_modules/@playwright/test").Response, phase: "before" | "after" }>} */
        const responses = [];
        /** @type {string[]} */
        const offsite = [];
        let phase = /** @type {"before" | "after"} */ ("before");
        page.on("request", (request) => {
          if (!isLoopback(request.url())) offsite.push(request.url());
        });
        page.on("response", (response) => void responses.push({ response, phase }));
        const response = await page.goto(base + path, { waitUntil: "load", timeout: 30_000 });
        if (response?.status() !== status) throw new Error(`${path} answered ${response?.status()}, expected ${status}`);
        await page.waitForTimeout(settleMs);
        phase = "after";
        await page.evaluate(async () => {
          for (let y = 0; y + window.innerHeight < document.documentElement.scrollHeight; y += 300) {
            window.scrollTo({ top: y + 300, behavior: "instant" });
            await new Promise((r) => setTimeout(r, 80));
          }
        });
        await page.waitForTimeout(settleMs);
        const html = (await response.body()).toString("utf8");
        const entries = new Set(
          // The runtime: a script's src, or the URL the inline loader imports (data-runtime).
          [...html.matchAll(/<script\b[^>]*?\b(?:src|data-runtime)\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => new URL(m[1] ?? "", base + path).href),
        );
        /** @type {Resource[]} */
        const resources = [];
        for (const { response: r, phase: when } of responses) {
          const request = r.request();
          const body = await r.body().catch(() => Buffer.alloc(0));
          const sizes = await request.sizes().catch(() => ({ responseBodySize: body.length }));
          const pathname = new URL(r.url()).pathname;
          const gz = gzipSize(site, pathname, body);
          const text = body.toString("latin1");
          resources.push({
            url: r.url(),
            type: request.resourceType(),
            status: r.status(),
            encoding: (await r.allHeaders())["content-encoding"] ?? "identity",
            raw: body.length,
            gzip: gz.bytes,
            gzipFrom: gz.from,
            transfer: sizes.responseBodySize,
            react: /react\.dev\/errors|__REACT_DEVTOOLS_GLOBAL_HOOK__|react-dom/.test(text),
            entry: entries.has(r.url()),
            // @ts-ignore: kept for the JSON only
            phase: when,
          });
        }
        await context.close();
        /** @param {"before" | "after"} p */
        const of = (p) => resources.filter((r) => /** @type {any} */ (r).phase === p);
        const before = of("before");
        const after = of("after");
        const scripts = (/** @type {Resource[]} */ list) => list.filter((r) => r.type === "script");
        const islandScripts = (/** @type {Resource[]} */ list) => scripts(list).filter((r) => r.react || !r.entry);
        perPage[path] = {
          html: total(before.filter((r) => r.type === "document")),
          css: total(before.filter((r) => r.type === "stylesheet")),
          jsBeforeInteraction: {
            all: total(scripts(before)),
            loader: total(scripts(before).filter((r) => !(r.react || !r.entry))),
            reactAndIslands: total(islandScripts(before)),
          },
          jsAfterScroll: {
            all: total(scripts(after)),
            reactAndIslands: total(islandScripts(after)),
          },
          other: total(resources.filter((r) => !["document", "stylesheet", "script"].includes(r.type))),
          offsiteRequests: offsite,
          resources,
        };
        log(`  ${viewport.name} ${path}: ${before.length} responses before interaction, ${after.length} after scrolling`);
      }
      result[viewport.name] = perPage;
    }
  } finally {
    await browser.close();
  }
  return result;
}

/** Lighthouse on every page, `lighthouseRuns` runs each, median run reported. */
async function lighthouseAll(/** @type {string} */ base) {
  const lighthouse = (await import(pathToFileURL(require.resolve("lighthouse")).href)).default;
  const { computeMedianRun } = await import(pathToFileURL(require.resolve("lighthouse/core/lib/median-run.js")).href);
  const chromeLauncher = await import(pathToFileURL(require.resolve("chrome-launcher")).href);
  const categories = ["performance", "accessibility", "best-practices", "seo"];
  const config = options.desktop
    ? (await import(pathToFileURL(require.resolve("lighthouse/core/config/desktop-config.js")).href)).default
    : undefined;
  const reportDir = join(resultsDir, "lighthouse");
  mkdirSync(reportDir, { recursive: true });
  /** @type {Record<string, unknown>} */
  const result = {};
  for (const { path, status } of pages) {
    /** @type {any[]} */
    const runs = [];
    /** @type {string[]} */
    const reports = [];
    /** @type {string[]} */
    const runErrors = [];
    // A run that fails (Lighthouse now and then loses the trace: NO_NAVSTART) is tried
    // again, up to as many extra attempts as runs asked for; every failure is reported.
    for (let attempt = 0; runs.length < lighthouseRuns && attempt < lighthouseRuns * 2; attempt++) {
      const i = runs.length;
      const chrome = await chromeLauncher.launch({
        chromePath,
        chromeFlags: [...chromeArgs, "--headless=new"],
        logLevel: "silent",
        connectionPollInterval: 250,
        maxConnectionRetries: 80,
      });
      const kill = () => void chrome.kill();
      cleanups.push(kill);
      try {
        const flags = {
          port: chrome.port,
          output: /** @type {["json", "html"]} */ (["json", "html"]),
          logLevel: /** @type {"error"} */ ("error"),
          onlyCategories: categories,
          ignoreStatusCode: status !== 200,
          maxWaitForLoad: 45_000,
        };
        /** @type {ReturnType<typeof setTimeout> | undefined} */
        let timer;
        const runnerResult = await Promise.race([
          lighthouse(base + path, flags, config),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`Lighthouse on ${path} took over 3 minutes`)), 180_000);
          }),
        ]).finally(() => clearTimeout(timer));
        if (!runnerResult) throw new Error(`Lighthouse returned nothing for ${path}`);
        const lhr = runnerResult.lhr;
        if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
        runs.push(lhr);
        reports.push(runnerResult.report[1]);
        const scores = categories.map((c) => Math.round((lhr.categories[c]?.score ?? NaN) * 100)).join("/");
        log(`  ${path} run ${i + 1}/${lighthouseRuns}: ${scores}, LCP ${Math.round(lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN)} ms`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        runErrors.push(message);
        log(`  ${path} run ${i + 1}/${lighthouseRuns} FAILED: ${message}`);
      } finally {
        await chrome.kill();
        cleanups.splice(cleanups.indexOf(kill), 1);
      }
    }
    if (!runs.length) {
      result[path] = { url: base + path, error: `no Lighthouse run succeeded`, runErrors };
      errors.push(`Lighthouse ${path}: no run succeeded: ${runErrors.join("; ")}`); // reported, not a crash
      continue;
    }
    const medianLhr = computeMedianRun(runs);
    const name = path === "/" ? "home" : path.slice(1).replaceAll("/", "-");
    writeFileSync(join(reportDir, `${name}.report.json`), JSON.stringify(medianLhr, null, 2));
    writeFileSync(join(reportDir, `${name}.report.html`), reports[runs.indexOf(medianLhr)] ?? "");

    /** Audits of the four categories that do not pass, in any run. */
    /** @type {Map<string, any>} */
    const failing = new Map();
    for (const lhr of runs) {
      for (const category of categories) {
        for (const ref of lhr.categories[category]?.auditRefs ?? []) {
          const audit = lhr.audits[ref.id];
          if (!audit || audit.score === null || audit.score >= 1) continue;
          if (["notApplicable", "manual", "informative"].includes(audit.scoreDisplayMode)) continue;
          const entry = failing.get(ref.id) ?? {
            id: ref.id,
            title: audit.title,
            category,
            weight: ref.weight,
            failedRuns: 0,
            scores: [],
          };
          entry.failedRuns += 1;
          entry.scores.push(audit.score);
          failing.set(ref.id, entry);
        }
      }
    }
    for (const entry of failing.values()) {
      const audit = medianLhr.audits[entry.id];
      entry.medianRun = { score: audit.score, displayValue: audit.displayValue ?? null, explanation: audit.explanation ?? null };
      entry.details = summariseDetails(audit.details);
      if (status !== 200) entry.causedByStatus = causedByStatus(entry.id, audit, base + path, status);
    }
    const score = (/** @type {string} */ c) => Math.round((medianLhr.categories[c]?.score ?? NaN) * 100);
    const metric = (/** @type {string} */ id) => medianLhr.audits[id]?.numericValue ?? null;
    const lcp = metric("largest-contentful-paint");
    result[path] = {
      url: base + path,
      status,
      runs: runs.length,
      scores: Object.fromEntries(
        categories.map((c) => [c, { value: score(c), target: targets.lighthouseScore, pass: score(c) >= targets.lighthouseScore }]),
      ),
      lcpPerRunMs: runs.map((lhr) => Math.round(lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN)),
      scoresPerRun: runs.map((lhr) => Object.fromEntries(categories.map((c) => [c, Math.round((lhr.categories[c]?.score ?? NaN) * 100)]))),
      metrics: {
        lcpMs: {
          value: lcp,
          ...(path === "/" ? { target: targets.homeLcpMs, pass: lcp !== null && lcp <= targets.homeLcpMs } : {}),
        },
        tbtMs: { value: metric("total-blocking-time") },
        cls: { value: metric("cumulative-layout-shift") },
        fcpMs: { value: metric("first-contentful-paint") },
        speedIndexMs: { value: metric("speed-index") },
      },
      failingAudits: [...failing.values()].sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id)),
      runErrors,
      runWarnings: medianLhr.runWarnings ?? [],
      runtimeError: medianLhr.runtimeError ?? null,
      benchmarkIndex: medianLhr.environment?.benchmarkIndex ?? null,
      lighthouseVersion: medianLhr.lighthouseVersion,
      report: shown(join(reportDir, `${name}.report.html`)),
    };
  }
  return result;
}

/**
 * Whether an audit fails only because the page answers with its error status,
 * as a 404 page must (the status itself, the console line Chromium logs for
 * it, the back/forward cache refusing non-2xx pages, and the page's own
 * `noindex`, which keeps a not-found page out of search results).
 * @param {string} id @param {any} audit @param {string} url @param {number} status
 */
function causedByStatus(id, audit, url, status) {
  if (id === "http-status-code") return true;
  const items = audit.details?.items ?? [];
  if (id === "errors-in-console") {
    return items.length > 0 && items.every((/** @type {any} */ i) => i.source === "network" && i.sourceLocation?.url === url && String(i.description).includes(String(status)));
  }
  if (id === "is-crawlable") {
    return items.length > 0 && items.every((/** @type {any} */ i) => /<meta name="robots" content="noindex"/.test(String(i.source?.snippet ?? "")));
  }
  if (id === "bf-cache") return items.length > 0 && items.every((/** @type {any} */ i) => /status code/i.test(String(i.reason)));
  return false;
}

/** A few readable lines from an audit's details table. @param {any} details */
function summariseDetails(details) {
  if (!details || !Array.isArray(details.items)) return [];
  /** @param {any} v */
  const text = (v) => (typeof v === "object" ? (v.snippet ?? v.selector ?? v.url ?? v.text ?? null) : v);
  return details.items
    .filter((/** @type {any} */ item) => item && typeof item === "object" && !item.type)
    .slice(0, 6)
    .map((/** @type {any} */ item) => {
      const parts = [];
      for (const key of ["url", "source", "node", "description", "label", "directive", "severity", "reason", "wastedMs", "wastedBytes", "totalBytes"]) {
        const v = item[key] === undefined || item[key] === null ? null : text(item[key]);
        if (v !== null && v !== undefined) parts.push(`${key}: ${String(v).replace(/\s+/g, " ").slice(0, 140)}`);
      }
      if (item.sourceLocation?.url) parts.push(`at ${item.sourceLocation.url}`);
      return parts.join("; ");
    })
    .filter(Boolean);
}

/** tests/bench/rebuild.sh's figures, when that script exists. */
async function rebuildTimes() {
  const script = join(repo, "tests/bench/rebuild.sh");
  if (!existsSync(script)) return { status: "not measured yet", note: "tests/bench/rebuild.sh does not exist" };
  const result = await run("bash", [script], { timeoutMs: 15 * 60_000 });
  if (result.code !== 0) {
    throw new MeasurementError(`tests/bench/rebuild.sh exited with ${result.code}:\n${(result.stderr + result.stdout).trim()}`);
  }
  /** @type {Record<string, number>} */
  let figures = {};
  /** @type {Record<string, number[]>} */
  const runsMs = {};
  try {
    const json = JSON.parse(result.stdout);
    figures = Object.fromEntries(Object.entries(json).filter(([, v]) => typeof v === "number"));
  } catch {
    for (const line of result.stdout.split("\n")) {
      // "  content      46   96 47 38 46 31": the median, then each run (rebuild.sh's table)
      const row = /^\s*([A-Za-z][\w./-]*)\s+(\d+(?:\.\d+)?)((?:\s+\d+(?:\.\d+)?)*)\s*$/.exec(line);
      // or "content: 46 ms"
      const pair = /^\s*([A-Za-z][\w ./()-]*?)\s*[:=]\s*(?:median\s*)?(\d+(?:\.\d+)?)\s*ms\b/i.exec(line);
      if (row?.[1] && row[2]) {
        figures[row[1]] = Number(row[2]);
        runsMs[row[1]] = (row[3] ?? "").trim().split(/\s+/).filter(Boolean).map(Number);
      } else if (pair?.[1] && pair[2]) {
        figures[pair[1].trim()] = Number(pair[2]);
      }
    }
  }
  const content = Object.entries(figures).find(([k]) => /content/i.test(k));
  return {
    status: "measured",
    figuresMs: figures,
    runsMs,
    ...(content ? { contentEdit: { value: content[1], target: targets.contentRebuildMs, pass: content[1] <= targets.contentRebuildMs } } : {}),
    output: result.stdout,
  };
}

// ---------------------------------------------------------------- main

if (!existsSync(join(browserDir, "node_modules/lighthouse"))) {
  console.error("tests/browser/node_modules is missing: run `npm ci` in tests/browser first");
  process.exit(1);
}
if (!existsSync(chromePath)) {
  console.error(`Chromium not found at ${chromePath} (set CHROME_PATH, or install Debian's chromium)`);
  process.exit(1);
}

const scratch = await mkdtemp(join(tmpdir(), "curbside-bench-"));
cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
const site = join(scratch, "site");

/** @type {any} */
const results = {
  generatedAt: new Date().toISOString(),
  git: (() => {
    try {
      const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
      const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: repo, encoding: "utf8" }).trim() !== "";
      return { commit, dirty };
    } catch {
      return null;
    }
  })(),
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, loadavgAtStart: loadavg(), node: process.version },
  options: { lighthouseRuns, buildRuns, settleMs, skip: [...skip] },
  targets,
};

if (!skip.has("cargo")) await step("cargo build --release", cargoBuild);
const built = await step("build the site", () => buildSite(site));
if (!("error" in built)) {
  if (!skip.has("build-time")) results.buildTime = await step("build time", () => buildTime(scratch));
  if (!skip.has("bytes") || !skip.has("lighthouse")) {
    const base = await step("Caddy", () => startCaddy(site));
    if (typeof base === "string") {
      if (!skip.has("bytes")) results.bytes = await step("page weight (Playwright)", () => pageWeight(site, base));
      if (!skip.has("lighthouse")) results.lighthouse = await step("Lighthouse", () => lighthouseAll(base));
    }
  }
}
if (!skip.has("rebuild")) results.rebuild = await step("rebuild times", rebuildTimes);
results.machine.loadavgAtEnd = loadavg();
results.errors = errors;
results.checks = checks(results);

mkdirSync(resultsDir, { recursive: true });
const text = render(results, viewports);
writeFileSync(join(resultsDir, "latest.json"), JSON.stringify(results, null, 2) + "\n");
console.log(text);
console.log(`\nJSON: ${shown(join(resultsDir, "latest.json"))}; Lighthouse reports: ${shown(join(resultsDir, "lighthouse"))}/`);
cleanUp();
process.exit(broken ? 1 : 0);
