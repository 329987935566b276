//! A proof-number solver for antichess and giveaway: proves that the side to
//! move wins (or loses) by force and finds the line.
//!
//! # Why df-pn
//!
//! The algorithm is depth-first proof-number search (df-pn, Nagai 2002;
//! Kishimoto and Müller's formulation) with a transposition table keyed by
//! the Zobrist key, rather than Allis' best-first PN search with the tree in
//! memory or PN²:
//!
//! - **Bounded memory.** Best-first PN keeps every expanded node in memory
//!   (PN² trades that for re-searching at the second level); df-pn keeps only
//!   a fixed-size table ([`Budget::memory_mb`]) and the current path. When
//!   the table is full, the entries with the least work behind them are
//!   replaced (proven ones last), and df-pn recomputes what it lost.
//! - **Transpositions for free.** Positions are looked up by key, so a
//!   position reached by several move orders is searched once.
//! - **Stoppable and resumable.** The search is one recursive function that
//!   checks the stop flag, the clock and the node budget every 1024 nodes;
//!   it can be called again on the same table to go on (the two searches
//!   below take turns that way).
//!
//! Enhancements: weak proof numbers (Ueda et al. 2008: where the classic
//! numbers add the children's numbers, the largest child's number plus one
//! per other open child is taken; antichess endgames are full of
//! transpositions, and sums count the same subtree again and again until
//! they overflow), the 1+ε trick of Pawlewicz and Lew (a child gets a
//! threshold of 1.25 times the second-best child's number, which cuts
//! re-expansions), and a mobility initialisation tuned to antichess: a new
//! position where the attacker moves gets (proof 1, disproof `moves`), one
//! where the defender moves gets (proof `moves`, disproof 1). Forced
//! captures make the defender's move count small, so the search follows
//! lines that force captures first.
//!
//! # Narrow trees
//!
//! Captures are compulsory, so many positions have a single legal move. A
//! position with one legal move is never stored nor expanded as a node of
//! its own: the edge that leads to it is extended through the forced moves
//! (up to [`MAX_CHAIN`] of them) to the next position with a choice, or to
//! the end of the game. Such a chain costs one move generation per forced
//! move and nothing in the table.
//!
//! # Two searches
//!
//! A proof is binary: "the attacker wins" against "the attacker does not
//! win". [`prove`] runs two searches on one table (the keys are salted by
//! the attacker's colour): one where the side to move attacks (a proof is a
//! win) and one where the opponent attacks (a proof is a loss for the side
//! to move). They take turns with doubling node shares, so the work is at
//! most about twice that of the right one, and a search that is disproved
//! (its attacker cannot force a win) drops out.
//!
//! # Repetitions and the 50-move rule
//!
//! A position that repeats a position on the current path (the game's
//! history since the last irreversible move included) counts as "not a
//! win" for the attacker: a disproof, never a proof. So every proof is a
//! finite tree whose lines end in a win by the rules (the attacker has no
//! pieces or no legal move) and never rely on a cycle; a proved position
//! stays proved whatever path leads to it. Disproofs that depend on such a
//! repetition are path-dependent (the graph-history interaction problem):
//! they are stored with the key of the repeated ancestor and believed only
//! while that position is on the current path; the repeated position itself
//! discharges the dependency (a cycle through a node does not help its
//! attacker). This is not a complete solution of the problem: a disproof
//! can still be believed on a path where it does not hold, which may make
//! the solver miss a win (it answers "not proven"), never claim a wrong one.
//! A proof taken from the table was made on another path and may pass a
//! position of the current path once more (the game is drawn only at the
//! third occurrence); it cannot go round a cycle, since every proof uses
//! only proofs completed before it.
//!
//! The key does not include the half-move clock, so a table entry keeps the
//! clock at which it was resolved: a proof holds for that clock or a
//! smaller one (less of the 50 moves used), a disproof for that clock or a
//! larger one. A position with the clock at 100 or more and a legal move is
//! a draw (as in the alpha-beta search); a win by the rules (no pieces, no
//! legal move) comes first.
//!
//! # Lengths
//!
//! Each proved entry records the length in plies of its proof: at the
//! attacker's move the shortest proved child, at the defender's move the
//! longest. The length of the root's proof is an upper bound on the
//! shortest forced win (df-pn does not look for the shortest one); the line
//! [`Proof::line`] follows the shortest proved move for the attacker and
//! the longest resistance for the defender.

