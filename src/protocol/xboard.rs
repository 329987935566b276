//! xboard/CECP version 2, with the bughouse commands that xboard's zippy
//! mode uses on FICS: `holding`, `partner`, `ptell`, answered with
//! `tellics ptell ...`, and analysis mode (`analyze`, `.`, `exit`).
//! Chosen when the first command is `xboard`.
//!
//! Every input line is untrusted: bad input gets `Error (...): ...` or
//! `Illegal move: ...` and changes nothing.

use super::io::{send, Event};
use super::options::{self, MAX_HASH_MB, MAX_THREADS};
use super::parse;
use super::uci::NAME;
use crate::bughouse::partner::{PartnerMessage, HELP};
use crate::bughouse::pockets::{reconcile, PocketCounts, PocketSync};
use crate::engine::{Clock, Engine, GoRequest, Listener, SitReason};
use crate::position::outcome::{is_repetition, EndReason, Outcome};
use crate::position::Position;
use crate::rules::Variant;
use crate::search::{Info, Limits, Score, SearchResult};
use crate::types::{Color, PieceType};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The CECP variant names Rukav accepts, and ours.
pub fn variant_from_cecp(name: &str) -> Option<Variant> {
    match name {
        "normal" => Some(Variant::Chess),
        "crazyhouse" => Some(Variant::Crazyhouse),
        "bughouse" => Some(Variant::Bughouse),
        "antichess" => Some(Variant::Antichess),
        "suicide" => Some(Variant::Suicide),
        "giveaway" => Some(Variant::Giveaway),
        "kingschess" => Some(Variant::KingsChess),
        _ => None,
    }
}

/// The result line xboard expects when a game is over (`1-0 {White mates}`).
pub fn result_line(o: &Outcome) -> String {
    let name = |c: Color| if c.is_white() { "White" } else { "Black" };
    let reason = match *o {
        Outcome::Win { winner, reason } => match reason {
            EndReason::Checkmate => format!("{} mates", name(winner)),
            EndReason::Stalemate => format!("{} is stalemated and wins", name(winner)),
            EndReason::FewerPieces => format!("{} has fewer pieces", name(winner)),
            EndReason::NoPieces => format!("{} has no pieces left and wins", name(winner)),
            EndReason::KingDutyMissed => {
                format!("{} missed the king-move duty", name(winner.flip()))
            }
            other => format!("{} wins ({other:?})", name(winner)),
        },
        Outcome::Draw { reason } => match reason {
            EndReason::Stalemate => "Stalemate".to_string(),
            EndReason::FiftyMoves => "Draw by the 50-move rule".to_string(),
            EndReason::Repetition => "Draw by repetition".to_string(),
            EndReason::InsufficientMaterial => "Draw by insufficient material".to_string(),
            other => format!("Draw ({other:?})"),
        },
    };
    format!("{} {{{reason}}}", o.result())
}

/// Formats a thinking line (`post`): depth, score (mate as 100000 + n),
/// time in centiseconds, nodes, PV.
fn thinking_line(info: &Info) -> String {
    let score = match info.score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 100_000 + m,
        Score::Mate(m) => -100_000 + m,
    };
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "{} {} {} {} {}",
        info.depth,
        score,
        info.time.as_millis() / 10,
        info.nodes,
        pv.join(" ")
    )
}

/// How an xboard search's output is written: thinking lines when `post`
/// is on, the result back to the main loop (which plays the move).
struct XboardOutput {
    post: bool,
    done: Mutex<Sender<Event>>,
    generation: u64,
}

impl Listener for XboardOutput {
    fn info(&self, info: &Info) {
        if self.post {
            send(&thinking_line(info));
        }
    }
    fn best_move(&self, result: &SearchResult) {
        if let Ok(tx) = self.done.lock() {
            let _ = tx.send(Event::SearchDone(result.clone(), self.generation));
        }
    }
    fn tell_partner(&self, msg: PartnerMessage) {
        send(&format!("tellics ptell {msg}"));
    }
    fn sitting(&self, reason: SitReason, budget: Duration) {
        // Lines starting with '#' are comments for xboard (shown in its debug log).
        send(&format!(
            "# sitting {reason} at most {} ms",
            budget.as_millis()
        ));
    }
}

