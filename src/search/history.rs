//! The tables that learn from a search's cutoffs and results: quiet-move
//! history (butterfly and continuation), capture history, counter moves,
//! and the correction of the static evaluation. They know positions and
//! moves only, nothing of the search that feeds them.

use super::score::MATE_BOUND;
use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceType};

/// Entries of the butterfly table: from-to of board moves, then piece-to of drops.
pub(super) const HIST_SIZE: usize = 64 * 64 + 5 * 64;
/// The first butterfly entry of drops (after every from-to pair).
const DROP_ENTRIES_START: usize = 64 * 64;
/// History values stay within +-HIST_MAX.
const HIST_MAX: i32 = 16384;
/// Entries of the piece-to tables: the moving piece (with its colour; a
/// drop counts as its piece) and the target square.
pub(super) const PIECE_TO: usize = 12 * 64;
/// The continuation row of "no move" (the root, a null move): always zero.
pub(super) const NO_PIECE_TO: usize = PIECE_TO;

/// Entries of the correction table per side.
const CORRECTION_SIZE: usize = 1 << 14;
/// Correction entries count 1/256 centipawn.
const CORRECTION_GRAIN: i32 = 256;
/// Corrections stay within +-100 centipawns.
const CORRECTION_MAX: i32 = 100 * CORRECTION_GRAIN;
/// The largest difference between search and static evaluation one update
/// learns from (centipawns).
const CORRECTION_TARGET_MAX: i32 = 400;
/// An update moves the entry `min(depth + 1, CORRECTION_WEIGHT_MAX)` /
/// [`CORRECTION_WEIGHT_SCALE`] of the way to its target.
const CORRECTION_WEIGHT_MAX: i32 = 16;
/// The denominator of a correction update's weight.
const CORRECTION_WEIGHT_SCALE: i32 = 256;

/// The butterfly-table entry of a move.
#[inline(always)]
pub(super) fn hist_index(m: Move) -> usize {
    if m.is_drop() {
        DROP_ENTRIES_START + m.drop_piece().index() * 64 + m.to().index()
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

/// Moves the value `h` towards `bonus` (negative: a malus), keeping it
/// within +-HIST_MAX (the "gravity" update).
#[inline(always)]
fn nudge(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HIST_MAX
}

/// The correction-table entry of a position: a hash of both sides' pawns
/// and both pockets, what static evaluations most often misjudge in the
/// same way (pawn structure, pieces waiting to drop).
#[inline(always)]
fn correction_index(pos: &Position) -> usize {
    const POCKET_FIELD_BITS: u32 = 6;
    const POCKET_FIELD_MAX: u8 = (1 << POCKET_FIELD_BITS) - 1;
    let white = pos.pieces(Color::White, PieceType::Pawn).0;
    let black = pos.pieces(Color::Black, PieceType::Pawn).0;
    let mut pockets = 0u64;
    for c in Color::ALL {
        for k in PieceType::POCKET {
            pockets =
                pockets << POCKET_FIELD_BITS | u64::from(pos.pocket(c, k).min(POCKET_FIELD_MAX));
        }
    }
    // Odd 64-bit multipliers and rotations mix the three parts; the top
    // bits index the table.
    let h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29)
        ^ pockets.wrapping_mul(0x1656_67B1_9E37_79F9).rotate_left(47);
    (h >> 50) as usize & (CORRECTION_SIZE - 1)
}

/// The continuation rows of a node: the piece-to of the moves one and two
/// plies before it ([`NO_PIECE_TO`] where there was none).
#[derive(Clone, Copy, Debug)]
pub(super) struct ContinuationRows {
    /// The opponent's last move.
    pub one_back: usize,
    /// Our own last move.
    pub two_back: usize,
}

/// Moves with their outcome: counter moves and histories that learn from
/// cutoffs and order the moves of later nodes, and the correction of the
/// static evaluation.
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

    /// The history of the quiet move `m` of `pos`: butterfly plus both
    /// continuation rows.
    #[inline(always)]
    pub(super) fn quiet(&self, pos: &Position, m: Move, rows: ContinuationRows) -> i32 {
        let pt = piece_to(pos, m);
        self.butterfly[pos.side_to_move().index()][hist_index(m)]
            + i32::from(self.continuation[rows.one_back][pt])
            + i32::from(self.continuation[rows.two_back][pt])
    }

    /// The learned value of the capture `m` of `victim`.
    #[inline(always)]
    pub(super) fn capture(&self, pos: &Position, m: Move, victim: PieceType) -> i32 {
        i32::from(self.capture[piece_to(pos, m)][victim.index()])
    }

    /// The quiet move that last refuted `previous` (null for none or a null move).
    #[inline(always)]
    pub(super) fn counter_move(&self, previous: Move) -> Move {
        if previous.is_null() {
            Move::NULL
        } else {
            self.counter[hist_index(previous)]
        }
    }

    /// The quiet move `best` caused a cutoff after `previous`: it gains
    /// `bonus` (butterfly and continuation), the quiet moves tried before
    /// it lose as much, and it becomes the counter move to `previous`.
    pub(super) fn reward_quiet(
        &mut self,
        pos: &Position,
        best: Move,
        quiets_tried: &[Move],
        bonus: i32,
        rows: ContinuationRows,
        previous: Move,
    ) {
        let us = pos.side_to_move().index();
        for (m, b) in
            std::iter::once((best, bonus)).chain(quiets_tried.iter().map(|&m| (m, -bonus)))
        {
            let butterfly = &mut self.butterfly[us][hist_index(m)];
            *butterfly = nudge(*butterfly, b);
            let pt = piece_to(pos, m);
            for row in [rows.one_back, rows.two_back] {
                if row != NO_PIECE_TO {
                    let e = &mut self.continuation[row][pt];
                    *e = nudge(i32::from(*e), b) as i16;
                }
            }
        }
        if !previous.is_null() {
            self.counter[hist_index(previous)] = best;
        }
    }

    /// Capture history: the capture `m` of `pos` gains `bonus` (negative:
    /// loses); a non-capture is left alone.
    pub(super) fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        if let Some(victim) = pos.captured_kind(m) {
            let e = &mut self.capture[piece_to(pos, m)][victim.index()];
            *e = nudge(i32::from(*e), bonus) as i16;
        }
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
        let target =
            (score - raw).clamp(-CORRECTION_TARGET_MAX, CORRECTION_TARGET_MAX) * CORRECTION_GRAIN;
        let weight = (depth + 1).min(CORRECTION_WEIGHT_MAX);
        *e = ((*e * (CORRECTION_WEIGHT_SCALE - weight) + target * weight)
            / CORRECTION_WEIGHT_SCALE)
            .clamp(-CORRECTION_MAX, CORRECTION_MAX);
    }
}
