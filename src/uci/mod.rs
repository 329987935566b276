//! The UCI protocol: the only code that reads stdin and writes stdout.
//!
//! Every input line is untrusted: a bad line gets `info string error: ...`
//! and leaves the engine in its last good state.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::bench;
use crate::engine::{time_limits, Clock, Engine};
use crate::eval;
use crate::perft;
use crate::position::Position;
use crate::rules::{self, Rules, Variant};
use crate::search::Bound;
use crate::search::{Info, Limits, Score, SearchResult};
use crate::types::Color;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// Writes one line to stdout and flushes (lines from search threads never interleave).
pub fn send(line: &str) {
    let out = std::io::stdout();
    let mut lock = out.lock();
    let _ = writeln!(lock, "{line}");
    let _ = lock.flush();
}

fn error(msg: &str) {
    send(&format!("info string error: {msg}"));
}

/// Engine name and version.
pub const NAME: &str = concat!("Rukav ", env!("CARGO_PKG_VERSION"));

/// The option lines of the `uci` answer.
pub fn option_lines() -> Vec<String> {
    let variants: Vec<String> = Variant::ALL
        .iter()
        .map(|v| format!("var {}", v.name()))
        .collect();
    vec![
        "option name Hash type spin default 16 min 1 max 65536".into(),
        "option name Threads type spin default 1 min 1 max 256".into(),
        "option name Clear Hash type button".into(),
        "option name Ponder type check default false".into(),
        "option name MultiPV type spin default 1 min 1 max 500".into(),
        "option name Move Overhead type spin default 30 min 0 max 5000".into(),
        format!("option name UCI_Variant type combo default chess {}", variants.join(" ")),
        "option name DropCheck type check default true".into(),
        "option name DropMate type check default true".into(),
        "option name PawnDrop7th type check default true".into(),
        "option name PawnDrop2nd type combo default allowed var allowed var forbidden var check-only".into(),
        "option name PromotedRevert type check default true".into(),
        "option name DroppedRookCastles type check default false".into(),
        "option name PromotionRule type combo default standard var standard var gambler".into(),
        "option name UCI_Bughouse type check default false".into(),
        "option name PartnerMessages type check default true".into(),
        format!(
            "option name EvalFile type string default {}",
            crate::eval::nnue::DEFAULT_NET_NAME
        ),
        format!(
            "option name Use NNUE type check default {}",
            crate::eval::nnue::USE_NNUE_DEFAULT
        ),
    ]
}

fn format_info(info: &Info) -> String {
    let score = match info.score {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let bound = match info.bound {
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
        _ => "",
    };
    let ms = info.time.as_millis().max(1) as u64;
    let nps = info.nodes * 1000 / ms;
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score,
        bound,
        info.nodes,
        nps,
        info.hashfull,
        ms,
        pv.join(" ")
    )
}

fn format_bestmove(r: &SearchResult) -> String {
    if r.best.is_null() {
        return "bestmove (none)".into();
    }
    match r.ponder {
        Some(p) => format!("bestmove {} ponder {}", r.best, p),
        None => format!("bestmove {}", r.best),
    }
}

/// UCI session state.
pub struct Uci {
    engine: Engine,
    ponder_enabled: bool,
    /// The bughouse extension is on (`setoption name UCI_Bughouse value true`).
    bughouse: bool,
    /// The last `go` (its words and when it came), to restart it after a pocket change.
    last_go: Option<(Vec<String>, Instant)>,
    /// Partner requests sent, with the move count when they were said: a
    /// request is repeated only after it has lapsed at the partner's end.
    said: Vec<(String, u32)>,
    /// Searches started on this board (not counting restarts).
    moves_searched: u32,
    /// The current `go` restarts an interrupted search.
    restarting: bool,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

fn parse_number<T: std::str::FromStr>(what: &str, text: Option<&str>) -> Result<T, String> {
    let t = text.ok_or_else(|| format!("{what} needs a value"))?;
    t.parse::<T>()
        .map_err(|_| format!("{what}: '{t}' is not a valid number"))
}

impl Uci {
    /// A fresh session.
    pub fn new() -> Uci {
        Uci {
            engine: Engine::new(),
            ponder_enabled: false,
            bughouse: false,
            last_go: None,
            said: Vec::new(),
            moves_searched: 0,
            restarting: false,
        }
    }

