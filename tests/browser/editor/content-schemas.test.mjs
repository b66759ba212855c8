// @ts-check
// What an editor shows for the content files: the real YAML language server (the one behind
// VS Code's YAML extension and Neovim's yamlls), driven over stdio as an editor drives it. It
// finds each file's schema only through the file's own `# yaml-language-server: $schema=…`
// comment, so a comment in a place the server does not read leaves every mistake unmarked.
//
// Each content file is opened as written (no diagnostic), then with one type mistake (a
// diagnostic on that line). A page's front matter is opened as the YAML it is, from its
// opening `---` on, so its lines keep their numbers.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const content = resolve(dirname(fileURLToPath(import.meta.url)), "../../../content");

/**
 * One type mistake per file: the line as written, and the same line with the mistake.
 * @type {Array<[file: string, written: string, mistaken: string]>}
 */
const MISTAKES = [
  ["business.yaml", "city: Brookings", "city: 57006"],
  ["faq.yaml", "- question: What area do you serve?", "- question: 3"],
  ["home.yaml", "title: Bins to the curb on pickup day in Brookings, SD", "title: 2025"],
  ["notfound.yaml", "heading: Page not found", "heading: 404"],
  ["plans.yaml", "  price: 25", "  price: twenty-five"],
  ["site.yaml", "menu_button: Menu", "menu_button: 3"],
  ["pages/privacypolicy.md", "title: Privacy Policy", "title: 1"],
  ["pages/termsofservice.md", "title: Terms of Service", "title: 1"],
];

/** What the editor hands the server: a YAML file whole; of a page, its front matter. @param {string} file */
function yamlOf(file) {
  const text = readFileSync(join(content, file), "utf8");
  if (!file.endsWith(".md")) return text;
  const lines = text.split("\n");
  assert.equal(lines[0], "---", `${file} starts with its front matter`);
  const end = lines.indexOf("---", 1);
  assert.ok(end > 0, `${file} closes its front matter`);
  return lines.slice(0, end).join("\n") + "\n";
}

/**
 * @typedef {{ range: { start: { line: number } }, message: string, severity?: number }} Diagnostic
 * @typedef {{ items?: Array<{ section?: string }>, uri?: string, diagnostics?: Diagnostic[], message?: string }} Params
 * @typedef {{ jsonrpc: "2.0", id?: number, method?: string, params?: Params, result?: unknown, error?: unknown }} Message
 */

