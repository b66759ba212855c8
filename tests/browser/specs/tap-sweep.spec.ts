// No press is ever lost: every control of every island, pressed at every moment from the
// first paint on, ends in exactly the state a fully hydrated page gives, with each event once.
// The phone runs on a slow network and a slowed CPU (DevTools protocol throttling), and taps.
// Each outcome is attached for the benchmark's reporter (tests/bench/tap-sweep.mjs), which
// prints the milliseconds; no timing is asserted here.
import { expect, test } from "../support/page-checks";
import { replaceOnce } from "../support/preview.mjs";
import { hostedCopy } from "../support/hosted-copy";
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
