// What a visitor sees of the page's own layout, in Chromium at both project sizes:
// printing never hides a section, the back-to-top button never covers text or a
// control, the header is opaque and on one line down to 320 px, the billing options,
// the focused pill controls and the plan select look the same in every engine.
// The Firefox and WebKit journeys (tests/browser/engines/) ask the same questions
// through the same in-page probes.
import type { Page } from "@playwright/test";
import { expect, test } from "../support/page-checks";
import { backToTopReport, focusedRadius, headerFacts, styleFacts } from "../support/layout-probes.mjs";

/** Waits until the page has stopped scrolling (the site scrolls smoothly). */
async function settled(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            const first = window.scrollY;
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY === first)));
          }),
      ),
    )
    .toBe(true);
}

/** The runtime has started and hidden the sections below the fold. */
async function revealArmed(page: Page): Promise<void> {
  await expect(page.locator("[data-reveal].reveal:not(.revealed)").first()).toBeAttached();
}

test.describe("print", () => {
  test("printing shows every section, even those the reveal animation still hides", async ({ page }) => {
    await page.goto("/");
    await revealArmed(page);
    const hidden = await page.locator("[data-reveal].reveal:not(.revealed)").count();
    expect(hidden).toBeGreaterThan(0);

    await page.emulateMedia({ media: "print" });
    const sections = await page.locator("[data-reveal]").evaluateAll((elements) =>
      elements.map((el) => ({ id: el.id, opacity: getComputedStyle(el).opacity, transform: getComputedStyle(el).transform })),
    );
    expect(sections.length, "sections that reveal on scroll").toBeGreaterThan(0);
    for (const section of sections) {
      expect(section, section.id).toEqual({ id: section.id, opacity: "1", transform: "none" });
    }
    await expect(page.locator("#pricing .plan-card").first()).toBeVisible();
    await expect(page.locator("#faq .faq__item").first()).toBeVisible();
    // Nothing that only works on a screen is printed.
    await expect(page.locator(".site-menu__toggle")).toBeHidden();

    // Saving as PDF works in headless Chromium, and the PDF holds the text of the hidden sections.
    const pdf = await page.pdf({ format: "Letter", printBackground: true });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.length).toBeGreaterThan(10_000);
  });
});

test.describe("back to top", () => {
  // The project's own size, and on the desktop also a width where it sits in the strip.
  for (const size of ["project", "1024x768"] as const) {
    test(`never covers text or a control, at every stop of a wheel scroll down to the very bottom (${size})`, async ({
      page,
    }, info) => {
      test.skip(size !== "project" && info.project.name !== "desktop", "a second desktop width");
      if (size !== "project") await page.setViewportSize({ width: 1024, height: 768 });
      await sweep(page);
    });
  }
});

/** Scrolls down with the mouse wheel to the very bottom, checking the button at every stop. */
async function sweep(page: Page): Promise<void> {
  await page.goto("/");
  await revealArmed(page);
  const viewport = page.viewportSize();
  if (!viewport) throw new Error("no viewport");
  await page.mouse.move(viewport.width / 2, viewport.height / 2);

  const stops: Array<{ scrollY: number; shown: boolean }> = [];
  let previous = -1;
  // Bounded: the page is a few screens long; each wheel step moves a third of a screen.
  for (let step = 0; step < 80; step++) {
    await page.mouse.wheel(0, Math.round(viewport.height / 3));
    await settled(page);
    const report = await page.evaluate(backToTopReport);
    stops.push({ scrollY: report.scrollY, shown: report.shown });
    if (report.shown) expect(report.checked, "texts and controls looked at").toBeGreaterThan(0);
    expect(report.visibleUnder, `covered at scrollY ${report.scrollY}: ${JSON.stringify(report.visibleUnder)}`).toEqual([]);
    if (report.atBottom || report.scrollY === previous) {
      // At the very bottom the button is shown and nothing at all is under it or its strip.
      expect(report.shown).toBe(true);
      expect(report.anyUnder, `under the button at the bottom: ${JSON.stringify(report.anyUnder)}`).toEqual([]);
      break;
    }
    previous = report.scrollY;
  }
  expect(stops.at(-1)?.shown).toBe(true);
  // The sweep really went through the page with the button shown.
  expect(stops.filter((stop) => stop.shown).length).toBeGreaterThan(5);

  // The button still works from its place.
  await page.getByRole("button", { name: "Back to top" }).click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
}

