//! Netlify: reads `_headers` and `_redirects`, compresses by itself, and
//! may answer `/page.html` with the page (Pretty URLs).

use super::facts::{Advice, Facts, OtherAddresses};

pub const FACTS: Facts = Facts {
    name: "Netlify",
    headers_file: true,
    redirects_file: Some(
        "# Written by curbside: the files Netlify reads are not pages of the site.\n\
         /_headers    /404.html  404!\n\
         /_redirects  /404.html  404!\n",
    ),
    precompressed: false,
    sends_headers: true,
    other_addresses: OtherAddresses::RedirectOrServe,
    hides_404_address: false,
    advice: Advice {
        redeploy: "deploy dist/ again, whole (drag the folder onto Netlify's Deploys page, or start a new deploy)",
        send_headers: "the headers come from dist/_headers: deploy dist/ whole, _headers included (some upload tools skip files starting with _), then verify again",
        stale_policy: None,
        redirects: "Netlify redirects these itself with Pretty URLs: turn it back on in the site's asset optimization settings",
        hide: "publish the folder dist/ only (its contents, not the project or the folder above it), then deploy again",
        content_type: "remove any Content-Type rule added to the hosting's settings, then deploy again",
        not_found: None,
    },
};
