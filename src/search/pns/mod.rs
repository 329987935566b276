//! A proof-number solver for antichess, giveaway and suicide: proves that
//! the side to move wins (or loses) by force and finds the line.
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
//! pieces, or a side has no legal move and the stalemate rule gives the
//! attacker the game: always the stalemated side in antichess and giveaway,
//! the side with fewer pieces in suicide, where a stalemate with as many
//! pieces is a draw, a disproof) and never rely on a cycle; a proved position
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
//! a draw (as in the alpha-beta search); an end by the rules (no pieces, no
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

use super::limits::Limits;
use super::report::{Info, SearchResult};
use super::score::{Score, MATE};
use super::tt::Bound;
use crate::position::Position;
use crate::types::Move;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

mod budget;
mod solver;

pub use budget::{Budget, Target, MAX_CHAIN, MAX_DEPTH};
use budget::{FIRST_SHARE, INF};

use solver::{classify, Class, Solver};

/// What the solver found, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins by force.
    Win,
    /// The side to move loses by force.
    Loss,
    /// Neither proved within the budget (or the variant is not antichess,
    /// giveaway or suicide).
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
            tbhits: None,
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

/// Can the solver run on positions of these rules? (Antichess, giveaway
/// and suicide.)
pub fn supports(pos: &Position) -> bool {
    pos.rules().losers_win
}

/// Tries to prove that the side to move of `pos` wins or loses by force,
/// within `budget`, stopping early when `stop` is set. `history` holds the
/// keys of the game's positions, `pos` last (it may be empty); positions
/// since the last irreversible move count for repetitions. Never panics;
/// a variant other than antichess, giveaway or suicide gives [`Verdict::Unknown`]
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
        Class::Lost => {
            proof.verdict = Verdict::Loss;
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
// ------------------------------------------------------------ engine use

/// Timed antichess/giveaway/suicide play runs the solver before alpha-beta when at
/// most this many pieces (both sides) are on the board. Why 12: the cost is
/// bounded by the share of time either way ([`SOLVE_TIME_DIVISOR`]), so the
/// threshold only decides where the share is likely to buy something. With
/// a dozen pieces or fewer, move generation is cheap (the solver visits
/// several million positions a second on one core in such endgames,
/// against about 1.5 million in the full-board example of `tests/integration/pns.rs`),
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
pub enum SolverPlan {
    /// `go mate N` in antichess/giveaway/suicide: the solver alone, with this budget.
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
pub fn plan(pos: &Position, limits: &Limits, ponder: bool, memory_mb: usize) -> SolverPlan {
    if !supports(pos) || !limits.searchmoves.is_empty() {
        return SolverPlan::Search;
    }
    if limits.mate.is_some() {
        return SolverPlan::Mate(Budget {
            nodes: limits.nodes.unwrap_or(u64::MAX),
            time: limits.time.hard(),
            memory_mb: memory_mb.max(1),
            target: Target::Both,
        });
    }
    if ponder || limits.infinite || limits.time.hold().is_some() || limits.multipv > 1 {
        return SolverPlan::Search;
    }
    let Some(time) = limits.time.soft().or(limits.time.hard()) else {
        return SolverPlan::Search;
    };
    if pos.occupied().count() > SOLVE_MAX_PIECES {
        return SolverPlan::Search;
    }
    let share = time / SOLVE_TIME_DIVISOR;
    if share < SOLVE_MIN_TIME {
        return SolverPlan::Search;
    }
    let ms = u64::try_from(share.as_millis()).unwrap_or(u64::MAX);
    SolverPlan::First(Budget {
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
