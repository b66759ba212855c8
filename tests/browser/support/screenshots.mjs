// @ts-check
// Screenshots of every page at phone and desktop widths, for a person to look
// at: node support/screenshots.mjs [--base http://127.0.0.1:4173] [--out screenshots]
import { mkdir } from "node:fs/promises";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { args, executablePath } from "./chromium.mjs";

const { values } = parseArgs({
  options: {
    base: { type: "string", default: "http://127.0.0.1:4173" },
    out: { type: "string", default: "screenshots" },
    pages: { type: "string", default: "/,/privacypolicy,/termsofservice,/missing" },
    "no-js": { type: "boolean", default: false },
  },
});
const out = values.out ?? "screenshots";
await mkdir(out, { recursive: true });
const browser = await chromium.launch({ executablePath, args });
for (const [name, width, height] of /** @type {const} */ ([["phone", 390, 844], ["desktop", 1280, 800]])) {
  const context = await browser.newContext({ viewport: { width, height }, javaScriptEnabled: !values["no-js"], deviceScaleFactor: 1 });
  const page = await context.newPage();
  for (const path of (values.pages ?? "/").split(",")) {
    await page.goto(values.base + path, { waitUntil: "load" });
    // Scroll through the page so reveal animations and islands run, as for a
    // reader (nothing to run without JavaScript, and evaluate would hang).
    if (!values["no-js"]) await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 200));
      }
      window.scrollTo(0, 0);
    });
    await page.waitForTimeout(900);
    const file = `${out}/${name}${path === "/" ? "-home" : path.replaceAll("/", "-")}${values["no-js"] ? "-nojs" : ""}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
  await context.close();
}
await browser.close();
