// @ts-check
// The core visitor journey in Debian's Firefox ESR, driven by puppeteer-core over
// WebDriver BiDi. puppeteer-core never downloads a browser: it starts the one named
// by executablePath (FIREFOX_PATH, or /usr/bin/firefox-esr).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import puppeteer from "puppeteer-core";
import { headerFacts } from "../support/layout-probes.mjs";
import { leaveWhileRuntimeLoads, pressesWithReactHeld, RUNTIME_FAILED, runtimeFailsWhileStaying, screenshotFolder, startSite, visitorJourney } from "./journey.mjs";

const executablePath = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

/** @type {Awaited<ReturnType<typeof startSite>>} */
let site;
/** @type {import("puppeteer-core").Browser} */
let browser;

before(async () => {
  if (!existsSync(executablePath)) throw new Error(`Firefox is missing at ${executablePath}: install Debian's firefox-esr (apt-get install firefox-esr)`);
  site = await startSite();
  browser = await puppeteer.launch({
    browser: "firefox",
    executablePath,
    headless: true,
    extraPrefsFirefox: {
      // Nothing but loopback: every other address goes to a closed local port.
      "network.proxy.type": 1,
      "network.proxy.http": "127.0.0.1",
      "network.proxy.http_port": 9,
      "network.proxy.ssl": "127.0.0.1",
      "network.proxy.ssl_port": 9,
      "network.proxy.no_proxies_on": "127.0.0.1",
      "network.proxy.allow_hijacking_localhost": false,
    },
  });
});

after(async () => {
  await browser?.close();
  await site?.stop();
});

/** A fresh page and the puppeteer side of the Driver the journey uses. */
async function firefoxDriver() {
  const page = await browser.newPage();
  /** @type {string[]} */
  const heard = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warn") heard.push(`console.${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => heard.push(`page error: ${error instanceof Error ? error.message : String(error)}`));
  /** @type {import("./journey.mjs").Driver} */
  const driver = {
    engine: "firefox",
    open: async (url) => {
      await page.goto(url, { waitUntil: "load" });
    },
    navigate: async (url) => {
      // Not awaited to the end: the journey leaves while the page is still loading.
      await page.evaluate((to) => void (location.href = to), url).catch(() => undefined);
    },
    evaluate: (fn, ...args) => /** @type {Promise<any>} */ (page.evaluate(/** @type {any} */ (fn), ...args)),
    click: async (selector) => {
      const element = await page.waitForSelector(selector, { visible: true });
      if (!element) throw new Error(`${selector} is not in the page`);
      // Brought to the middle at once, as the WebKit driver does: the site scrolls smoothly, and
      // puppeteer's own scroll into view could leave the element moving under the click.
      await element.evaluate((target) => target.scrollIntoView({ block: "center", behavior: "instant" }));
      await element.click();
    },
    type: async (selector, text) => {
      // Focused, then typed key by key: a click could land mid smooth-scroll.
      const field = await page.$(selector);
      if (!field) throw new Error(`${selector} is not in the page`);
      await field.type(text);
    },
    choose: async (selector, label) => {
      const value = await page.$eval(selector, (select, wanted) => [...select.querySelectorAll("option")].find((o) => o.textContent === wanted)?.value ?? "", label);
      await page.select(selector, value);
    },
    tab: () => page.keyboard.press("Tab"),
    resize: async (width, height) => {
      await page.setViewport({ width, height });
      return { width, height };
    },
    screenshot: async (file) => {
      await page.screenshot({ path: /** @type {`${string}.png`} */ (file) });
    },
    ownProblems: () => heard,
  };
  return { page, driver };
}

test("Firefox ESR: the core visitor journey, with no console error or unhandled rejection", async () => {
  const { page, driver } = await firefoxDriver();
  await visitorJourney(driver, site.origin, site.output, screenshotFolder);
  await page.close();
});

test("Firefox ESR: the header stays on one line from 390 px down to 320 px", async () => {
  const { page, driver } = await firefoxDriver();
  await driver.open(`${site.origin}/`);
  for (const width of [390, 378, 360, 320]) {
    await driver.resize(width, 844);
    const facts = await driver.evaluate(headerFacts);
    assert.equal(facts.nameLines, 1, `one line at ${width} px (layout width ${facts.layoutWidth})`);
    assert.equal(facts.overflowsSideways, false, `nothing sticks out at ${width} px`);
    assert.ok((facts.toggleRight ?? 0) <= facts.layoutWidth, `the menu button is inside the page at ${width} px`);
    assert.ok(facts.iconWidth > 10, `the menu icon shows at ${width} px`);
  }
  await page.close();
});

test("Firefox ESR: every press is answered with React held back, and the held sign-up is sent once", async () => {
  const { page, driver } = await firefoxDriver();
  assert.deepEqual(await pressesWithReactHeld(driver, site), []);
  await page.close();
});

// The loader stays silent when the page is left while the runtime loads: Firefox aborts the
// page's loads as soon as a navigation starts, before pagehide, so the import fails first.
for (const how of /** @type {const} */ (["link", "script"])) {
  test(`Firefox ESR: leaving the home page by ${how} while the runtime loads logs nothing`, async (t) => {
    const { page, driver } = await firefoxDriver();
    const logged = await leaveWhileRuntimeLoads(driver, site, how);
    if (logged.length > 0) t.diagnostic(`logged when leaving early: ${JSON.stringify(logged)}`);
    assert.deepEqual(logged, []);
    await page.close();
  });
}

// A runtime that really fails while the visitor stays is reported once, and the page works without it.
for (const failure of /** @type {const} */ ([404, "dropped"])) {
  test(`Firefox ESR: a runtime that fails (${failure}) while the visitor stays is reported once`, async () => {
    const { page, driver } = await firefoxDriver();
    const { recorded, recordedBeforeSending, heard } = await runtimeFailsWhileStaying(driver, site, failure);
    assert.equal(recorded.filter((line) => line.includes(RUNTIME_FAILED)).length, 1, `the page reported: ${JSON.stringify(recorded)}`);
    assert.deepEqual(recorded, recordedBeforeSending, "nothing more once the form was sent");
    assert.equal(heard.filter((line) => line.includes(RUNTIME_FAILED)).length, 1, `Firefox heard: ${JSON.stringify(heard)}`);
    await page.close();
  });
}
