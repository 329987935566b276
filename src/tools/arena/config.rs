//! From the command line to a match: the arguments of `rukav arena`, the
//! checked configuration built from them, and the parsing of time controls,
//! house rules, engine options and engine command lines.

use rukav::bughouse::{Form, Handover, TimeControl};
use rukav::protocol::options::apply_rules_option;
use rukav::{Rules, Variant};
use std::path::PathBuf;

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

/// The command of engine process `p` (team 1's, board A first, then team 2's).
pub(super) fn cfg_cmd(cfg: &ArenaConfig, p: usize) -> String {
    cfg.team1
        .iter()
        .chain(cfg.team2.iter())
        .nth(p)
        .cloned()
        .unwrap_or_default()
}
