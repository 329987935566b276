//! Bughouse partner communication: the messages partners exchange (typed,
//! with the text vocabulary both protocols share: UCI `bughouse ptell`,
//! xboard `ptell`, FICS), and the state the partner's requests leave.
//!
//! Vocabulary (case-insensitive), with the Sjeng/Sunsetter short forms:
//!
//! | message | short forms | meaning |
//! |---|---|---|
//! | `sit` | `s`, `wait` | wait: do not move until `go` (or until the clock forbids it) |
//! | `go` | `g`, `move` | move again normally |
//! | `need <piece>` | `+n`, `n`, `knight` | the partner needs that piece: capture it when you can |
//! | `must have <piece>` | `++n`, `+++n` | the partner mates with that piece: capture one even at a cost |
//! | `dont give <piece>` | `don't give q`, `-q` | do not let that piece be captured (it would reach the partner's opponent) |
//! | `must not give <piece>` | `--q`, `---q` | that piece mates the partner: keep it at almost any cost |
//! | `no trades` | `---trades`, `-trades` | avoid giving anything |
//! | `trades` | `+trades`, `trades ok` | trades are fine again (clears `dont give`) |
//! | `dead` | | the partner is lost on his board: win fast |
//! | `x` | `alive` | the partner is no longer lost; stop sitting |
//! | `time <cs>`, `otim <cs>` | | the partner's clock and his opponent's |
//! | `fast` | | play faster |
//! | `slow` | | time may be used normally |
//! | `clear` | `ok`, `thanks` | forget the requests |
//! | `help` | `?` | list what is understood |

use crate::types::PieceType;
use std::fmt;
use std::str::FromStr;

/// Moves of the receiving engine for which a `need` or `dont give` holds
/// unless the partner repeats it: a request is about the position it was
/// made in, not about the rest of the game. A sender repeats a request that
/// still applies once it has lapsed, and not before.
pub const REQUEST_MOVES: u8 = 6;

/// One message between partners.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartnerMessage {
    /// Wait: do not move until `go`.
    Sit,
    /// Move again normally.
    Go,
    /// Capture a piece of this kind for me.
    Need(PieceType),
    /// Capture a piece of this kind for me even at a cost: it mates.
    MustHave(PieceType),
    /// Do not let a piece of this kind be captured.
    DontGive(PieceType),
    /// Keep every piece of this kind at almost any cost: it mates me.
    MustNotGive(PieceType),
    /// Do not let anything be captured.
    NoTrades,
    /// Trades are fine again.
    Trades,
    /// I am lost on my board: win fast.
    Dead,
    /// I am no longer lost.
    Alive,
    /// Play faster.
    Fast,
    /// Time may be used normally again.
    Slow,
    /// My clock (centiseconds).
    Time(u64),
    /// My opponent's clock (centiseconds).
    Otim(u64),
    /// Forget the requests.
    Clear,
    /// What do you understand?
    Help,
    /// Talk that asks for nothing and changes nothing: `ok`, `thanks`,
    /// `hi`, `gg` (read so that it neither clears a standing request nor
    /// counts as a tell that was not understood).
    Chat,
}

/// The answer to [`PartnerMessage::Help`]: the vocabulary in one line.
pub const HELP: &str = "I understand: sit, go, need <p> (+p), must have <p> (++p), dont give <p> \
    (-p), must not give <p> (--p), no trades (---trades), trades, dead, x, fast, slow, time <cs>, otim <cs>, clear; p = p n b r q";

fn piece_word(w: &str) -> Option<PieceType> {
    let w = w.trim_matches(|c: char| !c.is_ascii_alphabetic());
    let k = match w.to_ascii_lowercase().as_str() {
        "p" | "pawn" | "pawns" => PieceType::Pawn,
        "n" | "knight" | "knights" | "horse" => PieceType::Knight,
        "b" | "bishop" | "bishops" => PieceType::Bishop,
        "r" | "rook" | "rooks" => PieceType::Rook,
        "q" | "queen" | "queens" => PieceType::Queen,
        _ => return None,
    };
    Some(k)
}

