//! How a value that is written as a string checks itself while serde_yaml
//! reads it, and how its advice reaches the error.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};

thread_local! {
    /// The last failed check on this thread: its message and its help. serde
    /// carries only a message from a value to the parser's error.
    static LAST_FAILURE: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

pub(super) fn invalid<E: de::Error>(message: impl fmt::Display, help: impl fmt::Display) -> E {
    let message = message.to_string();
    LAST_FAILURE.with_borrow_mut(|last| *last = Some((message.clone(), help.to_string())));
    E::custom(message)
}

/// The message and help of the last failed check on this thread, if the
/// parser's `error` text ends with that message; forgets the check either way.
pub fn take_failure(error: &str) -> Option<(String, String)> {
    LAST_FAILURE
        .with_borrow_mut(Option::take)
        .filter(|(message, _)| error.ends_with(message.as_str()))
}

/// A value written as a string that checks itself.
pub(super) trait CheckedStr: Sized {
    /// What the value should be, for type errors ("expected ...").
    const EXPECTING: &'static str;
    fn check<E: de::Error>(value: &str) -> Result<Self, E>;
}

/// Checks inside the visitor: serde_yaml knows the value's position only while
/// reading it, so a later check would be reported at the enclosing mapping.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_goes_only_with_the_error_that_ends_with_its_message() {
        let _: serde_yaml::Error = invalid("not a date", "write it as 2025-09-01");
        assert_eq!(take_failure("another message"), None);
        assert_eq!(take_failure("not a date"), None, "forgotten once asked for");
        let _: serde_yaml::Error = invalid("not a date", "write it as 2025-09-01");
        assert_eq!(
            take_failure("closing: not a date"),
            Some(("not a date".into(), "write it as 2025-09-01".into()))
        );
    }
}
