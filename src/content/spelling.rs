//! "Did you mean …?": the known name closest to a misspelt one.

/// The candidate closest in spelling to `word`, if one is close enough to be
/// what was meant: a typo or two away, or one of them a part of the other
/// (`evening_route` for `evening_route_start`, `telephone` for `phone`).
pub fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|candidate| {
            let part_of = |long: &str, short: &str| short.len() >= 4 && long.contains(short);
            let distance = if part_of(candidate, word) || part_of(word, candidate) {
                1
            } else {
                // A swap of two neighbouring letters counts as one edit.
                strsim::osa_distance(word, candidate)
            };
            (distance, *candidate)
        })
        .filter(|&(distance, candidate)| distance <= (candidate.len() / 3).max(1))
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_swaps_and_cut_words_are_close() {
        let keys = [
            "name",
            "city",
            "phone",
            "cancellation",
            "evening_route_start",
        ];
        assert_eq!(closest("citty", &keys), Some("city"));
        assert_eq!(closest("nmae", &keys), Some("name"));
        assert_eq!(closest("cancelation", &keys), Some("cancellation"));
        assert_eq!(closest("evening_route", &keys), Some("evening_route_start"));
        assert_eq!(closest("telephone", &keys), Some("phone"));
        assert_eq!(closest("subtitle", &keys), None);
        assert_eq!(closest("ci", &keys), None);
    }
}