/// The sentences Sjeng (the classic bughouse bot on FICS) says to its
/// partner that carry a request: `Mate in 3, give him no more pieces.`
/// (no trades), `You can trade freely.` and `q doesn't mate me anymore`
/// (trades are fine again). `text` is in lower case.
fn sjeng_sentence(text: &str) -> Option<PartnerMessage> {
    let words: Vec<&str> = text
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | ',' | '!' | '?')))
        .collect();
    match words.as_slice() {
        ["mate", "in", _, ..] if text.contains("no more pieces") => Some(PartnerMessage::NoTrades),
        ["you", "can", "trade", "freely", ..] => Some(PartnerMessage::Trades),
        [piece, "doesn't" | "doesnt", "mate", "me", ..] if piece_word(piece).is_some() => {
            Some(PartnerMessage::Trades)
        }
        _ => None,
    }
}

/// A tell that starts with the piece word `k`, `rest` the words after it:
/// alone (or with chat words, `is_chat`) a need; with a word of mating, a
/// piece that mates (`++k`), or that mates *me* (`--k`). Anything else
/// after the piece, a negation above all ("q doesnt mate me now" is no
/// request), is not read: `None`, never a guess.
fn piece_tell(
    k: PieceType,
    rest: &[&str],
    is_chat: impl Fn(&&str) -> bool,
) -> Option<PartnerMessage> {
    let bare = |i: usize| word_at(rest, i);
    let words = || (0..rest.len()).map(bare);
    if rest.iter().all(is_chat) {
        return Some(PartnerMessage::Need(k));
    }
    let negated = words().any(|w| {
        matches!(
            w,
            "doesn't"
                | "doesnt"
                | "don't"
                | "dont"
                | "not"
                | "no"
                | "never"
                | "can't"
                | "cant"
                | "won't"
                | "wont"
        )
    });
    if negated || !words().any(|w| w.starts_with("mate")) {
        return None;
    }
    // "r mates me": a rook in his hand mates me, so none must be given;
    // "n mates": a knight for me mates.
    Some(if words().any(|w| w == "me") {
        PartnerMessage::MustNotGive(k)
    } else {
        PartnerMessage::MustHave(k)
    })
}

/// Words that ask for nothing ([`PartnerMessage::Chat`]).
const CHAT_WORDS: [&str; 11] = [
    "ok", "okay", "thanks", "thx", "ty", "hi", "hello", "gg", "gl", "please", "pls",
];

/// The `i`-th word of a tell without its punctuation (`""` past the end).
fn word_at<'a>(words: &[&'a str], i: usize) -> &'a str {
    words
        .get(i)
        .map_or("", |w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric()))
}

/// Why a partner message was not understood (the texts are trimmed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartnerMessageError {
    /// `time` or `otim` (the word given) without a number of centiseconds.
    MissingCentiseconds(String),
    /// A request (`need`, `must`, `don't give`) that names no piece.
    MissingPiece {
        /// The request as the answer names it: `need`, `must`, `don't give`.
        request: &'static str,
        /// The whole message.
        text: String,
    },
    /// Text that is no message of the vocabulary.
    Unknown(String),
}

impl fmt::Display for PartnerMessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartnerMessageError::MissingCentiseconds(word) => {
                write!(f, "{word} needs centiseconds")
            }
            PartnerMessageError::MissingPiece { request, text } => {
                write!(f, "{request} what? '{text}'")
            }
            PartnerMessageError::Unknown(text) => write!(f, "unknown partner message '{text}'"),
        }
    }
}

impl std::error::Error for PartnerMessageError {}

impl FromStr for PartnerMessage {
    type Err = PartnerMessageError;

