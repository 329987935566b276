//! Quiescence search: captures and promotions until the position is quiet,
//! every evasion when in check, forced captures followed in antichess.

use super::movepick::{mvv_lva, ScoreList};
use super::params;
use super::score::{INF, MATE, MATE_BOUND, MAX_PLY};
use super::see::see;
use super::tt::{score_to_tt, Bound};
use super::worker::{Bounds, Worker};
use crate::position::movegen::MoveList;
use crate::position::Position;
use crate::types::{Move, PieceType};

impl Worker {
    /// Quiescence search: captures and promotions (all evasions in
    /// check) until the position is quiet.
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.count_node();
        if PV {
            self.pv_len[ply] = ply;
        }
        if self.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        if let Some(s) = self.table_score(pos, ply) {
            return s;
        }
        let key = pos.key();
        let tt = self.shared.tt.probe(key);
        if let Some(e) = tt {
            if !PV {
                if let Some(s) = e.cutoff(ply, alpha, beta) {
                    return s;
                }
            }
        }
        let losers = pos.rules().losers_win;
        let mut moves = MoveList::new();
        pos.generate_tactical(&mut moves);
        // Antichess: the side to move may not decline a compulsory capture,
        // so with a single capture to make (`losers_qs_forced`) it does not
        // stand pat: the capture is searched. With more, standing pat keeps
        // the capture tree bounded (searching three without it found fewer
        // forced wins in the same nodes; SPSA moved the limit from two to
        // one, docs/measurements.md).
        let captures_compulsory = losers && moves.first().is_some_and(|m| pos.is_capture(*m));
        let forced_captures =
            captures_compulsory && moves.len() <= params::losers_qs_forced() as usize;
        let mut best = -INF;
        let stand_pat;
        let mut raw_eval = 0;
        if in_check {
            if moves.is_empty() {
                return self.terminal_score(pos, ply);
            }
            stand_pat = -INF;
        } else {
            if moves.is_empty() && (losers || pos.duty_pending()) {
                return self.terminal_score(pos, ply);
            }
            raw_eval = match tt {
                Some(e) => e.eval,
                None => self.evaluate(pos, ply),
            };
            stand_pat = self.histories.corrected(pos, raw_eval);
            if !forced_captures {
                if stand_pat >= beta {
                    return stand_pat;
                }
                if losers && !captures_compulsory {
                    // No capture is forced: the position is quiet.
                    return stand_pat;
                }
                alpha = alpha.max(stand_pat);
                best = stand_pat;
            }
        }
        let n = moves.len();
        // Filled in place: collecting would build the 4 KiB list and copy it.
        let mut scores = ScoreList::new();
        for &m in &moves {
            scores.push(pos.captured_kind(m).map_or(0, |v| mvv_lva(pos, m, v)));
        }
        let mut best_move = Move::NULL;
        for i in 0..n {
            let mut bi = i;
            for j in i + 1..n {
                if scores[j] > scores[bi] {
                    bi = j;
                }
            }
            moves.swap(i, bi);
            scores.swap(i, bi);
            let m = moves[i];
            if !in_check && !losers {
                if m.is_promotion() && m.promotion_piece() != PieceType::Queen {
                    continue;
                }
                if see(pos, m) < 0 {
                    continue;
                }
            }
            let mut child = *pos;
            self.make(&mut child, m, ply);
            self.keys.push(child.key());
            let score = -self.qsearch::<PV>(&child, -beta, -alpha, ply + 1);
            self.keys.pop();
            if self.stopped() {
                return 0;
            }
            let bounds = Bounds {
                best: &mut best,
                best_move: &mut best_move,
                alpha: &mut alpha,
                beta,
            };
            if self.record_score::<PV>(ply, m, score, bounds) {
                break;
            }
        }
        if best == -INF {
            // In check with every evasion pruned (cannot happen) or forced
            // captures all pruned: fall back to the static view.
            best = if in_check {
                -MATE + ply as i32
            } else {
                stand_pat.max(-MATE_BOUND)
            };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            score_to_tt(best, ply),
            if in_check { 0 } else { raw_eval },
            0,
            bound,
        );
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn quiesce(fen: &str, variant: Variant) -> i32 {
        let pos = Position::from_fen(fen, variant.rules()).expect("valid FEN");
        Worker::for_test(&pos).qsearch::<true>(&pos, -INF, INF, 0)
    }

    /// Antichess: White must take Black's last piece, and the capture
    /// gives Black the win. Quiescence may not stand pat on a static
    /// evaluation there: it returns the loss.
    #[test]
    fn antichess_single_compulsory_capture_is_searched() {
        let fen = "8/8/8/8/3n4/2P5/8/8 w - - 0 1";
        for variant in [Variant::Antichess, Variant::Giveaway] {
            let score = quiesce(fen, variant);
            assert_eq!(score, -MATE + 1, "{variant:?}");
        }
    }
}
