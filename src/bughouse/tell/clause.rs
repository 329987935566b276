//! The grammar of one clause of partner talk. Each `read_*` function
//! returns `None` when its pattern does not apply; [`read_clause`] tries
//! them in an order in which the more specific comes first (`never mind`
//! before `never give`, `q mates me` before `q`). A clause no pattern
//! covers is not understood (`None`).

use super::clock::read_clock_lead;
use super::negated::read_negated;
use super::outcome::{is_opponent, opponent_mates, speaker_loses};
use super::reading::{Level, Reading};
use super::words::{
    drops_as_pieces, is_chat, is_filler, is_first_person, is_mate, is_negation, is_strong_chat,
    mate_word, piece_list, pieces_of, uci_move,
};
use crate::types::PieceType;

type Readings = Option<Vec<Reading>>;

/// Reads one clause (its words, in lower case, without punctuation);
/// `question`: it ended with `?`.
pub(super) fn read_clause(raw: &[String], question: bool) -> Readings {
    let raw = drops_as_pieces(merge_subject(raw));
    let raw: Vec<&str> = raw.iter().map(String::as_str).collect();
    if raw.is_empty() {
        return Some(vec![Reading::Chat]);
    }
    // Telling how to talk ("tell me 'go' to move", "ask it 'help'") asks
    // for nothing now.
    if raw
        .windows(2)
        .any(|w| matches!(w[0], "tell" | "ptell" | "ask") && matches!(w[1], "me" | "it"))
    {
        return Some(vec![Reading::Chat]);
    }
    if is_small_talk(&raw) {
        return Some(vec![Reading::Chat]);
    }
    // Leading thanks, greetings and the like are dropped ("ok go", "hi, sit").
    let start = raw
        .iter()
        .position(|w| !is_strong_chat(w) || *w == "no")
        .unwrap_or(raw.len());
    let raw = &raw[start..];
    if raw.first() == Some(&"if") {
        return read_if(&raw[1..]);
    }
    if let Some(found) = read_outcome_then_if(raw) {
        return Some(found);
    }
    // A subordinate part adds nothing to the request: "sit until i say go".
    let end = raw
        .iter()
        .skip(1)
        .position(|w| is_subordinate(w))
        .map_or(raw.len(), |i| i + 1);
    let raw = &raw[..end];
    if opponent_mates(raw) {
        match piece_list_in(raw) {
            // "he mates with q", "his n mates", "opp has mate with r": the
            // piece mates the speaker, as in "q mates me".
            Some(kinds) => {
                return Some(
                    kinds
                        .into_iter()
                        .map(|k| Reading::Ban(k, Level::Mates))
                        .collect(),
                )
            }
            // "hes mating me", "he mates me": the speaker is lost.
            None if is_only_mating_me(raw) => return Some(vec![Reading::Dead]),
            None => {}
        }
    }
    // "he needs n", "he is low on time": said of the partner's opponent.
    let opponent = opponent_is_subject(raw);
    let subject = !opponent && raw.first().is_some_and(|w| is_first_person(w));
    let words: Vec<&str> = raw
        .iter()
        .skip(usize::from(subject))
        .copied()
        .filter(|w| !is_filler(w) && !matches!(*w, "forcedly" | "getting" | "being"))
        .filter(|w| !(opponent && is_opponent(w)))
        .collect();
    let found = read_words(&words, subject)?;
    let found: Vec<Reading> = if opponent {
        found.into_iter().map(said_of_opponent).collect()
    } else {
        found
    };
    if question
        && !found.iter().all(|r| {
            matches!(
                r,
                Reading::Sit | Reading::Go | Reading::Fast | Reading::Slow | Reading::Help
            )
        })
    {
        // "need n?", "dead?": a question, not a request.
        return None;
    }
    Some(found)
}

/// The clause is about the partner's opponent: its first words are filler
/// and an opponent as the subject (`he`, `hes`, `my opp`, `they`).
fn opponent_is_subject(raw: &[&str]) -> bool {
    // Not a possessive: "his n" may be "take his n".
    let subject = |w: &str| is_opponent(w) && !matches!(w, "his" | "their" | "opps");
    raw.iter()
        .take_while(|w| is_filler(w) || is_opponent(w))
        .any(|w| subject(w))
}

