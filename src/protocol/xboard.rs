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
use crate::engine::{Clock, Engine, GoRequest, Listener, SitReason};
use crate::position::outcome::{is_repetition, EndReason, Outcome};
use crate::position::Position;
use crate::rules::Variant;
use crate::search::{Info, Limits, Score, SearchResult};
use crate::types::Color;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The CECP variant names Rukav accepts, and ours.
pub fn variant_from_cecp(name: &str) -> Option<Variant> {
    match name {
        "normal" => Some(Variant::Chess),
        "crazyhouse" => Some(Variant::Crazyhouse),
        "bughouse" => Some(Variant::Bughouse),
        "suicide" | "antichess" => Some(Variant::Antichess),
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
    /// `level MPS BASE INC`: moves per session (0: all), increment ms.
    mps: u64,
    inc: u64,
    st: Option<u64>,
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
            mps: 0,
            inc: 0,
            st: None,
            sd: None,
            partner: None,
            generation: 0,
            searching: false,
            analyzing: false,
            answered_unknown_tell: false,
        }
    }

    fn features() {
        send(&format!(
            "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=1 \
             colors=0 san=0 memory=1 smp=1 pause=0 nps=0 debug=1 egt=\"syzygy\" \
             variants=\"normal,crazyhouse,bughouse,suicide,giveaway,kingschess\" myname=\"{NAME}\""
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
        let (own, theirs) = (self.time, self.otim);
        let (wtime, btime) = match self.engine_color {
            Color::White => (own, theirs),
            Color::Black => (theirs, own),
        };
        let movestogo = (self.mps > 0).then(|| {
            let played = (self.engine.moves().len() as u64).div_ceil(2);
            self.mps - played % self.mps
        });
        let request = GoRequest {
            clock: Clock {
                wtime,
                btime,
                winc: self.inc,
                binc: self.inc,
                movestogo,
                movetime: self.st,
            },
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
        send(&format!("move {text}"));
        if let Some(o) = self.game_over() {
            send(&result_line(&o));
        }
    }

    fn usermove(&mut self, text: &str) {
        self.abort_search();
        let pos = *self.engine.position();
        match pos.parse_uci_move(text) {
            Ok(m) => {
                self.engine.play(m);
                self.maybe_think();
                self.analyse();
            }
            Err(_) => send(&format!("Illegal move: {text}")),
        }
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
        self.sd = None;
        self.st = None;
        self.answered_unknown_tell = false;
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
            Ok(p) => self.engine.set_position(p, Vec::new()),
            Err(e) => error("bad FEN", format!("{arg}: {e}")),
        }
        self.analyse();
    }

    /// `holding [WHITE] [BLACK]`, optionally followed by the piece that
    /// just arrived (`BR`). Changed pockets restart a search under way (in
    /// analysis mode as a fresh analysis); the unchanged ones that xboard
    /// repeats after every move leave it alone.
    fn holding(&mut self, arg: &str) {
        match parse::holding(arg) {
            Ok(counts) if counts == self.engine.pocket_counts() => {}
            Ok(counts) if self.analyzing => {
                self.abort_search();
                if let Err(e) = self.engine.set_pockets(counts) {
                    error("holding", e);
                }
                self.analyse();
            }
            Ok(counts) => {
                if let Err(e) = self.engine.set_pockets(counts) {
                    error("holding", e);
                }
                // A piece may have arrived that an engine without a
                // legal move was waiting for (a running search has
                // already restarted on the new pockets).
                self.maybe_think();
            }
            Err(e) => error("holding", &e),
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

    /// `st SECONDS`: a fixed time per move.
    fn set_st(&mut self, arg: &str) {
        match arg.parse::<f64>() {
            Ok(s) if s > 0.0 && s.is_finite() => {
                self.st = Some((s.min(1e9) * 1000.0) as u64);
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

    /// `level MPS BASE INC`, BASE as minutes or min:sec.
    fn level(&mut self, rest: &[&str], arg: &str) {
        if rest.len() != 3 {
            return error("level needs MPS BASE INC", arg);
        }
        match (rest[0].parse::<u64>(), rest[2].parse::<f64>()) {
            (Ok(mps), Ok(inc)) if inc >= 0.0 && inc.is_finite() => {
                self.mps = mps;
                self.inc = (inc.min(1e9) * 1000.0) as u64;
            }
            _ => error("bad level", arg),
        }
    }
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
