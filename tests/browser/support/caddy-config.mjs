// @ts-check
// What an owner's Caddyfile holds around the site (the README's Caddy steps), on loopback and
// plain HTTP, and the environment that keeps Caddy's state out of the user's folders. Shared by
// the browser tests' host (caddy-host.mjs) and the host tests (hosts/hosts.test.mjs).

import { join } from "node:path";

/**
 * A Caddyfile serving `root` on 127.0.0.1:`port`, with `siteBody` in the site block (the import
 * of the generated configuration, or a bare file server).
 * @param {{ port: number | string, root: string, siteBody: string }} site
 */
export function caddyfile({ port, root, siteBody }) {
  return `{
\tadmin off
\tauto_https off
}
http://127.0.0.1:${port} {
\troot * ${root}
${siteBody}
}
`;
}

/** The Caddy configuration a build writes beside the site in `root`. @param {string} root */
export const generatedConfig = (root) => `${root}-server/Caddyfile`;

/** A site block's import of that configuration. @param {string} root */
export const importGenerated = (root) => `\timport ${generatedConfig(root)}`;

/**
 * Caddy keeps state under $HOME and XDG folders: in `dir`, not in the user's.
 * @param {string} dir
 */
export function caddyEnvironment(dir) {
  return { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, "data"), XDG_CONFIG_HOME: join(dir, "config") };
}
