// The browser is the judge of a published drawing. Every attack of the matrix
// (support/svg-attacks.ts) and damaged copies of them are placed in a page of a copy of the
// project and built by the real binary: each is refused by the build, with a message naming
// it, or published. Each published copy is then opened as a document in Chromium, served with
// no Content-Security-Policy (so the copy alone must be inert), every request intercepted,
// and every element clicked. It passes only if no dialog opens and no request leaves the
// page's own origin.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { curbsideBinary } from "../support/curbside-binary.mjs";
import { copyProject } from "../support/preview.mjs";
import { attackMatrix, mutatedCases, type Case } from "../support/svg-attacks";

test.describe.configure({ mode: "serial" });

interface Built {
  root: string;
  origin: string;
  server: Server;
  /** Case name → the build's message. */
  refused: Map<string, string>;
  /** Case name → the published copy's address. */
  published: Map<string, string>;
  cases: Case[];
}

let built: Built | undefined;

const PAGE_HEAD = "---\ntitle: Drawings\ndescription: Every drawing of the attack matrix.\nlink: none\n---\n\n";

/** Builds until the build passes, taking out each drawing it refuses (one a run). */
function buildRefusing(root: string, cases: Case[]): Map<string, string> {
  const binary = curbsideBinary();
  const refused = new Map<string, string>();
  const placed = new Set(cases.map((c) => c.name));
  const page = join(root, "content/pages/drawings.md");
  for (let run = 0; run <= cases.length; run++) {
    const lines = [...placed].map((name) => `![Drawing ${name}](drawings/${name}.svg)\n`);
    writeFileSync(page, PAGE_HEAD + lines.join("\n"));
    const result = spawnSync(binary, ["--root", root, "build", "--out", join(root, "dist")], { encoding: "utf8" });
    if (result.status === 0) return refused;
    const named = /content\/pages\/drawings\/([\w-]+)\.svg/.exec(result.stderr);
    if (result.status !== 1 || !named || !placed.has(named[1]!)) {
      throw new Error(`the build failed other than by refusing a drawing (${result.status}):\n${result.stderr}`);
    }
    placed.delete(named[1]!);
    refused.set(named[1]!, result.stderr);
  }
  throw new Error("the build never passed");
}

/** The published files, with no header but their type: the copy alone must be inert. */
function serve(dist: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    try {
      const body = readFileSync(join(dist, path.replace(/^\/+/, "")));
      response.writeHead(200, { "content-type": path.endsWith(".svg") ? "image/svg+xml" : "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((done) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      done({ server, origin: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` });
    });
  });
}

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(600_000);
  const matrix = attackMatrix();
  const cases = [...matrix, ...mutatedCases(matrix, 40)].map((c, i) => ({ ...c, name: `c${i}-${c.name}` }));
  const root = copyProject();
  mkdirSync(join(root, "content/pages/drawings"));
  for (const c of cases) writeFileSync(join(root, `content/pages/drawings/${c.name}.svg`), c.svg);
  const refused = buildRefusing(root, cases);
  const files = readdirSync(join(root, "dist/assets/img"));
  const { server, origin } = await serve(join(root, "dist"));
  const published = new Map<string, string>();
  for (const c of cases) {
    if (refused.has(c.name)) continue;
    const file = files.find((f) => f.startsWith(`${c.name}-`) && f.endsWith(".svg"));
    if (!file) throw new Error(`${c.name} was neither refused nor published`);
    published.set(c.name, `${origin}/assets/img/${file}`);
  }
  built = { root, origin, server, refused, published, cases };
  testInfo.annotations.push({ type: "drawings", description: `${cases.length}: ${refused.size} refused, ${published.size} published` });
  console.log(`svg-inert: ${cases.length} drawings, ${refused.size} refused by the build, ${published.size} published and judged`);
});

test.afterAll(async () => {
  if (!built) return;
  await new Promise((done) => built!.server.close(done));
  rmSync(built.root, { recursive: true, force: true });
});

/** What a drawing did when opened and clicked all over: dialogs and requests elsewhere. */
async function judge(page: Page, address: string, origin: string): Promise<string[]> {
  const seen: string[] = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.continue();
    seen.push(`request ${url}`);
    return route.abort();
  });
  page.on("dialog", (dialog) => {
    seen.push(`dialog ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.context().on("page", (opened) => seen.push(`window ${opened.url()}`));
  await page.goto(address);
  const points = await page.evaluate(() => {
    const centres = new Set<string>();
    for (const element of document.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && box.right > 0 && box.bottom > 0) {
        centres.add(`${Math.round(box.x + box.width / 2)},${Math.round(box.y + box.height / 2)}`);
      }
    }
    return [...centres].map((c) => c.split(",").map(Number) as [number, number]);
  });
  for (const [x, y] of points) {
    await page.mouse.click(x, y);
    if (page.url() !== address) await page.goto(address);
  }
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  // Later than anything the clicks started: two frames painted, then a round trip to the
  // server, whose answer comes after any request a click queued.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.evaluate(async (home) => (await fetch(`${home}/`)).status, origin);
  return seen;
}

for (const family of ["attr", "anim", "child", "mutated"]) {
  test(`drawings of the ${family} family are refused or inert in Chromium`, { tag: "@any-screen" }, async ({ page }) => {
    test.setTimeout(300_000);
    const { refused, published, origin, cases } = built!;
    const mine = cases.filter((c) => c.name.replace(/^c\d+-/, "").startsWith(`${family}-`));
    expect(mine.length).toBeGreaterThan(0);
    for (const c of mine) {
      const message = refused.get(c.name);
      if (message !== undefined) {
        // Refused at the page that places it, with what to do.
        expect(message, c.name).toContain(`content/pages/drawings/${c.name}.svg`);
        expect(message, c.name).toContain("help:");
        continue;
      }
      const address = published.get(c.name)!;
      const copy = await (await page.request.get(address)).text();
      const seen = await judge(page, address, origin);
      expect(seen, `${c.name} published as\n${copy}`).toEqual([]);
      await page.unrouteAll({ behavior: "ignoreErrors" });
      page.removeAllListeners("dialog");
      page.context().removeAllListeners("page");
    }
    if (family !== "mutated") {
      // Both outcomes are met, so the browser judged copies, not only refusals.
      expect(mine.some((c) => published.has(c.name)), `no ${family} drawing was published`).toBe(true);
    }
  });
}

test("the build refuses every fetch a style spells, and names it", { tag: "@any-screen" }, async () => {
  const { refused, published } = built!;
  // Styles and presentation attributes that name another site, in every spelling; a child
  // `<style>` that imports, loads a font or fills from another site.
  const styles = [...refused.keys(), ...published.keys()].filter((name) =>
    /^c\d+-(attr-(style|fill|filter|mask|clip|marker)-|child-style-)/.test(name),
  );
  expect(styles.length).toBeGreaterThan(20);
  for (const name of styles) expect(refused.has(name), `${name} was published`).toBe(true);
});
