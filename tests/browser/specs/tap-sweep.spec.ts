// No press is ever lost: every control of every island, pressed at every moment from the
// first paint on, ends in exactly the state a fully hydrated page gives, with each event once.
// The phone runs on a slow network and a slowed CPU (DevTools protocol throttling), and taps.
// Each outcome is attached for the benchmark's reporter (tests/bench/tap-sweep.mjs), which
// prints the milliseconds; no timing is asserted here.
import type { Page } from "@playwright/test";
import { expect, test } from "../support/page-checks";
import { replaceOnce } from "../support/preview.mjs";
import { hostedCopy } from "../support/hosted-copy";
import { recordNoErrorStacks } from "../support/error-stacks";
import { CONTROLS, MOMENTS, TWO_TOGGLES, expectedOn, pressOnce, scrollToHydrated, throttleLikeSlowPhone, type Device, type Moment } from "../support/tap-sweep";

const TIMEOUT_MS = 20_000;

test.describe.configure({ timeout: 90_000 });

/**
 * Which moments each control is pressed at. The benchmark (`TAP_SWEEP=every`, set by
 * tests/bench/tap-sweep.mjs) presses every control at every moment; the test command a sample
 * that still presses every control and meets every moment: the n-th control at the n-th moment,
 * and on to the next, so each list of controls walks through the moments from where it starts.
 */
function momentsFor<C>(controls: readonly C[], start = 0): Array<[C, Moment]> {
  if (process.env.TAP_SWEEP === "every") return controls.flatMap((control) => MOMENTS.map((moment): [C, Moment] => [control, moment]));
  const pairs = controls.map((control, n): [C, Moment] => [control, MOMENTS[(start + n) % MOMENTS.length] as Moment]);
  // Fewer controls than moments: the moments no control met, each with the first control again.
  const met = new Set(pairs.map(([, moment]) => moment));
  const first = controls[0];
  if (first !== undefined) for (const moment of MOMENTS) if (!met.has(moment)) pairs.push([first, moment]);
  return pairs;
}

for (const [control, moment] of momentsFor(CONTROLS)) {
  test(`${control.name}, pressed ${moment}, is kept exactly once`, async ({ page }, testInfo) => {
    const device = testInfo.project.name as Device;
    test.skip(!control.devices.includes(device), `no ${control.name} on a ${device}`);
    const outcome = await pressOnce(page, device, control, moment, { throttle: device === "phone", timeoutMs: TIMEOUT_MS });
    await testInfo.attach("tap-sweep", { body: JSON.stringify(outcome), contentType: "application/json" });
    const expected = expectedOn(control, device);
    expect(outcome.state, `the state after the press (expected ${JSON.stringify(expected)})`).toMatchObject(expected);
    expect(outcome.kept).toBe(true);
  });
}

// The sweep times a page as a visitor's browser runs it: without the stack positions V8 works out
// for a DevTools client at every Error constructed. Traced with and without, so this fails both
// when the setting no longer reaches V8 and when the trace no longer shows the work. Each page is
// set up on its blank first document, as the sweep does, then opens a page of the site's origin.
test("the sweep's pages work out no stack positions for an Error", async ({ page, context }) => {
  const positionsCollected = async (tab: Page): Promise<number> => {
    // Compiled lazily, as the site's chunks are: an Error made two functions deep.
    await tab.route("**/error-stack-probe.html", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: "<script>function inner() { return new Error('made'); } function outer() { return inner(); } outer();</script>",
      }),
    );
    const cdp = await context.newCDPSession(tab);
    const events: Array<{ name: string }> = [];
    cdp.on("Tracing.dataCollected", ({ value }) => events.push(...(value as Array<{ name: string }>)));
    await cdp.send("Tracing.start", { categories: "v8,disabled-by-default-v8.compile", transferMode: "ReportEvents" });
    await tab.goto("/error-stack-probe.html");
    const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.end");
    await complete;
    return events.filter((event) => event.name === "V8.CollectSourcePositions").length;
  };
  expect(await positionsCollected(page), "with Playwright's default").toBeGreaterThan(0);
  const swept = await context.newPage();
  await recordNoErrorStacks(swept);
  expect(await positionsCollected(swept), "once the sweep has asked for no stacks").toBe(0);
});

test("the pricing island hydrates once a reader scrolls to it", async ({ page }, testInfo) => {
  const device = testInfo.project.name as Device;
  if (device === "phone") await throttleLikeSlowPhone(page);
  const ms = await scrollToHydrated(page, device, TIMEOUT_MS);
  await testInfo.attach("hydration", { body: JSON.stringify({ device, ms }), contentType: "application/json" });
  expect(ms).toBeGreaterThan(0);
});

// A page with two toggles: the home page of a copy of the project whose pricing section places a
// second one (hydrating when idle, so the two wake at different moments). Whichever is pressed,
// both and the form agree. Served by Caddy, compressed, as the rest of the sweep: the preview
// sends React's chunk whole, so its arrival would fall late on the slow phone.
test.describe("a page with two pricing toggles", () => {
  const preview = hostedCopy({
    prepare: (root) =>
      replaceOnce(root, "layouts/sections/pricing.html", "{{ islands.pricing }}", '{{ islands.pricing }}\n{{ island("pricing", hydrate="idle") }}'),
  });

  for (const [control, moment] of momentsFor(TWO_TOGGLES, CONTROLS.length)) {
    test(`${control.name}, pressed ${moment}, is kept exactly once and both toggles agree`, async ({ page }, testInfo) => {
      const device = testInfo.project.name as Device;
      const outcome = await pressOnce(page, device, control, moment, { throttle: device === "phone", timeoutMs: TIMEOUT_MS, origin: preview().origin });
      await testInfo.attach("tap-sweep", { body: JSON.stringify(outcome), contentType: "application/json" });
      const expected = expectedOn(control, device);
      expect(outcome.state, `the state after the press (expected ${JSON.stringify(expected)})`).toMatchObject(expected);
      expect(outcome.kept).toBe(true);
    });
  }
});
