//! Dates and times of day.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer};

use super::checked::{CheckedStr, deserialize_checked, invalid};
use crate::content::fill::no_placeholders;

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

no_placeholders!(Date, TimeOfDay);

#[cfg(test)]
mod tests {
    use super::*;

    /// The value, or the message and help an owner would read.
    fn parse<T: serde::de::DeserializeOwned>(yaml: &str) -> Result<T, String> {
        crate::content::yaml::parse::<T>(yaml, std::path::Path::new("f.yaml"), 0)
            .map_err(|d| format!("{} ({})", d.message, d.help.as_deref().unwrap_or_default()))
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
}
