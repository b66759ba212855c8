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
                edit_distance(word, candidate)
            };
            (distance, *candidate)
        })
        .filter(|&(distance, candidate)| distance <= (candidate.len() / 3).max(1))
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, candidate)| candidate)
}

/// Edit distance between two words, counting a swap of two neighbouring
/// letters as one edit (optimal string alignment).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
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
