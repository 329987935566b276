//! The `rukav` binary: without a subcommand, the engine on stdin/stdout
//! (UCI, or xboard/CECP when the first line is `xboard`); with one, a tool.
//! This file only parses the command line and dispatches.

mod tools;

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use tools::out::ToolError;

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
    /// Prints how the engine reads a bughouse partner's tell, one reading a
    /// line (`need n 3`, `ban q 2`, `sit`, `unknown`; see uci-protocol.md).
    /// Every word is the tell's, `-h` too (`rukav help ptell` shows this).
    #[command(disable_help_flag = true)]
    Ptell {
        /// The tell, as the partner wrote it (several words are joined by spaces).
        #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
        text: Vec<String>,
    },
    /// Prints the search parameters as SPSA input, one per line: name, int,
    /// default, min, max, step, 0.002 (OpenBench's format; scripts/spsa.py reads it).
    SpsaParams,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    rukav::attacks::init();
    match cli.command {
        None => {
            rukav::protocol::main_loop();
            ExitCode::SUCCESS
        }
        Some(command) => ToolError::exit_code(run(command)),
    }
}

/// Runs a subcommand.
fn run(command: Command) -> Result<(), ToolError> {
    match command {
        Command::Bench { depth } => tools::bench::main(depth),
        Command::Perft(args) => tools::perft::main(args),
        Command::Arena(args) => tools::arena::main(args),
        Command::Bpgn { file } => tools::bpgn::main(&file),
        Command::Datagen(args) => tools::datagen::main(args),
        Command::Unpack(args) => tools::gamelog::main(args),
        Command::Train(args) => tools::train::main(args).map_err(ToolError::Failed),
        Command::Tune(args) => tools::tune::main(args),
        Command::Wdl(args) => tools::wdl::main(args),
        Command::Tables(args) => tools::tables::main(args).map_err(ToolError::Failed),
        Command::Ptell { text } => tools::ptell::main(&text),
        Command::SpsaParams => tools::spsa::main(),
    }
}
