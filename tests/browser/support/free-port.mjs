// @ts-check
import { createServer } from "node:net";

/**
 * A TCP port free on 127.0.0.1 right now. Another process may take it before
 * the caller listens; the servers started on it here move on or fail loudly.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === "object" ? done(address.port) : fail(new Error("no port was given"))));
    });
  });
}
