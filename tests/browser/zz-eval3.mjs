import { chromium } from "@playwright/test";
import { args, executablePath } from "./support/chromium.mjs";
import fs from "node:fs";
const browser = await chromium.launch({ executablePath, args: process.env.JSF ? [...args, "--js-flags=" + process.env.JSF] : args });
const ctx = await browser.newContext();
const page = await ctx.newPage();
const cdp = await ctx.newCDPSession(page); if (process.env.OWN) { const impl = page._connection.toImpl(page); const client = impl.delegate?._mainFrameSession?._client ?? impl._delegate._mainFrameSession._client; await client.send("Runtime.setMaxCallStackSizeToCapture", { size: 0 }); }
if (process.env.MAX0) { await cdp.send("Runtime.enable"); await cdp.send("Runtime.setMaxCallStackSizeToCapture", { size: 0 }); }
await cdp.send("Tracing.start", { categories: "toplevel,v8,disabled-by-default-v8.compile", transferMode: "ReturnAsStream" });
const got = new Promise((r) => page.on("console", (m) => { if (m.text().startsWith("EVAL")) r(m.text()); }));
await page.goto(process.argv[2]);
console.log(await got);
const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
await cdp.send("Tracing.end");
const { stream } = await done;
let data = "";
for (;;) { const c = await cdp.send("IO.read", { handle: stream }); data += c.data; if (c.eof) break; }
const ev = JSON.parse(data).traceEvents;
for (const e of ev) if (["V8.CollectSourcePositions", "v8.evaluateModule", "V8.ParseProgram"].includes(e.name) && e.ph === "X" && e.dur > 1000) console.log(e.name, e.dur / 1000);
await browser.close();
