// @ts-check
// The core visitor journey, written once and run in Firefox ESR (puppeteer-core over
// WebDriver BiDi) and in WebKitGTK (selenium-webdriver with WebKitWebDriver). Each
// engine's file supplies a `Driver`; this file starts the site and checks what a
// visitor does and sees.
//
// The site is served by `curbside serve` (the preview server, built from this
// repository), whose local stand-in answers the form service at /f/{id}, so a
// sign-up completes with nothing sent anywhere. In front of it runs a small proxy
// that adds one same-origin script to every page: it records console errors and
// warnings, uncaught errors and unhandled rejections in sessionStorage, so they are
// read the same way in both engines and survive leaving the page (WebKitWebDriver
// has no console or init-script command).

import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { join, resolve } from "node:path";
import { curbsideBinary } from "../support/curbside-binary.mjs";
import { focusedRadius, headerFacts, styleFacts } from "../support/layout-probes.mjs";
import { repo, startPreview } from "../support/preview.mjs";

const target = process.env.CARGO_TARGET_DIR ? resolve(repo, process.env.CARGO_TARGET_DIR) : join(repo, "target");

/**
 * What the journey needs from a browser driver.
 * @typedef {object} Driver
 * @property {string} engine
 * @property {(url: string) => Promise<void>} open  loads a URL and waits for its load event
 * @property {(url: string) => Promise<void>} navigate  starts loading a URL without waiting for it
 * @property {<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A) => Promise<Awaited<T>>} evaluate
 * @property {(selector: string) => Promise<void>} click  a real pointer click on the element's centre
 * @property {(selector: string, text: string) => Promise<void>} type  focuses the field and types
 * @property {(selector: string, label: string) => Promise<void>} choose  picks an option of a select by its label
 * @property {() => Promise<void>} tab  presses Tab
 * @property {(width: number, height: number) => Promise<{ width: number, height: number }>} resize
 *   sets the viewport (as close as the engine allows) and returns what it became
 * @property {(file: string) => Promise<void>} screenshot
 * @property {() => string[]} ownProblems  problems the driver itself heard (console, page errors)
 * @property {boolean} [leavesFromPage]  the page itself leaves while a request is held back, not
 *   the driver: WebKit's load event waits for a pending import(), and WebKitWebDriver waits for
 *   the load before a command, so no command of its would run until the runtime is let through
 */

/** Sets sessionStorage["__engineProblems"] from the first script of every page on. */
const PROBE = `(() => {
  const key = "__engineProblems";
  const record = (line) => {
    try {
      const list = JSON.parse(sessionStorage.getItem(key) || "[]");
      list.push(location.pathname + ": " + line);
      sessionStorage.setItem(key, JSON.stringify(list));
    } catch (error) {}
  };
  for (const level of ["error", "warn"]) {
    const original = console[level];
    console[level] = function (...args) {
      record("console." + level + ": " + args.map(String).join(" "));
      return original.apply(this, args);
    };
  }
  addEventListener("error", (event) => record("error: " + (event.message || (event.target && event.target.src) || "?")), true);
  addEventListener("unhandledrejection", (event) => {
    const reason = event.reason;
    record("unhandled rejection: " + (reason && reason.message ? reason.message : String(reason)));
  });
  addEventListener("securitypolicyviolation", (event) => record("csp: " + event.violatedDirective + " " + event.blockedURI));
  // A departure the test asked for, made by the page itself once the proxy says a held request
  // has come: see leaveWhileRuntimeLoads.
  const leave = JSON.parse(sessionStorage.getItem("__engineLeave") || "null");
  if (leave) {
    sessionStorage.removeItem("__engineLeave");
    fetch("/__engine-held").then(() => {
      if (leave.how === "link") document.querySelector('.site-footer a[href="' + leave.to + '"]').click();
      else location.href = leave.to;
    });
  }
})();`;

