// @vitest-environment node
// Speaks the island-server protocol for real: spawns the script, as the Rust CLI does.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactProps, pricingProps } from "./fixtures/props";

const script = fileURLToPath(new URL("../scripts/island-server.mjs", import.meta.url));

interface Reply {
  id: number | null;
  ok: boolean;
  error?: string;
  entry?: string;
  loader?: string;
  css?: string[];
  files?: { path: string; contents: string }[];
  islandFiles?: Record<string, string[]>;
  islands?: { html: string; hydrate: string }[];
}

class IslandServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stderr: string[] = [];
  private readonly waiting: ((reply: Reply) => void)[] = [];
  readonly exited: Promise<number | null>;

  constructor() {
    this.child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.on("data", (chunk: Buffer) => this.stderr.push(chunk.toString()));
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      // Every stdout line must be one JSON reply; anything else fails the parse here.
      const reply = JSON.parse(line) as Reply;
      const next = this.waiting.shift();
      if (!next) throw new Error(`unexpected reply: ${line}`);
      next(reply);
    });
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
  }

  send(request: object | string): Promise<Reply> {
    const line = typeof request === "string" ? request : JSON.stringify(request);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin.write(`${line}\n`);
    });
  }

  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}

const REACT_MARK = "react.transitional.element";

