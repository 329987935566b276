//! Self-play data generation (`rukav datagen`): games played by the engine
//! against itself, their quiet positions (in antichess, giveaway and suicide all of
//! them) written as [`Record`]s in game order, reproducible byte for byte,
//! resumable from a progress file.
//!
//! Bughouse games are whole two-board games with Rukav on all four seats,
//! scheduled by simulated clocks ([`bughouse`] describes the rules).

use super::gamelog::GameLog;
use super::out::{Out, ToolError};
use super::progress::Progress;
use super::record::Record;
use rukav::engine::Engine;
use rukav::rng::Rng;
use rukav::search::{Limits, MATE_BOUND};
use rukav::{Color, Move, Outcome, Position, Variant};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// The opening of one game: a book position or the start position, then the
/// random plies, drawn again while the engine judges it lost for one side.
/// Returns the book (or start) position and the random plies played from
/// it; `None` when no acceptable opening was found.
fn opening(
    cfg: &DatagenConfig,
    rng: &mut Rng,
    engine: &mut Engine,
) -> Option<(Position, Vec<Move>)> {
    let rules = cfg.rules;
    'draw: for _ in 0..OPENING_TRIES {
        let base = if cfg.openings.is_empty() {
            Position::start_with(rules)
        } else {
            let fen = &cfg.openings[rng.below(cfg.openings.len())];
            Position::from_fen(fen, rules).unwrap_or_else(|_| Position::start_with(rules))
        };
        let mut pos = base;
        let plies = cfg.random_plies + (rng.below(2) as u32);
        let mut played = Vec::with_capacity(plies as usize);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                continue 'draw;
            }
            let m = moves[rng.below(moves.len())];
            played.push(m);
            pos.make_move(m);
        }
        if pos.outcome().is_some() || !pos.has_legal_move() {
            continue;
        }
        let Some(limit) = cfg.opening_limit else {
            return Some((base, played));
        };
        if opening_score(engine, pos, cfg.opening_nodes).abs() <= limit {
            return Some((base, played));
        }
    }
    None
}

/// Plays one self-play game; `None` when no acceptable opening was found.
fn play_game(cfg: &DatagenConfig, rng: &mut Rng, engine: &mut Engine) -> Option<GameLog> {
    let (base, opening) = opening(cfg, rng, engine)?;
    let mut log = GameLog {
        base,
        opening,
        result: 1,
        plies: Vec::new(),
    };
    let start = log.start();
    engine.new_game();
    engine.set_position(start, Vec::new());
    let mut keys = vec![start.key()];
    let mut winning_streak = 0i32;
    let result: u8;
    loop {
        let pos = *engine.position();
        if let Some(o) = pos.outcome() {
            result = match o {
                Outcome::Win { winner, .. } => {
                    if winner == Color::White {
                        2
                    } else {
                        0
                    }
                }
                Outcome::Draw { .. } => 1,
            };
            break;
        }
        if rukav::position::outcome::is_repetition(&keys, pos.halfmove_clock() as usize, 3)
            || keys.len() > 400
        {
            result = 1;
            break;
        }
        if !pos.has_legal_move() {
            // No move and no outcome (a board waiting for a piece, which
            // single-board games never get): count it as lost.
            result = if pos.side_to_move() == Color::White {
                0
            } else {
                2
            };
            break;
        }
        let r = engine.search_sync(
            Limits {
                nodes: Some(cfg.nodes),
                multipv: 1,
                ..Limits::default()
            },
            &|_| {},
        );
        if r.best.is_null() {
            result = 1;
            break;
        }
        let white_score = r.score * pos.side_to_move().sign();
        // Adjudicate decided games: mate found, or a big score held for 8 plies.
        if r.score.abs() >= MATE_BOUND {
            result = if white_score > 0 { 2 } else { 0 };
            break;
        }
        if white_score.abs() > 1500 {
            winning_streak = if white_score.signum() == winning_streak.signum() {
                winning_streak + white_score.signum()
            } else {
                white_score.signum()
            };
            if winning_streak.abs() >= 8 {
                result = if winning_streak > 0 { 2 } else { 0 };
                break;
            }
        } else {
            winning_streak = 0;
        }
        log.plies.push((r.best, r.score));
        engine.play(r.best);
        keys.push(engine.position().key());
    }
    log.result = result;
    Some(log)
}

/// The bytes of a game's records, and how many records that is.
fn record_bytes(records: &[Record]) -> (Vec<u8>, u64) {
    (
        records.iter().flat_map(|r| r.bytes).collect(),
        records.len() as u64,
    )
}

