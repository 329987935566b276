//! The engine facade: the game (position and history), the settings, the
//! hash table, the bughouse state, and searches running in the background.
//! The protocols (`protocol::uci`, `protocol::xboard`) drive it and format
//! what it reports through a [`Listener`]; it never reads or writes stdio.
//!
//! Decisions are made here once for every protocol: how long to think
//! ([`crate::search::timeman`]), and on a bughouse board what to tell the
//! partner and whether to sit ([`crate::bughouse::strategy`]).

use crate::bughouse::partner::PartnerMessage;
pub use crate::bughouse::strategy::SitReason;
use crate::bughouse::strategy::{Bughouse, Decision};
use crate::endgames::TablesFileError;
use crate::eval::nnue::{Network, NetworkFileError};
use crate::position::{MoveParseError, PocketError, Position};
use crate::rng::Rng;
use crate::rules::{Rules, Variant};
use crate::search::pns::{self, SolverPlan, Verdict};
use crate::search::strength::{self, Level, Weakening};
use crate::search::tt::HashSizeError;
use crate::search::{
    self, Info, Limits, Report, RootProgress, SearchResult, SearchSetup, Shared, ThreadHistories,
    TranspositionTable,
};
use crate::syzygy::{ProbeConfig, Tablebases};
use crate::types::{Color, Move, PieceType};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::search::timeman::moves_horizon;
pub use crate::search::timeman::{time_limits, Clock};

/// Why [`Engine::set_hash`] kept a table of the old size (or of 1 MB
/// when even that could not be had again).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashResizeError {
    /// The size that was refused.
    pub refused: HashSizeError,
    /// The size of the table kept, in MB.
    pub kept_mb: usize,
}

impl fmt::Display for HashResizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}; keeping {} MB", self.refused, self.kept_mb)
    }
}

impl std::error::Error for HashResizeError {}

/// A `go`: the clocks, the other limits, and whether it is a ponder search.
#[derive(Clone, Debug, Default)]
pub struct GoRequest {
    /// Clocks, increments, moves to go, fixed move time.
    pub clock: Clock,
    /// Depth, nodes, mate, infinite, searchmoves, MultiPV (the time limits
    /// are filled in from the clock).
    pub limits: Limits,
    /// Search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// An analysis (xboard `analyze`): on a bughouse board no partner
    /// messages and no sitting.
    pub analysis: bool,
}

/// Where a background search's output goes; each protocol formats it.
pub trait Listener: Send + Sync {
    /// A completed iteration (or MultiPV line).
    fn info(&self, info: &Info);
    /// The search's result (not called for a search that was aborted or
    /// restarted).
    fn best_move(&self, result: &SearchResult);
    /// A message for the bughouse partner.
    fn tell_partner(&self, _msg: PartnerMessage) {}
    /// The engine sits (holds its move on a bughouse board) for at most
    /// `budget`, for `reason`.
    fn sitting(&self, _reason: SitReason, _budget: Duration) {}
    /// A line of information for the user (UCI: `info string <text>`), such
    /// as the antichess solver's `proven win in 12`.
    fn message(&self, _text: &str) {}
    /// The search, running for a second or more, starts root move
    /// `current`, the `number`-th of iteration `depth` (UCI `currmove`).
    fn current_move(&self, _depth: i32, _current: Move, _number: usize) {}
}

/// Passes a search's reports to a [`Listener`].
struct ToListener<'a>(&'a dyn Listener);

impl Report for ToListener<'_> {
    fn iteration(&self, info: &Info) {
        self.0.info(info);
    }
    fn current_move(&self, depth: i32, current: Move, number: usize) {
        self.0.current_move(depth, current, number);
    }
    fn message(&self, text: &str) {
        self.0.message(text);
    }
}

/// How strong the engine plays (`Skill Level`, `UCI_LimitStrength`,
/// `UCI_Elo`); the levels are in [`crate::search::strength`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// `Skill Level`, 0..=20 (20: full strength).
    pub skill: i32,
    /// `UCI_LimitStrength`: play at `elo` (this wins over `skill`).
    pub limit: bool,
    /// `UCI_Elo`.
    pub elo: i32,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            skill: strength::FULL_STRENGTH,
            limit: false,
            elo: strength::ELO_MAX,
        }
    }
}

