// @ts-check
// How every test, screenshot and benchmark here starts Chromium: Debian's
// own build (never a downloaded one), with nothing that reaches the network.

export const executablePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";

export const args = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // No name resolves but the loopback address: a page can reach nothing else.
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
];
