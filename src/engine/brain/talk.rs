//! Talking with the partner in words when the partner is a person: a
//! greeting that says how to talk to the engine, an acknowledgement of each
//! tell that changed something, sits announced with their reason and how to
//! end them ([`super::SitReason::words`]), and one polite "?" for a tell that was not understood (at most
//! one between two moves of ours, never for chat). Bots stay on the short
//! codes: a partner that greets as Sjeng, Sunsetter, Fairy-Stockfish or
//! Rukav does is a bot, and so is every partner over UCI (the arena's).

use crate::bughouse::partner::{PartnerMessage, PartnerState};
use crate::bughouse::tell::{Level, Reading};
use crate::types::PieceType;

/// The engine's greeting to a new partner (xboard `partner NAME`): it says
/// how to talk to it, and tells another Rukav that its partner is a bot.
pub const GREETING: &str = "Hi, I am Rukav, a bot. Ptell me in words or codes: sit, go, \
    need n (n mates: more), no q (q mates me: more), trades good, trades bad, nvm, dead, x, \
    sitting; 'help' lists more.";

/// Who the partner is, and whether a tell was answered with "?" since our
/// last move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Talk {
    /// The partner is (as far as we know) a person: words, not codes.
    pub person: bool,
    /// A "?" was answered since our last move.
    answered: bool,
}

impl Talk {
    /// A new game: the partner stays who he is.
    pub fn new_game(&mut self) {
        self.answered = false;
    }

    /// One more move of ours: another "?" may be answered.
    pub fn new_move(&mut self) {
        self.answered = false;
    }

    /// The "?" to answer a tell read as `readings` (a person's tell that
    /// was not understood at all), at most one between two of our moves.
    pub fn question(&mut self, text: &str, readings: &[Reading]) -> Option<String> {
        if !self.person || self.answered || readings != [Reading::Unknown] {
            return None;
        }
        self.answered = true;
        let shown: String = text.chars().filter(|c| !c.is_control()).take(60).collect();
        Some(format!(
            "? I did not understand '{}'. Try: sit, go, need n, no q, trades good, trades bad, \
             nvm, dead, x; ptell help lists what I understand.",
            shown.trim()
        ))
    }
}

/// Does this tell come from a bot partner (its greeting or handshake)?
/// Sjeng: "Hello! I am Sjeng and hope you enjoy playing with me."; Sunsetter:
/// "Hi.  Thanks for being my partner. ..."; Fairy-Stockfish: "partner
/// Fairy-Stockfish is an engine. ..."; Rukav: [`GREETING`].
pub fn is_bot_greeting(text: &str) -> bool {
    let t = text.to_lowercase();
    t.contains("i am sjeng")
        || t.contains("thanks for being my partner")
        || t.contains("sunsetter")
        || t.starts_with("partner fairy-stockfish")
        || t.contains("i am rukav")
}

/// Does this tell of a bot acknowledge ours rather than ask for something?
/// (Sjeng's "Ok, Knight mates", Fairy-Stockfish's "I play fast, ...".)
pub fn is_bot_acknowledgement(text: &str) -> bool {
    let t = text.trim_start().to_lowercase();
    ["ok", "sorry", "i play", "i sit", "greetings"]
        .iter()
        .any(|w| t.starts_with(w))
}

/// A piece as a person reads it in a tell: `N`.
pub fn piece(k: PieceType) -> char {
    k.char().to_ascii_uppercase()
}

/// What the engine says to a person instead of the short code of `msg`.
pub fn words(msg: PartnerMessage) -> String {
    match msg {
        PartnerMessage::Sit => "sit please: I have a mate here; I'll say go".to_string(),
        PartnerMessage::Go => "go: you can move again".to_string(),
        PartnerMessage::MustHave(k) => format!("I need a {}: it mates (++{})", piece(k), k.char()),
        PartnerMessage::MustNotGive(k) => {
            format!("don't give a {}: it mates me (--{})", piece(k), k.char())
        }
        PartnerMessage::Trades => "trades are ok again: nothing mates me now".to_string(),
        PartnerMessage::Dead => {
            "I'm dead here (being mated): play fast; I stall while my clock allows \
             and say x when I'm ok"
                .to_string()
        }
        PartnerMessage::Alive => "x: I'm ok again".to_string(),
    }
}

