//! The setup of a bughouse match: teams and seats, two or three boards,
//! when a captured piece changes hands, the clocks.

use crate::rules::{Rules, Variant};
use crate::types::Color;

/// One of the two teams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Team {
    /// White on board A, Black on the other boards.
    One,
    /// Black on board A, White on the other boards.
    Two,
}

impl Team {
    /// The other team.
    pub const fn other(self) -> Team {
        match self {
            Team::One => Team::Two,
            Team::Two => Team::One,
        }
    }

    /// 0 for team 1, 1 for team 2.
    pub const fn index(self) -> usize {
        match self {
            Team::One => 0,
            Team::Two => 1,
        }
    }
}

/// Two boards (bughouse) or three (centre plus two side boards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Boards A and B.
    TwoBoards,
    /// Centre board A, side boards B and C.
    ThreeBoards,
}

impl Form {
    /// Number of boards.
    pub const fn boards(self) -> usize {
        match self {
            Form::TwoBoards => 2,
            Form::ThreeBoards => 3,
        }
    }
}

/// When a captured piece reaches the partner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handover {
    /// When the capturing move is completed (clock pressed): rules.md.
    AfterClock,
    /// As soon as the piece is captured, before the clock is pressed.
    BeforeClock,
}

/// Base time and increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Starting time of every clock (ms).
    pub base_ms: u64,
    /// Added to the mover's clock when it presses (ms).
    pub inc_ms: u64,
}

/// How a game is played.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The rules of every board (variant bughouse plus house rules).
    pub rules: Rules,
    /// Two or three boards.
    pub form: Form,
    /// Clocks; `None` plays untimed (replays, tests).
    pub time: Option<TimeControl>,
    /// When captured pieces are handed over.
    pub handover: Handover,
}

impl Settings {
    /// Two boards, untimed, hand-over after the clock, with the given rules
    /// (their variant is forced to bughouse, house rules kept).
    pub fn new(rules: Rules) -> Settings {
        Settings {
            rules: rules.with_variant(Variant::Bughouse),
            form: Form::TwoBoards,
            time: None,
            handover: Handover::AfterClock,
        }
    }
}

/// The team of the player with `color` on `board`.
pub const fn team_of(board: usize, color: Color) -> Team {
    match (board == 0, color) {
        (true, Color::White) | (false, Color::Black) => Team::One,
        _ => Team::Two,
    }
}

/// Board letter: `A`, `B`, `C`.
pub const fn board_letter(board: usize) -> char {
    match board {
        0 => 'A',
        1 => 'B',
        _ => 'C',
    }
}

/// Seat name as in BPGN tags: `WhiteA`, `BlackB`, ...
pub fn seat_name(board: usize, color: Color) -> String {
    format!(
        "{}{}",
        if color.is_white() { "White" } else { "Black" },
        board_letter(board)
    )
}
