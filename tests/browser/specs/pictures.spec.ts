// A hero photo, as a visitor sees it: a copy of the project whose home.yaml places a
// 1600 × 1067 photo (drawn in the browser), served by the preview. On a
// phone the photo is in the first screen; on a desktop it stands beside the text. It is the
// page's largest paint, fetched in AVIF at a width that fits the screen, cut to the box it is
// shown in, and the page does not shift while it arrives, even when the page itself arrives
// in parts. A file of content/public/ is served at its own address.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "../support/page-checks";
import { replaceOnce } from "../support/preview.mjs";
import { drawTown } from "../support/drawn-photo";
import { heldPage } from "../support/held-page";
import { servedCopy } from "../support/served-copy";

const ALT = "Two green bins at the curb at dusk";
test.describe.configure({ mode: "default" });

const preview = servedCopy({ timeout: 180_000, prepare: placePhoto });

/** The copy's home places a photo, and content/public/ holds a file. */
async function placePhoto(root: string, { browser }: { browser: Browser }): Promise<void> {
  mkdirSync(join(root, "content/photos"));
  writeFileSync(join(root, "content/photos/bins-at-curb.jpg"), await drawTown(browser, 1600, 1067));
  replaceOnce(root, "content/home.yaml", "  button: Start Service\n", `  button: Start Service\n  image:\n    src: photos/bins-at-curb.jpg\n    alt: ${ALT}\n`);
  mkdirSync(join(root, "content/public/.well-known"), { recursive: true });
  writeFileSync(join(root, "content/public/.well-known/security.txt"), "Contact: mailto:security@example.com\n");
}

test("the hero photo is the page's largest paint, in the first screen, fetched in AVIF at a fitting width, with no layout shift", async ({ page }, testInfo) => {
  const fetched: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/assets/img/bins-at-curb-")) fetched.push(request.url());
  });
  await page.goto(`${preview().origin}/`);
  const image = page.getByRole("img", { name: ALT });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  const { currentSrc, ratio } = await image.evaluate((img: HTMLImageElement) => ({
    currentSrc: img.currentSrc,
    ratio: window.devicePixelRatio,
  }));
  const chosen = /\/assets\/img\/bins-at-curb-(\d+)-[0-9a-f]{10}\.avif$/.exec(currentSrc);
  expect(chosen, currentSrc).not.toBeNull();
  const chosenWidth = Number(chosen?.[1]);
  // The preload for this screen named the same copy: it is fetched once, and no other.
  expect(fetched).toEqual([currentSrc]);
  const box = await image.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error("no box or viewport");
  // Sharp (at least the drawn width in device pixels, up to the largest copy), and the
  // smallest copy that is.
  expect(chosenWidth).toBeGreaterThanOrEqual(Math.min(1600, Math.floor(box.width * ratio)) - 1);
  expect(chosenWidth - 400).toBeLessThan(box.width * ratio);
  // Within the first screen, whole.
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  const heading = await page.getByRole("heading", { level: 1 }).boundingBox();
  if (!heading) throw new Error("no heading");
  if (viewport.width >= 960) {
    // Beside the text.
    expect(heading.x + heading.width).toBeLessThanOrEqual(box.x);
  } else {
    // Above it, across the screen.
    expect(box.y + box.height).toBeLessThanOrEqual(heading.y);
    expect(box.width).toBeGreaterThanOrEqual(viewport.width - 1);
  }
  // The largest paint is the photo, and nothing shifted: its box was reserved before it
  // arrived. Buffered entries reach an observer before the next frame's callbacks.
  const largest = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        let largest = "";
        const take = (entries: PerformanceEntryList) => {
          for (const entry of entries) {
            const element = (entry as PerformanceEntry & { element?: Element | null }).element;
            largest = element?.className ?? "(none)";
          }
        };
        const observer = new PerformanceObserver((list) => take(list.getEntries()));
        observer.observe({ type: "largest-contentful-paint", buffered: true });
        requestAnimationFrame(() =>
          setTimeout(() => {
            take(observer.takeRecords());
            resolve(largest);
          }),
        );
      }),
  );
  expect(largest).toContain("hero__image");
  // The copy is cut to the box it fills: no pixel is downloaded to be hidden.
  const natural = await image.evaluate((img: HTMLImageElement) => img.naturalWidth / img.naturalHeight);
  expect(Math.abs(natural - box.width / box.height)).toBeLessThan(0.01);
  expect(await shifts(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath("hero-photo.png") });
  await expectNoAxeViolations(page);
});

