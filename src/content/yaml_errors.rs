//! serde_yaml's messages in the words of the content files: where the mistake
//! is, and what to change.

use std::path::Path;

use serde_path_to_error::Segment;

use super::phrases::{self, Part};
use super::spelling;
use super::values::take_failure;
use crate::diagnostics::{Diagnostic, Location};

/// `path`: where a value was being read; `None` for a syntax error.
pub(super) fn translate(
    err: &serde_yaml::Error,
    path: Option<&serde_path_to_error::Path>,
    text: &str,
    shown: &Path,
    line_offset: usize,
) -> Diagnostic {
    let raw = err.to_string();
    // "PROBLEM at line L column C, while CONTEXT at …" for syntax errors,
    // "PATH: MESSAGE at line L column C" for others; locations are printed by the caller.
    let (problem, context) = match raw.split_once(", while ") {
        Some((problem, context)) => (problem, Some(context)),
        None => (raw.as_str(), None),
    };
    let problem = problem.find(" at line ").map_or(problem, |i| &problem[..i]);
    let mut parts = path.map(parts).unwrap_or_default();
    // An unknown or repeated key fails as it is read: named by its mapping.
    if let Some(Part::Key(key)) = parts.last()
        && ["unknown field", "duplicate field"]
            .iter()
            .any(|what| problem.contains(&format!("{what} `{key}`")))
    {
        parts.pop();
    }
    let problem = problem
        .strip_prefix(&format!("{}: ", yaml_path(&parts)))
        .unwrap_or(problem);
    let at = err.location().map(|at| (at.line(), at.column()));
    let (message, help, at) = match take_failure(problem) {
        Some((message, help)) => {
            let at = placeholder_position(&message, text, at).or(at);
            (message, Some(help), at)
        }
        None => explain(problem, context, text, at),
    };
    let file_name = shown
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    // "must be …" and "is …" read on from the value's phrase.
    let continues = message.starts_with("must ") || message.starts_with("is ");
    let message = match (parts.is_empty(), continues) {
        (false, true) => format!("{} {message}", phrases::phrase(&parts, &file_name)),
        (false, false) => format!("{}: {message}", phrases::phrase(&parts, &file_name)),
        (true, true) => format!("this value {message}"),
        (true, false) => message,
    };
    let location = match at {
        Some((line, column)) => Location::at(shown, line + line_offset, column),
        None => Location::file(shown),
    };
    let mut diagnostic = Diagnostic::new(message).at(location);
    if let Some(help) = help {
        diagnostic = diagnostic.help(help);
    }
    diagnostic
}

fn parts(path: &serde_path_to_error::Path) -> Vec<Part<'_>> {
    path.iter()
        .filter_map(|segment| match segment {
            Segment::Seq { index } => Some(Part::Index(*index)),
            Segment::Map { key } | Segment::Enum { variant: key } => Some(Part::Key(key)),
            Segment::Unknown => None,
        })
        .collect()
}

/// As serde_yaml writes the path before a message: `.` at the root, `.[2]` for
/// a list there.
fn yaml_path(parts: &[Part]) -> String {
    let mut written = String::new();
    for part in parts {
        match part {
            Part::Key(key) if written.is_empty() => written.push_str(key),
            Part::Key(key) => written.push_str(&format!(".{key}")),
            Part::Index(index) if written.is_empty() => written.push_str(&format!(".[{index}]")),
            Part::Index(index) => written.push_str(&format!("[{index}]")),
        }
    }
    if written.is_empty() {
        ".".into()
    } else {
        written
    }
}