    /// Reads commands from stdin until `quit` or end of input.
    pub fn run(&mut self) {
        let stdin = std::io::stdin();
        let mut lines = stdin.lock().lines();
        while let Some(Ok(line)) = lines.next() {
            if !self.handle(&line) {
                break;
            }
        }
        self.engine.stop();
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => {
                send(&format!("id name {NAME}"));
                send("id author the Rukav developers");
                for l in option_lines() {
                    send(&l);
                }
                send("uciok");
            }
            "isready" => send("readyok"),
            "debug" | "register" => {}
            "setoption" => {
                if let Err(e) = self.setoption(&rest) {
                    error(&e);
                }
            }
            "ucinewgame" => {
                self.engine.stop();
                self.engine.new_game();
                // Partner requests belong to one game.
                self.engine.partner = Default::default();
                self.said.clear();
                self.moves_searched = 0;
            }
            "position" => {
                if let Err(e) = self.position(&rest) {
                    error(&e);
                }
            }
            "go" => {
                if let Err(e) = self.go(&rest) {
                    error(&e);
                }
            }
            "stop" => self.engine.stop(),
            "bughouse" => {
                if let Err(e) = self.bughouse_command(&rest) {
                    error(&e);
                }
            }
            "ponderhit" => self.engine.ponderhit(),
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
            }
            "eval" => self.eval(),
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
            }
            other => error(&format!("unknown command '{other}'")),
        }
        true
    }

    fn setoption(&mut self, args: &[&str]) -> Result<(), String> {
        // setoption name <id with spaces> [value <x with spaces>]
        if args.first() != Some(&"name") {
            return Err("setoption needs 'name'".into());
        }
        let value_at = args.iter().position(|w| *w == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at
            .map(|i| args[i + 1..].join(" "))
            .unwrap_or_default();
        let lname = name.to_ascii_lowercase();
        match lname.as_str() {
            "hash" => {
                let mb: usize = parse_number("Hash", Some(value.as_str()))?;
                if !(1..=65536).contains(&mb) {
                    return Err(format!("Hash must be 1..65536, not {mb}"));
                }
                self.engine.set_hash(mb);
            }
            "threads" => {
                let n: usize = parse_number("Threads", Some(value.as_str()))?;
                if !(1..=256).contains(&n) {
                    return Err(format!("Threads must be 1..256, not {n}"));
                }
                self.engine.stop();
                self.engine.threads = n;
            }
            "clear hash" => self.engine.clear_hash(),
            "uci_bughouse" => {
                self.bughouse =
                    rules::parse_bool(&value).map_err(|e| format!("UCI_Bughouse: {e}"))?;
            }
            "evalfile" => {
                let text = self
                    .engine
                    .set_eval_file(&value)
                    .map_err(|e| format!("EvalFile: {e}"))?;
                send(&format!("info string NNUE network {text}"));
            }
            "use nnue" => {
                self.engine.stop();
                self.engine.use_nnue =
                    rules::parse_bool(&value).map_err(|e| format!("Use NNUE: {e}"))?;
            }
            "partnermessages" => {
                self.engine.partner_messages =
                    rules::parse_bool(&value).map_err(|e| format!("PartnerMessages: {e}"))?;
                if !self.engine.partner_messages {
                    self.engine.partner = Default::default();
                }
            }
            "ponder" => {
                self.ponder_enabled =
                    rules::parse_bool(&value).map_err(|e| format!("Ponder: {e}"))?
            }
            "multipv" => {
                let n: usize = parse_number("MultiPV", Some(value.as_str()))?;
                if !(1..=500).contains(&n) {
                    return Err(format!("MultiPV must be 1..500, not {n}"));
                }
                self.engine.multipv = n;
            }
            "move overhead" => {
                let n: u64 = parse_number("Move Overhead", Some(value.as_str()))?;
                if n > 5000 {
                    return Err(format!("Move Overhead must be 0..5000, not {n}"));
                }
                self.engine.move_overhead = n;
            }
            _ if rules::HOUSE_RULE_OPTIONS
                .iter()
                .any(|o| o.eq_ignore_ascii_case(&name))
                || lname == "uci_variant" =>
            {
                self.engine.stop();
                let mut r: Rules = self.engine.rules();
                rules::set_house_rule(&mut r, &name, &value).map_err(|e| format!("{name}: {e}"))?;
                self.engine.set_rules(r);
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }

    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        let (start, moves) = parse_setup(args, self.engine.rules(), "position", "FEN")?;
        self.engine.stop();
        self.engine.set_position(start, moves);
        Ok(())
    }

    fn go(&mut self, args: &[&str]) -> Result<(), String> {
        let mut clock = Clock::default();
        let mut limits = Limits::default();
        let mut ponder = false;
        let mut i = 0;
        let pos = *self.engine.position();
        while i < args.len() {
            let next = args.get(i + 1).copied();
            match args[i] {
                "wtime" => clock.wtime = Some(parse_number::<i64>("wtime", next)?.max(0) as u64),
                "btime" => clock.btime = Some(parse_number::<i64>("btime", next)?.max(0) as u64),
                "winc" => clock.winc = parse_number::<i64>("winc", next)?.max(0) as u64,
                "binc" => clock.binc = parse_number::<i64>("binc", next)?.max(0) as u64,
                "movestogo" => clock.movestogo = Some(parse_number("movestogo", next)?),
                "movetime" => clock.movetime = Some(parse_number("movetime", next)?),
                "depth" => limits.depth = Some(parse_number("depth", next)?),
                "nodes" => limits.nodes = Some(parse_number("nodes", next)?),
                "mate" => limits.mate = Some(parse_number("mate", next)?),
                "perft" => {
                    let depth: u32 = parse_number("perft", next)?;
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
                        return Err("searchmoves lists no legal move".into());
                    }
                    continue;
                }
                other => return Err(format!("unknown go parameter '{other}'")),
            }
            i += 2;
        }
        let (mut soft, mut hard) =
            time_limits(&clock, pos.side_to_move(), self.engine.move_overhead);
        if self.bughouse && pos.rules().two_boards {
            if !self.restarting {
                self.moves_searched += 1;
                self.engine.partner.tick();
            }
            self.last_go = Some((args.iter().map(|a| a.to_string()).collect(), Instant::now()));
            let (own, theirs) = if pos.side_to_move().is_white() {
                (clock.wtime, clock.btime)
            } else {
                (clock.btime, clock.wtime)
            };
            let planning = Instant::now();
            let plan = self.engine.bughouse_plan(own, theirs);
            // The planning searches used the clock too.
            let used = planning.elapsed();
            soft = soft.map(|t| t.saturating_sub(used).max(Duration::from_millis(1)));
            hard = hard.map(|t| t.saturating_sub(used).max(Duration::from_millis(1)));
            let now = self.moves_searched;
            for msg in &plan.messages {
                let last = self.said.iter_mut().find(|(m, _)| m == msg);
                match last {
                    Some((_, at)) if now - *at < u32::from(crate::partner::REQUEST_MOVES) => {}
                    Some((_, at)) => {
                        send(&format!("info string ptell {msg}"));
                        *at = now;
                    }
                    None => {
                        send(&format!("info string ptell {msg}"));
                        self.said.push((msg.clone(), now));
                    }
                }
            }
            let pct = self.engine.partner.time_percent() as u32;
            soft = soft.map(|t| t * pct / 100);
            hard = hard.map(|t| t * pct / 100);
            if !limits.infinite {
                // Sitting (asked by the partner, or for an owed piece): keep
                // thinking until the partner says go or the piece arrives
                // (`bughouse holding` restarts this search), within a budget.
                let budget = self.engine.hold_budget(&plan, own);
                if let (false, Some((k, d))) = (self.engine.partner.sit, plan.sit_for) {
                    send(&format!(
                        "info string sitting for {} at most {} ms",
                        k.char().to_ascii_uppercase(),
                        d.as_millis()
                    ));
                }
                if let Some(budget) = budget {
                    limits.infinite = true;
                    soft = None;
                    hard = Some(budget);
                }
            }
        }
        limits.soft_time = soft;
        limits.hard_time = hard;
        self.engine.go(
            limits,
            ponder,
            |info: &Info| send(&format_info(info)),
            |r: SearchResult| send(&format_bestmove(&r)),
        );
        Ok(())
    }

    /// The bughouse extension (uci-protocol.md, "Bughouse extension").
    fn bughouse_command(&mut self, args: &[&str]) -> Result<(), String> {
        if !self.bughouse {
            return Err("bughouse commands need 'setoption name UCI_Bughouse value true'".into());
        }
        match args.first().copied() {
            Some("partner") => {
                // `bughouse partner add ...` sets a second partner board
                // (the centre player of the three-board form has two).
                let add = args.get(1) == Some(&"add");
                let setup = if add { &args[2..] } else { &args[1..] };
                let rules = Variant::Bughouse.rules();
                let (start, moves) = parse_setup(setup, rules, "bughouse partner", "partner FEN")?;
                let mut pos = start;
                for m in moves {
                    pos.make_move(m);
                }
                // At most two partner boards: a repeated `add` replaces the
                // second one instead of growing the list.
                self.engine.partner_boards.truncate(usize::from(add));
                self.engine.partner_boards.push(pos);
            }
            Some("clocks") => {
                let mut c = [0u64; 4];
                if args.len() != 5 {
                    return Err("bughouse clocks needs four times in ms".into());
                }
                for (slot, text) in c.iter_mut().zip(&args[1..]) {
                    *slot = parse_number::<i64>("clocks", Some(text))?.max(0) as u64;
                }
                self.engine.bughouse_clocks = Some(c);
            }
            Some("holding") => {
                let text: String = args[1..].concat();
                let counts = parse_holding(&text)?;
                let searching = self.engine.is_searching();
                if searching {
                    self.engine.abort();
                }
                let result = self.engine.set_pockets(counts);
                if searching {
                    // Restart the interrupted search on the new pockets, with
                    // the time it had already used taken off its clock.
                    if let Some((words, at)) = self.last_go.take() {
                        let used = at.elapsed().as_millis() as i64;
                        let side = if self.engine.position().side_to_move().is_white() {
                            "wtime"
                        } else {
                            "btime"
                        };
                        let mut adjusted = words.clone();
                        for i in 0..adjusted.len().saturating_sub(1) {
                            if adjusted[i] == side {
                                if let Ok(t) = adjusted[i + 1].parse::<i64>() {
                                    adjusted[i + 1] = (t - used).max(1).to_string();
                                }
                            }
                        }
                        let refs: Vec<&str> = adjusted.iter().map(String::as_str).collect();
                        self.restarting = true;
                        let restarted = self.go(&refs);
                        self.restarting = false;
                        restarted?;
                    }
                }
                result?;
            }
            Some("ptell") => {
                if !self.engine.partner_messages {
                    // PartnerMessages off: heard, and ignored.
                    return Ok(());
                }
                let text = args[1..].join(" ");
                let was_sitting = self.engine.partner.sit;
                self.engine.partner.apply(&text)?;
                if was_sitting && !self.engine.partner.sit && self.engine.is_searching() {
                    // "go": the move that was held back is played now.
                    self.engine.stop();
                }
            }
            Some("gambler") => {
                // bughouse gambler <white|black> <FEN>: which piece of his
                // opponent the partner of a Gambler promotion takes.
                let chooser = match args.get(1).copied() {
                    Some("white" | "w") => Color::White,
                    Some("black" | "b") => Color::Black,
                    _ => return Err("bughouse gambler needs white|black and a FEN".into()),
                };
                let fen = args[2..].join(" ");
                let pos = Position::from_fen(&fen, self.engine.rules())
                    .map_err(|e| format!("bad gambler FEN '{fen}': {e}"))?;
                match crate::engine::gambler_choice(&pos, chooser) {
                    Some(sq) => send(&format!("info string gambler {sq}")),
                    None => send("info string gambler none"),
                }
            }
            Some(other) => return Err(format!("unknown bughouse command '{other}'")),
            None => return Err("bughouse needs a subcommand".into()),
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
            send(&format!("{m}: {n}"));
        }
        let ms = start.elapsed().as_millis().max(1) as u64;
        send("");
        send(&format!("Nodes searched: {total}"));
        send(&format!(
            "info string perft time {ms} ms, {} nps",
            total * 1000 / ms
        ));
    }

    fn eval(&self) {
        let pos = self.engine.position();
        let (score, trace) = eval::evaluate_traced(pos);
        send(&format!(
            "info string {:<22} {:>7} {:>7} {:>7}",
            "term", "white", "black", "total"
        ));
        for (name, w, b) in &trace.terms {
            send(&format!(
                "info string {:<22} {:>7} {:>7} {:>7}",
                name,
                w,
                b,
                w - b
            ));
        }
        let white_view = score * pos.side_to_move().sign();
        send(&format!(
            "info string hand-written evaluation {} cp (side to move), {} cp (white)",
            score, white_view
        ));
        let net = self
            .engine
            .active_net()
            .filter(|n| n.serves(pos.rules().variant));
        let (score, what) = match net {
            Some(net) => (net.evaluate_position(pos), "NNUE"),
            None => (score, "hand-written"),
        };
        send(&format!(
            "info string final evaluation {} cp (side to move), {} cp (white) [{what}]",
            score,
            score * pos.side_to_move().sign()
        ));
    }
}