describe("island server", () => {
  let server: IslandServer;
  beforeAll(() => {
    server = new IslandServer();
  });
  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill();
  });

  it("bundles the runtime, one React chunk and one chunk per island", async () => {
    const reply = await server.send({ id: 1, cmd: "bundle" });
    expect(reply.error).toBeUndefined();
    expect(reply).toMatchObject({ id: 1, ok: true });
    const files = reply.files ?? [];
    const paths = files.map((f) => f.path);
    for (const path of paths) expect(path).toMatch(/^assets\/[\w-]+-[A-Z0-9]{8}\.js$/);
    expect(reply.entry).toMatch(/^assets\/islands-[A-Z0-9]{8}\.js$/);
    expect(paths).toContain(reply.entry);

    const runtime = files.find((f) => f.path === reply.entry)?.contents ?? "";
    // No React, and no static imports at all: the first page load fetches this one file.
    expect(runtime).not.toContain(REACT_MARK);
    expect(runtime).not.toMatch(/\bimport\s*[{*"'\w]/);
    expect(runtime).not.toContain("process.env");

    const reactChunks = files.filter((f) => f.contents.includes(REACT_MARK));
    expect(reactChunks).toHaveLength(1);
    const reactChunk = reactChunks[0];
    expect(reactChunk?.contents).toContain("hydrateRoot");

    for (const name of ["pricing", "contact"]) {
      const chunk = files.find((f) => f.path.startsWith(`assets/${name}-`));
      expect(chunk, name).toBeDefined();
      // Its placements name it first, then the one React chunk it shares (the runtime names no
      // file: it reads them from the placement).
      expect(reply.islandFiles?.[name]).toEqual([chunk?.path, reactChunk?.path]);
      expect(runtime).not.toContain(`${chunk?.path.slice("assets/".length)}`);
      expect(chunk?.contents).not.toContain(REACT_MARK);
      expect(chunk?.contents).toContain(reactChunk?.path.slice("assets/".length));
    }
    // Every relative import points at a file in the reply.
    for (const file of files) {
      for (const [, target] of file.contents.matchAll(/["']\.\/([\w-]+\.js)["']/g)) {
        expect(paths, `${file.path} imports ${target}`).toContain(`assets/${target}`);
      }
    }
    const formspree = files.filter((f) => f.contents.includes("Formspree-Session-Data"));
    expect(formspree.map((f) => f.path)).toEqual([expect.stringMatching(/^assets\/contact-/)]);

    // The loader: a classic script for inlining, which names no file (its element does).
    const loader = reply.loader ?? "";
    expect(loader).toContain("PerformanceObserver");
    expect(loader).toContain("import(");
    expect(loader).not.toMatch(/\bimport\s*[{*"'\w]/);
    expect(loader).not.toContain("islands-");
    expect(loader).not.toMatch(/<\/script|<!--/i);
    expect(loader).not.toContain("\n");
  });

  it("minifies stylesheets, each on its own, keeping what a browser reads", async () => {
    const reply = await server.send({
      id: 9,
      cmd: "css",
      sheets: [
        { name: "layouts/assets/a.css", css: "/* why */\n.a {\n  color : #ff0000 ;\n  margin: 0px 0px;\n}\n" },
        { name: "layouts/assets/b.css", css: "@media (max-width: 47.99rem) {\n  .b { display: none }\n}\n" },
      ],
    });
    expect(reply.error).toBeUndefined();
    expect(reply.css).toEqual([".a{color:red;margin:0}", "@media(max-width:47.99rem){.b{display:none}}"]);

    const broken = await server.send({ id: 10, cmd: "css", sheets: [{ name: "x.css" }] });
    expect(broken).toMatchObject({ id: 10, ok: false });
    expect(broken.error).toContain('sheets[0] must be an object with a string "name" and "css"');
  });

  it("rebuilds in the same process with the same result", async () => {
    const first = await server.send({ id: 2, cmd: "bundle" });
    const second = await server.send({ id: 3, cmd: "bundle" });
    expect(second.id).toBe(3);
    expect(second.entry).toBe(first.entry);
    expect(second.loader).toBe(first.loader);
    expect(second.files?.map((f) => f.path)).toEqual(first.files?.map((f) => f.path));
  });

  it("renders each island's server HTML from its props, in order", async () => {
    const reply = await server.send({
      id: 4,
      cmd: "render",
      islands: [
        { name: "pricing", props: { ...pricingProps, toggleLabel: "Pay by" } },
        { name: "contact", props: contactProps },
      ],
    });
    expect(reply.error).toBeUndefined();
    expect(reply).toMatchObject({ id: 4, ok: true });
    const [pricing, contact] = (reply.islands ?? []).map((island) => island.html);
    // When each hydrates comes from its own file; neither of these says, so both are "visible".
    expect((reply.islands ?? []).map((island) => island.hydrate)).toEqual(["visible", "visible"]);
    expect(pricing).toContain("Pay by");
    expect(pricing).toContain("Save $50");
    expect(pricing).toContain('role="switch"');
    expect(pricing).toContain('href="#contact"');
    // useId values carry the island's prefix, as on the client.
    expect(pricing).toMatch(/id="[^"]*pricing-/);
    expect(contact).toContain(`action="${contactProps.endpoint}/f/${contactProps.formId}"`);
    expect(contact).toContain('name="_gotcha"');
    expect(contact).toContain("Promotions cannot be combined.");
  });

  it("answers a broken request with ok:false and keeps serving", async () => {
    const garbage = await server.send("{ this is not json");
    expect(garbage.id).toBeNull();
    expect(garbage.ok).toBe(false);
    expect(garbage.error).toMatch(/JSON/);

    const noId = await server.send({ cmd: "bundle" });
    expect(noId).toMatchObject({ id: null, ok: false });

    const unknownCmd = await server.send({ id: 5, cmd: "deploy" });
    expect(unknownCmd).toMatchObject({ id: 5, ok: false });

    const unknownIsland = await server.send({ id: 6, cmd: "render", islands: [{ name: "carousel", props: {} }] });
    expect(unknownIsland).toMatchObject({ id: 6, ok: false });
    expect(unknownIsland.error).toContain('unknown island "carousel"');

    const badProps = await server.send({ id: 7, cmd: "render", islands: [{ name: "pricing", props: {} }] });
    expect(badProps).toMatchObject({ id: 7, ok: false });
    // The render exception with its stack.
    expect(badProps.error).toMatch(/TypeError[\s\S]*\n\s+at /);

    const reload = await server.send({ id: 8, cmd: "render", reload: true, islands: [{ name: "pricing", props: pricingProps }] });
    expect(reload).toMatchObject({ id: 8, ok: true });
    expect(reload.islands?.[0]?.html).toContain(pricingProps.annualLabel);
  });

  it("exits 0 when stdin closes, having logged only to stderr", async () => {
    expect(await server.close()).toBe(0);
    expect(server.stderr.join("")).toContain("[island-server] bundled");
  });
});