use super::tt::Bound;
use super::{Info, Limits, Score, SearchResult, MATE};
use crate::position::Position;
use crate::types::{Color, Move};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// "Infinite" proof or disproof number: the node is resolved.
const INF: u32 = 1 << 30;
/// No dependency on a repeated ancestor.
const NO_TAINT: u32 = u32::MAX;
/// The longest chain of forced moves followed as one edge.
pub const MAX_CHAIN: u16 = 64;
/// The deepest path (plies from the root) the solver goes; deeper
/// positions count as unproven.
pub const MAX_DEPTH: usize = 600;
/// Table entries per bucket.
const BUCKET: usize = 4;
/// Nodes between two looks at the stop flag, the clock and the budget.
const CHECK_EVERY: u64 = 1024;
/// The first node share of each search; doubled every round.
const FIRST_SHARE: u64 = 4096;

/// What the solver is asked to prove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Target {
    /// Both: that the side to move wins, and that it loses.
    #[default]
    Both,
    /// Only that the side to move wins.
    Win,
    /// Only that the side to move loses.
    Loss,
}

/// The limits of one call to [`prove`].
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Most positions to visit (both searches together).
    pub nodes: u64,
    /// Most time to spend.
    pub time: Option<Duration>,
    /// Upper bound of the table's memory in MB (the table is smaller when
    /// the node budget cannot fill it).
    pub memory_mb: usize,
    /// What to prove.
    pub target: Target,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            nodes: 1_000_000,
            time: None,
            memory_mb: 16,
            target: Target::Both,
        }
    }
}

/// What the solver found, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins by force.
    Win,
    /// The side to move loses by force.
    Loss,
    /// Neither proved within the budget (or the variant is not antichess or
    /// giveaway).
    Unknown,
}

/// The result of [`prove`].
#[derive(Clone, Debug)]
pub struct Proof {
    /// Win, loss or unknown, for the side to move.
    pub verdict: Verdict,
    /// The proved line (empty unless proved): the winner's shortest proved
    /// move and the loser's longest resistance, to the end of the game when
    /// the table still holds the whole proof.
    pub line: Vec<Move>,
    /// Length of the proof in plies: the winner wins within this many plies
    /// against any defence (0 unless proved).
    pub plies: u32,
    /// The move to play: the line's first move when proved, otherwise the
    /// most promising move of the searches (null without legal moves).
    pub best: Move,
    /// The searches proved that the side to move cannot force a win
    /// (repetitions counting as not winning; see the module documentation).
    pub win_disproved: bool,
    /// The searches proved that the opponent cannot force a win.
    pub loss_disproved: bool,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// Per-mille of the table in use at the end.
    pub hashfull: usize,
}

impl Proof {
    /// The result as UCI's `score mate M`: moves of the side to move,
    /// negative for a loss; `None` unless proved.
    pub fn mate(&self) -> Option<i32> {
        let moves = self.plies.div_ceil(2).min(i32::MAX as u32) as i32;
        match self.verdict {
            Verdict::Win => Some(moves),
            Verdict::Loss => Some(-moves),
            Verdict::Unknown => None,
        }
    }

    /// What the engine says about it in a line of its own: `proven win in
    /// M`, `proven loss in M` or `not proven`.
    pub fn summary(&self) -> String {
        match (self.verdict, self.mate()) {
            (Verdict::Win, Some(m)) => format!("proven win in {m}"),
            (Verdict::Loss, Some(m)) => format!("proven loss in {}", m.unsigned_abs()),
            _ => {
                let why = match (self.win_disproved, self.loss_disproved) {
                    (true, true) => ": neither side can force a win",
                    (true, false) => ": the side to move cannot force a win",
                    (false, true) => ": the opponent cannot force a win",
                    (false, false) => "",
                };
                format!("not proven{why} ({} nodes)", self.nodes)
            }
        }
    }

    /// The proved line as a search report (`score mate M`, depth and
    /// seldepth the proof's length in plies); `None` unless proved.
    pub fn info(&self) -> Option<Info> {
        let m = self.mate()?;
        let plies = i32::try_from(self.plies).unwrap_or(i32::MAX);
        Some(Info {
            depth: plies,
            seldepth: plies.max(i32::try_from(self.line.len()).unwrap_or(i32::MAX)),
            multipv: 1,
            score: Score::Mate(m),
            bound: Bound::Exact,
            nodes: self.nodes,
            time: self.time,
            hashfull: self.hashfull,
            pv: self.line.clone(),
        })
    }

    /// The result as a search result: the best move, the line's second
    /// move to ponder on, a mate score in the search's scale (`MATE -
    /// plies`, negated for a loss; 0 unless proved).
    pub fn search_result(&self) -> SearchResult {
        let plies = i32::try_from(self.plies.min(1000)).unwrap_or(1000);
        SearchResult {
            best: self.best,
            ponder: self
                .line
                .get(1)
                .copied()
                .filter(|_| self.line.first() == Some(&self.best)),
            score: match self.verdict {
                Verdict::Win => MATE - plies,
                Verdict::Loss => plies - MATE,
                Verdict::Unknown => 0,
            },
            nodes: self.nodes,
            depth: plies,
        }
    }
}

