//! Islands placed in pages: `{{ islands.<name> }}` or `island("<name>", prop=…,
//! hydrate=…)` in a layout, a fenced `island` block in Markdown; each may
//! override props and its moment. While pages render, a placement is checked
//! against the island's props (a mistake is reported where it is written) and
//! stands as a marker. Once Node has rendered it, it gets an id of its own on
//! its page (`<name>`, `<name>_2`…), from which its props' element and React's
//! `identifierPrefix` come.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::markers::{self, marker};
use crate::content::{Site, spelling};
use crate::diagnostics::{Diagnostic, Result};
use crate::islands::Island;
use crate::islands::props::FormEndpoint;

const MARKER_PREFIX: &str = "island:";

pub const HYDRATE: &str = "hydrate";

#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub name: String,
    pub props: Value,
    /// `None` keeps the island file's moment.
    pub hydrate: Option<String>,
}

pub struct Catalog {
    base: BTreeMap<String, (Island, Value)>,
}

impl Catalog {
    pub fn new(islands: &[Island], site: &Site, endpoint: &FormEndpoint) -> Result<Catalog> {
        let base = islands
            .iter()
            .map(|island| {
                let props = island.props(site, endpoint)?;
                Ok((island.name.clone(), (island.clone(), props)))
            })
            .collect::<Result<_>>()?;
        Ok(Catalog { base })
    }

    /// The island `name` with `given` props over its content's, and its moment;
    /// a mistake has no place yet (`Mistake` says which part, for the caller to locate).
    pub fn placement(
        &self,
        name: &str,
        given: &[(String, Value)],
        hydrate: Option<&str>,
    ) -> std::result::Result<Placed, (Mistake, Diagnostic)> {
        let Some((island, base)) = self.base.get(name) else {
            let known: Vec<&str> = self.base.keys().map(String::as_str).collect();
            let help = match spelling::closest(name, &known) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!(
                    "the islands are the files of frontend/src/islands/: {}",
                    known.join(", ")
                ),
            };
            return Err((
                Mistake::Island,
                Diagnostic::new(format!("there is no island `{name}`")).help(help),
            ));
        };
        let mut props = base.clone();
        for (index, (key, value)) in given.iter().enumerate() {
            let Some(fields) = props.as_object_mut() else {
                break;
            };
            let Some(was) = fields.get(key) else {
                let known: Vec<&str> = base
                    .as_object()
                    .map(|fields| fields.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                let help = match spelling::closest(key, &known) {
                    Some(near) => format!("did you mean `{near}`?"),
                    None if known.is_empty() => format!(
                        "the island `{name}` takes no props; `{HYDRATE}` (visible, idle or media:(<query>)) is the only setting it has"
                    ),
                    None => format!(
                        "its props are {}, and `{HYDRATE}` says when it wakes",
                        known.join(", ")
                    ),
                };
                return Err((
                    Mistake::Key(index),
                    Diagnostic::new(format!("the island `{name}` has no prop `{key}`")).help(help),
                ));
            };
            if !same_kind(was, value) {
                return Err((
                    Mistake::Value(index),
                    Diagnostic::new(format!(
                        "the prop `{key}` of the island `{name}` is {}, not {}",
                        kind(was, true),
                        kind(value, false)
                    ))
                    .help(format!("give `{key}` {}", kind(was, true))),
                ));
            }
            fields.insert(key.clone(), value.clone());
            if let Err(why) = island.check(&props) {
                return Err((
                    Mistake::Value(index),
                    Diagnostic::new(format!(
                        "the prop `{key}` of the island `{name}` cannot be {value}: {why}"
                    ))
                    .help(format!("give `{key}` one of the values the message names")),
                ));
            }
        }
        if let Some(moment) = hydrate
            && !is_moment(moment)
        {
            return Err((
                Mistake::Hydrate,
                Diagnostic::new(format!("`{moment}` is not a moment to hydrate")).help(
                    "write `visible` (when it scrolls near), `idle` (once the page is idle) or `media:(<query>)`, such as `media:(max-width: 47.99rem)`",
                ),
            ));
        }
        Ok(Placed {
            name: name.to_string(),
            props,
            hydrate: hydrate.map(str::to_string),
        })
    }

    /// The island as its content gives it.
    pub fn as_it_is(&self, name: &str) -> Option<Placed> {
        self.base.get(name).map(|(_, props)| Placed {
            name: name.to_string(),
            props: props.clone(),
            hydrate: None,
        })
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.base.keys().map(String::as_str)
    }
}

