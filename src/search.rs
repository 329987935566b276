//! Parallel alpha-beta search (Lazy SMP): iterative deepening with
//! aspiration windows, PVS, quiescence, transposition table, null move,
//! late-move reductions, futility pruning, check extensions, killers,
//! counter moves and history tables that include drops.
//!
//! The search never prints: it reports typed results through a callback.

use crate::attacks;
use crate::eval::evaluate;
use crate::eval::nnue::{Accumulator, Network};
use crate::position::movegen::MoveList;
use crate::position::Position;
use crate::tt::{Bound, TranspositionTable};
use crate::types::{Bitboard, Move, PieceType, Square};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    /// Set to end the search without reporting a result (a bughouse pocket
    /// change restarts the search).
    pub silent: AtomicBool,
}

impl Shared {
    /// Fresh state for a search.
    pub fn new(tt: Arc<TranspositionTable>) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start: std::sync::Mutex::new(Instant::now()),
            silent: AtomicBool::new(false),
        }
    }

    /// Time since the search started (or since `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        match self.start.lock() {
            Ok(s) => s.elapsed(),
            Err(p) => p.into_inner().elapsed(),
        }
    }
}

/// Ordering scores, one per move of a `MoveList`.
type ScoreList = arrayvec::ArrayVec<i32, { crate::position::movegen::MAX_MOVES }>;

const HIST_SIZE: usize = 64 * 64 + 5 * 64;
const HIST_MAX: i32 = 16384;

#[inline(always)]
fn hist_index(m: Move) -> usize {
    if m.is_drop() {
        4096 + m.drop_piece().index() * 64 + m.to().index()
    } else {
        m.from().index() * 64 + m.to().index()
    }
}

use crate::eval::PIECE_VALUE as SEE_VALUE;

/// Static exchange evaluation: the material balance of the capture sequence
/// on `m`'s target square, best play for both sides (drops included as moves
/// that capture nothing).
pub fn see(pos: &Position, m: Move) -> i32 {
    if m.is_castle() {
        return 0;
    }
    let to = m.to();
    let us = pos.side_to_move();
    let mut occ = pos.occupied();
    let mut gain = [0i32; 40];
    let mut moving_value;
    let mut d = 0;
    gain[0] = match pos.captured_kind(m) {
        Some(k) => SEE_VALUE[k.index()],
        None => 0,
    };
    if m.is_drop() {
        moving_value = SEE_VALUE[m.drop_piece().index()];
    } else {
        let kind = pos.moved_kind(m);
        moving_value = SEE_VALUE[kind.index()];
        occ ^= m.from().bb();
        if m.is_en_passant() {
            occ ^= Square::new(to.file(), m.from().rank()).bb();
        }
    }
    if m.is_promotion() {
        let p = SEE_VALUE[m.promotion_piece().index()];
        gain[0] += p - SEE_VALUE[0];
        moving_value = p;
    }
    let mut side = us.flip();
    let mut attackers = pos.attackers_to(to, occ) & occ;
    let rq = pos.kind_bb(PieceType::Rook) | pos.kind_bb(PieceType::Queen);
    let bq = pos.kind_bb(PieceType::Bishop) | pos.kind_bb(PieceType::Queen);
    loop {
        let mine = attackers & pos.color_bb(side);
        if mine.is_empty() || d >= 38 {
            break;
        }
        // Least valuable attacker.
        let mut found = None;
        for kind in PieceType::ALL {
            let b = mine & pos.kind_bb(kind);
            if b.nonempty() {
                found = Some((kind, b.lsb()));
                break;
            }
        }
        let Some((kind, sq)) = found else { break };
        d += 1;
        gain[d] = moving_value - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        moving_value = SEE_VALUE[kind.index()];
        occ ^= sq.bb();
        attackers |= (attacks::rook(to, occ) & rq) | (attacks::bishop(to, occ) & bq);
        attackers &= occ;
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
        d -= 1;
    }
    gain[0]
}