/// A reading of a clause said of the partner's opponent: what he needs is
/// a ban (`he needs n`), his clock lead is the partner's opposite one (`he
/// is low on time` is up), his board frozen is no piece coming (`he is
/// sitting`); anything else (`he is dead`, `he is fast`) is not a request
/// of the partner's and is not understood.
fn said_of_opponent(r: Reading) -> Reading {
    match r {
        Reading::Need(k, level) => Reading::Ban(k, level),
        Reading::Up(cs) => Reading::Down(cs),
        Reading::Down(cs) => Reading::Up(cs),
        Reading::Unavailable | Reading::Chat => r,
        _ => Reading::Unknown,
    }
}

/// Only the opponent mating the speaker (`hes mating me`, `he is going to
/// mate me`), with no piece and nothing else.
fn is_only_mating_me(raw: &[&str]) -> bool {
    raw.iter().all(|w| {
        is_mate(w)
            || is_opponent(w)
            || matches!(
                *w,
                "me" | "is" | "going" | "gonna" | "to" | "will" | "about"
            )
    })
}

/// "i am", "i m" and "iam" as one word `im`; "i will" as `ill` (I'll).
fn merge_subject(raw: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in raw {
        let merged = match (out.last().map(String::as_str), w.as_str()) {
            (Some("i"), "am" | "m") => Some("im"),
            (Some("i"), "will") => Some("ill"),
            (Some("i"), "would") => Some("i"),
            _ => None,
        };
        match merged {
            Some(m) => *out.last_mut().unwrap_or(&mut String::new()) = m.to_string(),
            None if w == "iam" => out.push("im".to_string()),
            // "i'd like" without its apostrophe.
            None if w == "id" => out.push("i".to_string()),
            None => out.push(w.clone()),
        }
    }
    out
}

/// Talk that asks for nothing: chat words only (`gg`, `nice move`, `my
/// bad`), or thanks for something (`thanks for the n`).
fn is_small_talk(raw: &[&str]) -> bool {
    let all_chat = raw.iter().all(|w| is_chat(w)) && raw.iter().any(|w| is_strong_chat(w));
    let thanks = matches!(raw[0], "thanks" | "thank" | "thx" | "ty" | "tyvm")
        && raw.get(1).is_none_or(|w| matches!(*w, "for" | "you" | "u"));
    let greeting = matches!(raw[0], "gg" | "glhf" | "greetings" | "welcome")
        || matches!(
            raw,
            ["my", "bad"]
                | ["well", "played"]
                | ["careful" | "beware"]
                | ["be", "careful"]
                | ["watch", "out"]
                | ["gotcha"]
                | ["got", "it"]
        );
    all_chat || thanks || greeting
}

/// Words after which the rest of a clause is a subordinate part.
fn is_subordinate(w: &str) -> bool {
    matches!(
        w,
        "until"
            | "till"
            | "til"
            | "unless"
            | "if"
            | "because"
            | "cause"
            | "cuz"
            | "coz"
            | "since"
            | "while"
            | "when"
            | "before"
            | "after"
            | "as"
            | "so"
    )
}

/// The words of a clause without filler, read by the patterns in order;
/// `subject`: they followed `i`, `im` (I'm) or `ill` (I'll), and say
/// what the speaker does or is.
fn read_words(c: &[&str], subject: bool) -> Readings {
    c.first()?;
    let one = |r: Reading| Some(vec![r]);
    if let Some(r) = read_sign(c) {
        return Some(r);
    }
    if let Some(r) = read_time_help_move(c) {
        return Some(r);
    }
    if let Some(r) = read_clock_lead(c) {
        return one(r);
    }
    if let Some(r) = read_cancel(c) {
        return one(r);
    }
    if let Some(r) = read_unavailable(c) {
        return one(r);
    }
    if subject {
        return read_subject(c);
    }
    if c.iter().any(|w| is_negation(w)) {
        return read_negated(c);
    }
    read_command(c)
}

