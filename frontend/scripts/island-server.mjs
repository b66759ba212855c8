// @ts-check
// The long-lived Node process the Rust CLI drives: bundles the islands with esbuild and
// renders their server HTML with React.
//
// Protocol: newline-delimited JSON. Each request line gets exactly one reply line
// on stdout, carrying the request's numeric `id`; requests are handled in order.
// Logs go to stderr only. The process exits 0 when stdin closes.
//
//   {"id":1,"cmd":"bundle"}
//     -> {"id":1,"ok":true,"entry":"assets/islands-HASH.js","loader":"…","files":[{"path":"assets/…js","contents":"…"}],
//         "islandFiles":{"pricing":["assets/pricing-HASH.js","assets/chunk-HASH.js"],…}}
//     (islandFiles: each island's entry chunk, then every chunk it imports: what its placements name)
//   {"id":3,"cmd":"css","sheets":[{"name":"layouts/assets/site.css","css":"…"}]}
//     -> {"id":3,"ok":true,"css":["…minified…"]}
//   {"id":2,"cmd":"render","islands":[{"name":"pricing","props":{…},"prefix":"pricing_2-"}],"reload":false}
//     ("prefix" starts React's ids: each placement's own; the island's name and "-" when absent)
//     -> {"id":2,"ok":true,"islands":[{"html":"…","hydrate":"visible"}]}
//   any failure -> {"id":n,"ok":false,"error":"…"}; a line that is not a request -> {"id":null,…}
//
// Two esbuild contexts make the browser bundle, both kept alive for incremental rebuilds:
// - islands: one entry per src/islands/<name>.tsx (an island is that one file), made here as
//   `export { default } from the island; export { hydrate }`, with code splitting. React and
//   React DOM land in one shared chunk, each island in its own chunk (named after it).
// - runtime: src/entries/runtime.ts alone, with src/runtime/island-files.ts replaced by an import of
//   the file a placement names (the runtime names no chunk, so it is built beside the islands).
//   Built apart because esbuild adds a bare import of its helper chunk to every entry point of a
//   split build (evanw/esbuild#1892): the runtime would fetch an extra file on every page load.
//   Apart, it is one file with no static imports at all.
// A third makes the small script a page with islands inlines, a classic script (IIFE) returned as
// text rather than a file: src/entries/loader.ts, at the end of the body, answers the Start buttons
// and starts the runtime once the page has painted.

