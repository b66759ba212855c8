// @ts-check
// The built site served by each host's own software, with the configuration
// the README tells an owner to use, checked the same way on every host:
// every route's status and body, the redirects to one address per page, the
// security headers on a page, a legal page, a 404 and an asset, the asset
// caching, nothing internal reachable, and a visit in Chromium that hydrates
// every island with no CSP violation and no console error. `curbside verify` must pass
// against each, and fail against an nginx still on an earlier build's configuration.
//
//   nginx    Debian's nginx with libnginx-mod-http-brotli-static, including dist-server/nginx.conf
//   caddy    Debian's Caddy, importing dist-server/Caddyfile
//   cloudflare  Cloudflare's `wrangler pages dev` (pinned in package.json), reading _headers
//   netlify  Netlify's `netlify dev --offline` (pinned), reading _headers and _redirects; it
//            fetches Deno unless one is on PATH, so the npm `deno` package is pinned too
//   no-headers  a host that sends none of the site's headers, as GitHub Pages: Caddy with a
//            plain file server; each page's <meta> policy must then protect it alone
//
// Each host gets the folder `curbside build --hosting` writes for it; one Chromium
// serves every visit. Then the repository's deploy files, on the same servers: the
// workflows' check, build and verify steps run as written (deploy-files.mjs),
// netlify.toml read by netlify-cli, wrangler.toml by wrangler pages dev. Run: node --test hosts/ (from tests/browser);
// CURBSIDE_HOSTS=nginx,netlify runs only those (keys: nginx, caddy, cloudflare,
// netlify, no-headers).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { execFileSync, spawnSync } from "node:child_process";
import { chromium } from "@playwright/test";
import { caddyEnvironment, caddyfile, importGenerated } from "../support/caddy-config.mjs";
import { args as chromiumArgs, executablePath } from "../support/chromium.mjs";
import { curbsideBinary } from "../support/curbside-binary.mjs";
import { freePort } from "../support/free-port.mjs";
import { projectCopy, readToml, readWorkflow, runStep, step } from "./deploy-files.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
const target = process.env.CARGO_TARGET_DIR ? resolve(repo, process.env.CARGO_TARGET_DIR) : join(repo, "target");
const work = join(target, "host-tests");

/** Cloudflare's runtime refuses a compatibility date newer than itself: pinned with wrangler. */
const CLOUDFLARE_COMPATIBILITY_DATE = "2026-04-01";
const NGINX_BROTLI_MODULE = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";

/**
 * Builds the site `--hosting HOSTING` into work/HOSTING (the site) and work/HOSTING-server.
 * @param {string} hosting
 */
