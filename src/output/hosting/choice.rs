//! The hostings `curbside build --hosting` offers, and each one's facts.

use super::facts::Facts;
use super::{caddy, cloudflare, github_pages, netlify, nginx};

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
    /// Everything the build and `verify` know of this hosting.
    pub fn facts(self) -> &'static Facts {
        match self {
            Hosting::Netlify => &netlify::FACTS,
            Hosting::Cloudflare => &cloudflare::FACTS,
            Hosting::GithubPages => &github_pages::FACTS,
            Hosting::Nginx => &nginx::FACTS,
            Hosting::Caddy => &caddy::FACTS,
        }
    }

    /// The hostings that send the site's own headers, by name.
    pub fn sending_headers() -> Vec<&'static str> {
        <Hosting as clap::ValueEnum>::value_variants()
            .iter()
            .map(|hosting| hosting.facts())
            .filter(|facts| facts.sends_headers)
            .map(|facts| facts.name)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    /// A hosting's file, copied from another's to start a new one, keeps
    /// none of the other's words: each name is its own, and no advice of one
    /// names another.
    #[test]
    fn each_hostings_facts_are_its_own() {
        let all = Hosting::value_variants();
        for hosting in all {
            let facts = hosting.facts();
            let advice = &facts.advice;
            let texts = [
                advice.redeploy,
                advice.send_headers,
                advice.stale_policy.unwrap_or_default(),
                advice.redirects,
                advice.hide,
                advice.content_type,
                advice.not_found.unwrap_or_default(),
            ];
            for other in all.iter().filter(|other| *other != hosting) {
                let name = other.facts().name;
                assert_ne!(facts.name, name);
                for text in texts {
                    assert!(
                        !text.contains(name),
                        "{}'s advice names {name}: {text}",
                        facts.name
                    );
                }
            }
        }
    }

    /// What a hosting gets follows from what it does: the compressed copies
    /// only where they are sent, `_redirects` only where `_headers` is read.
    #[test]
    fn a_hostings_files_follow_from_what_it_sends() {
        for hosting in Hosting::value_variants() {
            let facts = hosting.facts();
            assert!(
                !facts.precompressed || facts.sends_headers,
                "{}",
                facts.name
            );
            assert!(
                facts.redirects_file.is_none() || facts.headers_file,
                "{}",
                facts.name
            );
            assert_eq!(facts.headers_file, facts.sends_headers, "{}", facts.name);
        }
        assert_eq!(
            Hosting::sending_headers(),
            ["Netlify", "Cloudflare Pages", "nginx", "Caddy"]
        );
    }
}
