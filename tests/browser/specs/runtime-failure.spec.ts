// The islands runtime that does not arrive: a visitor who leaves while it is still on its way
// sees nothing logged, and one who stays when it really fails (an error status, a dropped
// connection) gets the loader's report once, with the page working without it. The runtime is
// held back by the test until the step that needs it, never raced against the clock. The same
// cases run in Firefox and WebKit (engines/), where leaving cuts the import short.
import type { Page, Route } from "@playwright/test";
import { FORM_ROUTE, FORM_URL, PERSON, expect, failedStatus, test } from "../support/islands";

const RUNTIME = /\/assets\/islands-[\w-]+\.js$/;
const REPORT = "[islands] the runtime could not load";

/** Holds every request for the runtime until `end` says what becomes of them. */
async function holdRuntime(page: Page): Promise<{ requested: Promise<void>; end: (how: (route: Route) => Promise<void>) => void }> {
  let markRequested!: () => void;
  const requested = new Promise<void>((resolve) => (markRequested = resolve));
  let decide!: (how: (route: Route) => Promise<void>) => void;
  const decided = new Promise<(route: Route) => Promise<void>>((resolve) => (decide = resolve));
  await page.route(RUNTIME, async (route) => {
    markRequested();
    // A request its page gave up while held can no longer be answered.
    await (await decided)(route).catch(() => undefined);
  });
  return { requested, end: decide };
}

for (const how of ["link", "script"] as const) {
  test(`leaving the home page by ${how} while the runtime loads logs nothing`, { tag: "@any-screen" }, async ({ page, problems }) => {
    const runtime = await holdRuntime(page);
    await page.goto("/", { waitUntil: "domcontentloaded" });
    await runtime.requested;
    if (how === "link") await page.locator('.site-footer a[href="/termsofservice"]').click();
    else await page.evaluate(() => void (location.href = "/termsofservice"));
    await page.waitForURL("**/termsofservice", { waitUntil: "commit" });
    runtime.end((route) => route.continue());
    // The next page's own runtime has started: the home page is long gone.
    await page.waitForLoadState("load");
    await expect(page.locator("h1")).toHaveText("Terms of Service");
    expect(problems).toEqual([]);
  });
}

for (const failure of [404, "dropped"] as const) {
  test(`a runtime that fails (${failure}) while the visitor stays is reported once, and the page still works`, { tag: "@any-screen" }, async ({ page, problems, allowConsole }) => {
    allowConsole(failure === 404 ? failedStatus(404) : /net::ERR_CONNECTION_RESET/);
    const runtime = await holdRuntime(page);
    await page.route(FORM_ROUTE, (route) =>
      route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: "<!doctype html><title>Thanks</title><h1>The form service's own page</h1>" }),
    );
    await page.goto("/", { waitUntil: "domcontentloaded" });
    await runtime.requested;
    runtime.end((route) => (failure === 404 ? route.fulfill({ status: 404, body: "missing" }) : route.abort("connectionreset")));
    await expect.poll(() => problems.filter((line) => line.includes(REPORT)).length).toBe(1);

    // Start Annual still takes the visitor to the form, and the form posts by itself.
    await page.locator('.plan-card[data-plan="annual"] .plan-card__start').click();
    await expect(page.locator("#contact form")).toBeInViewport();
    for (const [name, value] of Object.entries(PERSON)) await page.locator(`#contact [name="${name}"]`).fill(value);
    await Promise.all([page.waitForURL(FORM_URL), page.locator('#contact form button[type="submit"]').click()]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("The form service's own page");

    // The home page is gone, and it reported the failure once.
    expect(problems.filter((line) => line.includes(REPORT))).toHaveLength(1);
    allowConsole(/\[islands\] the runtime could not load/);
  });
}
