//! GitHub Pages: sends none of the site's headers (each page's `<meta>`
//! policy applies), and may answer `/page.html` with the page.

use super::facts::{Advice, Facts, OtherAddresses};

pub const FACTS: Facts = Facts {
    name: "GitHub Pages",
    headers_file: false,
    redirects_file: None,
    precompressed: false,
    sends_headers: false,
    other_addresses: OtherAddresses::RedirectOrServe,
    hides_404_address: false,
    advice: Advice {
        redeploy: "publish dist/ again with the Pages workflow (GitHub Pages' cache can take up to 10 minutes to let go of old files)",
        send_headers: "GitHub Pages sends no headers of the site's",
        stale_policy: None,
        redirects: "GitHub Pages answers these itself",
        hide: "publish the folder dist/ only (its contents, not the project or the folder above it), then deploy again",
        content_type: "remove any Content-Type rule added to the hosting's settings, then deploy again",
        not_found: None,
    },
};
