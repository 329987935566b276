//! Standard output of the subcommands, and how they end.
//!
//! `println!` panics when the reader of stdout has gone (`rukav perft 5 |
//! head -2`: "failed printing to stdout: Broken pipe", exit status 101).
//! The subcommands write through [`Out`] instead: `writeln!(out, ...)?`
//! returns a [`ToolError`], and `main` ends quietly with exit status 0 on
//! [`ToolError::Closed`] (a closed pipe, as `cat` or `grep` do) and with
//! the message and exit status 2 on [`ToolError::Failed`].

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

/// Why a subcommand stopped.
#[derive(Debug)]
pub enum ToolError {
    /// A failure, told on stderr.
    Failed(String),
    /// The reader of stdout has gone (a closed pipe): nothing to tell.
    Closed,
}

impl ToolError {
    /// A failed write to stdout: [`ToolError::Closed`] for a broken pipe.
    pub fn stdout(e: io::Error) -> ToolError {
        if e.kind() == io::ErrorKind::BrokenPipe {
            ToolError::Closed
        } else {
            ToolError::Failed(format!("writing to stdout: {e}"))
        }
    }

    /// The exit status of a subcommand that ended with `result` (a failure
    /// is told on stderr first): 0, or 0 for a closed stdout, or 2.
    pub fn exit_code(result: Result<(), ToolError>) -> ExitCode {
        match result {
            Ok(()) | Err(ToolError::Closed) => ExitCode::SUCCESS,
            Err(ToolError::Failed(e)) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        }
    }
}

impl From<String> for ToolError {
    fn from(e: String) -> Self {
        ToolError::Failed(e)
    }
}

impl From<&str> for ToolError {
    fn from(e: &str) -> Self {
        ToolError::Failed(e.to_string())
    }
}

/// Stdout, locked for a subcommand's lines: `writeln!(out, ...)` returns
/// `Result<(), ToolError>`. Stdout is line-buffered, so a line is written
/// (and a closed pipe noticed) when it ends.
pub struct Out(io::StdoutLock<'static>);

impl Out {
    /// Locks stdout (nothing else in the binary writes to it meanwhile).
    pub fn lock() -> Out {
        Out(io::stdout().lock())
    }

    /// Writes formatted text: what `write!` and `writeln!` call.
    pub fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), ToolError> {
        self.0.write_fmt(args).map_err(ToolError::stdout)
    }
}
