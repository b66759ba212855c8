// No press waits for React. With React's chunk held back (requested, never delivered until the
// test lets it go), every control of every island answers: the billing switch and its words, the
// Start buttons, the ZIP's note, the submit's sending state, on every placement of a page. Once
// React is let through, nothing is lost and nothing is applied twice: the submission reaches the
// form service once and the thank-you view shows. A control that only React answered would
// fail here, whatever the timing.
import type { Locator, Page, TestInfo } from "@playwright/test";
import {
  ANNUAL,
  MONTHLY,
  PROMOTION,
  expect,
  fillPerson,
  holdAsset,
  interceptFormService,
  planEvents,
  promotionChanges,
  recordPlanEvents,
  START_FOCUS,
  SUCCESS,
  test,
  waitForIsland,
} from "../support/islands";
import { replaceOnce } from "../support/preview.mjs";
import { servedCopy } from "../support/served-copy";

/** React's chunk, shared by every island: the one file no press may wait for. */
const REACT_CHUNK = /\/assets\/chunk-[\w-]+\.js$/;

/** A tap on the phone, a click on the desktop. */
async function press(target: Locator, testInfo: TestInfo): Promise<void> {
  if (testInfo.project.name === "phone") await target.tap();
  else await target.click();
}

/** Where a Start button's `press` leaves focus: the phone taps, the desktop clicks. */
function formFocus(page: Page, testInfo: TestInfo): Locator {
  return page.locator(`#${testInfo.project.name === "phone" ? START_FOCUS.tapped : START_FOCUS.clicked}`);
}

/** Every toggle on the page shows `plan`, and the form's hidden fields carry it (unless the thanks replaced the form). */
async function expectPlanShown(page: Page, plan: "monthly" | "annual", form = true): Promise<void> {
  for (const toggle of await page.locator("[data-island=pricing]").all()) {
    await expect(toggle.getByRole("switch")).toHaveAttribute("aria-checked", String(plan === "annual"));
    await expect(toggle.locator("[data-current-plan]")).toHaveAttribute("data-current-plan", plan);
  }
  if (form) await expect(page.locator("#plan_type")).toHaveValue(plan);
}

/** React has not run in any island: no island listens through it, none has hydrated. */
async function expectNoReact(page: Page): Promise<void> {
  await expect(page.locator("[data-island][data-react], [data-island][data-hydrated]")).toHaveCount(0);
}

/** The visitor's settings the presses must not depend on. */
const SETTINGS = [
  { name: "", reducedMotion: "no-preference", saveData: false },
  { name: ", with reduced motion", reducedMotion: "reduce", saveData: false },
  { name: ", with Save-Data", reducedMotion: "no-preference", saveData: true },
] as const;

test.describe("with React held back", () => {
  for (const { name, reducedMotion, saveData } of SETTINGS) {
    test(`every control on the home page answers, and once React arrives the form is sent once${name}`, async ({ page }, testInfo) => {
      await page.emulateMedia({ reducedMotion });
      // Chromium's own data saver: navigator.connection.saveData, and the Save-Data header.
      if (saveData) await (await page.context().newCDPSession(page)).send("Emulation.setDataSaverOverride", { dataSaverEnabled: true });
      const react = await holdAsset(page, REACT_CHUNK);
      const service = await interceptFormService(page);
      service.answer(SUCCESS);
      await page.goto("/#pricing");
      expect(await page.evaluate(() => (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true)).toBe(saveData);
      await recordPlanEvents(page);
      const pricing = page.locator("[data-island=pricing]");

      await press(pricing.getByRole("switch"), testInfo);
      // The visitor engaged: React has been asked for, and is held.
      await react.requested;
      await expectPlanShown(page, "annual");
      await press(pricing.locator(".pricing__option", { hasText: "Monthly" }), testInfo);
      await expectPlanShown(page, "monthly");
      await press(pricing.locator(".pricing__option", { hasText: "Annual" }), testInfo);
      await expectPlanShown(page, "annual");

      await press(pricing.getByRole("link", { name: "Start Monthly" }), testInfo);
      await expect(page.locator("#promotion")).toHaveValue(PROMOTION.monthly);
      await expect(formFocus(page, testInfo)).toBeFocused();
      await expectPlanShown(page, "monthly");
      await page.locator("#pricing").scrollIntoViewIfNeeded();
      await press(pricing.getByRole("link", { name: "Start Annual" }), testInfo);
      await expect(page.locator("#promotion")).toHaveValue(PROMOTION.annual);
      await expect(formFocus(page, testInfo)).toBeFocused();
      await expectPlanShown(page, "annual");

      await fillPerson(page);
      await expect(page.locator("#contact [role=status]")).toHaveText("Great, Brookings area ZIP codes are in our service area.");
      const submit = page.locator("#contact form button[type=submit]");
      await press(submit, testInfo);
      await expect(submit).toHaveText("Submitting…");
      await expect(submit).toBeDisabled();
      await expectNoReact(page);
      expect(service.requests).toHaveLength(0);
      // Each press applied once: switch, two words, two Start buttons; two promotion changes.
      expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY, ANNUAL, MONTHLY, ANNUAL]);
      expect((await promotionChanges(page)).map((change) => change.value)).toEqual([PROMOTION.monthly, PROMOTION.annual]);

      react.release();
      const heading = page.locator("#contact").getByRole("heading", { level: 2 });
      await expect(heading).toHaveText("Thanks — we've got your info!");
      await waitForIsland(page, "pricing");
      await page.locator("#pricing").scrollIntoViewIfNeeded();
      await page.locator("[data-island=pricing][data-hydrated]").waitFor({ state: "attached" });
      // Released: sent once, through the island (no page load), and no press replayed on top.
      expect(service.requests).toHaveLength(1);
      expect(page.url()).not.toContain("formspree");
      expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY, ANNUAL, MONTHLY, ANNUAL]);
      await expectPlanShown(page, "annual", false);
    });
  }

  test.describe("a page that places a second toggle", () => {
    const preview = servedCopy({
      prepare: (root) =>
        replaceOnce(root, "layouts/sections/pricing.html", "{{ islands.pricing }}", '{{ islands.pricing }}\n{{ island("pricing", hydrate="idle") }}'),
    });

    test("each placement's switch and Start button answer, and both toggles and the form agree", async ({ page }, testInfo) => {
      const react = await holdAsset(page, REACT_CHUNK);
      await page.goto(`${preview().origin}/#pricing`);
      await recordPlanEvents(page);
      const second = page.locator("[data-placement=pricing_2]");
      await second.scrollIntoViewIfNeeded();
      await press(second.getByRole("switch"), testInfo);
      await react.requested;
      await expectPlanShown(page, "annual");
      await press(page.locator("[data-placement=pricing]").getByRole("switch"), testInfo);
      await expectPlanShown(page, "monthly");
      await second.scrollIntoViewIfNeeded();
      await press(second.getByRole("link", { name: "Start Annual" }), testInfo);
      await expect(page.locator("#promotion")).toHaveValue(PROMOTION.annual);
      await expectPlanShown(page, "annual");
      await expectNoReact(page);
      expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY, ANNUAL]);

      react.release();
      await page.locator("[data-placement=pricing][data-hydrated]").waitFor({ state: "attached" });
      await second.scrollIntoViewIfNeeded();
      await page.locator("[data-placement=pricing_2][data-hydrated]").waitFor({ state: "attached" });
      expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY, ANNUAL]);
      await expectPlanShown(page, "annual");
    });
  });
});
