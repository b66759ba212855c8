// The door hangers' page, /start: a welcome line and the sign-up form, on the yearly plan the page
// chooses (its Markdown places the form with `plan: annual`). A plan in the address, as the QR
// code of each door hanger gives it, is chosen as the toggle would choose it: saved, announced
// with `plan-change`, and the form's promotion and plan fields agree. An unknown one is ignored.
import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "../support/page-checks";

const YEARLY = "Yearly plan (2 months free)";
const MONTHLY = "Monthly plan";

interface Recorded {
  __planEvents: Array<{ planType: string; amount: number; frequency: string }>;
}

/** Records every plan-change from before the page's own scripts run. */
async function recordPlanChanges(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as Recorded;
    w.__planEvents = [];
    window.addEventListener("plan-change", (event) => {
      const { planType, amount, frequency } = (event as CustomEvent<Recorded["__planEvents"][number]>).detail;
      w.__planEvents.push({ planType, amount, frequency });
    });
  });
}

const planEvents = (page: Page) => page.evaluate(() => (window as unknown as Recorded).__planEvents);
const savedPlan = (page: Page) => page.evaluate(() => localStorage.getItem("plan"));

/** The form's promotion and its three plan fields. */
async function form(page: Page): Promise<{ promotion: string; fields: string[] }> {
  const value = (name: string) => page.locator(`form [name=${name}]`).inputValue();
  return {
    promotion: await value("promotion"),
    fields: [await value("plan_type"), await value("plan_amount"), await value("billing_frequency")],
  };
}

const ANNUAL = { promotion: YEARLY, fields: ["annual", "250", "yearly"] };
const MONTHLY_FORM = { promotion: MONTHLY, fields: ["monthly", "25", "monthly"] };

/** The form has hydrated: the loader ran long before, and React now owns the form. */
async function hydrated(page: Page): Promise<void> {
  const island = page.locator("[data-island=contact]");
  await island.scrollIntoViewIfNeeded();
  await expect(island).toHaveAttribute("data-hydrated", "");
}

test("/start welcomes the visitor with the form on the yearly plan, before and after hydration", async ({ page }) => {
  await recordPlanChanges(page);
  await page.goto("/start");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, neighbor");
  await expect(page.locator("main")).toContainText("door hanger");
  expect(await form(page)).toEqual(ANNUAL);
  await hydrated(page);
  expect(await form(page)).toEqual(ANNUAL);
  await expectNoAxeViolations(page);
  // The page's plan is shown, not chosen for the visitor.
  expect(await planEvents(page)).toEqual([]);
  expect(await savedPlan(page)).toBeNull();
});

for (const [plan, expected, detail] of [
  ["monthly", MONTHLY_FORM, { planType: "monthly", amount: 25, frequency: "monthly" }],
  ["annual", ANNUAL, { planType: "annual", amount: 250, frequency: "yearly" }],
] as const) {
  test(`/start?plan=${plan} chooses that plan as the toggle would: saved, announced, and the form agrees`, async ({ page }) => {
    await recordPlanChanges(page);
    // The form's code is held back: what shows meanwhile is the page's first script's doing.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/contact-[\w-]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`/start?plan=${plan}`);
    expect(await planEvents(page)).toEqual([detail]);
    expect(await savedPlan(page)).toBe(plan);
    expect(await form(page)).toEqual(expected);
    release();
    await hydrated(page);
    expect(await form(page)).toEqual(expected);
    expect(await planEvents(page)).toEqual([detail]);
  });
}

test("a plan the site does not have, in the address, is ignored", async ({ page }) => {
  await recordPlanChanges(page);
  await page.goto("/start?plan=weekly");
  await hydrated(page);
  expect(await planEvents(page)).toEqual([]);
  expect(await savedPlan(page)).toBeNull();
  expect(await form(page)).toEqual(ANNUAL);
});

test("a plan the visitor saved before wins over the page's, and the form's promotion follows it", async ({ page }) => {
  await page.addInitScript(() => {
    if (sessionStorage.getItem("seeded") === null) {
      localStorage.setItem("plan", "monthly");
      sessionStorage.setItem("seeded", "1");
    }
  });
  await page.goto("/start");
  expect(await form(page)).toEqual(MONTHLY_FORM);
  await hydrated(page);
  expect(await form(page)).toEqual(MONTHLY_FORM);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form follows the page's plan, whatever the address says", async ({ page }) => {
    for (const path of ["/start", "/start?plan=monthly"]) {
      await page.goto(path);
      expect(await form(page), path).toEqual(ANNUAL);
    }
  });
});
