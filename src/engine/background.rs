//! Searches in the background: the thread that runs one, the state it
//! shares with the engine, its one answer, and the `go` it answers (kept
//! to restart it when a bughouse pocket or the partner changes the plan).

use super::brain::FreezeSit;
use super::request::{GoRequest, Listener, ToListener};
use crate::position::Position;
use crate::search::pns::{self, SolverPlan, Verdict};
use crate::search::{self, Limits, RootProgress, SearchSetup, Shared};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The one answer of a search (UCI: one `bestmove` per `go`). It is
/// claimed once: by the search thread, which then reports its result, or
/// by [`Engine::abort`](super::Engine::abort), which then keeps it from being reported. Whoever
/// claims first wins, so a search reports at most once, and an abort that
/// comes too late (the result is already out) knows it.
#[derive(Default)]
struct Answer(AtomicBool);

impl Answer {
    /// Claims the answer; true for the first caller only.
    fn claim(&self) -> bool {
        !self.0.swap(true, Ordering::AcqRel)
    }
}

/// A search running in the background: its thread, the state it shares
/// with the engine, and its one answer. The lifecycle is written here once:
/// [`SearchThread::halt`] (stop and wait), [`SearchThread::abort`] (stop
/// without reporting), [`SearchThread::join`] (wait for it to end on its
/// own), [`SearchThread::ponderhit`].
pub(super) struct SearchThread {
    shared: Arc<Shared>,
    answer: Arc<Answer>,
    handle: JoinHandle<()>,
}

impl SearchThread {
    /// Tells the search to stop (also out of a ponder or infinite wait) and
    /// waits until its thread has ended.
    pub(super) fn halt(self) {
        self.shared.halt.store(true, Ordering::Relaxed);
        self.shared.stop.store(true, Ordering::Relaxed);
        self.handle.thread().unpark();
        let _ = self.handle.join();
    }

    /// Stops the search without reporting its result: true when that kept
    /// the result back, false when it was already reported (or being
    /// reported), which then stands.
    pub(super) fn abort(self) -> bool {
        let suppressed = self.answer.claim();
        self.halt();
        suppressed
    }

    /// Waits for the search to end on its own.
    pub(super) fn join(self) {
        let _ = self.handle.join();
    }

    /// The expected move was played: the clock runs from now.
    pub(super) fn ponderhit(&self) {
        if let Ok(mut start) = self.shared.start.lock() {
            *start = Instant::now();
        }
        self.shared.pondering.store(false, Ordering::Relaxed);
    }

    /// Has the thread ended?
    pub(super) fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Time since it started, nodes, and the main thread's place at the root.
    pub(super) fn progress(&self) -> (Duration, u64, Option<RootProgress>) {
        let nodes = self.shared.nodes.load(Ordering::Relaxed);
        (self.shared.elapsed(), nodes, self.shared.progress())
    }
}

/// The `go` of the running search, kept to restart it.
pub(super) struct LastGo {
    pub(super) request: GoRequest,
    pub(super) started: Instant,
    pub(super) listener: Arc<dyn Listener>,
}

/// What a background search is asked to do.
pub(super) struct Job {
    /// The position searched.
    pub(super) root: Position,
    /// Keys of the game's positions, `root`'s last.
    pub(super) history: Vec<u64>,
    /// Its limits.
    pub(super) limits: Limits,
    /// The network, tables, strength and bughouse bias it uses.
    pub(super) setup: SearchSetup,
    /// Number of search threads.
    pub(super) threads: usize,
    /// Antichess/giveaway: whether the proof-number solver runs first.
    pub(super) plan: SolverPlan,
    /// A timed bughouse search that finds a forced mate tells the partner
    /// to sit (and `go` once a later one finds none).
    pub(super) freeze_sit: Option<FreezeSit>,
}

impl SearchThread {
    /// Starts `job` on a new thread with `shared` state; `listener` gets its output.
    pub(super) fn start(
        job: Job,
        shared: Arc<Shared>,
        listener: Arc<dyn Listener>,
    ) -> SearchThread {
        let answer = Arc::new(Answer::default());
        let claim = answer.clone();
        let s = shared.clone();
        let handle = std::thread::spawn(move || {
            let out = listener;
            let Job {
                root,
                history,
                limits,
                setup,
                threads,
                plan,
                freeze_sit,
            } = job;
            let report = ToListener(out.as_ref());
            let search = || {
                search::search(
                    &root,
                    &history,
                    &limits,
                    &setup,
                    threads,
                    s.clone(),
                    &report,
                )
            };
            let result = match plan {
                SolverPlan::Search => search(),
                SolverPlan::Mate(budget) => {
                    let proof = pns::prove(&root, &history, &budget, Some(&s.stop));
                    if let Some(info) = proof.info() {
                        out.info(&info);
                    }
                    out.message(&proof.summary());
                    proof.search_result()
                }
                SolverPlan::First(budget) => {
                    let proof = pns::prove(&root, &history, &budget, Some(&s.stop));
                    if proof.verdict == Verdict::Win && !proof.best.is_null() {
                        if let Some(info) = proof.info() {
                            out.info(&info);
                        }
                        out.message(&proof.summary());
                        proof.search_result()
                    } else {
                        search()
                    }
                }
            };
            // UCI: with `infinite` or while pondering, bestmove waits for
            // stop/ponderhit, also when the search finished on its own (at
            // its depth limit). A held move waits no longer than its hold.
            while !s.halt.load(Ordering::Relaxed)
                && limits.time.keeps_result(
                    limits.infinite,
                    s.pondering.load(Ordering::Relaxed),
                    s.elapsed(),
                )
            {
                std::thread::park_timeout(Duration::from_millis(1));
            }
            if claim.claim() {
                if let Some(msg) = freeze_sit.and_then(|m| m.after_search(result.score)) {
                    out.tell_partner(msg);
                }
                out.best_move(&result);
            }
        });
        SearchThread {
            shared,
            answer,
            handle,
        }
    }
}