function build(hosting, folder = hosting) {
  const out = join(work, folder);
  execFileSync(curbsideBinary({ tests: true }), ["build", "--root", repo, "--out", out, "--hosting", hosting], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  // What content/public/.well-known/ publishes (the build's copying is tested in cargo's
  // tests; here, that each host serves that one dotted folder and still hides other dotfiles).
  mkdirSync(join(out, ".well-known"), { recursive: true });
  writeFileSync(join(out, ".well-known", WELL_KNOWN_FILE), WELL_KNOWN_TEXT);
  return out;
}

const WELL_KNOWN_FILE = "curbside-check.txt";
const WELL_KNOWN_TEXT = "served from the one dotted folder a site publishes\n";

/**
 * The security headers `_headers` sets on every address, and what it adds for assets.
 * @param {string} site
 */
function expectedHeaders(site) {
  /** @type {Map<string, Array<[string, string]>>} */
  const rules = new Map();
  let current = "";
  for (const line of readFileSync(join(site, "_headers"), "utf8").split("\n")) {
    if (!line.trim()) continue;
    if (!line.startsWith(" ")) {
      current = line.trim();
      rules.set(current, []);
    } else {
      const at = line.indexOf(":");
      rules.get(current)?.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
    }
  }
  const all = rules.get("/*") ?? [];
  const assets = rules.get("/assets/*") ?? [];
  assert.ok(all.length >= 7 && assets.length === 1, "_headers holds the security and asset rules");
  return { all, assets };
}

/**
 * A running host: a child process started in its own group, stopped with it.
 * @typedef {{ name: string, url: string, site: string, stop: () => Promise<void>, log: () => string }} Host
 */

/**
 * @param {string} name
 * @param {string} command
 * @param {string[]} commandArgs
 * @param {{ url: string, site: string, cwd: string, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<Host>}
 */
async function startHost(name, command, commandArgs, { url, site, cwd, env }) {
  let output = "";
  const child = spawn(command, commandArgs, { cwd, env: env ?? process.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  /** @type {Promise<void>} */
  const exited = new Promise((done) => child.once("exit", () => done()));
  let running = true;
  child.once("exit", () => (running = false));
  const stop = async () => {
    if (running && child.pid) process.kill(-child.pid, "SIGTERM");
    await exited;
  };
  // Ready once it answers; bounded, and it fails at once if the server exits.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (!running) throw new Error(`${name} exited before serving:\n${output}`);
    const answered = await fetch(url, { redirect: "manual" }).then(
      (response) => response.status,
      () => 0,
    );
    if (answered === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not answer ${url} within 90 s:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  return { name, url, site, stop, log: () => output };
}

/** @param {string} site @param {string} server @param {string} [run] its own folder @param {number} [port] */
async function startNginx(site, server, run = "nginx-run", port = 0) {
  assert.ok(existsSync(NGINX_BROTLI_MODULE), `nginx's brotli_static module is missing: apt-get install nginx libnginx-mod-http-brotli-static`);
  port ||= await freePort();
  const dir = join(work, run);
  mkdirSync(dir, { recursive: true });
  // What an owner's nginx.conf holds around the include: the README's steps.
  const conf = `daemon off;
pid ${dir}/nginx.pid;
error_log stderr warn;
load_module ${NGINX_BROTLI_MODULE};
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${site};
    include ${server}/nginx.conf;
  }
}
`;
  writeFileSync(join(dir, "nginx.conf"), conf);
  return startHost("nginx", "nginx", ["-c", join(dir, "nginx.conf"), "-p", dir], {
    url: `http://127.0.0.1:${port}/`,
    site,
    cwd: dir,
  });
}

/**
 * Caddy with `site_body` in the site block (the import of the generated file, or a bare file server).
 * @param {string} name @param {string} site @param {string} siteBody
 */
async function startCaddy(name, site, siteBody) {
  const port = await freePort();
  const dir = join(work, `${name}-run`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "Caddyfile"), caddyfile({ port, root: site, siteBody }));
  return startHost(name, "caddy", ["run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"], {
    url: `http://127.0.0.1:${port}/`,
    site,
    cwd: dir,
    env: caddyEnvironment(dir),
  });
}

/**
 * `wrangler pages dev` serving `site`; with `project`, run there with no folder named, so
 * wrangler serves what that folder's wrangler.toml names, on its compatibility date.
 * @param {string} site @param {{ project?: string }} [options]
 */
async function startWrangler(site, { project } = {}) {
  const port = await freePort();
  const dir = join(work, project ? "cloudflare-toml-run" : "cloudflare-run");
  mkdirSync(dir, { recursive: true });
  const wrangler = join(here, "node_modules/.bin/wrangler");
  assert.ok(existsSync(wrangler), "wrangler is missing: npm ci in tests/browser/hosts");
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    XDG_CONFIG_HOME: join(dir, "config"),
    HOME: dir,
  };
  return startHost(
    "wrangler pages dev",
    wrangler,
    [
      "pages",
      "dev",
      ...(project ? [] : [site, "--compatibility-date", CLOUDFLARE_COMPATIBILITY_DATE]),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      join(dir, "state"),
      "--log-level",
      "warn",
    ],
    { url: `http://127.0.0.1:${port}/`, site, cwd: project ?? dir, env },
  );
}

/** @param {string} site */
async function startNetlify(site) {
  const port = await freePort();
  const staticPort = await freePort();
  // Outside the repository: netlify dev adds `.netlify` to the .gitignore of the git
  // repository it runs in, which would leave the clone modified.
  const dir = mkdtempSync(join(tmpdir(), "curbside-netlify-"));
  outside.push(dir);
  const bin = join(here, "node_modules/.bin");
  assert.ok(existsSync(join(bin, "netlify")) && existsSync(join(bin, "deno")), "netlify-cli or deno is missing: npm ci in tests/browser/hosts");
  // Its own static server would take port 3999 whoever else has it.
  writeFileSync(join(dir, "netlify.toml"), `[dev]\nframework = "#static"\nstaticServerPort = ${staticPort}\n`);
  const env = {
    ...process.env,
    // The Deno it would otherwise download, for its edge functions runtime.
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    NETLIFY_TELEMETRY_DISABLED: "1",
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, "config"),
  };
  return startHost(
    "netlify dev",
    join(bin, "netlify"),
    ["dev", "--offline", "--dir", site, "--port", String(port), "--no-open"],
    { url: `http://127.0.0.1:${port}/`, site, cwd: dir, env },
  );
}

/**
 * `curbside verify` against a host, with the build it serves; the repository's content
 * holds sample values, which --allow-samples reports as warnings.
 * @param {Host} host
 */
function verify(host) {
  const run = spawnSync(
    curbsideBinary({ tests: true }),
    ["verify", host.url, "--out", host.site, "--root", repo, "--allow-samples", "--json", "--timeout", "20"],
    { encoding: "utf8", timeout: 180_000 },
  );
  return { status: run.status, stderr: run.stderr, report: run.stdout ? JSON.parse(run.stdout) : undefined };
}

/**
 * @param {Host} host @param {string} path @param {RequestInit} [init]
 */
function get(host, path, init = {}) {
  return fetch(new URL(path, host.url), { redirect: "manual", ...init });
}

const pages = [
  { path: "/", title: /Trash Bins, at the Curb|trash bins, at the curb/i },
  { path: "/privacypolicy", title: /Privacy Policy/ },
  { path: "/termsofservice", title: /Terms of Service/ },
];

/** Every file an asset path under /assets/ names, in `site`. @param {string} site */
function assetFiles(site) {
  const names = readdirSync(join(site, "assets")).filter((name) => !/\.(br|gz)$/.test(name));
  assert.ok(names.length > 0, `${site}/assets holds the built assets`);
  return names;
}

/**
 * What sets hosts apart. headers: sends the site's headers; precompressed: sends the .br/.gz
 * copies; redirects: false for a stand-in that has none of its own; softNotFoundAt404:
 * answers /404 with the 404 page and status 200 (Cloudflare), which is left to its noindex;
 * assetCaching: false where the local tool overrides the Cache-Control of `_headers`.
 * @typedef {{ headers: boolean, precompressed: boolean, redirects?: boolean, softNotFoundAt404?: boolean, assetCaching?: boolean }} Traits
 */

/**
 * The checks every host passes.
 * @param {() => Host} current
 * @param {Traits} traits
 */
function hostChecks(current, traits) {
  test("every route answers with its status and body", async () => {
    const host = current();
    for (const page of pages) {
      const response = await get(host, page.path);
      assert.equal(response.status, 200, page.path);
      assert.match(response.headers.get("content-type") ?? "", /^text\/html/, page.path);
      const body = await response.text();
      assert.equal(body, readFileSync(join(host.site, page.path === "/" ? "index.html" : `${page.path}.html`), "utf8"), page.path);
    }
    const notFound = readFileSync(join(host.site, "404.html"), "utf8");
    for (const path of ["/no-such-page", "/pricing/extra", "/assets/missing-0123456789.js"]) {
      const response = await get(host, path);
      assert.equal(response.status, 404, path);
      assert.equal(await response.text(), notFound, path);
    }
    const soft = await get(host, "/404");
    const softBody = await soft.text();
    if (traits.softNotFoundAt404) {
      assert.ok(soft.status === 200 || soft.status === 404, `/404 answered ${soft.status}`);
    } else {
      assert.equal(soft.status, 404, "/404");
    }
    assert.match(softBody, /<meta name="robots" content="noindex"/);
    assert.doesNotMatch(softBody, /rel="canonical"|og:url/);
    // content/public/ is published as it is: the home-screen icon, and .well-known/.
    const icon = await get(host, "/apple-touch-icon.png");
    assert.equal(icon.status, 200, "/apple-touch-icon.png");
    assert.match(icon.headers.get("content-type") ?? "", /^image\/png/);
    assert.ok(Buffer.from(await icon.arrayBuffer()).equals(readFileSync(join(repo, "content/public/apple-touch-icon.png"))));
    const wellKnown = await get(host, `/.well-known/${WELL_KNOWN_FILE}`);
    assert.equal(wellKnown.status, 200, "/.well-known/");
    assert.equal(await wellKnown.text(), WELL_KNOWN_TEXT);
    for (const [path, type] of [
      ["/robots.txt", /^text\/plain/],
      ["/sitemap.xml", /xml/],
    ]) {
      const response = await get(host, /** @type {string} */ (path));
      assert.equal(response.status, 200, String(path));
      assert.match(response.headers.get("content-type") ?? "", /** @type {RegExp} */ (type));
      assert.equal(await response.text(), readFileSync(join(host.site, String(path)), "utf8"));
    }
    for (const name of assetFiles(host.site)) {
      const response = await get(host, `/assets/${name}`);
      assert.equal(response.status, 200, name);
      assert.ok(Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(host.site, "assets", name))), name);
    }
  });

  test("the .html and trailing-slash forms lead to the one address of each page", async (t) => {
    const host = current();
    if (traits.redirects === false) {
      t.skip("this host's redirects are its own servers', not run here");
      return;
    }
    for (const [from, to] of [
      ["/privacypolicy.html", "/privacypolicy"],
      ["/privacypolicy/", "/privacypolicy"],
      ["/termsofservice.html", "/termsofservice"],
      ["/termsofservice/", "/termsofservice"],
      ["/index.html", "/"],
    ]) {
      const response = await get(host, from);
      assert.ok([301, 308].includes(response.status), `${from} answered ${response.status}`);
      const location = new URL(response.headers.get("location") ?? "", new URL(from, host.url));
      assert.equal(location.pathname, to, from);
      assert.equal(location.host, new URL(host.url).host, from);
    }
  });

  test("every security header on a page, a legal page, a 404 and an asset; assets cached for good", async (t) => {
    const host = current();
    if (!traits.headers) {
      t.skip("this host sends none of the site's headers: the <meta> policy test covers it");
      return;
    }
    const expected = expectedHeaders(host.site);
    const asset = `/assets/${assetFiles(host.site).find((name) => name.endsWith(".js"))}`;
    for (const path of ["/", "/privacypolicy", "/no-such-page", asset]) {
      const response = await get(host, path);
      await response.arrayBuffer();
      for (const [name, value] of expected.all) {
        assert.equal(response.headers.get(name), value, `${name} on ${path}`);
      }
      const cache = response.headers.get("cache-control") ?? "";
      if (traits.assetCaching === false) continue;
      if (path === asset) {
        assert.equal(cache, expected.assets[0]?.[1], `Cache-Control on ${path}`);
      } else {
        assert.doesNotMatch(cache, /immutable/, `Cache-Control on ${path}`);
      }
    }
    const redirect = await get(host, "/privacypolicy.html");
    assert.equal(redirect.headers.get("x-frame-options"), "DENY", "on a redirect too");
  });

  test("nothing internal is reachable", async () => {
    const host = current();
    const server = `${host.site}-server`;
    assert.ok(existsSync(join(server, ".curbside-output")), "the ownership mark is beside the site");
    for (const path of ["/.curbside-output", "/_headers", "/_redirects", "/index.html.br", "/index.html.gz", "/404.html.gz"]) {
      const response = await get(host, path);
      const body = await response.text();
      assert.notEqual(response.status, 200, `${path} answered 200`);
      assert.doesNotMatch(body, /Content-Security-Policy:|Written by curbside/, path);
    }
  });

  test("curbside verify passes against it", () => {
    const run = verify(current());
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.report?.ok, true, run.stderr);
    assert.deepEqual(
      run.report?.problems.filter((/** @type {{ severity: string }} */ problem) => problem.severity === "error"),
      [],
    );
  });

  test("precompressed copies are sent where written, with Vary", async (t) => {
    const host = current();
    if (!traits.precompressed) {
      t.skip("this host compresses by itself; no copies are written for it");
      return;
    }
    const asset = assetFiles(host.site).find((name) => name.endsWith(".js")) ?? "";
    for (const [coding, suffix] of [
      ["br", ".br"],
      ["gzip", ".gz"],
    ]) {
      for (const [path, file] of [
        ["/privacypolicy", "privacypolicy.html"],
        ["/no-such-page", "404.html"],
        [`/assets/${asset}`, `assets/${asset}`],
      ]) {
        // Node's fetch undoes the coding: read the raw bytes with http instead.
        const raw = await rawGet(new URL(path, host.url), { "accept-encoding": coding });
        assert.equal(raw.headers["content-encoding"], coding, `${path} with ${coding}`);
        assert.match(String(raw.headers.vary ?? ""), /accept-encoding/i, `${path} Vary`);
        assert.ok(raw.body.equals(readFileSync(join(host.site, file + suffix))), `${path}: the ${suffix} copy`);
      }
    }
  });
}

