//! Lazy SMP: threads that search the same root and share the hash table;
//! helpers skip some depths to run ahead, and a deeper helper result may
//! supply the move.

use super::history::Histories;
use super::limits::{Limits, SearchSetup};
use super::params;
use super::report::{Reporter, SearchResult};
use super::shared::Shared;
use super::tablebase;
use super::timeman::Budget;
use super::worker::Worker;
use crate::position::Position;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// Stops the search at the hard time limit. A thread of its own, so that
/// the limit holds however many search threads share the cores (the main
/// search thread may get little CPU time when they are many). Not while
/// pondering: the clock starts at `ponderhit`.
/// How often the clock watcher looks at the clock.
const CLOCK_WATCH_INTERVAL: Duration = Duration::from_micros(500);

fn watch_clock(shared: &Shared, budget: Budget) {
    while !shared.stop.load(Ordering::Relaxed) {
        let elapsed = if shared.pondering.load(Ordering::Relaxed) {
            Duration::ZERO
        } else {
            shared.elapsed()
        };
        let Some(left) = budget.time_left(elapsed) else {
            return;
        };
        if left.is_zero() {
            shared.stop.store(true, Ordering::Relaxed);
            return;
        }
        std::thread::sleep(left.min(CLOCK_WATCH_INTERVAL));
    }
}

/// Runs a whole search: `threads` workers (Lazy SMP) on `root`, the main
/// thread reporting through `report`. Returns the main thread's result.
pub fn search(
    root: &Position,
    history: &[u64],
    limits: &Limits,
    setup: &SearchSetup,
    threads: usize,
    shared: Arc<Shared>,
    report: Reporter,
) -> SearchResult {
    shared.tt.new_search();
    let threads = threads.max(1);
    // Where the Syzygy tables know the root, only the moves they rank best
    // are searched (by every thread).
    let tb_root = tablebase::rank_root(root, history, limits, setup, &shared, report);
    let tb_limits;
    let limits = match &tb_root {
        Some(r) => {
            tb_limits = Limits {
                searchmoves: r.best_moves(limits.multipv.max(1)),
                ..limits.clone()
            };
            &tb_limits
        }
        None => limits,
    };
    let result = std::thread::scope(|scope| {
        if limits.time.hard().is_some() {
            let (shared, budget) = (&shared, limits.time);
            scope.spawn(move || watch_clock(shared, budget));
        }
        let mut tables = shared.histories.take(threads).into_iter();
        let mut helpers = Vec::new();
        let mut main_tables = tables.next().unwrap_or_else(Histories::new);
        for (id, hist) in (1..threads).zip(tables) {
            let shared = shared.clone();
            let limits = Limits {
                multipv: 1,
                ..limits.clone()
            };
            let setup = SearchSetup {
                weakening: None,
                ..setup.clone()
            };
            let root = *root;
            let tb_root = tb_root.clone();
            helpers.push(scope.spawn(move || {
                let mut w = Worker::new(id, shared, limits, setup, history, hist);
                w.tb_root = tb_root;
                let r = w.run(&root, None);
                (r, w.histories)
            }));
        }
        let mut main = Worker::new(
            0,
            shared.clone(),
            limits.clone(),
            setup.clone(),
            history,
            main_tables,
        );
        main.tb_root = tb_root.clone();
        let mut best = main.run(root, Some(report));
        main_tables = main.histories;
        shared.stop.store(true, Ordering::Relaxed);
        // A helper that completed a deeper iteration without a worse score
        // supplies the move (MultiPV, searchmoves and a weakened choice stay
        // with the main thread).
        let mut kept = vec![main_tables];
        for h in helpers {
            if let Ok((r, hist)) = h.join() {
                kept.push(hist);
                if limits.multipv <= 1
                    && setup.weakening.is_none()
                    && !r.best.is_null()
                    && r.depth > best.depth
                    && r.score >= best.score - params::smp_vote_margin()
                {
                    best = SearchResult {
                        nodes: best.nodes,
                        ..r
                    };
                }
            }
        }
        shared.histories.put(kept);
        best
    });
    SearchResult {
        nodes: shared.nodes.load(Ordering::Relaxed),
        ..result
    }
}

impl Worker {
    /// Lazy SMP diversity: helper threads skip some iteration depths, each
    /// in its own pattern (the scheme of Stockfish 8), so that they run ahead
    /// of the main thread and fill the shared table with deeper results.
    pub(super) fn skips(&self, depth: i32) -> bool {
        const SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
        const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
        if self.id == 0 || depth <= 1 {
            return false;
        }
        let i = (self.id - 1) % SIZE.len();
        ((depth + PHASE[i]) / SIZE[i]) % 2 != 0
    }
}
