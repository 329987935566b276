//! The state of one search thread: the search stack, histories, the line
//! being searched, NNUE accumulators by ply, node counting and the stop
//! checks.

use super::evaluation::Evaluator;
use super::history::{piece_to, Histories};
use super::limits::{Limits, SearchSetup};
use super::movepick::OrderingHints;
use super::params;
use super::report::{Reporter, CURRMOVE_AFTER};
use super::score::{FIFTY_MOVE_PLIES, MATE, MAX_PLY};
use super::shared::{RootProgress, Shared};
use super::stack::Stack;
use crate::endgames::{TableResult, Tables};
use crate::eval::nnue::Accumulator;
use crate::position::movegen::MoveCounter;
use crate::position::outcome::SideResult;
use crate::position::Position;
use crate::syzygy::{RootRanking, Tablebases};
use crate::types::{Move, PieceType};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// What the root call of the search gets: the root moves to search, and
/// (main thread) where to report the root move being searched. Calls below
/// the root get [`Root::NONE`].
#[derive(Clone, Copy)]
pub(super) struct Root<'a> {
    /// The root moves (searchmoves applied).
    pub moves: &'a [Move],
    /// Receives `current_move` reports.
    pub report: Option<Reporter<'a>>,
}

impl Root<'static> {
    /// For every node below the root.
    pub const NONE: Root<'static> = Root {
        moves: &[],
        report: None,
    };
}

/// The late-move reduction table covers depths and move numbers up to
/// this (larger ones read its last row or column).
pub(super) const LMR_TABLE_SIZE: usize = 64;
/// How many nodes a thread counts before it adds them to the shared count
/// and (main thread) looks at the clock; a power of two.
const NODES_PER_CHECK: u64 = 1024;

/// Room in the key list beyond the deepest line (the null move and the
/// extensions past [`MAX_PLY`] never reach it).
const KEYS_SPARE: usize = 8;