impl Strength {
    /// The level in force; `None` at full strength.
    pub fn level(&self) -> Option<Level> {
        if self.limit {
            Some(strength::for_elo(self.elo))
        } else {
            strength::for_skill(self.skill)
        }
    }
}

/// A seed that differs from game to game: the clock and the process.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    Rng(nanos ^ u64::from(std::process::id()).rotate_left(32)).next_u64()
}

/// The one answer of a search (UCI: one `bestmove` per `go`). It is
/// claimed once: by the search thread, which then reports its result, or
/// by [`Engine::abort`], which then keeps it from being reported. Whoever
/// claims first wins, so a search reports at most once, and an abort that
/// comes too late (the result is already out) knows it.
#[derive(Default)]
struct Answer(AtomicBool);

impl Answer {
    /// Claims the answer; true for the first caller only.
    fn claim(&self) -> bool {
        !self.0.swap(true, Ordering::AcqRel)
    }
}

/// A search running in the background: its thread, the state it shares
/// with the engine, and its one answer. The lifecycle is written here once:
/// [`SearchThread::halt`] (stop and wait), [`SearchThread::abort`] (stop
/// without reporting), [`SearchThread::join`] (wait for it to end on its
/// own), [`SearchThread::ponderhit`].
struct SearchThread {
    shared: Arc<Shared>,
    answer: Arc<Answer>,
    handle: JoinHandle<()>,
}

impl SearchThread {
    /// Tells the search to stop (also out of a ponder or infinite wait) and
    /// waits until its thread has ended.
    fn halt(self) {
        self.shared.halt.store(true, Ordering::Relaxed);
        self.shared.stop.store(true, Ordering::Relaxed);
        self.handle.thread().unpark();
        let _ = self.handle.join();
    }

    /// Stops the search without reporting its result: true when that kept
    /// the result back, false when it was already reported (or being
    /// reported), which then stands.
    fn abort(self) -> bool {
        let suppressed = self.answer.claim();
        self.halt();
        suppressed
    }

    /// Waits for the search to end on its own.
    fn join(self) {
        let _ = self.handle.join();
    }

    /// The expected move was played: the clock runs from now.
    fn ponderhit(&self) {
        if let Ok(mut start) = self.shared.start.lock() {
            *start = Instant::now();
        }
        self.shared.pondering.store(false, Ordering::Relaxed);
    }

    /// Has the thread ended?
    fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Time since it started, nodes, and the main thread's place at the root.
    fn progress(&self) -> (Duration, u64, Option<RootProgress>) {
        let nodes = self.shared.nodes.load(Ordering::Relaxed);
        (self.shared.elapsed(), nodes, self.shared.progress())
    }
}

/// The `go` of the running search, kept to restart it.
struct LastGo {
    request: GoRequest,
    started: Instant,
    listener: Arc<dyn Listener>,
}

