//! `rukav arena`: bughouse matches between two teams of UCI engine
//! processes, with real clocks.
//!
//! Every engine command is started once per board and team (`--team1`,
//! `--team2`; or one command per seat of the first game with `--white-a`,
//! `--black-a`, `--white-b`, `--black-b`) and kept for the whole match;
//! between games the teams swap seats (a team's board-A engine plays White
//! on A in odd games and Black on A in even ones). One event loop runs both
//! (or all three) boards: each engine has a reader thread that forwards its
//! lines into one channel, and the loop waits on that channel with a
//! timeout until the next clock would reach zero. Clocks are the model's
//! ([`Game`]), fed with the arena's monotonic time, so the time an engine
//! uses is measured around its move by the arena.
//!
//! Protocol: engines that list `option name UCI_Bughouse` get
//! `setoption name UCI_Bughouse value true` and, before each `go`, the
//! partner's board (`bughouse partner fen`, and `bughouse partner add fen`
//! for a second partner board in the three-board form) and the four clocks
//! (`bughouse clocks`, own board first); a pocket change during their search
//! is sent as `bughouse holding <letters>`, and `info string ptell <text>`
//! of a partner is relayed as `bughouse ptell <text>`. Other engines get
//! `setoption name UCI_Variant value bughouse` and a fresh `position fen`
//! with the current pockets before every `go` (the Fairy-Stockfish way); a
//! pocket change during their search matters from their next move.
//!
//! Every move is checked against the current position of its board. A move
//! that was legal in the position the engine was given but no longer is
//! (a Gambler removal changed the board) makes the arena ask again, with
//! the clock running. An engine that exits, plays an illegal move or
//! answers `bestmove (none)` loses the game for its team; one that does not
//! answer loses on time. A crashed engine is restarted for the next game,
//! one that does not answer `isready` between games is killed and
//! restarted. Gambler choices are made by the arena for the partner: the
//! most valuable piece that may be taken.

use super::{
    bpgn, seat_name, team_of, Form, Game, Handover, MatchResult, Report, Settings, Team,
    TimeControl,
};
use crate::position::Position;
use crate::rules::{set_house_rule, Rules, Variant};
use crate::types::Color;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// Command-line arguments of `rukav arena`.
#[derive(clap::Args, Debug, Clone)]
pub struct ArenaArgs {
    /// Engine command of team 1 (started once per board).
    #[arg(long)]
    pub team1: Option<String>,
    /// Engine command of team 2 (started once per board).
    #[arg(long)]
    pub team2: Option<String>,
    /// Command of WhiteA in the first game (team 1; overrides --team1 on board A).
    #[arg(long)]
    pub white_a: Option<String>,
    /// Command of BlackA in the first game (team 2).
    #[arg(long)]
    pub black_a: Option<String>,
    /// Command of WhiteB in the first game (team 2).
    #[arg(long)]
    pub white_b: Option<String>,
    /// Command of BlackB in the first game (team 1).
    #[arg(long)]
    pub black_b: Option<String>,
    /// Number of games (teams swap seats after each game).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Time control: SECONDS+INCREMENT per player, e.g. 60+1 or 0.5+0.
    #[arg(long, default_value = "60+0")]
    pub tc: String,
    /// Write the games in BPGN to this file.
    #[arg(long)]
    pub bpgn: Option<PathBuf>,
    /// House rule NAME=VALUE (UCI option names of rules.md), repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Engine option NAME=VALUE for team 1's engines (like cutechess-cli's
    /// option.NAME=VALUE), repeatable.
    #[arg(long = "team1-option", value_name = "NAME=VALUE")]
    pub team1_options: Vec<String>,
    /// Engine option NAME=VALUE for team 2's engines, repeatable.
    #[arg(long = "team2-option", value_name = "NAME=VALUE")]
    pub team2_options: Vec<String>,
    /// 2 (bughouse) or 3 (centre board plus two side boards).
    #[arg(long, default_value_t = 2)]
    pub boards: usize,
    /// Hand captured pieces over before the clock is pressed.
    #[arg(long)]
    pub handover_before_clock: bool,
    /// Adjudicate a draw after this many moves on all boards together.
    #[arg(long, default_value_t = 1200)]
    pub max_moves: usize,
    /// Milliseconds an engine has to answer `uci` and `isready`.
    #[arg(long, default_value_t = 10000)]
    pub handshake_ms: u64,
    /// Print no progress lines.
    #[arg(long)]
    pub quiet: bool,
}