/// What a node needs to tell cheaply whether a quiet move gives check.
struct CheckInfo {
    /// Squares from which each piece kind (P N B R Q) attacks the enemy king.
    squares: [Bitboard; 5],
    /// Our pieces whose move may uncover a check.
    discoverers: Bitboard,
    /// The enemy king.
    king: Square,
    /// Does the enemy have a royal king at all?
    active: bool,
}

impl CheckInfo {
    fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let them = us.flip();
        let active = pos.rules().royal_king && pos.pieces(them, PieceType::King).nonempty();
        let mut squares = [Bitboard::EMPTY; 5];
        let mut discoverers = Bitboard::EMPTY;
        if active {
            for k in PieceType::POCKET {
                squares[k.index()] = pos.check_squares(k);
            }
            discoverers = pos.blockers(them, us) & pos.color_bb(us);
        }
        CheckInfo {
            squares,
            discoverers,
            king: pos.king_sq(them),
            active,
        }
    }

    /// Does the quiet move or drop `m` give check? (Castling, en passant and
    /// promotions answer false; the search learns those after making them.)
    #[inline]
    fn gives_check(&self, pos: &Position, m: Move) -> bool {
        if !self.active || m.is_castle() || m.is_en_passant() || m.is_promotion() {
            return false;
        }
        if m.is_drop() {
            return self.squares[m.drop_piece().index()].has(m.to());
        }
        let kind = pos.moved_kind(m);
        (kind != PieceType::King && self.squares[kind.index()].has(m.to()))
            || (self.discoverers.has(m.from()) && !attacks::line(self.king, m.from()).has(m.to()))
    }
}

/// Per-thread search state.
pub struct Worker {
    /// Thread number (0 = main).
    pub id: usize,
    shared: Arc<Shared>,
    limits: Limits,
    nodes: u64,
    nodes_flushed: u64,
    seldepth: usize,
    keys: Vec<u64>,
    killers: [[Move; 2]; MAX_PLY + 2],
    history: Box<[[i32; HIST_SIZE]; 2]>,
    counter: Box<[Move; HIST_SIZE]>,
    prev_move: [Move; MAX_PLY + 2],
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    static_eval: [i32; MAX_PLY + 2],
    excluded_root: Vec<Move>,
    lmr: Box<[[u8; 64]; 64]>,
    has_bias: bool,
    /// The network in use for this root (see [`Limits::net`]).
    net: Option<Arc<Network>>,
    /// NNUE accumulators by ply (used only with a network).
    acc: Box<[Accumulator]>,
}

/// Callback for progress reports (main thread only).
pub type Reporter<'a> = &'a (dyn Fn(&Info) + Sync);

