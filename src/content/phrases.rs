//! Where a mistake is, in the owner's words: the path `monthly.price`
//! becomes "the monthly plan's price", and `[0]` "the first question".

/// The phrase for the value at `parts` in the file named `file_name`.
pub fn phrase(parts: &[Part], file_name: &str) -> String {
    let mut nouns: Vec<String> = Vec::new();
    // The key just read, whose list an index that follows belongs to.
    let mut list_key: Option<&str> = None;
    for part in parts {
        match *part {
            Part::Key(key) => {
                nouns.push(key_noun(key));
                list_key = Some(key);
            }
            Part::Index(index) => {
                // "the service area's ZIP codes" + [1] = "the service area's second ZIP code".
                if list_key.is_some() {
                    nouns.pop();
                }
                let item = item_noun(list_key, file_name);
                nouns.push(format!("{} {item}", ordinal(index)));
                list_key = None;
            }
        }
    }
    let mut phrase = String::from("the");
    for (i, noun) in nouns.iter().enumerate() {
        if i > 0 {
            phrase = possessive(&phrase);
        }
        phrase.push(' ');
        phrase.push_str(noun);
    }
    phrase
}

/// One step of the way to a value: a key, or a position in a list.
pub enum Part<'a> {
    Key(&'a str),
    Index(usize),
}

/// "the monthly plan" + "price" = "the monthly plan's price".
fn possessive(owner: &str) -> String {
    if owner.ends_with('s') {
        format!("{owner}'")
    } else {
        format!("{owner}'s")
    }
}

/// What a key is called in a sentence. Keys not listed read as their words.
fn key_noun(key: &str) -> String {
    let named = match key {
        "monthly" => "monthly plan",
        "annual" => "annual plan",
        "hero" => "top section",
        "how_it_works" => "\"How it works\" section",
        "pricing" => "pricing section",
        "faq" => "questions section",
        "contact" => "sign-up section",
        "nav" => "menu links",
        "url" => "web address",
        "email" => "email address",
        "phone" => "phone number",
        "formspree_form_id" => "Formspree form id",
        "postal_code" => "ZIP code",
        "zip_codes" => "ZIP codes",
        "zip" => "ZIP code",
        "evening_route_start" => "evening route start time",
        "date_label" => "date label",
        other => return other.replace('_', " "),
    };
    named.to_string()
}

/// What one item of the list under `key` is called.
fn item_noun(key: Option<&str>, file_name: &str) -> &'static str {
    match key {
        None if file_name == "faq.yaml" => "question",
        Some("zip_codes") => "ZIP code",
        Some("features") => "feature",
        Some("steps") => "step",
        Some("opening_hours") => "set of opening hours",
        Some("days") => "day",
        _ => "entry",
    }
}

fn ordinal(index: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    match WORDS.get(index) {
        Some(word) => (*word).to_string(),
        None => {
            let n = index + 1;
            let suffix = match (n % 10, n % 100) {
                (_, 11..=13) => "th",
                (1, _) => "st",
                (2, _) => "nd",
                (3, _) => "rd",
                _ => "th",
            };
            format!("{n}{suffix}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Part, phrase};

    /// `a.b[2].c` as keys and indexes.
    fn parts(path: &str) -> Vec<Part<'_>> {
        let mut parts = Vec::new();
        for segment in path.split('.').filter(|s| !s.is_empty()) {
            let (key, indexes) = segment.split_once('[').unwrap_or((segment, ""));
            if !key.is_empty() {
                parts.push(Part::Key(key));
            }
            for index in indexes.split('[') {
                if let Some(index) = index.strip_suffix(']') {
                    parts.push(Part::Index(index.parse().unwrap()));
                }
            }
        }
        parts
    }

    #[test]
    fn paths_read_as_phrases() {
        let cases = [
            ("monthly.price", "plans.yaml", "the monthly plan's price"),
            ("annual", "plans.yaml", "the annual plan"),
            ("[0]", "faq.yaml", "the first question"),
            ("[2].answer", "faq.yaml", "the third question's answer"),
            (
                "service_area.zip_codes[1]",
                "business.yaml",
                "the service area's second ZIP code",
            ),
            (
                "schedule.holiday_notice_hours",
                "business.yaml",
                "the schedule's holiday notice hours",
            ),
            ("hero.button", "home.yaml", "the top section's button"),
            (
                "how_it_works.steps[11]",
                "home.yaml",
                "the \"How it works\" section's 12th step",
            ),
            (
                "contact.fields",
                "home.yaml",
                "the sign-up section's fields",
            ),
            (
                "opening_hours[0].days[1]",
                "business.yaml",
                "the first set of opening hours' second day",
            ),
        ];
        for (path, file, expected) in cases {
            assert_eq!(phrase(&parts(path), file), expected, "{path}");
        }
    }
}
