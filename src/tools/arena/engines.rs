//! One engine process of a match: its pipes, what it is thinking about,
//! sending a line, killing it.

use std::io::Write;
use std::process::{Child, ChildStdin};

/// A line (or the end) of an engine's output: the engine, its generation, the text.
pub(super) enum Msg {
    Line(usize, u64, String),
    Eof(usize, u64),
}

pub(super) struct Think {
    pub(super) board: usize,
    pub(super) fen: String,
}

pub(super) struct Proc {
    pub(super) argv: Vec<String>,
    pub(super) name: String,
    pub(super) child: Option<Child>,
    pub(super) stdin: Option<ChildStdin>,
    pub(super) generation: u64,
    pub(super) alive: bool,
    pub(super) ext: bool,
    pub(super) options: Vec<String>,
    pub(super) thinking: Option<Think>,
}

impl Proc {
    pub(super) fn send(&mut self, line: &str) -> bool {
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .is_ok();
        if !ok {
            self.alive = false;
        }
        ok
    }

    pub(super) fn kill(&mut self) {
        self.stdin = None;
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        self.alive = false;
        self.thinking = None;
    }

    pub(super) fn has_option(&self, name: &str) -> bool {
        let l = name.to_ascii_lowercase();
        self.options.contains(&l)
    }
}
