//! Scores: the mate range, the tablebase range just below it, the window
//! bounds, the deepest ply, and the score as a GUI wants it.

/// Mate score; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32000;
/// Scores at or above this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
/// A position the Syzygy tables know as won scores `TB_WIN - ply` (ply:
/// where the search met it), below every mate; reported as
/// `cp 20000 - ply`, as Stockfish does.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at or above this (and not mates) are tablebase wins.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// The centipawns a tablebase win at the root is reported as.
pub const TB_WIN_CP: i32 = 20000;
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
    /// Converts an internal score; a tablebase win `ply` plies from the
    /// root becomes `cp 20000 - ply` (a loss `cp -20000 + ply`).
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else if s >= TB_WIN_BOUND {
            Score::Cp(TB_WIN_CP - (TB_WIN - s))
        } else if s <= -TB_WIN_BOUND {
            Score::Cp(-TB_WIN_CP + (TB_WIN + s))
        } else {
            Score::Cp(s)
        }
    }
}

/// Is `s` a won or lost game (a mate or a tablebase result), not an
/// evaluation?
#[inline(always)]
pub fn is_decisive(s: i32) -> bool {
    s.abs() >= TB_WIN_BOUND
}
