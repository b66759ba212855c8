// A page that arrives in two parts, as on a slow network: a local server hands out the
// first part of `/` as the preview built it, holds the rest until the test lets it go,
// and passes every other request to the preview. What a screen painted between the two
// parts looks like is what a visitor on a slow connection sees.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface HeldPage {
  /** This server's http://127.0.0.1:PORT. */
  origin: string;
  /** Sends the rest of the page. */
  release: () => void;
  close: () => Promise<void>;
}

/** Serves `origin`'s home page cut before the first occurrence of `cut` that follows `after`. */
export async function heldPage(origin: string, after: string, cut: string): Promise<HeldPage> {
  const html = await (await fetch(`${origin}/`)).text();
  const at = html.indexOf(cut, html.indexOf(after));
  if (html.indexOf(after) < 0 || at < 0) throw new Error(`no ${cut} after ${after} in the page`);
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.url === "/") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.write(html.slice(0, at));
        await released;
        response.end(html.slice(at));
        return;
      }
      const passed = await fetch(`${origin}${request.url ?? "/"}`);
      response.writeHead(passed.status, { "content-type": passed.headers.get("content-type") ?? "application/octet-stream" });
      response.end(Buffer.from(await passed.arrayBuffer()));
    })().catch((error: unknown) => response.destroy(error instanceof Error ? error : new Error(String(error))));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    release,
    close: () => {
      release();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
