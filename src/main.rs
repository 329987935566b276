//! The `rukav` binary: without a subcommand, the engine on stdin/stdout
//! (UCI, or xboard/CECP when the first line is `xboard`); with one, a tool.
//! This file only parses the command line and dispatches.

mod tools;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "rukav",
    version,
    about = "Rukav: a chess engine for crazyhouse, bughouse, antichess, giveaway, suicide, King's chess and chess",
    long_about = "Rukav: a chess engine for crazyhouse, bughouse, antichess, giveaway, suicide, King's chess and chess.\n\n\
        Run without a subcommand, rukav is the engine: it speaks UCI on stdin/stdout \
        (type `uci`), or xboard/CECP when the first line it reads is `xboard`. \
        GUIs (CuteChess, xboard), python-chess and lichess-bot start it that way. \
        The protocol is described in uci-protocol.md.\n\n\
        The subcommands are tools for engine developers."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Searches the bench positions to a fixed depth; the last line is `N nodes M nps`.
    Bench {
        /// Search depth.
        #[arg(default_value_t = rukav::bench::BENCH_DEPTH)]
        depth: i32,
    },
    /// Counts legal move sequences to DEPTH (one line per root move).
    Perft(tools::perft::PerftArgs),
    /// Bughouse matches between two teams of UCI engines, with real clocks.
    Arena(tools::arena::ArenaArgs),
    /// Replays every game of a BPGN file and checks its result.
    Bpgn {
        /// The BPGN file.
        file: std::path::PathBuf,
    },
    /// Self-play games that write training positions (reproducible; resumes from OUT.progress).
    Datagen(tools::datagen::DatagenArgs),
    /// Rebuilds the record file of a datagen run from its game logs (`datagen --format games`).
    Unpack(tools::gamelog::UnpackArgs),
    /// Trains an NNUE network on datagen output (see nets/README.md).
    Train(tools::train::TrainArgs),
    /// Texel-tunes the hand-written evaluation on datagen output; prints the new weights.
    Tune(tools::tune::TuneArgs),
    /// Fits the win/draw/loss model of UCI_ShowWDL to datagen output; prints it and its log-loss.
    Wdl(tools::wdl::WdlArgs),
    /// Builds antichess/giveaway endgame tables into a file (UCI option AntichessTables).
    Tables(tools::tables::TablesArgs),
    /// Prints the search parameters as SPSA input, one per line: name, int,
    /// default, min, max, step, 0.002 (OpenBench's format; scripts/spsa.py reads it).
    SpsaParams,
}

/// Exit status of a subcommand: 0, or 2 with the error on stderr.
fn exit_code(result: Result<(), impl std::fmt::Display>) -> ExitCode {
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
        None => {
            rukav::protocol::main_loop();
            ExitCode::SUCCESS
        }
        Some(Command::Bench { depth }) => {
            let r = rukav::bench::run(depth.clamp(1, 30), 16, &mut |l| println!("{l}"));
            println!("{} nodes {} nps", r.nodes, r.nps);
            ExitCode::SUCCESS
        }
        Some(Command::Perft(args)) => exit_code(tools::perft::main(args)),
        Some(Command::Arena(args)) => exit_code(tools::arena::main(args)),
        Some(Command::Bpgn { file }) => exit_code(
            std::fs::read_to_string(&file)
                .map_err(|e| format!("{}: {e}", file.display()))
                .and_then(|text| tools::bpgn::check(&text, rukav::Variant::Bughouse.rules()))
                .map(|line| println!("{line}")),
        ),
        Some(Command::Datagen(args)) => exit_code(tools::datagen::main(args)),
        Some(Command::Unpack(args)) => exit_code(tools::gamelog::main(args)),
        Some(Command::Train(args)) => exit_code(tools::train::main(args)),
        Some(Command::Tune(args)) => exit_code(tools::tune::main(args)),
        Some(Command::Wdl(args)) => exit_code(tools::wdl::main(args)),
        Some(Command::Tables(args)) => exit_code(tools::tables::main(args)),
        Some(Command::SpsaParams) => {
            for line in rukav::engine::tuning::spsa_lines() {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
    }
}
