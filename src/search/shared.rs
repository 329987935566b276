//! The state the threads of one search share: the table, the stop flags,
//! the node and tablebase-hit counts, the clock, the threads' histories and
//! the main thread's place at the root.

use super::history::Histories;
use super::tt::TranspositionTable;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    pub histories: Arc<ThreadHistories>,
    /// Set by the caller's `stop` (never by the search): a finished
    /// infinite or ponder search waits for it before it reports (`stop`
    /// alone is also set when the main thread finishes, to end the helpers).
    pub halt: AtomicBool,
    /// What the main thread searches at the root now, packed (see
    /// [`RootProgress`]); written once per root move, read by status requests
    /// (xboard's `.`).
    pub root_progress: AtomicU64,
    /// Positions the Syzygy tables answered (UCI `tbhits`).
    pub tb_hits: AtomicU64,
}

/// The history tables of each search thread, owned by whoever runs
/// searches (the engine) so that they carry over from one move of a game to
/// the next; a new game clears them.
#[derive(Default)]
pub struct ThreadHistories(std::sync::Mutex<Vec<Box<Histories>>>);

impl ThreadHistories {
    /// Forgets everything learned (a new game).
    pub fn clear(&self) {
        if let Ok(mut t) = self.0.lock() {
            t.clear();
        }
    }

    /// Takes the tables of `n` threads (fresh ones where there were none).
    pub(super) fn take(&self, n: usize) -> Vec<Box<Histories>> {
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
    pub(super) fn put(&self, tables: Vec<Box<Histories>>) {
        if let Ok(mut t) = self.0.lock() {
            *t = tables;
        }
    }
}

impl Shared {
    /// Fresh state for a search with fresh histories.
    pub fn new(tt: Arc<TranspositionTable>) -> Shared {
        Shared::with_histories(tt, Arc::new(ThreadHistories::default()))
    }

    /// Fresh state for a search that continues with `histories`.
    pub fn with_histories(tt: Arc<TranspositionTable>, histories: Arc<ThreadHistories>) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start: std::sync::Mutex::new(Instant::now()),
            histories,
            halt: AtomicBool::new(false),
            root_progress: AtomicU64::new(0),
            tb_hits: AtomicU64::new(0),
        }
    }

    /// Where the main thread is at the root: `None` before its first root move.
    pub fn progress(&self) -> Option<RootProgress> {
        RootProgress::unpack(self.root_progress.load(Ordering::Relaxed))
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
pub struct RootProgress {
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

impl RootProgress {
    /// Packs into 64 bits (16 each: depth, number, total, move); never 0.
    pub fn pack(&self) -> u64 {
        let clip = |v: usize| v.min(0xFFFF) as u64;
        (self.depth.clamp(1, 0xFFFF) as u64) << 48
            | clip(self.number) << 32
            | clip(self.total) << 16
            | u64::from(self.current.0)
    }

    /// The inverse of [`RootProgress::pack`]; `None` for 0 (nothing yet).
    pub fn unpack(v: u64) -> Option<RootProgress> {
        (v != 0).then_some(RootProgress {
            depth: (v >> 48) as i32,
            number: (v >> 32 & 0xFFFF) as usize,
            total: (v >> 16 & 0xFFFF) as usize,
            current: Move(v as u16),
        })
    }
}