    /// Reads the vocabulary of the module documentation; unknown text is an error.
    fn from_str(text: &str) -> Result<PartnerMessage, PartnerMessageError> {
        use PartnerMessage as M;
        use PartnerMessageError as E;
        let t = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = t.split_whitespace().collect();
        // Words that ask for nothing: a tell of them alone is chat, and
        // before a request they are dropped ("ok, sit", "thanks! need n").
        let chat =
            |w: &&str| CHAT_WORDS.contains(&w.trim_matches(|c: char| !c.is_ascii_alphanumeric()));
        let rest: Vec<&str> = words.iter().copied().skip_while(|w| chat(w)).collect();
        if rest.len() < words.len() {
            return if rest.is_empty() {
                Ok(M::Chat)
            } else {
                // An error names the whole tell, as the partner wrote it.
                rest.join(" ").parse().map_err(|e| match e {
                    E::Unknown(_) => E::Unknown(text.trim().to_string()),
                    other => other,
                })
            };
        }
        let first = words.first().copied().unwrap_or("");
        let unknown = || E::Unknown(text.trim().to_string());
        let no_piece = |request| E::MissingPiece {
            request,
            text: text.trim().to_string(),
        };
        Ok(match first {
            "sit" | "s" | "wait" => M::Sit,
            "go" | "g" | "move" => M::Go,
            "dead" => M::Dead,
            "x" | "alive" => M::Alive,
            "fast" => M::Fast,
            "slow" => M::Slow,
            "help" | "?" => M::Help,
            "clear" => M::Clear,
            // "trades bad", "trades are bad": the opposite of "trades".
            "trades" | "+trades" if words.iter().any(|w| w.starts_with("bad")) => M::NoTrades,
            "trades" | "+trades" => M::Trades,
            "no" if words.get(1) == Some(&"trades") => M::NoTrades,
            "time" | "otim" => {
                let cs: u64 = words
                    .get(1)
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| E::MissingCentiseconds(first.to_string()))?;
                if first == "time" {
                    M::Time(cs)
                } else {
                    M::Otim(cs)
                }
            }
            "need" | "want" => M::Need(
                words
                    .get(1)
                    .and_then(|w| piece_word(w))
                    .ok_or_else(|| no_piece("need"))?,
            ),
            "must" => {
                let piece = words
                    .iter()
                    .skip(1)
                    .find(|w| !matches!(**w, "have" | "get" | "not" | "give"))
                    .and_then(|w| piece_word(w))
                    .ok_or_else(|| no_piece("must"))?;
                if words.get(1) == Some(&"not") {
                    M::MustNotGive(piece)
                } else {
                    M::MustHave(piece)
                }
            }
            "dont" | "don't" | "do" => {
                let piece = words
                    .iter()
                    .skip(1)
                    .find(|w| **w != "not" && **w != "give")
                    .and_then(|w| piece_word(w))
                    .ok_or_else(|| no_piece("don't give"))?;
                M::DontGive(piece)
            }
            _ if first.starts_with('-') && first.ends_with("trades") => M::NoTrades,
            _ => {
                // One sign asks, two or more insist (the Sjeng-style levels).
                if let Some(rest) = first.strip_prefix("++") {
                    M::MustHave(piece_word(rest.trim_start_matches('+')).ok_or_else(unknown)?)
                } else if let Some(rest) = first.strip_prefix('+') {
                    M::Need(piece_word(rest).ok_or_else(unknown)?)
                } else if let Some(rest) = first.strip_prefix("--") {
                    M::MustNotGive(piece_word(rest.trim_start_matches('-')).ok_or_else(unknown)?)
                } else if let Some(rest) = first.strip_prefix('-') {
                    M::DontGive(piece_word(rest).ok_or_else(unknown)?)
                } else if let Some(msg) = sjeng_sentence(&t) {
                    // Before the bare piece word: "q doesn't mate me" is no request for a queen.
                    msg
                } else if let Some(k) = piece_word(first) {
                    piece_tell(k, &words[1..], chat).ok_or_else(unknown)?
                } else {
                    return Err(unknown());
                }
            }
        })
    }
}