/// The xboard session.
pub struct Xboard {
    engine: Engine,
    tx: Sender<Event>,
    force: bool,
    engine_color: Color,
    post: bool,
    /// Our clock and the opponent's, in ms.
    time: Option<u64>,
    otim: Option<u64>,
    /// `level` or `st`, whichever came last: they cancel each other.
    control: TimeControl,
    /// `sd`: a depth limit beside either time control.
    sd: Option<i32>,
    partner: Option<String>,
    /// Search generation: results of aborted searches are ignored.
    generation: u64,
    searching: bool,
    /// Analysis mode (`analyze` .. `exit`): an infinite search of the
    /// current position, restarted whenever the position changes.
    analyzing: bool,
    /// A partner tell we did not understand has been answered in this game:
    /// later ones are not, so that two bots that answer what they do not
    /// understand (Sjeng says "Sorry, but I don't understand that
    /// command.") do not talk to each other for ever.
    answered_unknown_tell: bool,
    /// After `setboard` (and `undo` on a bughouse board) the pockets are
    /// whatever the next `holding` says (the engine's own account starts
    /// there).
    pockets_unknown: bool,
}

/// CECP's time controls. `level` and `st` "are not used together" (the
/// specification): each replaces the other; `sd` limits the depth beside
/// either; `time` and `otim` set the clocks, which only `level` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TimeControl {
    /// `level MPS BASE INC`: MPS moves per session (0: the whole game),
    /// INC the increment in ms (BASE sets the clocks until `time`/`otim`).
    Clock {
        /// Moves per session; 0 for the whole game.
        mps: u64,
        /// Increment per move, ms.
        inc: u64,
    },
    /// `st TIME`: exactly this many ms a move; the clocks are not used.
    PerMove(u64),
}

/// Pockets as `[WHITE] [BLACK]` (for `#` lines).
fn pocket_text(counts: PocketCounts) -> String {
    let side = |c: usize| -> String {
        PieceType::POCKET
            .iter()
            .flat_map(|k| std::iter::repeat_n(k.char(), usize::from(counts[c][k.index()])))
            .collect::<String>()
            .to_ascii_uppercase()
    };
    format!("[{}] [{}]", side(0), side(1))
}

/// `Error (kind): text`; `text` is a refused argument or a refusal.
fn error(kind: &str, text: impl std::fmt::Display) {
    send(&format!("Error ({kind}): {text}"));
}

impl Xboard {
    fn new(tx: Sender<Event>) -> Xboard {
        let mut engine = Engine::new();
        engine.set_partner_talk(true);
        Xboard {
            engine,
            tx,
            force: false,
            engine_color: Color::Black,
            post: false,
            time: None,
            otim: None,
            control: TimeControl::Clock { mps: 0, inc: 0 },
            sd: None,
            partner: None,
            generation: 0,
            searching: false,
            analyzing: false,
            answered_unknown_tell: false,
            pockets_unknown: false,
        }
    }

    fn features() {
        send(&format!(
            "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=1 \
             colors=0 san=0 memory=1 smp=1 pause=0 nps=0 debug=1 egt=\"syzygy\" \
             variants=\"normal,crazyhouse,bughouse,suicide,antichess,giveaway,kingschess\" myname=\"{NAME}\""
        ));
        for o in options::table() {
            if !matches!(
                o.name,
                "Hash"
                    | "Threads"
                    | "UCI_Variant"
                    | "UCI_Chess960"
                    | "UCI_Bughouse"
                    | "UCI_ShowWDL"
                    | "Ponder"
            ) {
                send(&options::cecp_feature(&o));
            }
        }
        send("feature done=1");
    }

