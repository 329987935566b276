//! The search stack: what the search keeps per ply of the line it is in.
//! Two entries before the root stay empty, so that a node can always look
//! one and two plies back.

use super::history::{ContinuationRows, NO_PIECE_TO};
use super::score::MAX_PLY;
use crate::types::Move;

/// The entries kept before the root (the plies a node looks back).
const ENTRIES_BEFORE_ROOT: usize = 2;

/// What the search keeps for one ply.
#[derive(Clone, Copy, Debug)]
pub(super) struct StackEntry {
    /// The two killer moves: quiet moves that caused a cutoff at this ply.
    pub killers: [Move; 2],
    /// The move made at this ply (null for a null move).
    pub current_move: Move,
    /// The piece-to entry of that move ([`NO_PIECE_TO`] for none).
    pub piece_to: usize,
    /// The corrected static evaluation at this ply (`-INF` in check).
    pub static_eval: i32,
    /// The move a singular-extension search leaves out (null: none).
    pub excluded: Move,
}

impl StackEntry {
    const EMPTY: StackEntry = StackEntry {
        killers: [Move::NULL; 2],
        current_move: Move::NULL,
        piece_to: NO_PIECE_TO,
        static_eval: 0,
        excluded: Move::NULL,
    };
}

/// One entry per ply, from two before the root to [`MAX_PLY`] + 1.
pub(super) struct Stack {
    entries: [StackEntry; MAX_PLY + 2 + ENTRIES_BEFORE_ROOT],
}

impl Stack {
    /// An empty stack.
    pub fn new() -> Box<Stack> {
        Box::new(Stack {
            entries: [StackEntry::EMPTY; MAX_PLY + 2 + ENTRIES_BEFORE_ROOT],
        })
    }

    /// The entry of `ply`.
    #[inline(always)]
    pub fn at(&self, ply: usize) -> &StackEntry {
        &self.entries[ply + ENTRIES_BEFORE_ROOT]
    }

    /// The entry of `ply`, to change.
    #[inline(always)]
    pub fn at_mut(&mut self, ply: usize) -> &mut StackEntry {
        &mut self.entries[ply + ENTRIES_BEFORE_ROOT]
    }

    /// The entry `back` plies (1 or 2) before `ply`; before the root an empty one.
    #[inline(always)]
    pub fn before(&self, ply: usize, back: usize) -> &StackEntry {
        &self.entries[ply + ENTRIES_BEFORE_ROOT - back]
    }

    /// The continuation rows of a node at `ply`.
    #[inline(always)]
    pub fn continuation_rows(&self, ply: usize) -> ContinuationRows {
        ContinuationRows {
            one_back: self.before(ply, 1).piece_to,
            two_back: self.before(ply, 2).piece_to,
        }
    }
}
