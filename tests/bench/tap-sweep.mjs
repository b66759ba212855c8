#!/usr/bin/env node
// @ts-check
// The tap sweep as a benchmark: every control of every island pressed at every moment from the
// first paint on (tests/browser/specs/tap-sweep.spec.ts), one press at a time so the timings are
// not shared with another page, on a desktop (1280×800, mouse) and a slow phone (390×844, touch,
// 150 ms RTT, 1.6 Mbps, 4× slower CPU), with the site served precompressed as nginx and Caddy serve it.
// Prints, for each control and moment, whether the press was kept, the browser's Event Timing
// duration of the press (input to the next paint, the figure behind INP) and the milliseconds from
// the press to its result as the page saw it; then the median of 5 runs of "scroll start → pricing
// island hydrated".
// Figures also go to tests/bench/results/tap-sweep.json and hydration.json ($CURBSIDE_BENCH_RESULTS
// names another folder). It measures, it never gates a timing; its exit code is Playwright's (1 when a press is lost, or the run broke).
//
//   node tests/bench/tap-sweep.mjs [--hydration-runs N] [--skip-sweep] [--output DIR]
//
// --output: Playwright's folder for what a test leaves (tests/browser/test-results/ by default),
// so this can run beside the browser tests, whose run empties that folder when it starts. The
// test command's smoke run takes `--skip-sweep --hydration-runs 1` (the test command itself
// presses a sample of the sweep).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { curbsideBinary } from "../browser/support/curbside-binary.mjs";

const { values } = parseArgs({
  options: {
    "hydration-runs": { type: "string", default: "5" },
    "skip-sweep": { type: "boolean", default: false },
    output: { type: "string" },
  },
});
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const browserTests = path.join(repo, "tests/browser");

let failed = 0;

/** @param {string} command @param {string[]} args @param {string} cwd */
function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    stdio: "inherit",
    // Every control at every moment: the test command presses a sample of them.
    env: { ...process.env, TAP_SWEEP: "every", CURBSIDE_TEST_PORT: process.env.CURBSIDE_TEST_PORT ?? "4190" },
  });
  if (result.status !== 0) {
    console.error(`(${command} ${args.join(" ")} exited with ${result.status ?? result.signal ?? result.error})`);
    failed = 1;
  }
}

// The release binary, built now if out of date, wherever CARGO_TARGET_DIR puts it.
process.env.CURBSIDE_BIN = curbsideBinary();
const output = values.output ? ["--output", path.resolve(values.output)] : [];
const common = ["playwright", "test", "specs/tap-sweep.spec.ts", "--workers", "1", "--reporter", "./support/tap-sweep-reporter.ts", ...output];
if (!values["skip-sweep"]) run("npx", [...common, "--grep-invert", "hydrates once"], browserTests);
run("npx", [...common, "--grep", "hydrates once", "--repeat-each", values["hydration-runs"] ?? "5"], browserTests);
process.exitCode = failed;
