//! Every message a user sees, in one format:
//!
//! `error: content/plans.yaml:4:10: the monthly price must be more than $0` and
//! an indented `help:` line.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// How grave a message is; errors first when sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The command fails.
    Error,
    /// Worth fixing; the command goes on.
    Warning,
    /// Nothing to fix.
    Note,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        })
    }
}

/// Lines and columns count from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl Location {
    pub fn file(file: impl Into<PathBuf>) -> Self {
        Location {
            file: file.into(),
            line: None,
            column: None,
        }
    }

    pub fn at(file: impl Into<PathBuf>, line: usize, column: usize) -> Self {
        Location {
            file: file.into(),
            line: Some(line),
            column: Some(column),
        }
    }

    /// An address of the live site, shown as it is.
    pub fn address(url: &str) -> Self {
        Location::file(url)
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        Ok(())
    }
}

/// An error as a value: what, where, what to change. Boxed, so `Result<T,
/// Diagnostic>` stays small.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic(Box<Details>);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Details {
    pub level: Level,
    pub location: Option<Location>,
    pub message: String,
    pub help: Option<String>,
    /// Outermost first, printed as "caused by" lines.
    pub causes: Vec<String>,
    /// More of the same, each printed on its own indented line ("also at: …").
    pub more: Vec<String>,
}

impl std::ops::Deref for Diagnostic {
    type Target = Details;
    fn deref(&self) -> &Details {
        &self.0
    }
}

pub type Result<T, E = Diagnostic> = std::result::Result<T, E>;

impl Diagnostic {
    pub fn new(message: impl Into<String>) -> Self {
        Diagnostic(Box::new(Details {
            level: Level::Error,
            location: None,
            message: message.into(),
            help: None,
            causes: Vec::new(),
            more: Vec::new(),
        }))
    }

    pub fn level(mut self, level: Level) -> Self {
        self.0.level = level;
        self
    }

    pub fn more(mut self, line: impl Into<String>) -> Self {
        self.0.more.push(line.into());
        self
    }

    pub fn at(mut self, location: Location) -> Self {
        self.0.location = Some(location);
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.0.help = Some(help.into());
        self
    }

    pub fn caused_by(mut self, cause: impl fmt::Display) -> Self {
        self.0.causes.push(cause.to_string());
        self
    }

    pub fn io(action: &str, path: &Path, err: std::io::Error) -> Self {
        Diagnostic::new(format!("could not {action} {}", path.display())).caused_by(err)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = self.level;
        match &self.location {
            Some(location) => write!(f, "{level}: {location}: {}", self.message)?,
            None => write!(f, "{level}: {}", self.message)?,
        }
        for cause in &self.causes {
            write!(f, "\n  caused by: {}", cause.trim_end())?;
        }
        for line in &self.more {
            write!(f, "\n  {line}")?;
        }
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// A problem walkdir met in `dir`, at its file: a link to a folder holding it,
/// a link to nothing, an unreadable file. `help` says what to do about a link.
pub fn from_walk(err: &walkdir::Error, dir: &Path, shown: &Path, help: &str) -> Diagnostic {
    let at = err
        .path()
        .and_then(|path| path.strip_prefix(dir).ok())
        .map_or_else(|| shown.to_path_buf(), |relative| shown.join(relative));
    let looped = err.loop_ancestor().is_some();
    let dangling = err
        .io_error()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound);
    let diagnostic = Diagnostic::new(if looped {
        "this folder links back to one that contains it"
    } else if dangling {
        "this symbolic link points to nothing"
    } else {
        "could not read this folder"
    })
    .at(Location::file(at));
    match err.io_error() {
        Some(io) if !looped && !dangling => diagnostic.caused_by(io),
        _ => diagnostic.help(help),
    }
}

/// Printed; the build goes on.
pub fn warn(message: &str) {
    eprintln!("{}", Diagnostic::new(message).level(Level::Warning));
}