impl fmt::Display for PartnerMessage {
    /// The message's canonical text (what the engine says to its partner).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PartnerMessage as M;
        match self {
            M::Sit => f.write_str("sit"),
            M::Go => f.write_str("go"),
            M::Need(k) => write!(f, "need {}", k.char()),
            M::MustHave(k) => write!(f, "++{}", k.char()),
            M::DontGive(k) => write!(f, "dont give {}", k.char()),
            M::MustNotGive(k) => write!(f, "--{}", k.char()),
            M::NoTrades => f.write_str("no trades"),
            M::Trades => f.write_str("trades"),
            M::Dead => f.write_str("dead"),
            M::Alive => f.write_str("x"),
            M::Fast => f.write_str("fast"),
            M::Slow => f.write_str("slow"),
            M::Time(cs) => write!(f, "time {cs}"),
            M::Otim(cs) => write!(f, "otim {cs}"),
            M::Clear => f.write_str("clear"),
            M::Help => f.write_str("help"),
            M::Chat => f.write_str("ok"),
        }
    }
}

/// What the partner has asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartnerState {
    /// The partner asked us to wait.
    pub sit: bool,
    /// Pieces the partner needs (P N B R Q).
    pub need: [bool; 5],
    /// Pieces we must not give away (P N B R Q).
    pub dont_give: [bool; 5],
    /// Which of the needed pieces are needed urgently (`must have`).
    pub need_urgent: [bool; 5],
    /// Which of the pieces not to give are kept urgently (`must not give`).
    pub dont_give_urgent: [bool; 5],
    /// The partner is lost on his board.
    pub partner_dead: bool,
    /// Play faster than usual.
    pub fast: bool,
    /// The partner's clock as he told it (`time <cs>`).
    pub partner_time_cs: Option<u64>,
    /// His opponent's clock (`otim <cs>`).
    pub partner_opponent_time_cs: Option<u64>,
    /// Moves left for each `need` (see [`REQUEST_MOVES`]).
    pub need_left: [u8; 5],
    /// Moves left for each `dont give`.
    pub dont_give_left: [u8; 5],
}

impl PartnerState {
    /// Applies one message from the partner.
    pub fn apply(&mut self, msg: PartnerMessage) {
        use PartnerMessage as M;
        match msg {
            M::Sit => self.sit = true,
            M::Go => self.sit = false,
            M::Dead => self.partner_dead = true,
            M::Alive => {
                self.partner_dead = false;
                self.sit = false;
            }
            M::Time(cs) => self.partner_time_cs = Some(cs),
            M::Otim(cs) => self.partner_opponent_time_cs = Some(cs),
            M::Fast => self.fast = true,
            M::Slow => self.fast = false,
            M::Clear => {
                self.need = [false; 5];
                self.dont_give = [false; 5];
                self.need_urgent = [false; 5];
                self.dont_give_urgent = [false; 5];
            }
            M::Trades => {
                self.dont_give = [false; 5];
                self.dont_give_urgent = [false; 5];
            }
            M::NoTrades => {
                self.dont_give = [true; 5];
                self.dont_give_urgent = [false; 5];
                self.dont_give_left = [REQUEST_MOVES; 5];
            }
            M::Need(k) | M::MustHave(k) => {
                self.need[k.index()] = true;
                self.need_urgent[k.index()] = matches!(msg, M::MustHave(_));
                self.need_left[k.index()] = REQUEST_MOVES;
            }
            M::DontGive(k) | M::MustNotGive(k) => {
                self.dont_give[k.index()] = true;
                self.dont_give_urgent[k.index()] = matches!(msg, M::MustNotGive(_));
                self.dont_give_left[k.index()] = REQUEST_MOVES;
            }
            M::Help | M::Chat => {}
        }
    }

