// @ts-check
// curbside, Astro and Hugo side by side on the same ten 12-megapixel phone photos (made
// by `cargo run --release --example make_photos`): one in the home page's hero, nine on
// a second page, each offered at widths 400/800/1200/1600/2000 as WebP with a JPEG
// fallback and sizes="(min-width: 60rem) 33rem, 100vw".
//   - Astro 5.18.2 with sharp: a minimal project made in a temp folder (`npm install`
//     there, from npm's registry); the hero is
//     <Picture src={photo} formats={['webp']} widths={[400, 800, 1200, 1600, 2000]}
//              sizes="(min-width: 60rem) 33rem, 100vw" alt="…" />
//     with Astro's defaults otherwise (sharp's WebP quality 80, JPEG fallback, lazy).
//   - Hugo (Debian's, extended for WebP): a minimal site whose template calls
//     `.Resize "WIDTHx webp"` and `.Resize "WIDTHx"` for the same widths at Hugo's
//     defaults (quality 75, box filter, hint photo).
//   - curbside: a copy of this project with the photos, as tests/bench/pictures.mjs
//     makes it.
// Measures, for each: the cold build (processed copies removed: Astro's
// node_modules/.astro and dist, Hugo's resources/_gen and public, curbside's
// .curbside/images; median and range of --runs, interleaved), the picture bytes Chromium
// downloads for `/` at 390×844 DPR 3 and 1280×800 DPR 1 (served by a small static
// server on 127.0.0.1), and the DSSIM of the hero copy it gets against the same photo
// resized by curbside's resize, unencoded (`dssim`, via the picture_quality example).
// It also runs sharp as Astro's image service calls it (defaults: WebP and JPEG quality 80)
// on three photos and a real photograph (`picture_quality lake`), at 1200 and 800 wide: the
// DSSIM that the picture_quality example's table is read against.
// Reports, never gates. Writes tests/bench/results/pictures-peers.json.
//
//   node tests/bench/pictures-peers.mjs [--runs 3] [--only curbside,astro,hugo] [--keep]

import { execFileSync } from "node:child_process";
import { cpSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { cpus, tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { curbsideBinary } from "../browser/support/curbside-binary.mjs";
import { copyProject, replaceOnce } from "../browser/support/preview.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const require = createRequire(new URL("../browser/package.json", import.meta.url));
const { executablePath, args: chromeArgs } = await import("../browser/support/chromium.mjs");
/** @type {typeof import("playwright-core")} */
const { chromium } = require("playwright-core");

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    only: { type: "string", default: "curbside,astro,hugo" },
    keep: { type: "boolean", default: false },
  },
});
const runs = Number(options.runs);
const only = options.only.split(",");

const WIDTHS = [400, 800, 1200, 1600, 2000];
const SIZES = "(min-width: 60rem) 33rem, 100vw";
const ALT = "Two bins at the curb at dusk";
const ASTRO = "5.18.2";
const photoName = (/** @type {number} */ n) => `photo-${String(n).padStart(2, "0")}.jpg`;

const work = mkdtempSync(join(tmpdir(), "curbside-peers-"));
const photos = join(work, "photos");

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** @param {number[]} values */
const summary = (values) => ({ median: Math.round(median(values)), min: Math.round(Math.min(...values)), max: Math.round(Math.max(...values)), runs: values.map(Math.round) });

