//! Bughouse partner communication: the message vocabulary both protocols
//! share (UCI extension `bughouse ptell`, xboard `ptell`), the state it
//! leaves, and the engine's own requests to its partner.
//!
//! Vocabulary (case-insensitive), with the Sjeng/Sunsetter short forms:
//!
//! | message | short forms | meaning |
//! |---|---|---|
//! | `sit` | `s` | wait: do not move until `go` (or until the clock forbids it) |
//! | `go` | `g`, `move` | move again normally |
//! | `need <piece>` | `+n`, `++q`, `n`, `knight` | the partner needs that piece: capture it when you can |
//! | `dont give <piece>` | `don't give q`, `-q`, `--r` | do not let that piece be captured (it would reach the partner's opponent) |
//! | `no trades` | `---trades`, `-trades` | avoid giving anything |
//! | `trades` | `+trades`, `trades ok` | trades are fine again (clears `dont give`) |
//! | `dead` | | the partner is lost on his board: win fast |
//! | `x` | `alive` | the partner is no longer lost; stop sitting |
//! | `time <cs>`, `otim <cs>` | | the partner's clock and his opponent's |
//! | `fast` | | play faster |
//! | `slow` | | time may be used normally |
//! | `clear` | `ok`, `thanks` | forget the requests |

use crate::types::{Color, PieceType};

/// Moves of the receiving engine for which a `need` or `dont give` holds
/// unless the partner repeats it: a request is about the position it was
/// made in, not about the rest of the game.
pub const REQUEST_MOVES: u8 = 6;

/// What the partner has asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartnerState {
    /// The partner asked us to wait.
    pub sit: bool,
    /// Pieces the partner needs (P N B R Q).
    pub need: [bool; 5],
    /// Pieces we must not give away (P N B R Q).
    pub dont_give: [bool; 5],
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

impl PartnerState {
    /// Applies one message from the partner. Unknown text is an error and
    /// changes nothing.
    pub fn apply(&mut self, text: &str) -> Result<(), String> {
        let t = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = t.split_whitespace().collect();
        let first = words.first().copied().unwrap_or("");
        match first {
            "sit" | "s" | "wait" => self.sit = true,
            "go" | "g" | "move" => self.sit = false,
            "dead" => self.partner_dead = true,
            "x" | "alive" => {
                self.partner_dead = false;
                self.sit = false;
            }
            "time" | "otim" => {
                let cs: u64 = words
                    .get(1)
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| format!("{first} needs centiseconds"))?;
                if first == "time" {
                    self.partner_time_cs = Some(cs);
                } else {
                    self.partner_opponent_time_cs = Some(cs);
                }
            }
            "fast" => self.fast = true,
            "slow" => self.fast = false,
            "clear" | "ok" | "thanks" => {
                self.need = [false; 5];
                self.dont_give = [false; 5];
            }
            "trades" | "+trades" => self.dont_give = [false; 5],
            "no" if words.get(1) == Some(&"trades") => self.no_trades(),
            "need" | "want" => {
                let k = words
                    .get(1)
                    .and_then(|w| piece_word(w))
                    .ok_or_else(|| format!("need what? '{text}'"))?;
                self.set_need(k);
            }
            "dont" | "don't" | "do" => {
                let rest: Vec<&str> = words
                    .iter()
                    .skip(1)
                    .filter(|w| **w != "not" && **w != "give")
                    .copied()
                    .collect();
                let k = rest
                    .first()
                    .and_then(|w| piece_word(w))
                    .ok_or_else(|| format!("don't give what? '{text}'"))?;
                self.set_dont_give(k);
            }
            _ => {
                if first.starts_with('-') && first.ends_with("trades") {
                    self.no_trades();
                } else if let Some(rest) = first.strip_prefix('+') {
                    let k = piece_word(rest.trim_start_matches('+'))
                        .ok_or_else(|| format!("unknown partner message '{text}'"))?;
                    self.set_need(k);
                } else if let Some(rest) = first.strip_prefix('-') {
                    let k = piece_word(rest.trim_start_matches('-'))
                        .ok_or_else(|| format!("unknown partner message '{text}'"))?;
                    self.set_dont_give(k);
                } else if let Some(k) = piece_word(first) {
                    self.set_need(k);
                } else {
                    return Err(format!("unknown partner message '{text}'"));
                }
            }
        }
        Ok(())
    }

    fn set_need(&mut self, k: PieceType) {
        self.need[k.index()] = true;
        self.need_left[k.index()] = REQUEST_MOVES;
    }

    fn set_dont_give(&mut self, k: PieceType) {
        self.dont_give[k.index()] = true;
        self.dont_give_left[k.index()] = REQUEST_MOVES;
    }

    fn no_trades(&mut self) {
        self.dont_give = [true; 5];
        self.dont_give_left = [REQUEST_MOVES; 5];
    }

    /// One more move of ours: requests age, and those that have held for
    /// [`REQUEST_MOVES`] moves lapse.
    pub fn tick(&mut self) {
        for (flag, left) in self.need.iter_mut().zip(self.need_left.iter_mut()).chain(
            self.dont_give
                .iter_mut()
                .zip(self.dont_give_left.iter_mut()),
        ) {
            if *flag {
                *left = left.saturating_sub(1);
                if *left == 0 {
                    *flag = false;
                }
            }
        }
    }

    /// Evaluation bias for the side `us` to move: the opponent's pieces the
    /// partner needs are worth more to capture, our pieces that must not be
    /// given are worth more to keep. Indexed `[colour][piece]`.
    pub fn bias(&self, us: Color) -> [[i32; 5]; 2] {
        let mut b = [[0; 5]; 2];
        for (k, (&need, &keep)) in self.need.iter().zip(&self.dont_give).enumerate() {
            if need {
                b[us.flip().index()][k] += 150;
            }
            if keep {
                b[us.index()][k] += 150;
            }
        }
        b
    }

    /// Share of the normal thinking time to use (percent).
    pub fn time_percent(&self) -> u64 {
        if self.partner_dead || self.fast {
            50
        } else {
            100
        }
    }
}