/// Can the solver run on positions of these rules? (Antichess and giveaway.)
pub fn supports(pos: &Position) -> bool {
    pos.rules().losers_win
}

/// Tries to prove that the side to move of `pos` wins or loses by force,
/// within `budget`, stopping early when `stop` is set. `history` holds the
/// keys of the game's positions, `pos` last (it may be empty); positions
/// since the last irreversible move count for repetitions. Never panics;
/// a variant other than antichess or giveaway gives [`Verdict::Unknown`]
/// at once.
pub fn prove(pos: &Position, history: &[u64], budget: &Budget, stop: Option<&AtomicBool>) -> Proof {
    let start = Instant::now();
    let mut proof = Proof {
        verdict: Verdict::Unknown,
        line: Vec::new(),
        plies: 0,
        best: pos.legal_moves().first().copied().unwrap_or(Move::NULL),
        win_disproved: false,
        loss_disproved: false,
        nodes: 0,
        time: Duration::ZERO,
        hashfull: 0,
    };
    if !supports(pos) {
        return proof;
    }
    let us = pos.side_to_move();
    match classify(pos) {
        Class::Won => {
            proof.verdict = Verdict::Win;
            return proof;
        }
        Class::Draw => {
            proof.win_disproved = true;
            proof.loss_disproved = true;
            return proof;
        }
        Class::Moves(..) => {}
    }
    let mut solver = Solver::new(pos, history, budget, stop, start);
    let mut open = [budget.target != Target::Loss, budget.target != Target::Win];
    let attackers = [us, us.flip()];
    let mut share = FIRST_SHARE;
    'rounds: while open.iter().any(|&o| o) {
        for side in 0..2 {
            if !open[side] {
                continue;
            }
            let v = solver.run_root(pos, attackers[side], share);
            if v.pn == 0 {
                proof.verdict = if side == 0 {
                    Verdict::Win
                } else {
                    Verdict::Loss
                };
                proof.plies = v.len;
                break 'rounds;
            }
            if v.dn == 0 {
                open[side] = false;
                if side == 0 {
                    proof.win_disproved = true;
                } else {
                    proof.loss_disproved = true;
                }
            } else if v.pn >= INF - 1 || v.dn >= INF - 1 {
                // Saturated numbers: this search cannot make progress.
                open[side] = false;
            }
            if solver.out_of_budget() {
                break 'rounds;
            }
        }
        share = share.saturating_mul(2);
    }
    match proof.verdict {
        Verdict::Win | Verdict::Loss => {
            let attacker = if proof.verdict == Verdict::Win {
                us
            } else {
                us.flip()
            };
            proof.line = solver.line(pos, attacker);
            if let Some(&m) = proof.line.first() {
                proof.best = m;
            }
        }
        Verdict::Unknown => {
            if let Some(m) = solver.promising(pos, us, open) {
                proof.best = m;
            }
        }
    }
    proof.nodes = solver.nodes;
    proof.time = start.elapsed();
    proof.hashfull = solver.table.hashfull();
    proof
}

// ------------------------------------------------------------------ values

/// Proof and disproof numbers of a node for the current attacker, the
/// length of its proof (when proved) and, for a disproof, the path index of
/// the repeated ancestor it depends on.
#[derive(Clone, Copy, Debug)]
struct Val {
    pn: u32,
    dn: u32,
    len: u32,
    taint: u32,
}

impl Val {
    const PROVED: Val = Val {
        pn: 0,
        dn: INF,
        len: 0,
        taint: NO_TAINT,
    };
    const fn disproved(taint: u32) -> Val {
        Val {
            pn: INF,
            dn: 0,
            len: 0,
            taint,
        }
    }
    const fn open(pn: u32, dn: u32) -> Val {
        Val {
            pn,
            dn,
            len: 0,
            taint: NO_TAINT,
        }
    }
}

/// Saturating sum of proof numbers: `INF` stays `INF`, other sums stop
/// below it.
fn add(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(INF - 1)
    }
}

/// What a position is, before the search looks at it.
enum Class {
    /// The side to move has won (no pieces, or no legal move).
    Won,
    /// Drawn by the 50-move rule.
    Draw,
    /// Play goes on: the number of legal moves, and the move when there is
    /// only one.
    Moves(u32, Move),
}

/// Ends of an antichess/giveaway game by the rules (as
/// [`Position::outcome`]) and the 50-move rule (as the alpha-beta search);
/// a win comes first.
#[inline(never)]
fn classify(q: &Position) -> Class {
    if q.color_bb(q.side_to_move()).is_empty() {
        return Class::Won;
    }
    let n = q.count_legal();
    if n == 0 {
        return Class::Won;
    }
    if q.rules().fifty_move_rule && q.halfmove_clock() >= 100 {
        return Class::Draw;
    }
    let only = if n == 1 {
        q.legal_moves().first().copied().unwrap_or(Move::NULL)
    } else {
        Move::NULL
    };
    Class::Moves(n.min(INF as usize - 1) as u32, only)
}

