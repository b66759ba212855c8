//! nginx, with the build's `nginx.conf` included in the site's server
//! block: it sends the `.br` and `.gz` copies and the site's headers, and
//! redirects a page's other addresses.

use super::facts::{Advice, Facts};

/// What most advice comes to: this build's configuration, loaded.
macro_rules! send_headers {
    () => {
        "include dist-server/nginx.conf of this build unchanged in the site's server block (docs/deploying.md), then run `nginx -t && nginx -s reload`"
    };
}

pub const FACTS: Facts = Facts::own_server(
    "nginx",
    Advice {
        redeploy: "copy all of dist/ to the server again, replacing the old files",
        send_headers: send_headers!(),
        stale_policy: Some(
            "every build changes the policy's hashes: copy dist-server/nginx.conf of this build to the server with dist/, then run `nginx -t && nginx -s reload`",
        ),
        redirects: send_headers!(),
        hide: concat!(
            "point the server's root at dist/ only, keep dist-server/ outside it, and ",
            send_headers!()
        ),
        content_type: "include /etc/nginx/mime.types in the http block, as nginx's own configuration does",
        not_found: Some(send_headers!()),
    },
);