/// Per-thread search state.
pub struct Worker {
    /// Thread number (0 = main).
    pub id: usize,
    pub(super) shared: Arc<Shared>,
    pub(super) limits: Limits,
    pub(super) setup: SearchSetup,
    pub(super) nodes: u64,
    pub(super) nodes_flushed: u64,
    pub(super) seldepth: usize,
    /// The keys of the game's positions and of the line being searched
    /// (for repetitions).
    pub(super) keys: Vec<u64>,
    /// Per ply: killers, the move made, its piece-to, the static
    /// evaluation, the excluded move.
    pub(super) stack: Box<Stack>,
    /// Histories, counter moves and the evaluation correction.
    pub(super) histories: Box<Histories>,
    /// The principal variation found at each ply (triangular table).
    pub(super) pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    /// The length of each ply's line in [`Worker::pv`].
    pub(super) pv_len: [usize; MAX_PLY + 1],
    /// Root moves already reported in earlier MultiPV lines of this iteration.
    pub(super) excluded_root: Vec<Move>,
    /// Nodes searched below each root move in this search (main thread's
    /// time management: the best move's share of the effort).
    pub(super) root_effort: Vec<(Move, u64)>,
    /// Late-move reductions by depth and move number.
    pub(super) lmr: Box<[[u8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE]>,
    pub(super) has_bias: bool,
    /// The evaluation of this root's variant: its network (see
    /// [`SearchSetup::net`]) and the network's share.
    pub(super) evaluator: Evaluator,
    /// Antichess and giveaway: the endgame tables for this root's rules.
    pub(super) endgames: Option<Arc<Tables>>,
    /// The Syzygy tables, where they serve this root's rules.
    pub(super) tb: Option<Arc<Tablebases>>,
    /// Probe nodes of at most this many pieces (0: never).
    pub(super) tb_cardinality: u32,
    /// Nodes of exactly [`Worker::tb_cardinality`] pieces are probed from
    /// this depth on.
    pub(super) tb_probe_depth: i32,
    /// Cursed wins and blessed losses are draws (`Syzygy50MoveRule`).
    pub(super) tb_rule50: bool,
    /// The root moves as the tables rank them, where they know the root
    /// (the same for every thread).
    pub(super) tb_root: Option<Arc<RootRanking>>,
    /// NNUE accumulators by ply (used only with a network).
    pub(super) acc: Box<[Accumulator]>,
    /// When this worker started (for the `currmove` reports).
    pub(super) started: Instant,
    /// The iteration depth being searched.
    pub(super) root_depth: i32,
}

#[cfg(test)]
impl Worker {
    /// A lone worker for unit tests: a 1 MB table of its own, no limits,
    /// fresh histories, `pos` the game's only position.
    pub(super) fn for_test(pos: &Position) -> Worker {
        let tt = Arc::new(super::tt::TranspositionTable::new(1));
        let shared = Arc::new(Shared::new(tt));
        Worker::new(
            0,
            shared,
            Limits::default(),
            SearchSetup::default(),
            &[pos.key()],
            Histories::new(),
        )
    }
}

impl Worker {
    /// A worker for one thread of a search; `history` holds the keys of the
    /// game's positions up to and including the root, `hist` the thread's
    /// history tables.
    pub fn new(
        id: usize,
        shared: Arc<Shared>,
        limits: Limits,
        setup: SearchSetup,
        history: &[u64],
        histories: Box<Histories>,
    ) -> Worker {
        // A search of a few thousand nodes (datagen) makes a worker per
        // move: the logarithms are taken once per index, not once per cell.
        let logs: [f64; LMR_TABLE_SIZE] = std::array::from_fn(|i| (i as f64).ln());
        let base = f64::from(params::lmr_base()) / params::LMR_UNITS;
        let div = f64::from(params::lmr_div()) / params::LMR_UNITS;
        let mut lmr = Box::new([[0u8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (n, cell) in row.iter_mut().enumerate().skip(1) {
                *cell = (base + logs[d] * logs[n] / div) as u8;
            }
        }
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + KEYS_SPARE);
        keys.extend_from_slice(history);
        Worker {
            id,
            shared,
            limits: limits.clone(),
            nodes: 0,
            nodes_flushed: 0,
            seldepth: 0,
            keys,
            stack: Stack::new(),
            histories,
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            excluded_root: Vec::new(),
            root_effort: Vec::new(),
            has_bias: setup.bias.iter().flatten().any(|&b| b != 0),
            setup,
            lmr,
            evaluator: Evaluator::default(),
            endgames: None,
            tb: None,
            tb_cardinality: 0,
            tb_probe_depth: 0,
            tb_rule50: true,
            tb_root: None,
            acc: vec![Accumulator::default(); MAX_PLY + 2].into_boxed_slice(),
            started: Instant::now(),
            root_depth: 0,
        }
    }

    /// What orders the moves of the node at `ply`.
    #[inline]
    pub(super) fn ordering_hints(&self, ply: usize, tt_move: Move) -> OrderingHints<'_> {
        OrderingHints {
            tt_move,
            killers: self.stack.at(ply).killers,
            counter: self
                .histories
                .counter_move(self.stack.before(ply, 1).current_move),
            rows: self.stack.continuation_rows(ply),
            histories: &self.histories,
        }
    }

    /// `m` is made at `ply`: the stack records it (for the nodes below).
    #[inline(always)]
    pub(super) fn record_move(&mut self, pos: &Position, m: Move, ply: usize) {
        let entry = self.stack.at_mut(ply);
        entry.current_move = m;
        entry.piece_to = piece_to(pos, m);
    }

    /// A move caused a cutoff at `ply`: a quiet one gains history (butterfly
    /// and continuation), the quiet moves tried before it lose some, and it
    /// becomes a killer and the counter move to the opponent's last move; a
    /// capture gains capture history. Every capture tried before it loses
    /// some.
    pub(super) fn update_cutoff_stats(
        &mut self,
        pos: &Position,
        best: Move,
        tried: &TriedMoves,
        depth: i32,
        ply: usize,
    ) {
        let bonus = (depth * depth + depth).min(params::history_bonus_max());
        if pos.captured_kind(best).is_some() {
            self.histories.update_capture(pos, best, bonus);
        } else if !best.is_promotion() {
            let rows = self.stack.continuation_rows(ply);
            let previous = self.stack.before(ply, 1).current_move;
            self.histories
                .reward_quiet(pos, best, &tried.quiets, bonus, rows, previous);
            let killers = &mut self.stack.at_mut(ply).killers;
            if killers[0] != best {
                killers[1] = killers[0];
                killers[0] = best;
            }
        }
        for &m in &tried.captures {
            self.histories.update_capture(pos, m, -bonus);
        }
    }

