// @ts-check
// The curbside binary the browser tests and the benchmarks run.
//
// It is $CURBSIDE_BIN when that is set (tests/run.sh sets it to the binary it
// has just built). Otherwise cargo builds the binary now (a no-op when it is
// up to date) and reports where it put it, so CARGO_TARGET_DIR is respected
// and a stale binary is never run.
//
//   node tests/browser/support/curbside-binary.mjs [--tests]   prints the path
// (--tests: the binary `cargo test` runs, in the tests' profile, built alone so a
// run can start its browser tests before the Rust tests are compiled; default: the
// release binary of `cargo build --release`)

import { execFileSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * The path of the curbside binary to run; throws with what to do when there is none.
 * @param {{ tests?: boolean }} [options]
 * @returns {string}
 */
export function curbsideBinary({ tests = false } = {}) {
  const given = process.env.CURBSIDE_BIN;
  if (given) {
    try {
      accessSync(given, constants.X_OK);
    } catch {
      throw new Error(
        `CURBSIDE_BIN is ${given}, which is not an executable file: build it (cargo build --release) or unset CURBSIDE_BIN`,
      );
    }
    return given;
  }
  const args = tests ? ["build", "--bin", "curbside"] : ["build", "--release", "--bin", "curbside"];
  return cargoArtifact(args, "the curbside binary", (target) => target.name === "curbside" && Boolean(target.kind?.includes("bin")));
}

/**
 * Runs `cargo ARGS` (quiet, its messages as JSON) in the repository and returns the path of the
 * first executable it reports whose target `wanted` accepts; throws naming `what` otherwise.
 * @param {string[]} args
 * @param {string} what
 * @param {(target: { name?: string, kind?: string[] }) => boolean} wanted
 * @returns {string}
 */
export function cargoArtifact(args, what, wanted) {
  const all = [...args, "--quiet", "--message-format=json-render-diagnostics"];
  let output;
  try {
    output = execFileSync("cargo", all, {
      cwd: repo,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (error) {
    throw new Error(`cargo ${all.join(" ")} failed: ${what} could not be built`, { cause: error });
  }
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue;
    /** @type {{ reason?: string, target?: { name?: string, kind?: string[] }, executable?: string | null }} */
    const message = JSON.parse(line);
    if (message.reason === "compiler-artifact" && message.target && wanted(message.target) && message.executable) return message.executable;
  }
  throw new Error(`cargo ${all.join(" ")} reported no executable of ${what}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    console.log(curbsideBinary({ tests: process.argv.includes("--tests") }));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