    fn abort_search(&mut self) {
        if self.searching {
            self.generation += 1;
            self.engine.abort();
            self.searching = false;
        }
    }

    /// The game's result when it is over by the rules (mate, stalemate, no
    /// pieces, duty, 50 moves, repetition, material). On a bughouse board
    /// only a mate that no dropped piece could block ends the game here (a
    /// blockable check waits for a piece; the rest is the server's word).
    fn game_over(&self) -> Option<Outcome> {
        let pos = self.engine.position();
        if pos.rules().two_boards {
            return pos.outcome();
        }
        pos.outcome().or_else(|| {
            let keys = self.engine.history();
            is_repetition(keys, pos.halfmove_clock() as usize, 3).then_some(Outcome::Draw {
                reason: EndReason::Repetition,
            })
        })
    }

    /// Starts thinking when it is the engine's turn; states the result
    /// instead when the game is over.
    fn maybe_think(&mut self) {
        let pos = *self.engine.position();
        if self.force || self.searching || pos.side_to_move() != self.engine_color {
            return;
        }
        if let Some(o) = self.game_over() {
            send(&result_line(&o));
            return;
        }
        if !pos.has_legal_move() {
            // A bughouse board in a check that a dropped piece could block:
            // the move comes when `holding` brings one (a comment line, so
            // that the server's log shows why nothing came yet).
            send("# no legal move: waiting for a piece to block the check");
            return;
        }
        let request = GoRequest {
            clock: self.go_clock(),
            limits: Limits {
                depth: self.sd,
                multipv: 1,
                ..Limits::default()
            },
            ponder: false,
            analysis: false,
        };
        let output = XboardOutput {
            post: self.post,
            done: Mutex::new(self.tx.clone()),
            generation: self.generation,
        };
        self.searching = true;
        self.engine.go(request, Arc::new(output));
    }

    /// The clock of the engine's next search, from the time control in
    /// force and `time`/`otim` (the engine's clock is `time`, whichever
    /// colour it plays).
    fn go_clock(&self) -> Clock {
        let (own, theirs) = (self.time, self.otim);
        let (wtime, btime) = match self.engine_color {
            Color::White => (own, theirs),
            Color::Black => (theirs, own),
        };
        let (mps, inc, movetime) = match self.control {
            TimeControl::Clock { mps, inc } => (mps, inc, None),
            TimeControl::PerMove(ms) => (0, 0, Some(ms)),
        };
        let movestogo = (mps > 0).then(|| {
            let played = (self.engine.moves().len() as u64).div_ceil(2);
            mps - played % mps
        });
        Clock {
            wtime,
            btime,
            winc: inc,
            binc: inc,
            movestogo,
            movetime,
        }
    }

    /// Analysis mode: (re)starts the infinite search of the current
    /// position, thinking lines always on. Nothing outside analysis mode.
    fn analyse(&mut self) {
        if !self.analyzing {
            return;
        }
        self.abort_search();
        let request = GoRequest {
            limits: Limits {
                infinite: true,
                multipv: 1,
                ..Limits::default()
            },
            analysis: true,
            ..GoRequest::default()
        };
        let output = XboardOutput {
            post: true,
            done: Mutex::new(self.tx.clone()),
            generation: self.generation,
        };
        self.searching = true;
        self.engine.go(request, Arc::new(output));
    }

    /// `.` in analysis mode: the status line
    /// `stat01: <time cs> <nodes> <depth> <moves left> <moves in all> <move>`.
    fn status(&self) {
        if !self.analyzing {
            return;
        }
        let line = match self.engine.progress() {
            Some((time, nodes, Some(p))) => format!(
                "stat01: {} {} {} {} {} {}",
                time.as_millis() / 10,
                nodes,
                p.depth,
                p.total.saturating_sub(p.number),
                p.total,
                p.current
            ),
            Some((time, nodes, None)) => {
                format!("stat01: {} {} 0 0 0", time.as_millis() / 10, nodes)
            }
            None => "stat01: 0 0 0 0 0".to_string(),
        };
        send(&line);
    }

