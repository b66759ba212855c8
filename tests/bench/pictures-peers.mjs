// @ts-check
// curbside, Astro and Hugo side by side on the same ten 12-megapixel phone photos (made
// by the make_photos example, see example-binary.mjs): one in the home page's hero, nine on
// a second page, each offered at widths 400/800/1200/1600/2000 with
// sizes="(min-width: 60rem) 33rem, 100vw". Every page draws the hero in curbside's boxes:
// a 16:9 band across a phone, a 4:3 frame 33rem wide beside the text from 60rem
// (`aspect-ratio` and `object-fit: cover`), so each screen shows the same picture.
//   - Astro 5.18.2 with sharp: a minimal project made in a temp folder (`npm install`
//     there, from npm's registry), built twice from two source folders; the hero is
//     <Picture src={photo} priority widths={[400, 800, 1200, 1600, 2000]}
//              sizes="(min-width: 60rem) 33rem, 100vw" alt="…" />
//     `astro`: formats at Astro's default (WebP), `astro-avif`: formats={['avif', 'webp']};
//     Astro's defaults otherwise (sharp's WebP quality 80, AVIF quality 50, a JPEG
//     fallback; `priority` makes it eager, fetchpriority="high", decoding="sync"). The
//     widths are given, as Astro's default without them is one copy at the photo's own
//     4000 px. Astro does not cut: every copy is the whole photo, cropped on screen by CSS.
//   - Hugo (Debian's, extended for WebP): a minimal site whose template calls
//     `.Resize "WIDTHx webp"` and `.Resize "WIDTHx"` for the same widths at Hugo's
//     defaults (quality 75, box filter, hint photo); its hero eager, fetchpriority="high".
//   - curbside: a copy of this project with the photos, as tests/bench/pictures.mjs
//     makes it: the hero cut to each box (16:9 and 4:3, centred), AVIF before WebP and JPEG.
//     Also measured: curbside's hero (its preloads and <picture>, the same copies) in the
//     peers' minimal page, the picture's part of the LCP apart from the rest of the page.
// Measures, for each: the cold build (processed copies removed: Astro's cache and dist,
// Hugo's resources/_gen and public, curbside's .curbside/images; median and range of
// --runs, interleaved); the picture bytes Chromium downloads for `/` at 390×844 DPR 3 and
// 1280×800 DPR 1 (served gzipped by a small static server on 127.0.0.1), the hero copy it
// shows (`currentSrc`) and that copy's DSSIM against the same part of the photo resized by
// curbside's resize, unencoded (`dssim`, via the picture_quality example): the centred cut
// for a cut copy, the whole photo for a whole one; and the hero's LCP in Lighthouse 12
// (mobile, its default config with simulated throttling, and desktop-config), median and
// range of --lighthouse-runs, the sites interleaved in each run.
// It also runs sharp as Astro's image service calls it (defaults: WebP and JPEG quality 80)
// on three photos and a real photograph (`picture_quality lake`), at 1200 and 800 wide: the
// DSSIM that the picture_quality example's table is read against.
// Reports, never gates. Writes tests/bench/results/pictures-peers.json ($CURBSIDE_BENCH_RESULTS
// names another folder).
//
//   node tests/bench/pictures-peers.mjs [--runs 3] [--lighthouse-runs 3]
//        [--only curbside,astro,astro-avif,hugo] [--photos 10] [--keep]
// (--runs 0 skips the cold builds; --photos N: the hero and N - 1 photos on the second page.)
//
// The peers are made here, not found: Astro is installed from npm's registry into the
// temporary folder, Hugo is the `hugo` on the PATH. `--only curbside` needs neither (the
// test command's smoke run: `--only curbside --runs 1 --lighthouse-runs 1 --photos 2`).