/**
 * Requests the proxy keeps back until the test says how they end, so a test can act while
 * the browser is surely still waiting, without racing the clock.
 * @typedef {object} Held
 * @property {Promise<string>} requested  resolves with the path once the browser has asked for it
 * @property {Promise<void>} abandoned  resolves if the browser gives the request up unanswered
 * @property {() => void} release  answers as the site would, and lets later requests through
 * @property {(status: number) => void} answer  answers with this status instead
 * @property {() => void} drop  closes the connection with no answer, as a dropped network would
 * @property {() => void} end  lets later requests through; what was decided stays decided
 */

/** The islands runtime, which the loader imports once the page has painted. */
export const RUNTIME = /^\/assets\/islands-[\w-]+\.js$/;

/** React's chunk, shared by every island: fetched at the first engagement, and no press may wait for it. */
export const REACT_CHUNK = /^\/assets\/chunk-[\w-]+\.js$/;

/** Files a later test may hold back again, so the browser never keeps them in its cache. */
const NEVER_CACHED = [RUNTIME, REACT_CHUNK];

/**
 * Starts the preview server and the probing proxy in front of it.
 * @returns {Promise<{ origin: string, output: string[], hold: (pattern: RegExp) => Held, stop: () => Promise<void> }>}
 */
export async function startSite() {
  // $CURBSIDE_BIN (the binary tests/run.sh built), else the one cargo builds now: never a stale one.
  const out = join(target, `engines-preview-${process.pid}`);
  const preview = await startPreview(repo, { args: ["--out", out], binary: curbsideBinary({ tests: true }) });
  const upstream = preview.port;

  /**
   * Holds in force: each takes every request its pattern matches, retries included (Firefox asks
   * again once when a connection drops), until it is released or ended.
   * @typedef {(outgoing: import("node:http").ServerResponse, forward: () => void) => void} Ending
   * @type {Array<{ pattern: RegExp, taken: boolean, take: (outgoing: import("node:http").ServerResponse, path: string, forward: () => void) => void }>}
   */
  const holds = [];
  /** Pages waiting at /__engine-held for a held request to come. @type {Array<() => void>} */
  const heldWaiters = [];
  /** @param {RegExp} pattern @returns {Held} */
  const hold = (pattern) => {
    /** @type {(path: string) => void} */
    let markRequested = () => {};
    /** @type {Promise<string>} */
    const requested = new Promise((done) => (markRequested = done));
    /** @type {() => void} */
    let markAbandoned = () => {};
    /** @type {Promise<void>} */
    const abandoned = new Promise((done) => (markAbandoned = () => done()));
    /** @type {Ending | null} */
    let ending = null;
    /** @type {Array<() => void>} */
    const waiting = [];
    const entry = {
      pattern,
      taken: false,
      /** @param {import("node:http").ServerResponse} outgoing @param {string} path @param {() => void} forward */
      take: (outgoing, path, forward) => {
        outgoing.once("close", () => {
          if (!outgoing.writableFinished) markAbandoned();
        });
        markRequested(path);
        entry.taken = true;
        for (const answer of heldWaiters.splice(0)) answer();
        const end = () => {
          if (ending && !outgoing.destroyed) ending(outgoing, forward);
        };
        if (ending) end();
        else waiting.push(end);
      },
    };
    holds.push(entry);
    /** @param {Ending} how */
    const decide = (how) => {
      ending = how;
      for (const end of waiting.splice(0)) end();
    };
    const remove = () => {
      const index = holds.indexOf(entry);
      if (index >= 0) holds.splice(index, 1);
    };
    return {
      requested,
      abandoned,
      release: () => {
        remove();
        decide((_outgoing, forward) => forward());
      },
      answer: (status) =>
        decide((outgoing) => {
          outgoing.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
          outgoing.end(`held back by the test, answered ${status}`);
        }),
      drop: () => decide((outgoing) => outgoing.socket?.destroy()),
      end: remove,
    };
  };

  /** @param {import("node:http").IncomingMessage} incoming @param {import("node:http").ServerResponse} outgoing */
  const pass = (incoming, outgoing) => {
    if (incoming.url === "/__engine-held") {
      const answer = () => {
        outgoing.writeHead(204, { "cache-control": "no-store" });
        outgoing.end();
      };
      if (holds.some((h) => h.taken)) answer();
      else heldWaiters.push(answer);
      return;
    }
    if (incoming.url === "/__engine-probe.js") {
      outgoing.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" });
      outgoing.end(PROBE);
      return;
    }
    const forward = httpRequest(
      { host: "127.0.0.1", port: upstream, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, host: `127.0.0.1:${upstream}`, "accept-encoding": "identity" } },
      (reply) => {
        const type = String(reply.headers["content-type"] ?? "");
        if (!type.startsWith("text/html")) {
          // Never from the browser's cache, so a later test can still hold these back.
          const headers = NEVER_CACHED.some((file) => file.test(incoming.url ?? "")) ? { ...reply.headers, "cache-control": "no-store" } : reply.headers;
          outgoing.writeHead(reply.statusCode ?? 502, headers);
          reply.pipe(outgoing);
          return;
        }
        /** @type {Buffer[]} */
        const chunks = [];
        reply.on("data", (chunk) => chunks.push(chunk));
        reply.on("end", () => {
          const html = Buffer.concat(chunks).toString("utf8").replace(/<head>/i, '<head><script src="/__engine-probe.js"></script>');
          const headers = { ...reply.headers, "content-length": String(Buffer.byteLength(html)) };
          outgoing.writeHead(reply.statusCode ?? 502, headers);
          outgoing.end(html);
        });
      },
    );
    forward.on("error", (error) => {
      outgoing.writeHead(502);
      outgoing.end(String(error));
    });
    incoming.pipe(forward);
  };

  const proxy = createServer((incoming, outgoing) => {
    const index = holds.findIndex((h) => h.pattern.test(incoming.url ?? ""));
    if (index < 0) return pass(incoming, outgoing);
    holds[index]?.take(outgoing, incoming.url ?? "", () => pass(incoming, outgoing));
  });
  const port = await new Promise((done) => proxy.listen(0, "127.0.0.1", () => done(/** @type {import("node:net").AddressInfo} */ (proxy.address()).port)));

  return {
    origin: `http://127.0.0.1:${port}`,
    output: preview.output,
    hold,
    stop: async () => {
      // A request still held back would keep the proxy open.
      proxy.closeAllConnections();
      await new Promise((done) => proxy.close(done));
      await preview.stop();
      // The build's folder, and the one beside it for what is not published.
      for (const folder of [out, `${out}-server`]) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Polls `check` until it returns true (a state, never a fixed wait), up to `timeout` ms.
 * @param {() => Promise<boolean>} check @param {string} what
 */
export async function until(check, what, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** @param {Driver} driver */
async function problems(driver) {
  const recorded = await driver.evaluate(() => /** @type {string[]} */ (JSON.parse(sessionStorage.getItem("__engineProblems") || "[]")));
  return [...recorded, ...driver.ownProblems()];
}

/** @param {Driver} driver */
async function clearProblems(driver) {
  await driver.evaluate(() => sessionStorage.removeItem("__engineProblems"));
}

/** @param {Driver} driver @param {string} selector */
const text = (driver, selector) => driver.evaluate((s) => document.querySelector(s)?.textContent?.trim() ?? null, selector);

/** Forgets what this origin saved of the visitor (the plan, the Start choice). @param {Driver} driver */
async function forgetVisitor(driver) {
  await driver.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
}

/** What the form carries once the annual plan is chosen. */
const ANNUAL_IN_FORM = { promotion: "Yearly plan (2 months free)", plan_type: "annual", plan_amount: "250", billing_frequency: "yearly" };

/** The form's plan: the select's words and the hidden fields sent with it. @param {Driver} driver */
function formPlan(driver) {
  return driver.evaluate(() => {
    const value = (/** @type {string} */ name) => /** @type {HTMLInputElement | null} */ (document.querySelector(`#contact [name="${name}"]`))?.value;
    const select = /** @type {HTMLSelectElement} */ (document.querySelector("#promotion"));
    return {
      promotion: select.selectedOptions[0]?.textContent ?? "",
      plan_type: value("plan_type"),
      plan_amount: value("plan_amount"),
      billing_frequency: value("billing_frequency"),
    };
  });
}

/** The billing switch's state and the word it shows as active, such as "true Annual". @param {Driver} driver */
function switchShows(driver) {
  return driver.evaluate(() => {
    const current = document.querySelector(".pricing")?.getAttribute("data-current-plan");
    const word = document.querySelector(`.pricing [data-plan-option="${current}"]`)?.textContent?.trim();
    return `${document.querySelector(".pricing__switch")?.getAttribute("aria-checked")} ${word}`;
  });
}

const PERSON = {
  firstName: "Ada",
  lastName: "O’Brien",
  address: "1418 6th St",
  zip: "57006",
  email: `ada.engine.${Date.now()}@example.com`,
  phone: "(605) 555-0142",
};

/**
 * The journey itself. `shots`, when given, is a folder for screenshots.
 * @param {Driver} driver @param {string} origin @param {string[]} serverOutput @param {string | undefined} shots
 */
export async function visitorJourney(driver, origin, serverOutput, shots) {
  const shot = async (/** @type {string} */ name) => {
    if (!shots) return;
    mkdirSync(shots, { recursive: true });
    await driver.screenshot(join(shots, `${driver.engine}-${name}.png`));
  };

  // Home loads. First a walk with Tab before any pointer use: the menu button and the
  // switch keep their pill shape when focused. At 700 px, still the phone layout:
  // WebKitGTK's MiniBrowser leaves its page unfocused (no :focus-visible at all) in
  // windows under about 600 px.
  await driver.resize(700, 844);
  await driver.open(`${origin}/`);
  await clearProblems(driver);
  assert.match(await driver.evaluate(() => document.title), /Brookings/);
  assert.equal(await text(driver, "h1"), "Your trash bins, at the curb on pickup day.");
  assert.equal(await driver.evaluate(() => document.hasFocus()), true, "the page has the keyboard focus");
  /** @type {Record<string, ReturnType<typeof focusedRadius>>} */
  const focused = {};
  for (let i = 0; i < 60 && !focused.pricing__switch; i++) {
    await driver.tab();
    const now = await driver.evaluate(focusedRadius);
    for (const name of ["site-menu__toggle", "pricing__switch"]) {
      if (now.className.split(" ").includes(name)) focused[name.replace("-", "_")] = now;
    }
  }
  for (const name of ["site_menu__toggle", "pricing__switch"]) {
    const focus = focused[name];
    assert.ok(focus, `Tab reaches the ${name}`);
    assert.equal(focus.focusVisible, true, `:focus-visible on the ${name} after Tab`);
    assert.equal(focus.radius, "999px 999px 999px 999px", `the focused ${name} keeps its pill shape`);
  }

  // The rest at phone size, on the same page.
  const phone = await driver.resize(390, 844);
  await driver.evaluate(() => {
    window.scrollTo({ top: 0, behavior: "instant" });
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  });
  await shot(`${phone.width}-header`);

  // The header: opaque, on one line.
  const facts = await driver.evaluate(headerFacts);
  assert.equal(facts.nameLines, 1, `the name wraps at a ${facts.layoutWidth} px layout width`);
  assert.equal(facts.overflowsSideways, false);
  assert.equal((await driver.evaluate(styleFacts)).headerBackground, "rgb(255, 255, 255)");

  // The menu opens and closes from its button: this engine's own popover, no script.
  const open = () => driver.evaluate(() => document.querySelector(".site-menu__list")?.matches(":popover-open"));
  const listShown = () => driver.evaluate(() => getComputedStyle(/** @type {Element} */ (document.querySelector(".site-menu__list"))).display !== "none");
  assert.equal(await open(), false);
  assert.equal(await listShown(), false);
  await driver.click(".site-menu__toggle");
  await until(async () => (await open()) === true && (await listShown()), "the menu opens");
  await shot(`${phone.width}-menu-open`);
  await driver.click(".site-menu__toggle");
  await until(async () => (await open()) === false && !(await listShown()), "the menu closes");

  // Styles this engine drew differently before.
  const style = await driver.evaluate(styleFacts);
  assert.equal(style.activeOption.line, "underline", "the active billing option is underlined");
  assert.equal(style.activeOption.color, style.activeOption.textColor, "the underline of the active option shows");
  assert.equal(style.activeOption.thickness, "2px");
  assert.equal(style.activeOption.userSelect, "none");
  assert.equal(style.inactiveOption.color, "rgba(0, 0, 0, 0)", "the other option's underline is transparent");
  assert.equal(style.select.appearance, "none");
  assert.equal(style.select.height, 44, "the plan select is 44 px tall");
  assert.equal(style.zipHeight, 44, "the ZIP field is 44 px tall");

  // The billing switch, to annual and back.
  assert.equal(await switchShows(driver), "false Monthly");
  await driver.click(".pricing__switch");
  await until(async () => (await switchShows(driver)) === "true Annual", "the switch shows annual");
  await shot(`${phone.width}-pricing-annual`);
  await driver.click(".pricing__switch");
  await until(async () => (await switchShows(driver)) === "false Monthly", "the switch is back on monthly");

  // Start Annual after hydration: the form's plan and the hidden plan fields follow.
  await until(
    () => driver.evaluate(() => document.querySelector('[data-island="pricing"]')?.hasAttribute("data-hydrated") ?? false),
    "the pricing island has hydrated",
  );
  await driver.click('.plan-card[data-plan="annual"] .plan-card__start');
  const plan = () => formPlan(driver);
  await until(async () => (await plan()).plan_type === "annual", "Start Annual chooses the annual plan");
  assert.deepEqual(await plan(), ANNUAL_IN_FORM);

  // The sign-up, answered by the preview's stand-in for the form service.
  // City and state come filled in with the service area's.
  for (const [name, value] of Object.entries(PERSON)) await driver.type(`#contact form [name="${name}"]`, value);
  assert.deepEqual(await plan(), ANNUAL_IN_FORM);
  await shot(`${phone.width}-form-filled`);
  await driver.click('#contact form button[type="submit"]');
  await until(async () => (await text(driver, "#contact h2")) === "Thanks — we've got your info!", "the thank-you view appears", 20_000).catch(
    async (error) => {
      const shown = await text(driver, "#contact .contact-form__errors");
      const validity = await driver.evaluate(() => [...document.querySelectorAll("#contact input, #contact select")].filter((f) => !(/** @type {HTMLInputElement} */ (f).checkValidity())).map((f) => f.getAttribute("name")));
      throw new Error(`${error.message} (form says: ${shown}; invalid fields: ${JSON.stringify(validity)}; server: ${serverOutput.join("").slice(-300)})`);
    },
  );
  assert.equal(await driver.evaluate(() => document.querySelectorAll("#contact form").length), 0);
  await until(async () => serverOutput.join("").includes(PERSON.email), "the stand-in saves the sign-up");
  await shot(`${phone.width}-thanks`);

  // No console error, page error or unhandled rejection on the home page.
  assert.deepEqual(await problems(driver), [], "problems on the home page");

  // Legal pages, and the 404 page for an unknown address.
  for (const [path, heading] of [
    ["/privacypolicy", "Privacy Policy"],
    ["/termsofservice", "Terms of Service"],
    ["/no-such-page", "Page not found"],
  ]) {
    await driver.open(`${origin}${path}`);
    assert.equal(await text(driver, "h1"), heading, `${path} shows its heading`);
    assert.equal(await driver.evaluate(() => document.querySelector(".site-footer") !== null), true);
  }
  assert.deepEqual(await problems(driver), [], "problems on the other pages");

  // A desktop window: no menu button, and the header on one line.
  const desktop = await driver.resize(1280, 800);
  await driver.open(`${origin}/`);
  assert.equal(await driver.evaluate(() => getComputedStyle(/** @type {Element} */ (document.querySelector(".site-menu__toggle"))).display), "none");
  assert.equal((await driver.evaluate(headerFacts)).nameLines, 1);
  await shot(`${desktop.width}-header`);
  assert.deepEqual(await problems(driver), [], "problems on the desktop home page");
}

/** The loader's own report of a runtime that did not come. */
export const RUNTIME_FAILED = "[islands] the runtime could not load";

/**
 * Opens home with its runtime held back at the server, so the loader is surely still
 * waiting for it, and returns once the browser has asked for it.
 * @param {Driver} driver @param {{ origin: string, hold: (pattern: RegExp) => Held }} site
 * @param {{ how: "link" | "script", to: string } | null} [leave]  a departure the page makes itself
 */
async function homeWithRuntimeHeld(driver, site, leave = null) {
  await driver.open(`${site.origin}/privacypolicy`);
  await clearProblems(driver);
  // Read by the probe on the next page (home), which leaves once the proxy holds the runtime.
  if (leave) await driver.evaluate((l) => sessionStorage.setItem("__engineLeave", JSON.stringify(l)), leave);
  const held = site.hold(RUNTIME);
  await driver.navigate(`${site.origin}/`);
  await held.requested;
  return held;
}

/**
 * Leaving home, by `leave`, while its runtime is still on its way; returns what the pages
 * logged. The runtime is let through only once the browser has given up the home page's
 * request for it (at the start of the navigation in Firefox, at the latest when the next page
 * takes over), so the next page gets its own.
 * @param {Driver} driver @param {{ origin: string, hold: (pattern: RegExp) => Held }} site
 * @param {"link" | "script"} how  a click on the footer's link, or the page setting location
 */
export async function leaveWhileRuntimeLoads(driver, site, how) {
  const to = "/termsofservice";
  const held = await homeWithRuntimeHeld(driver, site, driver.leavesFromPage ? { how, to } : null);
  if (driver.leavesFromPage) {
    // The page has left by itself (a click on the link's element, or setting location).
  } else if (how === "link") await driver.click(`.site-footer a[href="${to}"]`);
  else await driver.navigate(`${site.origin}${to}`);
  await held.abandoned;
  held.release();
  await until(
    async () => (await driver.evaluate(() => location.pathname + " " + document.readyState).catch(() => "")) === "/termsofservice complete",
    "the next page has loaded",
  );
  // The preview's live-reload script (/__curbside/) is not part of the published site; a load
  // of it cut short by leaving is the browser's own report of the navigation.
  return (await problems(driver)).filter((problem) => !problem.includes("/__curbside/"));
}

/**
 * The runtime fails (`status` as its answer, or the connection dropped) while the visitor stays:
 * the loader reports it once, and the page works without it: a Start link jumps to the form,
 * and the form posts by itself to the form service's stand-in. Returns what the home page
 * logged, by who heard it: the page's own probe, and the driver.
 * @param {Driver} driver @param {{ origin: string, output: string[], hold: (pattern: RegExp) => Held }} site
 * @param {number | "dropped"} failure
 */
export async function runtimeFailsWhileStaying(driver, site, failure) {
  const held = await homeWithRuntimeHeld(driver, site);
  const heardBefore = driver.ownProblems().length;
  if (failure === "dropped") held.drop();
  else held.answer(failure);
  await until(async () => (await problems(driver)).some((problem) => problem.includes(RUNTIME_FAILED)), "the loader reports the failure");
  held.end();
  const fromHome = async () => (await driver.evaluate(() => /** @type {string[]} */ (JSON.parse(sessionStorage.getItem("__engineProblems") || "[]")))).filter((p) => p.startsWith("/: "));

  // Start Annual takes the visitor to the form (the loader's own handler, or the link's jump).
  await driver.click('.plan-card[data-plan="annual"] .plan-card__start');
  await until(
    async () => await driver.evaluate(() => location.hash === "#contact" || document.activeElement?.closest("#contact") != null),
    "Start Annual takes the visitor to the form",
  );
  // The form posts by itself: the page is left for the stand-in's answer.
  const email = `ada.stays.${failure}.${Date.now()}@example.com`;
  for (const [name, value] of Object.entries({ ...PERSON, email })) await driver.type(`#contact form [name="${name}"]`, value);
  const heardOnHome = driver.ownProblems().slice(heardBefore);
  const recordedOnHome = await fromHome();
  await driver.click('#contact form button[type="submit"]');
  await until(async () => site.output.join("").includes(email), "the form, posted without the runtime, reaches the stand-in", 20_000);
  await until(async () => (await driver.evaluate(() => location.pathname).catch(() => "/")) !== "/", "the browser shows the stand-in's answer");
  // Read again after the home page is gone: nothing more came from it.
  return { recorded: await fromHome(), recordedBeforeSending: recordedOnHome, heard: heardOnHome };
}

/**
 * Every press of the home page's islands answered with React's chunk held back at the server:
 * the switch and its words, Start Annual, the ZIP's note, and the submit showing it is being
 * sent, with no island hydrated. Released, the held submission reaches the stand-in once and
 * the thanks show. Returns what the page logged.
 * @param {Driver} driver @param {{ origin: string, output: string[], hold: (pattern: RegExp) => Held }} site
 */
export async function pressesWithReactHeld(driver, site) {
  await driver.resize(390, 844);
  // A visitor new to the site: no plan saved by an earlier journey.
  await driver.open(`${site.origin}/privacypolicy`);
  await forgetVisitor(driver);
  const held = site.hold(REACT_CHUNK);
  await driver.open(`${site.origin}/`);
  await clearProblems(driver);
  assert.equal(await switchShows(driver), "false Monthly", "the page starts on the monthly plan");
  await driver.click(".pricing__switch");
  await until(async () => (await switchShows(driver)) === "true Annual", "the switch shows annual");
  // The press was an engagement: React has been asked for, and is held.
  await held.requested;
  await driver.click('.pricing [data-plan-option="monthly"]');
  await until(async () => (await switchShows(driver)) === "false Monthly", "the word Monthly chooses monthly");
  await driver.click('.plan-card[data-plan="annual"] .plan-card__start');
  await until(async () => (await formPlan(driver)).plan_type === "annual", "Start Annual chooses the annual plan in the form");
  assert.deepEqual(await formPlan(driver), ANNUAL_IN_FORM);
  assert.equal(await switchShows(driver), "true Annual", "the toggle follows Start Annual");

  const email = `ada.held.${driver.engine}.${Date.now()}@example.com`;
  for (const [name, value] of Object.entries({ ...PERSON, email })) await driver.type(`#contact form [name="${name}"]`, value);
  await until(async () => (await text(driver, "#contact [role=status]")) === "Great, Brookings area ZIP codes are in our service area.", "the ZIP's note answers");
  await driver.click('#contact form button[type="submit"]');
  const button = () => driver.evaluate(() => {
    const submit = /** @type {HTMLButtonElement | null} */ (document.querySelector('#contact form button[type="submit"]'));
    return submit ? `${submit.disabled} ${submit.textContent?.trim()}` : null;
  });
  await until(async () => (await button()) === "true Submitting…", "the submit shows it is being sent");
  const hydrated = () => driver.evaluate(() => document.querySelectorAll("[data-island][data-react], [data-island][data-hydrated]").length);
  assert.equal(await hydrated(), 0, "no island has React yet");
  assert.equal(site.output.join("").includes(email), false, "nothing sent while React is held");

  held.release();
  await until(async () => (await text(driver, "#contact h2")) === "Thanks — we've got your info!", "the thank-you view appears", 20_000);
  await until(async () => site.output.join("").includes(email), "the stand-in saves the sign-up");
  // A later sign of React at work, before counting: the toggle, back in view, hydrates.
  await driver.evaluate(() => document.querySelector("#pricing")?.scrollIntoView());
  await until(() => driver.evaluate(() => document.querySelector("[data-island=pricing][data-hydrated]") !== null), "the toggle hydrates");
  assert.equal(site.output.join("").split(email).length - 1, 1, "the sign-up is sent once");
  assert.equal(await switchShows(driver), "true Annual", "hydrating kept the plan the visitor chose");
  const logged = await problems(driver);
  // The next test meets a new visitor again.
  await forgetVisitor(driver);
  return logged;
}

/** Screenshots go here when ENGINE_SCREENSHOTS names a folder. */
export const screenshotFolder = process.env.ENGINE_SCREENSHOTS ? resolve(process.env.ENGINE_SCREENSHOTS) : undefined;

/** @param {string} file @param {string} base64 */
export function writePng(file, base64) {
  writeFileSync(file, Buffer.from(base64, "base64"));
}
