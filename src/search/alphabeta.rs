//! The alpha-beta search proper: PVS with transposition-table cutoffs,
//! reverse futility, null move, internal iterative reduction, late move
//! pruning and reductions, futility and bad-capture pruning, check
//! extensions.

use super::checks::CheckInfo;
use super::ordering::{is_bad_tactical, is_plain_quiet, offers_capture, piece_to, NO_PIECE_TO};
use super::see::see;
use super::tt::{score_from_tt, score_to_tt, Bound};
use super::worker::{Bounds, Root, Worker};
use super::{params, INF, MATE, MATE_BOUND, MAX_PLY};
use crate::position::Position;
use crate::types::{Move, PieceType};

impl Worker {
    /// Alpha-beta (PVS) search of `pos` to `depth` at `ply` within
    /// (`alpha`, `beta`); `root_ctx` restricts the root moves (and reports
    /// the one being searched); every other node gets [`Root::NONE`].
    pub(super) fn search<const PV: bool>(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        root_ctx: &Root,
    ) -> i32 {
        let root = ply == 0;
        if PV {
            self.pv_len[ply] = ply;
        }
        if depth <= 0 {
            return self.qsearch::<PV>(pos, alpha, beta, ply);
        }
        self.count_node();
        if self.stopped() && !root {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if !root {
            if ply >= MAX_PLY - 2 {
                return if in_check { 0 } else { self.evaluate(pos, ply) };
            }
            let rules = pos.rules();
            if (rules.fifty_move_rule && pos.halfmove_clock() >= 100)
                || self.is_repetition(pos)
                || (!rules.drops && !rules.losers_win && pos.insufficient_material())
            {
                return 0;
            }
            // Mate distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            // Antichess endgame tables: the exact result.
            if let Some(s) = self.table_score(pos, ply) {
                return s;
            }
        }
        let key = pos.key();
        // A singular-extension search of this node (one move left out)
        // neither reads nor writes the table, and reuses the static eval.
        let excluded = self.excluded[ply];
        let singular_search = !excluded.is_null();
        let tt = if singular_search {
            None
        } else {
            self.shared.tt.probe(key)
        };
        let tt_move = tt.map(|e| e.mv).unwrap_or(Move::NULL);
        if let Some(e) = tt {
            if !PV && e.depth >= depth {
                if let Some(s) = e.cutoff(ply, alpha, beta) {
                    return s;
                }
            }
        }
        // The raw evaluation goes into the table; the search uses it with
        // the learned correction.
        let raw_eval = match tt {
            _ if in_check || singular_search => -INF,
            Some(e) => e.eval,
            None => self.evaluate(pos, ply),
        };
        let static_eval = if in_check {
            -INF
        } else if singular_search {
            self.static_eval[ply]
        } else {
            self.hist.corrected(pos, raw_eval)
        };
        self.static_eval[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.static_eval[ply - 2];
        let losers = pos.rules().losers_win;
        // Antichess and giveaway: the moves are known before pruning, since
        // a compulsory capture changes everything about this node (no
        // pruning on the static evaluation, no reductions: forced lines are
        // narrow, and they decide games).
        let early_moves = losers.then(|| pos.legal_moves());
        let forced = early_moves
            .as_ref()
            .is_some_and(|m| m.first().is_some_and(|&first| pos.is_capture(first)));
        // Margins on the static evaluation are three times wider where
        // material is a liability and can change hands in long forced runs.
        let margin_scale = if losers { 3 } else { 1 };

        if !PV && !in_check && !root && !forced && !singular_search {
            // Reverse futility pruning.
            if depth <= params::rfp_depth()
                && static_eval - params::rfp_margin() * depth * margin_scale
                    + if improving {
                        params::rfp_improving()
                    } else {
                        0
                    }
                    >= beta
                && static_eval.abs() < MATE_BOUND
            {
                return static_eval;
            }
            // Null move: not in antichess (zugzwang is the rule), not when a
            // King's-chess duty is due, not with only pawns left.
            let us = pos.side_to_move();
            let non_pawn = pos.color_bb(us)
                & !pos.pieces(us, PieceType::Pawn)
                & !pos.pieces(us, PieceType::King);
            let has_material = non_pawn.nonempty() || pos.pocket_nonempty(us);
            if depth >= params::nmp_min_depth()
                && static_eval >= beta
                && !losers
                && !pos.duty_pending()
                && has_material
                && !self.prev_move[ply.saturating_sub(1)].is_null()
            {
                let r = params::nmp_base()
                    + depth / params::nmp_depth_div()
                    + ((static_eval - beta) / params::nmp_eval_div()).min(params::nmp_eval_max());
                let mut child = *pos;
                self.make_null(&mut child, ply);
                self.prev_move[ply] = Move::NULL;
                self.piece_to[ply + 2] = NO_PIECE_TO;
                self.keys.push(child.key());
                let s = -self.search::<false>(
                    &child,
                    depth - 1 - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    &Root::NONE,
                );
                self.keys.pop();
                if self.stopped() {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        // Internal iterative reduction.
        if depth >= params::iir_depth() && tt_move.is_null() && !singular_search {
            depth -= 1;
        }

        let mut moves = early_moves.unwrap_or_else(|| pos.legal_moves());
        if root {
            moves.retain(|m| root_ctx.moves.contains(m) && !self.excluded_root.contains(m));
        }
        if moves.is_empty() {
            if root {
                return 0;
            }
            return self.terminal_score(pos, ply);
        }
        let checks = CheckInfo::new(pos);
        let mut scores = self.score_moves(pos, &moves, tt_move, ply, &checks);

        let original_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move = Move::NULL;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let mut captures_tried: arrayvec::ArrayVec<Move, 32> = arrayvec::ArrayVec::new();
        let n = moves.len();
        let mut count = 0;
        let mut skip_quiets = false;
        for i in 0..n {
            // Selection: bring the best remaining move to position i. Once
            // late quiet moves are pruned, only bad captures remain to try.
            let mut bi = i;
            for j in i + 1..n {
                if scores[j] > scores[bi] {
                    bi = j;
                }
            }
            if skip_quiets && is_plain_quiet(scores[bi]) {
                // The best remaining is a plain quiet: every other one is
                // quiet or a bad capture; try the bad captures only.
                if let Some(j) = (i..n).find(|&j| is_bad_tactical(scores[j])) {
                    bi = j;
                } else {
                    break;
                }
            }
            moves.swap(i, bi);
            scores.swap(i, bi);
            let m = moves[i];
            if m == excluded {
                continue;
            }
            let move_score = scores[i];
            let capture = pos.is_capture(m);
            let quiet = !capture && !m.is_promotion();
            count += 1;
            if root {
                self.root_move_started(m, count, root_ctx);
            }

            // Antichess: a quiet move onto an attacked square forces the
            // opponent to capture; it is tactical, never pruned.
            let offers = quiet && offers_capture(pos, m);
            if !root && best_score > -MATE_BOUND && !offers {
                // Late move pruning and futility for quiet moves that do not check.
                if quiet && !in_check && is_plain_quiet(move_score) && !checks.gives_check(pos, m) {
                    let lmp_limit =
                        (params::lmp_base() + depth * depth) / if improving { 1 } else { 2 };
                    if depth <= params::lmp_depth() && count as i32 > lmp_limit + 2 {
                        skip_quiets = true;
                        continue;
                    }
                    if depth <= params::fut_depth()
                        && static_eval
                            + (params::fut_base() + params::fut_margin() * depth) * margin_scale
                            <= alpha
                    {
                        continue;
                    }
                }
                // Bad captures at low depth.
                if capture
                    && depth <= params::see_capture_depth()
                    && move_score < 0
                    && see(pos, m) < -params::see_capture_margin() * depth
                {
                    continue;
                }
            }

            // Singular extension: when the table's move is much better than
            // every other (a search without it at reduced depth fails low
            // below the table's score), it is extended; when even the others
            // beat beta, the node is cut (multi-cut); when the table's score
            // beats beta anyway, the move is searched a ply shallower.
            let mut singular_ext = 0;
            if let Some(e) = tt.filter(|e| {
                !root
                    && m == tt_move
                    && depth >= params::se_depth()
                    && e.depth >= depth - 3
                    && matches!(e.bound, Bound::Lower | Bound::Exact)
                    && e.score.abs() < MATE_BOUND
            }) {
                let tt_score = score_from_tt(e.score, ply);
                let singular_beta = tt_score - params::se_margin() * depth / 8;
                self.excluded[ply] = m;
                let s = self.search::<false>(
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    &Root::NONE,
                );
                self.excluded[ply] = Move::NULL;
                if self.stopped() {
                    return 0;
                }
                if s < singular_beta {
                    singular_ext = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                } else if tt_score >= beta {
                    singular_ext = -1;
                }
            }

            let mut child = *pos;
            self.piece_to[ply + 2] = piece_to(pos, m);
            self.make(&mut child, m, ply);
            let gives_check = child.in_check();
            self.prev_move[ply] = m;
            self.keys.push(child.key());
            if PV {
                // The child's line is empty until a PV search of it fills it:
                // a zero-window search that fails high must not leave the
                // line of an earlier sibling behind this move.
                self.pv_len[ply + 1] = ply + 1;
            }

            let mut ext = singular_ext;
            // A forced move (the only legal one, as a single compulsory
            // capture often is) costs no depth; nor does a check that is
            // safe or deep enough.
            if ext == 0
                && ((n == 1 && losers)
                    || (gives_check
                        && (ply as i32) < 2 * depth + 4
                        && (depth >= params::check_ext_depth() || see(pos, m) >= 0)))
            {
                ext = 1;
            }
            let new_depth = depth - 1 + ext;
            let mut score;
            if count == 1 {
                score = -self.search::<PV>(&child, new_depth, -beta, -alpha, ply + 1, &Root::NONE);
            } else {
                let mut r = 0;
                if depth >= 3
                    && count > 1 + PV as usize
                    && (quiet || move_score < 0)
                    && !forced
                    && !offers
                {
                    r = self.lmr[(depth as usize).min(63)][count.min(63)] as i32;
                    if PV {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if gives_check || in_check {
                        r -= 1;
                    }
                    if quiet {
                        r -= (move_score / params::lmr_history_div()).clamp(-2, 2);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search::<false>(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    &Root::NONE,
                );
                if score > alpha && r > 0 {
                    score = -self.search::<false>(
                        &child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        &Root::NONE,
                    );
                }
                if PV && score > alpha && score < beta {
                    score = -self.search::<true>(
                        &child,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        &Root::NONE,
                    );
                }
            }
            self.keys.pop();
            if self.stopped() && !(root && count == 1) {
                return 0;
            }
            let bounds = Bounds {
                best: &mut best_score,
                best_move: &mut best_move,
                alpha: &mut alpha,
                beta,
            };
            if self.record_score::<PV>(ply, m, score, bounds) {
                self.update_cutoff_stats(pos, m, &quiets_tried, &captures_tried, depth, ply);
                break;
            }
            if m != best_move {
                if quiet {
                    let _ = quiets_tried.try_push(m);
                } else if capture {
                    let _ = captures_tried.try_push(m);
                }
            }
        }
        if root && best_move.is_null() {
            // Fail low at the root: keep the first move as the line.
            if let Some(&m) = moves.first() {
                self.pv_len[1] = 1;
                self.update_pv(0, m);
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if PV && best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !self.stopped() && !singular_search && (!root || self.excluded_root.is_empty()) {
            self.shared.tt.store(
                key,
                best_move,
                score_to_tt(best_score, ply),
                if in_check { 0 } else { raw_eval },
                depth,
                bound,
            );
            // Learn how far the static evaluation was off, where the score
            // says so (a bound on the right side of it) and a quiet position
            // is behind it (not a capture or promotion deciding it).
            let tactical =
                !best_move.is_null() && (pos.is_capture(best_move) || best_move.is_promotion());
            let informative = match bound {
                Bound::Lower => best_score > static_eval,
                Bound::Upper => best_score < static_eval,
                _ => true,
            };
            if !in_check && !tactical && informative && best_score.abs() < MATE_BOUND {
                self.hist.learn_correction(pos, raw_eval, best_score, depth);
            }
        }
        best_score
    }
}