/// The acknowledgement of a tell read as `readings` that changed the
/// partner state from `before` to `after` (`None` when nothing changed).
pub fn acknowledge(
    before: &PartnerState,
    after: &PartnerState,
    readings: &[Reading],
) -> Option<String> {
    let mut said: Vec<String> = Vec::new();
    for r in readings {
        let line = match *r {
            Reading::Sit if !before.sit => Some("sitting until you say go".to_string()),
            Reading::Go if before.sit => Some("moving".to_string()),
            Reading::Up(_) if before.partner_ahead != after.partner_ahead => {
                Some("you're up on time".to_string())
            }
            Reading::Down(_) if before.partner_ahead != after.partner_ahead => {
                Some("you're down on time: I won't ask you to sit".to_string())
            }
            Reading::Need(k, level) if before.need[k.index()] != Some(level) => {
                let p = piece(k);
                Some(match level {
                    Level::Like => format!("I'll take a {p} when it is an even trade"),
                    Level::Need => format!("I'll try to get you a {p}"),
                    Level::Mates => format!("{p} mates: I'll give almost anything for one"),
                })
            }
            Reading::Ban(k, level) if before.ban[k.index()] != after.ban[k.index()] => {
                let p = piece(k);
                Some(match level {
                    Level::Mates => {
                        format!(
                            "{p} mates you: I'll keep mine at almost any cost until you say trades"
                        )
                    }
                    _ => format!("won't give {p} until you say trades"),
                })
            }
            Reading::TradesGood if before.ban != after.ban => {
                Some("trading freely again".to_string())
            }
            Reading::TradesBad if before.ban != after.ban => {
                Some("no trades until you say trades".to_string())
            }
            Reading::Cancel if before != after => Some("requests cleared".to_string()),
            Reading::Dead if !before.partner_dead => Some(
                "you're dead: I play fast and won't wait for pieces; say x when you're ok"
                    .to_string(),
            ),
            Reading::Alive if before.partner_dead => Some("playing normally again".to_string()),
            Reading::Fast if !before.fast => Some("playing fast; say slow to stop".to_string()),
            Reading::Slow if before.fast => Some("normal speed again".to_string()),
            Reading::Unavailable if !before.unavailable => {
                Some("not waiting for pieces from you".to_string())
            }
            _ => None,
        };
        said.extend(line);
    }
    (!said.is_empty()).then(|| format!("ok: {}", said.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bughouse::tell::read;
    use crate::engine::brain::SitReason;

    fn ack(before: &PartnerState, text: &str) -> (PartnerState, Option<String>) {
        let readings = read(text);
        let mut after = *before;
        for r in &readings {
            after.apply(r);
        }
        let said = acknowledge(before, &after, &readings);
        (after, said)
    }

    #[test]
    fn tells_that_change_something_are_acknowledged_in_words() {
        let s = PartnerState::default();
        let (s, said) = ack(&s, "dont give q");
        assert_eq!(
            said.as_deref(),
            Some("ok: won't give Q until you say trades")
        );
        let (s, said) = ack(&s, "no q");
        assert_eq!(said, None, "nothing changed");
        let (s, said) = ack(&s, "sit, n mates");
        assert_eq!(
            said.as_deref(),
            Some("ok: sitting until you say go; N mates: I'll give almost anything for one")
        );
        let (s, said) = ack(&s, "gg");
        assert_eq!(said, None);
        let (_, said) = ack(&s, "nvm");
        assert_eq!(said.as_deref(), Some("ok: requests cleared"));
    }

    /// One "?" between two of our moves, only for a person, never for chat
    /// or a tell that was partly understood.
    #[test]
    fn unknown_tells_get_one_question_between_moves() {
        let mut talk = Talk::default();
        let unknown = read("what now");
        assert_eq!(talk.question("what now", &unknown), None, "not to a bot");
        talk.person = true;
        assert_eq!(talk.question("hi", &read("hi")), None);
        assert_eq!(talk.question("sit, blorp", &read("sit, blorp")), None);
        let q = talk.question("what now", &unknown).expect("answered");
        assert!(q.contains("'what now'") && q.contains("ptell help"), "{q}");
        assert_eq!(talk.question("what now", &unknown), None, "rate-limited");
        talk.new_move();
        assert!(talk.question("what now", &unknown).is_some());
    }

    #[test]
    fn bots_are_recognised_by_their_greetings() {
        for greeting in [
            "Hello! I am Sjeng and hope you enjoy playing with me.",
            "Hi.  Thanks for being my partner.  Tell me \"help\" for the commands I understand \
             and please visit http://www.d2d4.de/sunsetter.asp",
            "partner Fairy-Stockfish is an engine. Ask it 'help' for supported commands.",
            GREETING,
        ] {
            assert!(is_bot_greeting(greeting), "{greeting}");
        }
        for person in ["hi", "hello partner", "i need a knight", "are you a bot?"] {
            assert!(!is_bot_greeting(person), "{person}");
        }
        assert!(is_bot_acknowledgement("Ok, Knight mates"));
        assert!(is_bot_acknowledgement(
            "I play fast, tell me 'slow' to play normally again"
        ));
        assert!(!is_bot_acknowledgement("knight mates"));
    }

    /// The engine's words for people read back (by a person or by the
    /// reader) as what the short code means.
    #[test]
    fn words_for_people_mean_what_the_codes_mean() {
        for m in [
            PartnerMessage::MustHave(PieceType::Knight),
            PartnerMessage::MustNotGive(PieceType::Queen),
            PartnerMessage::Sit,
            PartnerMessage::Go,
        ] {
            let w = words(m);
            let r = read(&w);
            let kind = |r: &Reading| match r {
                Reading::Need(k, _) => Some((0, *k)),
                Reading::Ban(k, _) => Some((1, *k)),
                _ => None,
            };
            let same = r
                .iter()
                .any(|x| x == &m.reading() || kind(x).is_some() && kind(x) == kind(&m.reading()));
            assert!(same, "{w}: {r:?}");
        }
        assert_eq!(SitReason::PartnerAsked.words(), None);
        let s = SitReason::ForPiece(PieceType::Knight).words().unwrap();
        assert!(s.contains("N") && s.contains("say go"), "{s}");
    }
}
