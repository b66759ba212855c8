//! The form service's stand-in: sign-ups accepted, refused and recorded as
//! the hosted service answers them, from scripts and from plain forms.

use std::net::SocketAddr;

use crate::support::server::*;
use serde_json::{Value, json};

const COMPLETE: &[(&str, &str)] = &[
    ("firstName", "Ada"),
    ("lastName", "Lovelace"),
    ("address", "1 Main St"),
    ("city", "Brookings"),
    ("state", "SD"),
    ("zip", "57006"),
    ("email", "ada@example.com"),
    ("phone", "(605) 555-0142"),
    ("promotion", "Monthly plan"),
    ("plan_type", "monthly"),
    ("plan_amount", "25"),
    ("billing_frequency", "monthly"),
    ("_gotcha", ""),
];

fn with(name: &str, value: &str) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = COMPLETE
        .iter()
        .filter(|(n, _)| *n != name)
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    fields.push((name.into(), value.into()));
    fields
}

pub(super) fn complete() -> Vec<(String, String)> {
    with("_gotcha", "")
}

/// A body as a browser's FormData sends it.
fn multipart(fields: &[(String, String)]) -> (String, Vec<u8>) {
    let boundary = "----curbsideTestBoundary7MA4YWxkTrZu0gW";
    let mut body = String::new();
    for (name, value) in fields {
        body.push_str(&format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
        ));
    }
    body.push_str(&format!("--{boundary}--\r\n"));
    (
        format!("multipart/form-data; boundary={boundary}"),
        body.into_bytes(),
    )
}

fn urlencoded(fields: &[(String, String)]) -> Vec<u8> {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (name, value) in fields {
        out.append_pair(name, value);
    }
    out.finish().into_bytes()
}

/// Posts as the official client does: FormData, JSON wanted, its headers.
pub(super) fn post_json(addr: SocketAddr, form: &str, fields: &[(String, String)]) -> (u16, Value) {
    let (content_type, body) = multipart(fields);
    let reply = request(
        addr,
        "POST",
        &format!("/f/{form}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", &content_type),
            ("Formspree-Client", "curbside @formspree/core@4.0.0"),
            (
                "Formspree-Session-Data",
                "eyJsb2FkZWRBdCI6MSwid2ViZHJpdmVyIjpmYWxzZX0=",
            ),
            ("Origin", &format!("http://{addr}")),
        ],
        &body,
    );
    assert_eq!(
        reply.header("Content-Type"),
        Some("application/json; charset=utf-8")
    );
    assert_eq!(reply.header("Access-Control-Allow-Origin"), Some("*"));
    let json =
        serde_json::from_slice(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.text()));
    (reply.status, json)
}

fn recorded(server: &InProcess) -> Vec<Value> {
    std::fs::read_to_string(server.site.submissions())
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn the_stand_in_accepts_a_complete_sign_up_and_records_it() {
    let server = InProcess::start(true);
    let (status, reply) = post_json(server.addr(), FORM_ID, &complete());
    assert_eq!(status, 200);
    assert_eq!(reply, json!({ "next": "/__curbside/thanks", "ok": true }));
    let lines = recorded(&server);
    assert_eq!(lines.len(), 1);
    let entry = &lines[0];
    assert_eq!(entry["form"], FORM_ID);
    assert_eq!(entry["fields"]["email"], "ada@example.com");
    assert_eq!(entry["fields"]["promotion"], "Monthly plan");
    assert_eq!(entry["fields"]["plan_amount"], "25");
    assert!(entry["fields"].get("_gotcha").is_none());
    let at = entry["received_at"].as_str().unwrap();
    assert!(
        time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339).is_ok(),
        "{at}"
    );
}

