// The islands in a real browser, on the built site served with its real CSP:
// the pricing toggle (with the Start buttons and its agreement with the form's plan
// select), the header menu (a popover, no island), and the two plain behaviours of the runtime (back to top,
// reveal on scroll). Every state is checked with axe; the fixture fails a test on any
// console error or warning, so a hydration mismatch fails it too.
import type { Locator, Page } from "@playwright/test";
import {
  ANNUAL,
  MONTHLY,
  PROMOTION,
  expect,
  expandedState,
  expectNoAxeViolations,
  holdAsset,
  nextFrames,
  planEventSources,
  planEvents,
  promotionChanges,
  recordPlanEvents,
  scrollInstantly,
  test,
  waitForIsland,
} from "../support/islands";

type PlanType = "monthly" | "annual";

const billingSwitch = (page: Page): Locator => page.getByRole("switch", { name: "Billing Annual" });
const toggleOption = (page: Page, text: "Monthly" | "Annual"): Locator =>
  page.locator(".pricing__toggle .pricing__option", { hasText: text });

async function savedPlan(page: Page): Promise<string | null> {
  return page.evaluate(() => window.localStorage.getItem("plan"));
}

/** Everything the pricing island shows for a plan: switch, highlighted word, highlighted card. */
async function expectPricingShows(page: Page, plan: PlanType): Promise<void> {
  await expect(billingSwitch(page)).toHaveAttribute("aria-checked", String(plan === "annual"));
  await expect(page.locator(".pricing")).toHaveAttribute("data-current-plan", plan);
  // The highlight a sighted visitor sees: the chosen card is raised, the other is not.
  const other = plan === "annual" ? "monthly" : "annual";
  await expect(page.locator(`.plan-card[data-plan="${plan}"]`)).not.toHaveCSS("box-shadow", "none");
  await expect(page.locator(`.plan-card[data-plan="${other}"]`)).toHaveCSS("box-shadow", "none");
}

/** The form's hidden plan fields. */
async function expectHiddenPlanFields(page: Page, plan: typeof ANNUAL | typeof MONTHLY): Promise<void> {
  await expect(page.locator("#plan_type")).toHaveValue(plan.planType);
  await expect(page.locator("#plan_amount")).toHaveValue(String(plan.amount));
  await expect(page.locator("#billing_frequency")).toHaveValue(plan.frequency);
}

async function openPricing(page: Page): Promise<void> {
  await page.goto("/#pricing");
  await waitForIsland(page, "pricing");
  await recordPlanEvents(page);
}

test.describe("the runtime", { tag: "@any-screen" }, () => {
  // Pages that place islands (the legal pages and the 404 place none: see no-island.spec.ts).
  for (const path of ["/", "/start"]) {
    test(`${path}: is fetched only once the page has painted`, async ({ page }) => {
      await page.goto(path);
      const handle = await page.waitForFunction(() => {
        const paint = performance.getEntriesByName("first-contentful-paint")[0];
        const runtime = performance
          .getEntriesByType("resource")
          .find((entry) => /\/assets\/islands-[\w-]+\.js$/.test(entry.name));
        return paint && runtime ? { paint: paint.startTime, runtime: runtime.startTime } : null;
      });
      const timing = await handle.jsonValue();
      if (!timing) throw new Error("no paint or runtime timing");
      // Reading the page needs no JavaScript: the runtime never competes with the first paint.
      expect(timing.runtime).toBeGreaterThanOrEqual(timing.paint);
    });
  }
});

