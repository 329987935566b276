//! The protocols: the only code that reads stdin and writes stdout.
//!
//! | file | what |
//! |---|---|
//! | [`io`] | line input (a reader thread) and output (one flushed line at a time) |
//! | [`error`] | why a command was refused: [`error::CommandError`], wrapping the library's errors |
//! | [`parse`] | the argument forms both protocols read: setups, pockets, numbers, booleans |
//! | [`options`] | the engine's options, one table for UCI `setoption` and xboard `option`/`memory`/`cores` |
//! | [`uci`] | UCI with the bughouse extension |
//! | [`xboard`] | xboard/CECP version 2 with the bughouse commands of FICS |
//!
//! The protocols parse and format; every decision (time, partner
//! messages, sitting) is the engine's. Every input line is untrusted: bad
//! input gets an error line and leaves the engine as it was.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod error;
pub mod io;
pub mod options;
pub mod parse;
pub mod uci;
pub mod xboard;

/// Runs the engine on stdin/stdout. The first command chooses the
/// protocol: `xboard` starts CECP, anything else is UCI.
pub fn main_loop() {
    let (tx, rx) = io::stdin_events();
    let first = loop {
        match rx.recv() {
            Ok(io::Event::Line(l)) if l.trim().is_empty() => continue,
            Ok(io::Event::Line(l)) => break l,
            _ => return,
        }
    };
    if first.trim() == "xboard" {
        xboard::run(tx, rx);
    } else {
        uci::run(&first, rx);
    }
}
