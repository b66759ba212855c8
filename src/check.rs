//! `curbside check`: everything a build checks, without writing or Node
//! (islands stand as placeholders), then the links: every link inside the site
//! and `#anchor` must lead somewhere, and every page be reachable from the home page.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use percent_encoding::percent_decode_str;
use scraper::{Html, Selector};
use url::Url;

use crate::content::{self, Site, spelling};
use crate::diagnostics::{Diagnostic, Location, Result};
use crate::pipeline::{Loaded, Project};
use crate::render::{self, AssetUrls, RenderInput};
use crate::text::line_column;

/// The problems found (none: ready), and the size of what was checked.
#[derive(Debug)]
pub struct CheckReport {
    pub problems: Vec<Diagnostic>,
    pub warnings: Vec<String>,
    pub pages: usize,
    pub links: usize,
}

struct RenderedPage {
    /// `/`, `/about`, or `/404` for unknown addresses.
    address: String,
    /// To point at when a link is found in no source.
    source: PathBuf,
    links: Vec<String>,
    ids: BTreeSet<String>,
    /// Its sections' ids, to suggest.
    sections: Vec<String>,
}

/// A mistake that stops a build is an `Err`; broken links are collected in the report.
pub fn check(project: &Project) -> Result<CheckReport> {
    let shown = |name: &str| PathBuf::from(name);
    let Loaded {
        site,
        layouts,
        islands,
        styles,
        pictures,
        public,
    } = Loaded::load(project)?;
    let assets = AssetUrls::pending(&styles.favicon);
    let placements = std::sync::Arc::new(render::placements::Placements::default());
    let input = RenderInput {
        site: &site,
        layouts: &layouts,
        islands: &islands,
        placements: &placements,
        endpoint: &crate::islands::props::FormEndpoint::Hosted,
        assets: &assets,
        copyright_year: 2000,
        dev_script: "",
        share_card: None,
        pictures: &pictures,
    };
    let files = render::pages(&input)?;
    pictures.check_decodes()?;
    let pages: Vec<RenderedPage> = files
        .iter()
        .map(|file| {
            let slug = file.path.trim_end_matches(".html");
            let (address, source) = match slug {
                "index" => ("/".to_string(), shown("layouts/home.html")),
                "404" => ("/404".to_string(), shown("layouts/404.html")),
                slug => (
                    format!("/{slug}"),
                    shown("content/pages").join(format!("{slug}.md")),
                ),
            };
            let html = String::from_utf8_lossy(&file.contents);
            let (links, ids, sections) = links_and_ids(&html);
            RenderedPage {
                address,
                source,
                links,
                ids,
                sections,
            }
        })
        .collect();
    let sources = Sources::read(project, &site);
    let mut problems = Vec::new();
    let mut reported = BTreeSet::new();
    let by_address: BTreeMap<&str, &RenderedPage> =
        pages.iter().map(|p| (p.address.as_str(), p)).collect();
    let files: BTreeSet<String> = public
        .iter()
        .map(|file| format!("/{}", file.path))
        .collect();
    let mut links = 0;
    for page in &pages {
        for href in &page.links {
            let Some(target) = internal(href, site.business.url.as_str(), &page.address) else {
                continue;
            };
            links += 1;
            if let Some(problem) = broken(&target, &by_address, &files) {
                // One message per broken link, however many pages share it.
                if reported.insert(href.clone()) {
                    problems.push(sources.locate(href, &page.source, problem));
                }
            }
        }
    }
    problems.extend(unreachable(&pages, &by_address, &site));
    Ok(CheckReport {
        problems,
        warnings: [
            content::warnings(&site),
            pictures.warnings(),
            crate::media::public::warnings(&public),
        ]
        .concat(),
        pages: pages.len(),
        links,
    })
}

fn links_and_ids(html: &str) -> (Vec<String>, BTreeSet<String>, Vec<String>) {
    let document = Html::parse_document(html);
    let anchors = Selector::parse("a[href]").expect("a valid selector");
    let named = Selector::parse("[id]").expect("a valid selector");
    let sections = Selector::parse("section[id]").expect("a valid selector");
    let sections = document
        .select(&sections)
        .filter_map(|element| element.value().id())
        .map(str::to_string)
        .collect();
    let links = document
        .select(&anchors)
        .filter_map(|a| a.value().attr("href"))
        .map(str::to_string)
        .collect();
    let ids = document
        .select(&named)
        .filter_map(|element| element.value().id())
        .map(str::to_string)
        .collect();
    (links, ids, sections)
}

#[derive(Debug, PartialEq, Eq)]
struct Target {
    address: String,
    anchor: Option<String>,
}

