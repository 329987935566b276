//! Iterative deepening: one search per depth with an aspiration window
//! around the last score, MultiPV lines, reports to the caller, and the
//! decision to start another iteration.

use super::params;
use super::report::{Info, Reporter, SearchResult};
use super::score::{Score, INF, MATE, MATE_BOUND, MAX_PLY};
use super::timeman::IterationEnd;
use super::tt::Bound;
use super::worker::{Root, Worker};
use crate::position::Position;
use crate::types::Move;
use std::sync::atomic::Ordering;

/// The deepest iteration (leaving room below it for the plies the
/// search adds: extensions, quiescence).
const MAX_ITERATION_DEPTH: i32 = MAX_PLY as i32 - 4;
/// Percentages are hundredths.
const PERCENT: i32 = 100;

impl Worker {
    /// Takes from the setup what serves `root`'s rules: the network (its
    /// accumulator refreshed), the antichess endgame tables, the Syzygy tables.
    fn prepare_root(&mut self, root: &Position) {
        self.evaluator = super::Evaluator::for_rules(self.setup.net.clone(), root.rules());
        if let Some(net) = self.evaluator.net() {
            net.refresh(root, &mut self.acc[0]);
        }
        self.endgames = self
            .setup
            .endgames
            .clone()
            .filter(|_| crate::endgames::covers(root.rules()));
        self.prepare_tables(root);
    }

    /// Iterative deepening from `root`. Reports through `report` (main thread).
    pub fn run(&mut self, root: &Position, report: Option<Reporter>) -> SearchResult {
        self.prepare_root(root);
        let mut root_moves: Vec<Move> = root.legal_moves().to_vec();
        if !self.limits.searchmoves.is_empty() {
            let wanted = self.limits.searchmoves.clone();
            root_moves.retain(|m| wanted.contains(m));
        }
        let mut result = SearchResult {
            best: root_moves.first().copied().unwrap_or(Move::NULL),
            ponder: None,
            score: 0,
            nodes: 0,
            depth: 0,
        };
        if root_moves.is_empty() {
            return result;
        }
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_ITERATION_DEPTH)
            .clamp(1, MAX_ITERATION_DEPTH);
        // Lines reported, and lines searched: more when a weakened choice
        // picks among them (main thread only: helpers never get one).
        let reported = self.limits.multipv.max(1);
        let weakening = self.setup.weakening.filter(|_| self.id == 0);
        let multipv = weakening
            .map_or(reported, |w| w.lines.max(reported))
            .clamp(1, root_moves.len());
        // The lines of the last iteration that completed all of them.
        let mut complete: Vec<(Move, i32, Vec<Move>)> = Vec::new();
        let mut complete_info = (0, 0);
        let root_ctx = Root {
            moves: &root_moves,
            report,
        };
        let mut best_move_changes = 0u32;
        let mut last_best = Move::NULL;
        let mut previous_score = None;
        self.root_effort.clear();
        self.root_effort.extend(root_moves.iter().map(|&m| (m, 0)));
        let mut scores = vec![-INF; multipv];
        let start_depth = 1;
        for depth in start_depth..=max_depth {
            if self.skips(depth) {
                continue;
            }
            self.excluded_root.clear();
            self.root_depth = depth;
            let mut lines: Vec<(Move, i32, Vec<Move>)> = Vec::new();
            for (pv_index, line_score) in scores.iter_mut().enumerate() {
                self.seldepth = 0;
                let prev = *line_score;
                let mut delta = params::aspiration_delta();
                let (mut alpha, mut beta) =
                    if depth >= params::aspiration_min_depth() && prev.abs() < MATE_BOUND {
                        (prev - delta, prev + delta)
                    } else {
                        (-INF, INF)
                    };
                let score = loop {
                    let s = self.search::<true>(root, depth, alpha, beta, 0, &root_ctx);
                    if self.stopped() {
                        break s;
                    }
                    if s <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INF);
                    } else if s >= beta {
                        beta = (s + delta).min(INF);
                    } else {
                        break s;
                    }
                    delta += delta * params::aspiration_growth_percent() / PERCENT;
                    if delta > params::aspiration_max_delta() {
                        alpha = -INF;
                        beta = INF;
                    }
                };
                let interrupted = self.stopped();
                if interrupted && (depth > start_depth || pv_index > 0) {
                    break;
                }
                let mut pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
                if let Some(tables) = self.endgames.as_deref() {
                    // A line that ends in the tables goes on to the end.
                    tables.extend_line(root, &mut pv);
                }
                let Some(&best) = pv.first() else { break };
                *line_score = score;
                self.excluded_root.push(best);
                // Where the tables rank the root, their value is reported.
                let shown = self.reported_score(best, score);
                lines.push((best, shown, pv.clone()));
                if let (Some(rep), false, true) = (report, interrupted, pv_index < reported) {
                    rep.iteration(&Info {
                        depth,
                        seldepth: self.seldepth as i32,
                        multipv: pv_index + 1,
                        score: Score::from_internal(shown),
                        bound: Bound::Exact,
                        nodes: self.total_nodes(),
                        time: self.shared.elapsed(),
                        hashfull: self.shared.tt.hashfull(),
                        tbhits: self.tb_hits(),
                        pv,
                    });
                }
            }
            if weakening.is_some() && lines.len() == multipv {
                complete_info = (depth, self.seldepth as i32);
                complete.clone_from(&lines);
            }
            if let Some((best, score, pv)) = lines.first() {
                if *best != last_best {
                    best_move_changes += 1;
                    last_best = *best;
                }
                result.best = *best;
                result.score = *score;
                result.ponder = pv.get(1).copied();
                result.depth = depth;
            }
            if self.stopped() {
                break;
            }
            if let Some(m) = self.limits.mate {
                if result.score >= MATE_BOUND && (MATE - result.score + 1) / 2 <= m {
                    break;
                }
            }
            let iteration = IterationEnd {
                depth,
                elapsed: self.shared.elapsed(),
                root_moves: root_moves.len(),
                score: result.score,
                best_move_changes,
                best_move_effort: self.root_effort_percent(result.best),
                previous_score,
            };
            previous_score = Some(result.score);
            if self.id == 0
                && !self.shared.pondering.load(Ordering::Relaxed)
                && self.limits.time.stop_after_iteration(&iteration)
            {
                break;
            }
            if depth > params::time_changes_decay_depth() {
                let cap = u32::try_from(params::time_changes_cap()).unwrap_or(0);
                best_move_changes = best_move_changes.saturating_sub(1).min(cap);
            }
        }
        let delta = self.nodes - self.nodes_flushed;
        self.nodes_flushed = self.nodes;
        self.shared.nodes.fetch_add(delta, Ordering::Relaxed);
        result.nodes = self.shared.nodes.load(Ordering::Relaxed);
        if let Some(w) = weakening {
            let scores: Vec<i32> = complete.iter().map(|l| l.1).collect();
            let pick = w.choose(&scores);
            if let (Some((best, score, pv)), true) = (complete.get(pick), pick > 0) {
                result.best = *best;
                result.score = *score;
                result.ponder = pv.get(1).copied();
                // The last line reported is the one played.
                if let Some(rep) = report {
                    rep.iteration(&Info {
                        depth: complete_info.0,
                        seldepth: complete_info.1,
                        multipv: 1,
                        score: Score::from_internal(*score),
                        bound: Bound::Exact,
                        nodes: result.nodes,
                        time: self.shared.elapsed(),
                        hashfull: self.shared.tt.hashfull(),
                        tbhits: self.tb_hits(),
                        pv: pv.clone(),
                    });
                }
            }
        }
        result
    }
}
