//! Where the point of a photo is that must stay in view when a layout shows
//! only part of it.

use std::fmt;

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

use super::checked::{CheckedStr, deserialize_checked, invalid};
use crate::media::Focus;

/// A point of a photo: percentages of its width from the left and of its
/// height from the top, written as words (`top`, `bottom left`) or as
/// `50% 30%`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FocalPoint {
    pub x: u8,
    pub y: u8,
}

impl FocalPoint {
    pub fn focus(self) -> Focus {
        Focus {
            x: f64::from(self.x) / 100.0,
            y: f64::from(self.y) / 100.0,
        }
    }
}

const HELP: &str = "write where the part to keep in view is: a word or two such as `top`, `bottom left` or `center`, or how far across and how far down, such as `50% 30%`";

impl CheckedStr for FocalPoint {
    const EXPECTING: &'static str = "a point of the photo, such as `top` or `50% 30%`";
    fn check<E: de::Error>(value: &str) -> Result<Self, E> {
        let words: Vec<String> = value
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        let percents: Vec<Option<u32>> = words.iter().map(|word| percent(word)).collect();
        if let [Some(x), Some(y)] = percents[..] {
            return match (u8::try_from(x), u8::try_from(y)) {
                (Ok(x @ 0..=100), Ok(y @ 0..=100)) => Ok(FocalPoint { x, y }),
                _ => Err(invalid(
                    format!("\"{value}\" goes past the photo's edge"),
                    "each percentage is from 0% (left, top) to 100% (right, bottom)",
                )),
            };
        }
        if words.len() == 2 && words.iter().all(|word| word.parse::<u32>().is_ok()) {
            return Err(invalid(
                format!("\"{value}\" has numbers without %"),
                format!("write them as percentages: `{}% {}%`", words[0], words[1]),
            ));
        }
        let sides: Option<Vec<Side>> = words.iter().map(|word| side(word)).collect();
        let point = match sides.as_deref() {
            Some([one]) => one.alone(),
            Some([a, b]) => a.with(*b),
            _ => None,
        };
        point.ok_or_else(|| invalid(format!("\"{value}\" is not a point of the photo"), HELP))
    }
}

/// A word for a side of the photo, or its middle.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Side {
    Left,
    Right,
    Top,
    Bottom,
    Centre,
}

fn side(word: &str) -> Option<Side> {
    Some(match word {
        "left" => Side::Left,
        "right" => Side::Right,
        "top" => Side::Top,
        "bottom" => Side::Bottom,
        "center" | "centre" | "middle" => Side::Centre,
        _ => return None,
    })
}

impl Side {
    fn across(self) -> Option<u8> {
        match self {
            Side::Left => Some(0),
            Side::Right => Some(100),
            Side::Centre => Some(50),
            _ => None,
        }
    }

    fn down(self) -> Option<u8> {
        match self {
            Side::Top => Some(0),
            Side::Bottom => Some(100),
            Side::Centre => Some(50),
            _ => None,
        }
    }

    fn alone(self) -> Option<FocalPoint> {
        self.with(Side::Centre)
    }

    /// Two words in either order: one across, one down.
    fn with(self, other: Side) -> Option<FocalPoint> {
        let point = |x, y| Some(FocalPoint { x, y });
        match (self.across(), other.down(), other.across(), self.down()) {
            (Some(x), Some(y), _, _) | (_, _, Some(x), Some(y)) => point(x, y),
            _ => None,
        }
    }
}

fn percent(word: &str) -> Option<u32> {
    word.strip_suffix('%')?.parse().ok()
}

impl<'de> Deserialize<'de> for FocalPoint {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_checked(deserializer)
    }
}

impl fmt::Display for FocalPoint {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}% {}%", self.x, self.y)
    }
}

impl Serialize for FocalPoint {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(value: &str) -> Result<FocalPoint, String> {
        serde_yaml::from_str::<FocalPoint>(&format!("\"{value}\"")).map_err(|err| {
            let text = err.to_string();
            match super::super::take_failure(&text) {
                Some((message, help)) => format!("{message} | {help}"),
                None => text,
            }
        })
    }

    #[test]
    fn words_and_percentages_name_a_point() {
        let at = |x, y| Ok(FocalPoint { x, y });
        assert_eq!(read("top"), at(50, 0));
        assert_eq!(read("Bottom left"), at(0, 100));
        assert_eq!(read("left bottom"), at(0, 100));
        assert_eq!(read("center"), at(50, 50));
        assert_eq!(read("right"), at(100, 50));
        assert_eq!(read("30% 70%"), at(30, 70));
        assert_eq!(read("30% 70%").map(|p| p.to_string()), Ok("30% 70%".into()));
    }

    #[test]
    fn anything_else_says_how_to_write_it() {
        assert!(read("50 30").unwrap_err().contains("`50% 30%`"));
        assert!(
            read("120% 10%")
                .unwrap_err()
                .contains("past the photo's edge")
        );
        assert!(read("top bottom").unwrap_err().contains("not a point"));
        assert!(read("the truck").unwrap_err().contains("`bottom left`"));
        assert!(read("").unwrap_err().contains("not a point"));
    }
}
