//! The site's small text files: sitemap.xml and robots.txt.

use crate::content::Site;
use crate::output::file::OutputFile;
use crate::text::escape_markup;

/// sitemap.xml: the home page and every Markdown page.
pub fn sitemap(site: &Site) -> OutputFile {
    let base = site.business.url.as_str();
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    xml.push_str(&format!("<url><loc>{}/</loc></url>\n", escape_markup(base)));
    for page in &site.pages {
        xml.push_str(&format!(
            "<url><loc>{}/{}</loc>",
            escape_markup(base),
            page.slug
        ));
        if let Some(date) = page.meta.date {
            xml.push_str(&format!("<lastmod>{}</lastmod>", date.iso()));
        }
        xml.push_str("</url>\n");
    }
    xml.push_str("</urlset>\n");
    OutputFile::text("sitemap.xml", xml)
}

/// robots.txt: everything may be crawled; where the sitemap is.
pub fn robots(site: &Site) -> OutputFile {
    OutputFile::text(
        "robots.txt",
        format!(
            "User-agent: *\nAllow: /\n\nSitemap: {}/sitemap.xml\n",
            site.business.url.as_str()
        ),
    )
}
