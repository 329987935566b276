//! UCI, with the bughouse extension (uci-protocol.md): parses commands,
//! formats the engine's output. Every input line is untrusted: a bad line
//! gets `info string error: ...` and leaves the engine in its last good
//! state.

use super::error::CommandError;
use super::io::{send, Event};
use super::options::{self, Effect};
use super::parse;
use crate::bench;
use crate::bughouse::partner::PartnerMessage;
use crate::bughouse::tell::Reading;
use crate::engine::{Clock, Engine, GoRequest, Listener, SitReason};
use crate::perft;
use crate::position::outcome::Outcome;
use crate::position::Position;
use crate::rules::Variant;
use crate::search::{Bound, Info, Limits, Score, SearchResult};
use crate::types::{Color, Move};
use crate::wdl::{self, Curve};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn error(e: &CommandError) {
    send(&format!("info string error: {e}"));
}

/// Engine name and version.
pub const NAME: &str = concat!("Rukav ", env!("CARGO_PKG_VERSION"));

/// Formats a score as UCI writes it (`cp 31`, `mate -3`).
pub fn format_score(score: Score) -> String {
    match score {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}

/// Formats an `info` line; `root` (the position searched) writes the moves;
/// with a WDL model (`UCI_ShowWDL`) the score is followed by `wdl W D L`;
/// with Syzygy tables loaded `hashfull` is followed by `tbhits N`.
pub fn format_info(info: &Info, root: &Position, wdl: Option<&Curve>) -> String {
    let bound = match info.bound {
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
        _ => "",
    };
    let ms = info.time.as_millis().max(1) as u64;
    let nps = info.nodes.saturating_mul(1000) / ms;
    let pv: Vec<String> = info.pv.iter().map(|m| root.uci_move(*m)).collect();
    let wdl = wdl.map_or(String::new(), |c| {
        let x = c.wdl(info.score);
        format!(" wdl {} {} {}", x.win, x.draw, x.loss)
    });
    let tbhits = info
        .tbhits
        .map_or(String::new(), |n| format!(" tbhits {n}"));
    format!(
        "info depth {} seldepth {} multipv {} score {}{}{} nodes {} nps {} hashfull {}{} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score),
        bound,
        wdl,
        info.nodes,
        nps,
        info.hashfull,
        tbhits,
        ms,
        pv.join(" ")
    )
}

/// The line Stockfish and Fairy-Stockfish send before `bestmove (none)` at
/// a finished position: `info depth 0 score mate 0` when the game is
/// decided, `info depth 0 score cp 0` when it is drawn (variant testing
/// tools score the game from it). `None` while the game goes on (a
/// bughouse check that a dropped piece could block: the side waits).
pub fn format_game_over(root: &Position) -> Option<String> {
    root.outcome().map(|o| match o {
        Outcome::Win { .. } => "info depth 0 score mate 0".to_string(),
        Outcome::Draw { .. } => "info depth 0 score cp 0".to_string(),
    })
}

/// Formats the `bestmove` line; `root` (the position searched) writes the moves.
pub fn format_bestmove(r: &SearchResult, root: &Position) -> String {
    if r.best.is_null() {
        return "bestmove (none)".into();
    }
    let best = root.uci_move(r.best);
    match r.ponder {
        Some(p) => format!("bestmove {best} ponder {}", root.uci_move(p)),
        None => format!("bestmove {best}"),
    }
}

/// Formats the `currmove` line of a search running for a second or more.
pub fn format_currmove(depth: i32, current: &str, number: usize) -> String {
    format!("info depth {depth} currmove {current} currmovenumber {number}")
}

/// How a UCI search's output is written: the moves as the searched
/// position's game writes them (Chess960 castling king takes rook).
struct UciOutput {
    root: Position,
    /// The WDL curves of the searched position (`UCI_ShowWDL`).
    wdl: Option<Curve>,
}

impl Listener for UciOutput {
    fn info(&self, info: &Info) {
        send(&format_info(info, &self.root, self.wdl.as_ref()));
    }
    fn current_move(&self, depth: i32, current: Move, number: usize) {
        send(&format_currmove(
            depth,
            &self.root.uci_move(current),
            number,
        ));
    }
    fn best_move(&self, result: &SearchResult) {
        if result.best.is_null() {
            if let Some(line) = format_game_over(&self.root) {
                send(&line);
            }
        }
        send(&format_bestmove(result, &self.root));
    }
    fn tell_partner(&self, msg: PartnerMessage) {
        send(&format!("info string ptell {msg}"));
    }
    fn message(&self, text: &str) {
        send(&format!("info string {text}"));
    }
    fn sitting(&self, reason: SitReason, budget: Duration) {
        send(&format!(
            "info string sitting {reason} at most {} ms",
            budget.as_millis()
        ));
    }
}

/// UCI session state.
pub struct Uci {
    engine: Engine,
    /// The bughouse extension is on (`setoption name UCI_Bughouse value true`).
    bughouse: bool,
    /// `UCI_ShowWDL`.
    show_wdl: bool,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

impl Uci {
    /// A fresh session.
    pub fn new() -> Uci {
        Uci {
            engine: Engine::new(),
            bughouse: false,
            show_wdl: false,
        }
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        let result = match cmd {
            "uci" => {
                send(&format!("id name {NAME}"));
                send("id author the Rukav developers");
                for o in options::table() {
                    send(&options::uci_line(&o));
                }
                send("uciok");
                Ok(())
            }
            "isready" => {
                send("readyok");
                Ok(())
            }
            "debug" | "register" => Ok(()),
            "setoption" => self.setoption(&rest),
            "ucinewgame" => {
                self.engine.new_game();
                Ok(())
            }
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => {
                self.engine.stop();
                Ok(())
            }
            "bughouse" => self.bughouse_command(&rest),
            "ponderhit" => {
                self.engine.ponderhit();
                Ok(())
            }
            "quit" => {
                self.engine.stop();
                return false;
            }
            "d" => {
                let pos = self.engine.position();
                for l in pos.pretty().lines() {
                    send(l);
                }
                send(&format!("Fen: {}", pos.fen()));
                send(&format!("Key: {:016x}", pos.key()));
                let checkers: Vec<String> = pos.checkers().map(|s| s.to_string()).collect();
                send(&format!("Checkers: {}", checkers.join(" ")));
                Ok(())
            }
            "eval" => {
                self.eval();
                Ok(())
            }
            "bench" => {
                let depth = rest
                    .first()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(bench::BENCH_DEPTH);
                self.engine.stop();
                let r = bench::run(depth.clamp(1, 30), 16, &mut |l| {
                    send(&format!("info string {l}"))
                });
                send(&format!("{} nodes {} nps", r.nodes, r.nps));
                Ok(())
            }
            other => Err(CommandError::UnknownCommand(other.to_string())),
        };
        if let Err(e) = result {
            error(&e);
        }
        true
    }

    fn setoption(&mut self, args: &[&str]) -> Result<(), CommandError> {
        // setoption name <id with spaces> [value <x with spaces>]
        if args.first() != Some(&"name") {
            return Err(CommandError::SetoptionWithoutName);
        }
        let value_at = args.iter().position(|w| *w == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at
            .map(|i| args[i + 1..].join(" "))
            .unwrap_or_default();
        match options::set(&mut self.engine, &name, &value)? {
            Effect::Done | Effect::Ponder(_) => {}
            Effect::Message(m) => send(&format!("info string {m}")),
            Effect::Messages(lines) => {
                for m in lines {
                    send(&format!("info string {m}"));
                }
            }
            Effect::BughouseExtension(on) => self.bughouse = on,
            Effect::ShowWdl(on) => self.show_wdl = on,
        }
        Ok(())
    }

    fn position(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let (start, moves) = parse::setup(args, self.engine.rules(), "position", "FEN")?;
        self.engine.stop();
        self.engine.set_position(start, moves);
        Ok(())
    }

    fn go(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let mut clock = Clock::default();
        let mut limits = Limits::default();
        let mut ponder = false;
        let mut i = 0;
        let pos = *self.engine.position();
        while i < args.len() {
            let next = args.get(i + 1).copied();
            match args[i] {
                "wtime" => clock.wtime = Some(parse::millis("wtime", next)?),
                "btime" => clock.btime = Some(parse::millis("btime", next)?),
                "winc" => clock.winc = parse::millis("winc", next)?,
                "binc" => clock.binc = parse::millis("binc", next)?,
                "movestogo" => clock.movestogo = Some(parse::millis("movestogo", next)?),
                "movetime" => clock.movetime = Some(parse::millis("movetime", next)?),
                "depth" => limits.depth = Some(parse::number("depth", next)?),
                "nodes" => limits.nodes = Some(parse::number("nodes", next)?),
                "mate" => limits.mate = Some(parse::number("mate", next)?),
                "perft" => {
                    let depth: u32 = parse::number("perft", next)?;
                    self.engine.stop();
                    self.perft(depth.min(20));
                    return Ok(());
                }
                "infinite" => {
                    limits.infinite = true;
                    i += 1;
                    continue;
                }
                "ponder" => {
                    ponder = true;
                    i += 1;
                    continue;
                }
                "searchmoves" => {
                    i += 1;
                    while i < args.len() {
                        match pos.parse_uci_move(args[i]) {
                            Ok(m) => limits.searchmoves.push(m),
                            Err(_) => break,
                        }
                        i += 1;
                    }
                    if limits.searchmoves.is_empty() {
                        return Err(CommandError::NoLegalSearchmove);
                    }
                    continue;
                }
                other => return Err(CommandError::UnknownGoParameter(other.to_string())),
            }
            i += 2;
        }
        let request = GoRequest {
            clock,
            limits,
            ponder,
            analysis: false,
        };
        let output = UciOutput {
            root: pos,
            wdl: self.show_wdl.then(|| wdl::curve(&pos)),
        };
        self.engine.go(request, Arc::new(output));
        Ok(())
    }

    /// The bughouse extension (uci-protocol.md, "Bughouse extension").
    fn bughouse_command(&mut self, args: &[&str]) -> Result<(), CommandError> {
        if !self.bughouse {
            return Err(CommandError::BughouseDisabled);
        }
        match args.first().copied() {
            Some("partner") => {
                // `bughouse partner add ...` sets a second partner board
                // (the centre player of the three-board form has two).
                let add = args.get(1) == Some(&"add");
                let setup = if add { &args[2..] } else { &args[1..] };
                let mut rules = Variant::Bughouse.rules();
                rules.chess960 = self.engine.rules().chess960;
                let (start, moves) = parse::setup(setup, rules, "bughouse partner", "partner FEN")?;
                let mut pos = start;
                for m in moves {
                    pos.make_move(m);
                }
                self.engine.set_partner_board(pos, add);
            }
            Some("clocks") => {
                if args.len() != 5 {
                    return Err(CommandError::BughouseClockCount);
                }
                // The engine's own clock comes with `go`; the partner
                // board's clocks bound its sits (the diagonal clock) and
                // say whether the partner can afford to sit.
                let mut clocks = [0u64; 4];
                for (clock, text) in clocks.iter_mut().zip(&args[1..]) {
                    *clock = parse::millis("clocks", Some(text))?;
                }
                self.engine.set_board_clocks(clocks);
            }
            Some("holding") => {
                let counts = parse::holding(&args[1..].concat())?;
                self.engine.set_pockets(counts)?;
            }
            Some("ptell") => {
                // Read as `rukav ptell` reads it; with PartnerMessages off
                // the tell is heard and ignored. The partner over UCI is an
                // engine: the only answer is the help text.
                let text = args[1..].join(" ");
                let heard = self.engine.hear_tell(&text);
                for reply in &heard.replies {
                    send(&format!("info string ptell {reply}"));
                }
                if heard.readings == [Reading::Unknown] {
                    let shown = text.chars().filter(|c| !c.is_control()).take(80).collect();
                    return Err(CommandError::UnknownTell(shown));
                }
            }
            Some("gambler") => {
                // bughouse gambler <white|black> <FEN>: which piece of his
                // opponent the partner of a Gambler promotion takes.
                let chooser = match args.get(1).copied() {
                    Some("white" | "w") => Color::White,
                    Some("black" | "b") => Color::Black,
                    _ => return Err(CommandError::GamblerWithoutColor),
                };
                let fen = args[2..].join(" ");
                let pos = Position::from_fen(&fen, self.engine.rules()).map_err(move |error| {
                    CommandError::BadFen {
                        label: "gambler FEN",
                        fen,
                        error,
                    }
                })?;
                match self.engine.gambler_choice(&pos, chooser) {
                    Some(sq) => send(&format!("info string gambler {sq}")),
                    None => send("info string gambler none"),
                }
            }
            Some(other) => return Err(CommandError::UnknownBughouseCommand(other.to_string())),
            None => return Err(CommandError::MissingBughouseSubcommand),
        }
        Ok(())
    }

    fn perft(&self, depth: u32) {
        let pos = *self.engine.position();
        let start = Instant::now();
        let counts = perft::divide(&pos, depth, 1);
        let total: u64 = if depth == 0 {
            1
        } else {
            counts.iter().map(|c| c.1).sum()
        };
        for (m, n) in &counts {
            send(&format!("{}: {n}", pos.uci_move(*m)));
        }
        let ms = start.elapsed().as_millis().max(1) as u64;
        send("");
        send(&format!("Nodes searched: {total}"));
        send(&format!(
            "info string perft time {ms} ms, {} nps",
            total.saturating_mul(1000) / ms
        ));
    }

    fn eval(&self) {
        let pos = self.engine.position();
        let trace = self.engine.trace_eval();
        let white = |score: i32| score * pos.side_to_move().sign();
        send(&format!(
            "info string {:<22} {:>7} {:>7} {:>7}",
            "term", "white", "black", "total"
        ));
        for (name, w, b) in &trace.terms.terms {
            send(&format!(
                "info string {:<22} {:>7} {:>7} {:>7}",
                name,
                w,
                b,
                w - b
            ));
        }
        send(&format!(
            "info string hand-written evaluation {} cp (side to move), {} cp (white)",
            trace.hand_written,
            white(trace.hand_written)
        ));
        let what = match trace.network {
            None => "hand-written".to_string(),
            Some(_) if trace.network_percent >= 100 => "NNUE".to_string(),
            Some(n) => {
                send(&format!(
                    "info string NNUE evaluation {} cp (side to move), {} cp (white)",
                    n,
                    white(n)
                ));
                let share = trace.network_percent;
                format!("NNUE {share}%, hand-written {}%", 100 - share)
            }
        };
        send(&format!(
            "info string final evaluation {} cp (side to move), {} cp (white) [{what}]",
            trace.score,
            white(trace.score)
        ));
    }
}

/// Runs a UCI session: `first` is the line already read, the rest comes
/// from `input`.
pub fn run(first: &str, input: Receiver<Event>) {
    let mut uci = Uci::new();
    if uci.handle(first) {
        while let Ok(event) = input.recv() {
            match event {
                Event::Line(l) => {
                    if !uci.handle(&l) {
                        break;
                    }
                }
                Event::Eof => break,
                Event::SearchDone(..) => {}
            }
        }
    }
    uci.engine.stop();
}
