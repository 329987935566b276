//! Reading partner tells as bughouse players write them: `I need a
//! knight!!`, `+nb`, `no q`, `q mates me`, `nvm`, `i'm dead`, `sitting`,
//! `move e2e4`, as well as the short codes of the bots (Sjeng's
//! `+++n`/`---trades`, Fairy-Stockfish's `sit`/`go`/`time 1234`).
//!
//! [`read`] turns one tell into a list of [`Reading`]s (a tell may carry
//! several: `sit, need n`). It works on words, not on a list of whole
//! sentences: the text is lowered, split into clauses at punctuation and
//! at `and`/`but` (unless a piece follows: `need n and b`), a clause is
//! cut at a subordinate word (`sit until i say go` is `sit`), filler words
//! are dropped (`i`, `a`, `him`, `please`, `really`), and what is left is
//! matched against a small grammar of bughouse talk ([`clause`]). A clause
//! the grammar does not cover is [`Reading::Unknown`]; a negation the
//! grammar does not know makes the clause unknown too, so that a tell is
//! never read with the opposite meaning.
//!
//! The readings print as the vocabulary of `rukav ptell` and
//! uci-protocol.md: `sit`, `go`, `fast`, `slow`, `need P L`, `ban P L`,
//! `trades good`, `trades bad`, `cancel`, `alive`, `dead`, `unavailable`,
//! `move M`, `time CS`, `otim CS`, `chat`, `help`, `unknown`.

mod clause;
mod clock;
mod negated;
mod outcome;
mod reading;
mod words;

pub use self::reading::{Level, Reading};

/// The longest tell read (characters); the rest of a longer one is ignored.
pub const MAX_TELL_CHARS: usize = 400;

/// Reads one tell. The list is never empty: what asks for nothing is
/// `[Chat]`; each clause that is not understood adds one `Unknown` (after
/// the readings that were understood); `Chat` appears only when nothing
/// else was read. Readings are not repeated.
pub fn read(text: &str) -> Vec<Reading> {
    let text = normalise(text);
    if !text.is_empty() && text.chars().all(|c| c == '?' || c.is_whitespace()) {
        return vec![Reading::Help];
    }
    let mut found = Vec::new();
    let mut chat = false;
    let mut unknown = false;
    for (clause, question) in clauses(&text) {
        if let Some(readings) = material_but(&clause) {
            for r in readings {
                if !found.contains(&r) {
                    found.push(r);
                }
            }
            continue;
        }
        for part in split_joined(&clause) {
            // "dont give q, it mates me": the clause before is level 3.
            if let Some(me) = mates_clause(&part) {
                if raise(&mut found, me) {
                    continue;
                }
            }
            match clause::read_clause(&part, question) {
                Some(readings) => {
                    for r in readings {
                        match r {
                            Reading::Chat => chat = true,
                            Reading::Unknown => unknown = true,
                            r if !found.contains(&r) => found.push(r),
                            _ => {}
                        }
                    }
                }
                None => unknown = true,
            }
        }
    }
    if found.is_empty() && (chat || !unknown) {
        found.push(Reading::Chat);
    }
    if unknown {
        found.push(Reading::Unknown);
    }
    found
}

/// "anything but a knight", "you can trade everything except q": trades
/// are good, and the pieces after `but`/`except` are not to be given (a
/// ban of level 2). Only when the words before read as `trades good` and
/// the words after are the pieces alone; `None` otherwise.
fn material_but(words: &[String]) -> Option<Vec<Reading>> {
    let at = words
        .iter()
        .position(|w| matches!(w.as_str(), "but" | "except" | "besides" | "exc"))?;
    let after: Vec<&str> = words[at + 1..]
        .iter()
        .map(String::as_str)
        .filter(|w| !words::is_filler(w) && *w != "for")
        .collect();
    let (kinds, end) = words::piece_list(&after, 0)?;
    if end != after.len() || clause::read_clause(&words[..at], false)? != [Reading::TradesGood] {
        return None;
    }
    let mut out = vec![Reading::TradesGood];
    out.extend(kinds.into_iter().map(|k| Reading::Ban(k, Level::Need)));
    Some(out)
}

/// `Some(true)` for a clause that only says "it mates me", `Some(false)`
/// for "it mates": news about the piece of the clause before.
fn mates_clause(words: &[String]) -> Option<bool> {
    let mut mate = false;
    let mut me = false;
    for w in words {
        match w.as_str() {
            w if words::is_mate(w) => mate = true,
            "me" => me = true,
            "it" | "that" | "this" | "he" | "they" | "will" | "would" | "can" | "could"
            | "then" => {}
            _ => return None,
        }
    }
    mate.then_some(me)
}

