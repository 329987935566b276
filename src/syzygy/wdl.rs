//! [`Wdl`]: the value the WDL tables give a position, as the search
//! uses it.

/// The value of a position for its side to move, after a capture or pawn
/// move (WDL with the 50-move rule in mind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    /// Lost, also under the 50-move rule.
    Loss = -2,
    /// Lost, but the 50-move rule saves the draw.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won, but the 50-move rule spoils the win.
    CursedWin = 1,
    /// Won, also under the 50-move rule.
    Win = 2,
}

impl Wdl {
    pub(super) fn from_syzygy(w: shakmaty_syzygy::Wdl) -> Wdl {
        match w {
            shakmaty_syzygy::Wdl::Loss => Wdl::Loss,
            shakmaty_syzygy::Wdl::BlessedLoss => Wdl::BlessedLoss,
            shakmaty_syzygy::Wdl::Draw => Wdl::Draw,
            shakmaty_syzygy::Wdl::CursedWin => Wdl::CursedWin,
            shakmaty_syzygy::Wdl::Win => Wdl::Win,
        }
    }

    /// The value for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// -2 (loss) ..= 2 (win).
    pub fn value(self) -> i32 {
        self as i32
    }

    /// DTZ of a position right before a zeroing move reaching `self` for
    /// the mover (Stockfish's `dtz_before_zeroing`): 1, 101, 0, -101, -1.
    pub fn dtz_before_zeroing(self) -> i32 {
        match self {
            Wdl::Win => 1,
            Wdl::CursedWin => 101,
            Wdl::Draw => 0,
            Wdl::BlessedLoss => -101,
            Wdl::Loss => -1,
        }
    }
}