/// Engine state shared by the protocol front ends.
pub struct Engine {
    rules: Rules,
    base: Position,
    position: Position,
    history: Vec<u64>,
    moves: Vec<Move>,
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
        let position = Position::start_with(rules);
        Engine {
            rules,
            base: position,
            history: vec![position.key()],
            position,
            moves: Vec::new(),
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

    /// Says whether the protocol carries partner messages (UCI with
    /// `UCI_Bughouse`, xboard): on a bughouse board the engine then plans
    /// requests and sitting before each move.
    pub fn set_partner_talk(&mut self, on: bool) {
        self.partner_talk = on;
    }

    /// Sends requests and acts on the partner's (`PartnerMessages`); off
    /// forgets what the partner asked.
    pub fn set_partner_messages(&mut self, on: bool) {
        self.bughouse.messages = on;
        if !on {
            self.bughouse.partner = Default::default();
        }
    }

    /// Sets the partner's board (`add`: a second one, as the centre player
    /// of the three-board form has; at most two, a repeated `add` replaces
    /// the second).
    pub fn set_partner_board(&mut self, board: Position, add: bool) {
        let boards = &mut self.bughouse.partner_boards;
        boards.truncate(usize::from(add));
        boards.push(board);
    }

    /// Gambler promotion rule: the piece of its opponent that `chooser`
    /// takes off `board` (its own board) when its partner promotes; see
    /// [`crate::bughouse::strategy::gambler_choice`].
    pub fn gambler_choice(&self, board: &Position, chooser: Color) -> Option<crate::types::Square> {
        crate::bughouse::strategy::gambler_choice(board, chooser)
    }

    /// A new bughouse partnership or game: what either partner asked is
    /// forgotten.
    pub fn new_partnership(&mut self) {
        self.bughouse.new_game();
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
            let fen = self.position.fen();
            match Position::from_fen(&fen, rules) {
                Ok(p) => self.position.clone_from(&p),
                Err(_) => self.position.set_rules(rules),
            }
        }
    }