    /// Counts `nodes` searched below root move `m`.
    pub(super) fn add_root_effort(&mut self, m: Move, nodes: u64) {
        if let Some(entry) = self.root_effort.iter_mut().find(|e| e.0 == m) {
            entry.1 += nodes;
        }
    }

    /// The percentage of the root effort spent below `m` (`None` before
    /// any was counted).
    pub(super) fn root_effort_percent(&self, m: Move) -> Option<u32> {
        let total: u64 = self.root_effort.iter().map(|e| e.1).sum();
        let spent = self.root_effort.iter().find(|e| e.0 == m)?.1;
        (total > 0)
            .then(|| u32::try_from(u128::from(spent) * 100 / u128::from(total)).unwrap_or(100))
    }

    /// The main thread starts root move `m`, the `count`-th of this line:
    /// publishes where it is ([`Shared::progress`]) and, once the search
    /// has run for [`CURRMOVE_AFTER`], reports it. Root only (one atomic
    /// store and one clock read per root move).
    pub(super) fn root_move_started(&self, m: Move, count: usize, root: &Root) {
        if self.id != 0 {
            return;
        }
        let number = count + self.excluded_root.len();
        let progress = RootProgress {
            depth: self.root_depth,
            current: m,
            number,
            total: root.moves.len(),
        };
        self.shared
            .root_progress
            .store(progress.pack(), Ordering::Relaxed);
        if let Some(report) = root.report {
            if self.started.elapsed() >= CURRMOVE_AFTER {
                report.current_move(self.root_depth, m, number);
            }
        }
    }

    /// Plays `m` on `child` (a copy of the position at `ply`) and brings the
    /// NNUE accumulators of `ply + 1` up to date.
    #[inline]
    pub(super) fn make(&mut self, child: &mut Position, m: Move, ply: usize) {
        let delta = child.make_move_delta(m);
        // The child's table entry is fetched while the accumulator is
        // updated.
        self.shared.tt.prefetch(child.key());
        if let Some(net) = self.evaluator.net() {
            let (done, next) = self.acc.split_at_mut(ply + 1);
            net.update(&done[ply], &delta, child, &mut next[0]);
        }
    }

    /// A null move changes no piece: the accumulators are copied.
    #[inline]
    pub(super) fn make_null(&mut self, child: &mut Position, ply: usize) {
        child.make_null_move();
        self.shared.tt.prefetch(child.key());
        if self.evaluator.net().is_some() {
            self.acc[ply + 1] = self.acc[ply];
        }
    }

    #[inline]
    pub(super) fn evaluate(&self, pos: &Position, ply: usize) -> i32 {
        let mut v = self
            .evaluator
            .evaluate(pos, |net| net.evaluate(&self.acc[ply], pos));
        if self.has_bias {
            let us = pos.side_to_move();
            for (c, sign) in [(us, 1), (us.flip(), -1)] {
                for k in PieceType::POCKET {
                    let b = self.setup.bias[c.index()][k.index()];
                    if b != 0 {
                        // Board and hand alike: a piece is given away only by
                        // being captured, and counting the board alone would
                        // pay for every drop of a "do not give" piece.
                        let n = pos.pieces(c, k).count() as i32 + i32::from(pos.pocket(c, k));
                        v += sign * b * n;
                    }
                }
            }
        }
        v
    }

    /// The endgame tables' exact score of `pos` at `ply` (a mate score
    /// with the distance, or a draw), where they cover it.
    #[inline]
    pub(super) fn table_score(&self, pos: &Position, ply: usize) -> Option<i32> {
        let tables = self.endgames.as_deref()?;
        if pos.occupied().count() as usize > tables.max_pieces() {
            return None;
        }
        let result = tables.probe(pos)?;
        // The tables know no 50-move rule: a result it could still change
        // is left to the search.
        let distance = match result {
            TableResult::Win(d) | TableResult::Loss(d) => u32::from(d),
            TableResult::Draw => 0,
        };
        if pos.rules().fifty_move_rule && pos.halfmove_clock() + distance >= FIFTY_MOVE_PLIES {
            return None;
        }
        Some(match result {
            TableResult::Win(d) => MATE - ply as i32 - i32::from(d),
            TableResult::Loss(d) => -MATE + ply as i32 + i32::from(d),
            TableResult::Draw => 0,
        })
    }