/// Which part of a placement a mistake is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mistake {
    Island,
    Key(usize),
    Value(usize),
    Hydrate,
}

/// A moment the runtime knows; nothing that could leave its attribute.
fn is_moment(moment: &str) -> bool {
    let media = moment
        .strip_prefix("media:(")
        .and_then(|query| query.strip_suffix(')'))
        .is_some_and(|query| !query.trim().is_empty());
    (moment == "visible" || moment == "idle" || media)
        && !moment.contains(['"', '<', '>', '&', '\''])
}

/// Whether `value` may replace `was`: the same kind of JSON, or anything for an
/// absent optional prop (the struct checks it).
fn same_kind(was: &Value, value: &Value) -> bool {
    use Value::*;
    matches!(
        (was, value),
        (Null, _)
            | (Bool(_), Bool(_))
            | (Number(_), Number(_))
            | (String(_), String(_))
            | (Array(_), Array(_))
            | (Object(_), Object(_))
    )
}

fn kind(value: &Value, wanted: bool) -> &'static str {
    match value {
        Value::Null if wanted => "optional",
        Value::Null => "nothing",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "a group of values",
    }
}

/// Every placement the pages made, by marker name, shared across cores.
#[derive(Default)]
pub struct Placements {
    by_marker: Mutex<HashMap<String, Arc<Placed>>>,
}

impl Placements {
    /// The marker standing for `placed`; the same placement twice is one entry.
    pub fn marker(&self, placed: Placed) -> Result<String> {
        let json = serde_json::to_vec(&(&placed.name, &placed.props, &placed.hydrate))
            .map_err(|err| Diagnostic::new("could not write an island's props").caused_by(err))?;
        let digest = digest(&[&json]);
        let name = format!("{MARKER_PREFIX}{}", &digest[..24]);
        let mut by_marker = self
            .by_marker
            .lock()
            .map_err(|_| Diagnostic::new("the islands' placements were lost"))?;
        by_marker
            .entry(name.clone())
            .or_insert_with(|| Arc::new(placed));
        Ok(marker(&name))
    }

    fn get(&self, marker_name: &str) -> Option<Arc<Placed>> {
        self.by_marker.lock().ok()?.get(marker_name).cloned()
    }

    pub fn in_page(&self, html: &str) -> Vec<OnPage> {
        let mut seen: HashMap<String, usize> = HashMap::new();
        markers::names(html)
            .into_iter()
            .filter(|name| name.starts_with(MARKER_PREFIX))
            .filter_map(|name| {
                let placed = self.get(name)?;
                let count = seen.entry(placed.name.clone()).or_insert(0);
                *count += 1;
                // Island names hold no `_`, so no id repeats another.
                let id = match *count {
                    1 => placed.name.clone(),
                    n => format!("{}_{n}", placed.name),
                };
                Some(OnPage {
                    marker: name.to_string(),
                    placed,
                    id,
                })
            })
            .collect()
    }
}

#[derive(Debug, Clone)]
pub struct OnPage {
    pub marker: String,
    pub placed: Arc<Placed>,
    /// Unique on the page: `props-<id>`, and React's prefix `<id>-`.
    pub id: String,
}

impl OnPage {
    pub fn prefix(&self) -> String {
        format!("{}-", self.id)
    }

    /// Node's render key: the same island, props and prefix render the same HTML.
    pub fn render_key(&self) -> Result<String> {
        render_key(&self.placed.name, &self.placed.props, &self.prefix())
    }
}

pub fn render_key(name: &str, props: &Value, prefix: &str) -> Result<String> {
    let json = serde_json::to_vec(props)
        .map_err(|err| Diagnostic::new("could not write an island's props").caused_by(err))?;
    Ok(digest(&[name.as_bytes(), &json, prefix.as_bytes()]))
}

/// SHA-256 of `parts`, lengths first so no two lists hash alike.
fn digest(parts: &[&[u8]]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    crate::text::hex(&hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_are_those_the_runtime_knows() {
        for good in ["visible", "idle", "media:(max-width: 40rem)"] {
            assert!(is_moment(good), "{good}");
        }
        for bad in ["", "soon", "media:()", "media:(x\" onload=\"y)", "Visible"] {
            assert!(!is_moment(bad), "{bad}");
        }
    }
}
