// @ts-check
// What photos cost: a copy of the project with ten 12-megapixel phone photos (made by the
// make_photos example, with EXIF, GPS and the rest: see example-binary.mjs), one in the hero
// and nine in a page. Measures
//   - a cold build (no processed copies cached) and a warm one, against the same project
//     without photos (median of --runs);
//   - the bytes of pictures Chromium downloads for the home page's first screen: a phone
//     390 px wide at 3 device pixels per CSS pixel, and a 1280 px desktop at 1.
// Reports, never gates. Writes tests/bench/results/pictures.json ($CURBSIDE_BENCH_RESULTS
// names another folder).
//
//   node tests/bench/pictures.mjs [--runs 5] [--cold-runs 2] [--photos 10]
//
// --photos N: the hero and N - 1 photos in the page (at least 2); the test command's smoke
// run takes `--runs 1 --cold-runs 1 --photos 2`, every step at its smallest.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { curbsideBinary } from "../browser/support/curbside-binary.mjs";
import { exampleBinary } from "./example-binary.mjs";
import { freePort } from "../browser/support/free-port.mjs";
import { copyProject, replaceOnce } from "../browser/support/preview.mjs";
import { startCaddyHost } from "../browser/support/start-caddy-host.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const require = createRequire(new URL("../browser/package.json", import.meta.url));
const { executablePath, args: chromeArgs } = await import("../browser/support/chromium.mjs");
/** @type {typeof import("playwright-core")} */
const { chromium } = require("playwright-core");

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    "cold-runs": { type: "string", default: "2" },
    photos: { type: "string", default: "10" },
  },
});
const runs = Number(options.runs);
const coldRuns = Number(options["cold-runs"]);
const photoCount = Number(options.photos);
if (!Number.isInteger(photoCount) || photoCount < 2 || photoCount > 99) {
  console.error("--photos takes a number from 2 to 99: the hero, and at least one photo in the page");
  process.exit(2);
}

const bin = curbsideBinary();
const work = mkdtempSync(join(tmpdir(), "curbside-pictures-"));
const site = join(work, "site");

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Wall-clock ms of one `curbside build --hosting caddy` of the copy. */
function timeBuild() {
  const started = process.hrtime.bigint();
  execFileSync(bin, ["--root", site, "build", "--hosting", "caddy", "--out", join(site, "dist")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** The photos, made once by the example that writes them. */
function makePhotos() {
  execFileSync(exampleBinary("make_photos"), [join(site, "content/photos"), String(photoCount)], { stdio: "inherit" });
}

/**
 * Picture bytes downloaded by the first screen of `/` at this viewport.
 * @param {string} base @param {{ width: number, height: number }} viewport @param {number} scale
 */
async function firstScreenPictureBytes(base, viewport, scale) {
  const browser = await chromium.launch({ executablePath, args: chromeArgs });
  try {
    const context = await browser.newContext({ viewport, deviceScaleFactor: scale });
    const page = await context.newPage();
    /** @type {Promise<number>[]} */
    const sizes = [];
    /** @type {string[]} */
    const names = [];
    page.on("response", (response) => {
      if (!new URL(response.url()).pathname.startsWith("/assets/img/")) return;
      names.push(new URL(response.url()).pathname);
      sizes.push(response.body().then((body) => body.length));
    });
    await page.goto(`${base}/`, { waitUntil: "load" });
    const bytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
    return { bytes, files: names };
  } finally {
    await browser.close();
  }
}

try {
  copyProject({ into: site, binary: bin });
  timeBuild();
  const withoutPhotos = Array.from({ length: runs }, timeBuild);

  makePhotos();
  replaceOnce(site, "content/home.yaml", "  button: Start Service\n", "  button: Start Service\n  image:\n    src: photos/photo-01.jpg\n    alt: Two bins at the curb at dusk\n");
  const gallery = Array.from({ length: photoCount - 1 }, (_, i) => `![Photo ${i + 2}](../photos/photo-${String(i + 2).padStart(2, "0")}.jpg)`);
  writeFileSync(
    join(site, "content/pages/gallery.md"),
    `---\ntitle: Gallery\ndescription: Our bins at the curb.\n---\n\n${gallery.join("\n\n")}\n`,
  );

  const cold = [];
  for (let i = 0; i < coldRuns; i++) {
    rmSync(join(site, ".curbside/images"), { recursive: true, force: true });
    cold.push(timeBuild());
  }
  timeBuild();
  const warm = Array.from({ length: runs }, timeBuild);

  const port = await freePort();
  const host = startCaddyHost(join(site, "dist"), port, 20_000);
  let phone;
  let desktop;
  try {
    await host.ready;
    const base = `http://127.0.0.1:${port}`;
    phone = await firstScreenPictureBytes(base, { width: 390, height: 844 }, 3);
    desktop = await firstScreenPictureBytes(base, { width: 1280, height: 800 }, 1);
  } finally {
    host.child.kill("SIGINT");
  }

  const result = {
    date: new Date().toISOString(),
    cores: (await import("node:os")).cpus().length,
    photos: photoCount,
    buildMs: {
      withoutPhotos: median(withoutPhotos),
      coldTenPhotos: cold,
      warmTenPhotos: median(warm),
      warmAdds: median(warm) - median(withoutPhotos),
    },
    heroBytes: { phone390at3x: phone, desktop1280at1x: desktop },
  };
  console.log(JSON.stringify(result, null, 2));
  const results = process.env.CURBSIDE_BENCH_RESULTS ?? join(repo, "tests/bench/results");
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, "pictures.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
