//! Bughouse as a game of two (or three) boards: the positions, four (or six)
//! clocks, pocket transfers, the match result. Pure library: no I/O, and time
//! is whatever the caller says it is (`now`, in milliseconds since the start
//! of the game), so the same model serves the real-time arena (`rukav arena`), the
//! BPGN reader (untimed replay, `rukav bpgn`) and tests.
//!
//! # Seats and teams
//! Boards are numbered 0, 1 (, 2) and named A, B (, C). Team 1 plays White
//! on board A and Black on every other board; team 2 the other seats
//! ([`team_of`]). Partners therefore play opposite colours, as in rules.md.
//!
//! # Two boards
//! A piece captured by White on A goes to Black on B (as a pawn if it was
//! promoted and `PromotedRevert` holds), and so on: a capture goes to the
//! capturer's partner, in the colour the partner plays. The hand-over
//! happens when the capturing move is completed, that is when the clock is
//! pressed ([`Handover::AfterClock`], the rule of rules.md) or, in the
//! variant, as soon as the piece is taken ([`Handover::BeforeClock`]).
//! [`Game::make`] and [`Game::press`] are the two halves of a move;
//! [`Game::play`] does both at once (what an engine's move is).
//!
//! The match ends when either board ends: a mate (the bughouse mate rule of
//! [`Position::outcome`]: a check that a dropped piece could block is not
//! mate, and a side without moves waits) or a flag (a clock that reaches
//! zero). Ends at the same millisecond are simultaneous: wins for different
//! teams make the match a draw. Threefold repetition on a board (pockets
//! included) draws the match; so do agreement and adjudication
//! ([`Game::draw`]).
//!
//! # The Gambler promotion rule
//! With `PromotionRule::Gambler` a promotion is not completed by the
//! promoting player: the game pauses (every clock stops, no board may move)
//! until one of the promoter's partners takes a piece (knight, bishop, rook
//! or queen) of his own opponent from his board ([`Game::gambler_choices`],
//! [`Game::complete_gambler`]). That piece, in the promoter's colour and not
//! marked as promoted, stands on the promotion square (so it is later handed
//! on as itself); the partner's opponent receives a pawn in his pocket. The
//! partner may only take a piece whose removal leaves his board legal (the
//! side not to move not in check). When there is no such piece the
//! promotion is played as an ordinary one, with the piece the promoter chose.
//!
//! # Three boards
//! Board A is the centre board, B and C the side boards. Team 1 plays White
//! in the centre and Black on both side boards; team 2 the other seats. The
//! two side-board players of a team play the same colour and share one
//! pocket: a piece captured in the centre goes into that shared pocket (it
//! appears in the pockets of both side positions), and a drop on one side
//! board takes the piece out of the other side position too. A piece
//! captured on a side board goes to the team's centre player. A side board
//! whose player is mated or flagged leaves play: its pieces (and its
//! pocket) leave the game, nothing is handed over. A team loses when it is
//! mated or flagged in the centre, or when it has lost both side boards.
//! Under the Gambler rule a centre promoter's partners are both side
//! players (the piece may come from either side board), a side promoter's
//! partner is the centre player.

mod ends;
mod gambler;
mod game;
pub mod partner;
pub mod strategy;

pub use game::{
    opponent_in_check, BoardEnd, GamblerPending, Game, GameSetupError, LoggedMove, LossReason,
    MatchResult, PlayError, Report,
};

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