test.describe("the islands' code waits for the visitor", () => {
  // On the phone and on the desktop alike: nothing but the runtime is fetched before a scroll,
  // tap, key or focus, however long the page stays open.
  for (const path of ["/", "/start"]) {
    test(`${path}: a visit that never engages fetches the runtime and no other script; the first key fetches React`, async ({ page }) => {
      const scripts: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(path);
      const runtime = await page.locator("script[data-runtime]").getAttribute("data-runtime");
      await page.waitForLoadState("networkidle");
      // Past the runtime's start (after the first paint, or a second after load) and idle callbacks.
      await page.waitForFunction(
        (file) => (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).some((entry) => entry.name.endsWith(file ?? "-") && entry.responseEnd > 0),
        runtime,
      );
      await page.evaluate(
        () => new Promise<void>((resolve) => requestIdleCallback(() => requestIdleCallback(() => resolve()), { timeout: 3000 })),
      );
      await nextFrames(page);
      expect(scripts, "scripts fetched before any engagement").toEqual([runtime]);
      // The later positive signal: the page was listening all along, and the first key asks for
      // React's chunk, so the silence before it was the rule and not a runtime that never started.
      const react = page.waitForRequest(/\/assets\/chunk-[\w-]+\.js$/);
      await page.keyboard.press("Tab");
      await react;
    });
  }
});

