//! Game-end detection per variant.

use super::board::Position;
use super::movegen::MoveCounter;
use crate::rules::StalemateRule;
use crate::types::{Color, PieceType};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move is mated (bughouse: with no empty interposition square).
    Checkmate,
    /// The side to move has no legal move and is not in check: a draw (in
    /// suicide when both sides have as many pieces), or in antichess and
    /// giveaway a win for the stalemated side.
    Stalemate,
    /// Suicide: the side to move has no legal move, and the side with
    /// fewer pieces on the board wins.
    FewerPieces,
    /// Antichess/giveaway/suicide: the side to move has no pieces left.
    NoPieces,
    /// King's chess: the side to move has no king move on the last move of a period.
    KingDutyMissed,
    /// 100 plies without capture or pawn move (variants that apply the rule).
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
    /// Neither side can mate (chess and King's chess only).
    InsufficientMaterial,
}

/// A game's end seen from one side (the side to move, unless said
/// otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideResult {
    /// That side wins.
    Win,
    /// Nobody wins.
    Draw,
    /// That side loses.
    Loss,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: EndReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: EndReason,
    },
}

impl Outcome {
    /// PGN result string.
    pub fn result(&self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                write!(f, "{} {winner:?} wins by {reason:?}", self.result())
            }
            Outcome::Draw { reason } => write!(f, "{} draw by {reason:?}", self.result()),
        }
    }
}

impl Position {
    /// The outcome decided by this position alone (mate, stalemate, variant
    /// ends, 50-move rule, insufficient material), or `None` while play goes
    /// on. Repetition needs the game's history: see [`is_repetition`].
    ///
    /// On a bughouse board a side without legal moves is not lost while a
    /// piece from the partner could still help: a check with an empty
    /// interposition square, or no move at all without check, means "wait".
    pub fn outcome(&self) -> Option<Outcome> {
        let us = self.side_to_move();
        let rules = *self.rules();
        if rules.losers_win {
            if self.color_bb(us).is_empty() {
                return Some(Outcome::Win {
                    winner: us,
                    reason: EndReason::NoPieces,
                });
            }
            if !self.has_legal_move() {
                let reason = match rules.stalemate {
                    StalemateRule::FewerPiecesWin => EndReason::FewerPieces,
                    StalemateRule::Wins | StalemateRule::Draw => EndReason::Stalemate,
                };
                return Some(match self.stalemate_result() {
                    SideResult::Win => Outcome::Win { winner: us, reason },
                    SideResult::Loss => Outcome::Win {
                        winner: us.flip(),
                        reason,
                    },
                    SideResult::Draw => Outcome::Draw {
                        reason: EndReason::Stalemate,
                    },
                });
            }
            return None;
        }
        if !self.has_legal_move() {
            if self.duty_pending() {
                let mut all = MoveCounter::default();
                self.generate_ignoring_duty(&mut all);
                if all.0 > 0 {
                    return Some(Outcome::Win {
                        winner: us.flip(),
                        reason: EndReason::KingDutyMissed,
                    });
                }
            }
            if self.in_check() {
                if rules.two_boards && self.check_is_blockable_by_drop() {
                    return None;
                }
                return Some(Outcome::Win {
                    winner: us.flip(),
                    reason: EndReason::Checkmate,
                });
            }
            if rules.two_boards {
                return None;
            }
            return Some(Outcome::Draw {
                reason: EndReason::Stalemate,
            });
        }
        if rules.fifty_move_rule && self.halfmove_clock() >= 100 {
            return Some(Outcome::Draw {
                reason: EndReason::FiftyMoves,
            });
        }
        if !rules.drops && self.insufficient_material() {
            return Some(Outcome::Draw {
                reason: EndReason::InsufficientMaterial,
            });
        }
        None
    }

    /// The result for the side to move, were it without a legal move and
    /// not mated, by [`crate::rules::Rules::stalemate`]: the caller knows
    /// that there is no legal move (this does not look). In suicide the
    /// side with fewer pieces on the board wins; a side with no pieces left
    /// wins (as [`Position::outcome`] says) even on an empty board.
    #[inline]
    pub fn stalemate_result(&self) -> SideResult {
        match self.rules().stalemate {
            StalemateRule::Draw => SideResult::Draw,
            StalemateRule::Wins => SideResult::Win,
            StalemateRule::FewerPiecesWin => {
                let us = self.side_to_move();
                let ours = self.color_bb(us).count();
                let theirs = self.color_bb(us.flip()).count();
                if ours == 0 {
                    return SideResult::Win;
                }
                match ours.cmp(&theirs) {
                    std::cmp::Ordering::Less => SideResult::Win,
                    std::cmp::Ordering::Equal => SideResult::Draw,
                    std::cmp::Ordering::Greater => SideResult::Loss,
                }
            }
        }
    }

    /// Bughouse mate rule: is the side to move in a single check with at
    /// least one empty square between king and checker (a dropped piece
    /// could block it)?
    pub fn check_is_blockable_by_drop(&self) -> bool {
        let checkers = self.checkers();
        if checkers.is_empty() || checkers.more_than_one() {
            return false;
        }
        let king = self.king_sq(self.side_to_move());
        crate::attacks::between(king, checkers.lsb()).nonempty()
    }

    /// Only kings, or kings and a single minor piece: nobody can mate.
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.kind_bb(PieceType::Pawn)
            | self.kind_bb(PieceType::Rook)
            | self.kind_bb(PieceType::Queen);
        if heavy.nonempty() {
            return false;
        }
        let minors = self.kind_bb(PieceType::Knight) | self.kind_bb(PieceType::Bishop);
        minors.count() <= 1
    }
}

/// Has the position whose key is `keys.last()` occurred `times` times in
/// total among the positions since the last irreversible move? `keys` holds
/// the game's keys in order; `halfmove_clock` bounds how far back to look.
pub fn is_repetition(keys: &[u64], halfmove_clock: usize, times: usize) -> bool {
    let Some(&last) = keys.last() else {
        return false;
    };
    let window = keys.len().saturating_sub(halfmove_clock + 1);
    let seen = keys[window..]
        .iter()
        .rev()
        .step_by(2)
        .filter(|&&k| k == last)
        .count();
    seen >= times
}