/** Wall-clock ms of a command. @param {string} file @param {string[]} args @param {object} [options] */
function timed(file, args, options = {}) {
  const started = process.hrtime.bigint();
  execFileSync(file, args, { stdio: ["ignore", "ignore", "inherit"], ...options });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** The executable of one of this crate's examples, built by cargo (CARGO_TARGET_DIR respected). @param {string} name */
function example(name) {
  const output = execFileSync(
    "cargo",
    ["build", "--release", "--quiet", "--example", name, "--message-format=json-render-diagnostics"],
    { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * 1024 * 1024 },
  );
  const made = output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .find((m) => m.reason === "compiler-artifact" && m.target?.name === name && m.executable);
  if (!made) throw new Error(`cargo reported no ${name} executable`);
  return /** @type {string} */ (made.executable);
}

// ---------------------------------------------------------------- the three sites

/** @typedef {{ name: string, version: string, dist: string, prepare: () => void, coldBuild: () => number }} Tool */

/** @returns {Tool} */
function curbside() {
  const bin = curbsideBinary();
  const site = join(work, "curbside/site");
  const build = () => timed(bin, ["--root", site, "build", "--hosting", "caddy", "--out", join(site, "dist")]);
  return {
    name: "curbside",
    version: execFileSync(bin, ["--version"], { encoding: "utf8" }).trim(),
    dist: join(site, "dist"),
    prepare() {
      copyProject({ into: site, binary: bin });
      cpSync(photos, join(site, "content/photos"), { recursive: true });
      replaceOnce(site, "content/home.yaml", "  button: Start Service\n", `  button: Start Service\n  image:\n    src: photos/${photoName(1)}\n    alt: ${ALT}\n`);
      const gallery = Array.from({ length: 9 }, (_, i) => `![Photo ${i + 2}](../photos/${photoName(i + 2)})`);
      writeFileSync(join(site, "content/pages/gallery.md"), `---\ntitle: Gallery\ndescription: Our bins at the curb.\n---\n\n${gallery.join("\n\n")}\n`);
      build();
    },
    coldBuild() {
      rmSync(join(site, ".curbside/images"), { recursive: true, force: true });
      return build();
    },
  };
}

const page = (/** @type {string} */ title, /** @type {string} */ body) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
body { margin: 0; font-family: system-ui, sans-serif; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
img { max-width: 100%; height: auto; display: block; }
@media (min-width: 60rem) { .hero { display: grid; grid-template-columns: 1fr 33rem; gap: 2rem; align-items: center; } }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
const heroText = `<div><h1>Bins to the curb, every week</h1><p>We take your bins out and bring them back. <a href="/gallery/">See our work</a>.</p></div>`;

/** @returns {Tool} */
function astro() {
  const dir = join(work, "astro");
  const widths = JSON.stringify(WIDTHS);
  const picture = (/** @type {string} */ name, /** @type {string} */ alt) =>
    `<Picture src={${name}} formats={['webp']} widths={${widths}} sizes="${SIZES}" alt="${alt}" />`;
  const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" };
  const astroBin = join(dir, "node_modules/.bin/astro");
  return {
    name: "astro",
    version: `astro ${ASTRO}`,
    dist: join(dir, "dist"),
    prepare() {
      mkdirSync(join(dir, "src/pages/gallery"), { recursive: true });
      cpSync(photos, join(dir, "src/photos"), { recursive: true });
      writeFileSync(
        join(dir, "package.json"),
        JSON.stringify({ name: "peers-astro", private: true, type: "module", dependencies: { astro: ASTRO, sharp: "^0.34.0" } }, null, 2),
      );
      writeFileSync(join(dir, "astro.config.mjs"), `import { defineConfig } from "astro/config";\nexport default defineConfig({});\n`);
      writeFileSync(
        join(dir, "src/pages/index.astro"),
        `---\nimport { Picture } from "astro:assets";\nimport hero from "../photos/${photoName(1)}";\n---\n${page("Home", `<section class="hero">${heroText}${picture("hero", ALT)}</section>`)}`,
      );
      const imports = Array.from({ length: 9 }, (_, i) => `import p${i + 2} from "../../photos/${photoName(i + 2)}";`).join("\n");
      const pictures = Array.from({ length: 9 }, (_, i) => picture(`p${i + 2}`, `Photo ${i + 2}`)).join("\n");
      writeFileSync(
        join(dir, "src/pages/gallery/index.astro"),
        `---\nimport { Picture } from "astro:assets";\n${imports}\n---\n${page("Gallery", `<h1>Gallery</h1>\n${pictures}`)}`,
      );
      execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
      execFileSync(astroBin, ["build", "--silent"], { cwd: dir, env, stdio: ["ignore", "ignore", "inherit"] });
    },
    coldBuild() {
      rmSync(join(dir, "node_modules/.astro"), { recursive: true, force: true });
      rmSync(join(dir, "dist"), { recursive: true, force: true });
      return timed(astroBin, ["build", "--silent"], { cwd: dir, env });
    },
  };
}

/** @returns {Tool} */
function hugo() {
  const dir = join(work, "hugo");
  const build = () => timed("hugo", ["--quiet", "--source", dir, "--destination", join(dir, "public")]);
  return {
    name: "hugo",
    version: execFileSync("hugo", ["version"], { encoding: "utf8" }).trim().split(" ").slice(0, 2).join(" "),
    dist: join(dir, "public"),
    prepare() {
      if (!/extended/.test(execFileSync("hugo", ["version"], { encoding: "utf8" }))) {
        throw new Error("this Hugo is not the extended edition, which WebP needs");
      }
      for (const folder of ["assets", "content", "layouts/_default", "layouts/partials"]) mkdirSync(join(dir, folder), { recursive: true });
      cpSync(photos, join(dir, "assets/photos"), { recursive: true });
      writeFileSync(
        join(dir, "config.toml"),
        // Hugo stops a template after 30 s, less than its photos take on a busy machine.
        `baseURL = "/"\ntitle = "Peers"\ntimeout = "600s"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n`,
      );
      writeFileSync(join(dir, "content/_index.md"), "---\ntitle: Home\n---\n");
      writeFileSync(join(dir, "content/gallery.md"), "---\ntitle: Gallery\nurl: /gallery/\n---\n");
      // Both formats at every width, never wider than the photo; the <img> carries the size.
      writeFileSync(
        join(dir, "layouts/partials/picture.html"),
        `{{ $img := .img }}{{ $webp := slice }}{{ $jpeg := slice }}
{{ range (slice ${WIDTHS.join(" ")}) }}{{ if le . $img.Width }}
{{ $w := $img.Resize (printf "%dx webp" .) }}{{ $webp = $webp | append (printf "%s %dw" $w.RelPermalink .) }}
{{ $j := $img.Resize (printf "%dx" .) }}{{ $jpeg = $jpeg | append (printf "%s %dw" $j.RelPermalink .) }}
{{ end }}{{ end }}{{ $src := $img.Resize "1200x" }}
<picture><source type="image/webp" srcset="{{ delimit $webp ", " }}" sizes="{{ .sizes }}"><img src="{{ $src.RelPermalink }}" srcset="{{ delimit $jpeg ", " }}" sizes="{{ .sizes }}" width="{{ $img.Width }}" height="{{ $img.Height }}" alt="{{ .alt }}" loading="lazy" decoding="async"></picture>
`,
      );
      const shell = (/** @type {string} */ body) => page("{{ .Title }}", body);
      writeFileSync(
        join(dir, "layouts/index.html"),
        shell(
          `<section class="hero">${heroText}{{ partial "picture.html" (dict "img" (resources.Get "photos/${photoName(1)}") "sizes" "${SIZES}" "alt" "${ALT}") }}</section>`,
        ),
      );
      writeFileSync(
        join(dir, "layouts/_default/single.html"),
        shell(
          `<h1>Gallery</h1>{{ range $i, $p := resources.Match "photos/*.jpg" }}{{ if ne $p.Name "photos/${photoName(1)}" }}{{ partial "picture.html" (dict "img" $p "sizes" "${SIZES}" "alt" (printf "Photo %d" (add $i 1))) }}{{ end }}{{ end }}`,
        ),
      );
      build();
    },
    coldBuild() {
      rmSync(join(dir, "resources/_gen"), { recursive: true, force: true });
      rmSync(join(dir, "public"), { recursive: true, force: true });
      return build();
    },
  };
}

// ---------------------------------------------------------------- serving and measuring

const TYPES = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript", ".webp": "image/webp", ".avif": "image/avif", ".jpg": "image/jpeg", ".png": "image/png", ".svg": "image/svg+xml", ".json": "application/json", ".woff2": "font/woff2" };

/** A static server for `root` on 127.0.0.1: `/x/` and `/x` find `x/index.html` or `x.html`. @param {string} root */
async function serve(root) {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://127.0.0.1").pathname)).replace(/^(\.\.[/\\])+/, "");
    for (const candidate of [path, join(path, "index.html"), `${path}.html`]) {
      const file = join(root, candidate);
      try {
        if (!statSync(file).isFile()) continue;
      } catch {
        continue;
      }
      response.writeHead(200, { "content-type": TYPES[/** @type {keyof typeof TYPES} */ (extname(file))] ?? "application/octet-stream" });
      createReadStream(file).pipe(response);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", () => done(undefined)));
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("the static server has no port");
  return { base: `http://127.0.0.1:${address.port}`, close: () => server.close() };
}

/**
 * An AVIF copy (which picture_quality cannot decode) as a PNG beside it, decoded by sharp's
 * libheif from the Astro project's packages; any other copy as it is.
 * @param {string} copy
 */
function pngOfAvif(copy) {
  if (readFileSync(copy).subarray(4, 8).toString("latin1") !== "ftyp") return copy;
  const dir = join(work, "astro");
  if (!existsSync(join(dir, "node_modules/sharp"))) throw new Error("an AVIF copy is decoded with the Astro project's sharp: run with astro");
  const png = `${copy}.png`;
  writeFileSync(join(dir, "sharp-png.mjs"), 'import sharp from "sharp";\nawait sharp(process.argv[2]).png().toFile(process.argv[3]);\n');
  execFileSync("node", ["sharp-png.mjs", copy, png], { cwd: dir });
  return png;
}

/**
 * The pictures Chromium downloads for `/` at this viewport: their bytes, names, and the
 * hero's copy (saved to `save`).
 * @param {string} base @param {{ width: number, height: number }} viewport @param {number} scale @param {string} save
 */
async function pictureBytes(base, viewport, scale, save) {
  const browser = await chromium.launch({ executablePath, args: chromeArgs });
  try {
    const context = await browser.newContext({ viewport, deviceScaleFactor: scale });
    const page = await context.newPage();
    /** @type {Promise<{ path: string, body: Buffer }>[]} */
    const got = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "image" || response.url().startsWith("data:")) return;
      got.push(response.body().then((body) => ({ path: new URL(response.url()).pathname, body })));
    });
    await page.goto(`${base}/`, { waitUntil: "networkidle" });
    const pictures = await Promise.all(got);
    const hero = pictures.find((p) => p.path.includes(photoName(1).replace(".jpg", "")));
    if (hero) writeFileSync(save, hero.body);
    return {
      bytes: pictures.reduce((sum, p) => sum + p.body.length, 0),
      files: pictures.map((p) => `${p.path} (${p.body.length} B)`),
      hero: hero ? save : null,
    };
  } finally {
    await browser.close();
  }
}

