//! What a hosting does with a built site, as one value each hosting's file
//! fills in: the build writes by it and `verify` judges and advises by it.

/// One hosting's facts.
#[derive(Debug)]
pub struct Facts {
    /// As its owners call it.
    pub name: &'static str,
    /// It reads `_headers`, which the build then writes. nginx and Caddy
    /// get it too (their configuration carries the same headers and hides
    /// it): local tools read the policy there.
    pub headers_file: bool,
    /// `_redirects` rules, for a hosting that reads the file: keeping its
    /// own files from being fetched as pages.
    pub redirects_file: Option<&'static str>,
    /// It sends the `.br` and `.gz` copies, which the build then writes; the
    /// others compress by themselves, and would publish the copies.
    pub precompressed: bool,
    /// It sends the site's own headers: security, caching.
    pub sends_headers: bool,
    pub other_addresses: OtherAddresses,
    /// `/404`, 404.html's own address, answers "not found" (the server
    /// configuration hides it).
    pub hides_404_address: bool,
    pub advice: Advice,
}

/// How it answers a page's other addresses (`/page.html`, `/page/`,
/// `/index.html`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OtherAddresses {
    /// Each redirects to the page's one address.
    Redirect,
    /// `/page.html` and `/index.html` redirect or answer with the page
    /// itself; `/page/` is its own business.
    RedirectOrServe,
}

/// What to tell its owner, in its own words.
#[derive(Debug)]
pub struct Advice {
    /// Publishing this build's `dist/` again, whole.
    pub redeploy: &'static str,
    /// Making it send this build's headers.
    pub send_headers: &'static str,
    /// The policy sent is another build's; `None`: publish again.
    pub stale_policy: Option<&'static str>,
    /// One address per page.
    pub redirects: &'static str,
    /// Something internal was published.
    pub hide: &'static str,
    /// A file is sent with the wrong type.
    pub content_type: &'static str,
    /// An unknown address is not answered "not found"; `None`: publish
    /// 404.html again.
    pub not_found: Option<&'static str>,
}

impl Facts {
    /// The owner's own web server, which includes the configuration the
    /// build writes beside the site: it sends the compressed copies and the
    /// site's headers, redirects a page's other addresses and hides `/404`.
    pub const fn own_server(name: &'static str, advice: Advice) -> Facts {
        Facts {
            name,
            headers_file: true,
            redirects_file: None,
            precompressed: true,
            sends_headers: true,
            other_addresses: OtherAddresses::Redirect,
            hides_404_address: true,
            advice,
        }
    }

    pub fn redeploy(&self) -> String {
        format!(
            "{}; if a CDN or cache sits in front of the site, purge it",
            self.advice.redeploy
        )
    }

    pub fn stale_policy(&self) -> String {
        self.advice.stale_policy.map_or_else(
            || {
                format!(
                    "every build changes the policy's hashes, and the _headers served is another build's: {}",
                    self.redeploy()
                )
            },
            str::to_string,
        )
    }

    pub fn not_found(&self) -> String {
        self.advice.not_found.map_or_else(
            || {
                format!(
                    "404.html at the top of dist/ is the page for unknown addresses: {}",
                    self.redeploy()
                )
            },
            str::to_string,
        )
    }
}
