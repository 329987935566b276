//! The partner's word on his clock against his opponent's (`up 20`, `down
//! 1 min`, `low on time`): the diagonal clock that decides whether a sit
//! can be afforded.

use super::reading::Reading;

/// The speaker's clock against his opponent's: `up`, `(i'm) up 20`, `down
/// 5 secs`, `ahead on time`, `behind on the clock`, `up 1 min`, `low on
/// time`, `lots of time`. Anything else after it (a piece, a verb) makes it
/// something else.
pub(super) fn read_clock_lead(c: &[&str]) -> Option<Reading> {
    let clock = |w: &&str| matches!(*w, "time" | "clock" | "timewise" | "in");
    let (ahead, rest) = match c {
        [w, rest @ ..] if matches!(*w, "up" | "ahead") => (true, rest),
        [w, rest @ ..] if matches!(*w, "down" | "behind") => (false, rest),
        ["low" | "short" | "losing", rest @ ..] if !rest.is_empty() && rest.iter().all(clock) => {
            return Some(Reading::Down(None));
        }
        ["lots" | "plenty" | "lot", rest @ ..] if !rest.is_empty() && rest.iter().all(clock) => {
            return Some(Reading::Up(None));
        }
        _ => return None,
    };
    let (amount, rest) = match rest {
        [n, after @ ..] => match seconds(n, after.first().copied()) {
            Some((secs, unit_word)) => (Some(secs * 100), &after[usize::from(unit_word)..]),
            None => (None, rest),
        },
        [] => (None, rest),
    };
    if !rest.iter().all(clock) {
        return None;
    }
    Some(if ahead {
        Reading::Up(amount)
    } else {
        Reading::Down(amount)
    })
}

/// An amount of time in seconds written as `20`, `20s`, `20 secs`, `1 min`
/// or `2m` (`next`: the word after the number); the flag says whether the
/// unit was that next word.
fn seconds(word: &str, next: Option<&str>) -> Option<(u64, bool)> {
    let unit_of = |u: &str| match u {
        "s" | "sec" | "secs" | "second" | "seconds" => Some(1),
        "m" | "min" | "mins" | "minute" | "minutes" => Some(60),
        _ => None,
    };
    let digits = word
        .find(|ch: char| !ch.is_ascii_digit())
        .unwrap_or(word.len());
    // Anything longer than a day is not a clock lead.
    let n: u64 = word[..digits].parse().ok().filter(|&n| n <= 86_400)?;
    let suffix = &word[digits..];
    if !suffix.is_empty() {
        return Some((n * unit_of(suffix)?, false));
    }
    Some(match next.and_then(unit_of) {
        Some(unit) => (n * unit, true),
        None => (n, false),
    })
}