    fn finished(&mut self, r: SearchResult, generation: u64) {
        if generation != self.generation {
            return;
        }
        self.searching = false;
        // Join the search thread before touching the position.
        self.engine.wait();
        if self.analyzing {
            // An analysis ends only with `exit` (a partner's `go` stops it).
            self.analyse();
            return;
        }
        if r.best.is_null() {
            return;
        }
        let text = self.engine.position().uci_move(r.best);
        self.engine.play(r.best);
        // No result claim after the engine's own move, as Fairy-Stockfish:
        // the GUI or referee judges the move it has just received, and a
        // referee that stops reading after a mating move (fairyfishtest)
        // finds the claim in the pipe as the answer to its next game's
        // first `go` ("Illegal move: None"). The result is stated when the
        // engine is asked to move in a finished game (`maybe_think`).
        send(&format!("move {text}"));
    }

    fn usermove(&mut self, text: &str) {
        self.abort_search();
        let pos = *self.engine.position();
        let m = match pos.parse_uci_move(text) {
            Ok(m) => m,
            Err(_) => match self.drop_of_a_piece_on_its_way(text) {
                Some(m) => m,
                None => return send(&format!("Illegal move: {text}")),
            },
        };
        self.engine.play(m);
        self.maybe_think();
        self.analyse();
    }