/**
 * @param {URL} url @param {Record<string, string>} headers
 * @returns {Promise<{ status: number, headers: import("node:http").IncomingHttpHeaders, body: Buffer }>}
 */
async function rawGet(url, headers) {
  const http = await import("node:http");
  return new Promise((done, fail) => {
    const request = http.get(url, { headers }, (response) => {
      /** @type {Buffer[]} */
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => done({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", fail);
    });
    request.on("error", fail);
  });
}

/** @type {import("@playwright/test").Browser | undefined} */
let browser;

/**
 * A visit in Chromium at phone size (pricing and contact hydrate once scrolled to; the menu
 * is the browser's own popover), then the other pages: no CSP violation, no console error,
 * no uncaught error.
 * @param {Host} host
 */
async function visit(host) {
  assert.ok(browser, "Chromium started");
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  /** @type {string[]} */
  const problems = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`${page.url()} console.${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`${page.url()} uncaught: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const w = /** @type {Window & { __violations?: string[] }} */ (window);
      (w.__violations ??= []).push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`);
    });
  });
  const violations = () =>
    page.evaluate(() => /** @type {Window & { __violations?: string[] }} */ (window).__violations ?? []);
  try {
    await page.goto(host.url);
    // Each island is waited for while it is in view. The runtime starts after the first paint,
    // which on a slow host (wrangler under load) can come after this script has scrolled on; an
    // island scrolled past before then waits, as it would for a reader, until it is in view
    // again.
    const hydrated = (/** @type {string} */ island) =>
      page.waitForFunction(
        (name) => document.querySelector(`[data-island="${name}"]`)?.hasAttribute("data-hydrated") === true,
        island,
        { timeout: 30_000 },
      );
    await page.locator("#pricing").scrollIntoViewIfNeeded();
    await hydrated("pricing");
    for (const section of ["#faq", "#contact"]) await page.locator(section).scrollIntoViewIfNeeded();
    await hydrated("contact");
    assert.equal(await page.locator("[data-island]").count(), 2, "the page's two islands");
    // The islands at work: the plan toggle, the menu, a Start button filling the form.
    await page.locator("#pricing [role=switch]").click();
    await page.waitForFunction(() => document.querySelector("#pricing [role=switch]")?.getAttribute("aria-checked") === "true");
    await page.locator(".site-menu__toggle").click();
    await page.waitForFunction(() => document.querySelector(".site-menu__list")?.matches(":popover-open") === true);
    await page.locator('.site-menu__link[href="/#pricing"]').click();
    await page.getByText("Start Annual", { exact: true }).click();
    await page.waitForFunction(
      () => /** @type {HTMLSelectElement | null} */ (document.querySelector("#promotion"))?.value === "Yearly plan (2 months free)",
    );
    assert.deepEqual(await violations(), [], "CSP violations on /");
    for (const path of ["/privacypolicy", "/termsofservice", "/no-such-page"]) {
      await page.goto(new URL(path, host.url).href);
      await page.waitForFunction(() => document.readyState === "complete");
      assert.deepEqual(await violations(), [], `CSP violations on ${path}`);
    }
    // Chromium reports the 404 page's own status as a failed load: that one is expected.
    const unexpected = problems.filter((line) => !(line.includes("/no-such-page") && /status of 404/.test(line)));
    assert.deepEqual(unexpected, [], "console errors or uncaught errors");
  } finally {
    await context.close();
  }
}

/**
 * On a host that sends no headers of the site's, each page's <meta> policy alone must
 * block what the site does not allow: an inline script added to the page is refused.
 * @param {Host} host
 */
async function metaPolicyBlocksInlineScript(host) {
  assert.ok(browser, "Chromium started");
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    for (const path of ["/", "/privacypolicy", "/termsofservice", "/no-such-page"]) {
      const response = await page.goto(new URL(path, host.url).href);
      assert.equal(response?.headers()["content-security-policy"], undefined, "no policy header here");
      const outcome = await page.evaluate(
        () =>
          new Promise((done) => {
            document.addEventListener("securitypolicyviolation", (event) => done(`blocked by ${event.effectiveDirective}`), { once: true });
            const script = document.createElement("script");
            script.textContent = "window.__ranInline = true; document.dispatchEvent(new Event('ran-inline'))";
            document.addEventListener("ran-inline", () => done("ran"), { once: true });
            document.head.append(script);
          }),
      );
      assert.equal(outcome, "blocked by script-src-elem", path);
    }
  } finally {
    await context.close();
  }
}

/**
 * Caddy's site block standing in for GitHub Pages: extensionless pages and 404.html for unknown
 * addresses, as GitHub Pages serves them; no headers, and no redirects: those are the host's
 * own (GitHub Pages' cannot run here).
 */
const GITHUB_PAGES_STAND_IN = [
  "\ttry_files {path}.html {path}",
  "\tfile_server",
  "\thandle_errors {",
  "\t\trewrite * /404.html",
  "\t\tfile_server",
  "\t}",
].join("\n");

/** Folders made outside the repository, removed at the end. @type {string[]} */
const outside = [];

before(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  browser = await chromium.launch({ executablePath, args: chromiumArgs });
});

after(async () => {
  await browser?.close();
  for (const dir of outside) rmSync(dir, { recursive: true, force: true });
});

const HOST_KEYS = ["nginx", "caddy", "cloudflare", "netlify", "no-headers"];
const only = process.env.CURBSIDE_HOSTS?.split(",").map((key) => key.trim());
// A misspelt name would quietly run no host at all, and pass.
const unknownHosts = only?.filter((key) => !HOST_KEYS.includes(key)) ?? [];
if (unknownHosts.length > 0) {
  throw new Error(`CURBSIDE_HOSTS names no host: ${unknownHosts.join(", ")} (the hosts are ${HOST_KEYS.join(", ")})`);
}

/**
 * Runs `hostChecks` and the visit against a host started once for them.
 * @param {string} key @param {string} name @param {() => Promise<Host>} start
 * @param {Traits} traits
 */
function describeHost(key, name, start, traits) {
  assert.ok(HOST_KEYS.includes(key), `${key} is listed in HOST_KEYS`);
  if (only && !only.includes(key)) return;
  describe(name, () => {
    /** @type {Host | undefined} */
    let host;
    before(async () => {
      host = await start();
    });
    after(async () => {
      await host?.stop();
    });
    const current = () => {
      assert.ok(host, `${name} started`);
      return host;
    };
    hostChecks(current, traits);
    test("a visit hydrating every island: no CSP violation, no console error", async () => {
      await visit(current());
    });
    if (!traits.headers) {
      test("each page's <meta> policy blocks inline script on its own", async () => {
        await metaPolicyBlocksInlineScript(current());
      });
    }
  });
}

describeHost(
  "nginx",
  "nginx with dist-server/nginx.conf",
  () => {
    const site = build("nginx");
    return startNginx(site, `${site}-server`);
  },
  { headers: true, precompressed: true },
);

describeHost(
  "caddy",
  "Caddy with dist-server/Caddyfile",
  () => {
    const site = build("caddy");
    return startCaddy("caddy", site, importGenerated(site));
  },
  { headers: true, precompressed: true },
);

describeHost("cloudflare", "Cloudflare Pages (wrangler pages dev)", () => startWrangler(build("cloudflare")), {
  headers: true,
  precompressed: false,
  softNotFoundAt404: true,
});

// netlify dev leaves pretty URLs (the .html and slash redirects) to Netlify's servers, and
// its static server's own Cache-Control replaces the one of _headers: those two are not
// checked here.
describeHost("netlify", "Netlify (netlify dev --offline)", () => startNetlify(build("netlify")), {
  headers: true,
  precompressed: false,
  redirects: false,
  softNotFoundAt404: true,
  assetCaching: false,
});

describeHost(
  "no-headers",
  "a host without the site's headers, as GitHub Pages (a plain Caddy file server)",
  () => startCaddy("no-headers", build("github-pages"), GITHUB_PAGES_STAND_IN),
  { headers: false, precompressed: false, redirects: false, softNotFoundAt404: true },
);

// An owner who uploaded the new dist/ but left the server on the last build's nginx.conf:
// its policy holds the hashes of other inline code, and verify must say so.
if (!only || only.includes("nginx")) {
  describe("nginx still on an earlier build's configuration", () => {
    /** @type {Host | undefined} */
    let host;
    before(async () => {
      const site = build("nginx", "nginx-stale");
      const earlier = join(work, "nginx-earlier-server");
      mkdirSync(earlier, { recursive: true });
      // The earlier build's inline code had other hashes: the same file with those.
      const conf = readFileSync(join(`${site}-server`, "nginx.conf"), "utf8");
      const stale = conf.replace(/'sha256-[A-Za-z0-9+/=]+'/g, "'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='");
      assert.notEqual(stale, conf, "the configuration holds the policy's hashes");
      writeFileSync(join(earlier, "nginx.conf"), stale);
      host = await startNginx(site, earlier, "nginx-stale-run");
    });
    after(async () => {
      await host?.stop();
    });
    test("curbside verify fails, naming the stale policy and the reload", () => {
      assert.ok(host, "nginx started");
      const run = verify(host);
      assert.equal(run.status, 1, run.stderr);
      assert.equal(run.report?.ok, false);
      assert.match(run.stderr, /the Content-Security-Policy sent is another build's/);
      assert.match(run.stderr, /nginx -t && nginx -s reload/);
    });
  });
}

// The deploy files in the repository (.github/workflows/, netlify.toml, wrangler.toml), run here
// as far as anything of them can run here: each workflow's check, build and verify steps as they
// are written, in a copy of the project, with the tests' binary as $CURBSIDE and a host above
// standing in for the deployed address; netlify.toml read by netlify-cli and its build command
// run; wrangler.toml read by `wrangler pages dev`, given no folder.

/** @param {string} folder a build's site folder @returns {{ hosting: string, samples: string[] }} */
function buildRecord(folder) {
  return JSON.parse(readFileSync(`${folder}-server/build.json`, "utf8"));
}

/** @param {string} text */
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A copy of the project for one workflow's steps, the tests' binary (set before the suite's
 * first test) and the host a test starts (stopped after its last). Registers the hooks of the
 * suite it is called in.
 * @param {string} file  the workflow, in .github/workflows/
 * @param {string} folder  the copy's folder, under the run's work folder
 */
function workflowSuite(file, folder) {
  /** @type {{ workflow: ReturnType<typeof readWorkflow>, project: string, curbside: string, host: Host | undefined }} */
  const suite = { workflow: readWorkflow(repo, file), project: join(work, folder), curbside: "", host: undefined };
  before(() => {
    suite.curbside = curbsideBinary({ tests: true });
    projectCopy(repo, suite.project);
  });
  after(async () => {
    await suite.host?.stop();
  });
  return suite;
}

describe("the deploy files pin one Rust, Node.js and wrangler, and publish one folder", () => {
  test("the workflows, netlify.toml and wrangler.toml agree with each other, the README and these tests", () => {
    const pages = readWorkflow(repo, "github-pages.yml");
    const cloudflare = readWorkflow(repo, "cloudflare-pages.yml");
    const netlify = readToml(repo, "netlify.toml");
    const wrangler = readToml(repo, "wrangler.toml");
    const rust = pages.env?.RUSTUP_TOOLCHAIN ?? "";
    const node = pages.env?.NODE_VERSION ?? "";
    assert.match(rust, /^\d+\.\d+\.\d+$/, "the GitHub Pages workflow pins a Rust release");
    assert.match(node, /^\d+\.\d+$/, "the GitHub Pages workflow pins a Node.js release line");
    assert.equal(cloudflare.env?.RUSTUP_TOOLCHAIN, rust, "the Cloudflare workflow's Rust");
    assert.equal(cloudflare.env?.NODE_VERSION, node, "the Cloudflare workflow's Node.js");
    assert.equal(netlify.build?.environment?.RUSTUP_TOOLCHAIN, rust, "netlify.toml's Rust");
    assert.equal(netlify.build?.environment?.NODE_VERSION, node, "netlify.toml's Node.js");
    const readme = readFileSync(join(repo, "README.md"), "utf8");
    assert.match(readme, new RegExp(`Rust ${escapeRegExp(rust)}\\b`), "the README names the pinned Rust");
    assert.match(readme, new RegExp(`Node\\.js ${escapeRegExp(node)}\\b`), "the README names the pinned Node.js");
    const hostPackages = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
    assert.equal(cloudflare.env?.WRANGLER_VERSION, hostPackages.devDependencies.wrangler, "the wrangler deploying is the one tested");
    assert.equal(wrangler.compatibility_date, CLOUDFLARE_COMPATIBILITY_DATE, "wrangler.toml's compatibility date");
    assert.equal(wrangler.pages_build_output_dir, "dist", "wrangler.toml publishes the build's folder");
    assert.equal(netlify.build?.publish, "dist", "netlify.toml publishes the build's folder");
    const upload = pages.jobs.build.steps.find((candidate) => candidate.uses?.startsWith("actions/upload-pages-artifact@"));
    assert.equal(/** @type {any} */ (upload)?.with?.path, "dist", "the Pages artifact is the build's folder");
  });
});

if (!only || only.includes("no-headers")) {
  describe("the GitHub Pages workflow's steps, against the stand-in for GitHub Pages", () => {
    const suite = workflowSuite("github-pages.yml", "pages-workflow");
    const { workflow, project } = suite;

    test("the build job's check and build for GitHub Pages", () => {
      for (const id of ["check", "build"]) {
        const run = runStep(step(workflow, "build", id), { cwd: project, curbside: suite.curbside });
        assert.equal(run.status, 0, `step ${id}:\n${run.stderr}`);
      }
      assert.equal(buildRecord(join(project, "dist")).hosting, "github-pages");
      assert.ok(!existsSync(join(project, "dist/_headers")), "no _headers: GitHub Pages would publish it");
    });

    test("the deploy stops before a site served under /REPOSITORY/, whose links would break", () => {
      const guard = step(workflow, "build", "site-root");
      assert.equal(runStep(guard, { cwd: project, curbside: suite.curbside, values: { BASE_PATH: "" } }).status, 0);
      const under = runStep(guard, { cwd: project, curbside: suite.curbside, values: { BASE_PATH: "/curbside" } });
      assert.equal(under.status, 1);
      assert.match(under.stdout, /::error::GitHub Pages serves this repository under \/curbside\/.*custom domain/);
    });

    test("the deploy job's verify passes against the served build, and fails on sample content unless allowed", async () => {
      const host = (suite.host = await startCaddy("pages-workflow", join(project, "dist"), GITHUB_PAGES_STAND_IN));
      const verifyStep = step(workflow, "deploy", "verify");
      const allowed = runStep(verifyStep, { cwd: project, curbside: suite.curbside, values: { PAGE_URL: host.url, ALLOW_SAMPLES: "true" } });
      assert.equal(allowed.status, 0, allowed.stderr);
      const strict = runStep(verifyStep, { cwd: project, curbside: suite.curbside, values: { PAGE_URL: host.url, ALLOW_SAMPLES: "" } });
      assert.equal(strict.status, 1, "the repository's sample content fails verify");
      assert.match(strict.stderr, /sample Formspree form/);
    });
  });
}

if (!only || only.includes("cloudflare")) {
  describe("the Cloudflare Pages workflow's steps, against wrangler pages dev reading wrangler.toml", () => {
    const suite = workflowSuite("cloudflare-pages.yml", "cloudflare-workflow");
    const { workflow, project } = suite;

    test("the job's check and build for Cloudflare, into wrangler.toml's folder", () => {
      for (const id of ["check", "build"]) {
        const run = runStep(step(workflow, "cloudflare", id), { cwd: project, curbside: suite.curbside });
        assert.equal(run.status, 0, `step ${id}:\n${run.stderr}`);
      }
      const folder = join(project, readToml(project, "wrangler.toml").pages_build_output_dir);
      assert.equal(buildRecord(folder).hosting, "cloudflare");
      assert.ok(existsSync(join(folder, "_headers")), "_headers for Cloudflare Pages");
    });

    test("wrangler pages dev, given no folder, serves that folder; the job's verify passes against it", async () => {
      const folder = join(project, readToml(project, "wrangler.toml").pages_build_output_dir);
      const host = (suite.host = await startWrangler(folder, { project }));
      const home = await fetch(host.url);
      assert.equal(await home.text(), readFileSync(join(folder, "index.html"), "utf8"), "wrangler serves the build");
      const run = runStep(step(workflow, "cloudflare", "verify"), {
        cwd: project,
        curbside: suite.curbside,
        values: { PAGE_URL: host.url, ALLOW_SAMPLES: "true" },
      });
      assert.equal(run.status, 0, run.stderr);
    });
  });
}

if (!only || only.includes("netlify")) {
  describe("netlify.toml, read by netlify-cli", () => {
    /** The project copy its build command built, for the plugin's test. */
    let netlifyProject = "";
    /** @type {{ dir: string, build: { command: string, publish: string }, plan: string } | undefined} */
    let readOnce;
    /** The command and folder Netlify's own configuration reader finds in netlify.toml (read once). */
    const read = () => (readOnce ??= readNetlifyToml());
    const readNetlifyToml = () => {
      // Outside the repository, as netlify dev above: netlify-cli writes into the folder it runs in.
      const dir = mkdtempSync(join(tmpdir(), "curbside-netlify-toml-"));
      outside.push(dir);
      copyFileSync(join(repo, "netlify.toml"), join(dir, "netlify.toml"));
      cpSync(join(repo, "netlify"), join(dir, "netlify"), { recursive: true });
      const bin = join(here, "node_modules/.bin");
      const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}`, NETLIFY_TELEMETRY_DISABLED: "1", HOME: dir, XDG_CONFIG_HOME: join(dir, "config") };
      const resolved = JSON.parse(execFileSync(join(bin, "netlify-config"), ["--offline"], { cwd: dir, env, encoding: "utf8" }));
      // Colours come on where CI is set: the plan is read as text.
      const plan = stripVTControlCharacters(execFileSync(join(bin, "netlify"), ["build", "--dry", "--offline"], { cwd: dir, env, encoding: "utf8" }));
      return { dir, build: resolved.config.build, plan };
    };

    test("the build it plans is the command docs/deploying.md gives, publishing dist/, then the verify plugin", () => {
      const { dir, build, plan } = read();
      assert.match(plan, /build\.command from netlify\.toml/, "netlify build --dry plans the build command");
      assert.match(plan, /onSuccess\s*↓\s*│\s*Plugin \.\/netlify\/plugins\/verify/, "and the verify plugin once the deploy is live");
      assert.equal(build.publish, join(dir, "dist"));
      const docs = readFileSync(join(repo, "docs/deploying.md"), "utf8");
      assert.ok(docs.includes(`command = "${build.command}"`), `docs/deploying.md gives the build command ${build.command}`);
    });

    test("that command, run here with the tests' binary for `cargo run --release --locked --`, builds for Netlify", () => {
      const { build } = read();
      const prefix = "cargo run --release --locked -- ";
      assert.ok(build.command.startsWith(prefix), `${build.command} runs curbside through cargo`);
      const project = projectCopy(repo, join(work, "netlify-toml"));
      const run = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", `"$CURBSIDE" ${build.command.slice(prefix.length)}`], {
        cwd: project,
        env: { ...process.env, CURBSIDE: curbsideBinary({ tests: true }) },
        encoding: "utf8",
        timeout: 300_000,
      });
      assert.equal(run.status, 0, run.stderr);
      const folder = join(project, readToml(project, "netlify.toml").build.publish);
      assert.equal(buildRecord(folder).hosting, "netlify");
      assert.ok(existsSync(join(folder, "_headers")) && existsSync(join(folder, "_redirects")), "_headers and _redirects for Netlify");
      netlifyProject = project;
    });

    test("the verify plugin, once that build is served by netlify dev, passes it and reports the sample content", async () => {
      assert.ok(netlifyProject, "the build command ran");
      const project = netlifyProject;
      const plugin = createRequire(import.meta.url)(join(repo, readToml(repo, "netlify.toml").plugins[0].package, "index.js"));
      const host = await startNetlify(join(project, "dist"));
      const saved = { DEPLOY_URL: process.env.DEPLOY_URL, CURBSIDE_ALLOW_SAMPLES: process.env.CURBSIDE_ALLOW_SAMPLES };
      try {
        /** The plugin's run, with the tests' binary for `cargo run --release --locked --`, in the project. */
        const outcome = async (/** @type {string} */ allow) => {
          process.env.DEPLOY_URL = host.url;
          process.env.CURBSIDE_ALLOW_SAMPLES = allow;
          /** @type {string[]} */
          const failures = [];
          const utils = {
            run: async (/** @type {string} */ file, /** @type {string[]} */ args) => {
              assert.deepEqual([file, ...args.slice(0, 4)], ["cargo", "run", "--release", "--locked", "--"], "the plugin runs curbside through cargo");
              const run = spawnSync(curbsideBinary({ tests: true }), args.slice(4), { cwd: project, encoding: "utf8", timeout: 180_000 });
              if (run.status !== 0) throw new Error(run.stderr);
            },
            build: { failPlugin: (/** @type {string} */ message) => failures.push(message) },
          };
          await plugin.onSuccess({ utils });
          return failures;
        };
        assert.deepEqual(await outcome("true"), [], "verify passes on the deploy, samples allowed");
        const strict = await outcome("");
        assert.equal(strict.length, 1, "the sample content fails verify");
        assert.match(strict[0], /is not the build/);
      } finally {
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
        await host.stop();
      }
    });
  });
}

