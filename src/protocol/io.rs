//! Line I/O of both protocols: a thread reads stdin into a channel (so a
//! protocol loop can also wait for a search's result), and output goes out
//! one whole, flushed line at a time (lines from search threads never
//! interleave). When stdout is closed (the GUI has gone) the loop ends as at
//! the end of input: a write that fails with a broken pipe sends
//! [`Event::Eof`].

use crate::search::SearchResult;
use std::io::{BufRead, ErrorKind, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::OnceLock;

/// The input channel of the protocol loop, for [`send`] to end it when
/// stdout is closed (set by [`stdin_events`]).
static INPUT: OnceLock<Sender<Event>> = OnceLock::new();

/// What a protocol loop waits for.
pub enum Event {
    /// A line of input.
    Line(String),
    /// The input ended.
    Eof,
    /// A search finished (xboard plays its move): the result and the
    /// generation of the search that produced it.
    SearchDone(SearchResult, u64),
}

/// Starts the reader thread; returns a sender for other events and the
/// receiver of everything.
pub fn stdin_events() -> (Sender<Event>, Receiver<Event>) {
    let (tx, rx) = channel();
    let _ = INPUT.set(tx.clone());
    let reader = tx.clone();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut buf = Vec::new();
        let mut lock = stdin.lock();
        loop {
            buf.clear();
            match lock.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    // Bytes that are not UTF-8 are replaced, not fatal.
                    let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                    if reader.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = reader.send(Event::Eof);
    });
    (tx, rx)
}

/// Writes one line to stdout and flushes. A failed write is not an error
/// of the engine's; a broken pipe (nobody reads stdout any more) ends the
/// protocol loop with [`Event::Eof`], so that the engine stops its search
/// and exits with status 0 instead of searching for nobody.
pub fn send(line: &str) {
    let out = std::io::stdout();
    let mut lock = out.lock();
    let written = writeln!(lock, "{line}");
    let flushed = lock.flush();
    let closed = [written, flushed]
        .iter()
        .any(|r| r.as_ref().is_err_and(|e| e.kind() == ErrorKind::BrokenPipe));
    if closed {
        if let Some(input) = INPUT.get() {
            let _ = input.send(Event::Eof);
        }
    }
}