/// Sjeng's signs: `+n` .. `+++n` (need, levels 1-3), `-q` .. `---q` (ban),
/// `+nb` (several), `+d`/`+h` (diagonal and heavy pieces), `+trades` and
/// `---trades`, `=` (back to normal: cancel).
fn read_sign(c: &[&str]) -> Readings {
    let first = c[0];
    if first.chars().all(|ch| ch == '=') {
        return (c.len() == 1).then(|| vec![Reading::Cancel]);
    }
    let sign = first.chars().next().filter(|s| matches!(s, '+' | '-'))?;
    let signs = first.chars().take_while(|&ch| ch == sign).count();
    let rest = &first[signs..];
    let mut tail = c[1..].to_vec();
    // "+ n", "-- q": the sign apart from its piece.
    let rest = if rest.is_empty() && !tail.is_empty() {
        tail.remove(0)
    } else {
        rest
    };
    if rest.starts_with("trad") || rest == "t" || (rest.is_empty() && signs > 1) {
        return tail.is_empty().then(|| {
            vec![if sign == '+' {
                Reading::TradesGood
            } else {
                Reading::TradesBad
            }]
        });
    }
    let kinds = super::words::letters(rest, "pnbrqdh")
        .or_else(|| super::words::piece_name(rest).map(|k| vec![k]))?;
    let mate = mate_word(&tail);
    if !tail
        .iter()
        .all(|w| is_mate(w) || matches!(*w, "me" | "for" | "with"))
    {
        return None;
    }
    if sign == '+' && mate == Some(true) {
        return None;
    }
    let level = if mate.is_some() {
        Level::Mates
    } else {
        Level::from_signs(signs)
    };
    Some(
        kinds
            .into_iter()
            .map(|k| match (sign, mate) {
                ('-', _) => Reading::Ban(k, level),
                _ => Reading::Need(k, level),
            })
            .collect(),
    )
}

/// `time 1234`, `otim 567`, `help`, `move e2e4`, `e2e4`, `drop n f7`.
fn read_time_help_move(c: &[&str]) -> Readings {
    let one = |r: Reading| Some(vec![r]);
    match c {
        ["time" | "otim", cs] => {
            let cs: u64 = cs.parse().ok()?;
            one(if c[0] == "time" {
                Reading::Time(cs)
            } else {
                Reading::Otim(cs)
            })
        }
        ["help" | "commands" | "?", ..] => one(Reading::Help),
        ["move" | "play" | "moves", m] | [m] => uci_move(m).map(|m| vec![Reading::Move(m)]),
        ["drop" | "put", piece, square] => {
            uci_move(&format!("{piece}@{square}")).map(|m| vec![Reading::Move(m)])
        }
        _ => None,
    }
}

/// `nvm`, `never mind`, `forget it`, `cancel`, `scratch that`, `no need`,
/// `dont need n anymore`, `q doesnt mate me anymore`.
fn read_cancel(c: &[&str]) -> Option<Reading> {
    let cancel = match c {
        ["nvm" | "nevermind" | "nm" | "cancel" | "clear" | "scratch" | "disregard", ..] => true,
        ["never", "mind", ..] | ["forget" | "ignore", ..] => true,
        ["no", "need" | "longer", ..] | ["not", "needed", ..] => true,
        ["dont" | "no", "need" | "needed", rest @ ..] => rest
            .iter()
            .all(|w| pieces_of(w).is_some() || matches!(*w, "or" | "and")),
        // "q doesnt mate me anymore": the ban (or the need) is over.
        _ => {
            piece_list(c, 0).is_some()
                && c.iter().any(|w| is_negation(w))
                && c.iter().any(|w| is_mate(w))
        }
    };
    cancel.then_some(Reading::Cancel)
}

/// No piece is coming from the partner: `hard to get`, `cant get it`, `not
/// possible`, `nothing is coming`, `sitting`, `frozen`.
fn read_unavailable(c: &[&str]) -> Option<Reading> {
    let has = |w: &str| c.contains(&w);
    let coming = c.iter().any(|w| matches!(*w, "coming" | "come" | "comes"));
    let negated = c.iter().any(|w| is_negation(w));
    let unavailable = (c
        .iter()
        .any(|w| matches!(*w, "hard" | "tough" | "difficult"))
        && c.iter().any(|w| matches!(*w, "get" | "take" | "win")))
        || (has("cant") || has("cannot"))
            && c.iter().all(|w| {
                matches!(*w, "cant" | "cannot" | "get" | "take" | "win" | "find")
                    || pieces_of(w).is_some()
            })
        || has("impossible")
        || (has("not") && has("possible"))
        || (has("no") && has("chance"))
        || (coming && negated)
        || matches!(c, ["sitting" | "frozen" | "sat"]);
    unavailable.then_some(Reading::Unavailable)
}

