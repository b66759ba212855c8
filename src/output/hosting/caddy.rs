//! Caddy, with the build's `Caddyfile` imported in the site block: it sends
//! the `.br` and `.gz` copies and the site's headers, and redirects a page's
//! other addresses.

use super::facts::{Advice, Facts};

/// What most advice comes to: this build's configuration, loaded.
macro_rules! send_headers {
    () => {
        "import dist-server/Caddyfile of this build unchanged in the site block (docs/deploying.md), then run `caddy reload`"
    };
}

pub const FACTS: Facts = Facts::own_server(
    "Caddy",
    Advice {
        redeploy: "copy all of dist/ to the server again, replacing the old files",
        send_headers: send_headers!(),
        stale_policy: Some(
            "every build changes the policy's hashes: copy dist-server/Caddyfile of this build to the server with dist/, then run `caddy reload`",
        ),
        redirects: send_headers!(),
        hide: concat!(
            "point the server's root at dist/ only, keep dist-server/ outside it, and ",
            send_headers!()
        ),
        content_type: "let Caddy's file_server choose the type: remove any header rule that sets Content-Type",
        not_found: Some(send_headers!()),
    },
);