// ------------------------------------------------------------------ table

/// One table entry (32 bytes).
#[derive(Clone, Copy, Default)]
struct Entry {
    /// Salted key; 0 marks an empty slot.
    key: u64,
    /// The repeated ancestor a disproof depends on (with `TAINTED`).
    taint_key: u64,
    pn: u32,
    dn: u32,
    /// Nodes spent below this entry (saturating): the replacement priority.
    work: u32,
    /// Proof length in plies (proved entries).
    len: u16,
    /// Half-move clock at which the entry was resolved.
    clock: u8,
    flags: u8,
}

const TAINTED: u8 = 1;

struct Table {
    entries: Vec<Entry>,
    buckets: usize,
}

impl Table {
    /// A table of at most `mb` MB, and not much larger than `nodes` entries.
    fn new(mb: usize, nodes: u64) -> Table {
        let bytes = mb.clamp(1, 1 << 20).saturating_mul(1 << 20);
        let by_memory = (bytes / std::mem::size_of::<Entry>() / BUCKET).max(1);
        let by_nodes = usize::try_from(nodes / BUCKET as u64 + 1).unwrap_or(usize::MAX);
        let wanted = by_memory.min(by_nodes.max(1024));
        // A power of two, not above the memory bound.
        let mut buckets = 1usize;
        while buckets * 2 <= wanted {
            buckets *= 2;
        }
        // Smaller when the memory cannot be had (never aborts).
        let mut entries = Vec::new();
        while entries.try_reserve_exact(buckets * BUCKET).is_err() && buckets > 1 {
            buckets /= 2;
        }
        entries.resize(buckets * BUCKET, Entry::default());
        Table { entries, buckets }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 32) as usize & (self.buckets - 1)) * BUCKET
    }

    #[inline]
    fn get(&self, key: u64) -> Option<&Entry> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET].iter().find(|e| e.key == key)
    }

    fn put(&mut self, new: Entry) {
        let b = self.bucket(new.key);
        let slots = &mut self.entries[b..b + BUCKET];
        let priority = |e: &Entry| -> u64 {
            let class = if e.key == 0 {
                0
            } else if e.pn == 0 {
                3
            } else if e.dn == 0 {
                2
            } else {
                1
            };
            (class << 32) | u64::from(e.work)
        };
        let slot = match slots.iter().position(|e| e.key == new.key) {
            Some(i) => i,
            None => {
                let mut i = 0;
                for j in 1..BUCKET {
                    if priority(&slots[j]) < priority(&slots[i]) {
                        i = j;
                    }
                }
                i
            }
        };
        slots[slot] = new;
    }

    fn hashfull(&self) -> usize {
        let n = self.entries.len().min(1000);
        if n == 0 {
            return 0;
        }
        self.entries[..n].iter().filter(|e| e.key != 0).count() * 1000 / n
    }
}

// ------------------------------------------------------------------ search

/// A move of a node being expanded, with the forced moves that follow it.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    /// Forced single moves after `mv` up to the position this child stands for.
    chain: u16,
    /// Unsalted key of that position.
    key: u64,
    /// Its half-move clock.
    clock: u8,
    val: Val,
    /// Terminal, repeated or too deep: the value never changes.
    fixed: bool,
}

struct Solver<'a> {
    table: Table,
    /// Keys of the game's positions since the last irreversible move, then
    /// the search path (chains included), the current node last.
    path: Vec<u64>,
    /// Index of the root in `path`.
    root_index: usize,
    attacker: Color,
    salt: u64,
    nodes: u64,
    /// End of the current search's share.
    share_limit: u64,
    total_limit: u64,
    next_check: u64,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    /// The share, the budget, the clock or the stop flag ended the search.
    aborted: bool,
    /// The budget, the clock or the stop flag ended everything.
    exhausted: bool,
}

/// Salts of the two attackers' keys (one table serves both searches).
const SALT: [u64; 2] = [0x2545_F491_4F6C_DD1D, 0x9E6C_63D0_676A_9A99];