test.describe("pricing island", () => {
  test("the switch toggles monthly ⇄ annual by click, saving and announcing each change", async ({ page }) => {
    await openPricing(page);
    await expectPricingShows(page, "monthly");
    expect(await savedPlan(page)).toBeNull();
    await expectNoAxeViolations(page);

    await billingSwitch(page).click();
    await expectPricingShows(page, "annual");
    expect(await savedPlan(page)).toBe("annual");
    expect(await planEvents(page)).toEqual([ANNUAL]);
    await expectNoAxeViolations(page);

    await billingSwitch(page).click();
    await expectPricingShows(page, "monthly");
    expect(await savedPlan(page)).toBe("monthly");
    expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY]);
  });

  test("clicking either label chooses that plan; the chosen one changes nothing", { tag: "@any-screen" }, async ({ page }) => {
    await openPricing(page);
    await toggleOption(page, "Annual").click();
    await expectPricingShows(page, "annual");
    expect(await savedPlan(page)).toBe("annual");
    await toggleOption(page, "Annual").click();
    await toggleOption(page, "Monthly").click();
    await expectPricingShows(page, "monthly");
    expect(await savedPlan(page)).toBe("monthly");
    await toggleOption(page, "Monthly").click();
    await expectPricingShows(page, "monthly");
    expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY]);
  });

  test("the switch works from the keyboard: Tab to it, then Space or Enter", { tag: "@any-screen" }, async ({ page }) => {
    await openPricing(page);
    // From the hero's button the next Tab stop is the switch (nothing in between is focusable).
    await page.getByRole("link", { name: "Start Service" }).focus();
    await page.keyboard.press("Tab");
    await expect(billingSwitch(page)).toBeFocused();
    await page.keyboard.press("Space");
    await expectPricingShows(page, "annual");
    await page.keyboard.press("Enter");
    await expectPricingShows(page, "monthly");
    await page.keyboard.press(" ");
    await expectPricingShows(page, "annual");
    await expect(billingSwitch(page)).toBeFocused();
    expect(await savedPlan(page)).toBe("annual");
    expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY, ANNUAL]);
  });

  test("a saved annual plan shows from the first paint on reload, without any layout shift", async ({ page }) => {
    await page.addInitScript(() => {
      const w = window as unknown as {
        __shifts: Array<{ value: number; sources: string[] }>;
        __atLoad: { checked: string | null; boxes: number[][] } | null;
      };
      w.__shifts = [];
      w.__atLoad = null;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; sources?: Array<{ node?: Node }> }>) {
          const sources = (entry.sources ?? []).map((s) =>
            s.node instanceof Element ? `${s.node.tagName}.${s.node.className}` : String(s.node?.nodeName),
          );
          w.__shifts.push({ value: entry.value, sources });
        }
      }).observe({ type: "layout-shift", buffered: true });
      // Geometry of the server HTML (before hydration), relative to the island's own box.
      // The switch's thumb is left out: it slides by a transform, which moves no layout.
      document.addEventListener("DOMContentLoaded", () => {
        const island = document.querySelector(".pricing");
        if (!island) return;
        const origin = island.getBoundingClientRect();
        w.__atLoad = {
          checked: document.querySelector(".pricing__switch")?.getAttribute("aria-checked") ?? null,
          boxes: Array.from(island.querySelectorAll(":not(.pricing__switch-thumb)")).map((el) => {
            const r = el.getBoundingClientRect();
            return [r.left - origin.left, r.top - origin.top, r.width, r.height].map((n) => Math.round(n * 10) / 10);
          }),
        };
      });
    });
    await openPricing(page);
    await billingSwitch(page).click();
    await expectPricingShows(page, "annual");
    expect(await savedPlan(page)).toBe("annual");

    await page.reload();
    await waitForIsland(page, "pricing");
    await expectPricingShows(page, "annual");
    await expect(billingSwitch(page)).toBeInViewport();
    await nextFrames(page);
    const result = await page.evaluate(() => {
      const w = window as unknown as {
        __shifts: Array<{ value: number; sources: string[] }>;
        __atLoad: { checked: string | null; boxes: number[][] } | null;
      };
      const island = document.querySelector(".pricing") as Element;
      const origin = island.getBoundingClientRect();
      const boxes = Array.from(island.querySelectorAll(":not(.pricing__switch-thumb)")).map((el) => {
        const r = el.getBoundingClientRect();
        return [r.left - origin.left, r.top - origin.top, r.width, r.height].map((n) => Math.round(n * 10) / 10);
      });
      return { shifts: w.__shifts, atLoad: w.__atLoad, boxes };
    });
    // The saved plan shows from the start, before any island code has arrived (the loader's plan script)...
    expect(result.atLoad?.checked).toBe("true");
    // ...and moved nothing: no layout shift at all during load, hydration and restore,
    expect(result.shifts).toEqual([]);
    // and every box of the island has the size and place it had in the server HTML.
    expect(result.boxes).toEqual(result.atLoad?.boxes);
  });

  test("any saved value other than annual means monthly", { tag: "@any-screen" }, async ({ page }) => {
    await openPricing(page);
    for (const value of ["Annual", "yearly", "annual ", '"annual"', "true", "", "monthly"]) {
      await page.evaluate((v) => window.localStorage.setItem("plan", v), value);
      await page.reload();
      await waitForIsland(page, "pricing");
      await expectPricingShows(page, "monthly");
      await expectHiddenPlanFields(page, MONTHLY);
      // Reading is not writing: the odd value is left for whoever wrote it.
      expect(await savedPlan(page)).toBe(value);
    }
  });

  test("Start Annual / Start Monthly choose the promotion, fire its change event and lead to the form", async ({ page }) => {
    await openPricing(page);
    const promotion = page.locator("#promotion");
    await expect(promotion).toHaveValue(PROMOTION.none);

    // The contact island is not hydrated yet: the select is still the server's HTML.
    await page.getByRole("link", { name: "Start Annual" }).click();
    await expect(promotion).toHaveValue(PROMOTION.annual);
    expect(await promotionChanges(page)).toEqual([{ value: PROMOTION.annual, bubbles: true }]);
    expect(await planEvents(page), (await planEventSources(page)).join("\n")).toEqual([ANNUAL]);
    expect(await savedPlan(page)).toBe("annual");
    await expectPricingShows(page, "annual");
    await expect(page.locator("#firstName")).toBeFocused();
    await expect(page.locator("#contact")).toBeInViewport();
    // Focusing the first field hydrates the form: it keeps the choice and follows the plan.
    await waitForIsland(page, "contact");
    await expect(promotion).toHaveValue(PROMOTION.annual);
    await expectHiddenPlanFields(page, ANNUAL);
    await expectNoAxeViolations(page);

    await page.getByRole("link", { name: "Start Monthly" }).click();
    await expect(promotion).toHaveValue(PROMOTION.monthly);
    expect(await promotionChanges(page)).toEqual([
      { value: PROMOTION.annual, bubbles: true },
      { value: PROMOTION.monthly, bubbles: true },
    ]);
    // One announcement per change: the form hearing the select does not announce it again.
    expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY]);
    expect(await savedPlan(page)).toBe("monthly");
    await expectPricingShows(page, "monthly");
    await expectHiddenPlanFields(page, MONTHLY);
    await expect(page.locator("#firstName")).toBeFocused();
    await expect(page.locator("#contact")).toBeInViewport();

    // Start on the plan already chosen: the promotion is set again, no plan change.
    await page.getByRole("link", { name: "Start Monthly" }).click();
    await expect(promotion).toHaveValue(PROMOTION.monthly);
    expect(await promotionChanges(page)).toHaveLength(3);
    expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY]);
    await expect(page.locator("#firstName")).toBeFocused();
  });

  test("a Start button tapped on a touch screen leaves focus on the form's heading, not in a field; pressed with a key, in the first field", async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== "phone", "a tap needs the touch screen");
    await openPricing(page);
    // A focused field would open the on-screen keyboard over the form while the page scrolls to it.
    await page.getByRole("link", { name: "Start Annual" }).tap();
    await expect(page.locator("#promotion")).toHaveValue(PROMOTION.annual);
    const heading = page.getByRole("heading", { name: "Start your service" });
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport();
    await expectNoAxeViolations(page);

    // A key press means a keyboard: the first field, ready for typing.
    await page.getByRole("link", { name: "Start Monthly" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.locator("#promotion")).toHaveValue(PROMOTION.monthly);
    await expect(page.locator("#firstName")).toBeFocused();
  });

  test("Start Annual still does its whole job when React never arrives", { tag: "@any-screen" }, async ({ page, allowConsole }) => {
    // Every chunk but the runtime fails, as on a flaky connection: React and the islands never hydrate.
    await page.route(/\/assets\/(?!islands-)[\w-]+\.js$/, (route) => route.abort("connectionfailed"));
    allowConsole(/Failed to load resource: net::ERR_CONNECTION_FAILED/);
    allowConsole(/\[islands\] (pricing|contact): could not hydrate/);
    await page.goto("/#pricing");
    await recordPlanEvents(page);
    await page.getByRole("link", { name: "Start Annual" }).click();
    // The server-rendered select and plan fields carry the choice, and the toggle shows it.
    await expect(page.locator("#promotion")).toHaveValue(PROMOTION.annual);
    await expectHiddenPlanFields(page, ANNUAL);
    await expectPricingShows(page, "annual");
    await expect(page.locator("#firstName")).toBeFocused();
    expect(await promotionChanges(page)).toEqual([{ value: PROMOTION.annual, bubbles: true }]);
    expect(await planEvents(page)).toEqual([ANNUAL]);
    expect(await page.locator("[data-island][data-hydrated]").count()).toBe(0);
  });

  test("a Start choice made earlier in the visit is in the form when it is reached from another page", { tag: "@any-screen" }, async ({ page }) => {
    await openPricing(page);
    await page.getByRole("link", { name: "Start Annual" }).click();
    await expect(page.locator("#promotion")).toHaveValue(PROMOTION.annual);
    // On to the privacy policy, then back to the form through the site's own links.
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL(/\/privacypolicy$/);
    await page.goto("/#contact");
    await expect(page.locator("#promotion")).toHaveValue(PROMOTION.annual);
    await expectHiddenPlanFields(page, ANNUAL);
    await expectPricingShows(page, "annual");
    await waitForIsland(page, "contact");
    await expect(page.locator("#promotion")).toHaveValue(PROMOTION.annual);
    await expectHiddenPlanFields(page, ANNUAL);
  });

  test("the switch and the form's plan select agree, both ways", { tag: "@any-screen" }, async ({ page }) => {
    await openPricing(page);
    await page.locator("#contact").scrollIntoViewIfNeeded();
    await waitForIsland(page, "contact");
    const promotion = page.locator("#promotion");
    await expect(promotion).toHaveValue(PROMOTION.none);
    await expectHiddenPlanFields(page, MONTHLY);

    // Toggle with 'Just Curious' chosen: the plan changes, the select stays 'Just Curious'.
    await billingSwitch(page).click();
    await expectPricingShows(page, "annual");
    await expectHiddenPlanFields(page, ANNUAL);
    await expect(promotion).toHaveValue(PROMOTION.none);
    await billingSwitch(page).click();
    await expectHiddenPlanFields(page, MONTHLY);
    await expect(promotion).toHaveValue(PROMOTION.none);
    expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY]);

    // Choosing a plan in the select chooses that plan.
    await promotion.selectOption(PROMOTION.annual);
    await expectPricingShows(page, "annual");
    await expectHiddenPlanFields(page, ANNUAL);
    expect(await savedPlan(page)).toBe("annual");
    expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY, ANNUAL]);

    // Toggling while the select names a plan moves the select along.
    await billingSwitch(page).click();
    await expect(promotion).toHaveValue(PROMOTION.monthly);
    await expectHiddenPlanFields(page, MONTHLY);
    await toggleOption(page, "Annual").click();
    await expect(promotion).toHaveValue(PROMOTION.annual);
    await expectHiddenPlanFields(page, ANNUAL);
    expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY, ANNUAL, MONTHLY, ANNUAL]);

    // Choosing the plan that is already current announces nothing.
    await promotion.selectOption(PROMOTION.annual);
    await expectHiddenPlanFields(page, ANNUAL);

    // 'Just Curious' leaves the plan alone...
    await promotion.selectOption(PROMOTION.none);
    await expectPricingShows(page, "annual");
    await expectHiddenPlanFields(page, ANNUAL);
    expect(await savedPlan(page)).toBe("annual");
    // ...and stays when the plan is toggled.
    await billingSwitch(page).click();
    await expect(promotion).toHaveValue(PROMOTION.none);
    await expectHiddenPlanFields(page, MONTHLY);

    // The monthly option from an annual plan.
    await billingSwitch(page).click();
    await promotion.selectOption(PROMOTION.monthly);
    await expectPricingShows(page, "monthly");
    await expectHiddenPlanFields(page, MONTHLY);
    expect(await savedPlan(page)).toBe("monthly");
    expect(await planEvents(page)).toEqual([ANNUAL, MONTHLY, ANNUAL, MONTHLY, ANNUAL, MONTHLY, ANNUAL, MONTHLY]);
    await expectNoAxeViolations(page);
  });
});

