//! The Syzygy tables in the search, as Stockfish uses them: at the root
//! the moves are ranked by the tables and only the best ones searched
//! (a won position stays won and is converted); below the root a node of
//! few enough pieces right after a capture or pawn move takes the tables'
//! WDL as its score (a win `TB_WIN - ply`, a loss `-TB_WIN + ply`, a draw
//! 0; cursed wins and blessed losses ±2 with `Syzygy50MoveRule`).

use super::limits::{Limits, SearchSetup};
use super::report::Reporter;
use super::score::{MATE_BOUND, MAX_PLY, TB_WIN};
use super::shared::Shared;
use super::tt::{score_to_tt, Bound};
use super::worker::Worker;
use crate::position::Position;
use crate::syzygy::{RootRanking, RootValue};
use crate::types::Move;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// How much deeper than the node a tablebase result is stored in the
/// hash table (Stockfish: 6).
const TB_STORE_DEPTH_BONUS: i32 = 6;

/// What the tables say of a node before its moves are searched.
pub(super) enum TableProbe {
    /// Nothing (no table, or not probed here).
    Nothing,
    /// The node's score: return it.
    Cut(i32),
    /// PV node: the score is at least this (a win outside the window).
    Floor(i32),
    /// PV node: the score is at most this (a loss outside the window).
    Cap(i32),
}

/// Ranks the root moves by the tables where they know the root: the
/// ranking (`None` where they do not, or no tables are loaded). A table
/// that cannot be read is reported (`error: Syzygy: ...`) and the search
/// goes on without the ranking. Counts the probes as `tbhits`.
pub(super) fn rank_root(
    root: &Position,
    history: &[u64],
    limits: &Limits,
    setup: &SearchSetup,
    shared: &Shared,
    report: Reporter,
) -> Option<Arc<RootRanking>> {
    let tb = setup.syzygy.as_deref()?;
    let config = setup.syzygy_config;
    let limit = config.probe_limit.min(tb.max_pieces(root.rules()));
    if root.occupied().count() > limit {
        return None;
    }
    let mut moves = root.legal_moves().to_vec();
    if !limits.searchmoves.is_empty() {
        moves.retain(|m| limits.searchmoves.contains(m));
    }
    match tb.rank_root_moves(root, history, &moves, config.rule50) {
        Ok(Some(r)) => {
            shared
                .tb_hits
                .fetch_add(moves.len() as u64, Ordering::Relaxed);
            Some(Arc::new(r))
        }
        Ok(None) => None,
        Err(e) => {
            report.message(&format!("error: Syzygy: {e}"));
            None
        }
    }
}

/// The score reported for a root move of this value.
pub(super) fn root_score(value: RootValue) -> i32 {
    match value {
        RootValue::Win => TB_WIN,
        RootValue::Loss => -TB_WIN,
        RootValue::Cp(c) => c,
    }
}

impl Worker {
    /// Takes the tables for `root` from the setup: which positions to probe
    /// ([`Worker::probe_tables`]). With a root the tables rank by DTZ, or a
    /// root not won, the search probes no further (as Stockfish).
    pub(super) fn prepare_tables(&mut self, root: &Position) {
        let config = self.setup.syzygy_config;
        self.tb = self
            .setup
            .syzygy
            .clone()
            .filter(|tb| tb.max_pieces(root.rules()) > 0);
        let max = self
            .tb
            .as_deref()
            .map_or(0, |tb| tb.max_pieces(root.rules()));
        self.tb_cardinality = config.probe_limit.min(max);
        // Tables smaller than the limit asked for: probed at any depth.
        self.tb_probe_depth = if config.probe_limit > max {
            0
        } else {
            config.probe_depth
        };
        self.tb_rule50 = config.rule50 && root.rules().fifty_move_rule;
        if let Some(r) = &self.tb_root {
            let winning = match r.best_value() {
                Some(RootValue::Win) => true,
                Some(RootValue::Cp(c)) => c > 0,
                _ => false,
            };
            if r.by_dtz || !winning {
                self.tb_cardinality = 0;
            }
        }
    }

    /// The tables' word on the node `pos` at `ply` with `depth` to go and
    /// window (`alpha`, `beta`): probed with few enough pieces (exactly
    /// `SyzygyProbeLimit` only at `SyzygyProbeDepth` or deeper), no
    /// castling right, right after a capture or pawn move. A result that
    /// decides the node is stored in the hash table (`eval`: the static
    /// evaluation to store with it).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probe_tables<const PV: bool>(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        eval: i32,
    ) -> TableProbe {
        if self.tb_cardinality == 0 {
            return TableProbe::Nothing;
        }
        let pieces = pos.occupied().count();
        if pieces > self.tb_cardinality
            || (pieces == self.tb_cardinality && depth < self.tb_probe_depth)
            || pos.halfmove_clock() != 0
            || pos.castling_rights() != 0
        {
            return TableProbe::Nothing;
        }
        let Some(wdl) = self.tb.as_deref().and_then(|tb| tb.probe_wdl(pos)) else {
            return TableProbe::Nothing;
        };
        self.shared.tb_hits.fetch_add(1, Ordering::Relaxed);
        let draw = i32::from(self.tb_rule50);
        let v = wdl.value();
        let ply_score = ply as i32;
        let (value, bound) = if v < -draw {
            (-TB_WIN + ply_score, Bound::Upper)
        } else if v > draw {
            (TB_WIN - ply_score, Bound::Lower)
        } else {
            (2 * v * draw, Bound::Exact)
        };
        let decided = match bound {
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
            Bound::Exact | Bound::None => true,
        };
        if decided {
            self.shared.tt.store(
                pos.key(),
                Move::NULL,
                score_to_tt(value, ply),
                eval,
                (depth + TB_STORE_DEPTH_BONUS).min(MAX_PLY as i32 - 1),
                bound,
            );
            return TableProbe::Cut(value);
        }
        match (PV, bound) {
            (true, Bound::Lower) => TableProbe::Floor(value),
            (true, _) => TableProbe::Cap(value),
            (false, _) => TableProbe::Nothing,
        }
    }

    /// The score to report for root move `best` searched to `score`: the
    /// tables' value where they rank the root (unless the search found a
    /// mate), otherwise `score`.
    pub(super) fn reported_score(&self, best: Move, score: i32) -> i32 {
        match self.tb_root.as_deref().and_then(|r| r.value_of(best)) {
            Some(v) if score.abs() < MATE_BOUND => root_score(v),
            _ => score,
        }
    }

    /// `tbhits` for the reports: `None` without tables.
    pub(super) fn tb_hits(&self) -> Option<u64> {
        self.setup
            .syzygy
            .as_ref()
            .map(|_| self.shared.tb_hits.load(Ordering::Relaxed))
    }
}
