// A page that places no island loads nothing but its HTML and CSS: no loader, no runtime. On this site that is the legal pages and the 404: their header menu is the
// browser's own popover, no island, so a visitor's browser runs none of the site's code there,
// and the menu still opens.
import type { Page } from "@playwright/test";
import { expect, test } from "../support/page-checks";

/** The site's own scripts the page asked for by the time it loaded, and its inline ones. */
async function siteScripts(path: string, page: Page): Promise<{ fetched: string[]; inline: number; islands: number }> {
  await page.goto(path, { waitUntil: "load" });
  // Scrolling would start a runtime at once (the loader's other trigger than the first paint).
  await page.mouse.wheel(0, 400);
  return page.evaluate(() => ({
    fetched: (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.startsWith("/assets/") && path.endsWith(".js")),
    // Code, not data (props, structured data).
    inline: [...document.scripts].filter((script) => !script.src && !script.type.startsWith("application/")).length,
    islands: document.querySelectorAll("[data-island]").length,
  }));
}

for (const path of ["/privacypolicy", "/termsofservice", "/missing"]) {
  test(`${path}, with no island, has no loader and fetches no runtime @any-screen`, async ({ page }) => {
    // The home page places islands: its loader fetches the runtime, which is the signal that the
    // same visit on a page without islands would have fetched it by now too.
    const home = await siteScripts("/", page);
    await expect.poll(() => page.evaluate(() => (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).some((e) => /\/assets\/islands-[\w-]+\.js$/.test(e.name)))).toBe(true);
    // The loader, the page's one script of code.
    expect(home.inline).toBe(1);
    const bare = await siteScripts(path, page);
    expect(bare).toEqual({ fetched: [], inline: 0, islands: 0 });
    await expect(page.locator("script[data-runtime], script[data-files]")).toHaveCount(0);
  });
}
