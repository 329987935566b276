//! The alpha-beta search proper: PVS with transposition-table cutoffs,
//! reverse futility, null move, internal iterative reduction, late move
//! pruning and reductions, futility and bad-capture pruning, singular and
//! check extensions.
//!
//! [`Worker::search`] reads as the algorithm; each step is a function of
//! its own below it.

use super::checks::CheckInfo;
use super::history::NO_PIECE_TO;
use super::movepick::{is_plain_quiet, offers_capture, MovePicker};
use super::params;
use super::score::{is_decisive, FIFTY_MOVE_PLIES, INF, MATE, MATE_BOUND, MAX_PLY, TB_WIN_BOUND};
use super::see::see;
use super::tablebase::TableProbe;
use super::tt::{score_from_tt, score_to_tt, Bound, TtEntry};
use super::worker::{Bounds, Root, TriedMoves, Worker};
use crate::position::movegen::MoveList;
use crate::position::Position;
use crate::types::{Move, PieceType};

/// What a node knows before its moves are searched.
struct Node {
    /// Whether the side to move is in check.
    in_check: bool,
    /// The table's entry (none in a singular-extension search).
    tt: Option<TtEntry>,
    /// The table's move (null: none).
    tt_move: Move,
    /// The uncorrected static evaluation (what the table stores; `-INF` in check).
    raw_eval: i32,
    /// The corrected static evaluation the search uses (`-INF` in check).
    static_eval: i32,
    /// The static evaluation is better than two plies before.
    improving: bool,
    /// Antichess, giveaway or suicide (whose legal moves are in the node's picker
    /// already: generated before pruning, see `read_node`).
    losers: bool,
    /// Antichess, giveaway and suicide: a capture is compulsory here.
    forced: bool,
    /// The variant family's pruning and reduction parameters.
    pruning: Pruning,
    /// The move a singular-extension search of this node leaves out (null: none).
    excluded: Move,
}

/// Pruning and reduction parameters that antichess, giveaway and suicide tune on
/// their own (SPSA, docs/measurements.md), chosen once per node.
#[derive(Clone, Copy)]
struct Pruning {
    /// How many times wider margins on the static evaluation are.
    margin_scale: i32,
    /// Reverse futility pruning's deepest depth.
    rfp_depth: i32,
    /// Reverse futility pruning's margin per ply.
    rfp_margin: i32,
    /// Late move pruning's base.
    lmp_base: i32,
    /// Late move pruning: moves always tried beyond the limit.
    lmp_extra: i32,
    /// Late move pruning: the limit's divisor when not improving.
    lmp_not_improving_div: i32,
    /// Late move reductions' shallowest depth.
    lmr_min_depth: i32,
}

impl Pruning {
    /// The parameters of antichess, giveaway and suicide (`losers`) or of the others.
    #[inline(always)]
    fn of(losers: bool) -> Pruning {
        if losers {
            // Margins are wider where material is a liability and can
            // change hands in long forced runs; the rest prunes more.
            Pruning {
                margin_scale: params::losers_margin_scale(),
                rfp_depth: params::losers_rfp_depth(),
                rfp_margin: params::losers_rfp_margin(),
                lmp_base: params::losers_lmp_base(),
                lmp_extra: params::losers_lmp_extra(),
                lmp_not_improving_div: params::losers_lmp_not_improving_div(),
                lmr_min_depth: params::losers_lmr_min_depth(),
            }
        } else {
            Pruning {
                margin_scale: 1,
                rfp_depth: params::rfp_depth(),
                rfp_margin: params::rfp_margin(),
                lmp_base: params::lmp_base(),
                lmp_extra: params::lmp_extra(),
                lmp_not_improving_div: params::lmp_not_improving_div(),
                lmr_min_depth: params::lmr_min_depth(),
            }
        }
    }
}

impl Node {
    /// This is a singular-extension search (one move left out).
    fn singular_search(&self) -> bool {
        !self.excluded.is_null()
    }
}

