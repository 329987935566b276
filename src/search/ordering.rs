//! Move ordering: scores in named bands (TT move, good captures, killers,
//! counter move, safe quiet checks or antichess offers, quiet moves by
//! history, bad captures), and the history, killer and counter-move tables
//! that learn from cutoffs.

use super::checks::CheckInfo;
use super::params;
use super::see::see;
use super::worker::Worker;
use super::MATE_BOUND;
use crate::eval::PIECE_VALUE;
use crate::position::movegen::{MoveList, MAX_MOVES};
use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceType};

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

/// Antichess and giveaway: the quiet move `m` (not a capture or a
/// promotion) goes to a square the opponent attacks, so the opponent must
/// capture: tactical, ordered early and never pruned or reduced.
#[inline(always)]
pub(super) fn offers_capture(pos: &Position, m: Move) -> bool {
    pos.rules().losers_win
        && !m.is_drop()
        && pos.attacked_by(m.to(), pos.side_to_move().flip(), pos.occupied())
}

/// Entries of the butterfly table: from-to of board moves, then piece-to of drops.
pub(super) const HIST_SIZE: usize = 64 * 64 + 5 * 64;
/// History values stay within +-HIST_MAX.
const HIST_MAX: i32 = 16384;
/// Entries of the piece-to tables: the moving piece (with its colour; a
/// drop counts as its piece) and the target square.
pub(super) const PIECE_TO: usize = 12 * 64;
/// The continuation row of "no move" (the root, a null move): always zero.
pub(super) const NO_PIECE_TO: usize = PIECE_TO;

/// The butterfly-table entry of a move.
#[inline(always)]
pub(super) fn hist_index(m: Move) -> usize {
    if m.is_drop() {
        4096 + m.drop_piece().index() * 64 + m.to().index()
    } else {
        m.from().index() * 64 + m.to().index()
    }
}

/// The piece-to entry of `m` in `pos` (before it is made).
#[inline(always)]
pub(super) fn piece_to(pos: &Position, m: Move) -> usize {
    let piece = Piece::new(pos.side_to_move(), pos.moved_kind(m));
    piece.index() * 64 + m.to().index()
}

/// Moves with their outcome: killers, counter moves and histories that
/// learn from cutoffs and order the moves of later nodes.
pub struct Histories {
    /// Quiet moves by side and from-to (drops: piece-to).
    butterfly: [[i32; HIST_SIZE]; 2],
    /// The quiet move that refuted each move last (by the refuted move's butterfly entry).
    counter: [Move; HIST_SIZE],
    /// Quiet moves by the piece-to of the move one or two plies before and
    /// their own piece-to (row [`NO_PIECE_TO`] stays zero).
    continuation: Vec<[i16; PIECE_TO]>,
    /// Captures by piece-to and the captured kind.
    capture: Vec<[i16; 6]>,
    /// What searches found beyond the static evaluation, by side to move
    /// and the pawns and pockets of the position ([`correction_index`]), in
    /// 1/[`CORRECTION_GRAIN`] centipawns.
    correction: [[i32; CORRECTION_SIZE]; 2],
}

/// Entries of the correction table per side.
const CORRECTION_SIZE: usize = 1 << 14;
/// Correction entries count 1/256 centipawn.
const CORRECTION_GRAIN: i32 = 256;
/// Corrections stay within +-100 centipawns.
const CORRECTION_MAX: i32 = 100 * CORRECTION_GRAIN;

/// The correction-table entry of a position: a hash of both sides' pawns
/// and both pockets, what static evaluations most often misjudge in the
/// same way (pawn structure, pieces waiting to drop).
#[inline(always)]
fn correction_index(pos: &Position) -> usize {
    let white = pos.pieces(Color::White, PieceType::Pawn).0;
    let black = pos.pieces(Color::Black, PieceType::Pawn).0;
    let mut pockets = 0u64;
    for c in Color::ALL {
        for k in PieceType::POCKET {
            pockets = pockets << 6 | u64::from(pos.pocket(c, k).min(63));
        }
    }
    let h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29)
        ^ pockets.wrapping_mul(0x1656_67B1_9E37_79F9).rotate_left(47);
    (h >> 50) as usize & (CORRECTION_SIZE - 1)
}

impl Histories {
    /// Empty tables (on the heap: together about 1.3 MB).
    pub fn new() -> Box<Histories> {
        Box::new(Histories {
            butterfly: [[0; HIST_SIZE]; 2],
            counter: [Move::NULL; HIST_SIZE],
            continuation: vec![[0; PIECE_TO]; PIECE_TO + 1],
            capture: vec![[0; 6]; PIECE_TO],
            correction: [[0; CORRECTION_SIZE]; 2],
        })
    }

