// @ts-check
// bench.mjs's report: the figures checked against their targets, and the text printed on
// stdout, both from the results it writes to tests/bench/results/latest.json.

const KB = 1024;
/** @param {number} bytes */
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
/** @param {boolean} pass */
const mark = (pass) => (pass ? "pass" : "FAIL");

/** @param {string[][]} rows @param {string} [title] */
function table(rows, title) {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  const line = (/** @type {string[]} */ r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  const out = [];
  if (title) out.push("", title, "=".repeat(title.length));
  out.push(line(rows[0] ?? []), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line));
  return out.join("\n");
}

/**
 * Every figure that has a target, flat: what the table "Targets" shows.
 * @param {any} results
 * @returns {Array<{ figure: string, value: string, target: string, pass: boolean | null, note?: string }>}
 */
export function checks(results) {
  /** @type {Array<{ figure: string, value: string, target: string, pass: boolean | null, note?: string }>} */
  const list = [];
  const lh = results.lighthouse;
  if (lh && !lh.error) {
    for (const [path, p] of Object.entries(/** @type {Record<string, any>} */ (lh))) {
      if (p.error) {
        list.push({ figure: `Lighthouse ${path}`, value: "not measured", target: "100", pass: null, note: p.runErrors.join("; ") });
        continue;
      }
      for (const [c, s] of Object.entries(/** @type {Record<string, any>} */ (p.scores))) {
        const counted = p.failingAudits.filter((/** @type {any} */ a) => a.category === c && a.weight > 0);
        const inherent = !s.pass && counted.length > 0 && counted.every((/** @type {any} */ a) => a.causedByStatus);
        list.push({
          figure: `Lighthouse ${path} ${c}`,
          value: String(s.value),
          target: "100",
          // A page that must answer 404 cannot pass "successful HTTP status code"; every other audit counts.
          pass: s.pass || inherent,
          ...(inherent ? { note: `only from answering ${p.status}: ${counted.map((/** @type {any} */ a) => a.id).join(", ")}` } : {}),
        });
      }
      if (path === "/") list.push({ figure: "Lighthouse / LCP", value: `${Math.round(p.metrics.lcpMs.value)} ms`, target: "≤ 800 ms", pass: p.metrics.lcpMs.pass });
    }
  }
  const desktop = results.bytes?.desktop;
  if (desktop) {
    for (const [path, p] of Object.entries(/** @type {Record<string, any>} */ (desktop))) {
      if (path === "/") list.push({ figure: "home HTML + CSS, gzipped", value: kb(p.html.gzip + p.css.gzip), target: "≤ 14.0 KB", pass: p.html.gzip + p.css.gzip <= results.targets.homeHtmlCssGzip });
    }
    for (const [path, p] of Object.entries(/** @type {Record<string, any>} */ (desktop))) {
      const bytes = p.jsBeforeInteraction.reactAndIslands.raw;
      list.push({ figure: `desktop ${path}: React/island JS before interaction`, value: `${bytes} B`, target: "0 B", pass: bytes === results.targets.desktopIslandJsBeforeInteraction });
    }
  }
  const build = results.buildTime;
  if (build && !build.error) {
    list.push({ figure: "full build, median", value: `${build.medianMs} ms`, target: "≤ 1000 ms (required)", pass: build.pass.required });
    list.push({ figure: "full build, median", value: `${build.medianMs} ms`, target: "≤ 300 ms (aim)", pass: build.pass.aim });
  }
  const rebuild = results.rebuild;
  if (rebuild?.contentEdit) {
    list.push({ figure: "content edit → reload, rebuild (median)", value: `${rebuild.contentEdit.value} ms`, target: "≤ 50 ms", pass: rebuild.contentEdit.pass });
  } else {
    list.push({ figure: "content edit → reload, rebuild", value: rebuild?.status === "measured" ? "no content figure" : "not measured yet", target: "≤ 50 ms", pass: null });
  }
  return list;
}

/**
 * The report printed on stdout.
 * @param {any} results
 * @param {ReadonlyArray<{ name: string, width: number, height: number }>} viewports
 */
