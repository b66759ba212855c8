//! The stand-in for the hosted form service at `/f/{formId}`: its protocol, its
//! validation, accepted submissions kept locally. Preview pages post here;
//! `build` keeps the hosted endpoint.

use serde_json::json;
use tiny_http::{Method, ResponseBox};

use super::dev_assets::{self, THANKS_PATH};
use super::form_body::{self, Field};
use super::form_validation::{self, Rejection, Verdict};
use super::preview::Preview;
use super::request::Request;
use super::response::{self, TEXT_PLAIN, with_header};
use super::submissions::{printable, summary};

pub const PATH_PREFIX: &str = "/f/";

/// The official client's, allowed across origins.
const ALLOWED_HEADERS: &str = "Accept, Content-Type, Formspree-Client, Formspree-Session-Data";

pub fn handle(request: &Request, preview: &Preview) -> ResponseBox {
    let answer = match request.method {
        Method::Options => preflight(),
        Method::Post => submit(request, preview),
        _ => response::method_not_allowed("POST, OPTIONS"),
    };
    with_header(answer, "Access-Control-Allow-Origin", "*")
}

fn preflight() -> ResponseBox {
    let response = response::empty(204);
    let response = with_header(response, "Access-Control-Allow-Methods", "POST, OPTIONS");
    let response = with_header(response, "Access-Control-Allow-Headers", ALLOWED_HEADERS);
    with_header(response, "Access-Control-Max-Age", "600")
}

/// JSON for the JavaScript client; pages and redirects without it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum AnswerFormat {
    Json,
    Page,
}

fn submit(request: &Request, preview: &Preview) -> ResponseBox {
    let reply = match request.header("Accept") {
        Some(accept) if accept.contains("application/json") => AnswerFormat::Json,
        _ => AnswerFormat::Page,
    };
    let form_id = request_path_form_id(&request.target);
    let Some(form_id) = form_id.filter(|id| preview.form_id().as_deref() == Some(id.as_str()))
    else {
        return rejected(reply, form_validation::form_not_found());
    };
    let fields = match form_body::parse(request.header("Content-Type"), &request.body) {
        Ok(fields) => fields,
        Err(err) => return failure(reply, 400, err.0),
    };
    match form_validation::judge(&fields) {
        Verdict::Accepted => {
            if let Err(diagnostic) = preview.submissions().record(&form_id, &fields) {
                eprintln!("{diagnostic}");
                return failure(
                    reply,
                    500,
                    "the local stand-in could not save the submission".into(),
                );
            }
            let saved = format!("saved to {}", preview.submissions().path().display());
            eprintln!("{}", summary(&form_id, &fields, &saved));
            accepted(reply)
        }
        Verdict::Spam => {
            eprintln!(
                "{}",
                summary(&form_id, &fields, "dropped: the honeypot was filled")
            );
            accepted(reply)
        }
        Verdict::Rejected(rejection) => {
            log_rejection(&form_id, &fields, &rejection);
            rejected(reply, rejection)
        }
    }
}

/// `None` for any other shape.
fn request_path_form_id(target: &str) -> Option<String> {
    let path = super::request_path::path_of(target);
    let id = path.strip_prefix(PATH_PREFIX)?;
    (!id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric())).then(|| id.to_string())
}

fn accepted(reply: AnswerFormat) -> ResponseBox {
    match reply {
        // The stand-in's own thank-you page, so following `next` stays here.
        AnswerFormat::Json => {
            json_reply(200, json!({ "next": THANKS_PATH, "ok": true }).to_string())
        }
        AnswerFormat::Page => {
            let response = response::text(303, TEXT_PLAIN, format!("See {THANKS_PATH}\n"));
            with_header(response, "Location", THANKS_PATH)
        }
    }
}

fn rejected(reply: AnswerFormat, rejection: Rejection) -> ResponseBox {
    match reply {
        AnswerFormat::Json => json_reply(
            rejection.status,
            serde_json::to_string(&rejection).unwrap_or_default(),
        ),
        AnswerFormat::Page => {
            let messages: Vec<String> = rejection
                .errors
                .iter()
                .map(|e| format!("{} {}", e.field.as_deref().unwrap_or("Form"), e.message))
                .collect();
            response::text(
                rejection.status,
                "text/html; charset=utf-8",
                dev_assets::form_error_page(&messages),
            )
        }
    }
}

/// Unreadable, not invalid.
fn failure(reply: AnswerFormat, status: u16, message: String) -> ResponseBox {
    match reply {
        AnswerFormat::Json => json_reply(status, json!({ "error": message }).to_string()),
        AnswerFormat::Page => response::text(
            status,
            "text/html; charset=utf-8",
            dev_assets::form_error_page(&[message]),
        ),
    }
}

fn json_reply(status: u16, body: String) -> ResponseBox {
    response::text(status, "application/json; charset=utf-8", body)
}

fn log_rejection(form_id: &str, fields: &[Field], rejection: &Rejection) {
    let codes: Vec<String> = rejection
        .errors
        .iter()
        .map(|e| match &e.field {
            Some(field) => format!("{} ({})", e.code, printable(field)),
            None => e.code.to_string(),
        })
        .collect();
    let outcome = format!("refused: {}", codes.join(", "));
    eprintln!("{}", summary(form_id, fields, &outcome));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_ids_come_from_the_path() {
        assert_eq!(
            request_path_form_id("/f/xsample1").as_deref(),
            Some("xsample1")
        );
        assert_eq!(request_path_form_id("/f/abc?x=1").as_deref(), Some("abc"));
        for bad in ["/f/", "/f/a/b", "/f/a%2e", "/f/../x"] {
            assert_eq!(request_path_form_id(bad), None, "{bad}");
        }
    }
}
