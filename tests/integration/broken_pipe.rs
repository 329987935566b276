//! The binary ends quietly when the reader of its stdout has gone, as
//! command-line tools do (`rukav perft 4 | head -2`): exit status 0, no
//! panic, no "Broken pipe" on stderr. The engine's protocol loop too: with
//! stdout closed it ends instead of going on for nobody.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const RUKAV: &str = env!("CARGO_BIN_EXE_rukav");

/// The subcommands checked, each with output of more than two lines.
const TOOLS: [&[&str]; 3] = [
    &["perft", "4", "--variant", "crazyhouse"],
    &["spsa-params"],
    &["bench", "1"],
];

/// Asserts exit status 0 and nothing about a panic or a broken pipe on
/// stderr.
fn assert_quiet(what: &str, status: ExitStatus, stderr: &[u8]) {
    let stderr = String::from_utf8_lossy(stderr);
    assert!(status.success(), "{what}: {status}; stderr: {stderr}");
    for bad in ["panicked", "Broken pipe"] {
        assert!(!stderr.contains(bad), "{what}: stderr says {bad}: {stderr}");
    }
}

/// `rukav ARGS | head -2`: the reader reads two lines and closes. (Where
/// the tool has written everything into the pipe before the reader closes
/// it, the tool never meets the closed pipe: see the test below for a
/// closed pipe every time.)
#[test]
fn tools_end_quietly_when_the_reader_stops_after_two_lines() {
    for args in TOOLS {
        let mut child = Command::new(RUKAV)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("rukav starts");
        let mut reader = BufReader::new(child.stdout.take().expect("stdout is piped"));
        for _ in 0..2 {
            let mut line = String::new();
            reader.read_line(&mut line).expect("a line");
            assert!(!line.is_empty(), "{args:?}: fewer than two lines");
        }
        drop(reader);
        let out = child.wait_with_output().expect("rukav ends");
        assert_quiet(&format!("{args:?}"), out.status, &out.stderr);
    }
}

/// Stdout is a pipe whose reader has gone before the tool starts: its
/// first line meets the closed pipe.
#[test]
fn tools_end_quietly_when_stdout_is_closed() {
    for args in TOOLS {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = Command::new(RUKAV)
            .args(args)
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .expect("rukav runs");
        assert_quiet(&format!("{args:?}"), out.status, &out.stderr);
    }
}

/// The engine with stdout closed and stdin still open: its first answer
/// meets the closed pipe, and the loop ends as at the end of input (UCI
/// and xboard).
#[test]
fn the_engine_ends_when_stdout_is_closed() {
    for first in ["uci\n", "xboard\nprotover 2\n"] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let mut child = Command::new(RUKAV)
            .stdin(Stdio::piped())
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .expect("rukav starts");
        let mut stdin = child.stdin.take().expect("stdin is piped");
        stdin.write_all(first.as_bytes()).expect("the engine reads");
        stdin.flush().expect("the engine reads");
        let start = Instant::now();
        let ended = loop {
            match child.try_wait().expect("the engine's status") {
                Some(_) => break true,
                None if start.elapsed() > Duration::from_secs(20) => break false,
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        if !ended {
            let _ = child.kill();
        }
        drop(stdin);
        let out = child.wait_with_output().expect("the engine ends");
        assert!(ended, "{first:?}: the engine went on with stdout closed");
        assert_quiet(first, out.status, &out.stderr);
    }
}
