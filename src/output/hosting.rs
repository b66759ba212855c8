//! The hosting a site is built for (`curbside build --hosting`), and what
//! each uses: a file the chosen hosting does not use is not written, so it is
//! never published.

/// Where the site will be served from: a hosting service, or a server of the
/// owner's running nginx or Caddy.
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
    /// Whether this hosting applies the headers of a `_headers` file. nginx
    /// and Caddy get the file too, though their configuration carries the
    /// same headers and hides it: local tools read the policy from it.
    pub fn headers_file(self) -> bool {
        !matches!(self, Hosting::GithubPages)
    }

    /// The `_redirects` rules that keep the hosting's own files from being
    /// fetched as pages: Netlify serves `_headers` as a file otherwise.
    /// (Cloudflare Pages never publishes them, and accepts no 404 rule.)
    pub fn redirects_file(self) -> Option<&'static str> {
        matches!(self, Hosting::Netlify).then_some(
            "# Written by curbside: the files Netlify reads are not pages of the site.\n\
             /_headers    /404.html  404!\n\
             /_redirects  /404.html  404!\n",
        )
    }

    /// Whether this hosting sends the `.br` and `.gz` copies written beside
    /// text files; the others compress by themselves and would publish the
    /// copies.
    pub fn precompressed(self) -> bool {
        matches!(self, Hosting::Nginx | Hosting::Caddy)
    }
}