impl<'a> Solver<'a> {
    fn new(
        pos: &Position,
        history: &[u64],
        budget: &Budget,
        stop: Option<&'a AtomicBool>,
        start: Instant,
    ) -> Solver<'a> {
        let window = (pos.halfmove_clock() as usize).min(MAX_DEPTH);
        let mut path: Vec<u64> = match history.split_last() {
            Some((&last, before)) if last == pos.key() => {
                let from = before.len().saturating_sub(window);
                before[from..].to_vec()
            }
            _ => Vec::new(),
        };
        let root_index = path.len();
        path.push(pos.key());
        Solver {
            table: Table::new(budget.memory_mb, budget.nodes),
            path,
            root_index,
            attacker: pos.side_to_move(),
            salt: SALT[0],
            nodes: 0,
            share_limit: 0,
            total_limit: budget.nodes,
            next_check: 0,
            deadline: budget.time.and_then(|t| start.checked_add(t)),
            stop,
            aborted: false,
            exhausted: false,
        }
    }

    fn out_of_budget(&self) -> bool {
        self.exhausted
    }

    fn set_attacker(&mut self, attacker: Color) {
        self.attacker = attacker;
        self.salt = SALT[attacker.index()];
    }

    /// Runs the search for `attacker` from the root for about `share` more
    /// nodes; returns the root's value.
    fn run_root(&mut self, root: &Position, attacker: Color, share: u64) -> Val {
        self.set_attacker(attacker);
        self.aborted = false;
        self.share_limit = self.nodes.saturating_add(share).min(self.total_limit);
        self.next_check = self.nodes;
        self.check();
        if self.aborted {
            return Val::open(1, 1);
        }
        self.path.truncate(self.root_index + 1);
        self.mid(root, self.root_index, INF - 1, INF - 1)
    }

    #[inline]
    fn count(&mut self, n: u64) {
        self.nodes += n;
        if self.nodes >= self.next_check {
            self.check();
        }
    }

    fn check(&mut self) {
        self.next_check = self.nodes + CHECK_EVERY;
        let stopped = self.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        if stopped || late || self.nodes >= self.total_limit {
            self.exhausted = true;
            self.aborted = true;
        }
        if self.nodes >= self.share_limit {
            self.aborted = true;
        }
    }

    /// The path index of an earlier occurrence of the position `key` (the
    /// next one on the path), if it repeats one since the last irreversible
    /// move.
    fn repeated(&self, key: u64, halfmove: u32) -> Option<usize> {
        let n = self.path.len();
        let lowest = n.saturating_sub(halfmove as usize);
        let mut j = n.checked_sub(2)?;
        loop {
            if j < lowest {
                return None;
            }
            if self.path[j] == key {
                return Some(j);
            }
            j = j.checked_sub(2)?;
        }
    }

    /// The value of the position `key` (unsalted) with half-move clock
    /// `clock` from the table, when it holds a usable one.
    fn probe(&self, key: u64, clock: u8) -> Option<Val> {
        let e = self.table.get(key ^ self.salt)?;
        if e.pn == 0 {
            return (clock <= e.clock).then_some(Val {
                len: u32::from(e.len),
                ..Val::PROVED
            });
        }
        if e.dn == 0 {
            if e.flags & TAINTED == 0 {
                return (clock >= e.clock).then_some(Val::disproved(NO_TAINT));
            }
            // Believed only while the repeated ancestor is on the path.
            let at = self.path.iter().rposition(|&k| k == e.taint_key)?;
            return (clock >= e.clock).then_some(Val::disproved(at as u32));
        }
        Some(Val::open(e.pn, e.dn))
    }

    fn store(&mut self, key: u64, clock: u8, v: Val, work: u64) {
        let salted = key ^ self.salt;
        let old_work = self.table.get(salted).map_or(0, |e| e.work);
        let tainted = v.dn == 0 && v.taint != NO_TAINT;
        let taint_key = if tainted {
            self.path.get(v.taint as usize).copied().unwrap_or(0)
        } else {
            0
        };
        self.table.put(Entry {
            key: salted,
            taint_key,
            pn: v.pn,
            dn: v.dn,
            work: old_work.saturating_add(u32::try_from(work).unwrap_or(u32::MAX)),
            len: v.len.min(u32::from(u16::MAX)) as u16,
            clock,
            flags: if tainted { TAINTED } else { 0 },
        });
    }

    /// The initial value of a position where `side` moves with `moves`
    /// legal moves (mobility: the fewer the defender's moves, the closer
    /// the proof).
    fn initial(&self, side: Color, moves: u32) -> Val {
        if side == self.attacker {
            Val::open(1, moves)
        } else {
            Val::open(moves, 1)
        }
    }

    /// The child reached by `m` from `pos` (the current node, last on the
    /// path), followed through forced single moves.
    #[inline(never)]
    fn child(&mut self, pos: &Position, m: Move) -> Child {
        let base = self.path.len();
        let mut q = *pos;
        q.make_move(m);
        self.count(1);
        let mut chain = 0u16;
        let (val, fixed) = loop {
            match classify(&q) {
                Class::Won => {
                    break if q.side_to_move() == self.attacker {
                        (Val::PROVED, true)
                    } else {
                        (Val::disproved(NO_TAINT), true)
                    };
                }
                Class::Draw => break (Val::disproved(NO_TAINT), true),
                Class::Moves(n, only) => {
                    if let Some(at) = self.repeated(q.key(), q.halfmove_clock()) {
                        break (Val::disproved(at as u32), true);
                    }
                    if self.path.len() - self.root_index >= MAX_DEPTH {
                        // Too deep: unproven here (believed on this root's paths only).
                        break (Val::disproved(self.root_index as u32), true);
                    }
                    if n == 1 && chain < MAX_CHAIN && !only.is_null() {
                        self.path.push(q.key());
                        q.make_move(only);
                        self.count(1);
                        chain += 1;
                        continue;
                    }
                    break (self.initial(q.side_to_move(), n), false);
                }
            }
        };
        self.path.truncate(base);
        Child {
            mv: m,
            chain,
            key: q.key(),
            clock: q.halfmove_clock().min(255) as u8,
            val,
            fixed,
        }
    }

    /// Every child of `pos` (the current node).
    #[inline(never)]
    fn expand(&mut self, pos: &Position) -> Vec<Child> {
        let moves = pos.legal_moves();
        let mut children = Vec::with_capacity(moves.len());
        // Always whole: a node must never be resolved from part of its moves.
        for &m in moves.iter() {
            children.push(self.child(pos, m));
        }
        children
    }

    /// Plays `c`'s move and forced moves on `q`, pushing the keys.
    #[inline(never)]
    fn enter(&mut self, q: &mut Position, c: &Child) {
        q.make_move(c.mv);
        self.path.push(q.key());
        self.count(1);
        for _ in 0..c.chain {
            let Some(&only) = q.legal_moves().first() else {
                break;
            };
            q.make_move(only);
            self.path.push(q.key());
            self.count(1);
        }
    }

    /// Refreshes the children from the table and combines them into the
    /// node's value.
    fn combine(&self, or: bool, children: &mut [Child], index: usize) -> Val {
        for c in children.iter_mut().filter(|c| !c.fixed) {
            if let Some(v) = self.probe(c.key, c.clock) {
                c.val = v;
            }
        }
        let mut v = if or {
            Val::open(INF, 0)
        } else {
            Val::open(0, INF)
        };
        let mut len: Option<u32> = None;
        let mut taint = if or { NO_TAINT } else { 0 };
        let mut any_disproved = false;
        let mut open = 0u32;
        for c in children.iter() {
            let total = c.val.len.saturating_add(1 + u32::from(c.chain));
            if or {
                v.pn = v.pn.min(c.val.pn);
                if c.val.dn != 0 {
                    open += 1;
                    v.dn = v.dn.max(c.val.dn);
                }
                if c.val.pn == 0 {
                    len = Some(len.map_or(total, |l| l.min(total)));
                }
                taint = taint.min(c.val.taint);
            } else {
                if c.val.pn != 0 {
                    open += 1;
                    v.pn = v.pn.max(c.val.pn);
                }
                v.dn = v.dn.min(c.val.dn);
                len = Some(len.map_or(total, |l| l.max(total)));
                if c.val.dn == 0 {
                    taint = if any_disproved {
                        taint.max(c.val.taint)
                    } else {
                        c.val.taint
                    };
                    any_disproved = true;
                }
            }
        }
        // Weak proof numbers: the largest child's number plus one for each
        // other open child.
        if open > 1 {
            if or {
                v.dn = add(v.dn, open - 1);
            } else {
                v.pn = add(v.pn, open - 1);
            }
        }
        if v.pn == 0 {
            v.len = len.unwrap_or(0);
            v.dn = INF;
        }
        if v.dn == 0 {
            v.pn = INF;
            // A repetition of this node (or of a forced move after it) does
            // not help its attacker: the dependency ends here.
            v.taint = if taint != NO_TAINT && (taint as usize) < index {
                taint
            } else {
                NO_TAINT
            };
        }
        v
    }

    /// df-pn's multiple iterative deepening at `pos`, the last position on
    /// the path (index `index`), with thresholds `thpn` and `thdn`.
    fn mid(&mut self, pos: &Position, index: usize, thpn: u32, thdn: u32) -> Val {
        let first = self.nodes;
        let or = pos.side_to_move() == self.attacker;
        let mut children = self.expand(pos);
        let mut v;
        loop {
            v = self.combine(or, &mut children, index);
            if v.pn >= thpn || v.dn >= thdn || self.aborted || children.is_empty() {
                break;
            }
            // The most proving child and the second-best number.
            let number = |c: &Child| if or { c.val.pn } else { c.val.dn };
            let mut best = 0;
            let mut second = INF;
            for i in 1..children.len() {
                let n = number(&children[i]);
                if n < number(&children[best]) {
                    second = number(&children[best]);
                    best = i;
                } else if n < second {
                    second = n;
                }
            }
            let c = children[best];
            // 1+ε trick with ε = 1/4.
            let loose = second.saturating_add((second / 4).max(1)).min(INF - 1);
            // The others' share of the node's weak number.
            let rest = children
                .iter()
                .filter(|c| if or { c.val.dn != 0 } else { c.val.pn != 0 })
                .count()
                .saturating_sub(1) as u32;
            let (cpn, cdn) = if or {
                (thpn.min(loose), thdn.saturating_sub(rest))
            } else {
                (thpn.saturating_sub(rest), thdn.min(loose))
            };
            let mut q = *pos;
            self.enter(&mut q, &c);
            let r = self.mid(&q, index + 1 + usize::from(c.chain), cpn, cdn);
            self.path.truncate(index + 1);
            children[best].val = r;
        }
        let key = self.path[index];
        let clock = pos.halfmove_clock().min(255) as u8;
        self.store(key, clock, v, self.nodes - first);
        v
    }

    /// The proved line from `root` for `attacker` (after a proof): the
    /// attacker's shortest proved move, the defender's longest resistance.
    /// A part of the proof the table lost is proved again (within the
    /// budget left); the line stops where that fails.
    fn line(&mut self, root: &Position, attacker: Color) -> Vec<Move> {
        self.set_attacker(attacker);
        self.path.truncate(self.root_index + 1);
        let mut line = Vec::new();
        let mut q = *root;
        let mut retried = false;
        while line.len() < 2 * MAX_DEPTH {
            let index = self.path.len() - 1;
            if !matches!(classify(&q), Class::Moves(..)) {
                break;
            }
            let or = q.side_to_move() == attacker;
            let mut children = self.expand(&q);
            let v = self.combine(or, &mut children, index);
            let total = |c: &Child| c.val.len.saturating_add(1 + u32::from(c.chain));
            let pick = if v.pn != 0 {
                None
            } else if or {
                children
                    .iter()
                    .filter(|c| c.val.pn == 0)
                    .min_by_key(|c| total(c))
            } else {
                children.iter().max_by_key(|c| total(c))
            };
            let Some(&c) = pick else {
                if retried || self.exhausted {
                    break;
                }
                // Prove this position again with what is left of the budget.
                retried = true;
                self.aborted = false;
                self.share_limit = self.total_limit;
                self.mid(&q, index, INF - 1, INF - 1);
                self.path.truncate(index + 1);
                continue;
            };
            retried = false;
            line.push(c.mv);
            q.make_move(c.mv);
            self.path.push(q.key());
            for _ in 0..c.chain {
                let Some(&only) = q.legal_moves().first() else {
                    break;
                };
                line.push(only);
                q.make_move(only);
                self.path.push(q.key());
            }
        }
        self.path.truncate(self.root_index + 1);
        line
    }

    /// Without a proof: the root move that looks best for the side to move
    /// `us` (the least proof number towards a win while that search is
    /// open, otherwise the hardest move to prove a loss after).
    fn promising(&mut self, root: &Position, us: Color, open: [bool; 2]) -> Option<Move> {
        self.path.truncate(self.root_index + 1);
        let attacker = if open[0] { us } else { us.flip() };
        self.set_attacker(attacker);
        let mut children = self.expand(root);
        self.combine(attacker == us, &mut children, self.root_index);
        let pick = if attacker == us {
            children
                .iter()
                .min_by_key(|c| (c.val.pn, u32::MAX - c.val.dn))
        } else {
            children
                .iter()
                .max_by_key(|c| (c.val.pn, u32::MAX - c.val.dn))
        };
        pick.map(|c| c.mv)
    }
}

