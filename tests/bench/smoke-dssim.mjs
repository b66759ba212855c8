#!/usr/bin/env node
// @ts-check
// A stand-in for the `dssim` command, for the test command's smoke run only
// (tests/bench/smoke.sh sets DSSIM to it when no `dssim` is installed): the picture
// benchmarks' DSSIM step then runs to its end on a machine without that tool. It checks what
// the real one would refuse (two PNGs of the same size) and prints a score of 0 in dssim's
// format ("SCORE<TAB>FILE"). Never a measurement: the figures come from the real command.
//
//   DSSIM=tests/bench/smoke-dssim.mjs  (as picture_quality runs it: smoke-dssim.mjs A.png B.png)

import { readFileSync } from "node:fs";

const files = process.argv.slice(2);
if (files.length !== 2) {
  console.error("usage: smoke-dssim.mjs REFERENCE.png COPY.png");
  process.exit(2);
}
const sizes = files.map((file) => {
  const bytes = readFileSync(file);
  if (!bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    console.error(`${file} is not a PNG`);
    process.exit(1);
  }
  // The IHDR chunk's width and height.
  return `${bytes.readUInt32BE(16)}×${bytes.readUInt32BE(20)}`;
});
if (sizes[0] !== sizes[1]) {
  console.error(`the images differ in size: ${files[0]} is ${sizes[0]}, ${files[1]} is ${sizes[1]}`);
  process.exit(1);
}
console.log(`0\t${files[1]}`);
