// @ts-check
// The repository's deploy files, read as the host tests run them: the steps of the GitHub
// workflows (.github/workflows/), netlify.toml and wrangler.toml. hosts.test.mjs runs the
// workflow steps that can run here exactly as they are written, in a copy of the project,
// with the binary the tests built as $CURBSIDE and a test server's address as the deployed
// one: the only values that differ from a run on GitHub.

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";

/**
 * @typedef {{ name?: string, id?: string, run?: string, uses?: string, if?: string, env?: Record<string, string> }} Step
 * @typedef {{ env?: Record<string, string>, jobs: Record<string, { steps: Step[], env?: Record<string, string> }> }} Workflow
 */

/** @param {string} repo @param {string} file the name in .github/workflows/ @returns {Workflow} */
export function readWorkflow(repo, file) {
  return parseYaml(readFileSync(join(repo, ".github/workflows", file), "utf8"));
}

/** @param {string} repo @param {string} file netlify.toml or wrangler.toml @returns {Record<string, any>} */
export function readToml(repo, file) {
  return parseToml(readFileSync(join(repo, file), "utf8"));
}

/**
 * The step of `job` with this `id`: it must exist and run a shell command.
 * @param {Workflow} workflow @param {string} job @param {string} id
 */
export function step(workflow, job, id) {
  const found = workflow.jobs[job]?.steps.find((candidate) => candidate.id === id);
  assert.ok(found, `the workflow's job ${job} has a step with id: ${id}`);
  assert.equal(typeof found.run, "string", `step ${id} of ${job} runs a command`);
  return found;
}

/**
 * Runs a step's `run:` text as GitHub runs it with `shell: bash` (bash --noprofile --norc -eo
 * pipefail), in `cwd`. `values` gives each `${{ ... }}` of the step's env: a variable the test
 * does not give fails the test, so a new one cannot pass unnoticed.
 * @param {Step} step @param {{ cwd: string, curbside: string, values?: Record<string, string> }} options
 */
export function runStep(step, { cwd, curbside, values = {} }) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [name, value] of Object.entries(step.env ?? {})) {
    if (/\$\{\{/.test(String(value))) {
      assert.ok(name in values, `step ${step.id}: the test gives ${name} (${value})`);
      env[name] = values[name];
    } else {
      env[name] = String(value);
    }
  }
  const run = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run ?? ""], {
    cwd,
    env: { ...process.env, ...env, CURBSIDE: curbside },
    encoding: "utf8",
    timeout: 300_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * A copy of the project as a fresh clone has it (the files git tracks or would track, as they
 * are in the work tree), so a step's dist/ never replaces the owner's. The frontend's
 * installed packages are linked, not installed again.
 * @param {string} repo @param {string} dest
 */
export function projectCopy(repo, dest) {
  rmSync(dest, { recursive: true, force: true });
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repo,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  })
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    const from = join(repo, file);
    if (!existsSync(from)) continue; // deleted in the work tree, not yet in git
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    copyFileSync(from, join(dest, file));
  }
  const modules = join(repo, "frontend/node_modules");
  if (existsSync(modules)) symlinkSync(modules, join(dest, "frontend/node_modules"));
  return dest;
}