/** Each transition inside an island that is not a transform or an opacity, as "element: property duration". */
async function paintedTransitions(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const compositorOnly = new Set(["transform", "opacity"]);
    const found: string[] = [];
    for (const island of document.querySelectorAll("[data-island]")) {
      for (const element of [island, ...island.querySelectorAll("*")]) {
        for (const pseudo of [null, "::before", "::after"]) {
          const style = getComputedStyle(element, pseudo);
          const properties = style.transitionProperty.split(",").map((name) => name.trim());
          const durations = style.transitionDuration.split(",").map((value) => Number.parseFloat(value));
          properties.forEach((property, n) => {
            const seconds = durations[n % durations.length] ?? 0;
            if (seconds > 0 && !compositorOnly.has(property)) {
              found.push(`${element.tagName.toLowerCase()}.${[...element.classList].join(".")}${pseudo ?? ""}: ${property} ${seconds}s`);
            }
          });
        }
      }
    }
    return found;
  });
}

test.describe("a press inside an island", () => {
  // Every transition inside an island also sends its start and end through React's listeners, and a
  // transition of a colour or a shadow repaints on the main thread at every frame it runs, on a slow
  // phone in front of the next press. A transform or an opacity is the compositor's own.
  test("transitions nothing inside an island but a transform or an opacity, in either plan, before and after hydration", async ({ page }) => {
    await page.goto("/#pricing");
    expect(await paintedTransitions(page), "before hydration, the monthly plan").toEqual([]);
    await waitForIsland(page, "pricing");
    await billingSwitch(page).click();
    await expectPricingShows(page, "annual");
    expect(await paintedTransitions(page), "hydrated, the annual plan").toEqual([]);
  });
});

