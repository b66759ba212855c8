//! Prices.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};

use super::checked::invalid;
use crate::content::fill::no_placeholders;

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

no_placeholders!(Price);

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
}
