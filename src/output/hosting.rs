//! The hosting a site is built for: a file it does not use is not written, so never published.

/// A hosting service, or the owner's nginx or Caddy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Hosting {
    /// Netlify: applies _headers and compresses by itself
    #[default]
    Netlify,
    /// Cloudflare Pages: applies _headers and compresses by itself
    Cloudflare,
    /// GitHub Pages: sends no headers of the site's; each page's <meta> policy applies
    GithubPages,
    /// nginx, with DIR-server/nginx.conf; gets .br and .gz copies to send
    Nginx,
    /// Caddy, with DIR-server/Caddyfile; gets .br and .gz copies to send
    Caddy,
}

impl Hosting {
    /// Whether `_headers` applies. nginx and Caddy get it too (their
    /// configuration carries the same headers and hides it): local tools read
    /// the policy there.
    pub fn headers_file(self) -> bool {
        !matches!(self, Hosting::GithubPages)
    }

    /// `_redirects` rules keeping the hosting's own files from being fetched as
    /// pages (Netlify serves `_headers` otherwise; Cloudflare never publishes
    /// them, and accepts no 404 rule).
    pub fn redirects_file(self) -> Option<&'static str> {
        matches!(self, Hosting::Netlify).then_some(
            "# Written by curbside: the files Netlify reads are not pages of the site.\n\
             /_headers    /404.html  404!\n\
             /_redirects  /404.html  404!\n",
        )
    }

    /// Whether the `.br` and `.gz` copies are sent; the others compress by
    /// themselves and would publish the copies.
    pub fn precompressed(self) -> bool {
        matches!(self, Hosting::Nginx | Hosting::Caddy)
    }
}
