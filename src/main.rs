//! The `rukav` binary: a UCI engine by default, plus `perft` and `bench`.

use clap::{Parser, Subcommand};
use rukav::{perft, Position, Rules, Variant};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "rukav",
    version,
    about = "Chess engine for crazyhouse, bughouse and other variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Bughouse matches between two teams of UCI engines with real clocks.
    Arena(rukav::bughouse::arena::ArenaArgs),
    /// Self-play games that write training positions (appends to OUT in game order and resumes from OUT.progress; see src/datagen.rs for the format).
    Datagen {
        /// Output file (appended to, so a stopped run can be resumed).
        #[arg(long)]
        out: std::path::PathBuf,
        /// Variant.
        #[arg(long, default_value = "crazyhouse")]
        variant: String,
        /// Games in the whole run (a resumed run plays the ones not yet written).
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Nodes per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Opening book: one FEN per line (`#` comments).
        #[arg(long)]
        book: Option<std::path::PathBuf>,
        /// Random plies after the opening.
        #[arg(long, default_value_t = 4)]
        random_plies: u32,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Texel-tunes the evaluation weights on datagen output; prints the new weights.
    Tune {
        /// Data file(s) from `datagen`.
        #[arg(long, required = true)]
        data: Vec<std::path::PathBuf>,
        /// Variant whose positions are used.
        #[arg(long, default_value = "crazyhouse")]
        variant: String,
        /// Passes of coordinate descent.
        #[arg(long, default_value_t = 20)]
        passes: usize,
        /// Weight of the game result in the target (the rest is the search score).
        #[arg(long, default_value_t = 0.5)]
        lambda: f64,
    },
    /// Replays every game of a BPGN file and checks its result.
    Bpgn {
        /// The BPGN file.
        file: std::path::PathBuf,
    },
    /// Trains an NNUE network on datagen output (see nets/README.md).
    Train(rukav::nnue_train::TrainArgs),
    /// Search the bench positions to a fixed depth; the last line is `N nodes M nps`.
    Bench {
        /// Search depth.
        #[arg(default_value_t = rukav::bench::BENCH_DEPTH)]
        depth: i32,
    },
    /// Count legal move sequences to DEPTH (one line per root move).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Variant: chess, crazyhouse, bughouse, antichess, giveaway, kingschess.
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Position (default: the variant's start position).
        #[arg(long)]
        fen: Option<String>,
        /// Threads that split the root moves.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// House rule as NAME=VALUE (UCI option names of rules.md), repeatable.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
}

fn run_perft(
    depth: u32,
    variant: &str,
    fen: Option<String>,
    threads: usize,
    options: &[String],
) -> Result<(), String> {
    let variant: Variant = variant.parse()?;
    let mut rules: Rules = variant.rules();
    for opt in options {
        let (name, value) = opt
            .split_once('=')
            .ok_or_else(|| format!("option '{opt}' is not NAME=VALUE"))?;
        rukav::rules::set_house_rule(&mut rules, name, value)?;
    }
    let pos = match fen {
        Some(f) => Position::from_fen(&f, rules).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::start_with(rules),
    };
    let start = Instant::now();
    let counts = perft::divide(&pos, depth, threads);
    let total: u64 = if depth == 0 {
        1
    } else {
        counts.iter().map(|c| c.1).sum()
    };
    let secs = start.elapsed().as_secs_f64();
    for (m, n) in &counts {
        println!("{m}: {n}");
    }
    println!();
    println!("Nodes searched: {total}");
    println!(
        "Time: {:.3} s, {:.0} nodes per second",
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn run_datagen(
    out: &std::path::Path,
    variant: &str,
    games: u64,
    nodes: u64,
    threads: Option<usize>,
    book: Option<std::path::PathBuf>,
    random_plies: u32,
    seed: u64,
) -> Result<(), String> {
    let variant: Variant = variant.parse()?;
    let openings = match book {
        Some(path) => std::fs::read_to_string(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect(),
        None => Vec::new(),
    };
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // What makes the data: a resumed run must have the same. The embedded
    // network counts only for the variants it evaluates.
    let net = match rukav::nnue::default_network() {
        Some(n) if rukav::nnue::USE_NNUE_DEFAULT && n.serves(variant) => {
            rukav::nnue::DEFAULT_NET_NAME
        }
        _ => "none",
    };
    let fingerprint = format!(
        "rukav datagen: variant {variant} nodes {nodes} random-plies {random_plies} seed {seed} book {:016x} net {net}",
        rukav::nnue::checksum(openings.join("\n").as_bytes()),
    );
    let progress_path = {
        let mut p = out.as_os_str().to_owned();
        p.push(".progress");
        std::path::PathBuf::from(p)
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let length = file
        .metadata()
        .map_err(|e| format!("{}: {e}", out.display()))?
        .len();
    let (first_game, base) = match std::fs::read_to_string(&progress_path) {
        Ok(text) => {
            let (first_game, bytes) = parse_datagen_progress(&text, &fingerprint)
                .map_err(|e| format!("{}: {e}", progress_path.display()))?;
            if bytes > length {
                return Err(format!(
                    "{} says {bytes} bytes were written but {} has {length}; it was changed since",
                    progress_path.display(),
                    out.display()
                ));
            }
            if bytes < length {
                // A run killed while writing: drop the part after the last whole game.
                file.set_len(bytes)
                    .map_err(|e| format!("{}: {e}", out.display()))?;
            }
            eprintln!("resuming at game {first_game} ({bytes} bytes kept)");
            (first_game, bytes)
        }
        Err(_) => {
            if length > 0 {
                eprintln!(
                    "{} has data but no {}: appending a new run from game 0",
                    out.display(),
                    progress_path.display()
                );
            }
            (0, length)
        }
    };
    let cfg = rukav::datagen::DatagenConfig {
        rules: variant.rules(),
        first_game,
        games,
        nodes,
        threads,
        openings,
        random_plies,
        seed,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let checkpoint_error = std::sync::Mutex::new(None::<String>);
    let (g, p) = rukav::datagen::run(
        &cfg,
        &mut file,
        &stop,
        &|line| eprintln!("{line}"),
        &|next_game, bytes| {
            let text = format!(
                "{fingerprint}\nnext-game {next_game}\nbytes {}\n",
                base + bytes
            );
            let tmp = progress_path.with_extension("progress.tmp");
            if let Err(e) =
                std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, &progress_path))
            {
                if let Ok(mut slot) = checkpoint_error.lock() {
                    *slot = Some(format!("{}: {e}", progress_path.display()));
                }
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        },
    )
    .map_err(|e| format!("writing {}: {e}", out.display()))?;
    if let Ok(mut slot) = checkpoint_error.lock() {
        if let Some(e) = slot.take() {
            return Err(e);
        }
    }
    println!(
        "done: {g} games, {p} positions appended to {} (games {first_game}..{})",
        out.display(),
        first_game + g
    );
    Ok(())
}

/// Reads a datagen progress file: (next game, bytes of the data file), or why
/// it cannot be resumed with these settings.
fn parse_datagen_progress(text: &str, fingerprint: &str) -> Result<(u64, u64), String> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    if first != fingerprint {
        return Err(format!(
            "made by another run ({first}); this one is ({fingerprint}). Use another --out, or delete the progress file to append a new run from game 0"
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

fn run_tune(
    data: &[std::path::PathBuf],
    variant: &str,
    passes: usize,
    lambda: f64,
) -> Result<(), String> {
    let variant: Variant = variant.parse()?;
    let mut records = Vec::new();
    for path in data {
        records.extend(
            rukav::datagen::read_records(path).map_err(|e| format!("{}: {e}", path.display()))?,
        );
    }
    let start = rukav::eval::DEFAULT_WEIGHTS;
    let rough = rukav::tune::samples(&records, variant.rules(), 1.0, 1.0);
    if rough.is_empty() {
        return Err(format!("no {variant} positions in the data"));
    }
    let k = rukav::tune::fit_k(&rough, &start);
    let samples = rukav::tune::samples(&records, variant.rules(), lambda, k);
    let tunable = rukav::tune::relevant_weights(&variant.rules());
    let tuned = rukav::tune::tune(&samples, &start, &tunable, k, passes, &mut |l| {
        eprintln!("{l}")
    });
    println!("{}", rukav::tune::format_weights(&tuned));
    Ok(())
}

/// Exit status of a subcommand: 0, or 2 with the error on stderr.
fn exit_code(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    rukav::attacks::init();
    match cli.command {
        Some(Command::Perft {
            depth,
            variant,
            fen,
            threads,
            options,
        }) => exit_code(run_perft(depth, &variant, fen, threads, &options)),
        Some(Command::Datagen {
            out,
            variant,
            games,
            nodes,
            threads,
            book,
            random_plies,
            seed,
        }) => exit_code(run_datagen(
            &out,
            &variant,
            games,
            nodes,
            threads,
            book,
            random_plies,
            seed,
        )),
        Some(Command::Tune {
            data,
            variant,
            passes,
            lambda,
        }) => exit_code(run_tune(&data, &variant, passes, lambda)),
        Some(Command::Bench { depth }) => {
            let r = rukav::bench::run(depth.clamp(1, 30), 16, &mut |l| println!("{l}"));
            println!("{} nodes {} nps", r.nodes, r.nps);
            ExitCode::SUCCESS
        }
        Some(Command::Arena(args)) => exit_code(rukav::bughouse::arena::main(args)),
        Some(Command::Train(args)) => exit_code(rukav::nnue_train::main(args)),
        Some(Command::Bpgn { file }) => exit_code(
            std::fs::read_to_string(&file)
                .map_err(|e| format!("{}: {e}", file.display()))
                .and_then(|text| rukav::bughouse::bpgn::check(&text, Variant::Bughouse.rules()))
                .map(|line| println!("{line}")),
        ),
        None => {
            rukav::uci::main_loop();
            ExitCode::SUCCESS
        }
    }
}
