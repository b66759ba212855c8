// The tap sweep's report (tests/bench/tap-sweep.mjs): for each control and moment, kept or lost
// and the press's Event Timing duration (input to next paint, as INP counts it; "<16" where the
// browser reported none, under 16 ms), then the milliseconds from the press to its result as the
// page saw it; then the hydration figure, as a median.
// Writes the same figures to tests/bench/results/tap-sweep.json and hydration.json
// ($CURBSIDE_BENCH_RESULTS names another folder, as for every benchmark).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";
import type { Outcome } from "./tap-sweep";

const resultsDir = process.env.CURBSIDE_BENCH_RESULTS ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../bench/results");

function median(values: number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? null) : Math.round(((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2);
}

export default class TapSweepReporter implements Reporter {
  private outcomes: Outcome[] = [];
  private hydration: Array<{ device: string; ms: number }> = [];

  onTestEnd(_test: TestCase, result: TestResult): void {
    for (const attachment of result.attachments) {
      const body = attachment.body?.toString("utf8");
      if (!body) continue;
      if (attachment.name === "tap-sweep") this.outcomes.push(JSON.parse(body) as Outcome);
      if (attachment.name === "hydration") this.hydration.push(JSON.parse(body) as { device: string; ms: number });
    }
  }

  onEnd(): void {
    const lines: string[] = [];
    for (const device of ["desktop", "phone"]) {
      const rows = this.outcomes.filter((o) => o.device === device);
      if (rows.length === 0) continue;
      const moments = [...new Set(rows.map((o) => o.moment))];
      const controls = [...new Set(rows.map((o) => o.control))];
      const lost = rows.filter((o) => !o.kept).length;
      const slow = rows.filter((o) => o.eventMs > 100);
      const worst = Math.max(0, ...rows.map((o) => o.eventMs));
      lines.push(
        "",
        `${device}: ${rows.length - lost} of ${rows.length} presses kept, ${lost} lost; ${slow.length} over 100 ms, the worst ${worst} ms (Event Timing duration / ms from press to result)`,
        "",
      );
      lines.push(`| control | ${moments.join(" | ")} |`, `|---|${moments.map(() => "---:").join("|")}|`);
      for (const control of controls) {
        const cells = moments.map((moment) => {
          const outcome = rows.find((o) => o.control === control && o.moment === moment);
          if (!outcome) return "";
          const event = outcome.eventMs > 0 ? String(outcome.eventMs) : "<16";
          return outcome.kept ? `${event} / ${outcome.ms ?? "?"}` : `LOST (${event})`;
        });
        lines.push(`| ${control} | ${cells.join(" | ")} |`);
      }
    }
    for (const device of ["desktop", "phone"]) {
      const runs = this.hydration.filter((h) => h.device === device).map((h) => h.ms);
      if (runs.length === 0) continue;
      lines.push("", `${device}: scroll start → pricing hydrated, median ${median(runs)} ms of ${runs.length} (runs: ${runs.join(", ")})`);
    }
    console.log(lines.join("\n"));
    mkdirSync(resultsDir, { recursive: true });
    // One file per kind, so the benchmark's two runs (the sweep, the hydration runs) keep both.
    if (this.outcomes.length > 0) writeFileSync(path.join(resultsDir, "tap-sweep.json"), JSON.stringify(this.outcomes, null, 2));
    if (this.hydration.length > 0) writeFileSync(path.join(resultsDir, "hydration.json"), JSON.stringify(this.hydration, null, 2));
  }
}