    /// Changes the variant, keeping the house rules.
    pub fn set_variant(&mut self, variant: Variant) {
        self.set_rules(self.rules.with_variant(variant));
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

    /// Keys of the game's positions, the current one last.
    pub fn history(&self) -> &[u64] {
        &self.history
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
    pub fn replay(start: &Position, moves: &[&str]) -> Result<Vec<Move>, MoveParseError> {
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

    /// Takes back the last `n` moves (xboard `undo`, `remove`).
    pub fn undo(&mut self, n: usize) {
        let keep = self.moves.len().saturating_sub(n);
        let moves = self.moves[..keep].to_vec();
        self.set_position(self.base, moves);
    }

    /// Both pockets of the current position as counts `[colour][piece]`
    /// (the form `set_pockets` takes).
    pub fn pocket_counts(&self) -> [[u8; 5]; 2] {
        let mut counts = [[0u8; 5]; 2];
        for c in Color::ALL {
            for k in PieceType::POCKET {
                counts[c.index()][k.index()] = self.position.pocket(c, k);
            }
        }
        counts
    }

    /// Sets both pockets of the current position (bughouse `holding`) and
    /// says whether they changed. A running search starts again on changed
    /// pockets, with the time it already used taken off its clock, without
    /// reporting the interrupted one; unchanged pockets (xboard repeats the
    /// holdings after every move) leave it running. On error nothing
    /// changes (a running search goes on).
    pub fn set_pockets(&mut self, counts: [[u8; 5]; 2]) -> Result<bool, PocketError> {
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
        if counts == self.pocket_counts() {
            return Ok(false);
        }
        let restart = self.interrupt();
        self.position = pos;
        if let Some(last) = self.history.last_mut() {
            *last = pos.key();
        }
        self.resume(restart);
        Ok(true)
    }

    /// Ends a running search without reporting it, to start it again
    /// ([`Engine::resume`]) on a changed position or bughouse state. A
    /// search that has already reported (its bestmove may be crossing this
    /// command) is over: restarting it would answer its `go` twice.
    fn interrupt(&mut self) -> Option<LastGo> {
        if self.abort() {
            self.last_go.take()
        } else {
            None
        }
    }

    /// Starts an interrupted search again with the time it already used
    /// taken off its clock.
    fn resume(&mut self, interrupted: Option<LastGo>) {
        if let Some(last) = interrupted {
            let side = self.position.side_to_move();
            let request = GoRequest {
                clock: last.request.clock.spent(side, last.started.elapsed()),
                ..last.request
            };
            self.launch(request, last.listener, false);
        }
    }

    /// A message from the bughouse partner; `go` after `sit` plays the move
    /// that was held back, and `sit` during a timed search starts it again
    /// as a sitting one (it holds its move too).
    pub fn hear(&mut self, msg: PartnerMessage) {
        let was_sitting = self.bughouse.partner.sit;
        if self.bughouse.hear(msg) && self.is_searching() {
            self.stop();
        } else if !was_sitting && self.bughouse.partner.sit && self.is_searching() {
            let timed = self.last_go.as_ref().is_some_and(|l| {
                !l.request.ponder && !l.request.limits.infinite && !l.request.analysis
            });
            if timed {
                let interrupted = self.interrupt();
                self.resume(interrupted);
            }
        }
    }

    /// Ends a running search without reporting its result. Returns true
    /// when that kept its result back (the search had not reported); false
    /// when no search ran or it had already reported (or was reporting)
    /// its result, which then stands.
    pub fn abort(&mut self) -> bool {
        self.running.take().is_some_and(SearchThread::abort)
    }

    /// The network searches of the current variant evaluate with, when
    /// `Use NNUE` is on: the one loaded by `EvalFile` if it serves the
    /// variant, otherwise the embedded one that does (if any).
    pub fn active_net(&self) -> Option<Arc<Network>> {
        let variant = self.rules.variant;
        if !self.use_nnue {
            return None;
        }
        match &self.net {
            Some(n) if n.serves(variant) => Some(n.clone()),
            _ => crate::eval::nnue::embedded_for(variant).map(|(_, n)| n),
        }
    }

    /// The endgame tables for the current variant: the loaded file's, or
    /// the built-in ones; none outside antichess and giveaway.
    fn active_endgames(&self) -> Option<Arc<crate::endgames::Tables>> {
        use crate::endgames;
        endgames::covers(&self.rules)
            .then(|| self.endgames.clone().unwrap_or_else(endgames::builtin))
    }

    /// Loads antichess endgame tables from a file (`AntichessTables`;
    /// `<builtin>` or an empty name: the built-in tables). On
    /// error the current tables stay. Returns what is in use.
    pub fn set_endgame_file(&mut self, name: &str) -> Result<String, TablesFileError> {
        let name = name.trim();
        let loaded = match name {
            "" | "<builtin>" | "<empty>" => None,
            path => Some(Arc::new(crate::endgames::load_file(path)?)),
        };
        self.stop();
        let pieces = loaded
            .as_ref()
            .map_or(crate::endgames::MAX_PIECES, |t| t.max_pieces());
        self.endgames = loaded;
        Ok(format!(
            "antichess endgame tables: every position of up to {pieces} pieces"
        ))
    }

    /// Loads the Syzygy tables of the folders in `paths` (`SyzygyPath`,
    /// separated by `:`, `;` on Windows; empty or `<empty>`: no tables).
    /// Never fails: folders without tables and files that are not usable
    /// tables are reported in the returned lines (`error: ...` for the
    /// latter), the last of which says what is in use.
    pub fn set_syzygy_path(&mut self, paths: &str) -> Vec<String> {
        let paths = paths.trim();
        self.stop();
        if paths.is_empty() || paths == "<empty>" {
            self.syzygy = None;
            return vec!["Syzygy: no tables (SyzygyPath is empty)".to_string()];
        }
        let loaded = Tablebases::load(paths);
        self.syzygy = loaded.tables.map(Arc::new);
        loaded.lines
    }

    /// The Syzygy tables loaded (`None`: none).
    pub fn syzygy(&self) -> Option<&Tablebases> {
        self.syzygy.as_deref()
    }

    /// Changes how searches probe the Syzygy tables (`SyzygyProbeDepth`,
    /// `SyzygyProbeLimit`, `Syzygy50MoveRule`) through `change`.
    pub fn set_syzygy_config(&mut self, change: impl FnOnce(&mut ProbeConfig)) {
        change(&mut self.syzygy_config);
    }

    /// Loads the network `name` (`EvalFile`): the embedded default by its
    /// name (or `<default>`), otherwise a file. On error the current network
    /// stays. Returns a description of the loaded network.
    pub fn set_eval_file(&mut self, name: &str) -> Result<String, NetworkFileError> {
        let name = name.trim();
        let embedded = crate::eval::nnue::embedded();
        let (loaded, description) = match embedded.iter().find(|(n, _)| *n == name) {
            Some((_, net)) => (None, net.description().to_string()),
            None if name == "<default>" => (None, "the embedded networks".to_string()),
            None => {
                let net = Arc::new(crate::eval::nnue::load_file(name)?);
                let d = net.description().to_string();
                (Some(net), d)
            }
        };
        self.stop();
        self.net = loaded;
        self.eval_file = name.to_string();
        Ok(format!("{name}: {description}"))
    }

    /// Resizes the hash table (waits for a running search first). When the
    /// memory cannot be had, a table of the old size stays (emptied if its
    /// memory had to be given back to try) and the error says so.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), HashResizeError> {
        self.stop();
        let mb = mb.max(1);
        let table = TranspositionTable::try_new(mb).or_else(|_| {
            // The old table's memory may be what is missing: give it back, try again.
            self.tt = Arc::new(TranspositionTable::new(1));
            TranspositionTable::try_new(mb)
        });
        match table {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                self.hash_mb = mb;
                Ok(())
            }
            Err(refused) => {
                if self.tt.size_mb() < self.hash_mb {
                    let old = TranspositionTable::try_new(self.hash_mb);
                    let (tt, kept) = match old {
                        Ok(tt) => (tt, self.hash_mb),
                        Err(_) => (TranspositionTable::new(1), 1),
                    };
                    self.tt = Arc::new(tt);
                    self.hash_mb = kept;
                }
                Err(HashResizeError {
                    refused,
                    kept_mb: self.hash_mb,
                })
            }
        }
    }

    /// Empties the hash table.
    pub fn clear_hash(&mut self) {
        self.stop();
        self.tt.clear();
    }

    /// The limits of a search for `request` and, on a bughouse board with a
    /// partner to talk to, the bughouse decision. `new_move` is false for a
    /// search restarted on changed pockets.
    fn prepare(
        &mut self,
        request: &GoRequest,
        new_move: bool,
    ) -> (Limits, SearchSetup, Option<Decision>) {
        let pos = self.position;
        let side = pos.side_to_move();
        let horizon = moves_horizon(pos.rules());
        let (mut soft, mut hard) = time_limits(&request.clock, side, self.move_overhead, horizon);
        let (mut limits, mut setup) = self.limits_and_setup(request.limits.clone());
        if pos.rules().two_boards {
            setup.bias = self.bughouse.bias(side);
        }
        let mut decision = None;
        if self.partner_talk && pos.rules().two_boards && !request.analysis {
            let (own, theirs) = (request.clock.of(side).0, request.clock.of(side.flip()).0);
            let planning = Instant::now();
            let d = self.bughouse.decide(&pos, own, theirs, new_move);
            // The planning searches used the clock too.
            let used = planning.elapsed();
            let one = Duration::from_millis(1);
            let cut = |t: Duration| t.saturating_sub(used).max(one) * d.time_percent / 100;
            soft = soft.map(cut);
            hard = hard.map(cut);
            if let (false, Some((_, budget))) = (limits.infinite, d.hold) {
                // Sitting: think on until the partner says go or the piece
                // arrives (a pocket change restarts the search), within a budget.
                limits.infinite = true;
                soft = None;
                hard = Some(budget);
            }
            decision = Some(d);
        }
        limits.soft_time = soft;
        limits.hard_time = hard;
        (limits, setup, decision)
    }

    /// What every search of the current position starts from: `limits`
    /// with the engine's MultiPV, the network, endgame and Syzygy tables in
    /// use, and the strength level applied.
    fn limits_and_setup(&mut self, limits: Limits) -> (Limits, SearchSetup) {
        let mut limits = Limits {
            multipv: limits.multipv.max(self.multipv),
            ..limits
        };
        let mut setup = SearchSetup {
            net: self.active_net(),
            endgames: self.active_endgames(),
            syzygy: self.syzygy.clone(),
            syzygy_config: self.syzygy_config,
            ..SearchSetup::default()
        };
        self.weaken(&mut limits, &mut setup);
        (limits, setup)
    }

    /// Applies the strength level to a search's limits: its node budget,
    /// depth cap and move choice (nothing at full strength).
    fn weaken(&mut self, limits: &mut Limits, setup: &mut SearchSetup) {
        if let Some(level) = self.strength.level() {
            limits.nodes = Some(limits.nodes.map_or(level.nodes, |n| n.min(level.nodes)));
            limits.depth = Some(limits.depth.map_or(level.depth, |d| d.min(level.depth)));
            setup.weakening = Weakening::of(&level, self.rng.next_u64());
        }
    }

    /// Starts a search in the background for `request`; `listener` receives
    /// its output. The result comes after `stop` when the search is
    /// infinite or pondering.
    pub fn go(&mut self, request: GoRequest, listener: Arc<dyn Listener>) {
        self.stop();
        self.launch(request, listener, true);
    }

    fn launch(&mut self, request: GoRequest, listener: Arc<dyn Listener>, new_move: bool) {
        let (limits, setup, decision) = self.prepare(&request, new_move);
        if let Some(d) = &decision {
            for &msg in &d.requests {
                listener.tell_partner(msg);
            }
            if let (false, Some((reason, budget))) = (request.limits.infinite, d.hold) {
                listener.sitting(reason, budget);
            }
        }
        // A timed bughouse search that finds a forced mate tells the
        // partner to sit (and `go` once a later one finds none).
        let timed = decision.is_some() && !request.ponder && !request.limits.infinite;
        let freeze_sit = self.bughouse.freeze_sit().filter(|_| timed);
        let shared = Arc::new(Shared::with_histories(
            self.tt.clone(),
            self.histories.clone(),
        ));
        shared.pondering.store(request.ponder, Ordering::Relaxed);
        let root = self.position;
        let history = self.history.clone();
        let threads = self.threads;
        // Antichess/giveaway: `go mate` runs the proof-number solver, and
        // timed play tries it first with few pieces (search::pns::plan).
        let plan = pns::plan(&root, &limits, request.ponder, self.hash_mb);
        let s = shared.clone();
        let answer = Arc::new(Answer::default());
        let claim = answer.clone();
        let out = listener.clone();
        let handle = std::thread::spawn(move || {
            let report = ToListener(out.as_ref());
            let search = || {
                search::search(
                    &root,
                    &history,
                    &limits,
                    &setup,
                    threads,
                    s.clone(),
                    &report,
                )
            };
            let result = match plan {
                SolverPlan::Search => search(),
                SolverPlan::Mate(budget) => {
                    let proof = pns::prove(&root, &history, &budget, Some(&s.stop));
                    if let Some(info) = proof.info() {
                        out.info(&info);
                    }
                    out.message(&proof.summary());
                    proof.search_result()
                }
                SolverPlan::First(budget) => {
                    let proof = pns::prove(&root, &history, &budget, Some(&s.stop));
                    if proof.verdict == Verdict::Win && !proof.best.is_null() {
                        if let Some(info) = proof.info() {
                            out.info(&info);
                        }
                        out.message(&proof.summary());
                        proof.search_result()
                    } else {
                        search()
                    }
                }
            };
            // UCI: with `infinite` or while pondering, bestmove waits for
            // stop/ponderhit, also when the search finished on its own (at
            // its depth limit). A sitting search (infinite with a hard
            // limit) waits no longer than its limit.
            let waited_out = || {
                limits.hard_time.is_some_and(|h| s.elapsed() >= h)
                    && !s.pondering.load(Ordering::Relaxed)
            };
            while !s.halt.load(Ordering::Relaxed)
                && (limits.infinite || s.pondering.load(Ordering::Relaxed))
                && !(limits.infinite && waited_out())
            {
                std::thread::park_timeout(Duration::from_millis(1));
            }
            if claim.claim() {
                if let Some(msg) = freeze_sit.and_then(|m| m.after_search(result.score)) {
                    out.tell_partner(msg);
                }
                out.best_move(&result);
            }
        });
        self.running = Some(SearchThread {
            shared,
            answer,
            handle,
        });
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
            &self.position,
            &self.history,
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
