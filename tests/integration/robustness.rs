//! What careless GUIs and servers do, and the engine must survive: asking
//! for a move in a finished game (xboard states the result), a hash table
//! larger than the memory it may have, far more threads than cores.

use crate::common;

use common::Engine;
use rukav::{Position, Variant};

/// xboard, told to move in a finished game, states the result by our rules.
#[test]
fn xboard_go_in_a_finished_game_states_the_result() {
    let cases = [
        (
            "suicide",
            "rn6/8/8/8/1p2p3/8/8/8 w - - 0 26",
            "1-0 {White has no pieces left and wins}",
        ),
        (
            "antichess",
            "8/8/8/8/p7/P7/8/8 w - - 0 30",
            "1-0 {White is stalemated and wins}",
        ),
        // FICS suicide: a stalemate with as many pieces is a draw.
        (
            "suicide",
            "8/8/8/8/p7/P7/8/8 w - - 0 30",
            "1/2-1/2 {Stalemate}",
        ),
        (
            "giveaway",
            "8/8/8/8/p7/P7/8/8 b - - 0 30",
            "0-1 {Black is stalemated and wins}",
        ),
        (
            "crazyhouse",
            "7k/6Q1/6K1/8/8/8/8/8[] b - - 0 1",
            "1-0 {White mates}",
        ),
        (
            "normal",
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            "1-0 {White mates}",
        ),
        (
            "normal",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "1/2-1/2 {Stalemate}",
        ),
        (
            "normal",
            "8/8/8/4k3/8/8/3R4/4K3 w - - 100 80",
            "1/2-1/2 {Draw by the 50-move rule}",
        ),
        (
            "normal",
            "8/8/8/4k3/8/8/8/4KB2 w - - 0 60",
            "1/2-1/2 {Draw by insufficient material}",
        ),
        (
            "kingschess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 10 --",
            "0-1 {White missed the king-move duty}",
        ),
        (
            "crazyhouse",
            "r1bqkbnr/pppp1Qpp/2n5/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR[] b KQkq - 0 4",
            "1-0 {White mates}",
        ),
    ];
    let mut s = Engine::start();
    s.send("xboard");
    s.send("protover 2");
    s.expect("features", |l| l == "feature done=1");
    for (i, (variant, fen, result)) in cases.iter().enumerate() {
        s.send("new");
        s.send(&format!("variant {variant}"));
        s.send("force");
        s.send(&format!("setboard {fen}"));
        s.send("go");
        let line = s.expect("a result or a move", |l| {
            l.starts_with("move ") || l.contains(" {") || l.starts_with("Error")
        });
        assert_eq!(line, *result, "{variant} {fen}");
        s.send(&format!("ping {i}"));
        let pong = format!("pong {i}");
        s.expect("pong", |l| l == pong);
    }
    s.quit_ok();
}

/// A bughouse board: a mate that no dropped piece could block is stated;
/// a check that one could block waits for the piece (saying so) and the
/// move comes when `holding` brings it.
#[test]
fn xboard_bughouse_board_states_a_true_mate_and_waits_for_a_blocking_piece() {
    let mut s = Engine::start();
    s.send("xboard");
    s.send("protover 2");
    s.expect("features", |l| l == "feature done=1");
    s.send("new");
    s.send("variant bughouse");
    s.send("force");
    s.send("setboard 7k/6Q1/6K1/8/8/8/8/8[] b - - 0 1");
    s.send("go");
    let line = s.expect("a result", |l| l.starts_with("move ") || l.contains(" {"));
    assert_eq!(line, "1-0 {White mates}");

    s.send("new");
    s.send("variant bughouse");
    s.send("force");
    s.send("setboard k6R/pp6/8/8/8/8/8/K7[] b - - 0 1");
    s.send("sd 4");
    s.send("go");
    let line = s.expect("why no move comes", |l| {
        l.starts_with("move ") || l.contains(" {") || l.starts_with('#')
    });
    assert_eq!(
        line,
        "# no legal move: waiting for a piece to block the check"
    );
    s.send("holding [] [n]");
    let reply = s.expect("a move", |l| l.starts_with("move ") || l.contains(" {"));
    let mv = reply.trim_start_matches("move ");
    assert!(
        mv.starts_with("N@") && "bcdefg".contains(&mv[2..3]) && mv.ends_with('8'),
        "{reply}: the knight must block on the eighth rank"
    );
    s.quit_ok();
}