/// Parses `startpos|fen <fen> [moves m1 m2 ...]` (the arguments of
/// `position` and `bughouse partner`): the start position and the moves,
/// all checked legal. `command` and `fen_label` name them in errors.
fn parse_setup(
    args: &[&str],
    rules: Rules,
    command: &str,
    fen_label: &str,
) -> Result<(Position, Vec<crate::types::Move>), String> {
    let moves_at = args.iter().position(|w| *w == "moves");
    let setup = &args[..moves_at.unwrap_or(args.len())];
    let start = match setup.first() {
        Some(&"startpos") => {
            if setup.len() > 1 {
                return Err(format!(
                    "unexpected '{}' after startpos",
                    setup[1..].join(" ")
                ));
            }
            Position::start_with(rules)
        }
        Some(&"fen") => {
            let fen = setup[1..].join(" ");
            Position::from_fen(&fen, rules).map_err(|e| format!("bad {fen_label} '{fen}': {e}"))?
        }
        _ => return Err(format!("{command} needs 'startpos' or 'fen'")),
    };
    let texts: Vec<&str> = moves_at.map(|i| args[i + 1..].to_vec()).unwrap_or_default();
    let moves = Engine::replay(&start, &texts)?;
    Ok((start, moves))
}

/// Parses pocket letters (`QRbn`, `[QR] [bn]`, `-`) into counts `[colour][piece]`.
pub fn parse_holding(text: &str) -> Result<[[u8; 5]; 2], String> {
    let mut counts = [[0u8; 5]; 2];
    for c in text.chars() {
        if matches!(c, '[' | ']' | '-' | ' ') {
            continue;
        }
        match crate::types::Piece::from_char(c) {
            Some(p) if p.kind != crate::types::PieceType::King => {
                let slot = &mut counts[p.color.index()][p.kind.index()];
                *slot = slot.saturating_add(1).min(64);
            }
            _ => return Err(format!("bad holding letter '{c}'")),
        }
    }
    Ok(counts)
}

/// Runs the UCI loop on stdin/stdout.
///
/// The protocol is chosen by the first command: `xboard` starts the CECP
/// loop (`crate::xboard`), anything else is UCI.
pub fn main_loop() {
    let stdin = std::io::stdin();
    let mut first = String::new();
    loop {
        first.clear();
        match stdin.lock().read_line(&mut first) {
            Ok(0) | Err(_) => return,
            Ok(_) if first.trim().is_empty() => continue,
            Ok(_) => break,
        }
    }
    if first.trim() == "xboard" {
        crate::xboard::main_loop();
        return;
    }
    let mut uci = Uci::new();
    if uci.handle(&first) {
        uci.run();
    }
}
