// Playwright keeps the DevTools protocol's Runtime domain enabled on every page it drives. While
// it is, V8 records a detailed stack (each frame's line and column) for every Error a script
// constructs, and to find those positions it parses again every function on the stack. React DOM
// constructs five Errors while its module is evaluated (the sentinels it throws for Suspense and
// hydration), with the whole chunk and React DOM's module function on the stack: on the slow
// phone its evaluation took 68 to 92 ms in the sweep, where a browser that no DevTools client
// drives takes about a quarter of that (the figures are in tests/bench/README.md). A press that
// lands in it would be timed against a cost no visitor pays, so the tap sweep turns that
// recording off.
import type { Page } from "@playwright/test";

interface ProtocolSession {
  send(method: string, params: Record<string, unknown>): Promise<unknown>;
}

/**
 * Asks Playwright's own DevTools session of `page` to record no stack frames for Errors. The
 * setting is per session, and V8 keeps the largest any session with Runtime enabled asked for, so
 * a session of our own (`newCDPSession`) cannot lower it: only Playwright's can. Playwright
 * exposes that session to no public API, so this reaches it through the in-process server behind
 * the page, and says so plainly when a new Playwright has moved it.
 */
export async function recordNoErrorStacks(page: Page): Promise<void> {
  const session = playwrightSession(page);
  await session.send("Runtime.setMaxCallStackSizeToCapture", { size: 0 });
}

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function playwrightSession(page: Page): ProtocolSession {
  const toImpl = field(field(page, "_connection"), "toImpl");
  const server = typeof toImpl === "function" ? (toImpl as (client: unknown) => unknown)(page) : undefined;
  const client = field(field(field(server, "delegate"), "_mainFrameSession"), "_client");
  const send = field(client, "send");
  if (typeof send !== "function") {
    throw new Error(
      "the tap sweep could not reach Playwright's own DevTools session of the page (page._connection.toImpl(page).delegate._mainFrameSession._client): " +
        "this Playwright keeps it elsewhere. Find where its Chromium page keeps its main frame's session and update support/error-stacks.ts.",
    );
  }
  return { send: (method, params) => (send as ProtocolSession["send"]).call(client, method, params) };
}
