// @ts-check
// The executable of one of this crate's examples (tests/bench/*.rs: make_photos,
// make_recording, picture_quality, compression_levels), for the benchmarks that run them.
//
// It is $CURBSIDE_EXAMPLES/NAME when that folder is set: the test command's smoke run
// (tests/bench/smoke.sh) points it at the examples `cargo test --no-run` has just built in
// the tests' profile, so nothing is compiled again. Otherwise cargo builds the example now in
// release (a no-op when it is up to date) and reports where it put it, so CARGO_TARGET_DIR
// is respected and a stale one is never run.
//
//   node tests/bench/example-binary.mjs NAME      prints the path
//   node tests/bench/example-binary.mjs --tests   prints the folder of the examples `cargo test
//                                                 --no-run` builds (running it: a no-op when
//                                                 they are up to date), for CURBSIDE_EXAMPLES

import { accessSync, constants } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cargoArtifact } from "../browser/support/curbside-binary.mjs";

/**
 * The path of the example `name`; throws with what to do when there is none.
 * @param {string} name
 * @returns {string}
 */
export function exampleBinary(name) {
  const folder = process.env.CURBSIDE_EXAMPLES;
  if (folder) {
    const given = join(folder, name);
    try {
      accessSync(given, constants.X_OK);
    } catch {
      throw new Error(`CURBSIDE_EXAMPLES is ${folder}, which holds no executable ${name}: run cargo test --no-run, or unset CURBSIDE_EXAMPLES`);
    }
    return given;
  }
  return cargoArtifact(["build", "--release", "--example", name], `the ${name} example`, (target) => target.name === name);
}

/**
 * The folder holding the examples as `cargo test --no-run` builds them (the tests' profile),
 * running it first; throws when it reports none.
 * @returns {string}
 */
export function testExamplesFolder() {
  // The executable's name carries a hash; cargo also puts a copy under the plain name beside it.
  return dirname(cargoArtifact(["test", "--no-run"], "the examples", (target) => Boolean(target.kind?.includes("example"))));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const name = process.argv[2];
  if (!name) {
    console.error("usage: node tests/bench/example-binary.mjs NAME | --tests");
    process.exit(2);
  }
  try {
    console.log(name === "--tests" ? testExamplesFolder() : exampleBinary(name));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