    #[inline]
    pub(super) fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// Counts a node; every [`NODES_PER_CHECK`] nodes flushes the count and (main thread)
    /// checks the clock and the node budget.
    #[inline]
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & (NODES_PER_CHECK - 1) == 0 {
            let delta = self.nodes - self.nodes_flushed;
            self.nodes_flushed = self.nodes;
            let total = self.shared.nodes.fetch_add(delta, Ordering::Relaxed) + delta;
            if let Some(n) = self.limits.nodes {
                if total >= n {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
            if self.id == 0
                && !self.shared.pondering.load(Ordering::Relaxed)
                && self.limits.time.out_of_time(self.shared.elapsed())
            {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    pub(super) fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.nodes_flushed)
    }

    /// Has this position occurred before since the last irreversible move
    /// (in the game or the search line)? Twice is enough inside the search.
    pub(super) fn is_repetition(&self, pos: &Position) -> bool {
        let n = self.keys.len();
        let window = (pos.halfmove_clock() as usize).min(n);
        let key = pos.key();
        // Positions of the same side to move: every second entry back.
        let mut i = 2;
        while i <= window {
            if self.keys[n - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    /// The score when the side to move has no legal move (in the losing
    /// variants also when it has no pieces: it wins, by either stalemate
    /// rule).
    pub(super) fn terminal_score(&self, pos: &Position, ply: usize) -> i32 {
        let rules = pos.rules();
        if rules.losers_win {
            return match pos.stalemate_result() {
                SideResult::Win => MATE - ply as i32,
                SideResult::Draw => 0,
                SideResult::Loss => -MATE + ply as i32,
            };
        }
        if pos.in_check() {
            return -MATE + ply as i32;
        }
        if pos.duty_pending() {
            let mut all = MoveCounter::default();
            pos.generate_ignoring_duty(&mut all);
            if all.0 > 0 {
                return -MATE + ply as i32;
            }
        }
        0
    }

    /// Takes the score of move `m` at `ply` into a node's best score,
    /// best move and window (and the PV where `PV`); true when it fails
    /// high (`score >= beta`), where the caller stops searching moves.
    #[inline(always)]
    pub(super) fn record_score<const PV: bool>(
        &mut self,
        ply: usize,
        m: Move,
        score: i32,
        b: Bounds<'_>,
    ) -> bool {
        if score > *b.best {
            *b.best = score;
            if score > *b.alpha {
                *b.best_move = m;
                if PV {
                    self.update_pv(ply, m);
                }
                if score >= b.beta {
                    return true;
                }
                *b.alpha = score;
            }
        }
        false
    }

    /// The PV at `ply` becomes `m` followed by the PV of `ply + 1`.
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}

/// Quiet moves a node remembers for the history malus.
const TRIED_QUIETS: usize = 64;
/// Captures a node remembers for the history malus.
const TRIED_CAPTURES: usize = 32;

/// The moves a node searched without a cutoff, whose histories a later
/// cutoff lowers (the first [`TRIED_QUIETS`] quiet moves and
/// [`TRIED_CAPTURES`] captures).
#[derive(Default)]
pub(super) struct TriedMoves {
    /// Quiet moves.
    pub quiets: arrayvec::ArrayVec<Move, TRIED_QUIETS>,
    /// Captures.
    pub captures: arrayvec::ArrayVec<Move, TRIED_CAPTURES>,
}

impl TriedMoves {
    /// Keeps a quiet move or a capture (a quiet promotion is not kept).
    #[inline]
    pub fn add(&mut self, m: Move, capture: bool, quiet: bool) {
        if quiet {
            let _ = self.quiets.try_push(m);
        } else if capture {
            let _ = self.captures.try_push(m);
        }
    }
}

/// A node's best score, best move and window, as the move loop updates
/// them ([`Worker::record_score`]).
pub(super) struct Bounds<'a> {
    /// The best score so far.
    pub best: &'a mut i32,
    /// The move that scored it (above alpha).
    pub best_move: &'a mut Move,
    /// The lower bound of the window.
    pub alpha: &'a mut i32,
    /// The upper bound of the window.
    pub beta: i32,
}
