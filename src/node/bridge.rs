//! The long-lived Node process (frontend/scripts/island-server.mjs) and the
//! build's requests: bundle, render, minify.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use serde::Deserialize;
use serde_json::{Value, json};

use super::dependencies::{start_node, stop_node};
use crate::diagnostics::{Diagnostic, Result};
use crate::islands::{Bundle, RenderedIsland};
use crate::output::file::OutputFile;

/// Its path as the owner sees it, and its text.
pub struct Stylesheet<'a> {
    pub shown: &'a Path,
    pub css: &'a str,
}

/// What to tell the owner when Node answers with an error.
struct Failure {
    headline: &'static str,
    help: &'static str,
}

const FRONTEND_FAILED: Failure = Failure {
    headline: "building the interactive parts of the site (frontend/) failed",
    help: "content/ and layouts/ are fine; the message above points into frontend/",
};

const STYLES_FAILED: Failure = Failure {
    headline: "minifying the stylesheets of layouts/assets/ failed",
    help: "the message above names the stylesheet and the line to fix",
};

pub struct NodeBridge {
    child: Child,
    /// Dropping it asks Node to stop esbuild and exit.
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    script: PathBuf,
}

/// One reply line: which request, whether it worked, what it made.
#[derive(Deserialize)]
struct NodeMessage {
    id: Option<u64>,
    ok: bool,
    error: Option<String>,
    #[serde(flatten)]
    rest: serde_json::Map<String, Value>,
}

#[derive(Deserialize)]
struct BundleReply {
    entry: String,
    loader: String,
    files: Vec<BundleFile>,
    #[serde(rename = "islandFiles")]
    island_files: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
struct RenderReply {
    html: String,
    hydrate: String,
}

#[derive(Deserialize)]
struct CssReply {
    css: Vec<String>,
}

#[derive(Deserialize)]
struct BundleFile {
    path: String,
    contents: String,
}

impl NodeBridge {
    /// Starts the island server, running `npm ci` first when its packages are
    /// missing or stale.
    pub fn start(frontend: &Path) -> Result<NodeBridge> {
        // Node runs in the frontend folder.
        let frontend =
            std::path::absolute(frontend).map_err(|err| Diagnostic::io("find", frontend, err))?;
        let script = frontend.join("scripts").join("island-server.mjs");
        let mut child = start_node(
            &frontend,
            &script,
            Stdio::inherit(),
            "build the interactive parts of the site (frontend/)",
        )?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| Diagnostic::new("Node.js has no stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Diagnostic::new("Node.js has no stdout"))?;
        Ok(NodeBridge {
            child,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            next_id: 1,
            script,
        })
    }

    fn request(
        &mut self,
        mut request: Value,
        failure: Failure,
    ) -> Result<serde_json::Map<String, Value>> {
        let id = self.next_id;
        self.next_id += 1;
        request["id"] = json!(id);
        let failed = |what: &str, cause: String, script: &Path| {
            Diagnostic::new(format!(
                "building the interactive parts of the site (frontend/) failed: Node.js {what}"
            ))
            .caused_by(cause)
            .help(format!("see the messages above from {}", script.display()))
        };
        let mut line = request.to_string();
        line.push('\n');
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(failed("is shut down", String::new(), &self.script));
        };
        if let Err(err) = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
        {
            let status = self.child.try_wait().ok().flatten();
            return Err(failed(
                "stopped",
                format!("{err}; exit status {status:?}"),
                &self.script,
            ));
        }
        let mut reply = String::new();
        let read = self
            .stdout
            .read_line(&mut reply)
            .map_err(|err| failed("stopped", err.to_string(), &self.script))?;
        if read == 0 {
            let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
            return Err(failed("stopped without answering", status, &self.script));
        }
        let reply: NodeMessage = serde_json::from_str(&reply).map_err(|err| {
            failed(
                "answered something that is not JSON",
                format!("{err}: {reply}"),
                &self.script,
            )
        })?;
        if reply.id != Some(id) {
            return Err(failed(
                "answered out of turn",
                format!("expected id {id}, got {:?}", reply.id),
                &self.script,
            ));
        }
        if !reply.ok {
            let message = reply.error.unwrap_or_else(|| "no message".into());
            return Err(Diagnostic::new(failure.headline)
                .caused_by(message)
                .help(failure.help));
        }
        Ok(reply.rest)
    }

    /// Incrementally after the first time.
    pub fn bundle(&mut self) -> Result<Bundle> {
        let reply = self.request(json!({ "cmd": "bundle" }), FRONTEND_FAILED)?;
        let reply: BundleReply = serde_json::from_value(Value::Object(reply)).map_err(|err| {
            Diagnostic::new("the island server's bundle reply is malformed").caused_by(err)
        })?;
        let files = reply
            .files
            .into_iter()
            .map(|file| OutputFile::text(file.path, file.contents))
            .collect();
        Ok(Bundle {
            entry: reply.entry,
            loader: reply.loader,
            files,
            island_files: reply.island_files,
        })
    }

    /// One result per sheet, in order; Node prints syntax warnings, which do
    /// not fail the build.
    pub fn minify_css(&mut self, sheets: &[Stylesheet]) -> Result<Vec<String>> {
        let request: Vec<Value> = sheets
            .iter()
            .map(|sheet| json!({ "name": sheet.shown.display().to_string(), "css": sheet.css }))
            .collect();
        let reply = self.request(json!({ "cmd": "css", "sheets": request }), STYLES_FAILED)?;
        let reply: CssReply = serde_json::from_value(Value::Object(reply)).map_err(|err| {
            Diagnostic::new("the island server's css reply is malformed").caused_by(err)
        })?;
        if reply.css.len() != sheets.len() {
            return Err(Diagnostic::new(format!(
                "the island server minified {} stylesheets instead of {}",
                reply.css.len(),
                sheets.len()
            )));
        }
        Ok(reply.css)
    }

    /// Renders each island from its props with React's `identifierPrefix`, and
    /// learns when it hydrates. With `reload`, Node first rebuilds its server module.
    pub fn render(
        &mut self,
        islands: &[(&str, &Value, &str)],
        reload: bool,
    ) -> Result<Vec<RenderedIsland>> {
        let request: Vec<Value> = islands
            .iter()
            .map(|(name, props, prefix)| json!({ "name": name, "props": props, "prefix": prefix }))
            .collect();
        let mut reply = self.request(
            json!({ "cmd": "render", "islands": request, "reload": reload }),
            FRONTEND_FAILED,
        )?;
        let rendered: Vec<RenderReply> = reply
            .remove("islands")
            .and_then(|list| serde_json::from_value(list).ok())
            .ok_or_else(|| {
                Diagnostic::new(
                    "the island server's render reply has no `islands` list of {html, hydrate}",
                )
            })?;
        if rendered.len() != islands.len() {
            return Err(Diagnostic::new(format!(
                "the island server rendered {} islands instead of {}",
                rendered.len(),
                islands.len()
            )));
        }
        Ok(rendered
            .into_iter()
            .map(|RenderReply { html, hydrate }| RenderedIsland { hydrate, html })
            .collect())
    }
}

impl Drop for NodeBridge {
    fn drop(&mut self) {
        // Closing stdin lets Node stop esbuild's process and exit; killing Node
        // would leave esbuild holding our stderr open.
        drop(self.stdin.take());
        stop_node(&mut self.child);
    }
}