/// What one game writes in the run's format, and how many positions
/// (records) that is.
fn game_bytes(format: DataFormat, log: Option<GameLog>) -> std::io::Result<(Vec<u8>, u64)> {
    let Some(log) = log else {
        return Ok((Vec::new(), 0));
    };
    let (record_bytes, positions) = record_bytes(&log.records());
    match format {
        DataFormat::Records => Ok((record_bytes, positions)),
        DataFormat::Games => {
            let mut bytes = Vec::new();
            log.encode(&mut bytes).map_err(std::io::Error::other)?;
            Ok((bytes, positions))
        }
    }
}

/// Games finished out of order, held until every game before them is written.
struct InOrder {
    /// Finished games by index: their bytes and positions.
    pending: std::collections::BTreeMap<u64, (Vec<u8>, u64)>,
    /// The next game index to write.
    next: u64,
    /// Bytes written so far by this run.
    bytes: u64,
    /// Positions (records) written so far by this run.
    positions: u64,
}

/// Runs data generation: plays games `cfg.first_game .. cfg.games` and
/// appends their records to `out` in game order, so a run is reproducible
/// byte for byte whatever the thread count (each game has its own seed and
/// its own cleared hash table, and a node budget, not time, ends each search).
/// `checkpoint` receives (next game index, bytes written by this run,
/// positions written by this run) after each write, which is what a resumed
/// run and a progress report need; `stop` ends the run after the games
/// under way. In [`DataFormat::Games`] a game is its [`GameLog`], which
/// `rukav unpack` turns into the records the other format writes.
/// Returns (games written, positions written).
pub fn run(
    cfg: &DatagenConfig,
    out: &mut (dyn Write + Send),
    stop: &AtomicBool,
    checkpoint: &(dyn Fn(u64, u64, u64) + Sync),
) -> std::io::Result<(u64, u64)> {
    let next_index = AtomicU64::new(cfg.first_game);
    let written = Mutex::new((
        out,
        InOrder {
            pending: std::collections::BTreeMap::new(),
            next: cfg.first_game,
            bytes: 0,
            positions: 0,
        },
    ));
    let error: Mutex<Option<std::io::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            let next_index = &next_index;
            let written = &written;
            let error = &error;
            scope.spawn(move || {
                // One engine per board: two for bughouse.
                let boards = if cfg.rules.two_boards { 2 } else { 1 };
                let mut engines: Vec<Engine> = (0..boards)
                    .map(|_| {
                        let mut engine = Engine::new();
                        engine.set_rules(cfg.rules);
                        engine
                    })
                    .collect();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next_index.fetch_add(1, Ordering::Relaxed);
                    if index >= cfg.games {
                        break;
                    }
                    let mut rng = Rng::for_index(cfg.seed, index);
                    let game = if cfg.rules.two_boards {
                        // Two-board games have records only (main refuses games).
                        Ok(record_bytes(&bughouse::play_game(
                            cfg,
                            &mut rng,
                            &mut engines,
                        )))
                    } else {
                        game_bytes(cfg.format, play_game(cfg, &mut rng, &mut engines[0]))
                    };
                    let game = match game {
                        Ok(game) => game,
                        Err(e) => {
                            if let Ok(mut slot) = error.lock() {
                                *slot = Some(e);
                            }
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    };
                    let Ok(mut guard) = written.lock() else {
                        break;
                    };
                    let (out, order) = &mut *guard;
                    order.pending.insert(index, game);
                    let before = order.next;
                    while let Some((bytes, positions)) = order.pending.remove(&order.next) {
                        if let Err(e) = out.write_all(&bytes).and_then(|_| out.flush()) {
                            if let Ok(mut slot) = error.lock() {
                                *slot = Some(e);
                            }
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                        order.bytes += bytes.len() as u64;
                        order.positions += positions;
                        order.next += 1;
                    }
                    if order.next == before {
                        continue;
                    }
                    checkpoint(order.next, order.bytes, order.positions);
                }
            });
        }
    });
    if let Ok(mut slot) = error.lock() {
        if let Some(e) = slot.take() {
            return Err(e);
        }
    }
    let totals = match written.lock() {
        Ok(guard) => (guard.1.next - cfg.first_game, guard.1.positions),
        Err(_) => (0, 0),
    };
    Ok(totals)
}

