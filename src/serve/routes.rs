//! Which handler answers a request: the live-reload stream, the form
//! stand-in, the dev assets, or the site's files, behind the `Host` check.

use std::sync::Arc;

use super::preview::Preview;
use super::request::Request;
use super::request_path::path_of;
use super::response::{self, Answer, TEXT_PLAIN, method_not_allowed, with_header};
use super::{dev_assets, form_service, host_check, live_reload, static_files};

/// The answer to `request`, from the preview it was made to.
pub fn answer(request: &Request, preview: &Arc<Preview>) -> Answer {
    if !host_check::allowed(request.header("Host")) {
        return response::text(
            403,
            TEXT_PLAIN,
            "The preview answers only requests made to an IP address or localhost: open it at the address curbside printed.\n".into(),
        )
        .into();
    }
    let path = path_of(&request.target);
    if path == live_reload::EVENTS_PATH {
        if !request.is_read() {
            return method_not_allowed("GET, HEAD").into();
        }
        let preview = preview.clone();
        let headers = preview.security_header_lines();
        let last_event_id = request.header("Last-Event-ID").map(str::to_owned);
        let head_only = !matches!(request.method, tiny_http::Method::Get);
        // A tab's stream is one of the server's connections, and counted so.
        Answer::Stream(Box::new(move |out| {
            live_reload::stream(
                out,
                preview.live(),
                &headers,
                last_event_id.as_deref(),
                head_only,
            );
        }))
    } else if path.starts_with(form_service::PATH_PREFIX) {
        form_service::handle(request, preview).into()
    } else if !request.is_read() {
        method_not_allowed("GET, HEAD").into()
    } else if let Some(asset) = dev_assets::find(path) {
        let answer = response::text(200, asset.content_type, asset.body);
        with_header(answer, "Cache-Control", "no-cache").into()
    } else {
        static_files::respond(request, preview).into()
    }
}
