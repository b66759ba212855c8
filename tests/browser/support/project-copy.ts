// A copy of the project that a spec may edit freely, and `curbside serve` on it: each
// spec gets its own folder and port on 127.0.0.1, and stops the server afterwards.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { curbsideBinary } from "./curbside-binary.mjs";
import { freePort } from "./free-port.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

export interface Preview {
  root: string;
  origin: string;
  server: ChildProcess;
  /** Everything the server has printed so far, stdout and stderr together. */
  output: string[];
}

/** A copy of the project to edit freely; frontend/node_modules is a folder of links to
 * the real packages (so nothing is installed again, and caches stay the copy's own). */
export function copyProject(): string {
  const root = mkdtempSync(join(tmpdir(), "curbside-preview-"));
  for (const folder of ["content", "layouts"]) cpSync(join(repo, folder), join(root, folder), { recursive: true });
  cpSync(join(repo, "frontend"), join(root, "frontend"), {
    recursive: true,
    filter: (source) => !source.split(/[\\/]/).includes("node_modules"),
  });
  const modules = join(repo, "frontend/node_modules");
  if (!existsSync(join(modules, ".curbside-installed")) && !existsSync(join(modules, "react"))) {
    throw new Error("frontend/node_modules is not installed: run `npm ci` in frontend/ (tests/run.sh does)");
  }
  mkdirSync(join(root, "frontend/node_modules"));
  for (const entry of readdirSync(modules)) {
    if (entry !== ".cache") symlinkSync(join(modules, entry), join(root, "frontend/node_modules", entry));
  }
  return root;
}

/** Starts `curbside serve --watch` and resolves with its address once it serves. */
export async function startPreview(root: string, args: readonly string[] = ["--watch"]): Promise<Preview> {
  const port = await freePort();
  const server = spawn(curbsideBinary(), ["--root", root, "serve", ...args, "--port", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const origin = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the preview did not start:\n${output.join("")}`)), 90_000);
    const read = (chunk: Buffer) => {
      output.push(chunk.toString("utf8"));
      const serving = /Serving (http:\/\/127\.0\.0\.1:\d+)\//.exec(output.join(""));
      if (serving) {
        clearTimeout(timer);
        done(serving[1]!);
      }
    };
    server.stdout!.on("data", read);
    server.stderr!.on("data", read);
    server.once("exit", (code) => fail(new Error(`the preview exited (${code}):\n${output.join("")}`)));
  });
  return { root, origin, server, output };
}


/** Stops the server and removes the copy. */
export async function stopPreview({ server, root }: Preview): Promise<void> {
  if (server.exitCode === null) {
    const exited = new Promise((done) => server.once("exit", done));
    server.kill("SIGTERM");
    await exited;
  }
  rmSync(root, { recursive: true, force: true });
}
