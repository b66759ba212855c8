// Checks the site's JSON-LD against schema.org's vocabulary as typed by
// schema-dts: each block becomes a typed constant in a TypeScript file,
//
//   const block0: S.WithContext<S.LocalBusiness> = { ...the block... };
//
// and the TypeScript compiler (strict, no emit) checks it, so a misspelled
// property, a value of the wrong kind or an unknown type fails with tsc's own
// message, pointing at the line of the offending property.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import ts from "typescript";

/** A schema.org type name, usable as a TypeScript identifier. */
const typeName = /^[A-Z][A-Za-z0-9]*$/;

/** The schema-dts type a JSON-LD block is checked against: its `@type`. */
export function schemaTypeOf(block: unknown): string {
  const type = (block as { "@type"?: unknown } | null)?.["@type"];
  if (typeof type !== "string" || !typeName.test(type)) {
    throw new Error(`a JSON-LD block needs a single schema.org "@type" at its top, found ${JSON.stringify(type)}`);
  }
  return type;
}

/** The TypeScript module that declares every block with its schema-dts type. */
export function jsonLdModule(blocks: readonly unknown[]): string {
  const lines = ['import type * as S from "schema-dts";', ""];
  blocks.forEach((block, i) => {
    const json = JSON.stringify(block, null, 2);
    lines.push(`export const block${i}: S.WithContext<S.${schemaTypeOf(block)}> = ${json};`, "");
  });
  return lines.join("\n");
}

/** What tsc is run with: `tsc --noEmit --strict`, nothing from @types. */
export const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2022.d.ts"],
  types: [],
  skipLibCheck: true,
};

let previous: ts.Program | undefined;

/**
 * Writes each case's blocks to its own file as typed constants and
 * type-checks them all in one program (schema-dts is large: parsed once).
 * Returns, per case, tsc's diagnostics formatted with the offending source
 * lines: an empty list when every block matches its schema.org type.
 * The files must lie under a folder whose node_modules holds schema-dts.
 */
export function typecheckJsonLdFiles(cases: Record<string, readonly unknown[]>): Record<string, string[]> {
  const files = Object.keys(cases);
  for (const file of files) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, jsonLdModule(cases[file] ?? []));
  }
  const program = ts.createProgram({ rootNames: files, options: compilerOptions, oldProgram: previous });
  previous = program;
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => "\n",
  };
  const format = (d: ts.Diagnostic) => ts.formatDiagnosticsWithColorAndContext([d], host).replace(/\x1b\[[0-9;]*m/g, "");
  const global = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(format);
  const result: Record<string, string[]> = {};
  for (const file of files) {
    const source = program.getSourceFile(file);
    const own = source ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)] : [];
    result[file] = [...global, ...own.map(format)];
  }
  return result;
}

/** `typecheckJsonLdFiles` for one file. */
export function typecheckJsonLd(blocks: readonly unknown[], file: string): string[] {
  return typecheckJsonLdFiles({ [file]: blocks })[file] ?? [];
}
