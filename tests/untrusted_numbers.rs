//! Numbers of any size from a careless or hostile client never overflow
//! the engine's arithmetic: clocks, increments, moves to go, move times,
//! depths, hash sizes, thread counts, over UCI and xboard. CI also runs this
//! file in a debug build, where an integer overflow panics (and the engine
//! would die, failing the test).

mod common;

use common::Engine;
const HUGE: [&str; 5] = [
    "9223372036854775807",
    "18446744073709551615",
    "99999999999999999999999999999999",
    "-9223372036854775808",
    "0",
];

#[test]
fn uci_go_with_extreme_clocks() {
    let mut s = Engine::start();
    s.send("uci");
    s.expect("uciok", |l| l == "uciok");
    for variant in ["crazyhouse", "bughouse", "chess"] {
        s.send(&format!("setoption name UCI_Variant value {variant}"));
        s.send("setoption name UCI_Bughouse value true");
        s.send("position startpos moves e2e4");
        for t in HUGE {
            for inc in HUGE {
                s.send(&format!("bughouse clocks {t} {t} {inc} {t}"));
                s.send(&format!(
                    "go depth 2 wtime {t} btime {t} winc {inc} binc {inc} movestogo {inc}"
                ));
                s.expect("bestmove", |l| l.starts_with("bestmove "));
            }
            s.send(&format!("go depth 2 movetime {t}"));
            s.expect("bestmove", |l| l.starts_with("bestmove "));
        }
    }
    // Values that do not fit their type are refused, not wrapped.
    for bad in [
        "go depth 99999999999999999999",
        "go nodes -5",
        "setoption name Hash value 99999999999999999999999",
        "setoption name Threads value -1",
        "setoption name MultiPV value 4294967297",
    ] {
        s.send(bad);
        s.expect("error", |l| l.starts_with("info string error"));
    }
    s.send("isready");
    s.expect("readyok", |l| l == "readyok");
    s.quit_ok();
}

#[test]
fn xboard_extreme_clocks_and_levels() {
    let mut s = Engine::start();
    s.send("xboard");
    s.send("protover 2");
    s.expect("done", |l| l == "feature done=1");
    for (i, t) in HUGE.iter().enumerate() {
        s.send("new");
        s.send("variant crazyhouse");
        s.send(&format!("level 0 {t} {t}"));
        s.send(&format!("level {t} 5 0"));
        s.send(&format!("time {t}"));
        s.send(&format!("otim {t}"));
        s.send(&format!("st {t}"));
        s.send("sd 2");
        s.send(&format!("memory {t}"));
        s.send(&format!("cores {t}"));
        s.send("cores 1");
        s.send("usermove e2e4");
        s.expect("engine move", |l| l.starts_with("move "));
        s.send(&format!("ping {i}"));
        let pong = format!("pong {i}");
        s.expect("pong", |l| l == pong);
    }
    s.send("st 1e308");
    s.send("st inf");
    s.expect("bad st", |l| l.starts_with("Error"));
    s.quit_ok();
}
