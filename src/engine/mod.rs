//! The engine façade: the protocols (`protocol::uci`, `protocol::xboard`)
//! drive it and format what it reports through a [`Listener`]; it never
//! reads or writes stdio. Behind it, one file per concern:
//!
//! - [`record`]: the game (base position, moves, key history, pockets);
//! - [`background`]: searches running on their own thread, and their one answer;
//! - [`tables`]: the network, endgame and Syzygy tables and the hash table;
//! - [`bughouse`] and [`brain`]: the engine on a bughouse board, and the
//!   decisions it makes there (what to tell the partner, whether to sit);
//! - [`request`]: what a `go` asks and where its output goes;
//! - [`tuning`]: every tunable parameter, for `rukav spsa-params` and SPSA.
//!
//! Decisions are made here once for every protocol: how long to think
//! ([`crate::search::timeman`]), and on a bughouse board what to tell the
//! partner and whether to sit ([`brain`]).

mod background;
pub mod brain;
mod bughouse;
mod record;
mod request;
mod tables;
pub mod talk;
pub mod tuning;

use self::background::{Job, LastGo, SearchThread};
pub use self::brain::SitReason;
use self::brain::{Bughouse, Decision};
use self::record::GameRecord;
pub use self::request::{GoRequest, HashResizeError, Listener, Strength};
use crate::eval::nnue::Network;
use crate::position::{MoveParseError, Position};
use crate::rng::Rng;
use crate::rules::{Rules, Variant};
use crate::search::pns;
use crate::search::timeman::moves_horizon;
pub use crate::search::timeman::{Budget, Clock};
use crate::search::{
    self, Info, Limits, RootProgress, SearchResult, SearchSetup, Shared, ThreadHistories,
    TranspositionTable,
};
use crate::syzygy::{ProbeConfig, Tablebases};
use crate::types::Move;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A seed that differs from game to game: the clock and the process.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    Rng(nanos ^ u64::from(std::process::id()).rotate_left(32)).next_u64()
}