// ------------------------------------------------------------ engine use

/// Timed antichess/giveaway play runs the solver before alpha-beta when at
/// most this many pieces (both sides) are on the board. Why 12: the cost is
/// bounded by the share of time either way ([`SOLVE_TIME_DIVISOR`]), so the
/// threshold only decides where the share is likely to buy something. With
/// a dozen pieces or fewer, move generation is cheap (the solver visits
/// several million positions a second on one core in such endgames,
/// against about 1.5 million in the full-board example of `tests/pns.rs`),
/// and the long forced wins of the endgame (races to give away the last
/// pieces, pawns running to promote) lie beyond alpha-beta's horizon,
/// which then shuffles or repeats in won positions; a proof is followed to
/// the end, move after move, each time proved again in a fraction of the
/// first proof's effort. With more pieces the solver seldom proves within
/// its share what alpha-beta does not already see as a mate.
pub const SOLVE_MAX_PIECES: u32 = 12;
/// The solver's share of the move's time: the soft limit divided by this
/// (the hard limit when there is no soft one).
pub const SOLVE_TIME_DIVISOR: u32 = 8;
/// A share below this is not worth a solver run.
pub const SOLVE_MIN_TIME: Duration = Duration::from_millis(5);
/// The table of a timed run is sized for this many nodes per millisecond
/// (a generous bound of the solver's speed), within `memory_mb`.
const NODES_PER_MS: u64 = 2_000;
/// Most memory for the solver's table in timed play (MB).
const SOLVE_MAX_MB: usize = 64;