/** A minimal LSP client over the server's stdin and stdout. */
class Client {
  /** @param {import("node:child_process").ChildProcessWithoutNullStreams} server */
  constructor(server) {
    this.server = server;
    this.nextId = 1;
    /** @type {Map<number, (message: Message) => void>} */
    this.replies = new Map();
    /** @type {Array<(message: Message) => boolean>} */
    this.watchers = [];
    /** @type {string[]} */
    this.log = [];
    let buffer = Buffer.alloc(0);
    server.stdout.on("data", (/** @type {Buffer} */ chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const headerEnd = buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString("ascii"))?.[1]);
        if (buffer.length < headerEnd + 4 + length) return;
        const body = buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8");
        buffer = buffer.subarray(headerEnd + 4 + length);
        this.receive(JSON.parse(body));
      }
    });
    server.stderr.on("data", (/** @type {Buffer} */ chunk) => this.log.push(chunk.toString("utf8")));
  }

  /** @param {Message} message */
  receive(message) {
    if (message.id !== undefined && message.method === undefined) {
      this.replies.get(message.id)?.(message);
      this.replies.delete(message.id);
      return;
    }
    if (message.id !== undefined && message.method) {
      this.answerServer(message.id, message.method, message.params);
      return;
    }
    if (message.method === "window/logMessage") this.log.push(String(message.params?.message));
    this.watchers = this.watchers.filter((watch) => !watch(message));
  }

  /** What VS Code answers the server's own requests. @param {number} id @param {string} method @param {Params | undefined} params */
  answerServer(id, method, params) {
    if (method === "workspace/configuration") {
      const items = params?.items ?? [];
      // The YAML extension's defaults, with the schema store off: no network, and no schema but the file's own.
      const sections = /** @type {Record<string, unknown>} */ ({
        yaml: { validate: true, hover: true, completion: true, format: { enable: false }, schemaStore: { enable: false }, schemas: {} },
      });
      this.write({ jsonrpc: "2.0", id, result: items.map((item) => sections[item.section ?? ""] ?? null) });
      return;
    }
    // client/registerCapability and the like: accepted.
    this.write({ jsonrpc: "2.0", id, result: null });
  }

  /** @param {object} message */
  write(message) {
    const body = JSON.stringify(message);
    this.server.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  /** @param {string} method @param {unknown} params @returns {Promise<unknown>} */
  request(method, params) {
    const id = this.nextId++;
    return new Promise((done, fail) => {
      this.replies.set(id, (message) => (message.error ? fail(new Error(JSON.stringify(message.error))) : done(message.result)));
      this.write({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** @param {string} method @param {unknown} params */
  notify(method, params) {
    this.write({ jsonrpc: "2.0", method, params });
  }

  /**
   * Opens a document and resolves with the diagnostics the server publishes for it.
   * @param {string} uri @param {string} text
   * @returns {Promise<Diagnostic[]>}
   */
  diagnose(uri, text) {
    /** @type {Promise<Diagnostic[]>} */
    const published = new Promise((done) => {
      this.watchers.push((message) => {
        if (message.method !== "textDocument/publishDiagnostics" || message.params?.uri !== uri) return false;
        done(message.params.diagnostics ?? []);
        return true;
      });
    });
    this.notify("textDocument/didOpen", { textDocument: { uri, languageId: "yaml", version: 1, text } });
    return published.finally(() => this.notify("textDocument/didClose", { textDocument: { uri } }));
  }
}

/** @type {Client} */
let client;

before(async () => {
  const main = createRequire(import.meta.url).resolve("yaml-language-server/bin/yaml-language-server");
  const server = spawn(process.execPath, [main, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  client = new Client(server);
  const root = pathToFileURL(content).href;
  await client.request("initialize", {
    processId: process.pid,
    rootUri: root,
    workspaceFolders: [{ uri: root, name: "content" }],
    capabilities: {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, workspaceFolders: true },
      textDocument: { publishDiagnostics: { relatedInformation: true }, synchronization: { didSave: true } },
    },
    initializationOptions: {},
  });
  client.notify("initialized", {});
  client.notify("workspace/didChangeConfiguration", {
    settings: { yaml: { validate: true, schemaStore: { enable: false }, schemas: {} } },
  });
});

after(async () => {
  if (!client) return;
  await client.request("shutdown", null).catch(() => undefined);
  client.notify("exit", null);
  const server = client.server;
  if (server.exitCode === null) {
    const exited = new Promise((done) => server.once("exit", done));
    setTimeout(() => server.kill(), 5_000).unref();
    await exited;
  }
});

for (const [file, written, mistaken] of MISTAKES) {
  test(`${file}: no diagnostic as written, and one on the line of a type mistake`, async () => {
    // A document of its own for each opening, beside the file (the schema's path is relative to
    // it), so no answer about one is taken for the other's.
    const uri = (/** @type {string} */ kind) => pathToFileURL(join(content, dirname(file), `${kind}${basename(file)}`)).href;
    const text = yamlOf(file);
    const clean = await client.diagnose(uri(""), text);
    assert.deepEqual(
      clean.map((d) => `${d.range.start.line + 1}: ${d.message}`),
      [],
      `${file} as written`,
    );

    const lines = text.split("\n");
    const line = lines.indexOf(written);
    assert.ok(line >= 0, `${file} has the line \`${written}\``);
    lines[line] = mistaken;
    const found = await client.diagnose(uri("mistaken-"), lines.join("\n"));
    assert.ok(
      found.some((d) => d.range.start.line === line && d.severity === 1 && /Incorrect type/.test(d.message)),
      `${file}: a type error at line ${line + 1} (\`${mistaken}\`); the server reported ${JSON.stringify(found.map((d) => `${d.range.start.line + 1}: ${d.message}`))}\n${client.log.join("\n")}`,
    );
  });
}
