//! The engine facade: the game (position and history), options, the hash
//! table, and searches running in the background. The protocol layers
//! (`uci`, later `xboard`) drive it; it never reads or writes stdio.

use crate::eval::nnue::Network;
use crate::partner::PartnerState;
use crate::position::Position;
use crate::rules::{Rules, Variant};
pub use crate::search::timeman::{time_limits, Clock};
use crate::search::TranspositionTable;
use crate::search::{self, Info, Limits, SearchResult, Shared};
use crate::types::{Color, Move, PieceType, Square};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Depth of the short searches that value owed pieces.
pub const OWED_DEPTH: i32 = 4;
/// Below this much on its clock (ms) the engine skips the owed-piece
/// searches (no requests, no sitting) and spends the time on its move.
pub const OWED_MIN_CLOCK_MS: u64 = 4000;
/// Gain (centipawns) beyond a piece's usual pocket value from one more
/// piece in hand that makes the engine ask its partner for it; the same
/// loss makes it say "dont give".
pub const NEED_GAIN: i32 = 200;
/// Gain (centipawns, beyond the usual pocket value) from a piece not yet in
/// hand that makes the engine sit and wait for it, when the clock allows...
pub const SIT_GAIN: i32 = 400;
/// ... and the score it would then reach (a decisive one: mate, or close).
pub const SIT_SCORE: i32 = 1000;

/// Scores of the owed-piece searches ([`Engine::owed_pieces`]), indexed by
/// pocket piece kind (P N B R Q); `None` where the pocket was full.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwedPieces {
    /// The position as it is.
    pub base: i32,
    /// With one more piece of that kind in our pocket.
    pub mine: [Option<i32>; 5],
    /// With one more piece of that kind in the opponent's pocket.
    pub theirs: [Option<i32>; 5],
}

/// What the engine does on a bughouse board before it thinks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BughousePlan {
    /// Messages for the partner, in the partner vocabulary.
    pub messages: Vec<String>,
    /// Sit waiting for this piece, for at most this long.
    pub sit_for: Option<(PieceType, Duration)>,
}

/// The score (side to move's view) of a one-thread search of `pos` to
/// `depth` with a small private table: the engine's quick look at a
/// hypothetical position.
pub fn short_search(pos: &Position, depth: i32) -> i32 {
    let tt = Arc::new(TranspositionTable::new(1));
    let shared = Arc::new(Shared::new(tt));
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        ..Limits::default()
    };
    search::search(pos, &[pos.key()], &limits, 1, shared, &|_| {}).score
}

/// Gambler promotion rule: the piece of the opponent that `chooser` takes
/// off `pos` (his own board) when his partner promotes. Each queen, rook,
/// bishop or knight whose removal leaves nobody in an impossible check is
/// tried with a short search; the piece also lands on the partner's board,
/// so half its pocket value is added. `None` when nothing may be taken.
pub fn gambler_choice(pos: &Position, chooser: Color) -> Option<Square> {
    let them = chooser.flip();
    let mut best: Option<(i32, Square)> = None;
    for kind in [
        PieceType::Queen,
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Knight,
    ] {
        for sq in pos.pieces(them, kind) {
            let mut p = *pos;
            if p.take_piece(sq).is_err() {
                continue;
            }
            // The side not to move may not be left in check.
            if crate::bughouse::opponent_in_check(&p) {
                continue;
            }
            let s = short_search(&p, 3).clamp(-5000, 5000);
            let ours = if p.side_to_move() == chooser { s } else { -s };
            let score = ours + hand_value(kind) / 2;
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, sq));
            }
        }
    }
    best.map(|(_, sq)| sq)
}

/// What one more piece of kind `k` in hand is usually worth: the
/// evaluation's pocket value (centipawns).
pub fn hand_value(k: PieceType) -> i32 {
    crate::eval::hand_value(k)
}

/// How long the side to move may sit with `own_ms` on its clock against
/// `their_ms` on its opponent's: sitting costs only our clock, so we wait
/// while we stay at least a second ahead of the opponent, and never more
/// than a third of what is left. `None` when that is under 300 ms.
pub fn sit_budget(own_ms: u64, their_ms: u64) -> Option<Duration> {
    let budget = own_ms
        .saturating_sub(their_ms)
        .saturating_sub(1000)
        .min(own_ms / 3);
    (budget >= 300).then(|| Duration::from_millis(budget))
}

