//! How a value that is written as a string checks itself while serde_yaml
//! reads it, and how its message carries advice.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};

/// Separates a message from its help in errors raised by our own value types
/// (serde only carries a single string from them).
pub const HELP_MARK: &str = "\u{1}";

pub(super) fn invalid<E: de::Error>(message: impl fmt::Display, help: impl fmt::Display) -> E {
    E::custom(format!("{message}{HELP_MARK}{help}"))
}

/// A value written as a string that checks itself.
pub(super) trait CheckedStr: Sized {
    /// What the value should be, for type errors ("expected ...").
    const EXPECTING: &'static str;
    fn check<E: de::Error>(value: &str) -> Result<Self, E>;
}

/// Reads a [`CheckedStr`] and checks it inside the visitor: serde_yaml gives
/// an error the value's position only while it is reading that value, so a
/// check made after `String::deserialize` returns would be reported at the
/// start of the enclosing mapping instead.
pub(super) fn deserialize_checked<'de, D: Deserializer<'de>, T: CheckedStr>(
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
