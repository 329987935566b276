//! What a search tells its caller: one line per iteration, the root move
//! being searched, and the result.

use super::score::Score;
use super::tt::Bound;
use crate::types::Move;
use std::time::Duration;

/// One line of search information.
#[derive(Clone, Debug)]
pub struct Info {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// 1-based line number for MultiPV.
    pub multipv: usize,
    /// Score in centipawns, or mate.
    pub score: Score,
    /// Whether the score is a bound only.
    pub bound: Bound,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Per-mille of the hash table in use.
    pub hashfull: usize,
    /// Positions the Syzygy tables answered (`None`: no tables loaded).
    pub tbhits: Option<u64>,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Result of a finished search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move (null when there is no legal move).
    pub best: Move,
    /// Expected reply.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Depth completed.
    pub depth: i32,
}

impl SearchResult {
    /// The result of a move that was not searched (a bughouse partner
    /// dictated it): no score, no nodes, no depth.
    pub fn dictated(best: Move) -> SearchResult {
        SearchResult {
            best,
            ponder: None,
            score: 0,
            nodes: 0,
            depth: 0,
        }
    }
}

/// Receives a search's reports; only the main thread reports.
pub trait Report: Sync {
    /// A completed iteration (one call per reported MultiPV line).
    fn iteration(&self, info: &Info);
    /// The main thread starts searching root move `current`, the
    /// `number`-th of iteration `depth`; called only once the search has
    /// run for [`CURRMOVE_AFTER`] (UCI `info currmove`).
    fn current_move(&self, _depth: i32, _current: Move, _number: usize) {}
    /// A line for the user (UCI `info string <text>`), such as a tablebase
    /// that could not be read (`error: Syzygy: ...`).
    fn message(&self, _text: &str) {}
}

/// A closure receives the iterations only.
impl<F: Fn(&Info) + Sync> Report for F {
    fn iteration(&self, info: &Info) {
        self(info)
    }
}

/// How long a search runs before it reports the root move it is on.
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// Callback for progress reports (main thread only).
pub type Reporter<'a> = &'a dyn Report;