/// What follows `i`, `im` (I'm), `ill` (I'll): the speaker's own state.
fn read_subject(c: &[&str]) -> Readings {
    let one = |r: Reading| Some(vec![r]);
    let &verb = c.first()?;
    let dead = |w: &str| {
        matches!(
            w,
            "dead" | "mated" | "lost" | "toast" | "done" | "finished" | "gone" | "busted" | "dying"
        )
    };
    match c {
        ["not" | "no", "longer", w] | ["not", w] if dead(w) => one(Reading::Alive),
        [w] if dead(w) => one(Reading::Dead),
        [w, "mated"] if dead(w) || matches!(*w, "forced") => one(Reading::Dead),
        ["ok" | "fine" | "safe" | "alive" | "back" | "good" | "better" | "alright" | "solid"
        | "rock" | "x"] => one(Reading::Alive),
        // "i have mate with n", "i got mate with q": a need of level 3,
        // as "mate with n"; "i have mate" alone is news.
        ["have" | "got" | "see", m, ..] if is_mate(m) => read_command(&c[1..]),
        ["have" | "got" | "see", p, m, ..] if pieces_of(p).is_some() && is_mate(m) => {
            read_command(&c[1..])
        }
        _ if matches!(
            verb,
            "sit" | "sitting" | "stall" | "stalling" | "wait" | "waiting" | "frozen" | "stuck"
        ) || (verb == "have" && c.get(1) == Some(&"sit")) =>
        {
            one(Reading::Unavailable)
        }
        // What the speaker does or did: "i'm moving", "i dropped my queen".
        _ if matches!(
            verb,
            "go" | "move"
                | "moving"
                | "play"
                | "playing"
                | "going"
                | "understand"
                | "see"
                | "dropped"
                | "lost"
                | "gave"
                | "hung"
                | "blundered"
                | "traded"
                | "took"
                | "won"
                | "got"
                | "have"
                | "hope"
                | "think"
        ) && !(verb == "have" && c.len() == 1) =>
        {
            one(Reading::Chat)
        }
        // "i mate", "i have mate", "im mating": news, not a request,
        // unless a piece comes with it ("i mate with n").
        _ if c.iter().any(|w| is_mate(w)) && piece_list_in(c).is_none() => one(Reading::Chat),
        _ if c.iter().any(|w| is_negation(w)) => read_negated(c),
        _ => read_command(c),
    }
}

/// The first piece list anywhere in the words.
fn piece_list_in(c: &[&str]) -> Option<Vec<PieceType>> {
    (0..c.len()).find_map(|i| piece_list(c, i).map(|(k, _)| k))
}

/// A clause that starts with `if`: `if he gets q im dead`, `if he gets q
/// he mates` (ban, level 3), `if i get n i mate`, `if i get n hes dead`
/// (need, level 3).
fn read_if(raw: &[&str]) -> Readings {
    let c: Vec<&str> = raw.iter().copied().filter(|w| !is_filler(w)).collect();
    let kinds = piece_list_in(&c)?;
    if c.iter().any(|w| is_negation(w)) {
        return None;
    }
    let make: fn(PieceType) -> Reading = if speaker_loses(raw)? {
        |k| Reading::Ban(k, Level::Mates)
    } else {
        |k| Reading::Need(k, Level::Mates)
    };
    Some(kinds.into_iter().map(make).collect())
}

/// An outcome followed by its condition: `they mate if they get a rook`,
/// `im dead if he gets q`, `i mate if i get n`. Read as the same clause
/// with `if` first; `None` when the part before `if` says no outcome
/// (`sit if he gets q` is a sit, read by the caller).
fn read_outcome_then_if(raw: &[&str]) -> Readings {
    let at = raw.iter().skip(1).position(|w| *w == "if")? + 1;
    let (outcome, condition) = (&raw[..at], &raw[at + 1..]);
    speaker_loses(outcome)?;
    piece_list_in(condition)?;
    let reordered: Vec<&str> = condition.iter().chain(outcome).copied().collect();
    read_if(&reordered)
}