/// Engine state shared by the protocol front ends.
pub struct Engine {
    rules: Rules,
    /// The game: base position, moves, key history, current position.
    game: GameRecord,
    tt: Arc<TranspositionTable>,
    /// The search threads' histories, kept between the moves of a game.
    histories: Arc<ThreadHistories>,
    /// Number of search threads.
    threads: usize,
    /// Hash size in MB.
    hash_mb: usize,
    /// Number of principal variations to report.
    multipv: usize,
    /// Milliseconds kept back per move for communication delays.
    move_overhead: u64,
    /// Bughouse: the partner's requests and board, our requests.
    bughouse: Bughouse,
    /// The protocol carries partner messages (UCI with `UCI_Bughouse`,
    /// xboard): on a bughouse board the engine then plans requests and
    /// sitting before each move.
    partner_talk: bool,
    /// A network loaded from a file (`EvalFile`): it evaluates the variants
    /// it serves; the others keep their embedded network.
    net: Option<Arc<Network>>,
    /// Name of the loaded network (`EvalFile`).
    eval_file: String,
    /// Evaluate with the network where it serves the variant (`Use NNUE`).
    use_nnue: bool,
    /// Antichess endgame tables loaded from a file (`AntichessTables`);
    /// `None`: the built-in tables (up to three pieces).
    endgames: Option<Arc<crate::endgames::Tables>>,
    /// Syzygy tables (`SyzygyPath`; `None`: none found or none asked for).
    syzygy: Option<Arc<Tablebases>>,
    /// How searches probe them (`SyzygyProbeDepth`, `SyzygyProbeLimit`,
    /// `Syzygy50MoveRule`).
    syzygy_config: ProbeConfig,
    /// The playing strength.
    strength: Strength,
    /// Draws the seeds of the weakened move choices (reseeded every game).
    rng: Rng,
    running: Option<SearchThread>,
    last_go: Option<LastGo>,
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
        Engine {
            rules,
            game: GameRecord::new(Position::start_with(rules)),
            tt: Arc::new(TranspositionTable::new(16)),
            histories: Arc::new(ThreadHistories::default()),
            threads: 1,
            hash_mb: 16,
            multipv: 1,
            move_overhead: 30,
            bughouse: Bughouse::default(),
            partner_talk: false,
            net: None,
            eval_file: crate::eval::nnue::DEFAULT_NET_NAME.to_string(),
            endgames: None,
            syzygy: None,
            syzygy_config: ProbeConfig::default(),
            use_nnue: crate::eval::nnue::USE_NNUE_DEFAULT,
            strength: Strength::default(),
            rng: Rng(fresh_seed()),
            running: None,
            last_go: None,
        }
    }

    /// Sets the number of search threads (at least one); a running search
    /// is stopped first (its result stands).
    pub fn set_threads(&mut self, threads: usize) {
        self.stop();
        self.threads = threads.max(1);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sets how many principal variations a search reports (at least one).
    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
    }

    /// Sets the milliseconds kept back per move for communication delays.
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.move_overhead = ms;
    }

    /// Sets the playing strength (`Skill Level`, `UCI_LimitStrength`,
    /// `UCI_Elo`) through `change`.
    pub fn set_strength(&mut self, change: impl FnOnce(&mut Strength)) {
        change(&mut self.strength);
    }

    /// Evaluates with the network where one serves the variant (`Use
    /// NNUE`); a running search is stopped first.
    pub fn set_use_nnue(&mut self, on: bool) {
        self.stop();
        self.use_nnue = on;
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules (variant or house rule); the position is reset to
    /// the start position when the variant changes, otherwise re-read.
    pub fn set_rules(&mut self, rules: Rules) {
        self.stop();
        let variant_changed = rules.variant != self.rules.variant;
        self.rules = rules;
        if crate::endgames::covers(&rules) && self.endgames.is_none() {
            // The built-in antichess endgame tables (read in about a tenth
            // of a second) now, not on the clock of the first move.
            crate::endgames::builtin();
        }
        if variant_changed {
            self.set_position(Position::start_with(rules), Vec::new());
        } else {
            self.game.reread(rules);
        }
    }

    /// Changes the variant, keeping the house rules.
    pub fn set_variant(&mut self, variant: Variant) {
        self.set_rules(self.rules.with_variant(variant));
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The position the move list starts from.
    pub fn base_position(&self) -> &Position {
        self.game.base()
    }

    /// Moves played from the base position of the last `position` command.
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// Keys of the game's positions, the current one last.
    pub fn history(&self) -> &[u64] {
        self.game.history()
    }

    /// Sets the position: a start position and moves that are already
    /// checked legal (see [`Engine::replay`]).
    pub fn set_position(&mut self, start: Position, moves: Vec<Move>) {
        self.game.set(start, moves);
    }

    /// Parses and plays `moves` from `start`, failing (without changing the
    /// engine) at the first illegal one.
    pub fn replay(start: &Position, moves: &[&str]) -> Result<Vec<Move>, MoveParseError> {
        GameRecord::replay(start, moves)
    }

    /// Plays one more move on the current position (xboard `usermove`).
    pub fn play(&mut self, m: Move) {
        self.game.play(m);
    }

    /// Takes back the last `n` moves (xboard `undo`, `remove`).
    pub fn undo(&mut self, n: usize) {
        self.game.undo(n);
    }

    /// Ends a running search without reporting its result. Returns true
    /// when that kept its result back (the search had not reported); false
    /// when no search ran or it had already reported (or was reporting)
    /// its result, which then stands.
    pub fn abort(&mut self) -> bool {
        self.running.take().is_some_and(SearchThread::abort)
    }

    /// The limits of a search for `request` and, on a bughouse board with a
    /// partner to talk to, the bughouse decision. `new_move` is false for a
    /// search restarted on changed pockets.
    fn prepare(
        &mut self,
        request: &GoRequest,
        new_move: bool,
    ) -> (Limits, SearchSetup, Option<Decision>) {
        let pos = *self.game.position();
        let side = pos.side_to_move();
        let (mut limits, mut setup) = self.limits_and_setup(request.limits.clone());
        // `infinite` (and analysis) ignores the clock: only `stop` ends it.
        limits.time = if limits.infinite {
            Budget::UNLIMITED
        } else {
            let horizon = moves_horizon(pos.rules());
            Budget::for_clock(&request.clock, side, self.move_overhead, horizon)
        };
        if pos.rules().two_boards {
            setup.bias = self.bughouse.bias(side);
        }
        let decision = self.plan_bughouse(request, new_move, &mut limits);
        (limits, setup, decision)
    }

    /// Starts a search in the background for `request`; `listener` receives
    /// its output. The result comes after `stop` when the search is
    /// infinite or pondering.
    pub fn go(&mut self, request: GoRequest, listener: Arc<dyn Listener>) {
        self.stop();
        self.launch(request, listener, true);
    }

    /// Starts the search of `request` (`new_move`: false for a restart
    /// on changed pockets).
    fn launch(&mut self, request: GoRequest, listener: Arc<dyn Listener>, new_move: bool) {
        let (limits, setup, decision) = self.prepare(&request, new_move);
        let mut holding = None;
        if let Some(d) = &decision {
            for &msg in &d.requests {
                listener.tell_partner(msg);
            }
            if let Some(text) = &d.declined_sit {
                listener.tell_person(text);
            }
            if let (false, Some((reason, budget))) = (request.limits.infinite, d.hold) {
                listener.sitting(reason, budget);
                holding = Some(reason);
            }
        }
        if new_move || decision.is_some() {
            self.bughouse.set_holding(holding);
        }
        // A timed bughouse search that finds a forced mate tells the
        // partner to sit (and `go` once a later one finds none).
        let timed = decision.is_some() && !request.ponder && !request.limits.infinite;
        let us = self.game.position().side_to_move();
        let freeze_sit = self.bughouse.freeze_sit(us).filter(|_| timed);
        let shared = Arc::new(Shared::with_histories(
            self.tt.clone(),
            self.histories.clone(),
        ));
        shared.pondering.store(request.ponder, Ordering::Relaxed);
        let root = *self.game.position();
        let job = Job {
            root,
            history: self.game.history().to_vec(),
            // Antichess/giveaway: `go mate` runs the proof-number solver, and
            // timed play tries it first with few pieces (search::pns::plan).
            plan: pns::plan(&root, &limits, request.ponder, self.hash_mb),
            limits,
            setup,
            threads: self.threads,
            freeze_sit,
        };
        self.running = Some(SearchThread::start(job, shared, listener.clone()));
        self.last_go = Some(LastGo {
            request,
            started: Instant::now(),
            listener,
        });
    }

    /// `ponderhit`: the expected move was played; the clock now runs.
    pub fn ponderhit(&mut self) {
        if let Some(r) = &self.running {
            r.ponderhit();
            // A restart (a pocket change) goes on as a timed search whose
            // clock started now, not as a ponder search waiting for a
            // second `ponderhit`.
            if let Some(last) = &mut self.last_go {
                last.request.ponder = false;
                last.started = Instant::now();
            }
        }
    }

    /// Stops a running search and waits until it has reported its result.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.halt();
        }
    }

    /// Where a running search is: time since it started, nodes, and the
    /// main thread's place at the root (`None` before its first root
    /// move). `None` when no search runs.
    pub fn progress(&self) -> Option<(Duration, u64, Option<RootProgress>)> {
        self.running.as_ref().map(SearchThread::progress)
    }

    /// Is a search running?
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.is_finished())
    }

    /// Waits for a running search to finish on its own.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            r.join();
        }
    }

    /// Runs a search to completion on this thread (bench, tests).
    pub fn search_sync(&mut self, limits: Limits, report: &(dyn Fn(&Info) + Sync)) -> SearchResult {
        self.stop();
        let shared = Arc::new(Shared::with_histories(
            self.tt.clone(),
            self.histories.clone(),
        ));
        let (limits, setup) = self.limits_and_setup(limits);
        let report = |info: &Info| report(info);
        search::search(
            self.game.position(),
            self.game.history(),
            &limits,
            &setup,
            self.threads,
            shared,
            &report,
        )
    }

    /// A new game: clears the hash table, the histories and the bughouse requests.
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.histories.clear();
        self.rng = Rng(fresh_seed() ^ self.rng.next_u64());
        self.bughouse.new_game();
        let start = Position::start_with(self.rules);
        self.set_position(start, Vec::new());
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}
