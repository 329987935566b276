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

pub use self::config::{parse_tc, ArenaArgs, ArenaConfig};
pub use self::recorder::Update;
pub use self::slots::run;
pub use self::summary::print_summary;
// Public items that only the arena's own files (and its tests) use, kept
// reachable under `arena::` as they were before the split into files.
#[allow(unused_imports)]
pub use self::{
    config::{check_concurrency, split_command, MAX_CONCURRENCY},
    summary::{GameRecord, Summary},
    talk::TalkStats,
};
use super::out::{Out, ToolError};
use super::progress::Progress;

mod config;
mod engines;
mod game;
mod recorder;
mod seats;
mod slots;
mod summary;
mod talk;
#[cfg(test)]
mod tests;

/// `rukav arena`: runs the match and prints the summary.
pub fn main(args: ArenaArgs) -> Result<(), ToolError> {
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
    print_summary(&mut Out::lock(), &summary)
}