    /// On a bughouse board the server has judged the opponent's drop
    /// already: a drop of a piece the engine's account has not got yet (a
    /// `holding` still on its way, or one that raced the move) is legal
    /// with that piece added. Then the piece is added, a `#` line says so,
    /// and the drop is returned; `None` for anything else.
    fn drop_of_a_piece_on_its_way(&mut self, text: &str) -> Option<crate::types::Move> {
        let pos = *self.engine.position();
        if !pos.rules().two_boards {
            return None;
        }
        let (letter, _) = text.trim().split_once('@')?;
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return None;
        };
        let kind = PieceType::from_char(c).filter(|&k| k != PieceType::King)?;
        let mover = pos.side_to_move();
        let mut with_piece = pos;
        with_piece.add_to_pocket(mover, kind).ok()?;
        let m = with_piece.parse_uci_move(text).ok()?;
        let mut pockets = self.engine.pocket_counts();
        pockets[mover.index()][kind.index()] += 1;
        self.engine.set_pockets(pockets).ok()?;
        send(&format!(
            "# usermove {text}: {mover:?} drops a {kind:?} its pocket did not hold here yet; \
             taken as on its way"
        ));
        Some(m)
    }

    /// `egtpath syzygy PATH` (we announce `egt="syzygy"`): the Syzygy tables
    /// of PATH, as the option `SyzygyPath`; what was found is told as `#`
    /// comment lines. Other kinds of tables are ignored.
    fn egtpath(&mut self, arg: &str) {
        if let Some(path) = arg.strip_prefix("syzygy ") {
            self.abort_search();
            for line in self.engine.set_syzygy_path(path) {
                send(&format!("# {line}"));
            }
            self.analyse();
        }
    }

    /// `memory` and `cores`: the table's option, the value brought within its bounds.
    fn set_clamped(&mut self, option: &str, text: Option<&str>, max: i64) {
        match text.and_then(|t| t.parse::<i128>().ok()) {
            Some(v) => {
                self.abort_search();
                let v = v.clamp(1, i128::from(max));
                if let Err(e) = options::set(&mut self.engine, option, &v.to_string()) {
                    error(option, e);
                }
                self.analyse();
            }
            None => error(option, "needs a number"),
        }
    }

    /// Handles one line; returns false on `quit`. Each command (or group
    /// of commands) has a method of its own.
    fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        let arg = rest.join(" ");
        match cmd {
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "draw" | "hint" | "bk" | "book" | "easy" | "hard" | "nps" | "ponder" => {}
            "egtpath" => self.egtpath(&arg),
            "cores" => self.set_clamped("Threads", rest.first().copied(), MAX_THREADS),
            "memory" => self.set_clamped("Hash", rest.first().copied(), MAX_HASH_MB),
            "option" => self.option(&arg),
            "protover" => Self::features(),
            "new" => self.new_game(),
            "variant" => self.variant(&arg),
            "analyze" => self.start_analysis(),
            "exit" => self.leave_analysis(),
            "." => self.status(),
            "force" => self.enter_force_mode(),
            "go" => self.go(),
            "playother" => self.playother(),
            "white" | "black" => self.set_colour(cmd),
            "?" => self.move_now(),
            "usermove" => self.usermove(&arg),
            "setboard" => self.setboard(&arg),
            "holding" => self.holding(&arg),
            "time" | "otim" => self.clock(cmd, rest.first().copied(), &arg),
            "level" => self.level(&rest, &arg),
            "st" => self.set_st(&arg),
            "sd" => self.set_sd(&arg),
            "ping" => send(&format!("pong {arg}")),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "result" => self.game_result(),
            "partner" => self.set_partner(&arg),
            "ptell" => self.ptell(&arg),
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "quit" => {
                self.abort_search();
                return false;
            }
            _ => self.bare_move_or_unknown(cmd, &rest),
        }
        true
    }

    /// `option NAME=VALUE`.
    fn option(&mut self, arg: &str) {
        match arg.split_once('=') {
            Some((name, value)) => {
                self.abort_search();
                if let Err(e) = options::set(&mut self.engine, name, value) {
                    error("option", &e);
                }
                self.analyse();
            }
            None => error("option", "needs NAME=VALUE"),
        }
    }

    /// `new`: chess from the start, the engine Black, no depth or time limit.
    fn new_game(&mut self) {
        self.abort_search();
        self.engine.set_variant(Variant::Chess);
        self.engine.new_game();
        // In analysis mode: the start position is analysed.
        self.force = self.analyzing;
        self.engine_color = Color::Black;
        // The specification: `new` removes the `sd` limit and starts the
        // clocks of a new game; the time control itself stays.
        self.sd = None;
        self.answered_unknown_tell = false;
        self.pockets_unknown = false;
        self.analyse();
    }

    /// `variant NAME`: a new game of that variant.
    fn variant(&mut self, arg: &str) {
        match variant_from_cecp(arg) {
            Some(v) => {
                self.abort_search();
                self.engine.set_variant(v);
                self.engine.new_game();
                self.answered_unknown_tell = false;
                self.pockets_unknown = false;
                self.analyse();
            }
            None => error("unsupported variant", arg),
        }
    }

    /// `analyze`: analysis mode, which goes on until `exit`.
    fn start_analysis(&mut self) {
        self.analyzing = true;
        self.force = true;
        self.analyse();
    }

    /// `force`: the engine plays neither side.
    fn enter_force_mode(&mut self) {
        // An analysis goes on until `exit`.
        if !self.analyzing {
            self.abort_search();
        }
        self.force = true;
    }

    /// Leaves analysis mode (`exit`, and before `go` and `playother`).
    fn leave_analysis(&mut self) {
        if self.analyzing {
            self.abort_search();
            self.analyzing = false;
        }
    }

    /// `go`: the engine plays the side to move, and thinks.
    fn go(&mut self) {
        self.leave_analysis();
        self.force = false;
        self.engine_color = self.engine.position().side_to_move();
        self.maybe_think();
    }

    /// `playother`: the engine plays the side not to move.
    fn playother(&mut self) {
        self.leave_analysis();
        self.force = false;
        self.engine_color = self.engine.position().side_to_move().flip();
    }

    /// `white` / `black` (protocol 1): the side to move; the engine plays the other.
    fn set_colour(&mut self, cmd: &str) {
        self.engine_color = if cmd == "white" {
            Color::Black
        } else {
            Color::White
        };
    }

    /// `?`: play now.
    fn move_now(&mut self) {
        if self.searching && !self.analyzing {
            self.engine.stop();
        }
    }

    /// `setboard FEN`.
    fn setboard(&mut self, arg: &str) {
        self.abort_search();
        match Position::from_fen(arg, self.engine.rules()) {
            Ok(p) => {
                self.engine.set_position(p, Vec::new());
                self.pockets_unknown = p.rules().drops;
            }
            Err(e) => error("bad FEN", format!("{arg}: {e}")),
        }
        self.analyse();
    }

    /// `holding [WHITE] [BLACK]`, optionally followed by the piece that
    /// just arrived (`BR`). The engine keeps its own account of the
    /// pockets: an arrival adds its piece, and brackets that a drop still
    /// on its way explains leave the account alone (`bughouse::pockets`;
    /// a `#` line says so); other differences, and the first line after a
    /// `setboard`, replace it. Changed pockets restart a search under way
    /// (in analysis mode as a fresh analysis); the unchanged ones that
    /// xboard repeats after every move leave it alone.
    fn holding(&mut self, arg: &str) {
        let line = match parse::cecp_holding(arg) {
            Ok(line) => line,
            Err(e) => return error("holding", &e),
        };
        let ours = self.engine.pocket_counts();
        let pockets = if std::mem::take(&mut self.pockets_unknown) {
            line.counts
        } else {
            let to_move = self.engine.position().side_to_move();
            let engine = (!self.force && !self.analyzing).then_some(self.engine_color);
            let sync = reconcile(ours, line.arrival, line.counts, to_move, engine);
            match sync {
                PocketSync::Agreed(_) => {}
                PocketSync::InFlight { drop_of, .. } => send(&format!(
                    "# holding {arg}: {drop_of:?}'s drop on its way explains the difference; \
                     kept {}",
                    pocket_text(sync.pockets())
                )),
                PocketSync::Resync(_) => send(&format!(
                    "# holding {arg}: differs from {}; taken as the pockets",
                    pocket_text(ours)
                )),
            }
            sync.pockets()
        };
        if pockets == ours {
            return;
        }
        if self.analyzing {
            self.abort_search();
        }
        if let Err(e) = self.engine.set_pockets(pockets) {
            error("holding", e);
        }
        if self.analyzing {
            self.analyse();
        } else {
            // A piece may have arrived that an engine without a legal
            // move was waiting for (a running search has already
            // restarted on the new pockets).
            self.maybe_think();
        }
    }

    /// `time CS` / `otim CS`: the engine's and the opponent's clocks in centiseconds.
    fn clock(&mut self, cmd: &str, value: Option<&str>, arg: &str) {
        match value.and_then(|t| t.parse::<i128>().ok()) {
            Some(cs) => {
                let ms = cs.clamp(0, i128::from(u64::MAX / 10)) as u64 * 10;
                if cmd == "time" {
                    self.time = Some(ms);
                } else {
                    self.otim = Some(ms);
                }
            }
            None => error("bad time", arg),
        }
    }

    /// `st SECONDS`: exactly this long a move; replaces `level`.
    fn set_st(&mut self, arg: &str) {
        match arg.parse::<f64>() {
            Ok(s) if s > 0.0 && s.is_finite() => {
                self.control = TimeControl::PerMove((s.min(1e9) * 1000.0) as u64);
            }
            _ => error("bad st", arg),
        }
    }

    /// `sd DEPTH`: a depth limit.
    fn set_sd(&mut self, arg: &str) {
        match arg.parse::<i32>() {
            Ok(d) if d > 0 => self.sd = Some(d),
            _ => error("bad sd", arg),
        }
    }

    /// `result ...`: the game is over; the engine waits in force mode.
    fn game_result(&mut self) {
        if !self.analyzing {
            self.abort_search();
        }
        self.force = true;
    }

    /// `partner [NAME]`: a new bughouse partner (or none).
    fn set_partner(&mut self, arg: &str) {
        self.partner = (!arg.is_empty()).then(|| arg.to_string());
        self.engine.new_partnership();
        self.answered_unknown_tell = false;
    }

    /// `ptell TEXT`: a message from the partner. A tell not understood is
    /// answered once a game; later ones only as a comment.
    fn ptell(&mut self, arg: &str) {
        match arg.parse::<PartnerMessage>() {
            Ok(PartnerMessage::Help) => send(&format!("tellics ptell {HELP}")),
            Ok(msg) => self.engine.hear(msg),
            Err(_) if !self.answered_unknown_tell => {
                self.answered_unknown_tell = true;
                send(&format!(
                    "tellics ptell Sorry, I do not understand '{}'. 'ptell help' lists what I do.",
                    arg.chars()
                        .filter(|c| !c.is_control())
                        .take(60)
                        .collect::<String>()
                ));
            }
            Err(e) => send(&format!("# {e}")),
        }
    }

    /// `undo` (one ply) / `remove` (two).
    fn take_back(&mut self, plies: usize) {
        self.abort_search();
        self.engine.undo(plies);
        // The game is replayed from its start: pockets that came from
        // outside are whatever the next `holding` says.
        self.pockets_unknown = self.engine.position().rules().two_boards;
        self.analyse();
    }

    /// xboard sends moves without `usermove` when the feature is off: a
    /// bare move is played; anything else is an unknown command.
    fn bare_move_or_unknown(&mut self, cmd: &str, rest: &[&str]) {
        let pos = *self.engine.position();
        if pos.parse_uci_move(cmd).is_ok() && rest.is_empty() {
            self.usermove(cmd);
        } else {
            error("unknown command", cmd);
        }
    }

    /// `level MPS BASE INC`, BASE as minutes or min:sec: a clock time
    /// control, which replaces `st`. Both clocks start at BASE (the
    /// `time` and `otim` that GUIs send before a move replace it).
    fn level(&mut self, rest: &[&str], arg: &str) {
        if rest.len() != 3 {
            return error("level needs MPS BASE INC", arg);
        }
        match (
            rest[0].parse::<u64>(),
            level_base_ms(rest[1]),
            rest[2].parse::<f64>(),
        ) {
            (Ok(mps), Some(base), Ok(inc)) if inc >= 0.0 && inc.is_finite() => {
                self.control = TimeControl::Clock {
                    mps,
                    inc: (inc.min(1e9) * 1000.0) as u64,
                };
                self.time = Some(base);
                self.otim = Some(base);
            }
            _ => error("bad level", arg),
        }
    }
}