import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import { mkdir, readdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

// stdout carries the protocol: anything else printing there (a library, a stray log) would break it.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

// React's server renderer: the production build is faster and what the site ships.
process.env.NODE_ENV ??= "production";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cacheDir = path.join(root, "node_modules", ".cache", "curbside");
// Output paths esbuild computes relative links against; nothing is written there.
const assetsDir = path.join(cacheDir, "assets");
const islandsDir = path.join(root, "src", "islands");
/** esbuild namespace of the generated entry of each island. */
const ISLAND_ENTRY = "island-entry";
const serverOut = path.join(cacheDir, "server.mjs");

/** @typedef {{ path: string, contents: string }} OutFile */
/** @typedef {{ name: string, props: unknown, prefix?: unknown }} IslandRequest */
/** @typedef {{ render(name: string, props: unknown, prefix?: string): Promise<{ html: string, hydrate: string }> }} ServerModule */
/**
 * @typedef {{ id: number | null, ok: false, error: string }
 *   | { id: number, ok: true, entry: string, loader: string, files: OutFile[], islandFiles: Record<string, string[]> }
 *   | { id: number, ok: true, css: string[] }
 *   | { id: number, ok: true, islands: Array<{ html: string, hydrate: string }> }} Reply
 */

/** @type {esbuild.BuildOptions} */
const browserOptions = {
  absWorkingDir: root,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2020",
  minify: true,
  write: false,
  metafile: true,
  outdir: assetsDir,
  legalComments: "none",
  define: { "process.env.NODE_ENV": '"production"' },
  // The package ships ESM but only declares its CommonJS build; the ESM one needs no interop wrapper.
  alias: { "@formspree/core": "@formspree/core/dist/index.mjs" },
  logLevel: "silent",
};

const islandFilesModule = path.join(root, "src", "runtime", "island-files.ts");

/**
 * Each island's entry chunk, then the chunks it imports, directly or not, from esbuild's
 * metafile, as paths like the reply's files: what each of the island's placements names.
 * @param {esbuild.Metafile} metafile
 * @returns {Record<string, string[]>}
 */
function islandFiles(metafile) {
  /** @type {Record<string, string[]>} */
  const lists = {};
  for (const [output, meta] of Object.entries(metafile.outputs)) {
    if (!meta.entryPoint?.startsWith(`${ISLAND_ENTRY}:`)) continue;
    const files = [output];
    for (let i = 0; i < files.length; i++) {
      for (const imported of metafile.outputs[files[i] ?? ""]?.imports ?? []) {
        if (imported.kind === "import-statement" && !files.includes(imported.path)) files.push(imported.path);
      }
    }
    lists[meta.entryPoint.slice(ISLAND_ENTRY.length + 1)] = files.map((file) => `assets/${path.basename(file)}`);
  }
  return lists;
}

/** @type {esbuild.Plugin} The entry of each island: its file's component, and the shared hydrate. */
const islandEntriesPlugin = {
  name: "island-entries",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${ISLAND_ENTRY}:`) }, (args) => ({
      path: args.path.slice(ISLAND_ENTRY.length + 1),
      namespace: ISLAND_ENTRY,
    }));
    build.onLoad({ filter: /.*/, namespace: ISLAND_ENTRY }, (args) => ({
      contents: `export { default } from "./src/islands/${args.path}.tsx";\nexport { hydrate } from "./src/shared/hydrate";\n`,
      resolveDir: root,
      loader: "ts",
    }));
  },
};

/** @type {esbuild.Plugin} The runtime's island-files module, over the chunks just built. */
const islandFilesPlugin = {
  name: "island-files",
  setup(build) {
    build.onLoad({ filter: /[\\/]runtime[\\/]island-files\.ts$/ }, (args) => {
      if (path.resolve(args.path) !== islandFilesModule) return undefined;
      return {
        // The island's entry chunk, as its placement names it; a placement that names none (an
        // island the build did not bundle) is a rejected import, as a missing file would be.
        contents:
          "export const importIsland = (name, file) => file ? import(new URL(file, document.baseURI).href) : Promise.reject(Error(`no island ${name}`));",
        loader: "js",
      };
    });
  },
};

/** @type {{ context: esbuild.BuildContext, entries: string } | undefined} */
let islandsBuild;
/** @type {esbuild.BuildContext | undefined} */
let runtimeContext;
/** @type {esbuild.BuildContext | undefined} */
let loaderContext;
/** @type {esbuild.BuildContext | undefined} */
let serverContext;

/** The runtime's esbuild context, made on first use. @returns {Promise<esbuild.BuildContext>} */
async function runtimeContextReady() {
  runtimeContext ??= await esbuild.context({
    ...browserOptions,
    entryPoints: [{ in: "src/entries/runtime.ts", out: "islands" }],
    entryNames: "[name]-[hash]",
    plugins: [islandFilesPlugin],
  });
  return runtimeContext;
}

/** The inline loader's esbuild context, made on first use. @returns {Promise<esbuild.BuildContext>} */
async function loaderContextReady() {
  loaderContext ??= await esbuild.context({
    ...browserOptions,
    entryPoints: ["src/entries/loader.ts"],
    format: "iife",
    metafile: false,
  });
  return loaderContext;
}

/**
 * The text of one inline script the loader's context made.
 * @param {esbuild.BuildResult} result @param {string} name @returns {string}
 */
function inlineScript(result, name) {
  const text = result.outputFiles?.find((file) => path.basename(file.path) === `${name}.js`)?.text.trim();
  if (!text) throw new Error(`esbuild produced no output for src/entries/${name}.ts`);
  return text;
}

/** @type {ServerModule | undefined} */
let serverModule;
let serverHash = "";
let serverStale = true;

/** One entry per island file: src/islands/<name>.tsx. */
async function islandEntries() {
  const names = await readdir(islandsDir);
  return names
    .filter((n) => n.endsWith(".tsx"))
    .sort()
    .map((n) => ({ in: `${ISLAND_ENTRY}:${path.basename(n, ".tsx")}`, out: path.basename(n, ".tsx") }));
}

async function islandsContext() {
  const entries = await islandEntries();
  const key = entries.map((entry) => entry.out).join("\n");
  // An island added or removed while serving: the entry list is fixed per context.
  if (islandsBuild && islandsBuild.entries !== key) {
    await islandsBuild.context.dispose();
    islandsBuild = undefined;
  }
  islandsBuild ??= {
    entries: key,
    context: await esbuild.context({
      ...browserOptions,
      entryPoints: entries,
      plugins: [islandEntriesPlugin],
      splitting: true,
      entryNames: "[name]-[hash]",
      chunkNames: "chunk-[hash]",
      // Chromium's hint (other engines read a comment): compile every function of these chunks
      // while the file streams in, off the main thread. Without it V8 parses React's module
      // wrapper lazily, on the main thread, as the first island hydrates: on a 4× slower phone
      // that took 97 ms of the 150 between React's arrival and a hydrated island; with it, 47.
      // Functions that never run are compiled too, but on that thread, while the download lasts.
      banner: { js: "//# allFunctionsCalledOnLoad" },
    }),
  };
  return islandsBuild.context;
}

/**
 * @param {esbuild.BuildResult<{ write: false, metafile: true }>} result
 * @returns {OutFile[]}
 */
function assetFiles(result) {
  return result.outputFiles.map((file) => ({
    path: `assets/${path.relative(assetsDir, file.path).split(path.sep).join("/")}`,
    contents: file.text,
  }));
}

/** @param {number} id @returns {Promise<Reply>} */
async function bundle(id) {
  const started = performance.now();
  // Frontend sources may have changed. The server module and the loader need nothing of the
  // browser bundle, so they are rebuilt beside it: the render that follows finds the module
  // ready. A failure there is reported by that render, which asks again.
  serverStale = true;
  loadServer().catch(() => undefined);
  const loaderBuild = loaderContextReady().then((context) => context.rebuild());
  // The runtime names no island chunk, so it is built beside the islands, not after them.
  /** @typedef {esbuild.BuildResult<{ write: false, metafile: true }>} Built */
  const [islands, runtime] = /** @type {[Built, Built]} */ (
    await Promise.all([islandsContext().then((context) => context.rebuild()), runtimeContextReady().then((context) => context.rebuild())])
  );
  const entry = Object.keys(runtime.metafile.outputs).find((o) => runtime.metafile.outputs[o]?.entryPoint);
  if (!entry) throw new Error("esbuild produced no output for src/entries/runtime.ts");
  const loaderResult = await loaderBuild;
  const loader = inlineScript(loaderResult, "loader");
  await logWarnings([...islands.warnings, ...runtime.warnings, ...loaderResult.warnings]);
  const files = [...assetFiles(runtime), ...assetFiles(islands)];
  console.error(`[island-server] bundled ${files.length} files in ${Math.round(performance.now() - started)} ms`);
  return { id, ok: true, entry: `assets/${path.basename(entry)}`, loader, files, islandFiles: islandFiles(islands.metafile) };
}

/**
 * Minifies stylesheets, each on its own so a message names its file. No target is set:
 * the CSS is shortened, never rewritten for older browsers.
 * @param {number} id @param {Record<string, unknown>} request @returns {Promise<Reply>}
 */
async function css(id, request) {
  const sheets = request.sheets;
  if (!Array.isArray(sheets)) throw new Error('"sheets" must be an array of {"name", "css"}');
  const minified = [];
  for (const [index, sheet] of sheets.entries()) {
    if (typeof sheet !== "object" || sheet === null || typeof sheet.name !== "string" || typeof sheet.css !== "string") {
      throw new Error(`sheets[${index}] must be an object with a string "name" and "css"`);
    }
    const result = await esbuild.transform(sheet.css, {
      loader: "css",
      minify: true,
      sourcefile: sheet.name,
      legalComments: "none",
      logLevel: "silent",
    });
    await logWarnings(result.warnings);
    minified.push(result.code.trimEnd());
  }
  return { id, ok: true, css: minified };
}

/** @type {Promise<ServerModule> | undefined} The server module being rebuilt, awaited by all who ask meanwhile. */
let serverLoading;

/** @returns {Promise<ServerModule>} */
function loadServer() {
  if (serverModule && !serverStale) return Promise.resolve(serverModule);
  serverLoading ??= rebuildServer().finally(() => {
    serverLoading = undefined;
  });
  return serverLoading;
}

/** @returns {Promise<ServerModule>} */
async function rebuildServer() {
  serverContext ??= await esbuild.context({
    absWorkingDir: root,
    entryPoints: ["src/entries/server.tsx"],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    write: false,
    outfile: serverOut,
    logLevel: "silent",
  });
  const result = await serverContext.rebuild();
  await logWarnings(result.warnings);
  const code = result.outputFiles?.[0]?.text ?? "";
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 16);
  // Node never unloads a module: import a new copy only when the code really changed.
  if (!serverModule || hash !== serverHash) {
    // Named by content and written whole (temp file, then rename): builds
    // running at once share this folder, and none may import a half-written file.
    await mkdir(cacheDir, { recursive: true });
    const file = path.join(cacheDir, `server-${hash}.mjs`);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, code);
    await rename(temporary, file);
    const loaded = await import(pathToFileURL(file).href);
    if (typeof loaded.render !== "function") throw new Error("src/entries/server.tsx does not export render()");
    serverModule = /** @type {ServerModule} */ (loaded);
    serverHash = hash;
  }
  serverStale = false;
  return serverModule;
}

/** @param {number} id @param {Record<string, unknown>} request @returns {Promise<Reply>} */
async function render(id, request) {
  const islands = request.islands;
  if (!Array.isArray(islands)) throw new Error('"islands" must be an array of {"name", "props"}');
  if (request.reload === true) serverStale = true;
  const server = await loadServer();
  const rendered = [];
  for (const [index, island] of islands.entries()) {
    if (typeof island !== "object" || island === null || typeof island.name !== "string") {
      throw new Error(`islands[${index}] must be an object with a string "name" and "props"`);
    }
    const { name, props, prefix } = /** @type {IslandRequest} */ (island);
    if (prefix !== undefined && typeof prefix !== "string") throw new Error(`islands[${index}].prefix must be a string`);
    try {
      rendered.push(await server.render(name, props, prefix));
    } catch (error) {
      const failure = new Error(`rendering island "${name}" failed: ${describe(error)}`);
      // The message already holds the render's own stack; a second stack would only repeat it.
      failure.stack = failure.message;
      throw failure;
    }
  }
  return { id, ok: true, islands: rendered };
}

/** esbuild's own formatted messages when it failed; otherwise the stack (or message). */
async function describeFailure(/** @type {unknown} */ error) {
  if (typeof error === "object" && error !== null && "errors" in error && Array.isArray(error.errors) && error.errors.length > 0) {
    const messages = /** @type {esbuild.Message[]} */ (error.errors);
    return (await esbuild.formatMessages(messages, { kind: "error", color: false })).join("").trimEnd();
  }
  return describe(error);
}

/** @param {unknown} error */
function describe(error) {
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}

/** @param {esbuild.Message[]} warnings */
async function logWarnings(warnings) {
  if (warnings.length === 0) return;
  const text = await esbuild.formatMessages(warnings, { kind: "warning", color: false });
  console.error(text.join("").trimEnd());
}

/** @param {string} line @returns {Promise<Reply>} */
async function handle(line) {
  /** @type {unknown} */
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    return { id: null, ok: false, error: `malformed request (not JSON): ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return { id: null, ok: false, error: "malformed request: expected a JSON object" };
  }
  const fields = /** @type {Record<string, unknown>} */ (request);
  const id = fields.id;
  if (typeof id !== "number" || !Number.isFinite(id)) {
    return { id: null, ok: false, error: 'malformed request: "id" must be a number' };
  }
  try {
    switch (fields.cmd) {
      case "bundle":
        return await bundle(id);
      case "render":
        return await render(id, fields);
      case "css":
        return await css(id, fields);
      default:
        return { id, ok: false, error: `unknown cmd ${JSON.stringify(fields.cmd)} (expected "bundle", "render" or "css")` };
    }
  } catch (error) {
    return { id, ok: false, error: await describeFailure(error) };
  }
}

/** @param {Reply} reply */
function send(reply) {
  // JSON.stringify escapes newlines inside strings, so this is always exactly one line.
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.trim() === "") continue;
  send(await handle(line));
}

await Promise.all([
  islandsBuild?.context.dispose(),
  runtimeContext?.dispose(),
  loaderContext?.dispose(),
  serverContext?.dispose(),
]);
await esbuild.stop();
process.exitCode = 0;
