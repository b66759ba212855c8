// @ts-check
// A static host for the browser tests, resolving URLs the way GitHub Pages,
// Netlify and Cloudflare Pages do (extensionless pages, 404.html with status
// 404) and sending the headers of the site's own `_headers` file, so the
// tests run with the real Content-Security-Policy enforced.
//
//   node support/static-host.mjs --root DIR --port N [--build] [--precompressed]
// With --build it first builds the site into DIR with the curbside binary
// (support/curbside-binary.mjs: $CURBSIDE_BIN, or the one cargo builds now).
// With --precompressed it serves the `FILE.br` / `FILE.gz` that the build
// writes beside every text file for nginx and Caddy (built with --for nginx), when the request's Accept-Encoding allows it,
// with Content-Encoding and `Vary: Accept-Encoding`, as Netlify and Cloudflare
// compress text. Without it, every body is sent uncompressed.

import { createServer } from "node:http";
import { execFileSync } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { curbsideBinary } from "./curbside-binary.mjs";

const { values } = parseArgs({
  options: {
    root: { type: "string" },
    port: { type: "string", default: "4173" },
    build: { type: "boolean", default: false },
    precompressed: { type: "boolean", default: false },
  },
});
if (!values.root) throw new Error("--root is required");
const root = resolve(values.root);
const repo = fileURLToPath(new URL("../../..", import.meta.url));

if (values.build) {
  const forHost = values.precompressed ? ["--for", "nginx"] : [];
  execFileSync(curbsideBinary(), ["build", "--root", repo, "--out", root, ...forHost], {
    stdio: "inherit",
  });
}

/** @type {Record<string, string>} */
const types = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".xml": "application/xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".json": "application/json",
};

/** `_headers` as [pattern, [name, value][]] rules. */
function readHeaderRules() {
  /** @type {Array<[string, Array<[string, string]>]>} */
  const rules = [];
  for (const line of readFileSync(join(root, "_headers"), "utf8").split("\n")) {
    if (!line.trim()) continue;
    if (!line.startsWith(" ")) {
      rules.push([line.trim(), []]);
    } else {
      const at = line.indexOf(":");
      rules[rules.length - 1]?.[1].push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
    }
  }
  return rules;
}

/** @param {string} pattern @param {string} path */
function matches(pattern, path) {
  return pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path;
}

/** Files the hosts read as settings, never serve. */
const hostSettings = new Set(["/_headers", "/_redirects"]);

/** The file a URL path resolves to, or null. @param {string} path */
async function resolveFile(path) {
  if (hostSettings.has(path) || path.split("/").some((part) => part.startsWith("."))) return null;
  const candidates = path.endsWith("/") ? [path + "index.html"] : [path, path + ".html", path + "/index.html"];
  for (const candidate of candidates) {
    const file = normalize(join(root, candidate));
    if (!file.startsWith(root + sep)) return null;
    const info = await stat(file).catch(() => null);
    if (info?.isFile()) return file;
  }
  return null;
}

/**
 * The codings a request's Accept-Encoding allows, by preference (q > 0).
 * @param {string | undefined} header
 */
function acceptedCodings(header) {
  /** @type {Map<string, number>} */
  const q = new Map();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    q.set(name, weight ? Number(weight.slice(2)) || 0 : 1);
  }
  /** @param {string} coding */
  const allowed = (coding) => (q.get(coding) ?? q.get("*") ?? 0) > 0;
  return ["br", "gzip"].filter(allowed);
}

/**
 * The precompressed variant of `file` to send, if any.
 * @param {string} file @param {string | undefined} acceptEncoding
 * @returns {Promise<{ variants: boolean, coding?: string, path?: string }>}
 */
async function precompressedVariant(file, acceptEncoding) {
  const suffixes = { br: ".br", gzip: ".gz" };
  const exists = async (/** @type {string} */ p) => (await stat(p).catch(() => null))?.isFile() ?? false;
  const variants = (await exists(file + ".br")) || (await exists(file + ".gz"));
  for (const coding of acceptedCodings(acceptEncoding)) {
    const path = file + suffixes[/** @type {"br" | "gzip"} */ (coding)];
    if (await exists(path)) return { variants, coding, path };
  }
  return { variants };
}

const server = createServer(async (request, response) => {
  const path = decodeURIComponent(new URL(request.url ?? "/", "http://host").pathname);
  const file = await resolveFile(path);
  const status = file ? 200 : 404;
  const served = file ?? join(root, "404.html");
  let bodyFile = served;
  if (values.precompressed) {
    const variant = await precompressedVariant(served, request.headers["accept-encoding"]);
    if (variant.variants) response.setHeader("Vary", "Accept-Encoding");
    if (variant.coding && variant.path) {
      response.setHeader("Content-Encoding", variant.coding);
      bodyFile = variant.path;
    }
  }
  const body = await readFile(bodyFile);
  for (const [pattern, headers] of readHeaderRules()) {
    if (matches(pattern, path)) for (const [name, value] of headers) response.setHeader(name, value);
  }
  response.setHeader("Content-Type", types[extname(served)] ?? "application/octet-stream");
  if (values.precompressed) response.setHeader("Content-Length", body.length);
  response.writeHead(status);
  response.end(request.method === "HEAD" ? undefined : body);
});
server.listen(Number(values.port), "127.0.0.1", () => {
  const how = values.precompressed ? " (precompressed .br/.gz)" : "";
  console.log(`static host on http://127.0.0.1:${values.port}/ serving ${root}${how}`);
});