export function render(results, viewports) {
  const out = [];
  const load = (/** @type {number[]} */ l) => l.map((x) => x.toFixed(1)).join(" ");
  out.push(
    `curbside benchmark, ${results.generatedAt}, commit ${results.git?.commit?.slice(0, 10) ?? "?"}${results.git?.dirty ? " + uncommitted changes" : ""}`,
    `machine: ${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}, Chromium ${results.bytes?.chromium ?? "?"}; ` +
      `load average ${load(results.machine.loadavgAtStart)} at start, ${load(results.machine.loadavgAtEnd)} at end ` +
      `(timings and Lighthouse's simulated metrics, which scale observed CPU time, are noisy when it exceeds the CPU count)`,
  );

  const lh = results.lighthouse;
  if (lh && !lh.error) {
    const rows = [["page", "perf", "a11y", "best-pr", "seo", "LCP ms", "TBT ms", "CLS", "FCP ms", "each run: scores, LCP ms"]];
    for (const [path, p] of Object.entries(/** @type {Record<string, any>} */ (lh))) {
      if (p.error) {
        rows.push([path, "-", "-", "-", "-", "-", "-", "-", "-", `no run succeeded: ${p.runErrors.join("; ")}`]);
        continue;
      }
      rows.push([
        path,
        ...["performance", "accessibility", "best-practices", "seo"].map((c) => String(p.scores[c].value)),
        String(Math.round(p.metrics.lcpMs.value)),
        String(Math.round(p.metrics.tbtMs.value)),
        p.metrics.cls.value === null ? "?" : p.metrics.cls.value.toFixed(3),
        String(Math.round(p.metrics.fcpMs.value)),
        p.scoresPerRun.map((/** @type {any} */ s, /** @type {number} */ i) => `${Object.values(s).join("/")} ${p.lcpPerRunMs[i]}`).join(", "),
      ]);
    }
    out.push(table(rows, `Lighthouse ${Object.values(lh)[0]?.lighthouseVersion ?? ""} (mobile, simulated throttling; median run of ${results.options.lighthouseRuns}, each run at the right)`));
    const index = Object.entries(/** @type {Record<string, any>} */ (lh)).filter(([, p]) => !p.error).map(([path, p]) => `${path} ${p.benchmarkIndex}`).join(", ");
    out.push(`Lighthouse's CPU benchmarkIndex in the median runs (higher = faster machine): ${index}`);
    for (const counted of [true, false]) {
      out.push(
        "",
        counted
          ? "Audits not passing that count toward a score (score < 1 in any run):"
          : "Audits not passing with weight 0 (advice; they do not change the score):",
      );
      for (const [path, p] of Object.entries(/** @type {Record<string, any>} */ (lh))) {
        if (p.error) continue;
        if (counted) for (const e of p.runErrors) out.push(`  ${path}: a run failed: ${e}`);
        if (counted && p.runtimeError) out.push(`  ${path}: RUNTIME ERROR ${p.runtimeError.code}: ${p.runtimeError.message}`);
        if (counted) for (const w of p.runWarnings) out.push(`  ${path}: warning: ${typeof w === "string" ? w : JSON.stringify(w)}`);
        const list = p.failingAudits.filter((/** @type {any} */ a) => (a.weight > 0) === counted);
        if (!list.length) out.push(`  ${path}: none`);
        for (const a of list) {
          const shown = a.medianRun.displayValue ? ` (${a.medianRun.displayValue})` : "";
          const because = a.causedByStatus ? " [only because the page answers 404, as it must]" : "";
          out.push(`  ${path}  ${a.category}/${a.id} (weight ${a.weight}): ${a.title}${shown}; score ${a.medianRun.score ?? "?"} in the median run, below 1 in ${a.failedRuns}/${p.runs} runs${because}`);
          if (a.medianRun.explanation) out.push(`      ${a.medianRun.explanation}`);
          for (const d of a.details.slice(0, counted ? 6 : 2)) out.push(`      · ${d}`);
        }
      }
    }
  }

  const bytes = results.bytes;
  if (bytes && !bytes.error) {
    for (const viewport of viewports) {
      const perPage = bytes[viewport.name];
      if (!perPage) continue;
      const rows = [["page", "HTML raw", "HTML gz", "CSS raw", "CSS gz", "HTML+CSS gz", "JS before raw", "JS before gz", "of it React/islands gz", "JS after scroll gz", "of it React/islands gz"]];
      for (const [path, p] of Object.entries(/** @type {Record<string, any>} */ (perPage))) {
        rows.push([
          path,
          kb(p.html.raw), kb(p.html.gzip), kb(p.css.raw), kb(p.css.gzip), kb(p.html.gzip + p.css.gzip),
          kb(p.jsBeforeInteraction.all.raw), kb(p.jsBeforeInteraction.all.gzip), kb(p.jsBeforeInteraction.reactAndIslands.gzip),
          kb(p.jsAfterScroll.all.gzip), kb(p.jsAfterScroll.reactAndIslands.gzip),
        ]);
      }
      out.push(table(rows, `Page weight, ${viewport.name} ${viewport.width}×${viewport.height} (first visit; "before" = ${results.options.settleMs} ms after load, no interaction; gz = the build's .gz)`));
      for (const [path, p] of Object.entries(/** @type {Record<string, any>} */ (perPage))) {
        const files = (/** @type {any} */ t) => t.urls.map((/** @type {string} */ u) => u.replace("/assets/", "")).join(", ") || "none";
        out.push(`  ${path}: before interaction: ${files(p.jsBeforeInteraction.all)}; after scrolling: ${files(p.jsAfterScroll.all)}`);
        if (p.offsiteRequests.length) out.push(`  ${path}: OFF-SITE REQUESTS (blocked): ${p.offsiteRequests.join(", ")}`);
      }
    }
  }

  const build = results.buildTime;
  if (build && !build.error) {
    out.push(
      "",
      "Full build",
      "==========",
      `${build.command}: median ${build.medianMs} ms of ${build.runsMs.length} runs, start to exit (${build.runsMs.join(", ")} ms; curbside's own "Built … in" figures: ${build.reportedByCurbsideMs.join(", ") || "n/a"} ms)`,
    );
    if (build.untilOutputClosedMedianMs - build.medianMs > 100) {
      out.push(
        `until its stdout/stderr close: median ${build.untilOutputClosedMedianMs} ms (${build.untilOutputClosedMs.join(", ")} ms): a process it started outlives it holding them open, so a caller reading its output through a pipe waits that long`,
      );
    }
  }

  const rebuild = results.rebuild;
  out.push("", "Rebuild (serve --watch)", "=======================");
  if (!rebuild || rebuild.error) out.push(rebuild ? "could not be measured (see below)" : "skipped");
  else if (rebuild.status !== "measured") out.push(rebuild.status);
  else {
    for (const [k, v] of Object.entries(rebuild.figuresMs)) {
      const each = rebuild.runsMs?.[k]?.length ? ` (each run: ${rebuild.runsMs[k].join(", ")} ms)` : "";
      out.push(`${k} edit: median ${v} ms${each}`);
    }
    if (!Object.keys(rebuild.figuresMs).length) out.push(rebuild.output.trim());
  }

  const rows = [["figure", "value", "target", "result"]];
  for (const c of results.checks) {
    rows.push([c.figure, c.value, c.target, c.pass === null ? "n/a" : c.note ? `${mark(c.pass)}*` : mark(c.pass)]);
  }
  out.push(table(rows, "Targets"));
  for (const c of results.checks.filter((/** @type {any} */ c) => c.note)) out.push(`  * ${c.figure}: ${c.note}`);
  if (results.errors.length) {
    out.push("", "MEASUREMENTS THAT FAILED:", ...results.errors.map((/** @type {string} */ e) => `  ${e.replaceAll("\n", "\n    ")}`));
  }
  return out.join("\n");
}
