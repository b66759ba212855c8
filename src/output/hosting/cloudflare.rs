//! Cloudflare Pages: reads `_headers` (and never publishes it), compresses
//! by itself, and redirects a page's other addresses.

use super::facts::{Advice, Facts, OtherAddresses};

pub const FACTS: Facts = Facts {
    name: "Cloudflare Pages",
    headers_file: true,
    // It never publishes `_headers`, and accepts no 404 rule.
    redirects_file: None,
    precompressed: false,
    sends_headers: true,
    other_addresses: OtherAddresses::Redirect,
    hides_404_address: false,
    advice: Advice {
        redeploy: "deploy dist/ again, whole (npx wrangler pages deploy dist)",
        send_headers: "the headers come from dist/_headers: deploy dist/ whole, _headers included (some upload tools skip files starting with _), then verify again",
        stale_policy: None,
        redirects: "Cloudflare Pages redirects these itself: check that no redirect rule of the project's (a _redirects file, a Bulk Redirect) changes them",
        hide: "publish the folder dist/ only (its contents, not the project or the folder above it), then deploy again",
        content_type: "remove any Content-Type rule added to the hosting's settings, then deploy again",
        not_found: None,
    },
};
