//! Bughouse partner communication: the messages the engine sends its
//! partner (short codes, the Sjeng/Fairy-Stockfish vocabulary that bots
//! read), and the state the partner's tells leave ([`PartnerState`]).
//! What a partner says is read by [`crate::bughouse::tell::read`] into
//! [`Reading`]s, which [`PartnerState::apply`] takes.
//!
//! Requests come in three levels ([`Level`]): 1 would like, 2 needed,
//! 3 it mates. A `need` lapses after [`REQUEST_MOVES`] of the receiver's
//! moves unless it is repeated (it is about the position it was made in); a
//! ban holds until the partner cancels it (`nvm`) or says trades are good
//! again, as a person who says "no q" once means it.

use super::tell::{Level, Reading};
use crate::types::PieceType;
use std::fmt;

/// Moves of the receiving engine for which a `need` (and a partner's
/// "no piece is coming") holds unless the partner repeats it: a request is
/// about the position it was made in, not about the rest of the game. A
/// sender repeats a request that still applies once it has lapsed, and
/// not before. Bans do not lapse.
pub const REQUEST_MOVES: u8 = 6;

/// A message the engine sends its partner, as a short code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartnerMessage {
    /// Wait: do not move until `go` (we are mating).
    Sit,
    /// Move again normally.
    Go,
    /// Capture a piece of this kind for me: it mates (`++n`).
    MustHave(PieceType),
    /// Keep every piece of this kind: in my opponent's hand it mates me (`--q`).
    MustNotGive(PieceType),
    /// Trades are fine again: the bans we asked for no longer hold.
    Trades,
    /// I am lost on my board: win fast.
    Dead,
    /// I am no longer lost (`x`).
    Alive,
}

impl PartnerMessage {
    /// What the message means to a partner that reads it
    /// ([`crate::bughouse::tell::read`] reads its text as exactly this).
    pub fn reading(self) -> Reading {
        match self {
            PartnerMessage::Sit => Reading::Sit,
            PartnerMessage::Go => Reading::Go,
            PartnerMessage::MustHave(k) => Reading::Need(k, Level::Need),
            PartnerMessage::MustNotGive(k) => Reading::Ban(k, Level::Need),
            PartnerMessage::Trades => Reading::TradesGood,
            PartnerMessage::Dead => Reading::Dead,
            PartnerMessage::Alive => Reading::Alive,
        }
    }
}

impl fmt::Display for PartnerMessage {
    /// The short code (what the engine says to a bot partner).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartnerMessage::Sit => f.write_str("sit"),
            PartnerMessage::Go => f.write_str("go"),
            PartnerMessage::MustHave(k) => write!(f, "++{}", k.char()),
            PartnerMessage::MustNotGive(k) => write!(f, "--{}", k.char()),
            PartnerMessage::Trades => f.write_str("trades"),
            PartnerMessage::Dead => f.write_str("dead"),
            PartnerMessage::Alive => f.write_str("x"),
        }
    }
}

/// The answer to [`Reading::Help`]: how to talk to the engine, in one line.
pub const HELP: &str = "I understand: sit, go, fast, slow, need n / +n / n (++n, n mates: more), \
    no q / -q / dont give q (--q, q mates me: more), trades good, trades bad, nvm, dead, x, \
    sitting / hard to get (no piece comes), up / down (your clock against your opponent's), \
    move e2e4 (I play it), time <cs>, otim <cs>; pieces p n b r q";

/// What the partner has asked for and said about his board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartnerState {
    /// The partner asked us to wait.
    pub sit: bool,
    /// The level of each piece the partner needs (P N B R Q; `None`: not needed).
    pub need: [Option<Level>; 5],
    /// The level of each piece we must not give away.
    pub ban: [Option<Level>; 5],
    /// The partner is lost on his board.
    pub partner_dead: bool,
    /// No piece is coming from the partner's board (he sits, or cannot get it).
    pub unavailable: bool,
    /// Play faster than usual.
    pub fast: bool,
    /// The partner's clock as he told it (`time <cs>`).
    pub partner_time_cs: Option<u64>,
    /// His opponent's clock (`otim <cs>`).
    pub partner_opponent_time_cs: Option<u64>,
    /// Whether he is ahead of his opponent on the clock, as he said it in
    /// words (`up`, `i'm down 10`); his latest word on his clock wins over
    /// `time`/`otim` told before, and the other way round.
    pub partner_ahead: Option<bool>,
    /// Moves left for each `need` (see [`REQUEST_MOVES`]).
    pub need_left: [u8; 5],
    /// Moves left for `unavailable`.
    pub unavailable_left: u8,
}

impl PartnerState {
    /// Can the partner afford to sit? Not when he told us that he is
    /// behind his opponent on the clock (`down`, or `time` below `otim`);
    /// yes when he is level or ahead, or has not said.
    pub fn may_sit(&self) -> bool {
        if let Some(ahead) = self.partner_ahead {
            return ahead;
        }
        match (self.partner_time_cs, self.partner_opponent_time_cs) {
            (Some(own), Some(theirs)) => own >= theirs,
            _ => true,
        }
    }

