//! Parallel alpha-beta search (Lazy SMP), one concern per file:
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | what callers see: limits, results, the shared state of one search |
//! | [`smp`] | the threads of a search and whose result counts |
//! | [`iterate`] | iterative deepening, aspiration windows, MultiPV, reports |
//! | [`alphabeta`] | the PVS search with its pruning, reductions and extensions |
//! | [`qsearch`] | quiescence |
//! | [`ordering`] | move ordering bands and the history tables |
//! | [`checks`] | telling quiet checks before making them |
//! | [`see`] | static exchange evaluation |
//! | [`timeman`] | time limits from the clock |
//! | [`params`] | every tuning constant, with its range |
//! | [`strength`] | the strength levels (`Skill Level`, `UCI_Elo`) and the weakened move choice |
//! | [`worker`] | the state of one search thread |
//! | [`tt`] | the shared transposition table |
//! | [`pns`] | the proof-number solver for antichess and giveaway (df-pn) |
//! | [`endgames`] | antichess and giveaway endgame tables, built in memory |
//!
//! The search never prints: it reports typed results through a callback.

use crate::eval::nnue::Network;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod alphabeta;
mod checks;
pub mod endgames;
mod iterate;
mod ordering;
pub mod params;
pub mod pns;
mod qsearch;
pub mod see;
mod smp;
pub mod strength;
pub mod timeman;
pub mod tt;
mod worker;

pub use see::see;
pub use smp::search;
pub use tt::{Bound, TranspositionTable};
pub use worker::Worker;

use ordering::Histories;

/// Mate score; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32000;
/// Scores at or above this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Infinity for windows.
pub const INF: i32 = 32001;
/// Deepest ply the search goes.
pub const MAX_PLY: usize = 128;

/// What to search for and how long.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth.
    pub depth: Option<i32>,
    /// Node budget (all threads).
    pub nodes: Option<u64>,
    /// Stop after this long if an iteration is done (soft limit).
    pub soft_time: Option<Duration>,
    /// Never search longer than this (hard limit).
    pub hard_time: Option<Duration>,
    /// Search for a mate in this many moves.
    pub mate: Option<i32>,
    /// Search until told to stop (also while pondering).
    pub infinite: bool,
    /// Only these root moves.
    pub searchmoves: Vec<Move>,
    /// Number of principal variations.
    pub multipv: usize,
    /// Extra value per piece kind (P N B R Q) on the board or in hand, `[colour]`:
    /// bughouse partner requests ("need a knight": the opponent's knights
    /// are worth more to take; "don't give a queen": ours worth more to keep).
    pub bias: [[i32; 5]; 2],
    /// The NNUE network to evaluate with, where it serves the variant
    /// (`None`: the hand-written evaluation).
    pub net: Option<Arc<Network>>,
    /// Antichess and giveaway endgame tables to probe (`None`: none).
    pub endgames: Option<Arc<endgames::Tables>>,
    /// A weakened move choice (strength levels): the main thread searches
    /// that many lines internally and picks among them at random; only
    /// `multipv` lines are reported. `None`: the best move, full strength.
    pub weakening: Option<strength::Weakening>,
}

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
    /// Principal variation.
    pub pv: Vec<Move>,
}

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

/// State shared by the threads of one search.
pub struct Shared {
    /// The hash table.
    pub tt: Arc<TranspositionTable>,
    /// Set to stop every thread.
    pub stop: AtomicBool,
    /// Cleared by `ponderhit`: while set, time limits do not apply.
    pub pondering: AtomicBool,
    /// Nodes of all threads (updated in batches).
    pub nodes: AtomicU64,
    /// When the clock started (reset by ponderhit).
    pub start: std::sync::Mutex<Instant>,
    /// The threads' histories, kept from one search to the next of a game.
    pub tables: Arc<ThreadTables>,
    /// Set by the caller's `stop` (never by the search): a finished
    /// infinite or ponder search waits for it before it reports (`stop`
    /// alone is also set when the main thread finishes, to end the helpers).
    pub halt: AtomicBool,
    /// What the main thread searches at the root now, packed (see
    /// [`Progress`]); written once per root move, read by status requests
    /// (xboard's `.`).
    pub root_progress: AtomicU64,
}

/// The history tables of each search thread, owned by whoever runs
/// searches (the engine) so that they carry over from one move of a game to
/// the next; a new game clears them.
#[derive(Default)]
pub struct ThreadTables(std::sync::Mutex<Vec<Box<Histories>>>);

impl ThreadTables {
    /// Forgets everything learned (a new game).
    pub fn clear(&self) {
        if let Ok(mut t) = self.0.lock() {
            t.clear();
        }
    }

    /// Takes the tables of `n` threads (fresh ones where there were none).
    fn take(&self, n: usize) -> Vec<Box<Histories>> {
        let mut tables = match self.0.lock() {
            Ok(mut t) => std::mem::take(&mut *t),
            Err(_) => Vec::new(),
        };
        tables.truncate(n);
        while tables.len() < n {
            tables.push(Histories::new());
        }
        tables
    }

    /// Gives the tables back after a search.
    fn put(&self, tables: Vec<Box<Histories>>) {
        if let Ok(mut t) = self.0.lock() {
            *t = tables;
        }
    }
}

impl Shared {
    /// Fresh state for a search with fresh histories.
    pub fn new(tt: Arc<TranspositionTable>) -> Shared {
        Shared::with_tables(tt, Arc::new(ThreadTables::default()))
    }

    /// Fresh state for a search that continues with `tables`.
    pub fn with_tables(tt: Arc<TranspositionTable>, tables: Arc<ThreadTables>) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start: std::sync::Mutex::new(Instant::now()),
            tables,
            halt: AtomicBool::new(false),
            root_progress: AtomicU64::new(0),
        }
    }

    /// Where the main thread is at the root: `None` before its first root move.
    pub fn progress(&self) -> Option<Progress> {
        Progress::unpack(self.root_progress.load(Ordering::Relaxed))
    }

    /// Time since the search started (or since `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        match self.start.lock() {
            Ok(s) => s.elapsed(),
            Err(p) => p.into_inner().elapsed(),
        }
    }
}

/// Where the main thread of a search is at the root: the iteration depth,
/// the root move being searched, its number and the number of root moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Iteration depth.
    pub depth: i32,
    /// The root move being searched.
    pub current: Move,
    /// Its number among the root moves of this iteration (1-based; with
    /// MultiPV the moves of the lines before count too).
    pub number: usize,
    /// The number of root moves.
    pub total: usize,
}

impl Progress {
    /// Packs into 64 bits (16 each: depth, number, total, move); never 0.
    pub fn pack(&self) -> u64 {
        let clip = |v: usize| v.min(0xFFFF) as u64;
        (self.depth.clamp(1, 0xFFFF) as u64) << 48
            | clip(self.number) << 32
            | clip(self.total) << 16
            | u64::from(self.current.0)
    }

    /// The inverse of [`Progress::pack`]; `None` for 0 (nothing yet).
    pub fn unpack(v: u64) -> Option<Progress> {
        (v != 0).then_some(Progress {
            depth: (v >> 48) as i32,
            number: (v >> 32 & 0xFFFF) as usize,
            total: (v >> 16 & 0xFFFF) as usize,
            current: Move(v as u16),
        })
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
