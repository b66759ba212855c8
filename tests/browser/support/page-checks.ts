import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, test as base, type Locator, type Page } from "@playwright/test";
import type { AxeResults } from "axe-core";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/**
 * Every element `locator` finds, once it finds at least one: a loop over none would check
 * nothing and pass.
 */
export async function everyOne(locator: Locator): Promise<Locator[]> {
  await expect(locator, `${locator} finds something`).not.toHaveCount(0);
  return locator.all();
}

/**
 * Scrolls every reveal-on-scroll section into view, as a reader would, and
 * waits for its fade-in to finish: axe measures contrast as shown.
 */
export async function revealAll(page: Page): Promise<void> {
  for (const section of await page.locator("[data-reveal]").all()) {
    await section.scrollIntoViewIfNeeded();
  }
  await expect(page.locator(".reveal:not(.revealed)")).toHaveCount(0);
  // A transition cut short (its element changed again) rejects `finished` with an AbortError: nothing to wait for.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

/** Runs axe-core in the page and fails on any violation, listing them. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  await revealAll(page);
  // Evaluated through the DevTools protocol, so the page's CSP does not block it.
  await page.evaluate(axeSource);
  const results = await page.evaluate(
    () => (window as unknown as { axe: { run: (o: object) => Promise<AxeResults> } }).axe.run({
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    }),
  );
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`,
  );
  expect(summary, summary.join("\n")).toEqual([]);
}

/**
 * The test fixture every spec uses: it records console errors and warnings,
 * page errors and CSP violations, and fails the test if there were any.
 */
export const test = base.extend<{ problems: string[] }>({
  problems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on("console", (message) => {
        // A 404 page's own status is reported as a failed load; that is the point of it.
        const ownStatus = /status of 404/.test(message.text()) && message.location().url === page.url();
        if ((message.type() === "error" || message.type() === "warning") && !ownStatus) {
          problems.push(`console.${message.type()}: ${message.text()}`);
        }
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      await use(problems);
      expect(problems, problems.join("\n")).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
