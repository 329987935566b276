//! The xboard/CECP protocol (version 2), with the bughouse commands that
//! xboard's zippy mode uses on FICS: `holding`, `partner`, `ptell`, answered
//! with `tellics ptell ...`. Chosen when the first command is `xboard`.
//!
//! Every input line is untrusted: bad input gets `Error (...): ...` or
//! `Illegal move: ...` and changes nothing.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::engine::{time_limits, Clock, Engine};
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::search::{Info, Limits, Score, SearchResult};
use crate::types::Color;
use crate::uci::{parse_holding, send, NAME};
use std::sync::mpsc::{channel, Receiver, Sender};

/// Events of the main loop: input lines and finished searches.
enum Event {
    Line(String),
    Eof,
    Done(SearchResult, u64),
}

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

/// The xboard session.
pub struct Xboard {
    engine: Engine,
    tx: Sender<Event>,
    rx: Receiver<Event>,
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
}

impl Xboard {
    fn new() -> Xboard {
        let (tx, rx) = channel();
        Xboard {
            engine: Engine::new(),
            tx,
            rx,
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
        }
    }

    fn error(kind: &str, text: &str) {
        send(&format!("Error ({kind}): {text}"));
    }

    fn features() {
        send(&format!(
            "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 \
             colors=0 san=0 memory=1 smp=1 pause=0 nps=0 debug=0 \
             variants=\"normal,crazyhouse,bughouse,suicide,giveaway,kingschess\" myname=\"{NAME}\""
        ));
        send("feature done=1");
    }

    fn set_variant(&mut self, v: Variant) {
        self.abort_search();
        let mut rules: Rules = self.engine.rules();
        // Keep the house rules, change the variant.
        let _ = crate::rules::set_house_rule(&mut rules, "UCI_Variant", v.name());
        self.engine.set_rules(rules);
    }

    fn abort_search(&mut self) {
        if self.searching {
            self.generation += 1;
            self.engine.abort();
            self.searching = false;
        }
    }

    /// Starts thinking when it is the engine's turn.
    fn maybe_think(&mut self) {
        let pos = *self.engine.position();
        if self.force || self.searching || pos.side_to_move() != self.engine_color {
            return;
        }
        if !pos.has_legal_move() {
            return;
        }
        let mut clock = Clock::default();
        let own = self.time;
        match self.engine_color {
            Color::White => {
                clock.wtime = own;
                clock.btime = self.otim;
                clock.winc = self.inc;
                clock.binc = self.inc;
            }
            Color::Black => {
                clock.btime = own;
                clock.wtime = self.otim;
                clock.winc = self.inc;
                clock.binc = self.inc;
            }
        }
        if self.mps > 0 {
            let played = (self.engine.moves().len() as u64).div_ceil(2);
            clock.movestogo = Some(self.mps - played % self.mps);
        }
        clock.movetime = self.st;
        let (mut soft, mut hard) =
            time_limits(&clock, self.engine_color, self.engine.move_overhead);
        let pct = self.engine.partner.time_percent() as u32;
        soft = soft.map(|t| t * pct / 100);
        hard = hard.map(|t| t * pct / 100);
        let mut limits = Limits {
            depth: self.sd,
            soft_time: soft,
            hard_time: hard,
            multipv: 1,
            ..Limits::default()
        };
        if pos.rules().two_boards {
            self.engine.partner.tick();
            let planning = std::time::Instant::now();
            let plan = self.engine.bughouse_plan(own, self.otim);
            let used = planning.elapsed();
            let one = std::time::Duration::from_millis(1);
            limits.soft_time = limits.soft_time.map(|t| t.saturating_sub(used).max(one));
            limits.hard_time = limits.hard_time.map(|t| t.saturating_sub(used).max(one));
            for msg in &plan.messages {
                send(&format!("tellics ptell {msg}"));
            }
            if let Some(budget) = self.engine.hold_budget(&plan, own) {
                limits.infinite = true;
                limits.soft_time = None;
                limits.hard_time = Some(budget);
            }
        }
        let post = self.post;
        let tx = self.tx.clone();
        let generation = self.generation;
        self.searching = true;
        self.engine.go(
            limits,
            false,
            move |info: &Info| {
                if post {
                    let score = match info.score {
                        Score::Cp(c) => c,
                        Score::Mate(m) if m > 0 => 100_000 + m,
                        Score::Mate(m) => -100_000 + m,
                    };
                    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
                    send(&format!(
                        "{} {} {} {} {}",
                        info.depth,
                        score,
                        info.time.as_millis() / 10,
                        info.nodes,
                        pv.join(" ")
                    ));
                }
            },
            move |r: SearchResult| {
                let _ = tx.send(Event::Done(r, generation));
            },
        );
    }

    fn finished(&mut self, r: SearchResult, generation: u64) {
        if generation != self.generation {
            return;
        }
        self.searching = false;
        if r.best.is_null() {
            return;
        }
        // Join the search thread before touching the position.
        self.engine.wait();
        self.engine.play(r.best);
        send(&format!("move {}", r.best));
        self.report_result();
    }

    fn report_result(&self) {
        let pos = self.engine.position();
        if pos.rules().two_boards {
            return; // the server ends bughouse games
        }
        if let Some(o) = pos.outcome() {
            send(&format!("{} {{{o}}}", o.result()));
        }
    }

    fn usermove(&mut self, text: &str) {
        self.abort_search();
        let pos = *self.engine.position();
        match pos.parse_uci_move(text) {
            Ok(m) => {
                self.engine.play(m);
                self.report_result();
                self.maybe_think();
            }
            Err(_) => send(&format!("Illegal move: {text}")),
        }
    }

