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
//! timeout until the next clock would reach zero.
//!
//! With `--concurrency N` there are N such game slots, each a thread with
//! its own engine processes and its own channel; a slot takes the next game
//! index from a shared counter, so no engine process is ever in two games.
//! The game index alone decides the seating (who is swapped), and finished
//! games are recorded in index order (the BPGN file, the game lines, the
//! running totals): the output is that of a sequential match. Clocks are the model's
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

use self::engines::{Msg, Proc};
pub use self::talk::TalkStats;
use self::talk::{talk_lines, TalkLog};
use super::bpgn;
use super::elo::{elo_with_error, format_elo, pair_scores};
use super::progress::Progress;
use rukav::bughouse::{board_letter, seat_name, Form, Game, Handover, MatchResult, TimeControl};
use rukav::protocol::options::apply_rules_option;
use rukav::{Color, Rules, Variant};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};

mod engines;
mod game;
mod talk;
#[cfg(test)]
mod tests;

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
    /// Games played at the same time (1 to 256), each with its own engine
    /// processes; results and BPGN stay in game order.
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_CONCURRENCY)))]
    pub concurrency: u32,
    /// Print no progress lines.
    #[arg(long)]
    pub quiet: bool,
}

/// The most games `--concurrency` lets run at the same time.
pub const MAX_CONCURRENCY: u32 = 256;

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
    /// Games played at the same time (1 to [`MAX_CONCURRENCY`]), each slot
    /// with its own engine processes.
    pub concurrency: u32,
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
    /// What the engines of `--team1` and `--team2` said and did for each other.
    pub talk: [TalkStats; 2],
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

/// Accepts 1 to [`MAX_CONCURRENCY`] games at a time.
pub fn check_concurrency(n: u32) -> Result<(), String> {
    if (1..=MAX_CONCURRENCY).contains(&n) {
        Ok(())
    } else {
        Err(format!(
            "--concurrency must be 1 to {MAX_CONCURRENCY} (games at the same time), not {n}"
        ))
    }
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
            apply_rules_option(&mut rules, k, v).map_err(|e| e.to_string())?;
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
        check_concurrency(a.concurrency)?;
        Ok(ArenaConfig {
            concurrency: a.concurrency,
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
            apply_rules_option(&mut rules, k, v).map_err(|e| e.to_string())?;
        }
        Ok(rules)
    }
}

/// What a running match reports.
pub enum Update<'a> {
    /// A setup message (which engine plays where).
    Note(&'a str),
    /// A game ended: games played so far and the game's line.
    Game(u32, &'a str),
}

impl Update<'_> {
    /// The text of the update.
    pub fn line(&self) -> &str {
        match self {
            Update::Note(l) | Update::Game(_, l) => l,
        }
    }
}

/// `rukav arena`: runs the match and prints the summary.
pub fn main(args: ArenaArgs) -> Result<(), String> {
    let cfg = ArenaConfig::from_args(&args)?;
    let quiet = args.quiet;
    let mut bar = Progress::new("games", 0, u64::from(cfg.games));
    let summary = run(&cfg, &mut |update| {
        if quiet {
            return;
        }
        bar.println(update.line());
        if let Update::Game(played, _) = update {
            bar.update(u64::from(played), "");
        }
    })?;
    bar.finish();
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
    let games = s.games.len().max(1) as f64;
    println!(
        "Partner messages relayed: {ptells} ({:.1} per game)",
        ptells as f64 / games
    );
    let mut talk = [TalkStats::default(); 2];
    for g in &s.games {
        for (total, t) in talk.iter_mut().zip(&g.talk) {
            total.add(t);
        }
    }
    for line in talk_lines(&talk, s.games.len()) {
        println!("{line}");
    }
    let moves: usize = s.games.iter().map(|g| g.moves).sum();
    let swapped = s.games.iter().filter(|g| g.swapped).count();
    println!(
        "Moves per game: {:.1}; team 1's engines sat on team 2's seats in {swapped} games",
        moves as f64 / games
    );
    let mut endings: Vec<(String, usize)> = Vec::new();
    for g in &s.games {
        let kind = ending_kind(&g.result.reason);
        match endings.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => endings.push((kind, 1)),
        }
    }
    let endings: Vec<String> = endings.iter().map(|(k, n)| format!("{k}: {n}")).collect();
    println!("Endings: {}", endings.join("; "));
}

