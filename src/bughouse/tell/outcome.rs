//! Who comes out of a mating line well, in a clause of partner talk: the
//! speaker (`i mate`, `hes dead`, `mate him`) or his opponent (`he mates`,
//! `im dead`, `q mates me`). The same piece is a need in the first case and
//! a ban in the second, so the subject decides the meaning.

use super::words::{is_first_person, is_mate, is_negation};

/// Words of losing a game: said of the speaker (`im dead`) they ask for a
/// ban, said of the opponent (`hes dead`) for a need.
fn is_loss(w: &str) -> bool {
    matches!(w, "dead" | "mated" | "lose" | "loses" | "lost" | "toast")
}

/// Words that name the partner's opponent as the one who acts: `he mates`,
/// `his q mates`, `opp has mate` (not `him`: `mate him` is the opponent
/// mated).
pub(super) fn is_opponent(w: &str) -> bool {
    matches!(
        w,
        "he" | "hes"
            | "she"
            | "shes"
            | "they"
            | "theyre"
            | "his"
            | "their"
            | "opp"
            | "opps"
            | "oppo"
            | "opponent"
            | "opponents"
            | "enemy"
    )
}

/// Who the first word of an outcome (mating, winning, losing) in the
/// unfiltered words `raw` is about: `Some(true)` when the speaker is the
/// one who loses (`im dead`, `he mates`, `it mates me`), `Some(false)`
/// when the opponent is (`i mate`, `hes mated`, `mate him`), `None`
/// without such a word.
pub(super) fn speaker_loses(raw: &[&str]) -> Option<bool> {
    let k = raw
        .iter()
        .position(|w| is_mate(w) || is_loss(w) || matches!(*w, "win" | "wins"))?;
    Some(speaker_loses_at(raw, k))
}

/// Does the outcome word `raw[k]` say the speaker loses? Its object when it
/// mates `me` or `him`; else its subject: the nearest `i` or word of the
/// opponent before it (none: the speaker).
fn speaker_loses_at(raw: &[&str], k: usize) -> bool {
    if is_mate(raw[k]) {
        match raw.get(k + 1) {
            Some(&"me") => return true,
            Some(&("him" | "her" | "them")) => return false,
            _ => {}
        }
    }
    let opponent_acts = raw[..k]
        .iter()
        .rev()
        .find_map(|w| {
            if is_opponent(w) {
                Some(true)
            } else {
                is_first_person(w).then_some(false)
            }
        })
        .unwrap_or(false);
    is_loss(raw[k]) != opponent_acts
}

/// The opponent mates (outside an `if`): its first word of mating or
/// winning is about the speaker losing (`he mates with q`, `his n mates`,
/// `my opp has mate with r`, `q mates me`, `his q wins`), and nothing is
/// negated.
pub(super) fn opponent_mates(raw: &[&str]) -> bool {
    !raw.iter().any(|w| is_negation(w))
        && raw
            .iter()
            .position(|w| is_mate(w) || matches!(*w, "win" | "wins"))
            .is_some_and(|k| speaker_loses_at(raw, k))
}