    /// Handles one line; returns false on `quit`.
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
            | "ics" | "draw" | "hint" | "bk" | "book" | "easy" | "hard" | "cores" | "memory"
            | "egtpath" | "option" | "nps" | "ponder" => {
                if cmd == "cores" {
                    if let Some(n) = rest.first().and_then(|n| n.parse::<usize>().ok()) {
                        self.abort_search();
                        self.engine.threads = n.clamp(1, 256);
                    }
                }
                if cmd == "memory" {
                    if let Some(mb) = rest.first().and_then(|n| n.parse::<usize>().ok()) {
                        self.abort_search();
                        self.engine.set_hash(mb.clamp(1, 65536));
                    }
                }
            }
            "protover" => Self::features(),
            "new" => {
                self.abort_search();
                self.set_variant(Variant::Chess);
                self.engine.new_game();
                self.engine.partner = Default::default();
                self.force = false;
                self.engine_color = Color::Black;
                self.sd = None;
                self.st = None;
            }
            "variant" => match variant_from_cecp(&arg) {
                Some(v) => {
                    self.set_variant(v);
                    self.engine.new_game();
                }
                None => Self::error("unsupported variant", &arg),
            },
            "force" => {
                self.abort_search();
                self.force = true;
            }
            "go" => {
                self.force = false;
                self.engine_color = self.engine.position().side_to_move();
                self.maybe_think();
            }
            "playother" => {
                self.force = false;
                self.engine_color = self.engine.position().side_to_move().flip();
            }
            "white" | "black" => {
                self.engine_color = if cmd == "white" {
                    Color::Black
                } else {
                    Color::White
                };
            }
            "?" => {
                if self.searching {
                    self.engine.stop();
                }
            }
            "usermove" => self.usermove(&arg),
            "setboard" => {
                self.abort_search();
                match Position::from_fen(&arg, self.engine.rules()) {
                    Ok(p) => self.engine.set_position(p, Vec::new()),
                    Err(e) => Self::error("bad FEN", &format!("{arg}: {e}")),
                }
            }
            "holding" => match parse_holding(&arg.split_whitespace().take(2).collect::<String>()) {
                Ok(counts) => {
                    let was = self.searching;
                    self.abort_search();
                    if let Err(e) = self.engine.set_pockets(counts) {
                        Self::error("holding", &e);
                    }
                    if was {
                        self.maybe_think();
                    }
                }
                Err(e) => Self::error("holding", &e),
            },
            "time" | "otim" => match rest.first().and_then(|t| t.parse::<i64>().ok()) {
                Some(cs) => {
                    let ms = (cs.max(0) as u64) * 10;
                    if cmd == "time" {
                        self.time = Some(ms);
                    } else {
                        self.otim = Some(ms);
                    }
                }
                None => Self::error("bad time", &arg),
            },
            "level" => {
                // level MPS BASE INC, BASE as minutes or min:sec.
                if rest.len() != 3 {
                    Self::error("level needs MPS BASE INC", &arg);
                } else {
                    match (rest[0].parse::<u64>(), rest[2].parse::<f64>()) {
                        (Ok(mps), Ok(inc)) if inc >= 0.0 => {
                            self.mps = mps;
                            self.inc = (inc * 1000.0) as u64;
                        }
                        _ => Self::error("bad level", &arg),
                    }
                }
            }
            "st" => match arg.parse::<f64>() {
                Ok(s) if s > 0.0 => self.st = Some((s * 1000.0) as u64),
                _ => Self::error("bad st", &arg),
            },
            "sd" => match arg.parse::<i32>() {
                Ok(d) if d > 0 => self.sd = Some(d),
                _ => Self::error("bad sd", &arg),
            },
            "ping" => {
                // Answered after any move the engine is about to make.
                send(&format!("pong {arg}"));
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "result" => {
                self.abort_search();
                self.force = true;
            }
            "partner" => {
                self.partner = if arg.is_empty() {
                    None
                } else {
                    Some(arg.clone())
                };
                self.engine.partner = Default::default();
            }
            "ptell" => {
                let was_sitting = self.engine.partner.sit;
                if let Err(e) = self.engine.partner.apply(&arg) {
                    Self::error("ptell", &e);
                } else if was_sitting && !self.engine.partner.sit && self.searching {
                    self.engine.stop();
                }
            }
            "undo" | "remove" => {
                self.abort_search();
                let n = if cmd == "undo" { 1 } else { 2 };
                let moves = self.engine.moves().to_vec();
                let keep = moves.len().saturating_sub(n);
                let start = *self.engine.base_position();
                self.engine.set_position(start, moves[..keep].to_vec());
            }
            "quit" => {
                self.abort_search();
                return false;
            }
            _ => {
                // xboard sends moves without "usermove" when the feature is off;
                // accept a bare move too.
                let pos = *self.engine.position();
                if pos.parse_uci_move(cmd).is_ok() && rest.is_empty() {
                    self.usermove(cmd);
                } else {
                    Self::error("unknown command", cmd);
                }
            }
        }
        true
    }
}

/// Runs the xboard loop (the `xboard` line has been read).
pub fn main_loop() {
    let mut x = Xboard::new();
    let tx = x.tx.clone();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            match line {
                Ok(l) => {
                    if tx.send(Event::Line(l)).is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = tx.send(Event::Eof);
    });
    while let Ok(ev) = x.rx.recv() {
        match ev {
            Event::Line(l) => {
                if !x.handle(&l) {
                    break;
                }
            }
            Event::Done(r, g) => x.finished(r, g),
            Event::Eof => break,
        }
    }
    x.abort_search();
}