/// Raises the needs (`me` false) or bans (`me` true) read last in `found`
/// to level 3; false when there were none.
fn raise(found: &mut [Reading], me: bool) -> bool {
    let mut raised = false;
    for r in found.iter_mut().rev() {
        match r {
            Reading::Ban(_, level) if me => *level = Level::Mates,
            Reading::Need(_, level) if !me => *level = Level::Mates,
            _ => break,
        }
        raised = true;
    }
    raised
}

/// The tell in lower case, with typographic apostrophes made plain, the
/// preset buttons of pychess (`!bug!noq`) written out, and whatever stands
/// in brackets (an explanation: `go (I am ok)`) left out.
fn normalise(text: &str) -> String {
    let lower: String = text
        .chars()
        .take(MAX_TELL_CHARS)
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '`' | '\u{b4}' => '\'',
            c => c,
        })
        .collect();
    let lower = match lower.trim().strip_prefix("!bug!") {
        Some(button) => pychess_button(button),
        None => lower,
    };
    let mut out = String::with_capacity(lower.len());
    let mut depth = 0usize;
    for c in lower.chars() {
        match c {
            // A bracket ends the clause before it and the one it holds.
            '(' | '[' | '{' => {
                if depth == 0 {
                    out.push(',');
                }
                depth += 1;
            }
            ')' | ']' | '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(',');
                }
            }
            _ if depth > 0 => {}
            c => out.push(c),
        }
    }
    out.trim().to_string()
}

/// The words of a pychess-variants partner button (`!bug!n`, `!bug!noq`,
/// `!bug!notrade`, `!bug!mb`; client/bug/chat.bug.ts).
fn pychess_button(button: &str) -> String {
    let b = button.trim();
    match b {
        "notrade" => "no trades".to_string(),
        "trade" => "trades good".to_string(),
        "mb" => "my bad".to_string(),
        "mate" => "i have mate".to_string(),
        _ => match b.strip_prefix("no") {
            Some(piece) if piece.len() == 1 && "pnbrq".contains(piece) => format!("no {piece}"),
            _ => b.to_string(),
        },
    }
}

/// The clauses of a normalised tell, each as its words, and whether it
/// ended with a question mark. Clauses end at `, . ; : ! ?`; quotes and
/// addresses (`http://...`) are dropped, apostrophes too (`don't` is `dont`), `/` and `&` between pieces
/// are `or`, a hyphen between squares joins them (`e2-e4`), and a lone
/// dash ends a clause.
fn clauses(text: &str) -> Vec<(Vec<String>, bool)> {
    let text: String = text
        .split_whitespace()
        .filter(|w| !w.contains("http") && !w.contains("www."))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let end_word = |word: &mut String, words: &mut Vec<String>| {
        let w = std::mem::take(word);
        let w = words::join_squares(&w);
        if !w.is_empty() {
            words.push(w);
        }
    };
    let end_clause =
        |words: &mut Vec<String>, out: &mut Vec<(Vec<String>, bool)>, question: bool| {
            let ws = std::mem::take(words);
            // A lone dash ("sit - i mate") ends a clause too.
            let mut part = Vec::new();
            let alone = ws.len() == 1;
            for w in ws {
                if w.chars().all(|c| c == '-') && !alone {
                    if !part.is_empty() {
                        out.push((std::mem::take(&mut part), false));
                    }
                } else {
                    part.push(w);
                }
            }
            if !part.is_empty() {
                out.push((part, question));
            }
        };
    for c in text.chars() {
        match c {
            '\'' | '"' => {}
            c if c.is_alphanumeric() || matches!(c, '+' | '-' | '@' | '=' | '#') => word.push(c),
            '/' | '&' => {
                end_word(&mut word, &mut words);
                words.push("or".to_string());
            }
            ',' | '.' | ';' | ':' | '!' | '?' => {
                end_word(&mut word, &mut words);
                end_clause(&mut words, &mut out, c == '?');
            }
            _ => end_word(&mut word, &mut words),
        }
    }
    end_word(&mut word, &mut words);
    end_clause(&mut words, &mut out, false);
    out
}

