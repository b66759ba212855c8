import { defineConfig, devices } from "@playwright/test";
import { args, executablePath } from "./support/chromium.mjs";
import { curbsideBinary } from "./support/curbside-binary.mjs";

// Debian's Chromium, never a downloaded browser.
const chromium = { executablePath, args };

// Resolved once here: the web server and every worker inherit it, so cargo is asked
// (and the binary built, when it is out of date) only once per run.
process.env.CURBSIDE_BIN = curbsideBinary();

const port = Number(process.env.CURBSIDE_TEST_PORT ?? 4173);

export default defineConfig({
  testDir: "specs",
  outputDir: "test-results",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromium,
    trace: "off",
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } } },
    {
      name: "phone",
      use: { ...devices["Pixel 7"], viewport: { width: 390, height: 844 }, defaultBrowserType: "chromium" },
      // Tests tagged @any-screen check what no screen size changes (the served HTML, the
      // form's logic, the preview server): the desktop run proves them once.
      grepInvert: /@any-screen/,
    },
  ],
  webServer: {
    // Builds the site for Caddy with the curbside binary, then serves it with Caddy and the
    // configuration the build wrote: a real server's URL rules, headers and 404 page, and text
    // sent compressed, so the throttled phone waits for the bytes a real visitor waits for.
    // A folder per port, so runs on different ports never overwrite each other's assets.
    command: `node support/caddy-host.mjs --build --root ../../target/browser-site-${port} --port ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    // SIGTERM, so the host script stops Caddy and removes Caddy's state folder; Playwright's
    // default SIGKILL would leave one folder in the temporary directory per run.
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  },
});
