//! minijinja over `layouts/`: `.html` auto-escaped, undefined variables an
//! error, failures reported at their template line.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use minijinja::value::Kwargs;
use minijinja::{Environment, ErrorKind, UndefinedBehavior, Value};

use crate::diagnostics::{self, Diagnostic, Location, Result};
use crate::media::{Library, Placement};
use crate::text::{escape_markup, line_column, read_text};

pub struct Layouts {
    env: Environment<'static>,
    shown: PathBuf,
}

impl Layouts {
    /// Loads every `*.html` under `dir`, named by relative path (`partials/header.html`).
    pub fn load(dir: &Path, shown: &Path) -> Result<Layouts> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        // Keeps each error's place in release builds too, so the message names the column.
        env.set_debug(true);
        let syntax = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .build()
            .map_err(|err| {
                Diagnostic::new("could not configure the template engine").caused_by(err)
            })?;
        env.set_syntax(syntax);
        env.set_formatter(escape_html);
        if !dir.is_dir() {
            return Err(Diagnostic::new("the layouts folder is missing")
                .at(Location::file(shown))
                .help("create it with the layouts of the repository's own layouts/ folder"));
        }
        for entry in walkdir::WalkDir::new(dir)
            .follow_links(true)
            .sort_by_file_name()
        {
            let entry = entry.map_err(|err| {
                diagnostics::from_walk(
                    &err,
                    dir,
                    shown,
                    "remove the symbolic link; layouts must be plain files",
                )
            })?;
            let path = entry.path();
            if !entry.file_type().is_file() || path.extension().is_none_or(|ext| ext != "html") {
                continue;
            }
            let relative = path.strip_prefix(dir).unwrap_or(path);
            let name = relative.to_string_lossy().replace('\\', "/");
            let file_shown = shown.join(relative);
            let source = read_text(path, &file_shown)?;
            env.add_template_owned(name, source)
                .map_err(|err| template_error(&err, shown))?;
        }
        Ok(Layouts {
            env,
            shown: shown.to_path_buf(),
        })
    }

    /// Gives layouts `image(src, alt, sizes=…, priority=…, eager=…, class=…)`,
    /// placing a picture of content/ as content's own pictures are (lazy unless
    /// `priority`, the largest paint, or `eager`), and `image_preload(src,
    /// sizes=…)`, its `<link rel="preload">` for the head.
    pub fn place_pictures_with(&mut self, pictures: Arc<Library>) {
        let shown = self.shown.clone();
        let library = Arc::clone(&pictures);
        self.env.add_function(
            "image",
            move |src: String,
                  alt: String,
                  options: Kwargs|
                  -> std::result::Result<Value, minijinja::Error> {
                let sizes: Option<String> = options.get("sizes")?;
                let class: Option<String> = options.get("class")?;
                let priority: Option<bool> = options.get("priority")?;
                let eager: Option<bool> = options.get("eager")?;
                options.assert_all_used()?;
                let picture = library
                    .place("", &src, &Location::file(&shown))
                    .map_err(function_error)?;
                let placement = Placement {
                    alt: &alt,
                    sizes: sizes.as_deref().unwrap_or("100vw"),
                    priority: priority.unwrap_or(false),
                    eager: eager.unwrap_or(false),
                    class: class.as_deref(),
                    ..Placement::default()
                };
                Ok(Value::from_safe_string(
                    library.markup(&picture, &placement),
                ))
            },
        );
        let shown = self.shown.clone();
        self.env.add_function(
            "image_preload",
            move |src: String, options: Kwargs| -> std::result::Result<Value, minijinja::Error> {
                let sizes: Option<String> = options.get("sizes")?;
                options.assert_all_used()?;
                let picture = pictures
                    .place("", &src, &Location::file(&shown))
                    .map_err(function_error)?;
                let placement = Placement {
                    sizes: sizes.as_deref().unwrap_or("100vw"),
                    ..Placement::default()
                };
                Ok(Value::from_safe_string(
                    pictures.preload(&picture, &placement),
                ))
            },
        );
    }

    pub fn render(&self, name: &str, context: minijinja::Value) -> Result<String> {
        let template = self.env.get_template(name).map_err(|_| {
            Diagnostic::new(format!("the layout `{name}` is missing"))
                .at(Location::file(self.shown.join(name)))
                .help("create it; the repository's own layouts/ folder has every layout the build needs")
        })?;
        template
            .render(context)
            .map_err(|err| template_error(&err, &self.shown))
    }
}

/// The build's own escaper: minijinja's default escapes `/` too, which makes
/// URLs in attributes harder to read.
fn escape_html(
    out: &mut minijinja::Output,
    state: &mut minijinja::State,
    value: &minijinja::Value,
) -> Result<(), minijinja::Error> {
    if value.is_safe()
        || !matches!(state.auto_escape(), minijinja::AutoEscape::Html)
        || value.is_undefined()
    {
        return minijinja::escape_formatter(out, state, value);
    }
    let text = value.to_string();
    let escaped = escape_markup(&text);
    out.write_str(&escaped).map_err(|_| {
        minijinja::Error::new(
            minijinja::ErrorKind::WriteFailure,
            "could not write the page",
        )
    })
}

/// A picture's or island's problem inside a layout: the template line is added
/// where reported, its advice kept.
pub(crate) fn function_error(err: Diagnostic) -> minijinja::Error {
    let detail = match &err.help {
        Some(help) => format!("{}\n  help: {help}", err.message),
        None => err.message.clone(),
    };
    minijinja::Error::new(ErrorKind::InvalidOperation, detail)
}

fn template_error(err: &minijinja::Error, shown: &Path) -> Diagnostic {
    use minijinja::ErrorKind;
    use std::error::Error as _;
    // An error in an included layout is wrapped in one at the include; the
    // innermost is the mistake.
    let mut err = err;
    while let Some(inner) = err
        .source()
        .and_then(|s| s.downcast_ref::<minijinja::Error>())
    {
        err = inner;
    }
    let name = err.name().unwrap_or("?");
    let location = match (err.line(), err.range(), err.template_source()) {
        (_, Some(range), Some(source)) if range.start <= source.len() => {
            let (line, column) = line_column(&source.as_bytes()[..range.start]);
            Location::at(shown.join(name), line, column)
        }
        (Some(line), _, _) => Location::at(shown.join(name), line, 1),
        _ => Location::file(shown.join(name)),
    };
    let detail = err
        .detail()
        .map(str::to_string)
        .unwrap_or_else(|| err.kind().to_string());
    let (message, help) = match err.kind() {
        ErrorKind::UndefinedError => (
            format!("undefined value: {detail}"),
            "check the spelling of the variable; the values a layout can use are listed in layouts/README.md".to_string(),
        ),
        ErrorKind::SyntaxError => (
            format!("template syntax error: {detail}"),
            "check that every {{ }}, {% %} and {# #} is closed and every block has its end tag".to_string(),
        ),
        ErrorKind::TemplateNotFound => (
            format!("a layout is missing: {detail}"),
            "create it, or correct the name in the include or extends tag".to_string(),
        ),
        // From `image()` (see `function_error`).
        _ => match detail.split_once("\n  help: ") {
            Some((message, help)) => (message.to_string(), help.to_string()),
            None => (detail, "check the template at this line".to_string()),
        },
    };
    Diagnostic::new(message).at(location).help(help)
}
