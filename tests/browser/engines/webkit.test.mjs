// @ts-check
// The core visitor journey in Debian's WebKitGTK, driven by selenium-webdriver through
// WebKitWebDriver (package webkit2gtk-driver), which opens WebKitGTK's MiniBrowser. It
// needs an X display: tests/run.sh runs it under xvfb-run. Nothing is downloaded:
// selenium talks to the driver started here, never to its own driver manager.
//
// MiniBrowser's window cannot be narrower than 447 px (its toolbar), so the phone part
// of the journey runs at 447 px (still the phone layout, under 768 px); the narrower
// header checks run in Chromium and Firefox.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { after, before, test } from "node:test";
import { Builder, By, Capabilities, Key } from "selenium-webdriver";
import { leaveWhileRuntimeLoads, pressesWithReactHeld, RUNTIME_FAILED, runtimeFailsWhileStaying, screenshotFolder, startSite, until, visitorJourney, writePng } from "./journey.mjs";
import { freePort } from "../support/free-port.mjs";

const driverPath = process.env.WEBKIT_DRIVER_PATH ?? "/usr/bin/WebKitWebDriver";

/** MiniBrowser, where Debian's libwebkit2gtk puts it for this machine's architecture. */
function miniBrowser() {
  if (process.env.WEBKIT_MINIBROWSER) return process.env.WEBKIT_MINIBROWSER;
  for (const arch of readdirSync("/usr/lib")) {
    const path = `/usr/lib/${arch}/webkit2gtk-4.1/MiniBrowser`;
    if (existsSync(path)) return path;
  }
  throw new Error("WebKitGTK's MiniBrowser is missing: install Debian's webkit2gtk-driver (apt-get install webkit2gtk-driver)");
}

/** @type {Awaited<ReturnType<typeof startSite>>} */
let site;
/** @type {import("node:child_process").ChildProcess} */
let webDriver;
/** @type {import("selenium-webdriver").WebDriver} */
let browser;

before(async () => {
  if (!existsSync(driverPath)) throw new Error(`WebKitWebDriver is missing at ${driverPath}: install Debian's webkit2gtk-driver`);
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) throw new Error("WebKitGTK needs a display: run this under xvfb-run -a");
  site = await startSite();
  const port = await freePort();
  webDriver = spawn(driverPath, [`--port=${port}`, "--host=local"], { stdio: ["ignore", "inherit", "inherit"] });
  const server = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${server}/status`).then((r) => r.ok).catch(() => false)), "WebKitWebDriver answers", 20_000);
  const capabilities = new Capabilities({
    browserName: "MiniBrowser",
    "webkitgtk:browserOptions": { binary: miniBrowser(), args: ["--automation"] },
  });
  browser = await new Builder().usingServer(server).withCapabilities(capabilities).build();
});

after(async () => {
  await browser?.quit();
  if (webDriver && webDriver.exitCode === null) {
    const exited = new Promise((done) => webDriver.once("exit", done));
    webDriver.kill("SIGTERM");
    await exited;
  }
  await site?.stop();
});

/** Runs a driver command, naming it in any error. @param {string} what @param {() => Promise<unknown>} command */
async function step(what, command) {
  try {
    await command();
  } catch (error) {
    throw new Error(`${what}: ${error instanceof Error ? `${error.name} ${error.message}` : String(error)}`, { cause: error });
  }
}

/** @type {import("./journey.mjs").Driver} */
const driver = {
  engine: "webkit",
  open: async (url) => {
    await browser.get(url);
  },
  navigate: async (url) => {
    await browser.executeScript((/** @type {string} */ to) => void (location.href = to), url);
  },
  evaluate: (fn, ...args) => browser.executeScript(/** @type {any} */ (fn), ...args),
  click: (selector) =>
    step(`click ${selector}`, async () => {
      // As a visitor would: scrolled to, and shown once its section has faded in
      // (WebKitWebDriver refuses a click on a still transparent element).
      await browser.executeScript((/** @type {string} */ s) => document.querySelector(s)?.scrollIntoView({ block: "center", behavior: "instant" }), selector);
      await until(
        async () =>
          /** @type {boolean} */ (
            await browser.executeScript((/** @type {string} */ s) => {
              const section = document.querySelector(s)?.closest("[data-reveal]");
              return !section || getComputedStyle(section).opacity === "1";
            }, selector)
          ),
        `${selector} is shown`,
      );
      await browser.findElement(By.css(selector)).click();
    }),
  type: (selector, text) => step(`type into ${selector}`, () => browser.findElement(By.css(selector)).sendKeys(text)),
  choose: async (selector, label) => {
    await browser.findElement(By.css(selector)).findElement(By.xpath(`.//option[normalize-space(.)="${label}"]`)).click();
  },
  tab: async () => {
    await browser.actions().sendKeys(Key.TAB).perform();
  },
  resize: async (width, height) => {
    await browser.manage().window().setRect({ width, height });
    const [innerWidth, innerHeight] = /** @type {[number, number]} */ (await browser.executeScript("return [innerWidth, innerHeight]"));
    return { width: innerWidth, height: innerHeight };
  },
  screenshot: async (file) => {
    writePng(file, await browser.takeScreenshot());
  },
  ownProblems: () => [],
  leavesFromPage: true,
};

// First: once a page of this session has run React's chunk, WebKitGTK takes it from its memory
// cache, whatever the server's no-store says, and the proxy could no longer hold it back.
test("WebKitGTK: every press is answered with React held back, and the held sign-up is sent once", async () => {
  assert.deepEqual(await pressesWithReactHeld(driver, site), []);
});

test("WebKitGTK: the core visitor journey, with no console error or unhandled rejection", async () => {
  await visitorJourney(driver, site.origin, site.output, screenshotFolder);
});

// The loader stays silent when the page is left while the runtime loads.
for (const how of /** @type {const} */ (["link", "script"])) {
  test(`WebKitGTK: leaving the home page by ${how} while the runtime loads logs nothing`, async (t) => {
    const logged = await leaveWhileRuntimeLoads(driver, site, how);
    if (logged.length > 0) t.diagnostic(`logged when leaving early: ${JSON.stringify(logged)}`);
    assert.deepEqual(logged, []);
  });
}

// A runtime that really fails while the visitor stays is reported once, and the page works without it.
for (const failure of /** @type {const} */ ([404, "dropped"])) {
  test(`WebKitGTK: a runtime that fails (${failure}) while the visitor stays is reported once`, async () => {
    const { recorded, recordedBeforeSending } = await runtimeFailsWhileStaying(driver, site, failure);
    assert.equal(recorded.filter((line) => line.includes(RUNTIME_FAILED)).length, 1, `the page reported: ${JSON.stringify(recorded)}`);
    assert.deepEqual(recorded, recordedBeforeSending, "nothing more once the form was sent");
  });
}
