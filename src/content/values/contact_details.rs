//! Where the business is reached: email, phone, ZIP codes, the site's
//! address and its form.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};

use super::checked::{CheckedStr, deserialize_checked, invalid};
use crate::content::fill::no_placeholders;

/// An email address: one `@`, something before it, a dotted domain after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Email(String);

impl Email {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Email {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_checked(deserializer)
    }
}

impl CheckedStr for Email {
    const EXPECTING: &'static str = "an email address";
    fn check<E: de::Error>(value: &str) -> Result<Self, E> {
        if is_email(value) {
            Ok(Email(value.to_string()))
        } else {
            Err(invalid(
                format!("\"{value}\" is not an email address"),
                "write an address like `hello@example.com`",
            ))
        }
    }
}

/// Whether `value` is shaped like an email address. The form's own check is
/// the browser's; this one guards the content and the local form stand-in.
pub fn is_email(value: &str) -> bool {
    let Some((local, domain)) = value.split_once('@') else {
        return false;
    };
    let labels: Vec<&str> = domain.split('.').collect();
    !local.is_empty()
        && !value
            .chars()
            .any(|c| c.is_whitespace() || c == '<' || c == '>' || c == '"')
        && labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty() && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        })
}

/// A US phone number as people write it; `tel` is its dialable form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Phone {
    pub display: String,
    pub tel: String,
}

impl<'de> Deserialize<'de> for Phone {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_checked(deserializer)
    }
}

impl CheckedStr for Phone {
    const EXPECTING: &'static str = "a phone number";
    fn check<E: de::Error>(display: &str) -> Result<Self, E> {
        let allowed = display
            .chars()
            .all(|c| c.is_ascii_digit() || " ()-.+".contains(c));
        let digits: String = display.chars().filter(char::is_ascii_digit).collect();
        let national = match digits.len() {
            10 => Some(digits.as_str()),
            11 if digits.starts_with('1') => Some(&digits[1..]),
            _ => None,
        };
        match national {
            Some(national) if allowed => Ok(Phone {
                tel: format!("+1{national}"),
                display: display.to_string(),
            }),
            _ => Err(invalid(
                format!("\"{display}\" is not a US phone number"),
                "write ten digits with the area code, for example \"(605) 555-0142\" (in quotes)",
            )),
        }
    }
}

/// A five-digit US ZIP code. A bare number is accepted too.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct ZipCode(String);

impl ZipCode {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for ZipCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ZipVisitor;
        const HELP: &str = "write five digits in quotes, for example \"57006\"";
        impl Visitor<'_> for ZipVisitor {
            type Value = ZipCode;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a five-digit ZIP code")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ZipCode, E> {
                if (10_000..=99_999).contains(&v) {
                    Ok(ZipCode(v.to_string()))
                } else {
                    Err(invalid(format!("{v} is not a five-digit ZIP code"), HELP))
                }
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ZipCode, E> {
                Err(invalid(format!("{v} is not a five-digit ZIP code"), HELP))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ZipCode, E> {
                Err(invalid(format!("{v} is not a five-digit ZIP code"), HELP))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ZipCode, E> {
                if v.len() == 5 && v.chars().all(|c| c.is_ascii_digit()) {
                    Ok(ZipCode(v.to_string()))
                } else {
                    Err(invalid(
                        format!("\"{v}\" is not a five-digit ZIP code"),
                        HELP,
                    ))
                }
            }
        }
        deserializer.deserialize_any(ZipVisitor)
    }
}

/// The address the site is published at, without a trailing slash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct SiteUrl(String);

impl SiteUrl {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for SiteUrl {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_checked(deserializer)
    }
}

impl CheckedStr for SiteUrl {
    const EXPECTING: &'static str = "a web address";
    fn check<E: de::Error>(value: &str) -> Result<Self, E> {
        let host = value
            .strip_prefix("https://")
            .or_else(|| value.strip_prefix("http://"));
        match host {
            Some(host)
                if !host.is_empty()
                    && !host.contains(|c: char| c.is_whitespace() || "?#\"<>".contains(c)) =>
            {
                Ok(SiteUrl(value.trim_end_matches('/').to_string()))
            }
            _ => Err(invalid(
                format!("\"{value}\" is not a web address"),
                "write the full address the site is published at, for example https://www.example.com",
            )),
        }
    }
}

/// A Formspree form id: the last part of `https://formspree.io/f/<id>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct FormId(String);

impl FormId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for FormId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_checked(deserializer)
    }
}

impl CheckedStr for FormId {
    const EXPECTING: &'static str = "a Formspree form id";
    fn check<E: de::Error>(value: &str) -> Result<Self, E> {
        if !value.is_empty()
            && value.len() <= 64
            && value.chars().all(|c| c.is_ascii_alphanumeric())
        {
            Ok(FormId(value.to_string()))
        } else {
            Err(invalid(
                format!("\"{value}\" is not a Formspree form id"),
                "copy the letters and digits after /f/ in your form's address at Formspree, for example `xyzzabcd`",
            ))
        }
    }
}

no_placeholders!(Email, Phone, ZipCode, SiteUrl, FormId);

#[cfg(test)]
mod tests {
    use super::*;

    fn parse<T: serde::de::DeserializeOwned>(yaml: &str) -> Result<T, String> {
        serde_yaml::from_str::<T>(yaml).map_err(|e| e.to_string())
    }

    #[test]
    fn emails_phones_and_zips_are_checked() {
        assert!(parse::<Email>("a@b.co").is_ok());
        for bad in ["a@b", "@b.co", "a b@c.co", "a@b..co", "plain"] {
            assert!(parse::<Email>(bad).is_err(), "{bad} accepted");
        }
        let phone = parse::<Phone>("\"(605) 555-0142\"").unwrap();
        assert_eq!(phone.tel, "+16055550142");
        assert!(parse::<Phone>("\"555-0142\"").is_err());
        assert!(parse::<Phone>("\"call me\"").is_err());
        assert_eq!(parse::<ZipCode>("\"05001\"").unwrap().as_str(), "05001");
        assert_eq!(parse::<ZipCode>("57006").unwrap().as_str(), "57006");
        for bad in ["\"5700\"", "\"57a06\"", "570066", "\"57006-1234\""] {
            assert!(parse::<ZipCode>(bad).is_err(), "{bad} accepted");
        }
    }
}
