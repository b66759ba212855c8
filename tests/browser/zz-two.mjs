// scratch: second toggle's Start Monthly after pricing_2 hydrated, phone, slow.
import { chromium, devices } from "@playwright/test";
import { args, executablePath } from "./support/chromium.mjs";
const browser = await chromium.launch({ executablePath, args });
const N = Number(process.env.N) || 6;
const rows = [];
for (let i = 0; i < N; i++) {
  const ctx = await browser.newContext({ ...devices["Pixel 7"], viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: 200000, uploadThroughput: 93750 });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  if (process.env.MAX0) await cdp.send("Runtime.enable"), await cdp.send("Runtime.setMaxCallStackSizeToCapture", { size: 0 });
  await page.addInitScript(() => {
    localStorage.setItem("plan", "annual");
    window.__ev = []; window.__loaf = []; window.__marks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.interactionId) window.__ev.push({ n: e.name, d: e.duration, s: e.startTime, ps: e.processingStart, pe: e.processingEnd }); }).observe({ type: "event", durationThreshold: 16, buffered: true });
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__loaf.push({ s: e.startTime, d: e.duration, b: e.blockingDuration, r: e.renderStart, sl: e.styleAndLayoutStart, scripts: e.scripts.map((x) => ({ inv: x.invoker, src: (x.sourceURL||"").split("/").pop() + ":" + x.sourceFunctionName, s: x.startTime, d: x.duration, f: x.forcedStyleAndLayoutDuration })) }); }).observe({ type: "long-animation-frame", buffered: true });
    new MutationObserver((ms) => { for (const m of ms) window.__marks.push(`${m.target.getAttribute("data-placement")}:${m.attributeName}${m.target.hasAttribute(m.attributeName) ? "+" : "-"}@${performance.now().toFixed(0)}`); }).observe(document, { subtree: true, attributeFilter: ["data-hydrated", "data-hydrating"] });
  });
  await page.goto("http://127.0.0.1:4196/", { waitUntil: "load" });
  const target = page.locator("[data-placement=pricing_2]").getByRole("link", { name: "Start Monthly" });
  await page.locator("#pricing").evaluate((e) => e.scrollIntoView({ block: "start", behavior: "instant" }));
  await page.touchscreen.tap(5, 400); // engage
  await target.evaluate((e) => e.scrollIntoView({ block: "center", behavior: "instant" }));
  await page.locator("[data-placement=pricing_2][data-hydrated]").waitFor({ state: "attached", timeout: 30000 });
  const box = await target.boundingBox();
  const t = await page.evaluate(() => performance.now());
  if (process.env.TRACE && i === 0) await cdp.send("Tracing.start", { categories: "devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink,input,latencyInfo,toplevel", transferMode: "ReturnAsStream" });
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForTimeout(2500);
  if (process.env.TRACE && i === 0) {
    const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
    await cdp.send("Tracing.end");
    const { stream } = await done;
    let data = "";
    for (;;) { const c = await cdp.send("IO.read", { handle: stream }); data += c.data; if (c.eof) break; }
    (await import("node:fs")).writeFileSync(process.env.TRACE, data);
  }
  const { ev, loaf, marks } = await page.evaluate(() => ({ ev: window.__ev, loaf: window.__loaf, marks: window.__marks }));
  const evs = ev.filter((e) => e.s > t);
  const t0 = Math.min(...evs.map((e) => e.s));
  const click = evs.find((e) => e.n === "click");
  const d = Math.max(...evs.map((e) => e.d));
  rows.push(d);
  console.log(`#${i} max ${d} click delay ${(click.ps - click.s).toFixed(0)} proc ${(click.pe - click.ps).toFixed(0)} | t0=${t0.toFixed(0)}`);
  console.log("   marks:", marks.join(" "));
  for (const l of loaf.filter((l) => l.s + l.d > t0 - 100 && l.s < t0 + 300)) console.log(`   loaf@${(l.s - t0).toFixed(0)} d${l.d.toFixed(0)} render@${(l.r - t0).toFixed(0)} [${l.scripts.map((x) => `${x.inv} ${x.src} @${(x.s - t0).toFixed(0)} ${x.d.toFixed(0)}ms f${x.f.toFixed(0)}`).join("; ")}]`);
  await ctx.close();
}
console.log("all:", rows.join(" "));
await browser.close();
