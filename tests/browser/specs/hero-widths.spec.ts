// The hero's copies as Lighthouse judges them, on its phone (412 px at DPR 1.75) and its
// desktop (1350 px at DPR 1), with a portrait photo and a landscape one:
// `uses-responsive-images` lists none of them. For a <picture> it lists a copy that wastes
// 12 KiB or more of pixels never shown: a portrait photo's phone copy did, uncut (its full
// height in a 16:9 band), and so did its desktop copy at the band's 800 px steps in a frame
// 528 px wide. The photo is drawn with a town's detail, so its copies weigh what a
// photograph's do.
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { args as chromeArgs, executablePath } from "../support/chromium.mjs";
import { drawTown } from "../support/drawn-photo";
import { replaceOnce } from "../support/preview.mjs";
import { servedCopy } from "../support/served-copy";

const require = createRequire(import.meta.url);

/** Loads one of Lighthouse's own modules (it ships as ES modules, without types). */
async function load<T>(name: string): Promise<T> {
  return (await import(pathToFileURL(require.resolve(name)).href)) as T;
}

interface Audit {
  score: number | null;
  scoreDisplayMode: string;
  errorMessage?: string;
  details?: { items?: { url: string; wastedBytes: number; totalBytes: number }[] };
}
interface RunnerResult {
  lhr: { audits: Record<string, Audit | undefined>; runtimeError?: { code: string; message: string } };
}
type Lighthouse = (url: string, flags: object, config?: object) => Promise<RunnerResult | undefined>;
interface Chrome {
  port: number;
  kill(): Promise<void>;
}

/**
 * `uses-responsive-images` on `url`, in Lighthouse's phone or desktop. An audit that errors
 * (its score is then null) says nothing about the page: on two busy cores Lighthouse's own
 * trace can come back without what the audit needs. Such a run is made again, up to three
 * times in all, and its messages are kept for the failure; a judged audit is never re-run.
 */
async function wasted(url: string, desktop: boolean): Promise<Audit> {
  const errors: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const audit = await audited(url, desktop);
    if (audit.scoreDisplayMode !== "error") return audit;
    errors.push(`run ${attempt}: ${audit.errorMessage ?? "no message"}`);
    test.info().annotations.push({ type: "lighthouse error", description: errors[errors.length - 1] });
  }
  throw new Error(`uses-responsive-images errored in every run:\n${errors.join("\n")}`);
}

async function audited(url: string, desktop: boolean): Promise<Audit> {
  const lighthouse = (await load<{ default: Lighthouse }>("lighthouse")).default;
  const launcher = await load<{ launch(options: object): Promise<Chrome> }>("chrome-launcher");
  const base = desktop ? (await load<{ default: { settings: object } }>("lighthouse/core/config/desktop-config.js")).default : undefined;
  const config = { extends: "lighthouse:default", settings: { ...(base?.settings ?? {}), onlyAudits: ["uses-responsive-images"] } };
  const chrome = await launcher.launch({ chromePath: executablePath, chromeFlags: [...chromeArgs, "--headless=new"], logLevel: "silent" });
  try {
    const result = await lighthouse(url, { port: chrome.port, logLevel: "error", output: "json" }, config);
    if (!result) throw new Error("Lighthouse returned nothing");
    if (result.lhr.runtimeError) throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
    const audit = result.lhr.audits["uses-responsive-images"];
    if (!audit) throw new Error("no uses-responsive-images audit");
    return audit;
  } finally {
    await chrome.kill();
  }
}

for (const [shape, width, height] of [
  ["portrait", 1200, 1600],
  ["landscape", 1500, 1000],
] as const) {
  test.describe(`a ${shape} hero photo`, () => {
    const preview = servedCopy({
      timeout: 240_000,
      prepare: async (root, { browser }) => {
        mkdirSync(join(root, "content/photos"));
        writeFileSync(join(root, "content/photos/street.jpg"), await drawTown(browser, width, height));
        replaceOnce(root, "content/home.yaml", "  button: Start Service\n", "  button: Start Service\n  image:\n    src: photos/street.jpg\n    alt: Our street on pickup day\n");
      },
    });

    for (const screen of ["phone", "desktop"] as const) {
      test(`passes Lighthouse's uses-responsive-images on its ${screen}`, { tag: "@any-screen" }, async () => {
        // Up to three Lighthouse runs (see `wasted`).
        test.setTimeout(300_000);
        const audit = await wasted(`${preview().origin}/`, screen === "desktop");
        const hero = (audit.details?.items ?? []).filter((item) => item.url.includes("/assets/img/street-"));
        expect(hero, JSON.stringify(audit.details?.items)).toEqual([]);
        expect(audit.score).toBe(1);
      });
    }
  });
}
