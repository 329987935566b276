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
        }) => match run_perft(depth, &variant, fen, threads, &options) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Bench { depth }) => {
            let r = rukav::bench::run(depth.clamp(1, 30), 16, &mut |l| println!("{l}"));
            println!("{} nodes {} nps", r.nodes, r.nps);
            ExitCode::SUCCESS
        }
        None => {
            rukav::uci::main_loop();
            ExitCode::SUCCESS
        }
    }
}
