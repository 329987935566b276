//! `rukav ptell "TEXT"`: how the engine reads a partner's tell, one reading
//! a line (the vocabulary of uci-protocol.md, "Partner tells"). The engine
//! reads tells with the same function ([`rukav::bughouse::tell::read`]).

use super::out::{Out, ToolError};

/// Prints the readings of `text` (the words of the command line joined by
/// spaces), one a line.
pub fn main(text: &[String]) -> Result<(), ToolError> {
    let mut out = Out::lock();
    for reading in rukav::bughouse::tell::read(&text.join(" ")) {
        writeln!(out, "{reading}")?;
    }
    Ok(())
}
