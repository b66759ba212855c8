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
    },
  ],
  webServer: {
    // Builds the site with the curbside binary, then serves it as static hosts do.
    // A folder per port, so runs on different ports never overwrite each other's assets.
    // CURBSIDE_PRECOMPRESSED=1 sends the .br/.gz copies, as real hosts compress (the benchmarks set it).
    command: `node support/static-host.mjs --build --root ../../target/browser-site-${port} --port ${port}${process.env.CURBSIDE_PRECOMPRESSED ? " --precompressed" : ""}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
  },
});