try {
  const quality = example("picture_quality");
  execFileSync(example("make_photos"), [photos, "10"], { stdio: "inherit" });
  const references = Object.fromEntries(
    [1200, 800].map((width) => {
      const file = join(work, `reference-${width}.png`);
      execFileSync(quality, ["reference", join(photos, photoName(1)), String(width), file]);
      return [width, file];
    }),
  );

  const tools = [curbside(), astro(), hugo()].filter((tool) => only.includes(tool.name));
  for (const tool of tools) {
    console.error(`preparing ${tool.name}…`);
    tool.prepare();
  }
  /** @type {Record<string, number[]>} */
  const cold = Object.fromEntries(tools.map((tool) => [tool.name, []]));
  for (let run = 0; run < runs; run++) {
    for (const tool of tools) {
      const ms = tool.coldBuild();
      console.error(`${tool.name} cold build ${run + 1}/${runs}: ${Math.round(ms)} ms`);
      cold[tool.name].push(ms);
    }
  }

  const results = [];
  for (const tool of tools) {
    const server = await serve(tool.dist);
    try {
      const phone = await pictureBytes(server.base, { width: 390, height: 844 }, 3, join(work, `${tool.name}-phone.bin`));
      const desktop = await pictureBytes(server.base, { width: 1280, height: 800 }, 1, join(work, `${tool.name}-desktop.bin`));
      const score = (/** @type {string | null} */ copy, /** @type {number} */ width) => {
        if (!copy) return null;
        try {
          return Number(execFileSync(quality, ["dssim", references[width], pngOfAvif(copy)], { encoding: "utf8" }).trim());
        } catch {
          return null; // not the size of the reference: the copy's own width is in `files`
        }
      };
      results.push({
        tool: tool.name,
        version: tool.version,
        coldBuildMs: summary(cold[tool.name]),
        phone390at3x: { ...phone, heroDssimAt1200: score(phone.hero, 1200) },
        desktop1280at1x: { ...desktop, heroDssimAt800: score(desktop.hero, 800) },
      });
    } finally {
      server.close();
    }
  }

  // What Astro's sharp service makes with its defaults (sharp's WebP and JPEG quality 80)
  // from three of the photos and a real one, at the phone's and the desktop's widths: the
  // DSSIM the picture_quality table is read against.
  const sharpDefaults = [];
  if (only.includes("astro")) {
    const dir = join(work, "astro");
    writeFileSync(
      join(dir, "sharp-copy.mjs"),
      `import sharp from "sharp";
const [input, width, format, output] = process.argv.slice(2);
await sharp(input, { failOnError: false, pages: -1 }).rotate().resize({ width: Number(width) }).toFormat(format, { quality: undefined }).toFile(output);
`,
    );
    const lake = execFileSync(quality, ["lake"], { encoding: "utf8" }).trim();
    for (const photo of [1, 2, 3].map((n) => join(photos, photoName(n))).concat(lake)) {
      const name = photo.split("/").pop()?.replace(".jpg", "");
      for (const width of [1200, 800]) {
        const reference = join(work, `${name}-${width}.png`);
        execFileSync(quality, ["reference", photo, String(width), reference]);
        for (const format of ["webp", "jpeg"]) {
          const copy = join(work, `${name}-${width}.sharp.${format}`);
          execFileSync("node", ["sharp-copy.mjs", photo, String(width), format, copy], { cwd: dir });
          const dssim = Number(execFileSync(quality, ["dssim", reference, copy], { encoding: "utf8" }).trim());
          sharpDefaults.push({ photo: name, width, format, bytes: statSync(copy).size, dssim });
        }
      }
    }
  }

  const result = { date: new Date().toISOString(), cores: cpus().length, widths: WIDTHS, sizes: SIZES, results, sharpDefaults };
  console.log(JSON.stringify(result, null, 2));
  console.log("\n| | cold build, ms (median, range) | phone 390 px DPR 3: bytes | DSSIM | desktop 1280 px: bytes | DSSIM |\n|---|---|---:|---:|---:|---:|");
  for (const r of results) {
    const d = (/** @type {number | null} */ v) => (v === null ? "n/a" : v.toFixed(6));
    console.log(
      `| ${r.version} | ${r.coldBuildMs.median} (${r.coldBuildMs.min}–${r.coldBuildMs.max}) | ${r.phone390at3x.bytes} | ${d(r.phone390at3x.heroDssimAt1200)} | ${r.desktop1280at1x.bytes} | ${d(r.desktop1280at1x.heroDssimAt800)} |`,
    );
  }
  if (sharpDefaults.length) {
    console.log("\nsharp's defaults, as Astro calls it:\n| photo | width | format | bytes | DSSIM |\n|---|---:|---|---:|---:|");
    for (const s of sharpDefaults) console.log(`| ${s.photo} | ${s.width} | ${s.format} | ${s.bytes} | ${s.dssim.toFixed(6)} |`);
  }
  const out = join(repo, "tests/bench/results");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "pictures-peers.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  if (options.keep) console.error(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
