//! Text a visitor reads.

use std::fmt;

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use super::checked::{CheckedStr, deserialize_checked, invalid};
use crate::content::fill::{Fill, Values};
use crate::content::placeholders;

/// Text a visitor reads. Not empty; `{placeholders}` must be known ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Text(String);

impl Text {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Fill for Text {
    fn fill(&mut self, values: &Values) {
        self.0 = values.fill(&self.0);
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_checked(deserializer)
    }
}

impl CheckedStr for Text {
    const EXPECTING: &'static str = "text";
    fn check<E: de::Error>(text: &str) -> Result<Self, E> {
        if text.trim().is_empty() {
            return Err(invalid(
                "is empty",
                "write the text, or put it in quotes if it starts with a special character",
            ));
        }
        if let Some((_, name)) = placeholders::first_unknown(text) {
            let (message, help) = placeholders::unknown_message(name);
            return Err(invalid(message, help));
        }
        Ok(Text(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse<T: serde::de::DeserializeOwned>(yaml: &str) -> Result<T, String> {
        serde_yaml::from_str::<T>(yaml).map_err(|e| e.to_string())
    }

    #[test]
    fn text_rejects_empty_and_unknown_placeholders() {
        assert!(parse::<Text>("\"hi {phone}\"").is_ok());
        assert!(parse::<Text>("\"  \"").is_err());
        let err = parse::<Text>("\"hi {phnoe}\"").unwrap_err();
        assert!(err.contains("unknown placeholder `{phnoe}`"), "{err}");
    }
}