/** The layout shifts of a page so far, each with the elements that moved. */
async function shifts(page: Page): Promise<{ value: number; moved: string[] }[]> {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        type Shift = PerformanceEntry & { value: number; sources?: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] };
        const seen: { value: number; moved: string[] }[] = [];
        const take = (entries: PerformanceEntryList) => {
          for (const entry of entries as Shift[]) {
            const moved = (entry.sources ?? []).map((source) => {
              const { previousRect: was, currentRect: now } = source;
              const name = source.node instanceof Element ? source.node.className : String(source.node);
              return `${name}: ${was.x},${was.y} ${was.width}×${was.height} → ${now.x},${now.y} ${now.width}×${now.height}`;
            });
            seen.push({ value: entry.value, moved });
          }
        };
        // Buffered entries reach the callback before the next frame's callbacks.
        const observer = new PerformanceObserver((list) => take(list.getEntries()));
        observer.observe({ type: "layout-shift", buffered: true });
        requestAnimationFrame(() =>
          setTimeout(() => {
            take(observer.takeRecords());
            resolve(seen);
          }),
        );
      }),
  );
}

// On a slow network (or a busy phone) the browser paints what it has parsed so far. A
// page cut inside the hero, at each of its parts, shows the first part and then the rest
// appears below it: nothing already painted moves.
for (const [part, cut] of [
  ["photo's box", '<div class="hero__media">'],
  ["photo", "<picture>"],
  ["text", '<div class="hero__text">'],
]) {
  test(`a page that arrives cut before the hero's ${part} does not shift`, async ({ page }) => {
    const held = await heldPage(preview().origin, '<div class="hero__inner">', cut ?? "");
    try {
      await page.goto(`${held.origin}/`, { waitUntil: "commit" });
      // The first part is on the screen before the rest is sent.
      await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0);
      held.release();
      const image = page.getByRole("img", { name: ALT });
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await shifts(page)).toEqual([]);
    } finally {
      await held.close();
    }
  });
}

test("the preload names the same copies, and a public file is served at its address", { tag: "@any-screen" }, async ({ page }) => {
  const { origin } = preview();
  const html = await (await page.request.get(`${origin}/`)).text();
  // One preload for each screen's cut, with the copies and sizes of its <source>.
  const preloads = [...html.matchAll(/<link rel="preload" as="image" type="image\/avif" imagesrcset="([^"]+)" imagesizes="([^"]+)" media="([^"]+)"/g)];
  expect(preloads.map((link) => link[3])).toEqual(["(min-width: 60rem)", "not all and (min-width: 60rem)"]);
  const wide = /<source media="\(min-width: 60rem\)" type="image\/avif" srcset="([^"]+)" sizes="([^"]+)"/.exec(html);
  const narrow = /<source type="image\/avif" srcset="([^"]+)" sizes="([^"]+)"/.exec(html);
  expect(preloads.map((link) => [link[1], link[2]])).toEqual([
    [wide?.[1], wide?.[2]],
    [narrow?.[1], narrow?.[2]],
  ]);
  const security = await page.request.get(`${origin}/.well-known/security.txt`);
  expect(security.status()).toBe(200);
  expect(await security.text()).toBe("Contact: mailto:security@example.com\n");
});

test("the hero photo has the line to itself: the islands' code waits for the visitor, not for the photo", async ({ page }) => {
  // The photo is held back; the words paint meanwhile.
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/img\/bins-at-curb-\d+-[0-9a-f]+\.avif$/, async (route) => {
    await held;
    await route.continue();
  });
  // The islands' chunks, React's among them (the runtime itself is the loader's to start, once
  // the words have painted).
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (/\/assets\/(?!islands-)[\w-]+\.js$/.test(request.url())) scripts.push(request.url());
  });
  await page.goto(`${preview().origin}/`, { waitUntil: "commit" });
  await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0);
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))));
  expect(scripts).toEqual([]);
  // The photo in, the page loaded: still nothing, until the visitor's first key.
  release();
  await page.waitForLoadState("load");
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 3000 })));
  expect(scripts).toEqual([]);
  await page.keyboard.press("Tab");
  await expect.poll(() => scripts.some((url) => /\/assets\/chunk-[\w-]+\.js$/.test(url))).toBe(true);
});
