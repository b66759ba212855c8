// `curbside serve --watch` in a real browser: a sign-up end to end against the preview's
// local stand-in for the form service (nothing is intercepted: the page posts to the
// preview server, which validates and appends the submission to
// .curbside/submissions.jsonl), and the live-reload overlay for a broken build, which
// clears when the fix is saved.
//
// Each worker serves its own copy of the project (content, layouts, frontend with its
// packages linked) with the curbside binary (support/curbside-binary.mjs), on
// 127.0.0.1 only, and stops it afterwards.
import { existsSync, lstatSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "../support/page-checks";
import { servedCopy } from "../support/served-copy";

/** What a visitor types, every field of the form. */
const PERSON = {
  firstName: "Ada",
  lastName: "O’Brien-Núñez",
  address: "1418 6th St, Apt 2 & B",
  city: "Brookings",
  state: "SD",
  zip: "57006",
  email: "ada.obrien@example.com",
  phone: "(605) 555-0142",
} as const;
const PROMOTION = "Yearly plan (2 months free)";

test.describe.configure({ mode: "default" });

const current = servedCopy({ args: ["--watch"] });

/** Waits until the server has printed `pattern` after the first `after` characters of its output. */
async function printed(pattern: RegExp, after: number): Promise<void> {
  await expect
    .poll(() => pattern.test(current().output.join("").slice(after)), {
      message: `the server prints ${pattern}`,
      timeout: 30_000,
    })
    .toBe(true);
}

/** Records CSP violations from the first script on, including reloads. */
async function recordCspViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      w.__csp.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
}

async function expectNoCspViolations(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
}

/** Opens a page of the preview and waits until its live-reload stream is open. */
async function openLive(page: Page, path: string): Promise<void> {
  const events = page.waitForResponse((response) => response.url().endsWith("/__curbside/events"));
  await page.goto(`${current().origin}${path}`);
  expect((await events).status()).toBe(200);
}

test("a sign-up completes end to end against the local stand-in and is saved", { tag: "@any-screen" }, async ({ page }) => {
  await recordCspViolations(page);
  await openLive(page, "/#contact");
  const form = page.locator("#contact form");
  // Posts to the preview itself, never to the hosted service.
  await expect(form).toHaveAttribute("action", "/f/xsample1");
  const submit = form.locator("button[type=submit]");

  for (const [name, value] of Object.entries(PERSON)) await form.locator(`[name="${name}"]`).fill(value);
  await form.locator("#promotion").selectOption(PROMOTION);
  // The island has hydrated and taken the plan from the promotion.
  await expect(form.locator("#plan_type")).toHaveValue("annual");

  const posted = page.waitForResponse((response) => response.url().endsWith("/f/xsample1"));
  await submit.click();
  const reply = await posted;
  expect(reply.status()).toBe(200);
  expect(reply.request().headers()["accept"]).toBe("application/json");
  expect(await reply.json()).toEqual({ next: "/__curbside/thanks", ok: true });

  const section = page.locator("#contact");
  await expect(section.getByRole("heading", { level: 2 })).toHaveText("Thanks — we've got your info!");
  await expect(section.locator("form")).toHaveCount(0);

  // Saved to the copy's own file, with the values as typed.
  const file = join(current().root, ".curbside/submissions.jsonl");
  await expect.poll(() => existsSync(file)).toBe(true);
  const lines = readFileSync(file, "utf8").trim().split("\n");
  expect(lines).toHaveLength(1);
  const saved = JSON.parse(lines[0]!) as { form: string; received_at: string; fields: Record<string, string> };
  expect(saved.form).toBe("xsample1");
  expect(Number.isNaN(Date.parse(saved.received_at))).toBe(false);
  expect(saved.fields).toEqual({
    ...PERSON,
    promotion: PROMOTION,
    plan_type: "annual",
    plan_amount: "250",
    billing_frequency: "yearly",
  });
  expect(current().output.join("")).toContain("saved to");
  await expectNoCspViolations(page);
});

test("a broken save shows the error over the page, and the fix reloads it without the overlay", { tag: "@any-screen" }, async ({ page }) => {
  await recordCspViolations(page);
  const plans = join(current().root, "content/plans.yaml");
  const good = readFileSync(plans, "utf8");
  expect(good).toMatch(/^ {2}price: 25$/m);
  await openLive(page, "/");
  // Set on this document only: a reload clears it.
  await page.evaluate(() => ((window as unknown as { __before: boolean }).__before = true));
  // The contact form has an alert region of its own (empty until a failed submit).
  const overlay = page.getByRole("alert").filter({ hasText: "The site could not be rebuilt" });
  await expect(overlay).toHaveCount(0);

  try {
    let seen = current().output.join("").length;
    writeFileSync(plans, good.replace(/^ {2}price: 25$/m, "  price: abc"));
    await printed(/^error: content\/plans\.yaml:\d+:\d+:/m, seen);
    await expect(overlay).toBeVisible();
    await expect(overlay).toContainText(
      /content\/plans\.yaml:\d+:\d+: the monthly plan's price must be a number, not "abc"/,
    );
    await expect(overlay.getByRole("heading")).toHaveText("The site could not be rebuilt");
    // The last good page is still there under it.
    await expect(page.locator("#pricing")).toContainText("$25");
    expect(await page.evaluate(() => (window as unknown as { __before?: boolean }).__before)).toBe(true);

    seen = current().output.join("").length;
    const reloaded = page.waitForEvent("load");
    writeFileSync(plans, good);
    await printed(/^rebuilt \(pages\) in \d+ ms$/m, seen);
    await reloaded;
    await expect(overlay).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __before?: boolean }).__before)).toBeUndefined();
    await expect(page.locator("#pricing")).toContainText("$25");
  } finally {
    writeFileSync(plans, good);
  }
  await expectNoCspViolations(page);
});

test("the preview serves on loopback and never leaves its own folder", { tag: "@any-screen" }, async () => {
  const { origin, root } = current();
  expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(lstatSync(join(root, ".curbside/preview/index.html")).isFile()).toBe(true);
  expect(existsSync(join(root, "dist"))).toBe(false);
});
