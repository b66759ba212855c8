import { test, expect, expectNoAxeViolations } from "../support/page-checks";

const routes = [
  { path: "/", status: 200, h1: /trash bins, at the curb/i },
  { path: "/privacypolicy", status: 200, h1: "Privacy Policy" },
  { path: "/termsofservice", status: 200, h1: "Terms of Service" },
  { path: "/no-such-page", status: 404, h1: "Page not found" },
  { path: "/pricing/extra", status: 404, h1: "Page not found" },
];

for (const route of routes) {
  test(`${route.path} answers ${route.status} with its own title, description and canonical URL`, { tag: "@any-screen" }, async ({ page }) => {
    const response = await page.goto(route.path);
    expect(response?.status()).toBe(route.status);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(route.h1);
    await expect(page).toHaveTitle(/Curbside Brookings$/);
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description?.length).toBeGreaterThan(30);
    if (route.status === 404) {
      // It answers for every unknown address, so it claims none and is not indexed.
      await expect(page.locator('link[rel="canonical"], meta[property="og:url"]')).toHaveCount(0);
      expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
    } else {
      expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toMatch(/^https:\/\//);
      await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    }
    expect(await page.locator('meta[property="og:title"]').getAttribute("content")).toBe(await page.title());
    expect(await page.locator("html").getAttribute("lang")).toBe("en-US");
  });

  test(`${route.path} has no accessibility violations`, async ({ page }) => {
    await page.goto(route.path);
    await expectNoAxeViolations(page);
  });
}

test("the 404 page links back home", { tag: "@any-screen" }, async ({ page }) => {
  await page.goto("/missing");
  await page.getByRole("link", { name: "Back to the home page" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("curb");
});

// The sections' order and text are checked in the static HTML (tests/it/build.rs);
// here, what only a browser shows: the hero's price and its button at work.
test("the hero shows the monthly price and its button leads to the form", async ({ page }) => {
  await page.goto("/");
  const hero = page.locator("main > section").first();
  await expect(hero).toContainText("$25");
  await expect(hero).toContainText("per month");
  await hero.getByRole("link", { name: "Start Service" }).click();
  await expect(page).toHaveURL(/#contact$/);
});

test("FAQ entries open and close", { tag: "@any-screen" }, async ({ page }) => {
  await page.goto("/");
  const first = page.locator("#faq details").first();
  const answer = first.locator(".faq__answer");
  await expect(answer).toBeHidden();
  await first.locator("summary").click();
  await expect(answer).toBeVisible();
  await expect(answer).toContainText("Brookings city limits");
  await first.locator("summary").click();
  await expect(answer).toBeHidden();
});

test("header, footer, phone and email are on every page", async ({ page }) => {
  for (const path of ["/", "/privacypolicy", "/termsofservice", "/missing"]) {
    await page.goto(path);
    const header = page.locator("header.site-header");
    expect(await header.evaluate((el) => getComputedStyle(el).position)).toBe("sticky");
    await expect(header.getByRole("link", { name: "Curbside Brookings" })).toHaveAttribute("href", "/");
    const footer = page.locator("footer");
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Curbside Brookings`);
    await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacypolicy");
    await expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/termsofservice");
    await expect(footer.locator('a[href^="tel:+1"]')).toHaveText("(605) 555-0142");
    await expect(footer.locator('a[href^="mailto:"]')).toHaveText("hello@curbside-brookings.example");
  }
});

test("header, hero, sections and footer share one left and one right edge", async ({ page }) => {
  await page.goto("/");
  const edges = await page.evaluate(() =>
    [".site-header__inner", ".hero__inner", "#pricing .section__inner", ".site-footer__inner"].map((selector) => {
      const element = document.querySelector(selector);
      if (!element) return { selector, left: NaN, right: NaN };
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      // The content box: where text starts and ends.
      return {
        selector,
        left: Math.round(box.left + parseFloat(style.paddingLeft)),
        right: Math.round(box.right - parseFloat(style.paddingRight)),
      };
    }),
  );
  const [first, ...rest] = edges;
  expect(rest).toHaveLength(3);
  for (const edge of rest) {
    expect(edge.left, `${edge.selector} left`).toBe(first?.left);
    expect(edge.right, `${edge.selector} right`).toBe(first?.right);
  }
});

test("the header's anchor links reach each home section", async ({ page }, info) => {
  await page.goto("/");
  const nav = page.locator("header nav");
  if (info.project.name === "phone") {
    await page.getByRole("button", { name: "Menu" }).click();
  }
  for (const [name, id] of [["How It Works", "how-it-works"], ["Pricing", "pricing"], ["FAQ", "faq"], ["Contact", "contact"]]) {
    await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", `/#${id}`);
  }
});

test("legal pages show their dates", { tag: "@any-screen" }, async ({ page }) => {
  await page.goto("/privacypolicy");
  await expect(page.locator("time")).toHaveText("August 25, 2025");
  await expect(page.locator("main")).toContainText("Last updated August 25, 2025");
  await page.goto("/termsofservice");
  await expect(page.locator("main")).toContainText("Effective August 25, 2025");
  await expect(page.locator("main")).toContainText("$250 per year, which is $50 less");
});

test("structured data describes the business, both plans and the FAQ", { tag: "@any-screen" }, async ({ page }) => {
  await page.goto("/");
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const data = blocks.map((text) => JSON.parse(text) as Record<string, unknown>);
  const business = data.find((d) => d["@type"] === "LocalBusiness") as Record<string, unknown>;
  expect(business).toBeTruthy();
  expect(business.telephone).toBe("+16055550142");
  const offers = business.makesOffer as Array<{ price: string }>;
  expect(offers.map((o) => o.price)).toEqual(["25", "250"]);
  const faq = data.find((d) => d["@type"] === "FAQPage") as { mainEntity: unknown[] };
  expect(faq.mainEntity).toHaveLength(3);
});
