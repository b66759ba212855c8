// Quality gates on the built pages, as served (HTML fetched with `request.get`):
//   - html-validate with its `html-validate:recommended` preset: zero errors;
//   - every JSON-LD block type-checked against schema.org's types (schema-dts)
//     by the TypeScript compiler, plus cases proving that check can fail.
// The served HTML is the same at every viewport, so these run in the desktop
// project only (tagged @any-screen).

import { writeFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { HtmlValidate, type Message, type RuleConfig } from "html-validate";
import { schemaTypeOf, typecheckJsonLd, typecheckJsonLdFiles } from "../support/jsonld-types";

const pages = [
  { path: "/", status: 200 },
  { path: "/privacypolicy", status: 200 },
  { path: "/termsofservice", status: 200 },
  { path: "/start", status: 200 },
  { path: "/missing", status: 404 },
];

// Rules of the recommended preset reconfigured for this site; none is off.
// The islands' HTML is React's server output, inserted as React wrote it (any
// change would break hydration); the layouts follow the same style so each
// page has one.
const ruleDecisions: RuleConfig = {
  // React writes void elements as `<input/>`.
  "void-style": ["error", { style: "selfclose" }],
  // React writes boolean and empty attributes as `required=""`.
  "attribute-boolean-style": ["error", { style: "empty" }],
  "attribute-empty-style": ["error", { style: "empty" }],
  // React writes DOM properties in camelCase (autoComplete, inputMode);
  // HTML attribute names are case-insensitive.
  "attr-case": ["error", { style: ["lowercase", "camelcase"] }],
  // React's useId ids and the form service's `_gotcha` begin with "_":
  // valid HTML ids, still checked for validity.
  "valid-id": ["error", { relaxed: true }],
  // Phone numbers carry the `tel` class, which keeps them on one line.
  "tel-non-breaking": ["error", { ignoreClasses: ["tel"] }],
};

const validator = new HtmlValidate({
  extends: ["html-validate:recommended"],
  rules: ruleDecisions,
});

/** Up to `max` characters of `html` around a message, on one line. */
function excerpt(html: string, message: Message, max = 110): string {
  const start = Math.max(0, message.offset - 25);
  const text = html.slice(start, start + Math.max(max, message.size + 50)).replace(/\s+/g, " ");
  return (start > 0 ? "…" : "") + text + (start + text.length < html.length ? "…" : "");
}

/** The messages grouped by rule, each with a few examples in context. */
function describeMessages(path: string, html: string, messages: Message[], perRule = 4): string {
  const byRule = new Map<string, Message[]>();
  for (const message of messages) {
    byRule.set(message.ruleId, [...(byRule.get(message.ruleId) ?? []), message]);
  }
  const rules = [...byRule.entries()].sort((a, b) => b[1].length - a[1].length);
  const lines = [`${path}: ${messages.length} html-validate error(s) from ${rules.length} rule(s)`];
  for (const [rule, list] of rules) {
    const url = list[0]?.ruleUrl ? `  ${list[0].ruleUrl}` : "";
    lines.push("", `  ${rule} ×${list.length}${url}`);
    for (const message of list.slice(0, perRule)) {
      lines.push(`    - ${message.message}`, `        at ${message.selector ?? "?"}`, `        ${excerpt(html, message)}`);
    }
    if (list.length > perRule) lines.push(`    … and ${list.length - perRule} more`);
  }
  return lines.join("\n");
}

/** The parsed content of every `<script type="application/ld+json">` of a page. */
function jsonLdBlocks(html: string): unknown[] {
  const pattern = /<script\b[^>]*?\btype\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script\s*>/gi;
  return [...html.matchAll(pattern)].map((match) => JSON.parse(match[1] ?? "") as unknown);
}

for (const { path, status } of pages) {
  test(`${path} has no html-validate errors (html-validate:recommended)`, { tag: "@any-screen" }, async ({ request }, testInfo) => {
    const response = await request.get(path);
    expect(response.status()).toBe(status);
    const html = await response.text();
    const report = await validator.validateString(html, path);
    const messages = report.results.flatMap((result) => result.messages);
    const errors = messages.filter((message) => message.severity === 2);
    const warnings = messages.filter((message) => message.severity !== 2);
    if (warnings.length) {
      testInfo.annotations.push({ type: "html-validate warnings", description: describeMessages(path, html, warnings) });
    }
    let full = "";
    if (messages.length) {
      full = testInfo.outputPath("html-validate.txt");
      await writeFile(full, describeMessages(path, html, messages, Number.MAX_SAFE_INTEGER) + "\n");
    }
    expect(errors.length, `${describeMessages(path, html, errors)}\n\n  every message: ${full}\n`).toBe(0);
  });
}

// tsc loads schema-dts (about 900 KB of declarations): slow on a busy machine.
const typecheckTimeout = 120_000;

test("the JSON-LD of every page matches schema.org's types (schema-dts, tsc --strict)", { tag: "@any-screen" }, async ({ request }, testInfo) => {
  test.setTimeout(typecheckTimeout);
  const typesByPage: Record<string, string[]> = {};
  for (const { path } of pages) {
    const html = await (await request.get(path)).text();
    const blocks = jsonLdBlocks(html);
    typesByPage[path] = blocks.map(schemaTypeOf);
    if (!blocks.length) continue;
    const file = testInfo.outputPath(`jsonld${path === "/" ? "-home" : path.replaceAll("/", "-")}.ts`);
    const diagnostics = typecheckJsonLd(blocks, file);
    expect(diagnostics, `${path}: its JSON-LD does not match schema.org's types\n\n${diagnostics.join("\n")}`).toEqual([]);
  }
  // The structured data the design calls for is on the home page.
  expect(typesByPage["/"]).toEqual(expect.arrayContaining(["LocalBusiness", "FAQPage"]));
});

test("the JSON-LD check fails on data that does not match schema.org's types", { tag: "@any-screen" }, () => {
  test.setTimeout(typecheckTimeout);
  const business = {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    name: "Curbside Brookings",
    telephone: "+16055550142",
    makesOffer: [{ "@type": "Offer", price: "25", priceCurrency: "USD" }],
  };
  const { telephone, ...withoutPhone } = business;
  const cases = {
    valid: business,
    misspelled: { ...withoutPhone, telephon: telephone },
    nested: { ...business, makesOffer: [{ "@type": "Offer", price: "25", priceCurency: "USD" }] },
    wrongKind: { ...business, priceRange: 25 },
    unknownType: { ...business, "@type": "LocalBusinesss" },
  };
  const file = (name: string) => test.info().outputPath(`check-${name}.ts`);
  const results = typecheckJsonLdFiles(
    Object.fromEntries(Object.entries(cases).map(([name, object]) => [file(name), [object]])),
  );
  const diagnostics = (name: keyof typeof cases) => (results[file(name)] ?? []).join("\n");
  // A control: the harness resolves schema-dts and accepts correct data.
  expect(diagnostics("valid")).toBe("");
  expect.soft(diagnostics("misspelled")).toContain(`'"telephon"' does not exist`);
  expect.soft(diagnostics("nested")).toContain(`'"priceCurency"' does not exist`);
  expect.soft(diagnostics("wrongKind")).toMatch(/Type 'number' is not assignable/);
  expect.soft(diagnostics("unknownType")).toContain("has no exported member named 'LocalBusinesss'");
});
