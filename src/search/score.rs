//! Scores: the mate range, the window bounds, the deepest ply, and the
//! score as a GUI wants it.

/// Mate score; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32000;
/// Scores at or above this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Infinity for windows.
pub const INF: i32 = 32001;
/// The fifty-move rule: a draw after this many plies without a capture
/// or a pawn move (where the variant applies it).
pub const FIFTY_MOVE_PLIES: u32 = 100;
/// Deepest ply the search goes.
pub const MAX_PLY: usize = 128;

/// A score as a GUI wants it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}
