//! What the preview serves from the binary under `/__curbside/`: the
//! live-reload script and style, the stand-in's pages. The site's policy covers
//! them too, so nothing inline.

use crate::text::escape_markup;

/// Every previewed page ends with it.
pub const LIVE_SCRIPT_TAG: &str = r#"<script type="module" src="/__curbside/live.js"></script>"#;

pub const THANKS_PATH: &str = "/__curbside/thanks";

pub struct DevAsset {
    pub content_type: &'static str,
    pub body: String,
}

pub fn find(path: &str) -> Option<DevAsset> {
    let (content_type, body) = match path {
        "/__curbside/live.js" => (
            "text/javascript; charset=utf-8",
            include_str!("assets/live.js").to_string(),
        ),
        "/__curbside/overlay.css" => (
            "text/css; charset=utf-8",
            include_str!("assets/overlay.css").to_string(),
        ),
        THANKS_PATH => ("text/html; charset=utf-8", thanks_page()),
        _ => return None,
    };
    Some(DevAsset { content_type, body })
}

/// Where a form posted without JavaScript lands, as the hosted service's own page would.
fn thanks_page() -> String {
    page(
        "Thanks, the submission was received",
        "<p>This page stands in for the form service's own thank-you page while you preview the site. Nothing was sent anywhere: the submission was saved to <code>.curbside/submissions.jsonl</code> in the project folder.</p><p><a href=\"/\">Back to the home page</a></p>",
    )
}

/// While there is nothing to serve; reloads once a build works.
pub fn not_built_page() -> String {
    page(
        "Waiting for a first good build",
        "<p>The site has not been built yet, or its first build failed. The terminal running <code>curbside serve</code> says why; this page reloads by itself once the site builds.</p>",
    )
}

/// A refused form posted without JavaScript, listing `messages`.
pub fn form_error_page(messages: &[String]) -> String {
    let items: String = messages
        .iter()
        .map(|m| format!("<li>{}</li>", escape_markup(m)))
        .collect();
    page(
        "The submission was not accepted",
        &format!(
            "<ul class=\"curbside-page__error\">{items}</ul><p>This page stands in for the form service's own error page while you preview the site. <a href=\"/#contact\">Back to the form</a></p>"
        ),
    )
}

fn page(title: &str, body_html: &str) -> String {
    let title = escape_markup(title);
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n<link rel=\"stylesheet\" href=\"/__curbside/overlay.css\">\n</head>\n<body>\n<main class=\"curbside-page\">\n<h1>{title}</h1>\n{body_html}\n</main>\n{LIVE_SCRIPT_TAG}\n</body>\n</html>\n"
    )
}