/// Where `href` leads on the site, resolved as a browser does on the page at
/// `from`; `None` for links elsewhere, `mailto:` and `tel:`.
fn internal(href: &str, site_url: &str, from: &str) -> Option<Target> {
    let site = Url::parse(site_url).ok()?;
    // The site is served from its host's root.
    let page = site.join(from).ok()?;
    let local = match href.strip_prefix(site_url) {
        Some("") => "/",
        Some(rest) if rest.starts_with(['/', '#', '?']) => rest,
        _ => href,
    };
    let url = page.join(local).ok()?;
    if url.origin() != site.origin() {
        return None;
    }
    let path = url.path().trim_end_matches(".html");
    let address = match path.trim_end_matches('/') {
        "" => "/",
        trimmed => trimmed,
    };
    let anchor = url
        .fragment()
        .map(|anchor| percent_decode_str(anchor).decode_utf8_lossy().into_owned());
    Some(Target {
        address: address.to_string(),
        anchor,
    })
}

/// What is wrong with a link to `target`; `files` are content/public/'s addresses.
fn broken(
    target: &Target,
    pages: &BTreeMap<&str, &RenderedPage>,
    files: &BTreeSet<String>,
) -> Option<Problem> {
    const FILES: [&str; 2] = ["/sitemap.xml", "/robots.txt"];
    let published = |address: &str| files.contains(address);
    if FILES.contains(&target.address.as_str())
        || published(&target.address)
        || published(&format!("{}.html", target.address))
    {
        return None;
    }
    let Some(page) = pages.get(target.address.as_str()) else {
        let known: Vec<&str> = pages.keys().copied().filter(|a| *a != "/404").collect();
        return Some(Problem::NoPage {
            address: target.address.clone(),
            near: spelling::closest(&target.address, &known).map(str::to_string),
            known: known.iter().map(|a| a.to_string()).collect(),
        });
    };
    let anchor = target.anchor.as_deref().filter(|a| !a.is_empty())?;
    if page.ids.contains(anchor) {
        return None;
    }
    let known: Vec<&str> = page.ids.iter().map(String::as_str).collect();
    Some(Problem::NoAnchor {
        address: page.address.clone(),
        anchor: anchor.to_string(),
        near: spelling::closest(anchor, &known).map(str::to_string),
        sections: page.sections.clone(),
    })
}

enum Problem {
    NoPage {
        address: String,
        near: Option<String>,
        known: Vec<String>,
    },
    NoAnchor {
        address: String,
        anchor: String,
        near: Option<String>,
        sections: Vec<String>,
    },
}

impl Problem {
    fn diagnostic(self, href: &str) -> Diagnostic {
        match self {
            Problem::NoPage {
                address,
                near,
                known,
            } => {
                let help = match near {
                    Some(near) => format!("did you mean `{near}`?"),
                    None => format!(
                        "link to one of the site's pages ({}), or add content/pages{address}.md",
                        known.join(", ")
                    ),
                };
                Diagnostic::new(format!(
                    "the link `{href}` leads to no page: the site has no {address}"
                ))
                .help(help)
            }
            Problem::NoAnchor {
                address,
                anchor,
                near,
                sections,
            } => {
                let listed: Vec<String> = sections.iter().map(|id| format!("#{id}")).collect();
                let help = match near {
                    Some(near) => format!("did you mean `#{near}`?"),
                    None if listed.is_empty() => {
                        format!("link to the page without `#{anchor}`")
                    }
                    None => format!(
                        "the sections of {} are {}; link to one of them, or to the page without `#{anchor}`",
                        page_name(&address),
                        listed.join(", ")
                    ),
                };
                Diagnostic::new(format!(
                    "the link `{href}` leads to no place on {}: nothing there is named `{anchor}`",
                    page_name(&address)
                ))
                .help(help)
            }
        }
    }
}

fn page_name(address: &str) -> String {
    match address {
        "/" => "the home page".to_string(),
        other => other.to_string(),
    }
}

struct Sources {
    /// Shown path and text, most likely first.
    files: Vec<(PathBuf, String)>,
}