struct Running {
    shared: Arc<Shared>,
    handle: JoinHandle<()>,
}

/// Engine state shared by the protocol front ends.
pub struct Engine {
    rules: Rules,
    base: Position,
    position: Position,
    history: Vec<u64>,
    moves: Vec<Move>,
    tt: Arc<TranspositionTable>,
    /// Number of search threads.
    pub threads: usize,
    /// Hash size in MB.
    pub hash_mb: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept back per move for communication delays.
    pub move_overhead: u64,
    /// Bughouse: what the partner asked for.
    pub partner: PartnerState,
    /// Bughouse: the partner's board (two in the three-board form's centre),
    /// when the protocol told us.
    pub partner_boards: Vec<Position>,
    /// Bughouse: clocks in ms (own board White, Black; partner board White, Black).
    pub bughouse_clocks: Option<[u64; 4]>,
    /// Bughouse: send partner messages and act on those received
    /// (option `PartnerMessages`).
    pub partner_messages: bool,
    /// The NNUE network loaded (`EvalFile`; the embedded one by default).
    pub net: Option<Arc<Network>>,
    /// Name of the loaded network (`EvalFile`).
    pub eval_file: String,
    /// Evaluate with the network where it serves the variant (`Use NNUE`).
    pub use_nnue: bool,
    running: Option<Running>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// A fresh engine: chess, start position, 16 MB hash, one thread.
    pub fn new() -> Engine {
        let rules = Variant::Chess.rules();
        let position = Position::start_with(rules);
        Engine {
            rules,
            base: position,
            history: vec![position.key()],
            position,
            moves: Vec::new(),
            tt: Arc::new(TranspositionTable::new(16)),
            threads: 1,
            hash_mb: 16,
            multipv: 1,
            move_overhead: 30,
            partner: PartnerState::default(),
            partner_boards: Vec::new(),
            bughouse_clocks: None,
            partner_messages: true,
            net: crate::eval::nnue::default_network(),
            eval_file: crate::eval::nnue::DEFAULT_NET_NAME.to_string(),
            use_nnue: crate::eval::nnue::USE_NNUE_DEFAULT,
            running: None,
        }
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules (variant or house rule); the position is reset to
    /// the start position when the variant changes, otherwise re-read.
    pub fn set_rules(&mut self, rules: Rules) {
        let variant_changed = rules.variant != self.rules.variant;
        self.rules = rules;
        if variant_changed {
            self.set_position(Position::start_with(rules), Vec::new());
        } else {
            let fen = self.position.fen();
            match Position::from_fen(&fen, rules) {
                Ok(p) => self.position.clone_from(&p),
                Err(_) => self.position.set_rules(rules),
            }
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the move list starts from.
    pub fn base_position(&self) -> &Position {
        &self.base
    }

    /// Moves played from the base position of the last `position` command.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Sets the position: a start position and moves that are already
    /// checked legal (see [`Engine::replay`]).
    pub fn set_position(&mut self, start: Position, moves: Vec<Move>) {
        self.base = start;
        let mut pos = start;
        let mut history = vec![pos.key()];
        for &m in &moves {
            pos.make_move(m);
            history.push(pos.key());
        }
        self.position = pos;
        self.history = history;
        self.moves = moves;
    }

    /// Parses and plays `moves` from `start`, failing (without changing the
    /// engine) at the first illegal one.
    pub fn replay(start: &Position, moves: &[&str]) -> Result<Vec<Move>, String> {
        let mut pos = *start;
        let mut out = Vec::with_capacity(moves.len());
        for text in moves {
            let m = pos.parse_uci_move(text)?;
            pos.make_move(m);
            out.push(m);
        }
        Ok(out)
    }

    /// Plays one more move on the current position (xboard `usermove`).
    pub fn play(&mut self, m: Move) {
        self.position.make_move(m);
        self.history.push(self.position.key());
        self.moves.push(m);
    }

    /// Adds a piece to a pocket of the current position (bughouse).
    pub fn add_to_pocket(&mut self, c: Color, k: PieceType) -> Result<(), String> {
        self.position.add_to_pocket(c, k)?;
        if let Some(last) = self.history.last_mut() {
            *last = self.position.key();
        }
        Ok(())
    }

    /// Sets both pockets of the current position (bughouse `holding`).
    pub fn set_pockets(&mut self, counts: [[u8; 5]; 2]) -> Result<(), String> {
        let mut pos = self.position;
        for c in Color::ALL {
            for k in PieceType::POCKET {
                while pos.pocket(c, k) > counts[c.index()][k.index()] {
                    pos.remove_from_pocket(c, k)?;
                }
                while pos.pocket(c, k) < counts[c.index()][k.index()] {
                    pos.add_to_pocket(c, k)?;
                }
            }
        }
        self.position = pos;
        if let Some(last) = self.history.last_mut() {
            *last = pos.key();
        }
        Ok(())
    }

    /// Ends a running search without reporting its result.
    pub fn abort(&mut self) {
        if let Some(r) = self.running.take() {
            r.shared.silent.store(true, Ordering::Relaxed);
            r.shared.stop.store(true, Ordering::Relaxed);
            r.handle.thread().unpark();
            let _ = r.handle.join();
        }
    }

    /// Bughouse: scores of short searches of the current position with one
    /// more piece of each kind in our pocket (`mine`) and in the opponent's
    /// (`theirs`), and without (`base`), all from the side to move's view
    /// and clamped to +-2000 so that a mate counts as a large gain, not an
    /// infinite one. These are the "owed" pieces: drops of pieces that are
    /// not in hand yet, searched as if the partner had already sent them.
    pub fn owed_pieces(&self) -> OwedPieces {
        let pos = self.position;
        let us = pos.side_to_move();
        let score = |p: &Position| short_search(p, OWED_DEPTH).clamp(-2000, 2000);
        let mut owed = OwedPieces {
            base: score(&pos),
            ..OwedPieces::default()
        };
        for k in PieceType::POCKET {
            let mut mine = pos;
            if mine.add_to_pocket(us, k).is_ok() {
                owed.mine[k.index()] = Some(score(&mine));
            }
            let mut theirs = pos;
            if theirs.add_to_pocket(us.flip(), k).is_ok() {
                owed.theirs[k.index()] = Some(score(&theirs));
            }
        }
        owed
    }

    /// Can a piece of kind `k` reach our pocket soon? True when a partner
    /// attacks one on his board (his opponent has our colour), or when no
    /// partner board is known.
    pub fn may_arrive(&self, k: PieceType) -> bool {
        if self.partner_boards.is_empty() {
            return true;
        }
        let ours = self.position.side_to_move();
        self.partner_boards.iter().any(|board| {
            let occ = board.occupied();
            board
                .pieces(ours, k)
                .any(|sq| (board.attackers_to(sq, occ) & board.color_bb(ours.flip())).nonempty())
        })
    }

    /// Bughouse: what to tell the partner and whether to sit before this
    /// move. `own_ms` and `their_ms` are the clocks of the side to move and
    /// of its opponent.
    ///
    /// Gains and losses are counted beyond the piece's usual pocket value.
    /// Messages: `need X` for the piece that would help most (a gain of at
    /// least [`NEED_GAIN`]), `dont give X` for the piece that would hurt most
    /// in the opponent's hand. Sitting: when a piece not yet in hand would
    /// gain at least [`SIT_GAIN`] and reach [`SIT_SCORE`] (a mate it allows,
    /// typically), it may arrive ([`Engine::may_arrive`]), and the clock
    /// allows waiting ([`sit_budget`]), the engine thinks on but holds its
    /// move back until the piece arrives or the budget is spent.
    pub fn bughouse_plan(&self, own_ms: Option<u64>, their_ms: Option<u64>) -> BughousePlan {
        let mut plan = BughousePlan::default();
        // The short searches cost tens of milliseconds: not with a low clock.
        if !self.position.rules().two_boards || own_ms.is_some_and(|t| t < OWED_MIN_CLOCK_MS) {
            return plan;
        }
        let owed = self.owed_pieces();
        // Beyond the usual value: a request says a piece is worth much
        // more than usual here, not that pieces are good to have.
        let gain = |k: PieceType| owed.mine[k.index()].map_or(0, |s| s - owed.base - hand_value(k));
        let loss =
            |k: PieceType| owed.theirs[k.index()].map_or(0, |s| owed.base - s - hand_value(k));
        let best_gain = PieceType::POCKET
            .into_iter()
            .max_by_key(|&k| (gain(k), k.index()));
        let worst_loss = PieceType::POCKET
            .into_iter()
            .max_by_key(|&k| (loss(k), k.index()));
        if self.partner_messages {
            if let Some(k) = best_gain.filter(|&k| gain(k) >= NEED_GAIN) {
                plan.messages.push(crate::partner::need_message(k));
            }
            if let Some(k) = worst_loss.filter(|&k| loss(k) >= NEED_GAIN) {
                plan.messages.push(crate::partner::dont_give_message(k));
            }
        }
        if let (Some(k), Some(own), Some(theirs)) = (best_gain, own_ms, their_ms) {
            let decisive = owed.mine[k.index()].is_some_and(|s| s >= SIT_SCORE);
            if gain(k) >= SIT_GAIN && decisive && self.may_arrive(k) {
                plan.sit_for = sit_budget(own, theirs).map(|d| (k, d));
            }
        }
        plan
    }

    /// The network searches evaluate with: the loaded one when `Use NNUE`
    /// is on (the search uses it only where it serves the variant).
    pub fn active_net(&self) -> Option<Arc<Network>> {
        if self.use_nnue {
            self.net.clone()
        } else {
            None
        }
    }

    /// Loads the network `name` (`EvalFile`): the embedded default by its
    /// name (or `<default>`), otherwise a file. On error the current network
    /// stays. Returns a description of the loaded network.
    pub fn set_eval_file(&mut self, name: &str) -> Result<String, String> {
        let name = name.trim();
        let net = if name == crate::eval::nnue::DEFAULT_NET_NAME || name == "<default>" {
            crate::eval::nnue::default_network().ok_or("the embedded network is missing")?
        } else {
            Arc::new(crate::eval::nnue::load_file(name)?)
        };
        self.stop();
        let text = format!("{name}: {}", net.description());
        self.net = Some(net);
        self.eval_file = name.to_string();
        Ok(text)
    }

    /// How long to hold the move back before this search, if at all: half
    /// the clock when the partner asked us to sit, otherwise the plan's own
    /// sitting budget.
    pub fn hold_budget(&self, plan: &BughousePlan, own_ms: Option<u64>) -> Option<Duration> {
        if self.partner.sit {
            own_ms.map(|ms| Duration::from_millis(ms / 2))
        } else {
            plan.sit_for.map(|(_, d)| d)
        }
    }

    /// Resizes the hash table (waits for a running search first).
    pub fn set_hash(&mut self, mb: usize) {
        self.stop();
        self.hash_mb = mb.max(1);
        self.tt = Arc::new(TranspositionTable::new(self.hash_mb));
    }

    /// Empties the hash table.
    pub fn clear_hash(&mut self) {
        self.stop();
        self.tt.clear();
    }

    /// Starts a search in the background. `report` receives every info line
    /// and `done` the result, after `stop` when the search is infinite or
    /// pondering.
    pub fn go<R, D>(&mut self, limits: Limits, ponder: bool, report: R, done: D)
    where
        R: Fn(&Info) + Send + Sync + 'static,
        D: FnOnce(SearchResult) + Send + 'static,
    {
        self.stop();
        let shared = Arc::new(Shared::new(self.tt.clone()));
        shared.pondering.store(ponder, Ordering::Relaxed);
        let root = self.position;
        let history = self.history.clone();
        let threads = self.threads;
        let bias = if root.rules().two_boards && self.partner_messages {
            self.partner.bias(root.side_to_move())
        } else {
            limits.bias
        };
        let limits = Limits {
            multipv: limits.multipv.max(self.multipv),
            bias,
            net: self.active_net(),
            ..limits
        };
        let s = shared.clone();
        let handle = std::thread::spawn(move || {
            let result = search::search(&root, &history, &limits, threads, s.clone(), &report);
            // UCI: with `infinite` or while pondering, bestmove waits for stop/ponderhit.
            // A sitting search (infinite with a hard limit) waits no longer
            // than its limit.
            let waited_out = || {
                limits.hard_time.is_some_and(|h| s.elapsed() >= h)
                    && !s.pondering.load(Ordering::Relaxed)
            };
            while !s.stop.load(Ordering::Relaxed)
                && (limits.infinite || s.pondering.load(Ordering::Relaxed))
                && !(limits.infinite && waited_out())
            {
                std::thread::park_timeout(Duration::from_millis(1));
            }
            if !s.silent.load(Ordering::Relaxed) {
                done(result);
            }
        });
        self.running = Some(Running { shared, handle });
    }

    /// `ponderhit`: the expected move was played; the clock now runs.
    pub fn ponderhit(&mut self) {
        if let Some(r) = &self.running {
            if let Ok(mut s) = r.shared.start.lock() {
                *s = std::time::Instant::now();
            }
            r.shared.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Stops a running search and waits until it has reported its result.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.shared.stop.store(true, Ordering::Relaxed);
            r.handle.thread().unpark();
            let _ = r.handle.join();
        }
    }

    /// Is a search running?
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Waits for a running search to finish on its own.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.handle.join();
        }
    }

    /// Runs a search to completion on this thread (bench, tests).
    pub fn search_sync(&mut self, limits: Limits, report: &(dyn Fn(&Info) + Sync)) -> SearchResult {
        self.stop();
        let shared = Arc::new(Shared::new(self.tt.clone()));
        let limits = Limits {
            multipv: limits.multipv.max(self.multipv),
            net: self.active_net(),
            ..limits
        };
        search::search(
            &self.position,
            &self.history,
            &limits,
            self.threads,
            shared,
            report,
        )
    }

    /// A new game: clears the hash table.
    pub fn new_game(&mut self) {
        self.clear_hash();
        let start = Position::start_with(self.rules);
        self.set_position(start, Vec::new());
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sit_budget_needs_a_clock_lead() {
        assert_eq!(
            sit_budget(20_000, 10_000),
            Some(Duration::from_millis(6_666))
        );
        assert_eq!(
            sit_budget(20_000, 17_000),
            Some(Duration::from_millis(2_000))
        );
        assert_eq!(sit_budget(10_000, 20_000), None);
        assert_eq!(sit_budget(10_000, 9_500), None);
        assert_eq!(sit_budget(600, 0), None);
    }

    fn smother_engine() -> Engine {
        let mut e = Engine::new();
        e.set_rules(Variant::Bughouse.rules());
        let pos = Position::from_fen("6rk/6pp/8/8/8/8/PPP5/1K6[] w - - 0 1", e.rules()).unwrap();
        e.set_position(pos, Vec::new());
        e
    }

    #[test]
    fn owed_knight_makes_the_engine_ask_and_sit() {
        let e = smother_engine();
        let owed = e.owed_pieces();
        assert_eq!(owed.mine[PieceType::Knight.index()], Some(2000), "{owed:?}");
        let plan = e.bughouse_plan(Some(20_000), Some(10_000));
        assert!(plan.messages.contains(&"need n".to_string()), "{plan:?}");
        assert_eq!(
            plan.sit_for,
            Some((PieceType::Knight, Duration::from_millis(6_666)))
        );
        // Behind on the clock: ask, but play on.
        let plan = e.bughouse_plan(Some(10_000), Some(20_000));
        assert!(plan.messages.contains(&"need n".to_string()));
        assert_eq!(plan.sit_for, None);
    }

    #[test]
    fn a_piece_may_arrive_only_when_the_partner_attacks_one() {
        let mut e = smother_engine();
        // Partner (Black on the other board) attacks White's knight on c3
        // with his pawn on b4; no white bishop is attacked.
        let partner = "r1bqkbnr/pppppppp/2n5/8/1p6/2N5/PPPPPPPP/R1BQKBNR[] w KQkq - 0 1";
        e.partner_boards = vec![Position::from_fen(partner, e.rules()).unwrap()];
        assert!(e.may_arrive(PieceType::Knight));
        assert!(!e.may_arrive(PieceType::Bishop));
        let plan = e.bughouse_plan(Some(20_000), Some(10_000));
        assert_eq!(plan.sit_for.map(|(k, _)| k), Some(PieceType::Knight));
        // Nothing of the kind is attacked: no sitting for it.
        let quiet = "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR[] b KQkq - 0 1";
        e.partner_boards = vec![Position::from_fen(quiet, e.rules()).unwrap()];
        assert!(!e.may_arrive(PieceType::Knight));
        assert_eq!(e.bughouse_plan(Some(20_000), Some(10_000)).sit_for, None);
    }
}