// The nginx and Caddy recipe of docs/deploying.md, run as written with its two lines of the
// owner's values filled in: the "server" is this machine, reached through a stand-in for ssh
// that runs the command here (rsync's remote end too), sudo runs the command as it is, nginx
// is the test's server (its configuration and pid), and `cargo run --release --` is the tests'
// binary. The project copy's business.yaml gets the server's address and a form id, as an
// owner's would before a deploy, so verify runs as the recipe has it, on the build's address.
if (!only || only.includes("nginx")) {
  describe("the nginx recipe of docs/deploying.md (rsync, nginx -t, reload, verify)", () => {
    /** @type {Host | undefined} */
    let host;
    after(async () => {
      await host?.stop();
    });

    test("run as written against an nginx standing in for the server, it deploys a build that verify passes", async () => {
      const docs = readFileSync(join(repo, "docs/deploying.md"), "utf8");
      const recipe = /```sh\n(#!\/usr\/bin\/env bash\n[\s\S]*?)```/.exec(docs)?.[1] ?? "";
      assert.match(recipe, /rsync .*dist\/[\s\S]*rsync .*dist-server\/[\s\S]*nginx -t && [\s\S]*verify/, "docs/deploying.md holds the recipe");
      const server = join(work, "recipe-server");
      const run = join(work, "recipe-nginx");
      for (const folder of ["dist", "dist-server"]) mkdirSync(join(server, folder), { recursive: true });
      // What the server holds before the first deploy.
      writeFileSync(join(server, "dist/index.html"), "before the first deploy\n");
      writeFileSync(join(server, "dist-server/nginx.conf"), "");
      const port = await freePort();
      host = await startNginx(join(server, "dist"), join(server, "dist-server"), "recipe-nginx", port);
      const script = recipe.replace(/^server=.*$/m, "server=deploy@server.test").replace(/^site=.*$/m, `site=${server}`);
      assert.match(script, /^server=deploy@server\.test$/m);
      assert.ok(script.includes(`site=${server}\n`), "the recipe's two lines of the owner's values");

      const project = projectCopy(repo, join(work, "recipe-project"));
      const business = join(project, "content/business.yaml");
      writeFileSync(
        business,
        readFileSync(business, "utf8")
          .replace(/^url: \S+/m, `url: http://127.0.0.1:${port}`)
          .replace(/^formspree_form_id: \S+/m, "formspree_form_id: xrecipe1"),
      );
      const shims = join(work, "recipe-shims");
      mkdirSync(shims, { recursive: true });
      const shim = (/** @type {string} */ name, /** @type {string} */ body) => {
        writeFileSync(join(shims, name), `#!/usr/bin/env bash\nset -euo pipefail\n${body}\n`);
        chmodSync(join(shims, name), 0o755);
      };
      // ssh [-l user] [-other options] HOST COMMAND...: the command, here.
      shim("ssh", 'while [ "${1#-}" != "$1" ]; do case "$1" in -l|-p|-o|-i|-e) shift 2 ;; *) shift ;; esac; done\nshift\nexec bash -c "$*"');
      shim("sudo", 'exec "$@"');
      shim("nginx", `exec /usr/sbin/nginx -c ${join(run, "nginx.conf")} -p ${run} "$@"`);
      shim("cargo", '[ "$1 $2 $3" = "run --release --" ] || { echo "cargo $*: not in the recipe" >&2; exit 2; }\nshift 3\nexec "$CURBSIDE" "$@"');
      const deployed = spawnSync("bash", ["-c", script], {
        cwd: project,
        env: { ...process.env, PATH: `${shims}:${process.env.PATH ?? ""}`, CURBSIDE: curbsideBinary({ tests: true }) },
        encoding: "utf8",
        timeout: 300_000,
      });
      assert.equal(deployed.status, 0, `${deployed.stdout}\n${deployed.stderr}`);
      assert.match(deployed.stderr, /syntax is ok[\s\S]*test is successful/, "nginx -t ran before the reload");
      const home = await fetch(host.url);
      assert.equal(await home.text(), readFileSync(join(project, "dist/index.html"), "utf8"), "the server serves the new build");
      assert.ok(home.headers.get("content-security-policy"), "with the new configuration's headers");
    });
  });
}