/// A clause split at `and`, `but`, `then`, `also`, `plus` where they join
/// two requests (`sit and need n`), not two pieces (`need n and b`).
fn split_joined(words: &[String]) -> Vec<Vec<String>> {
    let mut parts = vec![Vec::new()];
    for (i, w) in words.iter().enumerate() {
        let joiner = matches!(w.as_str(), "and" | "but" | "then" | "also" | "plus");
        let piece_follows = words
            .get(i + 1)
            .is_some_and(|next| words::pieces_of(next).is_some());
        if joiner && !piece_follows {
            parts.push(Vec::new());
        } else if let Some(last) = parts.last_mut() {
            last.push(w.clone());
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceType::*;
    use Reading as R;

    fn shown(text: &str) -> Vec<String> {
        read(text).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn clauses_split_at_punctuation_and_joiners_not_between_pieces() {
        assert_eq!(
            read("sit, need n"),
            vec![R::Sit, R::Need(Knight, Level::Need)]
        );
        assert_eq!(
            read("need n and b"),
            vec![R::Need(Knight, Level::Need), R::Need(Bishop, Level::Need)]
        );
        assert_eq!(read("sit and wait"), vec![R::Sit]);
        assert_eq!(read("go (I am ok)"), vec![R::Go]);
        assert_eq!(read("e2-e4"), vec![R::Move("e2e4".to_string())]);
    }

    /// A partner's word on his clock: `up`/`down`, with an amount when
    /// given, never taken from "hurry up" or "slow down".
    #[test]
    fn clock_statements_are_read_with_their_amount() {
        assert_eq!(shown("up"), ["up"]);
        assert_eq!(shown("I'm up 20"), ["up 2000"]);
        assert_eq!(shown("im down 10 secs!"), ["down 1000"]);
        assert_eq!(shown("down 1 min"), ["down 6000"]);
        assert_eq!(shown("up 15s on time"), ["up 1500"]);
        assert_eq!(shown("ahead on time"), ["up"]);
        assert_eq!(shown("i'm behind on the clock"), ["down"]);
        assert_eq!(shown("low on time"), ["down"]);
        assert_eq!(shown("hurry up"), ["fast"]);
        assert_eq!(shown("slow down"), ["slow"]);
        assert_eq!(shown("sit down"), ["sit"]);
        // Said of the partner's opponent, the lead is the partner's opposite
        // (these read as the partner's own clock before).
        assert_eq!(shown("he is low on time"), ["up"]);
        assert_eq!(shown("he's up on time"), ["down"]);
        assert_eq!(shown("my opp is down 10 secs"), ["up 1000"]);
        // What the opponent needs is a ban; his state is not the partner's
        // (these were read as needs, dead and fast before).
        assert_eq!(shown("he needs n"), ["ban n 2"]);
        assert_eq!(shown("they need a bishop"), ["ban b 2"]);
        assert_eq!(shown("he is dead"), ["unknown"]);
        assert_eq!(shown("he is fast"), ["unknown"]);
        assert_eq!(shown("he is sitting"), ["unavailable"]);
        for odd in [
            "up n",
            "are you up?",
            "up 99999999999999999999",
            "down 5 parsecs",
        ] {
            assert_eq!(shown(odd), ["unknown"], "{odd}");
        }
    }

    /// Who mates decides the meaning: the partner's opponent mating
    /// (`he mates with q`, `his n mates`) asks for a ban, the partner
    /// mating (`i mate with q`, `q mates him`) for a need. These were read
    /// the opposite way when "he", "his" and "opp" were only filler.
    #[test]
    fn the_side_that_mates_decides_need_or_ban() {
        for (text, meant) in [
            ("he mates with a queen", "ban q 3"),
            ("my opp mates with a rook", "ban r 3"),
            ("his n mates", "ban n 3"),
            ("he needs a q to mate", "ban q 3"),
            ("opp has mate with n", "ban n 3"),
            ("if he gets q he mates", "ban q 3"),
            ("if he gets q im dead", "ban q 3"),
            ("q mates me", "ban q 3"),
            ("i mate with q", "need q 3"),
            ("q mates him", "need q 3"),
            ("n mates", "need n 3"),
            ("if i get n i mate", "need n 3"),
            ("if i get n hes dead", "need n 3"),
            ("if i get n he is mated", "need n 3"),
            // The three misses of issue 71's review ("I have mate with N",
            // "they mate if ...", "... he mates") and their neighbours.
            ("I have mate with N", "need n 3"),
            ("i got mate with a q", "need q 3"),
            ("they mate if they get a rook", "ban r 3"),
            ("im dead if he gets a q", "ban q 3"),
            ("i mate if i get n", "need n 3"),
            ("don't give him a q he mates", "ban q 3"),
            ("dont give q, it mates me", "ban q 3"),
        ] {
            assert_eq!(shown(text), [meant], "{text}");
        }
    }

    /// Phrasings outside the corpus, written as players type them (a
    /// session's probe of the reader): a drop that mates names its piece,
    /// groups of pieces, material in general, "at any cost", "wins".
    #[test]
    fn drops_groups_and_material_in_general_are_read() {
        for (text, meant) in [
            ("N@f7 mates", vec!["need n 3"]),
            ("Nf7 mates", vec!["need n 3"]),
            ("R@h8 is mate", vec!["need r 3"]),
            ("q@g7#", vec!["need q 3"]),
            ("n@f7 mates me", vec!["ban n 3"]),
            ("he has n@f7 mate", vec!["ban n 3"]),
            ("i have Nf7 mate", vec!["need n 3"]),
            ("n@f7", vec!["move N@f7"]),
            ("don't give up your knight", vec!["ban n 2"]),
            ("keep pieces", vec!["trades bad"]),
            ("take everything", vec!["trades good"]),
            ("trade off everything", vec!["trades good"]),
            ("give me anything", vec!["trades good"]),
            ("any piece helps", vec!["trades good"]),
            ("careful, n mates me", vec!["ban n 3"]),
            ("need diagonals", vec!["need p 2", "need b 2", "need q 2"]),
            ("need heavy pieces", vec!["need r 2", "need q 2"]),
            ("a minor piece would help", vec!["need n 1", "need b 1"]),
            ("get a knight at any cost", vec!["need n 3"]),
            ("n wins", vec!["need n 3"]),
            ("queen wins the game", vec!["need q 3"]),
            ("his q wins", vec!["ban q 3"]),
            ("he wins with q", vec!["ban q 3"]),
            ("we're low on time", vec!["down"]),
            ("we're losing on time", vec!["down"]),
            ("feed me pieces", vec!["trades good"]),
            ("i need 2 knights", vec!["need n 2"]),
            ("two pawns", vec!["need p 2"]),
            ("pass me a knight", vec!["need n 2"]),
            ("send n", vec!["need n 2"]),
            ("he's mating me", vec!["dead"]),
            ("make a move!", vec!["go"]),
            ("flag him", vec!["fast"]),
            ("got it", vec!["chat"]),
            // One slip in a long piece name; not in the short ones.
            ("kinght pls", vec!["need n 2"]),
            ("bihsop", vec!["need b 2"]),
            ("qeen please", vec!["need q 2"]),
            ("I'm rock here", vec!["alive"]),
            ("dont move yet!!", vec!["sit"]),
            // An exception to "trades good" is a ban (this was read as
            // "need n" before).
            ("anything but a knight", vec!["trades good", "ban n 2"]),
            (
                "you can trade anything but q",
                vec!["trades good", "ban q 2"],
            ),
            (
                "trade everything except the queen",
                vec!["trades good", "ban q 2"],
            ),
            ("need n but b is ok", vec!["unknown"]),
            // Not guessed: giving up is resigning, "all" alone says nothing.
            ("dont give up", vec!["unknown"]),
            ("all", vec!["unknown"]),
            ("he has mate", vec!["unknown"]),
        ] {
            assert_eq!(shown(text), meant, "{text}");
        }
    }

    #[test]
    fn the_vocabulary_prints_as_documented() {
        assert_eq!(shown("+++n"), ["need n 3"]);
        assert_eq!(shown("--q"), ["ban q 2"]);
        assert_eq!(shown("time 1234"), ["time 1234"]);
        assert_eq!(shown("otim 99"), ["otim 99"]);
        assert_eq!(shown("move n@f7"), ["move N@f7"]);
        assert_eq!(shown("gg"), ["chat"]);
        assert_eq!(shown("?"), ["help"]);
        assert_eq!(shown("blorp"), ["unknown"]);
        assert_eq!(shown(""), ["chat"]);
        assert_eq!(shown("hi, blorp"), ["chat", "unknown"]);
        assert_eq!(shown("sit, blorp"), ["sit", "unknown"]);
        assert_eq!(shown("sit if he gets q"), ["sit"]);
        assert_eq!(shown("i have mate"), ["chat"]);
    }

    /// Untrusted text of any shape reads without a panic, and a long tell
    /// is read only up to its limit.
    #[test]
    fn any_text_reads_without_panic() {
        for text in [
            "((((",
            "))))",
            "!bug!",
            "!bug!no",
            "+",
            "---",
            "@@",
            "time 99999999999999999999999",
            "\u{0}\u{7f}",
            "ß ẞ İ",
            "-",
            "- - -",
            "n@",
            "@f7",
            "+++++++++++n",
            "e2-",
            "a/b/c",
        ] {
            assert!(!read(text).is_empty(), "{text:?}");
        }
        let long = "need n ".repeat(1000);
        assert!(!read(&long).is_empty());
    }
}