impl Worker {
    /// A worker for one thread of a search; `history` holds the keys of the
    /// game's positions up to and including the root.
    pub fn new(id: usize, shared: Arc<Shared>, limits: Limits, history: &[u64]) -> Worker {
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (n, cell) in row.iter_mut().enumerate().skip(1) {
                *cell = (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as u8;
            }
        }
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 8);
        keys.extend_from_slice(history);
        Worker {
            id,
            shared,
            limits: limits.clone(),
            nodes: 0,
            nodes_flushed: 0,
            seldepth: 0,
            keys,
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            history: Box::new([[0; HIST_SIZE]; 2]),
            counter: Box::new([Move::NULL; HIST_SIZE]),
            prev_move: [Move::NULL; MAX_PLY + 2],
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            static_eval: [0; MAX_PLY + 2],
            excluded_root: Vec::new(),
            has_bias: limits.bias.iter().flatten().any(|&b| b != 0),
            lmr,
            net: None,
            acc: vec![Accumulator::default(); MAX_PLY + 2].into_boxed_slice(),
        }
    }

    /// Plays `m` on `child` (a copy of the position at `ply`) and brings the
    /// NNUE accumulators of `ply + 1` up to date.
    #[inline]
    fn make(&mut self, child: &mut Position, m: Move, ply: usize) {
        let delta = child.make_move_delta(m);
        if let Some(net) = self.net.as_deref() {
            let (done, next) = self.acc.split_at_mut(ply + 1);
            net.update(&done[ply], &delta, child, &mut next[0]);
        }
    }

    /// A null move changes no piece: the accumulators are copied.
    #[inline]
    fn make_null(&mut self, child: &mut Position, ply: usize) {
        child.make_null_move();
        if self.net.is_some() {
            self.acc[ply + 1] = self.acc[ply];
        }
    }

    #[inline]
    fn evaluate(&self, pos: &Position, ply: usize) -> i32 {
        let mut v = match self.net.as_deref() {
            Some(net) => net.evaluate(&self.acc[ply], pos.side_to_move()),
            None => evaluate(pos),
        };
        if self.has_bias {
            let us = pos.side_to_move();
            for (c, sign) in [(us, 1), (us.flip(), -1)] {
                for k in PieceType::POCKET {
                    let b = self.limits.bias[c.index()][k.index()];
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

    #[inline]
    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// Counts a node; every 1024 nodes flushes the count and (main thread)
    /// checks the clock and the node budget.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let delta = self.nodes - self.nodes_flushed;
            self.nodes_flushed = self.nodes;
            let total = self.shared.nodes.fetch_add(delta, Ordering::Relaxed) + delta;
            if let Some(n) = self.limits.nodes {
                if total >= n {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
            if self.id == 0 && !self.shared.pondering.load(Ordering::Relaxed) {
                if let Some(h) = self.limits.hard_time {
                    if self.shared.elapsed() >= h {
                        self.shared.stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.nodes_flushed)
    }

    /// Iterative deepening from `root`. Reports through `report` (main thread).
    pub fn run(&mut self, root: &Position, report: Option<Reporter>) -> SearchResult {
        self.net = self
            .limits
            .net
            .clone()
            .filter(|n| n.serves(root.rules().variant));
        if let Some(net) = self.net.as_deref() {
            net.refresh(root, &mut self.acc[0]);
        }
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
            .unwrap_or(MAX_PLY as i32 - 4)
            .clamp(1, MAX_PLY as i32 - 4);
        let multipv = self.limits.multipv.clamp(1, root_moves.len());
        let mut best_move_changes = 0u32;
        let mut last_best = Move::NULL;
        let mut scores = vec![-INF; multipv];
        let start_depth = 1;
        for depth in start_depth..=max_depth {
            if self.skips(depth) {
                continue;
            }
            self.excluded_root.clear();
            let mut lines: Vec<(Move, i32, Vec<Move>)> = Vec::new();
            for (pv_index, line_score) in scores.iter_mut().enumerate() {
                self.seldepth = 0;
                let prev = *line_score;
                let mut delta = 25;
                let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < MATE_BOUND {
                    (prev - delta, prev + delta)
                } else {
                    (-INF, INF)
                };
                let score = loop {
                    let s = self.search::<true>(root, depth, alpha, beta, 0, &root_moves);
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
                    delta += delta / 2;
                    if delta > 800 {
                        alpha = -INF;
                        beta = INF;
                    }
                };
                let interrupted = self.stopped();
                if interrupted && (depth > start_depth || pv_index > 0) {
                    break;
                }
                let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
                let Some(&best) = pv.first() else { break };
                *line_score = score;
                self.excluded_root.push(best);
                lines.push((best, score, pv.clone()));
                if let (Some(rep), false) = (report, interrupted) {
                    rep(&Info {
                        depth,
                        seldepth: self.seldepth as i32,
                        multipv: pv_index + 1,
                        score: Score::from_internal(score),
                        bound: Bound::Exact,
                        nodes: self.total_nodes(),
                        time: self.shared.elapsed(),
                        hashfull: self.shared.tt.hashfull(),
                        pv,
                    });
                }
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
            if self.id == 0 && !self.shared.pondering.load(Ordering::Relaxed) {
                if let Some(soft) = self.limits.soft_time {
                    // Stable best move: stop earlier; unstable: allow more.
                    let factor = if depth > 6 && best_move_changes <= 1 {
                        0.6
                    } else {
                        1.0
                    };
                    if self.shared.elapsed().as_secs_f64() >= soft.as_secs_f64() * factor {
                        break;
                    }
                }
            }
            if depth > 8 {
                best_move_changes = best_move_changes.saturating_sub(1).min(3);
            }
        }
        let delta = self.nodes - self.nodes_flushed;
        self.nodes_flushed = self.nodes;
        self.shared.nodes.fetch_add(delta, Ordering::Relaxed);
        result.nodes = self.shared.nodes.load(Ordering::Relaxed);
        result
    }

    /// Lazy SMP diversity: helper threads skip some iteration depths, each
    /// in its own pattern (the scheme of Stockfish 8), so that they run ahead
    /// of the main thread and fill the shared table with deeper results.
    fn skips(&self, depth: i32) -> bool {
        const SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
        const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
        if self.id == 0 || depth <= 1 {
            return false;
        }
        let i = (self.id - 1) % 20;
        ((depth + PHASE[i]) / SIZE[i]) % 2 != 0
    }

    fn is_repetition(&self, pos: &Position) -> bool {
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

    /// The score when the side to move has no legal move.
    fn terminal_score(&self, pos: &Position, ply: usize) -> i32 {
        let rules = pos.rules();
        if rules.losers_win {
            return MATE - ply as i32;
        }
        if pos.in_check() {
            return -MATE + ply as i32;
        }
        if pos.duty_pending() {
            let mut all = crate::position::movegen::MoveCounter::default();
            pos.generate_ignoring_duty(&mut all);
            if all.0 > 0 {
                return -MATE + ply as i32;
            }
        }
        0
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn score_moves(
        &self,
        pos: &Position,
        moves: &MoveList,
        tt_move: Move,
        ply: usize,
        checks: &CheckInfo,
    ) -> ScoreList {
        let mut scores = ScoreList::new();
        let us = pos.side_to_move();
        let killers = self.killers[ply];
        let counter = if ply > 0 {
            let p = self.prev_move[ply - 1];
            if p.is_null() {
                Move::NULL
            } else {
                self.counter[hist_index(p)]
            }
        } else {
            Move::NULL
        };
        for &m in moves.iter() {
            let score = if m == tt_move {
                1 << 30
            } else if let Some(victim) = pos.captured_kind(m) {
                let attacker = pos.moved_kind(m);
                let mvv = SEE_VALUE[victim.index()] * 8 - SEE_VALUE[attacker.index()] / 100;
                if pos.rules().losers_win || see(pos, m) >= 0 {
                    (1 << 28) + mvv
                } else {
                    -(1 << 20) + mvv
                }
            } else if m.is_promotion() {
                if m.promotion_piece() == PieceType::Queen {
                    (1 << 28) + 800
                } else {
                    -(1 << 21)
                }
            } else if m == killers[0] {
                1 << 27
            } else if m == killers[1] {
                (1 << 27) - 1
            } else if m == counter {
                1 << 26
            } else {
                let h = self.history[us.index()][hist_index(m)];
                if checks.gives_check(pos, m) {
                    if see(pos, m) >= 0 {
                        (1 << 25) + h
                    } else {
                        h - 4000
                    }
                } else {
                    h
                }
            };
            scores.push(score);
        }
        scores
    }

    fn update_quiet_stats(
        &mut self,
        pos: &Position,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
    ) {
        let us = pos.side_to_move().index();
        let bonus = (depth * depth + depth).min(1200);
        let apply = |h: &mut i32, b: i32| {
            *h += b - *h * b.abs() / HIST_MAX;
        };
        apply(&mut self.history[us][hist_index(best)], bonus);
        for &m in tried {
            if m != best {
                apply(&mut self.history[us][hist_index(m)], -bonus);
            }
        }
        if self.killers[ply][0] != best {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best;
        }
        if ply > 0 {
            let p = self.prev_move[ply - 1];
            if !p.is_null() {
                self.counter[hist_index(p)] = best;
            }
        }
    }

    fn search<const PV: bool>(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        root_moves: &[Move],
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
            if (pos.rules().fifty_move_rule && pos.halfmove_clock() >= 100)
                || self.is_repetition(pos)
            {
                return 0;
            }
            // Mate distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let key = pos.key();
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.map(|e| e.mv).unwrap_or(Move::NULL);
        if let Some(e) = tt {
            if !PV && e.depth >= depth {
                let s = score_from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return s;
                }
            }
        }
        let static_eval = if in_check {
            -INF
        } else if let Some(e) = tt {
            e.eval
        } else {
            self.evaluate(pos, ply)
        };
        self.static_eval[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.static_eval[ply - 2];
        let losers = pos.rules().losers_win;

        if !PV && !in_check && !root {
            // Reverse futility pruning.
            if depth <= 6
                && static_eval - 90 * depth + if improving { 40 } else { 0 } >= beta
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
            if depth >= 3
                && static_eval >= beta
                && !losers
                && !pos.duty_pending()
                && has_material
                && !self.prev_move[ply.saturating_sub(1)].is_null()
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                let mut child = *pos;
                self.make_null(&mut child, ply);
                self.prev_move[ply] = Move::NULL;
                self.keys.push(child.key());
                let s =
                    -self.search::<false>(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, &[]);
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
        if depth >= 4 && tt_move.is_null() {
            depth -= 1;
        }

        let mut moves = pos.legal_moves();
        if root {
            moves.retain(|m| root_moves.contains(m) && !self.excluded_root.contains(m));
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
            if skip_quiets && scores[bi] >= -(1 << 20) + (1 << 19) && scores[bi] < (1 << 25) {
                // The best remaining is a plain quiet: every other one is
                // quiet or a bad capture; try the bad captures only.
                if let Some(j) = (i..n).find(|&j| scores[j] < -(1 << 20) + (1 << 19)) {
                    bi = j;
                } else {
                    break;
                }
            }
            moves.swap(i, bi);
            scores.swap(i, bi);
            let m = moves[i];
            let move_score = scores[i];
            let capture = pos.is_capture(m);
            let quiet = !capture && !m.is_promotion();
            count += 1;

            if !root && best_score > -MATE_BOUND {
                // Late move pruning and futility for quiet moves that do not check.
                if quiet && !in_check && move_score < (1 << 25) && !checks.gives_check(pos, m) {
                    let lmp_limit = (3 + depth * depth) / if improving { 1 } else { 2 };
                    if depth <= 8 && count as i32 > lmp_limit + 2 {
                        skip_quiets = true;
                        continue;
                    }
                    if depth <= 6 && static_eval + 120 + 100 * depth <= alpha {
                        continue;
                    }
                }
                // Bad captures at low depth.
                if capture && depth <= 4 && move_score < 0 && see(pos, m) < -120 * depth {
                    continue;
                }
            }

            let mut child = *pos;
            self.make(&mut child, m, ply);
            self.shared.tt.prefetch(child.key());
            let gives_check = child.in_check();
            self.prev_move[ply] = m;
            self.keys.push(child.key());

            let mut ext = 0;
            if gives_check && (ply as i32) < 2 * depth + 4 && (depth >= 6 || see(pos, m) >= 0) {
                ext = 1;
            }
            let new_depth = depth - 1 + ext;
            let mut score;
            if count == 1 {
                score = -self.search::<PV>(&child, new_depth, -beta, -alpha, ply + 1, &[]);
            } else {
                let mut r = 0;
                if depth >= 3 && count > 1 + PV as usize && (quiet || move_score < 0) {
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
                        r -= (move_score / 6000).clamp(-2, 2);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score =
                    -self.search::<false>(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, &[]);
                if score > alpha && r > 0 {
                    score =
                        -self.search::<false>(&child, new_depth, -alpha - 1, -alpha, ply + 1, &[]);
                }
                if PV && score > alpha && score < beta {
                    score = -self.search::<true>(&child, new_depth, -beta, -alpha, ply + 1, &[]);
                }
            }
            self.keys.pop();
            if self.stopped() && !(root && count == 1) {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(pos, m, &quiets_tried, depth, ply);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && m != best_move {
                let _ = quiets_tried.try_push(m);
            }
        }
        if root && best_move.is_null() {
            // Fail low at the root: keep the first move as the line.
            if let Some(&m) = moves.first() {
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
        if !self.stopped() && (!root || self.excluded_root.is_empty()) {
            self.shared.tt.store(
                key,
                best_move,
                score_to_tt(best_score, ply),
                if in_check { 0 } else { static_eval },
                depth,
                bound,
            );
        }
        best_score
    }

    fn qsearch<const PV: bool>(
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
        let key = pos.key();
        let tt = self.shared.tt.probe(key);
        if let Some(e) = tt {
            if !PV {
                let s = score_from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return s;
                }
            }
        }
        let losers = pos.rules().losers_win;
        let mut moves = MoveList::new();
        pos.generate_tactical(&mut moves);
        // Antichess: a single forced capture is followed without standing pat;
        // with a choice, standing pat keeps the capture tree bounded.
        let forced_captures = losers && moves.len() == 1 && pos.is_capture(moves[0]);
        let mut best = -INF;
        let stand_pat;
        if in_check {
            if moves.is_empty() {
                return self.terminal_score(pos, ply);
            }
            stand_pat = -INF;
        } else {
            if moves.is_empty() && (losers || pos.duty_pending()) {
                return self.terminal_score(pos, ply);
            }
            stand_pat = match tt {
                Some(e) => e.eval,
                None => self.evaluate(pos, ply),
            };
            if !forced_captures {
                if stand_pat >= beta {
                    return stand_pat;
                }
                if losers && !moves.first().is_some_and(|m| pos.is_capture(*m)) {
                    // No capture is forced: the position is quiet.
                    return stand_pat;
                }
                alpha = alpha.max(stand_pat);
                best = stand_pat;
            }
        }
        let n = moves.len();
        let mut scores: ScoreList = moves
            .iter()
            .map(|&m| match pos.captured_kind(m) {
                Some(v) => SEE_VALUE[v.index()] * 8 - SEE_VALUE[pos.moved_kind(m).index()] / 100,
                None => 0,
            })
            .collect();
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
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
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
            if in_check { 0 } else { stand_pat },
            0,
            bound,
        );
        best
    }
}

fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Runs a whole search: `threads` workers (Lazy SMP) on `root`, the main
/// thread reporting through `report`. Returns the main thread's result.
pub fn search(
    root: &Position,
    history: &[u64],
    limits: &Limits,
    threads: usize,
    shared: Arc<Shared>,
    report: Reporter,
) -> SearchResult {
    shared.tt.new_search();
    let threads = threads.max(1);
    let result = std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for id in 1..threads {
            let shared = shared.clone();
            let limits = Limits {
                multipv: 1,
                ..limits.clone()
            };
            let root = *root;
            helpers.push(scope.spawn(move || {
                let mut w = Worker::new(id, shared, limits, history);
                w.run(&root, None)
            }));
        }
        let mut main = Worker::new(0, shared.clone(), limits.clone(), history);
        let mut best = main.run(root, Some(report));
        shared.stop.store(true, Ordering::Relaxed);
        // A helper that completed a deeper iteration without a worse score
        // supplies the move (MultiPV and searchmoves stay with the main thread).
        for h in helpers {
            if let Ok(r) = h.join() {
                if limits.multipv <= 1
                    && !r.best.is_null()
                    && r.depth > best.depth
                    && r.score >= best.score - 20
                {
                    best = SearchResult {
                        nodes: best.nodes,
                        ..r
                    };
                }
            }
        }
        best
    });
    SearchResult {
        nodes: shared.nodes.load(Ordering::Relaxed),
        ..result
    }
}