/// A match, ready to run.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Commands of team 1, one per board (board A first).
    pub team1: Vec<String>,
    /// Commands of team 2, one per board.
    pub team2: Vec<String>,
    /// Games to play.
    pub games: u32,
    /// Clocks.
    pub tc: TimeControl,
    /// BPGN output.
    pub bpgn: Option<PathBuf>,
    /// House rules (UCI option name, value), sent to the engines too.
    pub house_rules: Vec<(String, String)>,
    /// Engine options (UCI option name, value) of team 1 and team 2.
    pub engine_options: [Vec<(String, String)>; 2],
    /// Two or three boards.
    pub form: Form,
    /// When captures are handed over.
    pub handover: Handover,
    /// Draw adjudication after this many moves in total.
    pub max_moves: usize,
    /// Deadline for `uciok` and `readyok` (ms).
    pub handshake_ms: u64,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The result (team 1 / team 2 of that game's seating).
    pub result: MatchResult,
    /// Did the engines of `--team1` sit on team 2's seats?
    pub swapped: bool,
    /// Points of the `--team1` engines.
    pub score: f64,
    /// Moves played.
    pub moves: usize,
    /// Partner messages relayed.
    pub ptells: usize,
}

/// The outcome of a match, from the side of the `--team1` engines.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games won by team 1's engines.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Every game.
    pub games: Vec<GameRecord>,
}

impl Summary {
    /// Score fraction of team 1's engines.
    pub fn score(&self) -> f64 {
        let n = self.games.len();
        if n == 0 {
            return 0.5;
        }
        self.games.iter().map(|g| g.score).sum::<f64>() / n as f64
    }

    /// Logistic Elo difference and the half-width of its 95% interval;
    /// infinite for 0% or 100%. With an even number of games (at least 4)
    /// the variance comes from game pairs (the same engines with seats
    /// swapped: pentanomial), otherwise from single games (trinomial).
    pub fn elo(&self) -> (f64, f64) {
        let scores: Vec<f64> = self.games.iter().map(|g| g.score).collect();
        if Self::pentanomial(scores.len()) {
            elo_with_error(&pair_scores(&scores))
        } else {
            elo_with_error(&scores)
        }
    }

    /// Which statistics [`Summary::elo`] uses for `n` games.
    pub fn pentanomial(n: usize) -> bool {
        n >= 4 && n.is_multiple_of(2)
    }
}

/// Logistic Elo of a score fraction.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The average score of each pair of consecutive games.
pub fn pair_scores(scores: &[f64]) -> Vec<f64> {
    scores
        .chunks_exact(2)
        .map(|p| (p[0] + p[1]) / 2.0)
        .collect()
}

/// Elo and the half-width of its 95% interval from per-game scores.
pub fn elo_with_error(scores: &[f64]) -> (f64, f64) {
    let n = scores.len();
    if n == 0 {
        return (0.0, f64::INFINITY);
    }
    let mean = scores.iter().sum::<f64>() / n as f64;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n as f64;
    let se = (var / n as f64).sqrt();
    let lo = (mean - 1.96 * se).clamp(0.0, 1.0);
    let hi = (mean + 1.96 * se).clamp(0.0, 1.0);
    let elo = elo_from_score(mean);
    let err = (elo_from_score(hi) - elo_from_score(lo)) / 2.0;
    (elo, if err.is_nan() { f64::INFINITY } else { err })
}

/// Formats `+12.3 +/- 45.6`.
pub fn format_elo(elo: f64, err: f64) -> String {
    let f = |v: f64| {
        if v.is_infinite() {
            if v > 0.0 {
                "inf".to_string()
            } else {
                "-inf".to_string()
            }
        } else {
            // `+ 0.0` turns -0.0 into 0.0.
            format!("{:+.1}", v + 0.0)
        }
    };
    let e = if err.is_infinite() {
        "inf".to_string()
    } else {
        format!("{err:.1}")
    };
    format!("{} +/- {e}", f(elo))
}

/// Parses `60+1`, `0.5+0` or `180` (seconds) into a time control.
pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let secs = |s: &str| -> Result<u64, String> {
        let v: f64 = s
            .trim()
            .parse()
            .map_err(|_| format!("bad time control '{text}' (use SECONDS+INC)"))?;
        if !v.is_finite() || !(0.0..=1e7).contains(&v) {
            return Err(format!("bad time control '{text}'"));
        }
        Ok((v * 1000.0).round() as u64)
    };
    let base_ms = secs(base)?;
    if base_ms == 0 {
        return Err("the base time must be positive".into());
    }
    Ok(TimeControl {
        base_ms,
        inc_ms: secs(inc)?,
    })
}

/// Splits a command line into words (whitespace, with '...' and "..." quotes).
pub fn split_command(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut has = false;
    for c in cmd.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                has = true;
            }
            None if c.is_whitespace() => {
                if has || !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            None => cur.push(c),
        }
    }
    if has || !cur.is_empty() {
        words.push(cur);
    }
    words
}

