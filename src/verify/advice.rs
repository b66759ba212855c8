//! What to do, said for the hosting the site was built for.

use crate::output::hosting::Hosting;

/// Publishing this build's `dist/` again, whole.
pub fn redeploy(hosting: Hosting) -> String {
    let how = match hosting {
        Hosting::Netlify => {
            "deploy dist/ again, whole (drag the folder onto Netlify's Deploys page, or start a new deploy)"
        }
        Hosting::Cloudflare => "deploy dist/ again, whole (npx wrangler pages deploy dist)",
        Hosting::GithubPages => {
            "publish dist/ again with the Pages workflow (GitHub Pages' cache can take up to 10 minutes to let go of old files)"
        }
        Hosting::Nginx | Hosting::Caddy => {
            "copy all of dist/ to the server again, replacing the old files"
        }
    };
    format!("{how}; if a CDN or cache sits in front of the site, purge it")
}

/// Making the hosting send this build's headers.
pub fn headers(hosting: Hosting) -> String {
    match hosting {
        Hosting::Netlify | Hosting::Cloudflare => {
            "the headers come from dist/_headers: deploy dist/ whole, _headers included (some upload tools skip files starting with _), then verify again".to_string()
        }
        Hosting::Nginx => "include dist-server/nginx.conf of this build unchanged in the site's server block (docs/deploying.md), then run `nginx -t && nginx -s reload`".to_string(),
        Hosting::Caddy => "import dist-server/Caddyfile of this build unchanged in the site block (docs/deploying.md), then run `caddy reload`".to_string(),
        Hosting::GithubPages => "GitHub Pages sends no headers of the site's".to_string(),
    }
}

/// The policy's hashes are another build's: the configuration is stale.
pub fn stale_policy(hosting: Hosting) -> String {
    match hosting {
        Hosting::Nginx => "every build changes the policy's hashes: copy dist-server/nginx.conf of this build to the server with dist/, then run `nginx -t && nginx -s reload`".to_string(),
        Hosting::Caddy => "every build changes the policy's hashes: copy dist-server/Caddyfile of this build to the server with dist/, then run `caddy reload`".to_string(),
        _ => format!(
            "every build changes the policy's hashes, and the _headers served is another build's: {}",
            redeploy(hosting)
        ),
    }
}

/// One address per page: `/page.html` and `/page/` lead to `/page`.
pub fn redirects(hosting: Hosting) -> String {
    match hosting {
        Hosting::Nginx | Hosting::Caddy => headers(hosting),
        Hosting::Cloudflare => "Cloudflare Pages redirects these itself: check that no redirect rule of the project's (a _redirects file, a Bulk Redirect) changes them".to_string(),
        Hosting::Netlify => "Netlify redirects these itself with Pretty URLs: turn it back on in the site's asset optimization settings".to_string(),
        Hosting::GithubPages => "GitHub Pages answers these itself".to_string(),
    }
}

/// Something internal was published.
pub fn hide(hosting: Hosting) -> String {
    match hosting {
        Hosting::Netlify | Hosting::Cloudflare | Hosting::GithubPages => {
            "publish the folder dist/ only (its contents, not the project or the folder above it), then deploy again".to_string()
        }
        Hosting::Nginx | Hosting::Caddy => format!(
            "point the server's root at dist/ only, keep dist-server/ outside it, and {}",
            headers(hosting)
        ),
    }
}
