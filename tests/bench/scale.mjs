#!/usr/bin/env node
// @ts-check
// How `curbside build` grows with the number of pages. A benchmark: it reports
// and never gates (exit code 1 only when a build fails or the script crashes).
//
//   node tests/bench/scale.mjs [--ns 0,100,1000,10000] [--runs 5] [--words 500] [--hosting HOSTING] [--footer-links]
//
// --hosting is passed to `curbside build`: the default (Netlify) writes no .br/.gz
// copies; `--hosting nginx` (or caddy) measures the build that compresses too.
//
// The generated pages say `link: none` in their front matter: pages of that
// kind are reached from an index or the owner's text, not from every page's
// footer, so each page's size does not depend on N. --footer-links
// leaves it out, as before: every page then links every generated page, so
// each page grows with N and the site with N² (the build warns past 12).
//
// For each N it makes a copy of the project (content/, layouts/ and frontend/
// as they are, the frontend's packages linked, not installed again) with N
// extra Markdown pages of about --words words in content/pages/. Then, --runs
// times, interleaved over every N:
//   cold: no .curbside/, no island-server cache, no output folder: what a
//         hosting service runs on a fresh clone (dependencies installed);
//   warm: the same build again, nothing changed.
// It prints, per N and kind, the median wall-clock time, the time per page
// (over the N = 0 build), the median of each phase the binary reports
// (CURBSIDE_TIMINGS=1: load, render, node, place, compress, write) and the
// peak resident memory (the largest of curbside and Node, from /usr/bin/time
// when it is there; curbside's own otherwise) and the CPU time (user + system,
// from /usr/bin/time): on a busy machine, wall-clock time mostly measures the
// others' work, CPU time much less so. It also checks that the cold and
// the warm build wrote the same files, byte for byte. The load average is
// printed before and after: on a shared machine, read the figures with it.
//
// The binary is $CURBSIDE_BIN, or the release binary cargo builds now
// (tests/browser/support/curbside-binary.mjs), wherever CARGO_TARGET_DIR puts it.
// Everything happens in a temporary folder, removed at the end; the figures
// also go to tests/bench/results/scale.json ($CURBSIDE_BENCH_RESULTS names another
// folder). `--ns 0,10 --runs 1` is its smallest run (the test command's smoke run).

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { curbsideBinary } from "../browser/support/curbside-binary.mjs";
import { copyProject } from "../browser/support/preview.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));

/** @param {string} name @param {string} fallback */
function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? String(process.argv[at + 1]) : fallback;
}

const ns = option("ns", "0,100,1000,10000").split(",").map((n) => Number.parseInt(n, 10));
const runs = Number.parseInt(option("runs", "5"), 10);
const words = Number.parseInt(option("words", "500"), 10);
const hosting = option("hosting", "");
const hostingArgs = hosting ? ["--hosting", hosting] : [];
const footerLinks = process.argv.includes("--footer-links");
if (ns.some((n) => !Number.isInteger(n) || n < 0) || !Number.isInteger(runs) || runs < 1 || !Number.isInteger(words) || words < 1) {
  console.error("usage: node tests/bench/scale.mjs [--ns 0,100,1000,10000] [--runs 5] [--words 500] [--hosting HOSTING] [--footer-links]");
  process.exit(1);
}