/// `level`'s BASE in ms: minutes (`5`, `0.5`) or minutes and seconds
/// (`0:30`, `2:05`); `None` for anything else.
fn level_base_ms(text: &str) -> Option<u64> {
    let (minutes, seconds) = match text.split_once(':') {
        Some((m, s)) => (m.parse::<f64>().ok()?, s.parse::<f64>().ok()?),
        None => (text.parse::<f64>().ok()?, 0.0),
    };
    let ms = (minutes * 60.0 + seconds) * 1000.0;
    (ms.is_finite() && ms >= 0.0 && minutes >= 0.0 && seconds >= 0.0).then(|| ms.min(1e15) as u64)
}

/// Runs the xboard loop (the `xboard` line has been read).
pub fn run(tx: Sender<Event>, input: Receiver<Event>) {
    let mut x = Xboard::new(tx);
    while let Ok(ev) = input.recv() {
        match ev {
            Event::Line(l) => {
                if !x.handle(&l) {
                    break;
                }
            }
            Event::SearchDone(r, g) => x.finished(r, g),
            Event::Eof => break,
        }
    }
    x.abort_search();
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// An xboard session whose results go nowhere.
    fn session() -> Xboard {
        let (tx, _rx) = std::sync::mpsc::channel();
        Xboard::new(tx)
    }

    fn after(lines: &[&str]) -> Xboard {
        let mut x = session();
        for l in lines {
            x.handle(l);
        }
        x
    }

    /// lichess-bot over xboard (python-chess) sends `st` for the first
    /// move, then `level` and the clocks: the engine thought 2 s a move at
    /// 10+0.1 and its clock went to -168 s. `level` ends `st`.
    #[test]
    fn level_after_st_plays_by_the_clock() {
        let x = after(&["st 2", "level 0 0:08 0.1", "time 800", "otim 750"]);
        let c = x.go_clock();
        assert_eq!(c.movetime, None);
        // The engine plays Black after `new`-less start: `time` is Black's.
        assert_eq!((c.btime, c.wtime, c.binc), (Some(8000), Some(7500), 100));
    }

    #[test]
    fn st_after_level_is_exact_time_per_move() {
        let x = after(&["level 40 5 0", "time 30000", "st 2.5"]);
        let c = x.go_clock();
        assert_eq!(c.movetime, Some(2500));
        assert_eq!((c.winc, c.binc, c.movestogo), (0, 0, None));
    }

    /// `sd` is orthogonal: it stays beside either control, and neither
    /// control clears it; `new` does.
    #[test]
    fn sd_stays_beside_level_and_st_until_new() {
        let mut x = after(&["sd 7", "st 1", "level 0 1 0"]);
        assert_eq!(x.sd, Some(7));
        assert_eq!(x.go_clock().movetime, None);
        x.handle("st 3");
        assert_eq!(x.sd, Some(7));
        x.handle("new");
        assert_eq!(x.sd, None);
        // `new` keeps the time control (the specification resets clocks,
        // not the control).
        assert_eq!(x.go_clock().movetime, Some(3000));
    }

    /// `level` sets both clocks to BASE; `time`/`otim` replace them and
    /// do not change the control; `mps` counts moves to the next session.
    #[test]
    fn time_and_otim_set_the_clocks_only() {
        let mut x = after(&["level 40 0:30 0"]);
        let c = x.go_clock();
        assert_eq!(
            (c.wtime, c.btime, c.movestogo),
            (Some(30_000), Some(30_000), Some(40))
        );
        x.handle("time 1234");
        x.handle("otim 99999999999999999999");
        let c = x.go_clock();
        assert_eq!(c.btime, Some(12_340));
        assert!(c.wtime.is_some_and(|t| t > 30_000));
        assert_eq!(c.movestogo, Some(40));
        x.handle("st 1");
        x.handle("time 500");
        assert_eq!(x.go_clock().movetime, Some(1000));
    }

    #[test]
    fn bad_time_controls_change_nothing() {
        let mut x = after(&["level 0 2 1"]);
        let before = x.go_clock();
        for bad in [
            "level 0 x 1",
            "level 0 -2 1",
            "level 0 2:xx 1",
            "level 0 2 -1",
            "level 0 2",
            "st 0",
            "st -1",
            "st nan",
            "st inf",
        ] {
            x.handle(bad);
            assert_eq!(x.go_clock(), before, "{bad}");
        }
    }

    #[test]
    fn level_base_reads_minutes_and_seconds() {
        assert_eq!(level_base_ms("5"), Some(300_000));
        assert_eq!(level_base_ms("0:30"), Some(30_000));
        assert_eq!(level_base_ms("2:05"), Some(125_000));
        assert_eq!(level_base_ms("0.5"), Some(30_000));
        assert_eq!(level_base_ms("-1"), None);
        assert_eq!(level_base_ms("1:-5"), None);
        assert_eq!(level_base_ms(""), None);
    }
}