/// A message for the partner, in the same vocabulary.
pub fn need_message(k: PieceType) -> String {
    format!("need {}", k.char())
}

/// A "do not give" message for the partner.
pub fn dont_give_message(k: PieceType) -> String {
    format!("dont give {}", k.char())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabulary_and_short_forms() {
        let mut s = PartnerState::default();
        s.apply("sit").unwrap();
        assert!(s.sit);
        s.apply("go").unwrap();
        assert!(!s.sit);
        s.apply("need knight").unwrap();
        s.apply("+q").unwrap();
        assert!(s.need[PieceType::Knight.index()] && s.need[PieceType::Queen.index()]);
        s.apply("don't give r").unwrap();
        s.apply("-b").unwrap();
        assert!(s.dont_give[PieceType::Rook.index()] && s.dont_give[PieceType::Bishop.index()]);
        s.apply("---trades").unwrap();
        assert!(s.dont_give.iter().all(|&x| x));
        s.apply("trades").unwrap();
        assert!(s.dont_give.iter().all(|&x| !x));
        s.apply("dead").unwrap();
        assert_eq!(s.time_percent(), 50);
        let before = s;
        assert!(s.apply("hello there").is_err());
        assert_eq!(s, before);
        let b = s.bias(Color::White);
        assert_eq!(b[Color::Black.index()][PieceType::Knight.index()], 150);
    }

    #[test]
    fn requests_lapse_after_some_moves_unless_repeated() {
        let mut s = PartnerState::default();
        s.apply("need n").unwrap();
        s.apply("-q").unwrap();
        for _ in 0..REQUEST_MOVES - 1 {
            s.tick();
        }
        assert!(s.need[PieceType::Knight.index()] && s.dont_give[PieceType::Queen.index()]);
        s.apply("+n").unwrap();
        s.tick();
        assert!(s.need[PieceType::Knight.index()], "repeated: holds again");
        assert!(!s.dont_give[PieceType::Queen.index()], "lapsed");
        assert_eq!(s.bias(Color::White)[Color::White.index()], [0; 5]);
    }
}
