//! Validated values. Each checks itself while the YAML is read, so serde_yaml
//! reports any mistake at the line and column of the value.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};

use super::placeholders::{self, Fill, Values, no_placeholders};
use super::yaml::HELP_MARK;

fn invalid<E: de::Error>(message: impl fmt::Display, help: impl fmt::Display) -> E {
    E::custom(format!("{message}{HELP_MARK}{help}"))
}

/// A value written as a string that checks itself.
trait CheckedStr: Sized {
    /// What the value should be, for type errors ("expected ...").
    const EXPECTING: &'static str;
    fn check<E: de::Error>(value: &str) -> Result<Self, E>;
}

/// Reads a [`CheckedStr`] and checks it inside the visitor: serde_yaml gives
/// an error the value's position only while it is reading that value, so a
/// check made after `String::deserialize` returns would be reported at the
/// start of the enclosing mapping instead.
fn deserialize_checked<'de, D: Deserializer<'de>, T: CheckedStr>(
    deserializer: D,
) -> Result<T, D::Error> {
    struct CheckedVisitor<T>(std::marker::PhantomData<T>);
    impl<T: CheckedStr> Visitor<'_> for CheckedVisitor<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(T::EXPECTING)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            T::check(v)
        }
    }
    deserializer.deserialize_str(CheckedVisitor(std::marker::PhantomData))
}

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

no_placeholders!(
    Price, Email, Phone, ZipCode, Date, TimeOfDay, SiteUrl, FormId, u32, bool
);

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

/// A price in whole US dollars, more than zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Price(pub u32);

impl<'de> Deserialize<'de> for Price {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PriceVisitor;
        const HELP: &str =
            "write the price as a whole number of dollars, without `$`, for example `price: 25`";
        impl Visitor<'_> for PriceVisitor {
            type Value = Price;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number of dollars")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Price, E> {
                if v <= 0 {
                    return Err(invalid(format!("must be more than $0, not {v}"), HELP));
                }
                self.visit_u64(v as u64)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Price, E> {
                match u32::try_from(v) {
                    Ok(0) => Err(invalid("must be more than $0", HELP)),
                    Ok(v) if v <= 1_000_000 => Ok(Price(v)),
                    _ => Err(invalid(
                        format!("must be at most $1,000,000, not ${v}"),
                        HELP,
                    )),
                }
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Price, E> {
                Err(invalid(format!("must be whole dollars, not {v}"), HELP))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Price, E> {
                Err(invalid(format!("must be a number, not \"{v}\""), HELP))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Price, E> {
                Err(invalid(format!("must be a number, not {v}"), HELP))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Price, E> {
                Err(invalid("is empty", HELP))
            }
        }
        deserializer.deserialize_any(PriceVisitor)
    }
}

impl fmt::Display for Price {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

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

/// A calendar date written `YYYY-MM-DD`, that exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Date(pub time::Date);

impl Date {
    /// "August 25, 2025".
    pub fn long(&self) -> String {
        let format =
            time::macros::format_description!("[month repr:long] [day padding:none], [year]");
        self.0.format(&format).unwrap_or_else(|_| self.iso())
    }

    pub fn iso(&self) -> String {
        let d = self.0;
        format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day())
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_checked(deserializer)
    }
}

impl CheckedStr for Date {
    const EXPECTING: &'static str = "a date";
    fn check<E: de::Error>(value: &str) -> Result<Self, E> {
        let format = time::macros::format_description!("[year]-[month]-[day]");
        if let Ok(date) = time::Date::parse(value, &format) {
            return Ok(Date(date));
        }
        if let Some(date) = date_written_otherwise(value) {
            return Err(invalid(
                format!("\"{value}\" is a date written another way"),
                format!(
                    "write it as {}: year, month and day, with dashes",
                    Date(date).iso()
                ),
            ));
        }
        let shaped = value.len() == 10
            && value.char_indices().all(|(i, c)| {
                if i == 4 || i == 7 {
                    c == '-'
                } else {
                    c.is_ascii_digit()
                }
            });
        if shaped {
            return Err(invalid(
                format!("\"{value}\" is not a day of the calendar"),
                "check the month and the day: write year-month-day, for example 2025-08-25",
            ));
        }
        Err(invalid(
            format!("\"{value}\" is not a date"),
            "write the date as year-month-day, for example 2025-08-25",
        ))
    }
}

/// A real date written month/day/year (as in the US, with `/`, `-` or `.`)
/// or in words ("August 25, 2025", "Aug 25 2025", "25 August 2025").
fn date_written_otherwise(value: &str) -> Option<time::Date> {
    let numbers: Vec<&str> = value.split(['/', '-', '.']).map(str::trim).collect();
    if let [month, day, year] = numbers[..] {
        let (month, day, year) = (
            month.parse::<u8>().ok()?,
            day.parse().ok()?,
            year.parse().ok()?,
        );
        let month = time::Month::try_from(month).ok()?;
        return time::Date::from_calendar_date(year, month, day).ok();
    }
    let words = value.replace(',', " ");
    let words: Vec<&str> = words.split_whitespace().collect();
    let (month, day, year) = match words[..] {
        [month, day, year] if month.starts_with(|c: char| c.is_alphabetic()) => (month, day, year),
        [day, month, year] => (month, day, year),
        _ => return None,
    };
    let month = month.to_ascii_lowercase();
    let month = (1..=12u8).find_map(|number| {
        let named = time::Month::try_from(number).ok()?;
        let name = named.to_string().to_ascii_lowercase();
        (month.len() >= 3 && name.starts_with(month.trim_end_matches('.'))).then_some(named)
    })?;
    time::Date::from_calendar_date(year.parse().ok()?, month, day.parse().ok()?).ok()
}

/// A time of day written `HH:MM` (24-hour); shown as "6 pm" or "6:30 pm".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeOfDay {
    pub hour: u8,
    pub minute: u8,
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = if self.hour < 12 { "am" } else { "pm" };
        let hour = match self.hour % 12 {
            0 => 12,
            h => h,
        };
        if self.minute == 0 {
            write!(f, "{hour} {suffix}")
        } else {
            write!(f, "{hour}:{:02} {suffix}", self.minute)
        }
    }
}