impl ArenaConfig {
    /// Builds a configuration from command-line arguments.
    pub fn from_args(a: &ArenaArgs) -> Result<ArenaConfig, String> {
        let form = match a.boards {
            2 => Form::TwoBoards,
            3 => Form::ThreeBoards,
            n => return Err(format!("--boards must be 2 or 3, not {n}")),
        };
        let n = form.boards();
        let mut team1: Vec<Option<String>> = vec![a.team1.clone(); n];
        let mut team2: Vec<Option<String>> = vec![a.team2.clone(); n];
        if form == Form::TwoBoards {
            // First game: team 1 = WhiteA + BlackB, team 2 = BlackA + WhiteB.
            for (team, board, cmd) in [
                (0, 0, &a.white_a),
                (0, 1, &a.black_b),
                (1, 0, &a.black_a),
                (1, 1, &a.white_b),
            ] {
                if cmd.is_some() {
                    let t = if team == 0 { &mut team1 } else { &mut team2 };
                    t[board] = cmd.clone();
                }
            }
        } else if a.white_a.is_some()
            || a.black_a.is_some()
            || a.white_b.is_some()
            || a.black_b.is_some()
        {
            return Err("seat commands are for two boards; use --team1/--team2".into());
        }
        let collect = |v: Vec<Option<String>>, name: &str| -> Result<Vec<String>, String> {
            v.into_iter()
                .map(|c| c.ok_or_else(|| format!("no engine command for {name} (use --{name})")))
                .collect()
        };
        let mut house_rules = Vec::new();
        let mut rules = Variant::Bughouse.rules();
        for opt in &a.options {
            let (k, v) = opt
                .split_once('=')
                .ok_or_else(|| format!("option '{opt}' is not NAME=VALUE"))?;
            set_house_rule(&mut rules, k, v)?;
            house_rules.push((k.to_string(), v.to_string()));
        }
        let pairs = |list: &[String]| -> Result<Vec<(String, String)>, String> {
            list.iter()
                .map(|opt| {
                    opt.split_once('=')
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .ok_or_else(|| format!("engine option '{opt}' is not NAME=VALUE"))
                })
                .collect()
        };
        Ok(ArenaConfig {
            engine_options: [pairs(&a.team1_options)?, pairs(&a.team2_options)?],
            team1: collect(team1, "team1")?,
            team2: collect(team2, "team2")?,
            games: a.games,
            tc: parse_tc(&a.tc)?,
            bpgn: a.bpgn.clone(),
            house_rules,
            form,
            handover: if a.handover_before_clock {
                Handover::BeforeClock
            } else {
                Handover::AfterClock
            },
            max_moves: a.max_moves.max(1),
            handshake_ms: a.handshake_ms.max(1),
        })
    }

    /// The rules of the boards.
    pub fn rules(&self) -> Result<Rules, String> {
        let mut rules = Variant::Bughouse.rules();
        for (k, v) in &self.house_rules {
            set_house_rule(&mut rules, k, v)?;
        }
        Ok(rules)
    }
}

/// `rukav arena`: runs the match and prints the summary.
pub fn main(args: ArenaArgs) -> Result<(), String> {
    let cfg = ArenaConfig::from_args(&args)?;
    let quiet = args.quiet;
    let summary = run(&cfg, &mut |line| {
        if !quiet {
            eprintln!("{line}");
        }
    })?;
    print_summary(&summary);
    Ok(())
}

/// Prints W/D/L, score and Elo with its error bar.
pub fn print_summary(s: &Summary) {
    let (elo, err) = s.elo();
    println!(
        "Team 1 vs team 2: W {} D {} L {} ({} games, score {:.1}%)",
        s.wins,
        s.draws,
        s.losses,
        s.games.len(),
        100.0 * s.score()
    );
    let model = if Summary::pentanomial(s.games.len()) {
        "pentanomial"
    } else {
        "trinomial"
    };
    println!("Elo difference: {} (95%, {model})", format_elo(elo, err));
    let ptells: usize = s.games.iter().map(|g| g.ptells).sum();
    println!(
        "Partner messages relayed: {ptells} ({:.1} per game)",
        ptells as f64 / s.games.len().max(1) as f64
    );
}

// ------------------------------------------------------------------ engines

enum Msg {
    Line(usize, u64, String),
    Eof(usize, u64),
}

struct Think {
    board: usize,
    fen: String,
}

struct Proc {
    argv: Vec<String>,
    name: String,
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    generation: u64,
    alive: bool,
    ext: bool,
    options: Vec<String>,
    thinking: Option<Think>,
}