/// Command-line arguments of `rukav datagen`.
#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// Output file. Appended to in game order; `OUT.progress` records where
    /// the run is, so running the same command again resumes it.
    #[arg(long)]
    pub out: PathBuf,
    /// Variant to play. `bughouse` plays whole two-board games, Rukav on
    /// all four seats, pieces captured on one board arriving in the other
    /// board's pockets, scheduled by simulated clocks (--sim-tc,
    /// --sim-move-ms): each board draws its own opening; of the two
    /// boards' searches the one that ends first in simulated time is played
    /// first (ties: board A), a search starts again when its board's
    /// pockets change, a side without a legal move waits with its clock
    /// running. A game ends by mate on either board or a clock that runs
    /// out before the next move (that seat's team loses), threefold
    /// repetition on a board, or 400 plies on a board (draws). Both boards'
    /// positions are written, each with the result for the team of its
    /// White (team 1: White on A, Black on B).
    #[arg(long, default_value = "crazyhouse", value_parser = super::variant_parser())]
    pub variant: Variant,
    /// Games in the whole run (game indices 0..GAMES).
    #[arg(long, default_value_t = 1000, conflicts_with = "slice")]
    pub games: u64,
    /// This machine's part of a larger run: game indices A..B. Slices of the
    /// same settings concatenate, in order, to the bytes of one whole run.
    #[arg(long, value_name = "A..B", value_parser = parse_slice)]
    pub slice: Option<(u64, u64)>,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Threads, one game each (default: all cores). The data do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Opening book: one FEN per line (`#` comments). Without one, games
    /// start from the start position and the random plies make the opening.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Random plies after the book position (one more in half the games).
    #[arg(long, default_value_t = 4)]
    pub random_plies: u32,
    /// Draw the opening again when a short search judges it beyond this
    /// many centipawns for either side (0: keep every opening).
    #[arg(long, default_value_t = 0)]
    pub opening_limit: u32,
    /// Nodes of the search that judges an opening for --opening-limit
    /// (default 20000). With 2000, as many as a move gets, crazyhouse
    /// datagen wrote 812 positions/s against 585 (nets/README.md).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub opening_nodes: Option<u64>,
    /// Seed of the random openings (and, in bughouse, of the simulated
    /// thinking times).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bughouse only: every seat's simulated clock, SECONDS+INCREMENT
    /// (default 30+1). Simulated time, not the machine's: the data do not
    /// depend on the machine's speed.
    #[arg(long, value_name = "SECONDS+INC")]
    pub sim_tc: Option<String>,
    /// Bughouse only: simulated milliseconds of a move that searches the
    /// whole node budget, times a random factor from 0.5 to 1.5 drawn
    /// from the game's seed (default 1000).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub sim_move_ms: Option<u64>,
    /// What the file holds: `records` (64 bytes a position, what `train`
    /// and `tune` read) or `games` (each game's opening, moves and scores,
    /// about 3 bytes a ply; `rukav unpack` rebuilds the records the same
    /// run would have written). Single-board variants only.
    #[arg(long, value_enum, default_value_t = DataFormat::Records)]
    pub format: DataFormat,
}

/// Parses `A..B` (game indices, A < B).
fn parse_slice(text: &str) -> Result<(u64, u64), String> {
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("'{text}' is not A..B"))?;
    let a: u64 = a
        .trim()
        .parse()
        .map_err(|_| format!("bad slice start '{a}'"))?;
    let b: u64 = b
        .trim()
        .parse()
        .map_err(|_| format!("bad slice end '{b}'"))?;
    if a >= b {
        return Err(format!("empty slice {a}..{b}"));
    }
    Ok((a, b))
}

/// The path of the progress file of `out`.
fn progress_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".progress");
    PathBuf::from(p)
}