    /// One more move of ours: requests age, and those that have held for
    /// [`REQUEST_MOVES`] moves lapse.
    pub fn tick(&mut self) {
        let needs = self.need.iter_mut().zip(&mut self.need_urgent);
        let keeps = self.dont_give.iter_mut().zip(&mut self.dont_give_urgent);
        let lefts = self.need_left.iter_mut().chain(&mut self.dont_give_left);
        for ((flag, urgent), left) in needs.chain(keeps).zip(lefts) {
            if *flag {
                *left = left.saturating_sub(1);
                if *left == 0 {
                    *flag = false;
                    *urgent = false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(s: &mut PartnerState, text: &str) {
        s.apply(text.parse().unwrap());
    }

    /// What Sjeng says to its partner: its requests are read, its chatter
    /// is not a command.
    #[test]
    fn sjeng_sentences() {
        let read = |t: &str| t.parse::<PartnerMessage>();
        assert_eq!(
            read("Mate in 3, give him no more pieces."),
            Ok(PartnerMessage::NoTrades)
        );
        assert_eq!(read("You can trade freely."), Ok(PartnerMessage::Trades));
        assert_eq!(
            read("q doesn't mate me anymore"),
            Ok(PartnerMessage::Trades)
        );
        assert_eq!(
            read("---n"),
            Ok(PartnerMessage::MustNotGive(PieceType::Knight))
        );
        for chatter in [
            "Hello! I am Sjeng and hope you enjoy playing with me.",
            "Sorry, but I don't understand that command.",
            "Ok, I sit next move. Tell me when to go.",
            "Greetings.",
        ] {
            assert!(read(chatter).is_err(), "{chatter}");
        }
    }

    #[test]
    fn vocabulary_and_short_forms() {
        let mut s = PartnerState::default();
        apply(&mut s, "sit");
        assert!(s.sit);
        apply(&mut s, "go");
        assert!(!s.sit);
        apply(&mut s, "need knight");
        apply(&mut s, "+q");
        assert!(s.need[PieceType::Knight.index()] && s.need[PieceType::Queen.index()]);
        apply(&mut s, "don't give r");
        apply(&mut s, "-b");
        assert!(s.dont_give[PieceType::Rook.index()] && s.dont_give[PieceType::Bishop.index()]);
        apply(&mut s, "---trades");
        assert!(s.dont_give.iter().all(|&x| x));
        apply(&mut s, "trades");
        assert!(s.dont_give.iter().all(|&x| !x));
        apply(&mut s, "dead");
        assert!(s.partner_dead);
        assert!("what now".parse::<PartnerMessage>().is_err());
        assert!(s.need[PieceType::Knight.index()] && !s.need_urgent[PieceType::Knight.index()]);
        assert_eq!("?".parse(), Ok(PartnerMessage::Help));
        assert_eq!("time 1234".parse(), Ok(PartnerMessage::Time(1234)));
        assert!("time soon".parse::<PartnerMessage>().is_err());
    }

    /// Tells that were read with the opposite meaning (issue 71): a piece
    /// that mates *me* must not be given, "trades bad" forbids trades, and
    /// "ok"/"thanks" keep a standing request.
    #[test]
    fn tells_are_never_read_with_the_opposite_meaning() {
        use PartnerMessage as M;
        let read = |t: &str| t.parse::<PartnerMessage>();
        assert_eq!(read("rook mates me"), Ok(M::MustNotGive(PieceType::Rook)));
        assert_eq!(read("q mates me!"), Ok(M::MustNotGive(PieceType::Queen)));
        assert_eq!(read("n mates"), Ok(M::MustHave(PieceType::Knight)));
        assert_eq!(read("Knight mates!"), Ok(M::MustHave(PieceType::Knight)));
        assert_eq!(read("q doesn't mate me anymore"), Ok(M::Trades));
        assert_eq!(read("trades bad"), Ok(M::NoTrades));
        assert_eq!(read("trades are bad"), Ok(M::NoTrades));
        assert_eq!(read("trades good"), Ok(M::Trades));
        assert_eq!(read("n"), Ok(M::Need(PieceType::Knight)));
        assert_eq!(read("knight please"), Ok(M::Need(PieceType::Knight)));
        assert_eq!(
            read("rook would mate me"),
            Ok(M::MustNotGive(PieceType::Rook))
        );
        assert_eq!(read("q doesnt mate me anymore"), Ok(M::Trades));
        assert_eq!(read("n can mate"), Ok(M::MustHave(PieceType::Knight)));
        for unread in ["q won't mate me", "n is useless", "rook? no"] {
            assert!(
                read(unread).is_err(),
                "{unread} is no request for the piece"
            );
        }
        let mut s = PartnerState::default();
        apply(&mut s, "-q");
        for chat in ["ok", "thanks", "hi", "gg"] {
            assert_eq!(read(chat), Ok(M::Chat), "{chat}");
            apply(&mut s, chat);
        }
        assert!(
            s.dont_give[PieceType::Queen.index()],
            "a standing -q survives ok/thanks"
        );
        apply(&mut s, "clear");
        assert!(!s.dont_give[PieceType::Queen.index()]);
    }

    /// What the engine says reads back as the same message.
    #[test]
    fn canonical_text_reads_back() {
        use PartnerMessage as M;
        let mut all = vec![
            M::Sit,
            M::Go,
            M::NoTrades,
            M::Trades,
            M::Dead,
            M::Alive,
            M::Fast,
            M::Slow,
            M::Time(17),
            M::Otim(0),
            M::Clear,
            M::Help,
            M::Chat,
        ];
        for k in PieceType::POCKET {
            all.push(M::Need(k));
            all.push(M::MustHave(k));
            all.push(M::DontGive(k));
            all.push(M::MustNotGive(k));
        }
        for m in all {
            assert_eq!(m.to_string().parse::<PartnerMessage>(), Ok(m), "{m}");
        }
    }

    #[test]
    fn requests_lapse_after_some_moves_unless_repeated() {
        let mut s = PartnerState::default();
        apply(&mut s, "need n");
        apply(&mut s, "-q");
        for _ in 0..REQUEST_MOVES - 1 {
            s.tick();
        }
        assert!(s.need[PieceType::Knight.index()] && s.dont_give[PieceType::Queen.index()]);
        apply(&mut s, "+n");
        s.tick();
        assert!(s.need[PieceType::Knight.index()], "repeated: holds again");
        assert!(!s.dont_give[PieceType::Queen.index()], "lapsed");
        assert!(!s.dont_give.iter().any(|&x| x));
    }

    /// Two or more signs insist: the urgent requests weigh more, a plain
    /// request of the same piece takes the urgency back, and it lapses.
    #[test]
    fn urgent_requests_weigh_more_until_they_lapse() {
        use PartnerMessage as M;
        assert_eq!("++n".parse(), Ok(M::MustHave(PieceType::Knight)));
        assert_eq!("+++q".parse(), Ok(M::MustHave(PieceType::Queen)));
        assert_eq!("--r".parse(), Ok(M::MustNotGive(PieceType::Rook)));
        assert_eq!(
            "must have bishop".parse(),
            Ok(M::MustHave(PieceType::Bishop))
        );
        assert_eq!(
            "must not give p".parse(),
            Ok(M::MustNotGive(PieceType::Pawn))
        );
        assert_eq!("---trades".parse(), Ok(M::NoTrades));
        assert!("must".parse::<PartnerMessage>().is_err());
        assert!("++".parse::<PartnerMessage>().is_err());
        let (n, q) = (PieceType::Knight.index(), PieceType::Queen.index());
        let mut s = PartnerState::default();
        apply(&mut s, "++n");
        apply(&mut s, "--q");
        assert!(s.need_urgent[n] && s.dont_give_urgent[q]);
        apply(&mut s, "need n");
        assert!(s.need[n] && !s.need_urgent[n]);
        for _ in 0..REQUEST_MOVES {
            s.tick();
        }
        assert!(!s.need[n] && !s.dont_give[q]);
        assert!(!s.need_urgent[n] && !s.dont_give_urgent[q]);
    }
}