    /// `raw` (a static evaluation of `pos`) with the learned correction.
    #[inline(always)]
    pub(super) fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        let c = self.correction[pos.side_to_move().index()][correction_index(pos)];
        (raw + c / CORRECTION_GRAIN).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// A search of `pos` to `depth` found `score` where the static
    /// evaluation said `raw`: the correction moves towards the difference,
    /// the more the deeper the search.
    pub(super) fn learn_correction(&mut self, pos: &Position, raw: i32, score: i32, depth: i32) {
        let e = &mut self.correction[pos.side_to_move().index()][correction_index(pos)];
        let target = (score - raw).clamp(-400, 400) * CORRECTION_GRAIN;
        let weight = (depth + 1).min(16);
        *e = ((*e * (256 - weight) + target * weight) / 256).clamp(-CORRECTION_MAX, CORRECTION_MAX);
    }
}

/// Moves the value `h` towards `bonus` (negative: a malus), keeping it
/// within +-HIST_MAX (the "gravity" update).
#[inline(always)]
fn nudge(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HIST_MAX
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
        let h = &*self.hist;
        let losers = pos.rules().losers_win;
        let counter = if ply > 0 {
            let p = self.prev_move[ply - 1];
            if p.is_null() {
                Move::NULL
            } else {
                h.counter[hist_index(p)]
            }
        } else {
            Move::NULL
        };
        let (cont1, cont2) = (self.cont_row(ply, 1), self.cont_row(ply, 2));
        for &m in moves.iter() {
            let score = if m == tt_move {
                TT_MOVE
            } else if let Some(victim) = pos.captured_kind(m) {
                let learned = i32::from(h.capture[piece_to(pos, m)][victim.index()]);
                let mvv = mvv_lva(pos, m, victim) + learned / params::capture_history_div();
                if losers || see(pos, m) >= 0 {
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
                let pt = piece_to(pos, m);
                let h = h.butterfly[us.index()][hist_index(m)]
                    + i32::from(h.continuation[cont1][pt])
                    + i32::from(h.continuation[cont2][pt]);
                if offers_capture(pos, m) {
                    QUIET_CHECK + h
                } else if checks.gives_check(pos, m) {
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

    /// The continuation row of the move `back` plies before `ply`.
    #[inline(always)]
    pub(super) fn cont_row(&self, ply: usize, back: usize) -> usize {
        self.piece_to[ply + 2 - back]
    }

    /// A move caused a cutoff at `ply`: a quiet one gains history (butterfly
    /// and continuation), the quiet moves tried before it lose some, and it
    /// becomes a killer and the counter move to the opponent's last move; a
    /// capture gains capture history. Every capture tried before it loses
    /// some.
    pub(super) fn update_cutoff_stats(
        &mut self,
        pos: &Position,
        best: Move,
        quiets: &[Move],
        captures: &[Move],
        depth: i32,
        ply: usize,
    ) {
        let us = pos.side_to_move().index();
        let bonus = (depth * depth + depth).min(params::history_bonus_max());
        let (cont1, cont2) = (self.cont_row(ply, 1), self.cont_row(ply, 2));
        let h = &mut *self.hist;
        if let Some(victim) = pos.captured_kind(best) {
            let e = &mut h.capture[piece_to(pos, best)][victim.index()];
            *e = nudge(i32::from(*e), bonus) as i16;
        } else if !best.is_promotion() {
            for (m, b) in std::iter::once((best, bonus)).chain(quiets.iter().map(|&m| (m, -bonus)))
            {
                let butterfly = &mut h.butterfly[us][hist_index(m)];
                *butterfly = nudge(*butterfly, b);
                let pt = piece_to(pos, m);
                for row in [cont1, cont2] {
                    if row != NO_PIECE_TO {
                        let e = &mut h.continuation[row][pt];
                        *e = nudge(i32::from(*e), b) as i16;
                    }
                }
            }
            if self.killers[ply][0] != best {
                self.killers[ply][1] = self.killers[ply][0];
                self.killers[ply][0] = best;
            }
            if ply > 0 {
                let p = self.prev_move[ply - 1];
                if !p.is_null() {
                    h.counter[hist_index(p)] = best;
                }
            }
        }
        for &m in captures {
            if let Some(victim) = pos.captured_kind(m) {
                let e = &mut h.capture[piece_to(pos, m)][victim.index()];
                *e = nudge(i32::from(*e), -bonus) as i16;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// In antichess a quiet move that forces the opponent to capture is
    /// ordered above every plain quiet move; in chess the same move is not.
    #[test]
    fn antichess_orders_offers_first() {
        // The black pawn on e4 attacks f3: Nf3 offers the knight, Nh3 does not.
        let fen = "4k3/8/8/8/4p3/8/8/4K1N1 w - - 0 1";
        for (variant, offers_first) in [(Variant::Antichess, true), (Variant::Chess, false)] {
            let pos = Position::from_fen(fen, variant.rules()).expect("valid FEN");
            let w = Worker::for_test(&pos);
            let moves = pos.legal_moves();
            let scores = w.score_moves(&pos, &moves, Move::NULL, 0, &CheckInfo::new(&pos));
            let score_of = |uci: &str| {
                let i = moves.iter().position(|m| m.to_string() == uci).expect(uci);
                scores[i]
            };
            let offer = score_of("g1f3");
            assert_eq!(!is_plain_quiet(offer), offers_first, "{variant:?}: {offer}");
            assert!(is_plain_quiet(score_of("g1h3")), "{variant:?}");
        }
    }
}
