//! A scripted session with the `rukav` binary, shared by the protocol tests.
//!
//! The engine runs with piped stdin/stdout. A reader thread forwards stdout
//! lines through a channel; every wait for a line has a generous deadline
//! (`recv_timeout`), so a hung engine fails the test with the transcript
//! instead of hanging it. Nothing here measures time.
#![allow(dead_code)] // each test file uses the helpers it needs

use rukav::{Position, Rules, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Deadline for any single expected line.
pub const DEADLINE: Duration = Duration::from_secs(30);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent (`> `) and received (`< `), for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    /// Starts the engine.
    pub fn start() -> Engine {
        Engine::spawn(Command::new(env!("CARGO_BIN_EXE_rukav")))
    }

    /// Starts the engine through a shell line that ends in `exec "$RUKAV"`
    /// (for limits such as `ulimit -v`).
    pub fn start_in_shell(prefix: &str) -> Engine {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("{prefix}; exec \"$RUKAV\""))
            .env("RUKAV", env!("CARGO_BIN_EXE_rukav"));
        Engine::spawn(cmd)
    }

    fn spawn(mut cmd: Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn rukav");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        let shown: String = line.chars().take(200).collect();
        self.transcript.push(format!("> {shown}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().expect("flush");
    }

    pub fn fail(&self, why: &str) -> ! {
        let tail: Vec<&String> = self.transcript.iter().rev().take(60).collect();
        let tail: Vec<&str> = tail.into_iter().rev().map(|s| s.as_str()).collect();
        panic!(
            "{why}\n--- transcript (last 60 lines) ---\n{}",
            tail.join("\n")
        );
    }

    /// Reads lines until one satisfies `done`; returns all lines read, the
    /// matching one last.
    pub fn read_until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            match self.lines.recv_timeout(DEADLINE) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.fail(&format!("no {what} within {DEADLINE:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.fail(&format!("engine closed stdout while waiting for {what}"))
                }
            }
        }
    }

    /// `isready` and the lines up to `readyok` (excluded).
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut l = self.read_until("readyok", |l| l == "readyok");
        l.pop();
        l
    }

    /// Lines up to and including `bestmove`; returns them and the best move.
    pub fn bestmove(&mut self) -> (Vec<String>, String) {
        let lines = self.read_until("bestmove", |l| l.starts_with("bestmove"));
        let last = lines.last().expect("a line");
        let mv = last
            .split_whitespace()
            .nth(1)
            .unwrap_or_else(|| self.fail("bestmove without a move"))
            .to_string();
        (lines, mv)
    }

    pub fn set_variant(&mut self, v: Variant) {
        self.send(&format!("setoption name UCI_Variant value {}", v.name()));
    }

    /// The FEN printed by `d`.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.read_until("Checkers line of d", |l| l.starts_with("Checkers:"));
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .unwrap_or_else(|| self.fail("d printed no Fen line"))
            .to_string()
    }

    /// Sends `line`, then `isready`; asserts an error was reported for it.
    pub fn expect_error(&mut self, line: &str) -> String {
        self.send(line);
        let out = self.sync();
        match out.iter().find(|l| l.starts_with("info string error:")) {
            Some(e) => e.clone(),
            None => self.fail(&format!("no 'info string error:' for {line:.80}")),
        }
    }

    /// Sends `line`, then `isready`; asserts no error was reported.
    pub fn expect_ok(&mut self, line: &str) {
        self.send(line);
        let out = self.sync();
        if let Some(e) = out.iter().find(|l| l.contains("error")) {
            let msg = format!("unexpected error for {line:.80}: {e}");
            self.fail(&msg);
        }
    }

    /// Runs `go <args>` on the current position and checks that the best
    /// move is legal there (by the library's move generator).
    pub fn go_legal(&mut self, rules: Rules, args: &str) -> (Vec<String>, String) {
        let fen = self.fen();
        let pos = Position::from_fen(&fen, rules)
            .unwrap_or_else(|e| self.fail(&format!("engine printed a bad FEN {fen}: {e:?}")));
        self.send(&format!("go {args}"));
        let (lines, mv) = self.bestmove();
        if let Err(e) = pos.parse_uci_move(&mv) {
            self.fail(&format!(
                "go {args}: bestmove {mv} is illegal in {fen}: {e}"
            ));
        }
        (lines, mv)
    }

    /// `quit` and the exit status (with a deadline).
    pub fn quit(mut self) -> std::process::ExitStatus {
        self.send("quit");
        self.close_input()
    }

    /// Closes the engine's input (end of file) and waits for it to exit;
    /// the exit status (with a deadline).
    pub fn close_input(mut self) -> std::process::ExitStatus {
        self.stdin = None;
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            if start.elapsed() > DEADLINE {
                self.fail("engine did not exit");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Only reached with the process still running when a test failed.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Engine {
    /// Reads lines until one satisfies `pred` and returns it.
    pub fn expect(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let mut lines = self.read_until(what, pred);
        lines.pop().unwrap_or_default()
    }

    /// `quit`, and asserts the engine exited with status 0.
    pub fn quit_ok(self) {
        let status = self.quit();
        assert!(status.success(), "exit status {status}");
    }
}

/// The word after `key` in a line (`field("... depth 7 ...", "depth")`).
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut w = line.split_whitespace();
    while let Some(t) = w.next() {
        if t == key {
            return w.next();
        }
    }
    None
}