    /// Applies one reading of the partner's tell.
    pub fn apply(&mut self, reading: &Reading) {
        match *reading {
            Reading::Sit => self.sit = true,
            // A dictated move is not played (yet): it ends a sit as `go` does.
            Reading::Go | Reading::Move(_) => self.sit = false,
            Reading::Dead => self.partner_dead = true,
            Reading::Alive => {
                self.partner_dead = false;
                self.sit = false;
            }
            Reading::Unavailable => {
                self.unavailable = true;
                self.unavailable_left = REQUEST_MOVES;
            }
            Reading::Time(cs) => {
                self.partner_time_cs = Some(cs);
                self.partner_ahead = None;
            }
            Reading::Otim(cs) => {
                self.partner_opponent_time_cs = Some(cs);
                self.partner_ahead = None;
            }
            Reading::Up(_) | Reading::Down(_) => {
                self.partner_ahead = Some(matches!(reading, Reading::Up(_)));
                self.partner_time_cs = None;
                self.partner_opponent_time_cs = None;
            }
            Reading::Fast => self.fast = true,
            Reading::Slow => self.fast = false,
            Reading::Cancel => {
                self.need = [None; 5];
                self.ban = [None; 5];
                self.sit = false;
                self.unavailable = false;
            }
            Reading::TradesGood => self.ban = [None; 5],
            Reading::TradesBad => {
                for b in &mut self.ban {
                    *b = Some(b.map_or(Level::Like, |l| l.max(Level::Like)));
                }
            }
            Reading::Need(k, level) => {
                self.need[k.index()] = Some(level);
                self.need_left[k.index()] = REQUEST_MOVES;
            }
            Reading::Ban(k, level) => self.ban[k.index()] = Some(level),
            Reading::Help | Reading::Chat | Reading::Unknown => {}
        }
    }

    /// One more move of ours: needs age, and those that have held for
    /// [`REQUEST_MOVES`] moves lapse (bans do not).
    pub fn tick(&mut self) {
        for (need, left) in self.need.iter_mut().zip(&mut self.need_left) {
            if need.is_some() {
                *left = left.saturating_sub(1);
                if *left == 0 {
                    *need = None;
                }
            }
        }
        if self.unavailable {
            self.unavailable_left = self.unavailable_left.saturating_sub(1);
            self.unavailable = self.unavailable_left > 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bughouse::tell::read;

    fn hear(s: &mut PartnerState, text: &str) {
        for r in read(text) {
            s.apply(&r);
        }
    }

    /// What the engine says reads back as what it means.
    #[test]
    fn what_the_engine_says_reads_back() {
        let mut all = vec![
            PartnerMessage::Sit,
            PartnerMessage::Go,
            PartnerMessage::Trades,
            PartnerMessage::Dead,
            PartnerMessage::Alive,
        ];
        for k in PieceType::POCKET {
            all.push(PartnerMessage::MustHave(k));
            all.push(PartnerMessage::MustNotGive(k));
        }
        for m in all {
            assert_eq!(read(&m.to_string()), vec![m.reading()], "{m}");
        }
    }

    #[test]
    fn needs_lapse_after_some_moves_unless_repeated_and_bans_hold() {
        let (n, q) = (PieceType::Knight.index(), PieceType::Queen.index());
        let mut s = PartnerState::default();
        hear(&mut s, "need n");
        hear(&mut s, "-q");
        for _ in 0..REQUEST_MOVES - 1 {
            s.tick();
        }
        assert_eq!(s.need[n], Some(Level::Need));
        hear(&mut s, "+n");
        s.tick();
        assert_eq!(s.need[n], Some(Level::Like), "repeated: holds again");
        for _ in 0..3 * REQUEST_MOVES {
            s.tick();
        }
        assert_eq!(s.need[n], None, "lapsed");
        assert_eq!(s.ban[q], Some(Level::Like), "a ban holds");
        hear(&mut s, "trades good");
        assert_eq!(s.ban, [None; 5]);
    }

    /// Chat keeps what stands; `nvm` forgets requests and the sit; trades
    /// bad bans everything at least at level 1 without lowering a ban.
    #[test]
    fn chat_keeps_and_cancel_forgets() {
        let q = PieceType::Queen.index();
        let mut s = PartnerState::default();
        hear(&mut s, "q mates me");
        hear(&mut s, "sit");
        for chat in ["ok", "thanks", "hi", "gg"] {
            hear(&mut s, chat);
        }
        assert_eq!(s.ban[q], Some(Level::Mates));
        assert!(s.sit);
        hear(&mut s, "trades bad");
        assert_eq!(s.ban[q], Some(Level::Mates));
        assert_eq!(s.ban[PieceType::Pawn.index()], Some(Level::Like));
        hear(&mut s, "nvm");
        assert_eq!(s, PartnerState::default());
    }

    #[test]
    fn no_piece_coming_lapses_like_a_need() {
        let mut s = PartnerState::default();
        hear(&mut s, "hard to get");
        assert!(s.unavailable);
        for _ in 0..REQUEST_MOVES {
            s.tick();
        }
        assert!(!s.unavailable);
    }
}