/// A move about to be searched, with what the move loop knows of it
/// (worked out once, read by pruning, reductions and the history update).
#[derive(Clone, Copy)]
struct Candidate {
    /// The move.
    m: Move,
    /// Its ordering score.
    score: i32,
    /// Its number among the moves searched at this node (1-based).
    count: usize,
    /// It captures.
    capture: bool,
    /// Neither a capture nor a promotion.
    quiet: bool,
}

/// What a singular-extension test decides for the table's move.
enum Singular {
    /// Search the move this many plies deeper (1), shallower (-1) or as is (0).
    Extend(i32),
    /// Even without the table's move the node fails high: cut with this score.
    Cut(i32),
    /// The search was stopped during the test.
    Stopped,
}

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
        if !root {
            if let Some(s) = self.decided_before_search(pos, &mut alpha, &mut beta, ply) {
                return s;
            }
        }
        // The node's moves go straight into its picker (no copy of the list).
        let mut picker = MovePicker::new();
        let node = match self.read_node::<PV>(pos, depth, alpha, beta, ply, picker.moves_mut()) {
            Ok(node) => node,
            Err(cutoff) => return cutoff,
        };
        // The Syzygy tables: a score, or (PV) a bound on it.
        let (mut tb_floor, mut tb_cap) = (-INF, INF);
        if !root && !node.singular_search() {
            let eval = if node.in_check { 0 } else { node.raw_eval };
            match self.probe_tables::<PV>(pos, depth, alpha, beta, ply, eval) {
                TableProbe::Nothing => {}
                TableProbe::Cut(s) => return s,
                TableProbe::Floor(s) => {
                    tb_floor = s;
                    alpha = alpha.max(s);
                }
                TableProbe::Cap(s) => tb_cap = s,
            }
        }
        if !PV && !root && !node.in_check && !node.forced && !node.singular_search() {
            if let Some(s) = self.prune_node(pos, &node, depth, beta, ply) {
                return s;
            }
        }
        // Internal iterative reduction.
        if depth >= params::iir_depth() && node.tt_move.is_null() && !node.singular_search() {
            depth -= 1;
        }

        if !node.losers {
            pos.generate(picker.moves_mut());
        }
        let moves = picker.moves_mut();
        if root {
            moves.retain(|m| root_ctx.moves.contains(m) && !self.excluded_root.contains(m));
        }
        if moves.is_empty() {
            return if root {
                0
            } else {
                self.terminal_score(pos, ply)
            };
        }
        let checks = CheckInfo::new(pos);
        let hints = self.ordering_hints(ply, node.tt_move);
        picker.score(pos, &hints, &checks);

        let original_alpha = alpha;
        let mut best_score = tb_floor;
        let mut best_move = Move::NULL;
        let mut tried = TriedMoves::default();
        let mut count = 0;
        while let Some((m, move_score)) = picker.next_move() {
            if m == node.excluded {
                continue;
            }
            let capture = pos.is_capture(m);
            count += 1;
            let c = Candidate {
                m,
                score: move_score,
                count,
                capture,
                quiet: !capture && !m.is_promotion(),
            };
            if root {
                self.root_move_started(m, count, root_ctx);
            }
            // Antichess: a quiet move onto an attacked square forces the
            // opponent to capture; it is tactical, never pruned.
            let offers = c.quiet && offers_capture(pos, m);
            if !root && best_score > -TB_WIN_BOUND && !offers {
                match self.move_pruned(pos, &node, &checks, &c, depth, alpha) {
                    MovePruning::Search => {}
                    MovePruning::Skip => continue,
                    MovePruning::SkipQuiets => {
                        picker.skip_quiets();
                        continue;
                    }
                }
            }
            let singular_ext = match self.singular_extension(pos, &node, m, depth, beta, ply, root)
            {
                Some(Singular::Extend(e)) => e,
                Some(Singular::Cut(s)) => return s,
                Some(Singular::Stopped) => return 0,
                None => 0,
            };

            let mut child = *pos;
            self.record_move(pos, m, ply);
            self.make(&mut child, m, ply);
            self.keys.push(child.key());
            if PV {
                // The child's line is empty until a PV search of it fills it:
                // a zero-window search that fails high must not leave the
                // line of an earlier sibling behind this move.
                self.pv_len[ply + 1] = ply + 1;
            }
            let gives_check = child.in_check();
            let forced_move = picker.len() == 1 && node.losers;
            let ext = if singular_ext == 0
                && (forced_move || (gives_check && self.check_extended(pos, m, depth, ply)))
            {
                1
            } else {
                singular_ext
            };
            let new_depth = depth - 1 + ext;
            let nodes_before = self.nodes;
            let score = if count == 1 {
                -self.search::<PV>(&child, new_depth, -beta, -alpha, ply + 1, &Root::NONE)
            } else {
                let r = if depth >= node.pruning.lmr_min_depth
                    && count > 1 + PV as usize
                    && (c.quiet || move_score < 0)
                    && !node.forced
                    && !offers
                {
                    self.reduction::<PV>(&node, &c, depth, new_depth, gives_check)
                } else {
                    0
                };
                self.search_later_move::<PV>(&child, new_depth, r, alpha, beta, ply)
            };
            self.keys.pop();
            if root {
                self.add_root_effort(m, self.nodes - nodes_before);
            }
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
                self.update_cutoff_stats(pos, m, &tried, depth, ply);
                break;
            }
            if m != best_move {
                tried.add(m, c.capture, c.quiet);
            }
        }
        best_score = best_score.min(tb_cap);
        if root && best_move.is_null() {
            // Fail low at the root: keep the first move as the line.
            let first = picker.first_picked();
            if !first.is_null() {
                self.pv_len[1] = 1;
                self.update_pv(0, first);
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if PV && best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !self.stopped() && !node.singular_search() && (!root || self.excluded_root.is_empty()) {
            self.store_node(pos, &node, best_move, best_score, bound, depth, ply);
        }
        best_score
    }

    /// Below the root, what decides a node before any search: the deepest
    /// ply, a draw by rule or repetition, mate distance pruning (which may
    /// narrow the window) and the endgame tables.
    fn decided_before_search(
        &mut self,
        pos: &Position,
        alpha: &mut i32,
        beta: &mut i32,
        ply: usize,
    ) -> Option<i32> {
        if ply >= MAX_PLY - 2 {
            return Some(if pos.in_check() {
                0
            } else {
                self.evaluate(pos, ply)
            });
        }
        let rules = pos.rules();
        if (rules.fifty_move_rule && pos.halfmove_clock() >= FIFTY_MOVE_PLIES)
            || self.is_repetition(pos)
            || (!rules.drops && !rules.losers_win && pos.insufficient_material())
        {
            return Some(0);
        }
        // Mate distance pruning.
        *alpha = (*alpha).max(-MATE + ply as i32);
        *beta = (*beta).min(MATE - ply as i32 - 1);
        if *alpha >= *beta {
            return Some(*alpha);
        }
        // Antichess endgame tables: the exact result.
        self.table_score(pos, ply)
    }

    /// The table probe (`Err` with the score of a table cutoff), the static
    /// evaluation, and what antichess needs known before pruning.
    fn read_node<const PV: bool>(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        moves: &mut MoveList,
    ) -> Result<Node, i32> {
        let in_check = pos.in_check();
        // A singular-extension search of this node (one move left out)
        // neither reads nor writes the table, and reuses the static eval.
        let excluded = self.stack.at(ply).excluded;
        let singular_search = !excluded.is_null();
        let tt = if singular_search {
            None
        } else {
            self.shared.tt.probe(pos.key())
        };
        if let Some(e) = tt {
            if !PV && e.depth >= depth {
                if let Some(s) = e.cutoff(ply, alpha, beta) {
                    return Err(s);
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
            self.stack.at(ply).static_eval
        } else {
            self.histories.corrected(pos, raw_eval)
        };
        self.stack.at_mut(ply).static_eval = static_eval;
        let improving =
            !in_check && ply >= 2 && static_eval > self.stack.before(ply, 2).static_eval;
        let losers = pos.rules().losers_win;
        // Antichess, giveaway and suicide: the moves are known before pruning, since
        // a compulsory capture changes everything about this node (no
        // pruning on the static evaluation, no reductions: forced lines are
        // narrow, and they decide games).
        if losers {
            pos.generate(moves);
        }
        let forced = losers && moves.first().is_some_and(|&first| pos.is_capture(first));
        Ok(Node {
            in_check,
            tt,
            tt_move: tt.map(|e| e.mv).unwrap_or(Move::NULL),
            raw_eval,
            static_eval,
            improving,
            losers,
            forced,
            pruning: Pruning::of(losers),
            excluded,
        })
    }

    /// Pruning before the moves (non-PV, not in check, not forced): reverse
    /// futility and the null move. `Some(score)` ends the node.
    fn prune_node(
        &mut self,
        pos: &Position,
        node: &Node,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let static_eval = node.static_eval;
        // Reverse futility pruning.
        let improving_bonus = if node.improving {
            params::rfp_improving()
        } else {
            0
        };
        let p = &node.pruning;
        if depth <= p.rfp_depth
            && static_eval - p.rfp_margin * depth * p.margin_scale + improving_bonus >= beta
            && static_eval.abs() < MATE_BOUND
        {
            return Some(static_eval);
        }
        // Null move: not in antichess (zugzwang is the rule), not when a
        // King's-chess duty is due, not with only pawns left, not twice in
        // a row.
        let us = pos.side_to_move();
        let non_pawn =
            pos.color_bb(us) & !pos.pieces(us, PieceType::Pawn) & !pos.pieces(us, PieceType::King);
        let has_material = non_pawn.nonempty() || pos.pocket_nonempty(us);
        if depth < params::nmp_min_depth()
            || static_eval < beta
            || node.losers
            || pos.duty_pending()
            || !has_material
            || self.stack.before(ply, 1).current_move.is_null()
        {
            return None;
        }
        let r = params::nmp_base()
            + depth / params::nmp_depth_div()
            + ((static_eval - beta) / params::nmp_eval_div()).min(params::nmp_eval_max());
        let mut child = *pos;
        self.make_null(&mut child, ply);
        let entry = self.stack.at_mut(ply);
        entry.current_move = Move::NULL;
        entry.piece_to = NO_PIECE_TO;
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
            return Some(0);
        }
        // A null-move mate (or tablebase win) is not proven: it says only "beta".
        (s >= beta).then_some(if s >= TB_WIN_BOUND { beta } else { s })
    }

    /// Late move pruning, futility and bad-capture pruning of the move `c`.
    fn move_pruned(
        &self,
        pos: &Position,
        node: &Node,
        checks: &CheckInfo,
        c: &Candidate,
        depth: i32,
        alpha: i32,
    ) -> MovePruning {
        let (m, move_score, count) = (c.m, c.score, c.count);
        // Late move pruning and futility for quiet moves that do not check.
        if c.quiet && !node.in_check && is_plain_quiet(move_score) && !checks.gives_check(pos, m) {
            let p = &node.pruning;
            let lmp_limit = (p.lmp_base + depth * depth)
                / if node.improving {
                    1
                } else {
                    p.lmp_not_improving_div
                };
            if depth <= params::lmp_depth() && count as i32 > lmp_limit + p.lmp_extra {
                return MovePruning::SkipQuiets;
            }
            if depth <= params::fut_depth()
                && node.static_eval
                    + (params::fut_base() + params::fut_margin() * depth) * p.margin_scale
                    <= alpha
            {
                return MovePruning::Skip;
            }
        }
        // Bad captures at low depth.
        if c.capture
            && depth <= params::see_capture_depth()
            && move_score < 0
            && see(pos, m) < -params::see_capture_margin() * depth
        {
            return MovePruning::Skip;
        }
        MovePruning::Search
    }

    /// Singular extension of the table's move `m`: when it is much better
    /// than every other (a search without it at reduced depth fails low
    /// below the table's score), it is extended; when even the others beat
    /// beta, the node is cut (multi-cut); when the table's score beats
    /// beta anyway, the move is searched a ply shallower. `None`: no test
    /// (not the table's move, too shallow, ...).
    #[allow(clippy::too_many_arguments)]
    fn singular_extension(
        &mut self,
        pos: &Position,
        node: &Node,
        m: Move,
        depth: i32,
        beta: i32,
        ply: usize,
        root: bool,
    ) -> Option<Singular> {
        let e = node.tt.filter(|e| {
            !root
                && m == node.tt_move
                && depth >= params::se_depth()
                && e.depth >= depth - params::se_tt_depth_slack()
                && matches!(e.bound, Bound::Lower | Bound::Exact)
                && !is_decisive(e.score)
        })?;
        let tt_score = score_from_tt(e.score, ply);
        let singular_beta = tt_score - params::se_margin() * depth / params::SE_MARGIN_UNITS;
        self.stack.at_mut(ply).excluded = m;
        let s = self.search::<false>(
            pos,
            (depth - 1) / params::SE_DEPTH_DIVISOR,
            singular_beta - 1,
            singular_beta,
            ply,
            &Root::NONE,
        );
        self.stack.at_mut(ply).excluded = Move::NULL;
        if self.stopped() {
            return Some(Singular::Stopped);
        }
        Some(if s < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if tt_score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        })
    }

    /// A check costs no depth when it is safe or deep enough, within a
    /// bound on the line's length.
    fn check_extended(&self, pos: &Position, m: Move, depth: i32, ply: usize) -> bool {
        (ply as i32) < params::check_ext_ply_mult() * depth + params::check_ext_ply_add()
            && (depth >= params::check_ext_depth() || see(pos, m) >= 0)
    }

    /// The late-move reduction of the move `c`.
    fn reduction<const PV: bool>(
        &self,
        node: &Node,
        c: &Candidate,
        depth: i32,
        new_depth: i32,
        gives_check: bool,
    ) -> i32 {
        let last = super::worker::LMR_TABLE_SIZE - 1;
        let mut r = i32::from(self.lmr[(depth as usize).min(last)][c.count.min(last)]);
        if PV {
            r -= 1;
        }
        if !node.improving {
            r += 1;
        }
        if gives_check || node.in_check {
            r -= 1;
        }
        if c.quiet {
            let max = params::lmr_history_max();
            r -= (c.score / params::lmr_history_div()).clamp(-max, max);
        }
        r.clamp(0, new_depth - 1)
    }

    /// PVS for every move after the first: a zero-window search reduced by
    /// `r`, again without the reduction when it beats alpha, and in a PV
    /// node with the full window when it lands inside it.
    fn search_later_move<const PV: bool>(
        &mut self,
        child: &Position,
        new_depth: i32,
        r: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let zero_window = |w: &mut Worker, d: i32| {
            -w.search::<false>(child, d, -alpha - 1, -alpha, ply + 1, &Root::NONE)
        };
        let mut score = zero_window(self, new_depth - r);
        if score > alpha && r > 0 {
            score = zero_window(self, new_depth);
        }
        if PV && score > alpha && score < beta {
            score = -self.search::<true>(child, new_depth, -beta, -alpha, ply + 1, &Root::NONE);
        }
        score
    }

    /// Stores the node's result in the table and teaches the evaluation
    /// correction how far the static evaluation was off.
    #[allow(clippy::too_many_arguments)]
    fn store_node(
        &mut self,
        pos: &Position,
        node: &Node,
        best_move: Move,
        best_score: i32,
        bound: Bound,
        depth: i32,
        ply: usize,
    ) {
        self.shared.tt.store(
            pos.key(),
            best_move,
            score_to_tt(best_score, ply),
            if node.in_check { 0 } else { node.raw_eval },
            depth,
            bound,
        );
        // Learn where the score says so (a bound on the right side of the
        // static evaluation) and a quiet position is behind it (not a
        // capture or promotion deciding it).
        let tactical =
            !best_move.is_null() && (pos.is_capture(best_move) || best_move.is_promotion());
        let informative = match bound {
            Bound::Lower => best_score > node.static_eval,
            Bound::Upper => best_score < node.static_eval,
            Bound::Exact | Bound::None => true,
        };
        if !node.in_check && !tactical && informative && !is_decisive(best_score) {
            self.histories
                .learn_correction(pos, node.raw_eval, best_score, depth);
        }
    }
}

/// What the pruning of one move decides.
enum MovePruning {
    /// Search it.
    Search,
    /// Skip it.
    Skip,
    /// Skip it and every later plain quiet move.
    SkipQuiets,
}