const bin = curbsideBinary();
const gnuTime = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const work = mkdtempSync(path.join(tmpdir(), "curbside-scale-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) process.on(signal, () => process.exit(130));

/** A copy of the project with `n` generated pages; returns its root. @param {number} n */
function makeSite(n) {
  const site = copyProject({ into: path.join(work, `site-${n}`), binary: bin });
  for (let i = 1; i <= n; i++) {
    const name = `bench-${String(i).padStart(5, "0")}`;
    writeFileSync(path.join(site, "content", "pages", `${name}.md`), page(i));
  }
  return site;
}

// Words drawn from a fixed list by a fixed generator: every run makes the same
// pages, varied enough to compress like real text.
const vocabulary = (
  "bin curb pickup route evening street driveway trash recycling yard waste cart lid wheel neighbour " +
  "Brookings service week holiday schedule plan monthly annual price customer address weather snow " +
  "ice wind early late morning night return garage alley city collection truck driver reminder " +
  "the a of and to in on for with at by from is are was be this that it we you they our your their " +
  "every each some many most never always often before after during while because when where which"
).split(" ");

/** @param {number} seed */
function page(seed) {
  let state = seed * 2654435761 % 4294967296;
  const next = () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
  const word = () => vocabulary[Math.floor(next() * vocabulary.length)];
  const sentence = () => {
    const length = 6 + Math.floor(next() * 14);
    const text = Array.from({ length }, word).join(" ");
    return `${text[0]?.toUpperCase()}${text.slice(1)}.`;
  };
  const lines = ["---", `title: Bench page ${seed}`, `description: A generated page of about ${words} words.`];
  if (!footerLinks) lines.push("link: none");
  lines.push("---", "");
  let written = 0;
  let section = 0;
  while (written < words) {
    if (written % 150 === 0) lines.push(`## Section ${++section}`, "");
    if (next() < 0.2) {
      for (let i = 0; i < 3; i++) lines.push(`- ${sentence()}`);
      lines.push("");
      written += 36;
    } else {
      const sentences = Array.from({ length: 3 + Math.floor(next() * 3) }, sentence);
      lines.push(`${sentences.join(" ")} See [the plans](/#pricing) for **${word()}**.`, "");
      written += sentences.join(" ").split(" ").length + 5;
    }
  }
  return lines.join("\n");
}

/**
 * Runs the binary; returns wall ms, the phases it reported and peak RSS in KiB.
 * @param {string[]} args
 */
function run(args) {
  const rssFile = path.join(work, "rss.txt");
  const [command, commandArgs] = gnuTime ? [gnuTime, ["-f", "%M %U %S", "-o", rssFile, bin, ...args]] : [bin, args];
  const started = process.hrtime.bigint();
  const result = spawnSync(command, commandArgs, {
    encoding: "utf8",
    env: { ...process.env, CURBSIDE_TIMINGS: "1" },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 15 * 60 * 1000,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    console.error(result.stderr);
    throw new Error(`curbside ${args.join(" ")} failed (${result.status ?? result.signal})`);
  }
  /** @type {Record<string, number>} */
  const phases = {};
  const line = result.stderr.split("\n").find((l) => l.startsWith("timings:"));
  for (const [, name, value] of line?.matchAll(/(\S+)=(\d+(?:\.\d+)?)/g) ?? []) {
    if (name && value) phases[name] = Number(value);
  }
  const own = phases["peak_rss_kib"];
  delete phases["peak_rss_kib"];
  // GNU time's last line: peak RSS (KiB), user and system CPU seconds.
  const measured = gnuTime && existsSync(rssFile) ? (readFileSync(rssFile, "utf8").trim().split("\n").pop() ?? "").split(" ").map(Number) : [];
  const [rss = own, user, system] = measured;
  const cpu = user !== undefined && system !== undefined ? (user + system) * 1000 : undefined;
  return { ms, phases, rss: Number.isFinite(rss) ? rss : undefined, cpu };
}

/** A digest of every file under `dir` (path and bytes), in name order. @param {string} dir */
function treeDigest(dir) {
  const hash = createHash("sha256");
  /** @param {string} at */
  const walk = (at) => {
    for (const name of readdirSync(at).sort()) {
      const full = path.join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else hash.update(path.relative(dir, full)).update("\0").update(readFileSync(full)).update("\0");
    }
  };
  walk(dir);
  return hash.digest("hex");
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
console.error(`binary: ${bin}`);
console.error(`generated pages ${footerLinks ? "linked from every footer (--footer-links)" : "say link: none"}`);
console.error(`load average before: ${load()}`);
const loadBefore = load();
const sites = new Map(ns.map((n) => [n, makeSite(n)]));
/** @type {Map<string, { ms: number, phases: Record<string, number>, rss?: number, cpu?: number }[]>} */
const samples = new Map();
/** @type {Map<number, boolean>} */
const same = new Map();
/** @type {Map<number, string>} */
const coldDigest = new Map();
for (let round = 1; round <= runs; round++) {
  for (const n of ns) {
    const site = /** @type {string} */ (sites.get(n));
    const out = path.join(work, `out-${n}`);
    rmSync(path.join(site, ".curbside"), { recursive: true, force: true });
    rmSync(path.join(site, "frontend", "node_modules", ".cache"), { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
    for (const kind of ["cold", "warm"]) {
      const sample = run(["--root", site, "build", "--out", out, ...hostingArgs]);
      const key = `${n} ${kind}`;
      samples.set(key, [...(samples.get(key) ?? []), sample]);
      console.error(`round ${round}: N = ${n} ${kind} ${Math.round(sample.ms)} ms (load ${load()})`);
      if (round === runs) {
        // The last round's cold output, then whether the warm build wrote the same.
        const digest = treeDigest(out);
        if (kind === "cold") coldDigest.set(n, digest);
        else same.set(n, coldDigest.get(n) === digest);
      }
    }
  }
}
const loadAfter = load();

const phaseNames = ["load", "render", "node", "place", "compress", "write"];
/** @type {Record<string, unknown>[]} */
const rows = [];
for (const kind of ["cold", "warm"]) {
  const base = median((samples.get(`0 ${kind}`) ?? []).map((s) => s.ms));
  for (const n of ns) {
    const list = samples.get(`${n} ${kind}`) ?? [];
    const ms = median(list.map((s) => s.ms));
    /** @type {Record<string, number>} */
    const phases = {};
    for (const name of phaseNames) {
      const values = list.map((s) => s.phases[name]).filter((v) => v !== undefined);
      if (values.length > 0) phases[name] = median(/** @type {number[]} */ (values));
    }
    const rss = list.map((s) => s.rss ?? 0).reduce((a, b) => Math.max(a, b), 0);
    const cpus = list.map((s) => s.cpu).filter((v) => v !== undefined);
    const cpu = cpus.length > 0 ? median(/** @type {number[]} */ (cpus)) : undefined;
    rows.push({ n, kind, ms, cpu, perPage: n > 0 && Number.isFinite(base) ? (ms - base) / n : undefined, phases, rssMiB: rss / 1024, runs: list.map((s) => Math.round(s.ms)), sameFiles: same.get(n) });
  }
}

console.log(`\ncurbside build, median of ${runs} interleaved runs${footerLinks ? ", generated pages in every footer" : ""}; load average ${loadBefore} before, ${loadAfter} after`);
console.log(`${"N".padStart(6)} ${"kind".padEnd(5)} ${"median ms".padStart(10)} ${"CPU ms".padStart(8)} ${"ms/page".padStart(8)} ${phaseNames.map((p) => p.padStart(8)).join(" ")} ${"peak RSS".padStart(9)}  cold = warm files`);
for (const row of rows) {
  const phases = /** @type {Record<string, number>} */ (row.phases);
  const perPage = /** @type {number | undefined} */ (row.perPage);
  console.log(
    `${String(row.n).padStart(6)} ${String(row.kind).padEnd(5)} ${Math.round(/** @type {number} */ (row.ms)).toString().padStart(10)} ${(row.cpu === undefined ? "-" : String(Math.round(/** @type {number} */ (row.cpu)))).padStart(8)} ${(perPage === undefined ? "" : perPage.toFixed(3)).padStart(8)} ${phaseNames.map((p) => (phases[p] === undefined ? "-" : String(Math.round(phases[p] ?? 0))).padStart(8)).join(" ")} ${`${(/** @type {number} */ (row.rssMiB)).toFixed(0)} MiB`.padStart(9)}  ${row.sameFiles === undefined ? "" : row.sameFiles ? "yes" : "NO"}`,
  );
}
const results = process.env.CURBSIDE_BENCH_RESULTS ?? path.join(repo, "tests", "bench", "results");
mkdirSync(results, { recursive: true });
writeFileSync(path.join(results, "scale.json"), `${JSON.stringify({ bin, runs, words, footerLinks, loadBefore, loadAfter, rows }, null, 2)}\n`);