/// A clause without a negation that starts with what is asked: `sit`,
/// `go`, `fast`, `need n`, `n mates`, `trades good`, `keep q`, `dead`.
fn read_command(c: &[&str]) -> Readings {
    let one = |r: Reading| Some(vec![r]);
    let first = c[0];
    let rest = &c[1..];
    let all = |words: &[&str], set: &[&str]| words.iter().all(|w| set.contains(w));
    const FAST: [&str; 9] = [
        "fast", "faster", "hurry", "quick", "quicker", "speed", "rush", "blitz", "up",
    ];
    match first {
        "sit" | "s" | "wait" | "stall" | "freeze" | "stop" | "hold"
            if piece_list_in(rest).is_none() || first == "sit" || first == "wait" =>
        {
            one(Reading::Sit)
        }
        "sitting" | "frozen" if rest.is_empty() => one(Reading::Unavailable),
        "go" | "g" | "move" | "play" | "gogo" | "gogogo" | "goo" | "gooo" | "moving" => {
            if rest.iter().any(|w| FAST.contains(w)) {
                one(Reading::Fast)
            } else if all(rest, &["go", "ahead", "on", "g", "move", "please"]) {
                one(Reading::Go)
            } else if all(rest, &["normal", "normally", "slow", "slower"]) {
                one(Reading::Slow)
            } else {
                let rest = match rest {
                    ["for" | "get", more @ ..] => more,
                    more => more,
                };
                needs(rest, Level::Need)
            }
        }
        _ if first != "up" && FAST.contains(&first) && all(rest, &FAST) => one(Reading::Fast),
        "slow" | "slower" | "normal" | "normally" if all(rest, &["down", "speed", "play"]) => {
            one(Reading::Slow)
        }
        "take" if rest.first() == Some(&"time") => one(Reading::Slow),
        "dead" | "mated" | "toast" if rest.is_empty() => one(Reading::Dead),
        "alive" | "x" | "safe" if rest.is_empty() => one(Reading::Alive),
        "trade" | "trades" | "trading" | "+trades" => {
            let bad = [
                "bad", "suck", "sucks", "hurt", "hurts", "terrible", "awful", "me", "for",
            ];
            let good = [
                "good",
                "ok",
                "fine",
                "freely",
                "all",
                "everything",
                "anything",
                "great",
                "welcome",
                "free",
                "away",
                "more",
                "nice",
                "material",
                "pieces",
                "stuff",
                "off",
            ];
            if !rest.is_empty() && all(rest, &bad) {
                one(Reading::TradesBad)
            } else if all(rest, &good) {
                one(Reading::TradesGood)
            } else {
                None
            }
        }
        "keep" if matches!(rest, ["trading" | "trade" | "trades"]) => one(Reading::TradesGood),
        "keep" | "save" if matches!(rest, [m] if is_material_word(m)) => one(Reading::TradesBad),
        "take" | "grab" | "capture" if matches!(rest, [m] if is_material_word(m)) => {
            one(Reading::TradesGood)
        }
        // "feed me (pieces)": anything will do.
        "feed" if matches!(rest, ["me"]) || matches!(rest, ["me", m] if is_material_word(m)) => {
            one(Reading::TradesGood)
        }
        "make" if matches!(rest, ["move"]) => one(Reading::Go),
        // "flag him": play fast, his clock is the target.
        "flag" if rest.is_empty() => one(Reading::Fast),
        "keep" | "save" | "protect" | "guard" => bans(rest, Level::Need),
        "careful" if rest.first() == Some(&"with") => bans(&rest[1..], Level::Like),
        "need" | "needs" | "needed" | "want" | "wanna" | "neeed" | "ned" | "nd" | "gimme"
        | "get" | "capture" | "kill" | "grab" | "steal" | "hunt" | "must" | "take" | "with"
        | "send" | "pass" => {
            let rest = match rest {
                ["have" | "get" | "me", more @ ..] => more,
                more => more,
            };
            let level = if first == "must" {
                Level::Mates
            } else {
                Level::Need
            };
            needs(rest, level)
        }
        "give" if rest.first() == Some(&"me") => needs(&rest[1..], Level::Need),
        "like" | "prefer" | "use" => needs(rest, Level::Like),
        "have" if all(rest, &["mate", "checkmate", "mating"]) => one(Reading::Chat),
        // "free queen": news of a piece won.
        "free" if piece_list(rest, 0).is_some_and(|(_, end)| end == rest.len()) => {
            one(Reading::Chat)
        }
        _ if is_mate(first) || first == "mate" => match rest {
            [] | ["in", ..] => one(Reading::Chat),
            ["with", ..] => needs(&rest[1..], Level::Mates),
            _ => None,
        },
        _ => piece_first(c),
    }
}