/// A move that ends the game: the engine says so instead of thinking.
#[test]
fn xboard_states_the_result_after_a_mating_usermove() {
    let mut s = Engine::start();
    s.send("xboard");
    s.send("protover 2");
    s.expect("features", |l| l == "feature done=1");
    s.send("new");
    s.send("variant crazyhouse");
    s.send("force");
    s.send("setboard r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR[] w KQkq - 4 4");
    s.send("playother");
    s.send("usermove h5f7");
    let line = s.expect("result", |l| l.starts_with("move ") || l.contains(" {"));
    assert_eq!(line, "1-0 {White mates}");
    s.quit_ok();
}

/// The engine may have 3 GB of address space here: 8 GB of hash cannot be
/// had. It says so, keeps its table, and plays on.
#[test]
fn a_hash_larger_than_the_memory_is_refused_and_play_goes_on() {
    let limit = "ulimit -v 3000000";
    let mut u = Engine::start_in_shell(limit);
    u.send("uci");
    u.expect("uciok", |l| l == "uciok");
    u.send("setoption name UCI_Variant value crazyhouse");
    let err = u.expect_error("setoption name Hash value 8000");
    assert_eq!(
        err,
        "info string error: cannot allocate 8000 MB for the hash table; keeping 16 MB"
    );
    u.send("setoption name Hash value 64");
    let err = u.expect_error("setoption name Hash value 8192");
    assert!(err.ends_with("keeping 64 MB"), "{err}");
    u.expect_ok("position startpos moves e2e4");
    u.go_legal(Variant::Crazyhouse.rules(), "depth 6");
    assert!(u.quit().success());

    let mut x = Engine::start_in_shell(limit);
    x.send("xboard");
    x.send("protover 2");
    x.expect("features", |l| l == "feature done=1");
    x.send("new");
    x.send("variant crazyhouse");
    x.send("memory 8000");
    let err = x.expect("error", |l| l.starts_with("Error"));
    assert!(err.contains("cannot allocate 8000 MB"), "{err}");
    x.send("ping 1");
    x.expect("pong", |l| l == "pong 1");
    x.send("sd 5");
    x.send("usermove e2e4");
    let reply = x.expect("move", |l| l.starts_with("move "));
    let mut pos = Position::startpos(Variant::Crazyhouse);
    pos.make_move(pos.parse_uci_move("e2e4").unwrap());
    assert!(pos
        .parse_uci_move(reply.trim_start_matches("move "))
        .is_ok());
    x.quit_ok();
}

/// 256 search threads on a machine with a few cores: a legal move comes
/// before the clock runs out. The bound is the whole 2 s clock, about seven
/// times what the engine takes here (0.28 s); how close the engine keeps to
/// its own limits is measured by scripts/time-limits.py, not here.
#[test]
fn many_more_threads_than_cores_still_play() {
    let mut s = Engine::start();
    s.send("uci");
    s.expect("uciok", |l| l == "uciok");
    s.send("setoption name UCI_Variant value crazyhouse");
    s.send("setoption name Threads value 256");
    s.expect_ok("position startpos moves e2e4 d7d5");
    let start = std::time::Instant::now();
    s.go_legal(Variant::Crazyhouse.rules(), "wtime 2000 btime 2000");
    let used = start.elapsed();
    assert!(
        used < std::time::Duration::from_millis(2000),
        "Threads 256 with 2 s on the clock answered after {used:?}: lost on time"
    );
    s.go_legal(Variant::Crazyhouse.rules(), "movetime 300");
    s.send("xboard");
    s.expect("unknown", |l| l.starts_with("info string error"));
    assert!(s.quit().success());

    let mut x = Engine::start();
    x.send("xboard");
    x.send("protover 2");
    x.expect("features", |l| l == "feature done=1");
    x.send("new");
    x.send("cores 99999");
    x.send("st 1");
    x.send("usermove e2e4");
    x.expect("move", |l| l.starts_with("move "));
    x.quit_ok();
}