#[test]
fn the_stand_in_refuses_as_the_hosted_service_does() {
    let server = InProcess::start(true);
    let addr = server.addr();

    let (status, reply) = post_json(addr, FORM_ID, &with("email", "not-an-email"));
    assert_eq!(status, 422);
    assert_eq!(
        reply,
        json!({"error":"Validation errors","errors":[{"code":"TYPE_EMAIL","field":"email","message":"should be an email"}]})
    );

    let (status, reply) = post_json(addr, "someoneelse", &complete());
    assert_eq!(status, 404);
    assert_eq!(
        reply,
        json!({"error":"Form not found","errors":[{"code":"FORM_NOT_FOUND","message":"Form not found"}]})
    );

    let (status, reply) = post_json(addr, FORM_ID, &[("_gotcha".into(), String::new())]);
    assert_eq!(status, 422);
    assert_eq!(reply["errors"][0]["code"], "EMPTY");
    assert!(
        reply["errors"][0].get("field").is_none(),
        "a form-level error"
    );

    let mut missing = with("phone", "  ");
    missing.retain(|(n, _)| n != "zip");
    let (status, reply) = post_json(addr, FORM_ID, &missing);
    assert_eq!(status, 422);
    let codes: Vec<(String, String)> = reply["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap().into(),
                e["field"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        codes,
        [
            ("REQUIRED_FIELD_MISSING".to_string(), "zip".to_string()),
            ("REQUIRED_FIELD_EMPTY".into(), "phone".into())
        ]
    );
    assert!(recorded(&server).is_empty(), "nothing refused is recorded");
}

#[test]
fn a_filled_honeypot_is_answered_as_success_and_dropped() {
    let server = InProcess::start(true);
    let (status, reply) = post_json(
        server.addr(),
        FORM_ID,
        &with("_gotcha", "https://spam.example"),
    );
    assert_eq!(status, 200);
    assert_eq!(reply["ok"], true);
    assert!(reply["next"].is_string());
    assert!(recorded(&server).is_empty());
}

#[test]
fn a_form_posted_without_javascript_lands_on_a_thank_you_page() {
    let server = InProcess::start(true);
    let addr = server.addr();
    let reply = request(
        addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "text/html,application/xhtml+xml"),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        &urlencoded(&complete()),
    );
    assert_eq!(reply.status, 303);
    assert_eq!(reply.header("Location"), Some("/__curbside/thanks"));
    let thanks = get(addr, "/__curbside/thanks");
    assert_eq!(thanks.status, 200);
    assert!(thanks.text().contains("<a href=\"/\">"), "a link back home");
    assert_eq!(recorded(&server).len(), 1);

    let refused = request(
        addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        &urlencoded(&with("email", "nope")),
    );
    assert_eq!(refused.status, 422);
    assert!(
        refused.text().contains("email should be an email"),
        "{}",
        refused.text()
    );
}

#[test]
fn urlencoded_and_json_bodies_are_read_too() {
    let server = InProcess::start(true);
    let addr = server.addr();
    let reply = request(
        addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        &urlencoded(&complete()),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let object: serde_json::Map<String, Value> = complete()
        .into_iter()
        .map(|(n, v)| (n, Value::String(v)))
        .collect();
    let reply = request(
        addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", "application/json"),
        ],
        Value::Object(object).to_string().as_bytes(),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(recorded(&server).len(), 2);
    let reply = request(
        addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", "text/plain"),
        ],
        b"hello",
    );
    assert_eq!(reply.status, 400);
    assert!(reply.text().contains("unsupported Content-Type"));
}

#[test]
fn cors_preflight_is_answered() {
    let server = InProcess::start(true);
    let reply = request(
        server.addr(),
        "OPTIONS",
        &format!("/f/{FORM_ID}"),
        &[
            ("Origin", "http://localhost:3000"),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "formspree-client, formspree-session-data",
            ),
        ],
        b"",
    );
    assert_eq!(reply.status, 204);
    assert_eq!(reply.header("Access-Control-Allow-Origin"), Some("*"));
    assert!(
        reply
            .header("Access-Control-Allow-Methods")
            .unwrap()
            .contains("POST")
    );
    let allowed = reply
        .header("Access-Control-Allow-Headers")
        .unwrap()
        .to_ascii_lowercase();
    for name in [
        "accept",
        "content-type",
        "formspree-client",
        "formspree-session-data",
    ] {
        assert!(allowed.contains(name), "{name}");
    }
}

#[test]
fn bodies_over_the_limit_are_refused_with_413() {
    let server = InProcess::start(true);
    let big = vec![b'a'; curbside::serve::BODY_LIMIT + 1];
    let mut body = b"email=".to_vec();
    body.extend_from_slice(&big);
    let reply = request(
        server.addr(),
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        &body,
    );
    assert_eq!(reply.status, 413);
    // Refused before the body is read, so before any route is chosen.
    assert!(reply.text().contains("64 KiB"), "{}", reply.text());
    assert!(recorded(&server).is_empty());
}