/// A message of serde or the YAML parser in the content files' words, with
/// advice and, where the parser noticed late, the mistake's own place.
fn explain(
    message: &str,
    context: Option<&str>,
    text: &str,
    at: Option<(usize, usize)>,
) -> (String, Option<String>, Option<(usize, usize)>) {
    let line_text = |line: usize| text.lines().nth(line.saturating_sub(1)).unwrap_or("");
    let error_line = at.map_or(0, |(line, _)| line);
    let line = line_text(error_line);
    if line[..line.len() - line.trim_start().len()].contains('\t') {
        let help = "indent with spaces: YAML does not allow tab characters for indentation";
        let message = "this line is indented with a tab character".to_string();
        return (message, Some(help.into()), Some((error_line, 1)));
    }
    if line.contains('\t') {
        let help = "replace the tab characters in this line with spaces";
        return (message.to_string(), Some(help.into()), at);
    }
    // YAML reads a value starting with one of these as something else.
    let value = line
        .split_once(": ")
        .map_or("", |(_, value)| value.trim_start());
    let quote_it = value
        .chars()
        .next()
        .filter(|c| "{*&@`%!".contains(*c))
        .map(|c| {
            format!(
                "put the text in quotes: YAML reads text that starts with `{c}` as something else"
            )
        });
    let unclosed = |at| {
        let help = "add the closing quote at the end of the text, on the same line";
        (
            "this quote is never closed".to_string(),
            Some(help.into()),
            Some(at),
        )
    };
    if let Some(opened) = context
        .filter(|c| c.starts_with("scanning a quoted scalar"))
        .and_then(position_in)
    {
        return unclosed(opened);
    }
    if let Some(field) = quoted_name(message, "unknown field `") {
        let allowed: Vec<&str> = message
            .split_once(", expected ")
            .map(|(_, list)| list.split('`').skip(1).step_by(2).collect())
            .unwrap_or_default();
        let listed = allowed
            .iter()
            .map(|key| format!("`{key}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let help = match spelling::closest(field, &allowed) {
            Some(key) => format!("did you mean `{key}`? The keys allowed here are {listed}"),
            None if allowed.is_empty() => format!("remove `{field}`; no keys are allowed here"),
            None => format!("remove `{field}`, or use one of the keys allowed here: {listed}"),
        };
        return (format!("unknown key `{field}`"), Some(help), at);
    }
    if let Some(given) = quoted_name(message, "unknown variant `") {
        let choices: Vec<&str> = message
            .split_once(", expected ")
            .map(|(_, list)| list.split('`').skip(1).step_by(2).collect())
            .unwrap_or_default();
        let listed = choices
            .iter()
            .map(|choice| format!("`{choice}`"))
            .collect::<Vec<_>>()
            .join(" or ");
        return (
            format!("`{given}` is not one of the choices here"),
            Some(format!("write {listed}")),
            at,
        );
    }
    if let Some(field) = quoted_name(message, "missing field `") {
        let help = format!("add `{field}:` with its value at this level");
        return (format!("the key `{field}` is missing"), Some(help), at);
    }
    if let Some(field) = quoted_name(message, "duplicate field `") {
        // serde points at the mapping; point at the second key.
        let indent = at.map_or(0, |(_, column)| column - 1);
        let second = text
            .lines()
            .enumerate()
            .skip(error_line.saturating_sub(1))
            .filter(|(_, line)| {
                line.len() - line.trim_start().len() == indent
                    && line
                        .trim_start()
                        .strip_prefix(field)
                        .is_some_and(|r| r.starts_with(':'))
            })
            .nth(1)
            .map(|(index, _)| (index + 1, indent + 1));
        let help = format!("remove one of the two `{field}:` lines");
        return (
            format!("the key `{field}` appears twice"),
            Some(help),
            second.or(at),
        );
    }
    if let Some((found, expected)) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|rest| rest.split_once(", expected "))
    {
        let found = plain_found(found);
        let (expected, help) = plain_expected(expected);
        let help = quote_it.unwrap_or(help);
        return (
            format!("expected {expected} here, not {found}"),
            Some(help),
            at,
        );
    }
    if message.contains("more than one document") {
        let second = text.lines().position(|line| line.trim_end() == "---");
        let help = "a content file holds one YAML document: remove this `---` line";
        let message = "a second YAML document starts here".to_string();
        return (message, Some(help.into()), second.map(|i| (i + 1, 1)));
    }
    let missing_colon_at = if message.contains("could not find expected ':'") {
        context
            .filter(|c| c.starts_with("scanning a simple key"))
            .and_then(position_in)
    } else if message.contains("mapping values are not allowed") {
        key_without_colon_above(text, error_line)
    } else {
        None
    };
    if let Some((line, column)) = missing_colon_at {
        let written = line_text(line).trim();
        let (key, rest) = written.split_once(' ').unwrap_or((written, ""));
        let rest = rest.trim_start();
        return (
            format!("the key `{key}` has no colon after it"),
            Some(format!("put a colon right after the key: `{key}: {rest}`")),
            Some((line, column)),
        );
    }
    if let Some(help) = quote_it {
        let column = line[..line.len() - value.len()].chars().count() + 1;
        let first = value.chars().next().unwrap_or('{');
        let message =
            format!("this text starts with `{first}`, which YAML reads as something else");
        return (message, Some(help), Some((error_line, column)));
    }
    let (plain, help) = if message.contains("mapping values are not allowed") {
        let previous = text
            .lines()
            .take(error_line.saturating_sub(1))
            .filter(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
            .last()
            .unwrap_or("");
        let indent = |line: &str| line.len() - line.trim_start().len();
        if indent(line) > indent(previous) {
            (
                "this line is indented further than the key above it",
                "it reads as part of that key's text; line its key up with the keys above it",
            )
        } else {
            (
                "this text holds a colon and a space, which YAML reads as a new key",
                "put text that contains \": \" in quotes",
            )
        }
    } else if message.contains("did not find expected")
        || message.contains("could not find expected")
    {
        if let Some(opened) = unbalanced_quote_before(text, error_line) {
            return unclosed(opened);
        }
        (
            "this line does not line up with the lines around it",
            "check the indentation of this line and the line before it: keys of one group start in the same column",
        )
    } else if message.contains("found character that cannot start any token") {
        (
            "this text starts with a character YAML reads as something else",
            "put this text in quotes",
        )
    } else {
        return (message.to_string(), None, at);
    };
    (plain.to_string(), Some(help.into()), at)
}

/// An unknown placeholder's place: serde_yaml points at the start of the text,
/// for a block (`|`) the line above it.
fn placeholder_position(
    message: &str,
    text: &str,
    at: Option<(usize, usize)>,
) -> Option<(usize, usize)> {
    let placeholder = quoted_name(message, "unknown placeholder `")?;
    let (line, column) = at?;
    text.lines()
        .enumerate()
        .skip(line.saturating_sub(1))
        .find_map(|(index, line_text)| {
            let from = if index + 1 == line {
                line_text
                    .char_indices()
                    .nth(column.saturating_sub(1))
                    .map_or(line_text.len(), |(i, _)| i)
            } else {
                0
            };
            let offset = from + line_text.get(from..)?.find(placeholder)?;
            Some((index + 1, line_text[..offset].chars().count() + 1))
        })
}

/// A line above `line` at its indent with text but no colon: a key missing its
/// colon, which the parser reads as text running on into `line`.
fn key_without_colon_above(text: &str, line: usize) -> Option<(usize, usize)> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let here = text.lines().nth(line.checked_sub(1)?)?;
    let (index, above) = text
        .lines()
        .enumerate()
        .take(line - 1)
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .last()?;
    let trimmed = above.trim_start();
    let looks_like_key = trimmed
        .split(' ')
        .next()
        .is_some_and(|word| word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    (indent(above) == indent(here)
        && looks_like_key
        && !trimmed.contains(':')
        && !trimmed.starts_with('-'))
    .then_some((index + 1, indent(above) + 1))
}

fn quoted_name<'a>(message: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = message.split_once(prefix)?.1;
    rest.split('`').next()
}