import { execFileSync } from "node:child_process";
import { cpSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { cpus, tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { curbsideBinary } from "../browser/support/curbside-binary.mjs";
import { copyProject, replaceOnce } from "../browser/support/preview.mjs";
import { exampleBinary } from "./example-binary.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const require = createRequire(new URL("../browser/package.json", import.meta.url));
const { executablePath, args: chromeArgs } = await import("../browser/support/chromium.mjs");
/** @type {typeof import("playwright-core")} */
const { chromium } = require("playwright-core");

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    "lighthouse-runs": { type: "string", default: "3" },
    only: { type: "string", default: "curbside,astro,astro-avif,hugo" },
    photos: { type: "string", default: "10" },
    keep: { type: "boolean", default: false },
  },
});
const runs = Number(options.runs);
const lighthouseRuns = Number(options["lighthouse-runs"]);
const only = options.only.split(",");
const photoCount = Number(options.photos);
if (!Number.isInteger(photoCount) || photoCount < 2 || photoCount > 99) {
  console.error("--photos takes a number from 2 to 99: the hero, and at least one photo on the second page");
  process.exit(2);
}
/** The photos of the second page: all but the hero. */
const galleryCount = photoCount - 1;

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
const summary = (values) =>
  values.length ? { median: Math.round(median(values)), min: Math.round(Math.min(...values)), max: Math.round(Math.max(...values)), runs: values.map(Math.round) } : null;

/** Wall-clock ms of a command. @param {string} file @param {string[]} args @param {object} [options] */
function timed(file, args, options = {}) {
  const started = process.hrtime.bigint();
  execFileSync(file, args, { stdio: ["ignore", "ignore", "inherit"], ...options });
  return Number(process.hrtime.bigint() - started) / 1e6;
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
      const gallery = Array.from({ length: galleryCount }, (_, i) => `![Photo ${i + 2}](../photos/${photoName(i + 2)})`);
      writeFileSync(join(site, "content/pages/gallery.md"), `---\ntitle: Gallery\ndescription: Our bins at the curb.\n---\n\n${gallery.join("\n\n")}\n`);
      build();
    },
    coldBuild() {
      rmSync(join(site, ".curbside/images"), { recursive: true, force: true });
      return build();
    },
  };
}