/// Needs for the pieces at the start of `c`, at `level` unless the words
/// after them say more (`need n to mate`: 3; `n would be nice`: 1).
fn needs(c: &[&str], level: Level) -> Readings {
    if c.first().is_some_and(|w| is_material_word(w))
        && c[1..].iter().all(|w| is_liking(w) || *w == "needed")
    {
        // "give me anything", "anything helps": any piece will do.
        return Some(vec![Reading::TradesGood]);
    }
    let (kinds, end) = piece_list(c, 0)?;
    let tail = &c[end..];
    let level = match mate_word(tail) {
        Some(true) => return None,
        Some(false) => Level::Mates,
        // "at any cost", "whatever it takes": give anything for it.
        None if tail
            .iter()
            .any(|w| matches!(*w, "cost" | "costs" | "takes")) =>
        {
            Level::Mates
        }
        None if tail.iter().any(|w| is_liking(w)) => Level::Like,
        None => level,
    };
    if !tail.iter().all(|w| {
        is_mate(w)
            || is_liking(w)
            || matches!(
                *w,
                "for"
                    | "with"
                    | "first"
                    | "back"
                    | "soon"
                    | "me"
                    | "cost"
                    | "costs"
                    | "whatever"
                    | "takes"
            )
    }) {
        return None;
    }
    Some(kinds.into_iter().map(|k| Reading::Need(k, level)).collect())
}

/// Material in general rather than a piece: `anything`, `pieces`,
/// `everything` (`keep pieces`, `take everything`, `anything helps`).
fn is_material_word(w: &str) -> bool {
    matches!(
        w,
        "anything" | "something" | "everything" | "pieces" | "piece" | "material" | "stuff"
    )
}

/// Bans of the pieces at the start of `c`, at `level`.
fn bans(c: &[&str], level: Level) -> Readings {
    let (kinds, end) = piece_list(c, 0)?;
    c[end..]
        .is_empty()
        .then(|| kinds.into_iter().map(|k| Reading::Ban(k, level)).collect())
}

/// Words that make a request the mildest one (level 1).
fn is_liking(w: &str) -> bool {
    matches!(
        w,
        "nice"
            | "good"
            | "helps"
            | "help"
            | "useful"
            | "helpful"
            | "like"
            | "maybe"
            | "possible"
            | "great"
            | "cool"
    )
}

/// A clause that starts with pieces: alone a need (`n`, `knight or bishop`);
/// `n mates` a need of level 3, `q mates me` a ban of level 3, `n would be
/// nice` a need of level 1, `q kills me` a ban, `n coming` news.
fn piece_first(c: &[&str]) -> Readings {
    if c.first().is_some_and(|w| is_material_word(w)) {
        return needs(c, Level::Need);
    }
    let (kinds, end) = piece_list(c, 0)?;
    let tail = &c[end..];
    let all = |make: fn(PieceType) -> Reading| Some(kinds.iter().map(|&k| make(k)).collect());
    match tail {
        [] | ["needed" | "need" | "wanted" | "please" | "asap"] => {
            all(|k| Reading::Need(k, Level::Need))
        }
        ["coming" | "comes" | "incoming"] | ["on", "way"] | ["way"] => Some(vec![Reading::Chat]),
        ["kills" | "kill", "me"] => all(|k| Reading::Ban(k, Level::Mates)),
        // "n wins", "q wins the game" ("his q wins" is taken before, as
        // the opponent's).
        ["wins"] | ["wins", "game"] => all(|k| Reading::Need(k, Level::Mates)),
        ["hurts" | "bad" | "dangerous", "me"] | ["dangerous"] => {
            all(|k| Reading::Ban(k, Level::Need))
        }
        _ => match mate_word(tail) {
            Some(true) => all(|k| Reading::Ban(k, Level::Mates)),
            Some(false) if !tail.contains(&"me") => all(|k| Reading::Need(k, Level::Mates)),
            Some(false) => None,
            None => needs(c, Level::Need),
        },
    }
}
