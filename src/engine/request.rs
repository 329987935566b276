//! What the protocols hand the engine and what it hands back: a `go`
//! ([`GoRequest`]), where a search's output goes ([`Listener`]), the
//! playing strength ([`Strength`]) and why a hash resize was refused.

use super::brain::SitReason;
use crate::bughouse::partner::PartnerMessage;
use crate::search::strength::{self, Level};
use crate::search::timeman::Clock;
use crate::search::tt::HashSizeError;
use crate::search::{Info, Limits, Report, SearchResult};
use crate::types::Move;
use std::fmt;
use std::time::Duration;

/// Why [`Engine::set_hash`](super::Engine::set_hash) kept a table of the old size (or of 1 MB
/// when even that could not be had again).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashResizeError {
    /// The size that was refused.
    pub refused: HashSizeError,
    /// The size of the table kept, in MB.
    pub kept_mb: usize,
}

impl fmt::Display for HashResizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}; keeping {} MB", self.refused, self.kept_mb)
    }
}

impl std::error::Error for HashResizeError {}

/// A `go`: the clocks, the other limits, and whether it is a ponder search.
#[derive(Clone, Debug, Default)]
pub struct GoRequest {
    /// Clocks, increments, moves to go, fixed move time.
    pub clock: Clock,
    /// Depth, nodes, mate, infinite, searchmoves, MultiPV (the time limits
    /// are filled in from the clock).
    pub limits: Limits,
    /// Search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// An analysis (xboard `analyze`): on a bughouse board no partner
    /// messages and no sitting.
    pub analysis: bool,
}

/// Where a background search's output goes; each protocol formats it.
pub trait Listener: Send + Sync {
    /// A completed iteration (or MultiPV line).
    fn info(&self, info: &Info);
    /// The search's result (not called for a search that was aborted or
    /// restarted).
    fn best_move(&self, result: &SearchResult);
    /// A message for the bughouse partner.
    fn tell_partner(&self, _msg: PartnerMessage) {}
    /// Words for a bughouse partner who is a person (a bot is told
    /// nothing): why the engine does not do what he asked.
    fn tell_person(&self, _text: &str) {}
    /// The engine sits (holds its move on a bughouse board) for at most
    /// `budget`, for `reason`.
    fn sitting(&self, _reason: SitReason, _budget: Duration) {}
    /// A line of information for the user (UCI: `info string <text>`), such
    /// as the antichess solver's `proven win in 12`.
    fn message(&self, _text: &str) {}
    /// The search, running for a second or more, starts root move
    /// `current`, the `number`-th of iteration `depth` (UCI `currmove`).
    fn current_move(&self, _depth: i32, _current: Move, _number: usize) {}
}

/// Passes a search's reports to a [`Listener`].
pub(super) struct ToListener<'a>(pub(super) &'a dyn Listener);

impl Report for ToListener<'_> {
    fn iteration(&self, info: &Info) {
        self.0.info(info);
    }
    fn current_move(&self, depth: i32, current: Move, number: usize) {
        self.0.current_move(depth, current, number);
    }
    fn message(&self, text: &str) {
        self.0.message(text);
    }
}

/// How strong the engine plays (`Skill Level`, `UCI_LimitStrength`,
/// `UCI_Elo`); the levels are in [`crate::search::strength`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// `Skill Level`, 0..=20 (20: full strength).
    pub skill: i32,
    /// `UCI_LimitStrength`: play at `elo` (this wins over `skill`).
    pub limit: bool,
    /// `UCI_Elo`.
    pub elo: i32,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            skill: strength::FULL_STRENGTH,
            limit: false,
            elo: strength::ELO_MAX,
        }
    }
}

impl Strength {
    /// The level in force; `None` at full strength.
    pub fn level(&self) -> Option<Level> {
        if self.limit {
            Some(strength::for_elo(self.elo))
        } else {
            strength::for_skill(self.skill)
        }
    }
}