/// A game's ending without seat and engine names (`WhiteB checkmated` and
/// `BlackA checkmated` are both `checkmated`), for counting.
fn ending_kind(reason: &str) -> String {
    let mut plain = String::new();
    let mut depth = 0usize;
    for c in reason.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let plain = plain.split(':').next().unwrap_or_default();
    let words: Vec<&str> = plain
        .split_whitespace()
        .filter(|w| {
            !["White", "Black"]
                .iter()
                .any(|c| w.strip_prefix(c).is_some_and(|b| b.len() == 1))
        })
        .collect();
    words.join(" ")
}

struct Arena<'a> {
    cfg: &'a ArenaConfig,
    rules: Rules,
    procs: Vec<Proc>,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    /// A Gambler choice asked of an engine: (process, board, deadline ms).
    gambler_wait: Option<(usize, usize, u64)>,
    /// The game slot (0 up to the concurrency); only slot 0 warns about
    /// engine options, which are the same in every slot.
    slot: usize,
    /// The talk of the game being played.
    talk: TalkLog,
}

impl<'a> Arena<'a> {
    /// A game slot with its own (not yet started) engine processes.
    fn new(cfg: &'a ArenaConfig, rules: Rules, slot: usize) -> Arena<'a> {
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
        Arena {
            cfg,
            rules,
            procs,
            tx,
            rx,
            gambler_wait: None,
            slot,
            talk: TalkLog::default(),
        }
    }

    /// Plays game `index` (0-based; odd games have the seats swapped).
    fn play_indexed(&mut self, index: u64) -> Played {
        let swapped = index % 2 == 1;
        let (game, ptells) = self.play_game(swapped);
        // Taking the log leaves a fresh one for the next game.
        let talk = std::mem::take(&mut self.talk).stats;
        let mut seats = Vec::new();
        for b in 0..self.boards() {
            for c in Color::ALL {
                let p = self.proc_of(b, c, swapped);
                seats.push((seat_name(b, c), self.procs[p].name.clone()));
            }
        }
        Played {
            index,
            swapped,
            game,
            ptells,
            talk,
            seats,
        }
    }

    /// The team (0 for `--team1`, 1 for `--team2`) of engine process `p`.
    fn engine_team(&self, p: usize) -> usize {
        usize::from(p >= self.cfg.team1.len())
    }
}

/// A game a slot finished, on its way to be recorded in game order.
struct Played {
    index: u64,
    swapped: bool,
    game: Game,
    ptells: usize,
    talk: [TalkStats; 2],
    /// Seat tags (`WhiteA`, engine name), board by board.
    seats: Vec<(String, String)>,
}

/// How long an engine may take to choose the piece of a Gambler promotion
/// (the clocks are stopped meanwhile).
const GAMBLER_CHOICE_MS: u64 = 5000;

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

/// Runs a match; `progress` receives one update per game (and setup
/// messages), always in game order, also when several games are played at
/// the same time (`cfg.concurrency`).
pub fn run(cfg: &ArenaConfig, progress: &mut dyn FnMut(Update)) -> Result<Summary, String> {
    let n = cfg.form.boards();
    if cfg.team1.len() != n || cfg.team2.len() != n {
        return Err(format!("each team needs {n} engine commands"));
    }
    check_concurrency(cfg.concurrency)?;
    let rules = cfg.rules()?;
    // No more slots than games (but one, to check the engines of an empty match).
    let slots = (cfg.concurrency as usize).min(cfg.games as usize).max(1);
    let mut arenas: Vec<Arena> = (0..slots).map(|s| Arena::new(cfg, rules, s)).collect();
    // Every slot starts its engines at once; the handshakes overlap.
    let errors: Vec<Vec<(usize, String)>> = std::thread::scope(|s| {
        let handles: Vec<_> = arenas
            .iter_mut()
            .map(|arena| {
                s.spawn(move || {
                    let all: Vec<usize> = (0..arena.procs.len()).collect();
                    arena.start(&all)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    if let Some((p, e)) = errors.iter().flatten().next() {
        let message = format!("engine '{}': {e}", cfg_cmd(cfg, *p));
        for arena in &mut arenas {
            arena.quit_all();
        }
        return Err(message);
    }
    let first = &arenas[0];
    for p in 0..first.procs.len() {
        let label = if p < n { "team 1" } else { "team 2" };
        let line = format!(
            "{label} board {}: {}{}",
            board_letter(p % n),
            first.procs[p].name,
            if first.procs[p].ext {
                " (bughouse extension)"
            } else {
                ""
            }
        );
        progress(Update::Note(&line));
    }
    if slots > 1 {
        let line = format!(
            "{slots} games at a time, each with its own {} engine processes",
            2 * n
        );
        progress(Update::Note(&line));
    }
    let file = match &cfg.bpgn {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some(f),
            Err(e) => {
                for arena in &mut arenas {
                    arena.quit_all();
                }
                return Err(format!("{}: {e}", path.display()));
            }
        },
        None => None,
    };
    let mut recorder = Recorder {
        cfg,
        file,
        summary: Summary::default(),
    };
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let outcome = std::thread::scope(|s| {
        let (done_tx, done_rx) = channel::<Played>();
        for mut arena in arenas {
            let done_tx = done_tx.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= u64::from(cfg.games) {
                        break;
                    }
                    if done_tx.send(arena.play_indexed(index)).is_err() {
                        break;
                    }
                }
                arena.quit_all();
            });
        }
        drop(done_tx);
        // Games finish in any order; they are recorded in index order.
        let mut waiting: BTreeMap<u64, Played> = BTreeMap::new();
        let mut want = 0u64;
        for played in done_rx {
            waiting.insert(played.index, played);
            while let Some(played) = waiting.remove(&want) {
                if let Err(e) = recorder.record(played, progress) {
                    // Slots finish the game they play and take no other.
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                want += 1;
            }
        }
        Ok(())
    });
    outcome.map(|()| recorder.summary)
}

/// Records finished games in order: totals, the BPGN file, the game line.
struct Recorder<'a> {
    cfg: &'a ArenaConfig,
    file: Option<std::fs::File>,
    summary: Summary,
}

impl Recorder<'_> {
    fn record(&mut self, played: Played, progress: &mut dyn FnMut(Update)) -> Result<(), String> {
        let cfg = self.cfg;
        let Played {
            index,
            swapped,
            game,
            ptells,
            talk,
            seats,
        } = played;
        let summary = &mut self.summary;
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
        if let Some(f) = self.file.as_mut() {
            let mut tags = vec![
                ("Event".to_string(), "Rukav arena".to_string()),
                ("Site".to_string(), "local".to_string()),
                ("Date".to_string(), today()),
                ("Round".to_string(), (index + 1).to_string()),
            ];
            tags.extend(seats);
            if cfg.form.boards() == 3 {
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
            index + 1,
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
        progress(Update::Game(summary.games.len() as u32 + 1, &line));
        summary.games.push(GameRecord {
            result,
            swapped,
            score,
            moves: game.plies(),
            ptells,
            talk,
        });
        Ok(())
    }
}

fn cfg_cmd(cfg: &ArenaConfig, p: usize) -> String {
    cfg.team1
        .iter()
        .chain(cfg.team2.iter())
        .nth(p)
        .cloned()
        .unwrap_or_default()
}
