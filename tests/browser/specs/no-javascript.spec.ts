// The site with JavaScript turned off: every page reads in full, the prices are shown,
// the menu's links are reachable at every width (a row on wide screens, the browser's own
// popover on phones), the FAQ opens (native <details>), and the contact form posts natively
// to the form service with every field.
import { FORM_URL, PERSON, PROMOTION, bodyFields, expect, expectNoAxeViolations, fieldsObject, test } from "../support/islands";
import { everyOne } from "../support/page-checks";

test.use({ javaScriptEnabled: false });

const pages = [
  { path: "/", h1: /trash bins, at the curb/i, text: "How it works" },
  { path: "/privacypolicy", h1: "Privacy Policy", text: "Formspree" },
  { path: "/termsofservice", h1: "Terms of Service", text: "$250 per year" },
  { path: "/start", h1: "Welcome, neighbor", text: "door hanger" },
  { path: "/missing", h1: "Page not found", text: "Back to the home page" },
];

for (const { path, h1, text } of pages) {
  test(`${path} reads in full, with its menu links, and loads no script`, async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
    await expect(page.locator("main")).toContainText(text);
    // Nothing is left hidden for a script to reveal.
    const sections = await page.locator("main > *").all();
    expect(sections.length, "the parts of the page").toBeGreaterThan(0);
    for (const section of sections) {
      await expect(section).toBeVisible();
      expect(await section.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
    }
    // The links of the menu: on a phone behind its button, which opens without a script.
    const menu = page.getByRole("button", { name: "Menu" });
    if (await menu.isVisible()) await menu.click();
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const name of ["How It Works", "Pricing", "FAQ", "Contact"]) {
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    }
    if ((page.viewportSize()?.width ?? 0) < 768) await expect(menu).toBeVisible();
    else await expect(menu).toBeHidden();
    await expect(page.getByRole("button", { name: "Back to top" })).toBeHidden();
    expect(scripts).toEqual([]);
  });
}

// axe-core runs asynchronously (timers), which a page without JavaScript never fires. So axe
// checks the same view in a page whose HTML is what a browser without JavaScript renders:
// the loader script dropped and the <noscript> stylesheet in force. The real CSP still applies.
test.describe("the no-JavaScript view has no accessibility violations", () => {
  test.use({ javaScriptEnabled: true });

  for (const { path } of pages) {
    test(path, async ({ page, baseURL }) => {
      let rewritten = 0;
      await page.route(
        (url) => url.origin === new URL(baseURL!).origin && !url.pathname.startsWith("/assets/"),
        async (route) => {
          const response = await route.fetch();
          const html = await response.text();
          const body = html
            .replace(/<script data-runtime="[^"]*">[\s\S]*?<\/script>/g, () => (rewritten++, ""))
            .replace(/<noscript>([\s\S]*?)<\/noscript>/g, (_, inner: string) => (rewritten++, inner));
          await route.fulfill({ response, body });
        },
      );
      await page.goto(path);
      // Only a page that places islands has their loader.
      const islands = path === "/" || path === "/start";
      expect(rewritten, "the page's loader script (where it has islands) and its <noscript> stylesheet").toBe(islands ? 2 : 1);
      const menu = page.getByRole("button", { name: "Menu" });
      if (await menu.isVisible()) await menu.click();
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "FAQ" })).toBeVisible();
      if (path === "/") {
        for (const summary of await everyOne(page.locator("#faq summary"))) await summary.click();
      }
      await expectNoAxeViolations(page);
    });
  }
});

test("a menu link leads to its section", async ({ page }) => {
  await page.goto("/termsofservice");
  // On a phone the link is behind the menu's button, which opens without a script.
  const menu = page.getByRole("button", { name: "Menu" });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing", exact: true }).click();
  await expect(page).toHaveURL(/\/#pricing$/);
  await expect(page.locator("#pricing-heading")).toBeInViewport();
});

test("both prices are shown, with no switch that could not work", { tag: "@any-screen" }, async ({ page }) => {
  await page.goto("/");
  await expect(page.locator(".hero__price")).toHaveText("$25 per month");
  const pricing = page.locator("#pricing");
  await expect(pricing.locator(".plan-card__price")).toHaveText(["$25 per month", "$250 per year"]);
  for (const card of await everyOne(pricing.locator(".plan-card"))) await expect(card).toBeVisible();
  await expect(page.getByRole("switch")).toBeHidden();
  await expect(pricing.getByRole("link", { name: "Start Annual" })).toBeVisible();
  await pricing.getByRole("link", { name: "Start Annual" }).click();
  await expect(page).toHaveURL(/#contact$/);
  await expect(page.locator("#contact-heading")).toBeInViewport();
});

test("FAQ entries still open and close", { tag: "@any-screen" }, async ({ page }) => {
  await page.goto("/");
  for (const entry of await everyOne(page.locator("#faq details"))) {
    const answer = entry.locator(".faq__answer");
    await expect(answer).toBeHidden();
    await entry.locator("summary").click();
    await expect(answer).toBeVisible();
  }
  await expect(page.locator("#faq details[open]")).toHaveCount(3);
  await page.locator("#faq summary").first().click();
  await expect(page.locator("#faq details[open]")).toHaveCount(2);
});

test("the form posts natively to the form service with every field", { tag: "@any-screen" }, async ({ page }) => {
  const sent: Array<{ method: string; url: string; contentType: string; fields: Record<string, string> }> = [];
  await page.route("https://formspree.io/f/**", async (route) => {
    const request = route.request();
    sent.push({
      method: request.method(),
      url: request.url(),
      contentType: request.headers()["content-type"] ?? "",
      fields: fieldsObject(await bodyFields(request)),
    });
    await route.fulfill({
      status: 200,
      contentType: "text/html; charset=utf-8",
      body: "<!doctype html><title>Thanks</title><h1>The form service's own thank-you page</h1>",
    });
  });
  await page.goto("/#contact");
  // The browser still checks the required fields.
  await page.locator("#contact form button[type=submit]").click();
  await expect(page.locator("#firstName")).toBeFocused();
  expect(sent).toHaveLength(0);

  for (const [name, value] of Object.entries(PERSON)) await page.locator(`#contact [name="${name}"]`).fill(value);
  await page.locator("#promotion").selectOption(PROMOTION.monthly);
  await Promise.all([page.waitForURL(FORM_URL), page.locator("#contact form button[type=submit]").click()]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("The form service's own thank-you page");
  expect(sent).toHaveLength(1);
  expect(sent[0]?.method).toBe("POST");
  expect(sent[0]?.url).toBe(FORM_URL);
  expect(sent[0]?.contentType).toMatch(/^application\/x-www-form-urlencoded/);
  // The hidden plan fields carry the server's default, the monthly plan.
  expect(sent[0]?.fields).toEqual({
    ...PERSON,
    promotion: PROMOTION.monthly,
    plan_type: "monthly",
    plan_amount: "25",
    billing_frequency: "monthly",
    _gotcha: "",
  });
});
