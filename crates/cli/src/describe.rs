//! Settings in a few words, for the first line of a run's report.

use ai2048_engine::Rules;

/// The rules, in a few words: `2 start tiles, p(4) 0.1, illegal moves refused`.
pub(crate) fn describe_rules(r: Rules) -> String {
    format!(
        "{} start tiles, p(4) {}, illegal moves {}",
        r.start_tiles,
        r.four_probability,
        if r.illegal_move_spawns {
            "spawn"
        } else {
            "refused"
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_in_a_few_words() {
        assert_eq!(
            describe_rules(Rules::default()),
            "2 start tiles, p(4) 0.1, illegal moves refused"
        );
    }
}