/// What the engine does with the solver for one `go`.
#[derive(Clone, Copy, Debug)]
pub enum Plan {
    /// `go mate N` in antichess/giveaway: the solver alone, with this budget.
    Mate(Budget),
    /// First the solver with this budget; alpha-beta unless it proves a win.
    First(Budget),
    /// Alpha-beta only.
    Search,
}

/// The plan for a search of `pos` with `limits` (the time limits already
/// set from the clock); `ponder` for a ponder search; `memory_mb` bounds
/// the solver's table (the `Hash` size). Depth-only and node-only searches
/// (bench, analysis), infinite and ponder searches, MultiPV and
/// `searchmoves` never run the solver on their own.
pub fn plan(pos: &Position, limits: &Limits, ponder: bool, memory_mb: usize) -> Plan {
    if !supports(pos) || !limits.searchmoves.is_empty() {
        return Plan::Search;
    }
    if limits.mate.is_some() {
        return Plan::Mate(Budget {
            nodes: limits.nodes.unwrap_or(u64::MAX),
            time: limits.hard_time,
            memory_mb: memory_mb.max(1),
            target: Target::Both,
        });
    }
    if ponder || limits.infinite || limits.multipv > 1 {
        return Plan::Search;
    }
    let Some(time) = limits.soft_time.or(limits.hard_time) else {
        return Plan::Search;
    };
    if pos.occupied().count() > SOLVE_MAX_PIECES {
        return Plan::Search;
    }
    let share = time / SOLVE_TIME_DIVISOR;
    if share < SOLVE_MIN_TIME {
        return Plan::Search;
    }
    let ms = u64::try_from(share.as_millis()).unwrap_or(u64::MAX);
    Plan::First(Budget {
        nodes: limits
            .nodes
            .unwrap_or(u64::MAX)
            .min(ms.saturating_mul(NODES_PER_MS)),
        time: Some(share),
        memory_mb: memory_mb.clamp(1, SOLVE_MAX_MB),
        target: Target::Win,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn antichess(fen: &str) -> Position {
        match Position::from_fen(fen, Variant::Antichess.rules()) {
            Ok(p) => p,
            Err(e) => panic!("{fen}: {e}"),
        }
    }

    #[test]
    fn sums_saturate_below_infinity() {
        assert_eq!(add(1, 2), 3);
        assert_eq!(add(INF - 1, INF - 1), INF - 1);
        assert_eq!(add(INF, 0), INF);
        assert_eq!(add(5, INF), INF);
    }

    /// A full bucket keeps proofs over open entries and more work over less.
    #[test]
    fn replacement_keeps_proofs_and_work() {
        let mut t = Table::new(1, 0);
        let b = t.bucket(1 << 40);
        let keys: Vec<u64> = (1..=BUCKET as u64 + 1).map(|i| (1 << 40) | i).collect();
        for (i, &key) in keys[..BUCKET].iter().enumerate() {
            t.put(Entry {
                key,
                pn: if i == 0 { 0 } else { 5 },
                dn: if i == 0 { INF } else { 5 },
                work: 10 * i as u32,
                ..Entry::default()
            });
        }
        assert_eq!(t.bucket(keys[BUCKET]), b);
        t.put(Entry {
            key: keys[BUCKET],
            pn: 3,
            dn: 3,
            work: 1,
            ..Entry::default()
        });
        // The open entry with the least work (the second) went.
        assert!(t.get(keys[0]).is_some());
        assert!(t.get(keys[1]).is_none());
        assert!(t.get(keys[BUCKET]).is_some());
    }

    /// Debug build (overflow checks): small proofs both ways, and a root
    /// that has already won.
    #[test]
    fn small_proofs() {
        let p = antichess("r3k3/8/8/8/8/8/8/1N1R4 w - - 0 1");
        let proof = prove(&p, &[], &Budget::default(), None);
        assert_eq!(proof.verdict, Verdict::Win);
        assert_eq!(proof.mate(), Some(2));
        assert_eq!(proof.line.len(), 4);
        let mut q = p;
        q.make_move(proof.best);
        let proof = prove(&q, &[p.key(), q.key()], &Budget::default(), None);
        assert_eq!(proof.verdict, Verdict::Loss);
        assert_eq!(proof.mate(), Some(-2));
        let info = proof.info().map(|i| (i.depth, i.score));
        assert_eq!(info, Some((3, Score::Mate(-2))));
        assert_eq!(proof.summary(), "proven loss in 2");
        let won = antichess("8/8/8/8/8/8/8/k7 w - - 0 1");
        let proof = prove(&won, &[], &Budget::default(), None);
        assert_eq!((proof.verdict, proof.plies), (Verdict::Win, 0));
        assert!(proof.best.is_null());
    }
}