const page = (/** @type {string} */ title, /** @type {string} */ body, head = "") => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>${head}
<style>
body { margin: 0; font-family: system-ui, sans-serif; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
img { max-width: 100%; height: auto; display: block; }
.hero picture { display: block; margin: -1rem -1rem 1.5rem; }
.hero img { width: 100%; aspect-ratio: 16 / 9; object-fit: cover; }
@media (min-width: 60rem) {
  .hero { display: grid; grid-template-columns: 1fr 33rem; gap: 2rem; align-items: start; }
  .hero picture { grid-column: 2; grid-row: 1; margin: 0; }
  .hero img { aspect-ratio: 4 / 3; }
}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
// The photo first, as curbside's: at the top of a phone's screen, beside the text from 60rem.
const hero = (/** @type {string} */ picture) =>
  `<section class="hero">${picture}<div><h1>Bins to the curb, every week</h1><p>We take your bins out and bring them back. <a href="/gallery/">See our work</a>.</p></div></section>`;

/**
 * One Astro build of the shared project (installed once): its own source, output and
 * cache folders, `formats` on the hero's <Picture> or, when null, Astro's default.
 * @param {{ name: string, formats: string[] | null }} variant
 * @returns {Tool}
 */
function astro({ name, formats }) {
  const dir = join(work, "astro");
  const [src, out, cache, config] = [`src-${name}`, `dist-${name}`, `cache-${name}`, `astro.${name}.config.mjs`];
  const widths = JSON.stringify(WIDTHS);
  const picture = (/** @type {string} */ image, /** @type {string} */ alt, /** @type {string} */ more = "") =>
    `<Picture src={${image}}${more} widths={${widths}} sizes="${SIZES}" alt="${alt}" />`;
  const heroFormats = formats ? ` formats={${JSON.stringify(formats).replaceAll('"', "'")}}` : "";
  const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" };
  const astroBin = join(dir, "node_modules/.bin/astro");
  const build = () => timed(astroBin, ["build", "--silent", "--config", config], { cwd: dir, env });
  return {
    name,
    version: `astro ${ASTRO}${formats ? ` formats ${formats.join("+")}` : ""}`,
    dist: join(dir, out),
    prepare() {
      mkdirSync(join(dir, src, "pages/gallery"), { recursive: true });
      cpSync(photos, join(dir, src, "photos"), { recursive: true });
      if (!existsSync(join(dir, "node_modules/astro"))) {
        writeFileSync(
          join(dir, "package.json"),
          JSON.stringify({ name: "peers-astro", private: true, type: "module", dependencies: { astro: ASTRO, sharp: "^0.34.0" } }, null, 2),
        );
        execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
      }
      writeFileSync(
        join(dir, config),
        `import { defineConfig } from "astro/config";\nexport default defineConfig(${JSON.stringify({ srcDir: `./${src}`, outDir: `./${out}`, cacheDir: `./${cache}` })});\n`,
      );
      writeFileSync(
        join(dir, src, "pages/index.astro"),
        `---\nimport { Picture } from "astro:assets";\nimport photo from "../photos/${photoName(1)}";\n---\n${page("Home", hero(picture("photo", ALT, `${heroFormats} priority`)))}`,
      );
      const imports = Array.from({ length: galleryCount }, (_, i) => `import p${i + 2} from "../../photos/${photoName(i + 2)}";`).join("\n");
      const pictures = Array.from({ length: galleryCount }, (_, i) => picture(`p${i + 2}`, `Photo ${i + 2}`)).join("\n");
      writeFileSync(
        join(dir, src, "pages/gallery/index.astro"),
        `---\nimport { Picture } from "astro:assets";\n${imports}\n---\n${page("Gallery", `<h1>Gallery</h1>\n${pictures}`)}`,
      );
      build();
    },
    coldBuild() {
      rmSync(join(dir, cache), { recursive: true, force: true });
      rmSync(join(dir, out), { recursive: true, force: true });
      return build();
    },
  };
}

/**
 * curbside's hero as its home page has it (the preloads and the <picture>, the same
 * copies) in the peers' minimal page: the picture's part of the LCP apart from the rest of
 * curbside's page (its text, inline stylesheet and scripts).
 * @param {string} dist curbside's built site
 */
function curbsideBare(dist) {
  const dir = join(work, "curbside-bare");
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const preloads = html.match(/<link rel="preload" as="image"[^>]*>/g) ?? [];
  const picture = html.match(/<div class="hero__media">(<picture>.*?<\/picture>)<\/div>/s)?.[1];
  if (!preloads.length || !picture) throw new Error("curbside's home page has no hero picture with its preloads");
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(dist, "assets"), join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), page("Home", hero(picture), `\n${preloads.join("\n")}`));
  return { name: "curbside-bare", version: "curbside's hero in the peers' page", dist: dir };
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
      // Both formats at every width, never wider than the photo; the <img> carries the size;
      // the hero (`priority`) is fetched at once and first, as Astro's `priority` has it.
      writeFileSync(
        join(dir, "layouts/partials/picture.html"),
        `{{ $img := .img }}{{ $webp := slice }}{{ $jpeg := slice }}
{{ range (slice ${WIDTHS.join(" ")}) }}{{ if le . $img.Width }}
{{ $w := $img.Resize (printf "%dx webp" .) }}{{ $webp = $webp | append (printf "%s %dw" $w.RelPermalink .) }}
{{ $j := $img.Resize (printf "%dx" .) }}{{ $jpeg = $jpeg | append (printf "%s %dw" $j.RelPermalink .) }}
{{ end }}{{ end }}{{ $src := $img.Resize "1200x" }}
<picture><source type="image/webp" srcset="{{ delimit $webp ", " }}" sizes="{{ .sizes }}"><img src="{{ $src.RelPermalink }}" srcset="{{ delimit $jpeg ", " }}" sizes="{{ .sizes }}" width="{{ $img.Width }}" height="{{ $img.Height }}" alt="{{ .alt }}" {{ if .priority }}loading="eager" fetchpriority="high"{{ else }}loading="lazy"{{ end }} decoding="async"></picture>
`,
      );
      const shell = (/** @type {string} */ body) => page("{{ .Title }}", body);
      writeFileSync(
        join(dir, "layouts/index.html"),
        shell(
          hero(`{{ partial "picture.html" (dict "img" (resources.Get "photos/${photoName(1)}") "sizes" "${SIZES}" "alt" "${ALT}" "priority" true) }}`),
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

const TEXT = new Set([".html", ".css", ".js", ".svg", ".json"]);

/**
 * A static server for `root` on 127.0.0.1: `/x/` and `/x` find `x/index.html` or `x.html`.
 * Text is gzipped for a client that asks, as any host does: an uncompressed page would
 * weigh on every generator's LCP under throttling by its own size, not its picture's.
 * @param {string} root
 */
async function serve(root) {
  /** @type {Map<string, Buffer>} */
  const zipped = new Map();
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://127.0.0.1").pathname)).replace(/^(\.\.[/\\])+/, "");
    for (const candidate of [path, join(path, "index.html"), `${path}.html`]) {
      const file = join(root, candidate);
      try {
        if (!statSync(file).isFile()) continue;
      } catch {
        continue;
      }
      const type = TYPES[/** @type {keyof typeof TYPES} */ (extname(file))] ?? "application/octet-stream";
      if (TEXT.has(extname(file)) && /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""))) {
        const body = zipped.get(file) ?? gzipSync(readFileSync(file), { level: 9 });
        zipped.set(file, body);
        response.writeHead(200, { "content-type": type, "content-encoding": "gzip", "content-length": body.length, vary: "accept-encoding" });
        response.end(body);
        return;
      }
      response.writeHead(200, { "content-type": type, "content-length": statSync(file).size });
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
 * libheif from the Astro project's packages, or without Astro (`--only curbside`) from the
 * frontend's (the same sharp 0.34, which encoded curbside's copies); any other copy as it is.
 * @param {string} copy
 */
function pngOfAvif(copy) {
  if (readFileSync(copy).subarray(4, 8).toString("latin1") !== "ftyp") return copy;
  const astro = join(work, "astro");
  const dir = existsSync(join(astro, "node_modules/sharp")) ? astro : join(repo, "frontend");
  if (!existsSync(join(dir, "node_modules/sharp"))) throw new Error("an AVIF copy is decoded with sharp: install the frontend's packages (npm ci in frontend/)");
  const png = `${copy}.png`;
  // sharp as that folder's package.json resolves it; the script itself stays in the temporary folder.
  const script = join(work, "sharp-png.mjs");
  writeFileSync(
    script,
    'import { createRequire } from "node:module";\nconst sharp = createRequire(process.argv[4])("sharp");\nawait sharp(process.argv[2]).png().toFile(process.argv[3]);\n',
  );
  execFileSync("node", [script, copy, png, join(dir, "package.json")]);
  return png;
}

/**
 * The pictures Chromium downloads for `/` at this viewport: their bytes and names, and the
 * copy the hero shows (its `currentSrc`, saved to `save`) with its size in pixels.
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
    // naturalWidth is in CSS pixels (the copy's width over its density): the copy's own
    // size comes from decoding it again (a fetch, which the count above leaves out).
    const shown = await page.evaluate(async () => {
      const img = document.querySelector(".hero img");
      if (!(img instanceof HTMLImageElement)) return null;
      const bitmap = await createImageBitmap(await (await fetch(img.currentSrc)).blob());
      return { src: img.currentSrc, width: bitmap.width, height: bitmap.height };
    });
    const pictures = await Promise.all(got);
    const heroPath = shown ? new URL(shown.src).pathname : null;
    const hero = pictures.find((p) => p.path === heroPath);
    if (hero) writeFileSync(save, hero.body);
    return {
      bytes: pictures.reduce((sum, p) => sum + p.body.length, 0),
      files: pictures.map((p) => `${p.path} (${p.body.length} B)`),
      hero: hero && shown ? { file: save, path: hero.path, bytes: hero.body.length, width: shown.width, height: shown.height } : null,
    };
  } finally {
    await browser.close();
  }
}

/** @param {number} a @param {number} b @returns {number} */
const gcd = (a, b) => (b ? gcd(b, a % b) : a);

/**
 * The DSSIM of a hero copy against the same part of the photo, resized by curbside's
 * resize and not encoded: the whole photo when the copy is in the photo's proportion,
 * else the centred cut in the copy's (curbside cuts a photo with no focus around its
 * centre). Null when the copy was not measured.
 * @param {string} quality the picture_quality example @param {{ file: string, width: number, height: number } | null} copy
 */
function heroDssim(quality, copy) {
  if (!copy) return null;
  const photo = join(photos, photoName(1));
  const whole = join(work, `reference-${copy.width}.png`);
  if (!existsSync(whole)) execFileSync(quality, ["reference", photo, String(copy.width), whole]);
  // A PNG's height is the second word of its IHDR chunk.
  const wholeHeight = readFileSync(whole).readUInt32BE(20);
  let reference = whole;
  let against = `the whole photo at ${copy.width}×${wholeHeight}`;
  if (wholeHeight !== copy.height) {
    const g = gcd(copy.width, copy.height);
    const cut = `${copy.width / g}:${copy.height / g}`;
    reference = join(work, `reference-${copy.width}x${copy.height}.png`);
    if (!existsSync(reference)) execFileSync(quality, ["reference", photo, String(copy.width), reference, "--cut", cut]);
    const height = readFileSync(reference).readUInt32BE(20);
    if (height !== copy.height) throw new Error(`the ${cut} cut's reference is ${height} px high, the copy ${copy.height}`);
    against = `the centred ${cut} cut at ${copy.width}×${copy.height}`;
  }
  const dssim = Number(execFileSync(quality, ["dssim", reference, pngOfAvif(copy.file)], { encoding: "utf8" }).trim());
  return { dssim, against };
}

/** The first DOM node a Lighthouse audit's details name. @param {unknown} details @returns {string | null} */
function firstNode(details) {
  if (!details || typeof details !== "object") return null;
  const node = /** @type {{ node?: { type?: string, selector?: string, nodeLabel?: string } }} */ (details).node;
  if (node?.type === "node") return `${node.selector ?? "?"} (${(node.nodeLabel ?? "").slice(0, 40)})`;
  for (const value of Object.values(details)) {
    const found = firstNode(value);
    if (found) return found;
  }
  return null;
}

/**
 * The phases Lighthouse splits the LCP into (TTFB, Load Delay, Load Time, Render Delay), ms.
 * @param {unknown} details @returns {Record<string, number>}
 */
function lcpPhases(details) {
  /** @type {Record<string, number>} */
  const phases = {};
  const lists = /** @type {{ items?: { items?: { phase?: unknown, timing?: unknown }[] }[] }} */ (details ?? {}).items ?? [];
  for (const table of lists) {
    for (const row of table.items ?? []) {
      if (typeof row.phase === "string" && typeof row.timing === "number") phases[row.phase] = row.timing;
    }
  }
  return phases;
}

/** @typedef {{ lcpMs: number, element: string | null, phases: Record<string, number>, documentBytes: number | null, benchmarkIndex: number | null }} LighthouseRun */

/**
 * The LCP of `/` on each site in Lighthouse 12, mobile (its default config: a mid-range
 * phone, simulated 4× CPU and slow 4G) and desktop (desktop-config), `lighthouseRuns`
 * rounds, every site and form factor once in each round, so a busy spell of the machine
 * falls on all of them alike. A failed run is tried once more and reported.
 * @param {{ name: string, base: string }[]} sites
 */
async function lighthouseLcp(sites) {
  const load = async (/** @type {string} */ name) => import(pathToFileURL(require.resolve(name)).href);
  /** @type {(url: string, flags: object, config?: object) => Promise<{ lhr: { audits: Record<string, { numericValue?: number, details?: unknown }>, environment?: { benchmarkIndex?: number }, runtimeError?: { code: string, message: string } } } | undefined>} */
  const lighthouse = (await load("lighthouse")).default;
  /** @type {{ launch: (options: object) => Promise<{ port: number, kill: () => Promise<void> | void }> }} */
  const chromeLauncher = await load("chrome-launcher");
  /** @type {object} */
  const desktopConfig = (await load("lighthouse/core/config/desktop-config.js")).default;
  const forms = /** @type {const} */ ([
    ["mobile", undefined],
    ["desktop", desktopConfig],
  ]);
  /** @type {Record<string, Record<string, LighthouseRun[]>>} */
  const measured = Object.fromEntries(sites.map((site) => [site.name, { mobile: [], desktop: [] }]));
  /** @type {string[]} */
  const failures = [];
  for (let round = 0; round < lighthouseRuns; round++) {
    for (const site of sites) {
      for (const [form, config] of forms) {
        for (let attempt = 0; attempt < 2; attempt++) {
          const chrome = await chromeLauncher.launch({
            chromePath: executablePath,
            chromeFlags: [...chromeArgs, "--headless=new"],
            logLevel: "silent",
            connectionPollInterval: 250,
            maxConnectionRetries: 80,
          });
          try {
            const flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"], maxWaitForLoad: 45_000 };
            const result = await lighthouse(`${site.base}/`, flags, config);
            if (!result) throw new Error("Lighthouse returned nothing");
            const { lhr } = result;
            if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
            const lcpMs = lhr.audits["largest-contentful-paint"]?.numericValue;
            if (lcpMs === undefined) throw new Error("no LCP in the report");
            const lcpElement = lhr.audits["largest-contentful-paint-element"]?.details;
            const requests = /** @type {{ items?: { resourceType?: string, transferSize?: number }[] } | undefined} */ (lhr.audits["network-requests"]?.details);
            const run = {
              lcpMs,
              element: firstNode(lcpElement),
              phases: lcpPhases(lcpElement),
              documentBytes: requests?.items?.find((r) => r.resourceType === "Document")?.transferSize ?? null,
              benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
            };
            measured[site.name][form].push(run);
            console.error(`${site.name} ${form} Lighthouse ${round + 1}/${lighthouseRuns}: LCP ${Math.round(lcpMs)} ms, ${run.element}, benchmarkIndex ${run.benchmarkIndex}`);
            break;
          } catch (error) {
            const message = `${site.name} ${form} round ${round + 1}: ${error instanceof Error ? error.message : String(error)}`;
            failures.push(message);
            console.error(`Lighthouse FAILED ${message}`);
          } finally {
            await chrome.kill();
          }
        }
      }
    }
  }
  const sum = (/** @type {LighthouseRun[]} */ list) => ({
    lcpMs: summary(list.map((r) => r.lcpMs)),
    elements: [...new Set(list.map((r) => r.element))],
    // Each phase's median over the runs: where the LCP's time goes.
    phases: Object.fromEntries(
      [...new Set(list.flatMap((r) => Object.keys(r.phases)))].map((phase) => [phase, summary(list.flatMap((r) => (phase in r.phases ? [r.phases[phase]] : [])))?.median ?? null]),
    ),
    documentBytes: summary(list.flatMap((r) => (r.documentBytes === null ? [] : [r.documentBytes])))?.median ?? null,
    runs: list,
    benchmarkIndex: summary(list.flatMap((r) => (r.benchmarkIndex === null ? [] : [r.benchmarkIndex]))),
  });
  return {
    bySite: Object.fromEntries(Object.entries(measured).map(([name, forms]) => [name, { mobile: sum(forms.mobile), desktop: sum(forms.desktop) }])),
    failures,
  };
}

try {
  if (!existsSync(join(repo, "tests/browser/node_modules/lighthouse"))) throw new Error("tests/browser has no packages: run `npm ci` there");
  const quality = exampleBinary("picture_quality");
  execFileSync(exampleBinary("make_photos"), [photos, String(photoCount)], { stdio: "inherit" });

  const tools = [curbside(), astro({ name: "astro", formats: null }), astro({ name: "astro-avif", formats: ["avif", "webp"] }), hugo()].filter((tool) =>
    only.includes(tool.name),
  );
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

  /** @type {{ name: string, version: string, dist: string }[]} */
  const sites = [...tools];
  const built = tools.find((tool) => tool.name === "curbside");
  if (built) sites.push(curbsideBare(built.dist));
  const servers = await Promise.all(sites.map(async (tool) => ({ tool, ...(await serve(tool.dist)) })));
  const results = [];
  /** @type {Awaited<ReturnType<typeof lighthouseLcp>>} */
  let lcp;
  try {
    for (const { tool, base } of servers) {
      const phone = await pictureBytes(base, { width: 390, height: 844 }, 3, join(work, `${tool.name}-phone.bin`));
      const desktop = await pictureBytes(base, { width: 1280, height: 800 }, 1, join(work, `${tool.name}-desktop.bin`));
      results.push({
        tool: tool.name,
        version: tool.version,
        coldBuildMs: summary(cold[tool.name] ?? []),
        phone390at3x: { ...phone, heroDssim: heroDssim(quality, phone.hero) },
        desktop1280at1x: { ...desktop, heroDssim: heroDssim(quality, desktop.hero) },
      });
    }
    lcp = await lighthouseLcp(servers.map(({ tool, base }) => ({ name: tool.name, base })));
  } finally {
    for (const server of servers) server.close();
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

  const result = { date: new Date().toISOString(), cores: cpus().length, widths: WIDTHS, sizes: SIZES, results, lighthouse: lcp, sharpDefaults };
  console.log(JSON.stringify(result, null, 2));

  const n = (/** @type {number} */ v) => v.toLocaleString("en-US");
  const range = (/** @type {{ median: number, min: number, max: number } | null} */ s) => (s ? `${n(s.median)} (${n(s.min)}–${n(s.max)})` : "n/a");
  const copy = (/** @type {{ hero: { bytes: number, width: number, height: number } | null, heroDssim: { dssim: number } | null }} */ view) =>
    view.hero ? `${n(view.hero.bytes)} B, ${view.hero.width}×${view.hero.height} · ${view.heroDssim ? view.heroDssim.dssim.toFixed(6) : "n/a"}` : "n/a";
  console.log(
    "\n| | cold build, ms: median (range) | hero LCP, mobile, ms: median (range) | hero LCP, desktop | phone 390 px DPR 3: hero copy · DSSIM | desktop 1280 px: hero copy · DSSIM |\n|---|---:|---:|---:|---:|---:|",
  );
  for (const r of results) {
    const l = lcp.bySite[r.tool];
    console.log(`| ${r.version} | ${range(r.coldBuildMs)} | ${range(l.mobile.lcpMs)} | ${range(l.desktop.lcpMs)} | ${copy(r.phone390at3x)} | ${copy(r.desktop1280at1x)} |`);
  }
  const ours = lcp.bySite.curbside;
  if (ours) {
    for (const peer of ["astro", "astro-avif"].filter((name) => lcp.bySite[name])) {
      const ratio = (/** @type {"mobile" | "desktop"} */ form) => {
        const [a, b] = [ours[form].lcpMs, lcp.bySite[peer][form].lcpMs];
        return a && b ? (a.median / b.median).toFixed(2) : "n/a";
      };
      console.log(`LCP curbside / ${peer}: mobile ${ratio("mobile")}, desktop ${ratio("desktop")} (goal ≤ 0.6)`);
    }
  }
  for (const [name, forms] of Object.entries(lcp.bySite)) {
    console.log(`${name}: LCP element mobile ${forms.mobile.elements.join(" / ")}; desktop ${forms.desktop.elements.join(" / ")}; benchmarkIndex ${range(forms.mobile.benchmarkIndex)}`);
    for (const form of /** @type {const} */ (["mobile", "desktop"])) {
      const phases = Object.entries(forms[form].phases).map(([phase, ms]) => `${phase} ${ms === null ? "n/a" : Math.round(ms)}`);
      console.log(`  ${form}: LCP phases, median ms: ${phases.join(", ")}; the page's HTML ${forms[form].documentBytes ?? "n/a"} B transferred`);
    }
  }
  for (const r of results) {
    for (const [view, v] of /** @type {const} */ ([["phone", r.phone390at3x], ["desktop", r.desktop1280at1x]])) {
      console.log(`${r.tool} ${view}: ${n(v.bytes)} B of pictures (${v.files.join(", ")}); DSSIM against ${v.heroDssim?.against ?? "n/a"}`);
    }
  }
  if (lcp.failures.length) console.log(`Lighthouse failures: ${lcp.failures.join("; ")}`);
  if (sharpDefaults.length) {
    console.log("\nsharp's defaults, as Astro calls it:\n| photo | width | format | bytes | DSSIM |\n|---|---:|---|---:|---:|");
    for (const s of sharpDefaults) console.log(`| ${s.photo} | ${s.width} | ${s.format} | ${s.bytes} | ${s.dssim.toFixed(6)} |`);
  }
  const out = process.env.CURBSIDE_BENCH_RESULTS ?? join(repo, "tests/bench/results");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "pictures-peers.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  if (options.keep) console.error(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