impl<'de> Deserialize<'de> for TimeOfDay {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_checked(deserializer)
    }
}

impl CheckedStr for TimeOfDay {
    const EXPECTING: &'static str = "a time of day";
    fn check<E: de::Error>(value: &str) -> Result<Self, E> {
        let parsed = value.split_once(':').and_then(|(h, m)| {
            let (hour, minute) = (h.parse::<u8>().ok()?, m.parse::<u8>().ok()?);
            (hour < 24 && minute < 60 && m.len() == 2).then_some(TimeOfDay { hour, minute })
        });
        parsed.ok_or_else(|| {
            invalid(
                format!("\"{value}\" is not a time of day"),
                "write 24-hour time in quotes, for example \"18:00\" for 6 pm",
            )
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse<T: serde::de::DeserializeOwned>(yaml: &str) -> Result<T, String> {
        serde_yaml::from_str::<T>(yaml).map_err(|e| e.to_string())
    }

    #[test]
    fn prices_are_positive_whole_dollars() {
        assert_eq!(parse::<Price>("25").unwrap(), Price(25));
        for bad in ["0", "-5", "25.5", "twenty", "\"25\"", "~"] {
            assert!(parse::<Price>(bad).is_err(), "{bad} accepted");
        }
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

    #[test]
    fn dates_must_exist() {
        assert_eq!(
            parse::<Date>("2025-08-25").unwrap().long(),
            "August 25, 2025"
        );
        assert!(parse::<Date>("2025-02-30").is_err());
        assert!(parse::<Date>("2024-02-29").is_ok());
        assert!(parse::<Date>("08/25/2025").is_err());
    }

    #[test]
    fn dates_written_another_way_are_told_how_to_write_them() {
        for (written, iso) in [
            ("9/1/2025", "2025-09-01"),
            ("09-01-2025", "2025-09-01"),
            ("\"September 1, 2025\"", "2025-09-01"),
            ("Sep 1 2025", "2025-09-01"),
            ("1 September 2025", "2025-09-01"),
        ] {
            let err = parse::<Date>(written).unwrap_err();
            assert!(
                err.contains("a date written another way"),
                "{written}: {err}"
            );
            assert!(
                err.contains(&format!("write it as {iso}")),
                "{written}: {err}"
            );
        }
        let err = parse::<Date>("2025-02-30").unwrap_err();
        assert!(err.contains("not a day of the calendar"), "{err}");
        let err = parse::<Date>("soon").unwrap_err();
        assert!(err.contains("\"soon\" is not a date"), "{err}");
    }

    #[test]
    fn times_of_day_read_naturally() {
        assert_eq!(parse::<TimeOfDay>("\"18:00\"").unwrap().to_string(), "6 pm");
        assert_eq!(
            parse::<TimeOfDay>("\"00:30\"").unwrap().to_string(),
            "12:30 am"
        );
        assert!(parse::<TimeOfDay>("\"25:00\"").is_err());
        assert!(parse::<TimeOfDay>("\"6 pm\"").is_err());
    }

    #[test]
    fn text_rejects_empty_and_unknown_placeholders() {
        assert!(parse::<Text>("\"hi {phone}\"").is_ok());
        assert!(parse::<Text>("\"  \"").is_err());
        let err = parse::<Text>("\"hi {phnoe}\"").unwrap_err();
        assert!(err.contains("unknown placeholder `{phnoe}`"), "{err}");
    }
}

/// JSON Schemas of the values, for editors: the same rules as the checks
/// above, as far as a schema can say them (a date's day of the month, or a
/// phone number's area code, are left to the build).
mod schemas {
    use std::borrow::Cow;

    use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

    use super::{Date, Email, FormId, Phone, Price, SiteUrl, Text, TimeOfDay, ZipCode};

    macro_rules! string_schema {
        ($($ty:ident: $description:literal, $pattern:literal;)*) => {$(
            impl JsonSchema for $ty {
                fn inline_schema() -> bool {
                    true
                }
                fn schema_name() -> Cow<'static, str> {
                    stringify!($ty).into()
                }
                fn json_schema(_: &mut SchemaGenerator) -> Schema {
                    json_schema!({
                        "type": "string",
                        "description": $description,
                        "pattern": $pattern,
                    })
                }
            }
        )*};
    }

    string_schema! {
        Text: "Text; not empty. May use {placeholders}.", "\\S";
        Email: "An email address, like hello@example.com.", "^[^@\\s<>\"]+@[^@\\s.<>\"]+(\\.[^@\\s.<>\"]+)+$";
        Phone: "A US phone number with its area code, like \"(605) 555-0142\".", "^[ ()+.-]*(1[ ()+.-]*)?([0-9][ ()+.-]*){10}$";
        Date: "A date written year-month-day, like 2025-08-25.", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
        TimeOfDay: "A 24-hour time of day in quotes, like \"18:00\" for 6 pm.", "^([01]?[0-9]|2[0-3]):[0-5][0-9]$";
        SiteUrl: "The full address the site is published at, like https://www.example.com.", "^https?://[^\\s?#\"<>]+$";
        FormId: "The letters and digits after /f/ in the form's address at Formspree.", "^[A-Za-z0-9]{1,64}$";
    }

    impl JsonSchema for Price {
        fn inline_schema() -> bool {
            true
        }
        fn schema_name() -> Cow<'static, str> {
            "Price".into()
        }
        fn json_schema(_: &mut SchemaGenerator) -> Schema {
            json_schema!({
                "type": "integer",
                "description": "A price in whole US dollars, without $.",
                "minimum": 1,
                "maximum": 1_000_000,
            })
        }
    }

    impl JsonSchema for ZipCode {
        fn inline_schema() -> bool {
            true
        }
        fn schema_name() -> Cow<'static, str> {
            "ZipCode".into()
        }
        fn json_schema(_: &mut SchemaGenerator) -> Schema {
            json_schema!({
                "description": "A five-digit ZIP code, best in quotes: \"57006\".",
                "anyOf": [
                    { "type": "string", "pattern": "^[0-9]{5}$" },
                    { "type": "integer", "minimum": 10000, "maximum": 99999 },
                ],
            })
        }
    }
}