impl Sources {
    fn read(project: &Project, site: &Site) -> Sources {
        let mut files = Vec::new();
        let mut add = |path: &Path, shown: PathBuf| {
            if let Ok(text) = std::fs::read_to_string(path) {
                files.push((shown, text));
            }
        };
        for page in &site.pages {
            let name = format!("{}.md", page.slug);
            add(
                &project.content().join("pages").join(&name),
                Path::new("content/pages").join(name),
            );
        }
        for name in [
            "home.yaml",
            "faq.yaml",
            "site.yaml",
            "notfound.yaml",
            "plans.yaml",
            "business.yaml",
        ] {
            add(
                &project.content().join(name),
                Path::new("content").join(name),
            );
        }
        let layouts = project.layouts();
        for entry in walkdir::WalkDir::new(&layouts)
            .sort_by_file_name()
            .into_iter()
            .filter_map(|entry| entry.ok())
            .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "html"))
        {
            let relative = entry.path().strip_prefix(&layouts).unwrap_or(entry.path());
            add(entry.path(), Path::new("layouts").join(relative));
        }
        Sources { files }
    }

    /// `problem` where `href` is first written (the page's own file first),
    /// else at the page's file.
    fn locate(&self, href: &str, page_source: &Path, problem: Problem) -> Diagnostic {
        let mut own_first = self
            .files
            .iter()
            .filter(|(shown, _)| shown == page_source)
            .chain(self.files.iter().filter(|(shown, _)| shown != page_source));
        let found = own_first.find_map(|(shown, text)| {
            let offset = text.find(href)?;
            let (line, column) = line_column(&text.as_bytes()[..offset]);
            Some(Location::at(shown, line, column))
        });
        problem
            .diagnostic(href)
            .at(found.unwrap_or_else(|| Location::file(page_source)))
    }
}

fn unreachable(
    pages: &[RenderedPage],
    by_address: &BTreeMap<&str, &RenderedPage>,
    site: &Site,
) -> Vec<Diagnostic> {
    let mut reached = BTreeSet::from(["/".to_string()]);
    let mut queue = VecDeque::from(["/".to_string()]);
    while let Some(address) = queue.pop_front() {
        let Some(page) = by_address.get(address.as_str()) else {
            continue;
        };
        for href in &page.links {
            if let Some(target) = internal(href, site.business.url.as_str(), &page.address)
                && by_address.contains_key(target.address.as_str())
                && reached.insert(target.address.clone())
            {
                queue.push_back(target.address);
            }
        }
    }
    // Reached from outside: a QR code, a flyer, an ad.
    let landing: BTreeSet<String> = site
        .pages
        .iter()
        .filter(|page| page.meta.landing)
        .map(|page| format!("/{}", page.slug))
        .collect();
    pages
        .iter()
        .filter(|page| {
            page.address != "/404"
                && !reached.contains(&page.address)
                && !landing.contains(&page.address)
        })
        .map(|page| {
            Diagnostic::new(format!(
                "the page {} cannot be reached from the home page: no page links to it",
                page.address
            ))
            .at(Location::at(&page.source, 1, 1))
            .help(format!(
                "remove `link: none` from its front matter to link it from the footer, link to it from another page's text: [words]({}), or, when visitors come to it from outside the site (a QR code, a flyer), add `landing: true` to its front matter",
                page.address
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(address: &str, anchor: Option<&str>) -> Option<Target> {
        Some(Target {
            address: address.into(),
            anchor: anchor.map(str::to_string),
        })
    }

    #[test]
    fn links_within_the_site_are_told_from_links_elsewhere() {
        let site = "https://www.example.com";
        let from = "/about";
        assert_eq!(internal("/", site, from), target("/", None));
        assert_eq!(internal("/#faq", site, from), target("/", Some("faq")));
        assert_eq!(internal("#top", site, from), target("/about", Some("top")));
        assert_eq!(internal("/terms/", site, from), target("/terms", None));
        assert_eq!(internal("/terms.html", site, from), target("/terms", None));
        assert_eq!(
            internal("https://www.example.com/about?x=1", site, from),
            target("/about", None)
        );
        assert_eq!(
            internal("https://www.example.com", site, from),
            target("/", None)
        );
        for elsewhere in [
            "https://other.example/",
            "//cdn.example/x",
            "mailto:a@b.co",
            "tel:+16055550142",
            "https://www.example.community/",
        ] {
            assert_eq!(internal(elsewhere, site, from), None, "{elsewhere}");
        }
    }

    #[test]
    fn relative_links_are_resolved_from_their_page() {
        let site = "https://www.example.com";
        assert_eq!(internal("terms", site, "/about"), target("/terms", None));
        assert_eq!(
            internal("../terms#fees", site, "/about"),
            target("/terms", Some("fees"))
        );
        assert_eq!(internal("./", site, "/about"), target("/", None));
        assert_eq!(internal("?x=1", site, "/about"), target("/about", None));
        assert_eq!(
            internal("#d%C3%A9part", site, "/"),
            target("/", Some("départ"))
        );
    }
}