test.describe("header", () => {
  test("is fully opaque", async ({ page }) => {
    await page.goto("/");
    expect((await page.evaluate(styleFacts)).headerBackground).toBe("rgb(255, 255, 255)");
  });

  test("stays on one line from 390 px down to 320 px", async ({ page }, info) => {
    test.skip(info.project.name !== "phone", "phone widths");
    await page.goto("/");
    for (const width of [390, 378, 375, 368, 360, 340, 320]) {
      await page.setViewportSize({ width, height: 844 });
      const facts = await page.evaluate(headerFacts);
      expect(facts, `at ${width} px`).toEqual({
        layoutWidth: width,
        headerHeight: 61,
        nameLines: 1,
        overflowsSideways: false,
        toggleRight: expect.any(Number) as unknown as number,
        iconWidth: expect.any(Number) as unknown as number,
      });
      expect(facts.toggleRight!, `menu button inside the page at ${width} px`).toBeLessThanOrEqual(width);
      expect(facts.iconWidth, `the menu icon shows at ${width} px`).toBeGreaterThan(10);
    }
  });
});

test.describe("how it works", () => {
  test("step 1 asks only for what the form collects", async ({ page }) => {
    await page.goto("/");
    const step = (await page.locator("#how-it-works .step").first().locator(".step__text").textContent()) ?? "";
    const labels = (await page.locator("#contact form label").allTextContents()).join(" | ").toLowerCase();
    expect(labels).not.toContain("pickup");
    expect(step.toLowerCase()).not.toMatch(/tell us your pickup day/);
    // Each thing step 1 names is a field of the form.
    for (const [said, field] of [
      ["address", "street address"],
      ["email", "email"],
      ["mobile", "mobile phone"],
    ] as const) {
      expect(step.toLowerCase(), `step 1 names ${said}`).toContain(said);
      expect(labels, `the form has ${field}`).toContain(field);
    }
  });
});

test.describe("styles every engine draws alike", () => {
  test("the active billing option is underlined by longhands; both options cannot be selected as text", async ({ page }) => {
    await page.goto("/");
    const facts = await page.evaluate(styleFacts);
    expect(facts.activeOption.line).toBe("underline");
    expect(facts.activeOption.thickness).toBe("2px");
    expect(facts.activeOption.color).toBe(facts.activeOption.textColor);
    expect(facts.activeOption.userSelect).toBe("none");
    expect(facts.inactiveOption).toEqual({ line: "underline", color: "rgba(0, 0, 0, 0)" });
  });

  test("the plan select is drawn by the page, as tall as the other fields", async ({ page }) => {
    await page.goto("/");
    const facts = await page.evaluate(styleFacts);
    expect(facts.select.appearance).toBe("none");
    expect(facts.select.backgroundImage).toMatch(/^url\("data:image\/svg\+xml/);
    expect(facts.select.height).toBe(44);
    expect(facts.zipHeight).toBe(44);
  });

  test("the switch keeps its pill shape when focused from the keyboard", async ({ page }) => {
    await page.goto("/");
    const switchControl = page.getByRole("switch");
    for (let tab = 0; tab < 40 && !(await switchControl.evaluate((el) => el === document.activeElement)); tab++) {
      await page.keyboard.press("Tab");
    }
    const focused = await page.evaluate(focusedRadius);
    expect(focused.className).toContain("pricing__switch");
    expect(focused.focusVisible).toBe(true);
    expect(focused.radius).toBe("999px 999px 999px 999px");
  });

  test("the menu button keeps its pill shape when focused from the keyboard", async ({ page }, info) => {
    test.skip(info.project.name !== "phone", "the menu button shows at phone width");
    await page.goto("/");
    const toggle = page.locator(".site-menu__toggle");
    for (let tab = 0; tab < 10 && !(await toggle.evaluate((el) => el === document.activeElement)); tab++) {
      await page.keyboard.press("Tab");
    }
    const focused = await page.evaluate(focusedRadius);
    expect(focused.className).toContain("site-menu__toggle");
    expect(focused.focusVisible).toBe(true);
    expect(focused.radius).toBe("999px 999px 999px 999px");
  });
});