/// `rukav datagen`: plays the games not yet written and appends them.
pub fn main(args: DatagenArgs) -> Result<(), ToolError> {
    let openings = match &args.book {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect(),
        None => Vec::new(),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let (slice_start, end) = args.slice.unwrap_or((0, args.games));
    let variant = args.variant;
    let two_boards = variant.rules().two_boards;
    if !two_boards && (args.sim_tc.is_some() || args.sim_move_ms.is_some()) {
        return Err("--sim-tc and --sim-move-ms apply to --variant bughouse only".into());
    }
    let mut sim = SimClock::default();
    if let Some(text) = &args.sim_tc {
        let tc = super::arena::parse_tc(text)?;
        sim.base_ms = tc.base_ms;
        sim.inc_ms = tc.inc_ms;
    }
    if let Some(ms) = args.sim_move_ms {
        sim.move_ms = ms;
    }
    // What makes the data: a resumed run must have the same. The embedded
    // network counts only for the variants it evaluates.
    let net = match rukav::eval::nnue::embedded_for(variant) {
        Some((name, _)) if rukav::eval::nnue::USE_NNUE_DEFAULT => name,
        _ => "none",
    };
    let mut fingerprint = format!(
        "rukav datagen: variant {variant} nodes {} random-plies {} seed {} book {:016x} net {net}",
        args.nodes,
        args.random_plies,
        args.seed,
        rukav::eval::nnue::checksum(openings.join("\n").as_bytes()),
    );
    if args.opening_limit > 0 {
        fingerprint.push_str(&format!(" opening-limit {}", args.opening_limit));
    }
    let opening_nodes = args.opening_nodes.unwrap_or(OPENING_CHECK_NODES);
    if args.opening_limit == 0 && args.opening_nodes.is_some() {
        return Err("--opening-nodes applies with --opening-limit only".into());
    }
    if opening_nodes != OPENING_CHECK_NODES {
        // Runs with the default keep the fingerprint they always had.
        fingerprint.push_str(&format!(" opening-nodes {opening_nodes}"));
    }
    if two_boards {
        // Two-board games: other data than the single-board bughouse games
        // earlier versions wrote, so their progress files do not resume.
        fingerprint.push_str(&format!(
            " two-board sim-tc {}+{}ms sim-move-ms {}",
            sim.base_ms, sim.inc_ms, sim.move_ms
        ));
    }
    if args.format == DataFormat::Games {
        if two_boards {
            return Err("--format games is for single-board variants".into());
        }
        fingerprint.push_str(" format games");
    }
    if slice_start > 0 {
        fingerprint.push_str(&format!(" slice-start {slice_start}"));
    }
    let progress_file = progress_path(&args.out);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    let length = file
        .metadata()
        .map_err(|e| format!("{}: {e}", args.out.display()))?
        .len();
    let (first_game, base) = match std::fs::read_to_string(&progress_file) {
        Ok(text) => {
            let (first_game, bytes) = parse_progress(&text, &fingerprint)
                .map_err(|e| format!("{}: {e}", progress_file.display()))?;
            if bytes > length {
                return Err(format!(
                    "{} says {bytes} bytes were written but {} has {length}; it was changed since",
                    progress_file.display(),
                    args.out.display()
                )
                .into());
            }
            if bytes < length {
                // A run killed while writing: drop the part after the last whole game.
                file.set_len(bytes)
                    .map_err(|e| format!("{}: {e}", args.out.display()))?;
            }
            eprintln!("resuming at game {first_game} ({bytes} bytes kept)");
            (first_game, bytes)
        }
        Err(_) => {
            if length > 0 {
                eprintln!(
                    "{} has data but no {}: appending a new run from game {slice_start}",
                    args.out.display(),
                    progress_file.display()
                );
            }
            (slice_start, length)
        }
    };
    let cfg = DatagenConfig {
        rules: variant.rules(),
        first_game,
        games: end,
        nodes: args.nodes,
        threads,
        openings,
        random_plies: args.random_plies,
        opening_limit: (args.opening_limit > 0).then_some(args.opening_limit as i32),
        opening_nodes,
        seed: args.seed,
        sim,
        format: args.format,
    };
    let stop = AtomicBool::new(false);
    let checkpoint_error = Mutex::new(None::<String>);
    let progress = Mutex::new(Progress::new("games", first_game, end));
    let (g, p) = run(&cfg, &mut file, &stop, &|next_game, bytes, positions| {
        let text = format!(
            "{fingerprint}\nnext-game {next_game}\nbytes {}\n",
            base + bytes
        );
        let tmp = progress_file.with_extension("progress.tmp");
        if let Err(e) =
            std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, &progress_file))
        {
            if let Ok(mut slot) = checkpoint_error.lock() {
                *slot = Some(format!("{}: {e}", progress_file.display()));
            }
            stop.store(true, Ordering::Relaxed);
        }
        if let Ok(mut bar) = progress.lock() {
            bar.update(next_game, &format!("positions {positions}"));
        }
    })
    .map_err(|e| format!("writing {}: {e}", args.out.display()))?;
    if let Ok(bar) = progress.lock() {
        bar.finish();
    }
    if let Ok(mut slot) = checkpoint_error.lock() {
        if let Some(e) = slot.take() {
            return Err(e.into());
        }
    }
    writeln!(
        Out::lock(),
        "done: {g} games, {p} positions appended to {} (games {first_game}..{})",
        args.out.display(),
        first_game + g
    )
}

/// Reads a progress file: (next game, bytes of the data file), or why it
/// cannot be resumed with these settings.
fn parse_progress(text: &str, fingerprint: &str) -> Result<(u64, u64), String> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    if first != fingerprint {
        return Err(format!(
            "made by another run ({first}); this one is ({fingerprint}). Use another --out, or delete the progress file to append a new run"
        ));
    }
    let mut next_game = None;
    let mut bytes = None;
    for line in lines {
        match line.split_once(' ') {
            Some(("next-game", v)) => next_game = v.trim().parse::<u64>().ok(),
            Some(("bytes", v)) => bytes = v.trim().parse::<u64>().ok(),
            _ => {}
        }
    }
    match (next_game, bytes) {
        (Some(g), Some(b)) => Ok((g, b)),
        _ => Err("unreadable (needs next-game and bytes lines)".to_string()),
    }
}

pub mod bughouse;
pub mod setup;

use setup::{opening_score, OPENING_CHECK_NODES, OPENING_TRIES};
pub use setup::{DataFormat, DatagenConfig, SimClock};
#[cfg(test)]
mod tests;