test.describe("header menu at phone width", () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) >= 768, "the menu collapses only below 48rem");

  const menuButton = (page: Page): Locator => page.getByRole("button", { name: "Menu" });
  const menuList = (page: Page): Locator => page.locator("#site-nav-list");

  async function expectClosed(page: Page): Promise<void> {
    await expect.poll(() => expandedState(page, ".site-menu__toggle")).toBe(false);
    await expect(menuList(page)).toBeHidden();
  }

  async function open(page: Page): Promise<void> {
    await menuButton(page).click();
    await expect.poll(() => expandedState(page, ".site-menu__toggle")).toBe(true);
    await expect(menuList(page)).toBeVisible();
  }

  test("opens at the first tap while the runtime has not arrived: the browser's own popover", async ({ page }) => {
    const runtime = await holdAsset(page, /\/assets\/islands-[\w-]+\.js$/);
    await page.goto("/");
    await runtime.requested;
    await open(page);
    runtime.release();
  });

  test("the links sit behind a toggle button that opens and closes", async ({ page }) => {
    await page.goto("/");
    await expect(menuButton(page)).toBeVisible();
    await expectClosed(page);
    await expect(page.getByRole("link", { name: "Pricing", exact: true })).toBeHidden();

    await open(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(["How It Works", "Pricing", "FAQ", "Contact"]);
    await expectNoAxeViolations(page);

    await menuButton(page).click();
    await expectClosed(page);
    await expectNoAxeViolations(page);

    // The keyboard: Enter on the focused button.
    await menuButton(page).focus();
    await page.keyboard.press("Enter");
    await expect(menuList(page)).toBeVisible();
    await page.keyboard.press("Enter");
    await expectClosed(page);
  });

  test("choosing a link closes the menu and goes to the section", async ({ page }) => {
    await page.goto("/");
    await open(page);
    await page.getByRole("link", { name: "FAQ", exact: true }).click();
    await expectClosed(page);
    await expect(page).toHaveURL(/\/#faq$/);
    await expect(page.locator("#faq-heading")).toBeInViewport();

    // From a page with no script at all, the link leads to the home page's section.
    await page.goto("/privacypolicy");
    await open(page);
    await page.getByRole("link", { name: "Pricing", exact: true }).click();
    await expect(page).toHaveURL(/\/#pricing$/);
    await expect(page.locator("#pricing-heading")).toBeInViewport();
    await expectClosed(page);
  });

  test("Escape closes the menu and gives focus back to the button", async ({ page }) => {
    await page.goto("/");
    await open(page);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "How It Works" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expectClosed(page);
    await expect(menuButton(page)).toBeFocused();
  });

  test("a click outside the menu closes it; a click inside does not", async ({ page }) => {
    await page.goto("/");
    await open(page);
    // Inside the panel but on no link (its bottom padding): stays open.
    const box = (await menuList(page).boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height - 4);
    await expect(menuList(page)).toBeVisible();
    expect(await expandedState(page, ".site-menu__toggle")).toBe(true);
    // Below the panel, on the page.
    const viewport = page.viewportSize()!;
    await page.mouse.click(viewport.width / 2, viewport.height - 40);
    await expectClosed(page);
  });
});

test.describe("menu at desktop width", () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) < 768, "desktop layout only");

  for (const path of ["/", "/privacypolicy", "/termsofservice", "/missing"]) {
    test(`${path}: links shown, and no React JavaScript fetched before any scroll or tap`, async ({ page }) => {
      const scripts: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      // Past the runtime's idle callbacks (a media strategy hydrates at idle).
      await page.evaluate(
        () => new Promise<void>((resolve) => requestIdleCallback(() => requestIdleCallback(() => resolve()), { timeout: 3000 })),
      );
      await nextFrames(page);
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const name of ["How It Works", "Pricing", "FAQ", "Contact"]) {
        await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
      }
      await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
      // The home page starts its islands' runtime; the others place no island and run nothing.
      expect(scripts).toHaveLength(path === "/" ? 1 : 0);
      if (path === "/") expect(scripts[0]).toMatch(/^\/assets\/islands-[\w-]+\.js$/);
    });
  }

  test("narrowing the window to phone width brings the working menu", async ({ page }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await page.setViewportSize({ width: 390, height: 844 });
    const button = page.getByRole("button", { name: "Menu" });
    await expect(button).toBeVisible();
    await button.click();
    await expect(page.locator("#site-nav-list")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.locator("#site-nav-list")).toBeHidden();
  });
});

