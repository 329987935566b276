//! Move ordering: scores in named bands (TT move, good captures, killers,
//! counter move, safe quiet checks, quiet moves by history, bad captures),
//! and the history, killer and counter-move tables that learn from cutoffs.

use super::checks::CheckInfo;
use super::params;
use super::see::see;
use super::worker::Worker;
use crate::eval::PIECE_VALUE;
use crate::position::movegen::{MoveList, MAX_MOVES};
use crate::position::Position;
use crate::types::{Move, PieceType};

/// Ordering scores, one per move of a `MoveList`.
pub(super) type ScoreList = arrayvec::ArrayVec<i32, MAX_MOVES>;

/// Band of the move from the transposition table.
pub(super) const TT_MOVE: i32 = 1 << 30;
/// Band of captures that do not lose material, and queen promotions (plus MVV-LVA).
pub(super) const GOOD_CAPTURE: i32 = 1 << 28;
/// Band of the first killer move (the second is one below).
pub(super) const KILLER: i32 = 1 << 27;
/// Band of the counter move to the opponent's last move.
pub(super) const COUNTER_MOVE: i32 = 1 << 26;
/// Band of quiet checks that do not lose material (plus history).
pub(super) const QUIET_CHECK: i32 = 1 << 25;
/// Band of captures that lose material (plus MVV-LVA).
pub(super) const BAD_CAPTURE: i32 = -(1 << 20);
/// Under-promotions.
pub(super) const UNDER_PROMOTION: i32 = -(1 << 21);
/// Quiet checks that lose material sit this far below their history.
const UNSAFE_CHECK_PENALTY: i32 = 4000;
/// Everything below this is a bad capture or an under-promotion: quiet
/// moves score their history, bounded far above it.
const QUIET_FLOOR: i32 = BAD_CAPTURE + (1 << 19);

/// A quiet move ordered by its history alone (not the TT move, a killer,
/// the counter move or a safe check): what late-move pruning may skip.
#[inline(always)]
pub(super) fn is_plain_quiet(score: i32) -> bool {
    (QUIET_FLOOR..QUIET_CHECK).contains(&score)
}

/// A bad capture or an under-promotion.
#[inline(always)]
pub(super) fn is_bad_tactical(score: i32) -> bool {
    score < QUIET_FLOOR
}

/// Entries of the history tables: from-to of board moves, then piece-to of drops.
pub(super) const HIST_SIZE: usize = 64 * 64 + 5 * 64;
/// History values stay within +-HIST_MAX.
const HIST_MAX: i32 = 16384;

/// The history-table entry of a move.
#[inline(always)]
pub(super) fn hist_index(m: Move) -> usize {
    if m.is_drop() {
        4096 + m.drop_piece().index() * 64 + m.to().index()
    } else {
        m.from().index() * 64 + m.to().index()
    }
}

/// Most valuable victim, least valuable attacker.
#[inline(always)]
pub(super) fn mvv_lva(pos: &Position, m: Move, victim: PieceType) -> i32 {
    PIECE_VALUE[victim.index()] * 8 - PIECE_VALUE[pos.moved_kind(m).index()] / 100
}

impl Worker {
    /// Ordering scores of `moves` at `ply`.
    pub(super) fn score_moves(
        &self,
        pos: &Position,
        moves: &MoveList,
        tt_move: Move,
        ply: usize,
        checks: &CheckInfo,
    ) -> ScoreList {
        let mut scores = ScoreList::new();
        let us = pos.side_to_move();
        let killers = self.killers[ply];
        let counter = if ply > 0 {
            let p = self.prev_move[ply - 1];
            if p.is_null() {
                Move::NULL
            } else {
                self.counter[hist_index(p)]
            }
        } else {
            Move::NULL
        };
        for &m in moves.iter() {
            let score = if m == tt_move {
                TT_MOVE
            } else if let Some(victim) = pos.captured_kind(m) {
                let mvv = mvv_lva(pos, m, victim);
                if pos.rules().losers_win || see(pos, m) >= 0 {
                    GOOD_CAPTURE + mvv
                } else {
                    BAD_CAPTURE + mvv
                }
            } else if m.is_promotion() {
                if m.promotion_piece() == PieceType::Queen {
                    GOOD_CAPTURE + 800
                } else {
                    UNDER_PROMOTION
                }
            } else if m == killers[0] {
                KILLER
            } else if m == killers[1] {
                KILLER - 1
            } else if m == counter {
                COUNTER_MOVE
            } else {
                let h = self.history[us.index()][hist_index(m)];
                if checks.gives_check(pos, m) {
                    if see(pos, m) >= 0 {
                        QUIET_CHECK + h
                    } else {
                        h - UNSAFE_CHECK_PENALTY
                    }
                } else {
                    h
                }
            };
            scores.push(score);
        }
        scores
    }

    /// A quiet move caused a cutoff: it gains history, the quiet moves
    /// tried before it lose some, and it becomes a killer and the counter
    /// move to the opponent's last move.
    pub(super) fn update_quiet_stats(
        &mut self,
        pos: &Position,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
    ) {
        let us = pos.side_to_move().index();
        let bonus = (depth * depth + depth).min(params::history_bonus_max());
        let apply = |h: &mut i32, b: i32| {
            *h += b - *h * b.abs() / HIST_MAX;
        };
        apply(&mut self.history[us][hist_index(best)], bonus);
        for &m in tried {
            if m != best {
                apply(&mut self.history[us][hist_index(m)], -bonus);
            }
        }
        if self.killers[ply][0] != best {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best;
        }
        if ply > 0 {
            let p = self.prev_move[ply - 1];
            if !p.is_null() {
                self.counter[hist_index(p)] = best;
            }
        }
    }
}