/// The position in a context such as "scanning a quoted scalar at line 11 column 8".
fn position_in(context: &str) -> Option<(usize, usize)> {
    let (_, position) = context.split_once(" at line ")?;
    let (line, column) = position.split_once(" column ")?;
    Some((line.parse().ok()?, column.trim().parse().ok()?))
}

/// The opening quote of a text running past its line, searched upwards: the
/// parser only notices at the next quote, often lines below.
fn unbalanced_quote_before(text: &str, line: usize) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.lines().take(line.saturating_sub(1)).collect();
    lines.iter().enumerate().rev().find_map(|(index, line)| {
        let quotes: Vec<usize> = line
            .char_indices()
            .filter(|&(i, c)| c == '"' && !line[..i].ends_with('\\'))
            .map(|(i, _)| line[..i].chars().count() + 1)
            .collect();
        let opening = *quotes.last()?;
        (quotes.len() % 2 == 1).then_some((index + 1, opening))
    })
}

/// "sequence" is a list, "map" a group of keys.
fn plain_found(found: &str) -> String {
    let found = found.split(" as ").next().unwrap_or(found);
    match found {
        "sequence" => "a list".into(),
        "map" => "a group of keys".into(),
        "unit value" => "nothing".into(),
        _ => match found.split_once(' ') {
            Some(("string", value)) => format!("the text {value}"),
            Some((_, value)) => value.trim_matches('`').to_string(),
            None => found.to_string(),
        },
    }
}

/// What serde expected, in plain words, with advice.
fn plain_expected(expected: &str) -> (String, String) {
    let (what, help): (&str, &str) = match expected {
        "a sequence" => (
            "a list",
            "write the items one per line below the key, each starting with `- `",
        ),
        "a string" | "text" => ("text", "write the text after the key, on the same line"),
        e if e.starts_with("struct ") || e == "a map" => (
            "a group of keys",
            "write `key: value` lines below this key, indented by two more spaces",
        ),
        "u8" | "u16" | "u32" | "u64" | "usize" => (
            "a whole number",
            "write a whole number of 0 or more, without quotes, for example 24",
        ),
        "f64" | "f32" => (
            "a number",
            "write a number with a decimal point, without quotes, for example 44.31",
        ),
        other => return (other.to_string(), format!("write {other} here")),
    };
    (what.to_string(), help.to_string())
}