test.describe("back to top", () => {
  test("appears only after more than 300 px of scrolling and returns to the top", async ({ page }) => {
    await page.goto("/");
    const button = page.getByRole("button", { name: "Back to top" });
    await expect(button).toBeHidden();
    for (const [y, shown] of [
      [250, false],
      [350, true],
      [300, false],
      [301, true],
      [250, false],
      [350, true],
    ] as const) {
      await scrollInstantly(page, y);
      expect(await page.evaluate(() => window.scrollY)).toBe(y);
      if (shown) await expect(button).toBeVisible();
      else await expect(button).toBeHidden();
    }
    await scrollInstantly(page, 2000);
    await expectNoAxeViolations(page);
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(button).toBeHidden();
    // Keyboard users continue from the top too.
    await expect(page.locator("main#main")).toBeFocused();
  });
});

test.describe("reveal on scroll", () => {
  async function revealState(page: Page) {
    return page.locator("[data-reveal]").evaluateAll((elements) =>
      elements.map((el) => ({
        id: el.id,
        className: el.className,
        opacity: getComputedStyle(el).opacity,
        inView: el.getBoundingClientRect().top < window.innerHeight && el.getBoundingClientRect().bottom > 0,
      })),
    );
  }

  test("with reduced motion no section is ever hidden", { tag: "@any-screen" }, async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    for (const y of [0, 1500, 100_000]) {
      await scrollInstantly(page, y);
      await nextFrames(page);
      const sections = await revealState(page);
      expect(sections.length, "sections that reveal on scroll").toBeGreaterThan(0);
      for (const section of sections) {
        expect(section.className, section.id).not.toMatch(/\breveal\b/);
        expect(section.opacity, section.id).toBe("1");
      }
    }
    await expect(page.locator("#faq-heading")).toBeVisible();
  });

  test("sections out of view are revealed once 15% of them is visible", async ({ page }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    const atLoad = await revealState(page);
    expect(atLoad.length).toBeGreaterThanOrEqual(3);
    for (const section of atLoad) {
      const locator = page.locator(`[data-reveal]#${section.id}`);
      if (section.inView) {
        // In view at load: never hidden, no flash.
        expect(section.className, section.id).not.toMatch(/\breveal\b/);
        expect(section.opacity, section.id).toBe("1");
      } else {
        // Out of view: hidden until it is scrolled to (it may still be fading out, unseen).
        expect(section.className, section.id).toMatch(/\breveal\b/);
        expect(section.className, section.id).not.toMatch(/\brevealed\b/);
        await expect.poll(() => locator.evaluate((el) => getComputedStyle(el).opacity), { message: section.id }).toBe("0");
      }
    }
    const faq = page.locator("#faq");
    expect(atLoad.find((s) => s.id === "faq")?.inView).toBe(false);

    /** Scrolls so that `fraction` of the FAQ section's (current, transformed) box is in view. */
    const showFraction = async (fraction: number): Promise<void> => {
      const top = await faq.evaluate(
        (el, f) => {
          const r = el.getBoundingClientRect();
          return Math.round(window.scrollY + r.top + r.height * f - window.innerHeight);
        },
        fraction,
      );
      await scrollInstantly(page, top);
      await nextFrames(page);
      await nextFrames(page);
    };
    await showFraction(0.05);
    await expect(faq).not.toHaveClass(/\brevealed\b/);
    await showFraction(0.3);
    await expect(faq).toHaveClass(/\brevealed\b/);
    await expect.poll(() => faq.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
    await expect(page.locator("#faq-heading")).toBeVisible();

    // Scrolling down a screen at a time reveals every section on the way.
    const [height, viewport] = await page.evaluate(() => [document.documentElement.scrollHeight, window.innerHeight]);
    for (let y = 0; y < height; y += Math.floor(viewport! / 2)) {
      await scrollInstantly(page, y);
      await nextFrames(page);
    }
    await expect(page.locator("[data-reveal].reveal:not(.revealed)")).toHaveCount(0);
  });
});
