//! Clauses with a negation (`dont give q`, `no trades`, `dont move`,
//! `never give r, it mates me`): only the patterns here are read, so that a
//! negated clause is never read with the opposite meaning.

use super::reading::{Level, Reading};
use super::words::{is_mate, is_negation, mate_word, piece_list, pieces_of};

/// Words that bans and requests begin with after a negation.
fn is_giving(w: &str) -> bool {
    matches!(
        w,
        "give"
            | "giving"
            | "trade"
            | "trades"
            | "trading"
            | "lose"
            | "losing"
            | "sac"
            | "sack"
            | "sacrifice"
            | "feed"
            | "hang"
            | "let"
            | "allow"
            | "get"
            | "have"
            | "take"
            | "away"
    )
}

/// A clause with a negation: only the patterns below are read; any other
/// negated clause is not understood, so that it is never read with the
/// opposite meaning.
pub(super) fn read_negated(c: &[&str]) -> Option<Vec<Reading>> {
    let one = |r: Reading| Some(vec![r]);
    let neg = c[0];
    let rest = &c[1..];
    // "must not give q", "never give q": level 3; "avoid giving q": 1.
    let (neg, rest) = match (neg, rest) {
        ("must", [n, rest @ ..]) if is_negation(n) => ("never", rest),
        _ => (neg, rest),
    };
    if !is_negation(neg) {
        return match c {
            // "q doesnt mate": read_cancel has taken the rest.
            ["give", "nothing" | "none", ..] => one(Reading::TradesBad),
            ["give", "no", "pieces" | "piece" | "material" | "stuff"] => one(Reading::TradesBad),
            _ => None,
        };
    }
    let level = match neg {
        "never" => Level::Mates,
        "avoid" => Level::Like,
        _ => Level::Need,
    };
    let skip = rest.iter().take_while(|w| is_giving(w)).count();
    let giving = skip > 0;
    let after = match &rest[skip..] {
        // "dont give up your n": giving it up.
        ["up", more @ ..] if giving && more.first().is_some_and(|w| pieces_of(w).is_some()) => more,
        after => after,
    };
    match (neg, after) {
        ("dont" | "never" | "stop" | "no" | "not", ["move" | "moving" | "moves"]) if !giving => {
            one(Reading::Sit)
        }
        (
            "dont" | "stop" | "no",
            ["sit" | "sitting" | "stall" | "stalling" | "wait" | "waiting"],
        ) if !giving => one(Reading::Go),
        ("stop" | "wait", []) if !giving => one(Reading::Sit),
        ("dont", ["go"]) => one(Reading::Sit),
        ("dont" | "no", ["hurry" | "rush"]) if !giving => one(Reading::Slow),
        ("dont" | "didnt", ["understand" | "know" | "get", ..]) => one(Reading::Chat),
        ("no", ["problem" | "worries" | "prob"]) => one(Reading::Chat),
        ("not" | "no", ["dead"]) => one(Reading::Alive),
        (
            "dont" | "no" | "never" | "stop" | "avoid",
            []
            | ["anything" | "nothing" | "pieces" | "piece" | "stuff" | "material" | "trades" | "trade"
            | "trading"],
        ) if giving || matches!(after, ["trades" | "trade" | "trading"]) => one(Reading::TradesBad),
        ("dont" | "no" | "never" | "not" | "avoid", _) if giving || neg == "no" || neg == "not" => {
            let (kinds, end) = piece_list(after, 0)?;
            if !after[end..].iter().all(|w| is_mate(w) || *w == "me") {
                return None;
            }
            // "dont give q, mates me" and "dont give him q he mates": a
            // piece that is not to be given and mates is a level-3 ban.
            let level = match mate_word(&after[end..]) {
                Some(true) => Level::Mates,
                Some(false) if giving => Level::Mates,
                _ => level,
            };
            Some(kinds.into_iter().map(|k| Reading::Ban(k, level)).collect())
        }
        _ => None,
    }
}
