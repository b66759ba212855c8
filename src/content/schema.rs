//! JSON Schemas of the content files from the types the build reads, so an
//! editor checks and completes what the build accepts. Each content file names
//! its schema in `content/schemas/`; `curbside schemas` rewrites them, and a
//! test fails while they are stale.

use std::path::Path;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;

use super::{Business, Chrome, FaqEntry, Home, NotFound, PageMeta, Plans};
use crate::diagnostics::{Diagnostic, Result};

pub const FOLDER: &str = "schemas";

/// Each content file (a page's front matter for `pages/*.md`), its schema's
/// file name and text.
pub fn files() -> Vec<(&'static str, &'static str, String)> {
    vec![
        (
            "business.yaml",
            "business.schema.json",
            schema_for::<Business>("business.yaml: the business behind the site"),
        ),
        (
            "plans.yaml",
            "plans.schema.json",
            schema_for::<Plans>("plans.yaml: the two plans"),
        ),
        (
            "site.yaml",
            "site.schema.json",
            schema_for::<Chrome>("site.yaml: words every page shares"),
        ),
        (
            "home.yaml",
            "home.schema.json",
            schema_for::<Home>("home.yaml: every word of the home page"),
        ),
        (
            "faq.yaml",
            "faq.schema.json",
            schema_for::<Vec<FaqEntry>>("faq.yaml: the questions and their Markdown answers"),
        ),
        (
            "notfound.yaml",
            "notfound.schema.json",
            schema_for::<NotFound>("notfound.yaml: the page for unknown addresses"),
        ),
        (
            "pages/*.md",
            "page.schema.json",
            schema_for::<PageMeta>("The front matter of a Markdown page"),
        ),
    ]
}

/// Draft 7: the newest YAML editors' language server reads.
fn schema_for<T: JsonSchema>(title: &str) -> String {
    let mut schema = SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<T>();
    schema.insert("title".into(), title.into());
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

pub fn write(content_dir: &Path) -> Result<Vec<String>> {
    let folder = content_dir.join(FOLDER);
    std::fs::create_dir_all(&folder).map_err(|err| Diagnostic::io("create", &folder, err))?;
    let mut written = Vec::new();
    for (_, name, text) in files() {
        let path = folder.join(name);
        std::fs::write(&path, text).map_err(|err| Diagnostic::io("write", &path, err))?;
        written.push(name.to_string());
    }
    Ok(written)
}
