//! Owed pieces: short searches of hypothetical positions (one more piece
//! in either pocket) that value the pieces the partner may send or give
//! away, and whether such a piece can arrive at all.

use super::params;
use crate::position::Position;
use crate::search::{self, Limits, SearchSetup, Shared, TranspositionTable, MATE_BOUND};
use crate::types::{Color, PieceType};
use std::sync::Arc;

/// Scores of the owed-piece searches ([`owed_pieces`]), indexed by pocket
/// piece kind (P N B R Q); `None` where the pocket was full.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwedPieces {
    /// The position as it is.
    pub base: i32,
    /// The search of the position as it is found a forced mate against
    /// the side to move.
    pub mated: bool,
    /// With one more piece of that kind in our pocket.
    pub mine: [Option<i32>; 5],
    /// With one more piece of that kind in the opponent's pocket.
    pub theirs: [Option<i32>; 5],
}

/// Size (MB) of the table of the short searches.
const SHORT_SEARCH_TABLE_MB: usize = 1;

/// The table the owed-piece searches of one game share: each move's eleven
/// searches, and the next move's, find what earlier ones stored (the same
/// hypothetical position recurs from move to move), and none allocates.
#[derive(Clone)]
pub struct OwedTable(Arc<TranspositionTable>);

impl Default for OwedTable {
    fn default() -> OwedTable {
        OwedTable(Arc::new(TranspositionTable::new(SHORT_SEARCH_TABLE_MB)))
    }
}

impl std::fmt::Debug for OwedTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OwedTable({} MB)", self.0.size_mb())
    }
}

impl OwedTable {
    /// Empties the table (a new game).
    pub fn clear(&self) {
        self.0.clear();
    }
}

/// The score (side to move's view) of a one-thread search of `pos` to
/// `depth` with a small private table: the engine's quick look at a
/// hypothetical position.
pub fn short_search(pos: &Position, depth: i32) -> i32 {
    short_search_in(
        &Arc::new(TranspositionTable::new(SHORT_SEARCH_TABLE_MB)),
        pos,
        depth,
    )
}

/// [`short_search`] with the table `tt`.
fn short_search_in(tt: &Arc<TranspositionTable>, pos: &Position, depth: i32) -> i32 {
    let shared = Arc::new(Shared::new(tt.clone()));
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        ..Limits::default()
    };
    search::search(
        pos,
        &[pos.key()],
        &limits,
        &SearchSetup::default(),
        1,
        shared,
        &|_: &_| {},
    )
    .score
}

/// Scores of short searches of `pos` with one more piece of each kind in
/// our pocket (`mine`) and in the opponent's (`theirs`), and without
/// (`base`), all from the side to move's view and clamped to
/// +-`owed_score_cap` so
/// that a mate counts as a large gain, not an infinite one. The searches
/// share `table`.
pub fn owed_pieces(pos: &Position, table: &OwedTable) -> OwedPieces {
    let us = pos.side_to_move();
    let search = |p: &Position| short_search_in(&table.0, p, params::owed_depth());
    let clamp = |s: i32| s.clamp(-params::owed_score_cap(), params::owed_score_cap());
    let score = |p: &Position| clamp(search(p));
    let base = search(pos);
    let mut owed = OwedPieces {
        base: clamp(base),
        mated: base <= -MATE_BOUND,
        ..OwedPieces::default()
    };
    for k in PieceType::POCKET {
        let mut mine = *pos;
        if mine.add_to_pocket(us, k).is_ok() {
            owed.mine[k.index()] = Some(score(&mine));
        }
        let mut theirs = *pos;
        if theirs.add_to_pocket(us.flip(), k).is_ok() {
            owed.theirs[k.index()] = Some(score(&theirs));
        }
    }
    owed
}

/// Can a piece of kind `k` reach the pocket of `ours` soon? True when a
/// partner attacks one on his board (his opponent has our colour), or when
/// no partner board is known.
pub fn may_arrive(partner_boards: &[Position], ours: Color, k: PieceType) -> bool {
    if partner_boards.is_empty() {
        return true;
    }
    partner_boards.iter().any(|board| {
        let occ = board.occupied();
        board
            .pieces(ours, k)
            .any(|sq| (board.attackers_to(sq, occ) & board.color_bb(ours.flip())).nonempty())
    })
}
