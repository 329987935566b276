//! xboard/CECP version 2, with the bughouse commands that xboard's zippy
//! mode uses on FICS: `holding`, `partner`, `ptell`, answered with
//! `tellics ptell ...`, and analysis mode (`analyze`, `.`, `exit`).
//! Chosen when the first command is `xboard`.
//!
//! Every input line is untrusted: bad input gets `Error (...): ...` or
//! `Illegal move: ...` and changes nothing.
//!
//! | file | what |
//! |---|---|
//! | `session` | [`Xboard`]: the session's state, and the engine's turn |
//! | `commands` | a line dispatched to its command; games, sides, positions, moves, options |
//! | `time` | the time controls (`level`, `st`, `sd`) and the clocks (`time`, `otim`) |
//! | `analysis` | analysis mode (`analyze`, `.`, `exit`) |
//! | `bughouse` | `holding`, drops of pieces on their way, `partner`, `ptell` |
//! | `output` | result lines, thinking lines, error lines, a search's listener |
//!
//! This file only declares the parts, re-exports what is public and runs
//! the loop (the parts import one another, never this file).

mod analysis;
mod bughouse;
mod commands;
mod output;
mod session;
mod time;

pub use commands::variant_from_cecp;
pub use output::result_line;
pub use session::Xboard;

use super::io::Event;
use std::sync::mpsc::{Receiver, Sender};

/// Runs the xboard loop (the `xboard` line has been read).
pub fn run(tx: Sender<Event>, input: Receiver<Event>) {
    let mut x = Xboard::new(tx);
    while let Ok(ev) = input.recv() {
        match ev {
            Event::Line(l) => {
                if !x.handle(&l) {
                    break;
                }
            }
            Event::SearchDone(r, g) => x.finished(r, g),
            Event::Eof => break,
        }
    }
    x.abort_search();
}