impl Proc {
    fn send(&mut self, line: &str) -> bool {
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .is_ok();
        if !ok {
            self.alive = false;
        }
        ok
    }

    fn kill(&mut self) {
        self.stdin = None;
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        self.alive = false;
        self.thinking = None;
    }

    fn has_option(&self, name: &str) -> bool {
        let l = name.to_ascii_lowercase();
        self.options.contains(&l)
    }
}

struct Arena<'a> {
    cfg: &'a ArenaConfig,
    rules: Rules,
    procs: Vec<Proc>,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    progress: &'a mut dyn FnMut(&str),
    /// A Gambler choice asked of an engine: (process, board, deadline ms).
    gambler_wait: Option<(usize, usize, u64)>,
}

/// How long an engine may take to choose the piece of a Gambler promotion
/// (the clocks are stopped meanwhile).
const GAMBLER_CHOICE_MS: u64 = 5000;

impl Arena<'_> {
    fn boards(&self) -> usize {
        self.cfg.form.boards()
    }

    /// Process index of a seat: team index (of the `--team` flags) * boards + board.
    fn proc_of(&self, board: usize, color: Color, swapped: bool) -> usize {
        let mut team = team_of(board, color);
        if swapped {
            team = team.other();
        }
        team.index() * self.boards() + board
    }

    fn seat_of(&self, p: usize, swapped: bool) -> (usize, Color) {
        let board = p % self.boards();
        let color = if self.proc_of(board, Color::White, swapped) == p {
            Color::White
        } else {
            Color::Black
        };
        (board, color)
    }

    fn spawn(&mut self, p: usize) -> Result<(), String> {
        let argv = self.procs[p].argv.clone();
        let Some((prog, args)) = argv.split_first() else {
            return Err("empty engine command".into());
        };
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", argv.join(" ")))?;
        let stdout = child.stdout.take();
        let stdin = child.stdin.take();
        let proc = &mut self.procs[p];
        proc.generation += 1;
        let generation = proc.generation;
        let tx = self.tx.clone();
        if let Some(out) = stdout {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(out);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(Msg::Line(p, generation, line)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send(Msg::Eof(p, generation));
            });
        }
        proc.child = Some(child);
        proc.stdin = stdin;
        proc.alive = true;
        proc.ext = false;
        proc.options.clear();
        proc.thinking = None;
        Ok(())
    }

    /// Waits until every process in `ids` said `token` (or died, or the
    /// deadline passed); returns those that did not.
    fn wait_all(&mut self, ids: &[usize], token: &str, collect_options: bool) -> Vec<usize> {
        let deadline = Instant::now() + Duration::from_millis(self.cfg.handshake_ms);
        let mut missing: Vec<usize> = ids
            .iter()
            .copied()
            .filter(|&p| self.procs[p].alive)
            .collect();
        while !missing.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            match self.rx.recv_timeout(left) {
                Ok(Msg::Line(p, g, line)) => {
                    if g != self.procs[p].generation {
                        continue;
                    }
                    if collect_options {
                        if let Some(rest) = line.strip_prefix("id name ") {
                            self.procs[p].name = rest.trim().to_string();
                        }
                        if let Some(rest) = line.strip_prefix("option name ") {
                            let name = rest.split(" type ").next().unwrap_or(rest).trim();
                            self.procs[p].options.push(name.to_ascii_lowercase());
                        }
                    }
                    if line == token {
                        missing.retain(|&q| q != p);
                    }
                }
                Ok(Msg::Eof(p, g)) => {
                    if g == self.procs[p].generation {
                        self.procs[p].alive = false;
                        missing.retain(|&q| q != p);
                    }
                }
                Err(_) => break,
            }
        }
        let mut failed: Vec<usize> = missing;
        failed.extend(ids.iter().copied().filter(|&p| !self.procs[p].alive));
        failed.sort_unstable();
        failed.dedup();
        failed
    }

    /// Starts (or restarts) processes and runs the `uci` handshake and options.
    fn start(&mut self, ids: &[usize]) -> Vec<(usize, String)> {
        let mut errors = Vec::new();
        let mut started = Vec::new();
        for &p in ids {
            self.procs[p].kill();
            match self.spawn(p) {
                Ok(()) => {
                    if self.procs[p].send("uci") {
                        started.push(p);
                    } else {
                        errors.push((p, "engine closed its input".to_string()));
                    }
                }
                Err(e) => errors.push((p, e)),
            }
        }
        for p in self.wait_all(&started, "uciok", true) {
            errors.push((p, "no 'uciok' (engine did not start as UCI)".into()));
            self.procs[p].kill();
        }
        for &p in &started {
            if !self.procs[p].alive {
                continue;
            }
            let mut lines = Vec::new();
            if self.procs[p].has_option("UCI_Variant") {
                lines.push("setoption name UCI_Variant value bughouse".to_string());
            }
            for (k, v) in &self.cfg.house_rules {
                if self.procs[p].has_option(k) {
                    lines.push(format!("setoption name {k} value {v}"));
                }
            }
            if self.procs[p].has_option("UCI_Bughouse") {
                lines.push("setoption name UCI_Bughouse value true".to_string());
                self.procs[p].ext = true;
            }
            let team = usize::from(p >= self.cfg.team1.len());
            for (k, v) in &self.cfg.engine_options[team] {
                if self.procs[p].has_option(k) {
                    lines.push(format!("setoption name {k} value {v}"));
                } else {
                    eprintln!(
                        "arena: {} has no option '{k}'; not sent",
                        self.procs[p].name
                    );
                }
            }
            for l in lines {
                self.procs[p].send(&l);
            }
        }
        errors
    }

    /// Before a game: `ucinewgame` and `isready`; unresponsive or dead
    /// engines are restarted. Returns the processes that could not be made ready.
    fn prepare(&mut self) -> Vec<(usize, String)> {
        let all: Vec<usize> = (0..self.procs.len()).collect();
        let dead: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&p| !self.procs[p].alive)
            .collect();
        let mut errors = self.start(&dead);
        let live: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&p| self.procs[p].alive)
            .collect();
        for &p in &live {
            self.procs[p].thinking = None;
            self.procs[p].send("ucinewgame");
            self.procs[p].send("isready");
        }
        let stuck = self.wait_all(&live, "readyok", false);
        if !stuck.is_empty() {
            let restarted = self.start(&stuck);
            let ok: Vec<usize> = stuck
                .iter()
                .copied()
                .filter(|&p| self.procs[p].alive)
                .collect();
            for &p in &ok {
                self.procs[p].send("ucinewgame");
                self.procs[p].send("isready");
            }
            for p in self.wait_all(&ok, "readyok", false) {
                errors.push((p, "no 'readyok'".into()));
                self.procs[p].kill();
            }
            errors.extend(restarted);
        }
        errors.sort_by_key(|e| e.0);
        errors.dedup_by_key(|e| e.0);
        errors
    }

    fn seat_label(&self, p: usize, swapped: bool) -> String {
        let (b, c) = self.seat_of(p, swapped);
        format!("{} ({})", seat_name(b, c), self.procs[p].name)
    }

    /// Sends the position (and extension data) and `go` to the engine on move.
    fn start_search(&mut self, game: &Game, board: usize, swapped: bool, now: u64) {
        let c = game.to_move(board);
        let p = self.proc_of(board, c, swapped);
        let fen = game.position(board).fen();
        let clock = |b: usize, c: Color| game.clock_ms(b, c, now).max(1);
        let inc = self.cfg.tc.inc_ms;
        let mut lines = vec![format!("position fen {fen}")];
        if self.procs[p].ext {
            let partners = game.partner_boards(board);
            for (i, &pb) in partners.iter().enumerate() {
                let add = if i == 0 { "" } else { "add " };
                lines.push(format!(
                    "bughouse partner {add}fen {}",
                    game.position(pb).fen()
                ));
            }
            if let Some(&pb) = partners.first() {
                lines.push(format!(
                    "bughouse clocks {} {} {} {}",
                    clock(board, Color::White),
                    clock(board, Color::Black),
                    clock(pb, Color::White),
                    clock(pb, Color::Black)
                ));
            }
        }
        lines.push(format!(
            "go wtime {} btime {} winc {inc} binc {inc}",
            clock(board, Color::White),
            clock(board, Color::Black)
        ));
        for l in &lines {
            if !self.procs[p].send(l) {
                break;
            }
        }
        self.procs[p].thinking = Some(Think { board, fen });
    }

    fn play_game(&mut self, swapped: bool) -> (Game, usize) {
        let mut settings = Settings::new(self.rules);
        settings.form = self.cfg.form;
        settings.time = Some(self.cfg.tc);
        settings.handover = self.cfg.handover;
        let mut game = Game::new(settings);
        let mut ptells = 0;
        self.gambler_wait = None;
        let errors = self.prepare();
        if !errors.is_empty() {
            // Engines that cannot play lose the game for their team.
            let mut losing = [false; 2];
            let mut texts = Vec::new();
            for (p, e) in &errors {
                let (b, c) = self.seat_of(*p, swapped);
                losing[team_of(b, c).index()] = true;
                texts.push(format!("{}: {e}", self.seat_label(*p, swapped)));
            }
            let reason = texts.join("; ");
            if losing[0] && losing[1] {
                game.draw(format!("no game: {reason}"), 0);
            } else {
                let (p, _) = errors[0];
                let (b, c) = self.seat_of(p, swapped);
                game.forfeit(b, c, reason, 0);
            }
            return (game, 0);
        }
        let start = Instant::now();
        let now = |s: &Instant| s.elapsed().as_millis() as u64;
        loop {
            if game.is_over() {
                break;
            }
            let t = now(&start);
            if game.plies() >= self.cfg.max_moves {
                game.draw(
                    format!("adjudicated a draw after {} moves", game.plies()),
                    t,
                );
                break;
            }
            if let Some(g) = game.gambler_pending().copied() {
                if let Some((p, b, deadline)) = self.gambler_wait {
                    if t >= deadline {
                        let label = self.seat_label(p, swapped);
                        let reason = format!("{label} chose no piece for the Gambler promotion");
                        game.forfeit(b, g.color.flip(), reason, t);
                        self.gambler_wait = None;
                        continue;
                    }
                } else {
                    match game.default_gambler_choice() {
                        Some((b, sq)) => {
                            // The partner of the promoting player chooses:
                            // an engine with the extension is asked, for
                            // others the arena takes the most valuable piece.
                            let p = self.proc_of(b, g.color.flip(), swapped);
                            let fen = game.position(b).fen();
                            let side = if g.color.flip().is_white() {
                                "white"
                            } else {
                                "black"
                            };
                            if self.procs[p].ext
                                && self.procs[p].alive
                                && self.procs[p].send(&format!("bughouse gambler {side} {fen}"))
                            {
                                self.gambler_wait = Some((p, b, t + GAMBLER_CHOICE_MS));
                            } else {
                                match game.complete_gambler(b, sq, t) {
                                    Ok(r) => self.after_change(&game, &r, swapped),
                                    Err(e) => {
                                        game.draw(format!("arena error: {e}"), t);
                                    }
                                }
                                continue;
                            }
                        }
                        None => {
                            game.draw("arena error: no Gambler choice".into(), t);
                            continue;
                        }
                    }
                }
            }
            let paused = self.gambler_wait.is_some();
            for b in 0..game.board_count() {
                if paused || !game.is_live(b) || game.waiting(b) {
                    continue;
                }
                let c = game.to_move(b);
                let p = self.proc_of(b, c, swapped);
                if self.procs[p].thinking.is_none() {
                    if !self.procs[p].alive {
                        let r = format!("{} crashed (not running)", self.seat_label(p, swapped));
                        game.forfeit(b, c, r, t);
                        break;
                    }
                    self.start_search(&game, b, swapped, t);
                }
            }
            if game.is_over() {
                break;
            }
            let t = now(&start);
            let wait = game
                .next_flag_ms()
                .map_or(1000, |f| f.saturating_sub(t) + 1)
                .min(1000);
            match self.rx.recv_timeout(Duration::from_millis(wait)) {
                Ok(msg) => {
                    let t = now(&start);
                    ptells += self.handle(&mut game, msg, swapped, t);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    game.draw("arena error: engine channel closed".into(), now(&start));
                }
            }
            let r = game.tick(now(&start));
            self.after_change(&game, &r, swapped);
        }
        // Searches still running are stopped; their answers are dropped.
        for proc in &mut self.procs {
            if proc.thinking.take().is_some() {
                proc.send("stop");
            }
        }
        (game, ptells)
    }

    /// Tells engines about a change (pockets during their search, boards that left play).
    fn after_change(&mut self, game: &Game, r: &Report, swapped: bool) {
        for &b in &r.pockets {
            if !game.is_live(b) {
                continue;
            }
            let p = self.proc_of(b, game.to_move(b), swapped);
            let thinking_here = self.procs[p]
                .thinking
                .as_ref()
                .is_some_and(|t| t.board == b);
            if thinking_here && self.procs[p].ext {
                let holding = game.position(b).pocket_string();
                let holding = if holding.is_empty() {
                    "-".into()
                } else {
                    holding
                };
                self.procs[p].send(&format!("bughouse holding {holding}"));
            }
        }
        for &b in &r.left_play {
            for c in Color::ALL {
                let p = self.proc_of(b, c, swapped);
                if self.procs[p].thinking.take().is_some() {
                    self.procs[p].send("stop");
                }
            }
        }
    }

    /// Handles one engine line during a game; returns the number of relayed ptells.
    fn handle(&mut self, game: &mut Game, msg: Msg, swapped: bool, now: u64) -> usize {
        match msg {
            Msg::Eof(p, g) => {
                if g != self.procs[p].generation {
                    return 0;
                }
                self.procs[p].alive = false;
                self.procs[p].thinking = None;
                let (b, c) = self.seat_of(p, swapped);
                if game.is_live(b) {
                    let reason = format!("{} crashed (exited)", self.seat_label(p, swapped));
                    game.forfeit(b, c, reason, now);
                }
                0
            }
            Msg::Line(p, g, line) => {
                if g != self.procs[p].generation {
                    return 0;
                }
                if let Some(text) = line.strip_prefix("info string ptell ") {
                    return self.relay(p, text.trim(), swapped);
                }
                if let Some(text) = line.strip_prefix("info string gambler ") {
                    self.gambler_answer(game, p, text.trim(), swapped, now);
                    return 0;
                }
                let mut words = line.split_whitespace();
                if words.next() != Some("bestmove") {
                    return 0;
                }
                let answer = words.next().unwrap_or("").to_string();
                let Some(think) = self.procs[p].thinking.take() else {
                    return 0;
                };
                if game.is_over() {
                    return 0;
                }
                let b = think.board;
                let pos = *game.position(b);
                let label = self.seat_label(p, swapped);
                let c = pos.side_to_move();
                match pos.parse_uci_move(&answer) {
                    Ok(mv) => match game.play(b, mv, now) {
                        Ok(r) => self.after_change(game, &r, swapped),
                        Err(super::PlayError::Illegal(e)) => {
                            game.forfeit(b, c, format!("{label} played an illegal move: {e}"), now);
                        }
                        Err(_) => {}
                    },
                    Err(_) => {
                        let was_legal = Position::from_fen(&think.fen, self.rules)
                            .ok()
                            .is_some_and(|sent| sent.parse_uci_move(&answer).is_ok());
                        if !was_legal {
                            let what =
                                if answer.is_empty() || answer == "(none)" || answer == "0000" {
                                    format!("{label} returned no move ('{line}')")
                                } else {
                                    format!("{label} played an illegal move {answer}")
                                };
                            game.forfeit(b, c, what, now);
                        }
                        // Otherwise the board changed under the engine: it is asked again.
                    }
                }
                0
            }
        }
    }

    /// An engine's answer to `bughouse gambler`: the square of the piece it
    /// takes. A square that may not be taken loses the game for its team.
    fn gambler_answer(&mut self, game: &mut Game, p: usize, text: &str, swapped: bool, now: u64) {
        let Some((asked, b, _)) = self.gambler_wait else {
            return;
        };
        let Some(g) = game.gambler_pending().copied() else {
            self.gambler_wait = None;
            return;
        };
        if asked != p {
            return;
        }
        self.gambler_wait = None;
        let label = self.seat_label(p, swapped);
        let result = crate::types::Square::parse(text)
            .ok_or_else(|| format!("'{text}' is not a square"))
            .and_then(|sq| game.complete_gambler(b, sq, now).map_err(|e| e.to_string()));
        match result {
            Ok(r) => self.after_change(game, &r, swapped),
            Err(e) => {
                let reason = format!("{label} made an illegal Gambler choice: {e}");
                game.forfeit(b, g.color.flip(), reason, now);
            }
        }
    }

    /// Relays a partner message to the team mates that speak the extension.
    fn relay(&mut self, from: usize, text: &str, swapped: bool) -> usize {
        let (b, c) = self.seat_of(from, swapped);
        let team: Team = team_of(b, c);
        let mut n = 0;
        let text: String = text
            .chars()
            .filter(|ch| !ch.is_control())
            .take(200)
            .collect();
        for p in 0..self.procs.len() {
            if p == from {
                continue;
            }
            let (pb, pc) = self.seat_of(p, swapped);
            if team_of(pb, pc) == team && self.procs[p].ext && self.procs[p].alive {
                self.procs[p].send(&format!("bughouse ptell {text}"));
                n += 1;
            }
        }
        n
    }

    fn quit_all(&mut self) {
        for p in &mut self.procs {
            p.send("quit");
            p.stdin = None;
        }
        let deadline = Instant::now() + Duration::from_millis(1000);
        for p in &mut self.procs {
            if let Some(child) = p.child.as_mut() {
                loop {
                    match child.try_wait() {
                        Ok(Some(_)) | Err(_) => break,
                        Ok(None) if Instant::now() < deadline => {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                        Ok(None) => {
                            let _ = child.kill();
                            let _ = child.wait();
                            break;
                        }
                    }
                }
            }
            p.child = None;
            p.alive = false;
        }
    }
}

fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = (secs / 86400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn tc_string(tc: &TimeControl) -> String {
    let s = |ms: u64| {
        if ms.is_multiple_of(1000) {
            format!("{}", ms / 1000)
        } else {
            format!("{}", ms as f64 / 1000.0)
        }
    };
    format!("{}+{}", s(tc.base_ms), s(tc.inc_ms))
}

/// Runs a match; `progress` receives one line per game (and setup messages).
pub fn run(cfg: &ArenaConfig, progress: &mut dyn FnMut(&str)) -> Result<Summary, String> {
    let n = cfg.form.boards();
    if cfg.team1.len() != n || cfg.team2.len() != n {
        return Err(format!("each team needs {n} engine commands"));
    }
    let rules = cfg.rules()?;
    let (tx, rx) = channel();
    let procs = cfg
        .team1
        .iter()
        .chain(cfg.team2.iter())
        .map(|cmd| Proc {
            argv: split_command(cmd),
            name: cmd.clone(),
            child: None,
            stdin: None,
            generation: 0,
            alive: false,
            ext: false,
            options: Vec::new(),
            thinking: None,
        })
        .collect();
    let mut arena = Arena {
        cfg,
        rules,
        procs,
        tx,
        rx,
        progress,
        gambler_wait: None,
    };
    let all: Vec<usize> = (0..arena.procs.len()).collect();
    let errors = arena.start(&all);
    if let Some((p, e)) = errors.first() {
        arena.quit_all();
        return Err(format!("engine '{}': {e}", cfg_cmd(cfg, *p)));
    }
    for p in 0..arena.procs.len() {
        let label = if p < n { "team 1" } else { "team 2" };
        let line = format!(
            "{label} board {}: {}{}",
            super::board_letter(p % n),
            arena.procs[p].name,
            if arena.procs[p].ext {
                " (bughouse extension)"
            } else {
                ""
            }
        );
        (arena.progress)(&line);
    }
    let mut file = match &cfg.bpgn {
        Some(path) => {
            Some(std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let mut summary = Summary::default();
    for g in 0..cfg.games {
        let swapped = g % 2 == 1;
        let (game, ptells) = arena.play_game(swapped);
        let result = game.result().cloned().unwrap_or(MatchResult {
            winner: None,
            reason: "unfinished".into(),
        });
        let mut score = result.team1_score();
        if swapped {
            score = 1.0 - score;
        }
        if score > 0.75 {
            summary.wins += 1;
        } else if score < 0.25 {
            summary.losses += 1;
        } else {
            summary.draws += 1;
        }
        if let Some(f) = file.as_mut() {
            let mut tags = vec![
                ("Event".to_string(), "Rukav arena".to_string()),
                ("Site".to_string(), "local".to_string()),
                ("Date".to_string(), today()),
                ("Round".to_string(), (g + 1).to_string()),
            ];
            for b in 0..n {
                for c in Color::ALL {
                    let p = arena.proc_of(b, c, swapped);
                    tags.push((seat_name(b, c), arena.procs[p].name.clone()));
                }
            }
            if n == 3 {
                tags.push(("Boards".into(), "3".into()));
            }
            tags.push(("Variant".into(), "bughouse".into()));
            tags.push(("TimeControl".into(), tc_string(&cfg.tc)));
            if !cfg.house_rules.is_empty() {
                let h: Vec<String> = cfg
                    .house_rules
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                tags.push(("HouseRules".into(), h.join(" ")));
            }
            let text = bpgn::write_game(&tags, &game);
            f.write_all(text.as_bytes())
                .and_then(|_| f.flush())
                .map_err(|e| format!("writing BPGN: {e}"))?;
        }
        let scores: Vec<f64> = summary
            .games
            .iter()
            .map(|r: &GameRecord| r.score)
            .chain(std::iter::once(score))
            .collect();
        let (elo, err) = if Summary::pentanomial(scores.len()) {
            elo_with_error(&pair_scores(&scores))
        } else {
            elo_with_error(&scores)
        };
        let line = format!(
            "game {}/{}{}: {} {} ({} moves) | team 1 W {} D {} L {} | Elo {}",
            g + 1,
            cfg.games,
            if swapped {
                " (teams swapped seats)"
            } else {
                ""
            },
            result.result_str(),
            result.reason,
            game.plies(),
            summary.wins,
            summary.draws,
            summary.losses,
            format_elo(elo, err)
        );
        (arena.progress)(&line);
        summary.games.push(GameRecord {
            result,
            swapped,
            score,
            moves: game.plies(),
            ptells,
        });
    }
    arena.quit_all();
    Ok(summary)
}

fn cfg_cmd(cfg: &ArenaConfig, p: usize) -> String {
    cfg.team1
        .iter()
        .chain(cfg.team2.iter())
        .nth(p)
        .cloned()
        .unwrap_or_default()
}
