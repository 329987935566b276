//! Exactly one result per search: a `go` gets one `bestmove`, whatever
//! arrives while its search ends (a bughouse `holding` that restarts a
//! running search, `stop`, a new `position`).
//!
//! The bug this guards against: a `bughouse holding` that arrived just
//! after the search thread had written its `bestmove`, but before the thread
//! had exited, found the search still "running", restarted it on the new
//! pockets, and the restarted search wrote a second `bestmove` for the same
//! `go`. A bughouse arena took that stale move as the answer to its next
//! `go` and forfeited the game for an illegal move.
//!
//! The engine-level test hits that moment on purpose: it waits (spinning on
//! an atomic counter, no sleeping) until the search has reported and sends
//! the pocket change right then. The session test drives the binary with
//! many `go` / `holding` / `stop` / `position` sequences. Nothing here
//! asserts anything about time.

use crate::common;

use rukav::engine::{Engine, GoRequest, Listener};
use rukav::search::{Info, Limits, SearchResult};
use rukav::{Color, PieceType, Position, Variant};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The result of one `go`, checked against the position it was asked for.
struct Probe {
    go: usize,
    root: Position,
    /// (go, move, legal in `root`) of every result reported.
    reports: Arc<Mutex<Vec<(usize, String, bool)>>>,
    /// Results reported so far (all searches).
    done: Arc<AtomicUsize>,
    /// After reporting, keep the search thread a while (a slow listener,
    /// like a blocked stdout): the test's pocket change then lands while
    /// the thread has reported but not yet ended. A bounded spin, so that
    /// the test cannot hang; nothing depends on how long it takes.
    linger: bool,
}

impl Listener for Probe {
    fn info(&self, _info: &Info) {}
    fn best_move(&self, result: &SearchResult) {
        let text = self.root.uci_move(result.best);
        let legal = !result.best.is_null() && self.root.parse_uci_move(&text).is_ok();
        self.reports.lock().unwrap().push((self.go, text, legal));
        self.done.fetch_add(1, Ordering::SeqCst);
        if self.linger {
            for _ in 0..20_000 {
                std::hint::spin_loop();
            }
        }
    }
}

/// Bughouse positions with pieces in both pockets, White to move. The
/// pocket changes of the test touch only Black's pocket, so White's legal
/// moves (and the check of each reported move) do not depend on them.
const FENS: [&str; 3] = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Np] w KQkq - 2 3",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QRBNPqrbnp] w KQkq - 0 1",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1[BPp] w - - 0 7",
];

/// Black's pocket with `extra` more pawns than in `pos`, White's as it is.
fn pockets(pos: &Position, extra: u8) -> [[u8; 5]; 2] {
    let mut counts = [[0u8; 5]; 2];
    for c in Color::ALL {
        for k in PieceType::POCKET {
            counts[c.index()][k.index()] = pos.pocket(c, k);
        }
    }
    counts[Color::Black.index()][PieceType::Pawn.index()] += extra;
    counts
}

#[test]
fn a_pocket_change_as_the_search_reports_gets_no_second_result() {
    let mut engine = Engine::new();
    engine.set_variant(Variant::Bughouse);
    let rules = engine.rules();
    let roots: Vec<Position> = FENS
        .iter()
        .map(|f| Position::from_fen(f, rules).expect("a test FEN"))
        .collect();
    let reports = Arc::new(Mutex::new(Vec::new()));
    let done = Arc::new(AtomicUsize::new(0));
    const GOES: usize = 2000;
    for go in 0..GOES {
        let root = roots[go % roots.len()];
        engine.set_position(root, Vec::new());
        let probe = Probe {
            go,
            root,
            reports: reports.clone(),
            done: done.clone(),
            linger: go % 4 < 2,
        };
        let request = GoRequest {
            limits: Limits {
                depth: Some(1 + (go % 2) as i32),
                ..Limits::default()
            },
            ..GoRequest::default()
        };
        let before = done.load(Ordering::SeqCst);
        engine.go(request, Arc::new(probe));
        match go % 4 {
            // The pocket change right as the search has reported: the
            // moment of the bug.
            0 | 1 => {
                while done.load(Ordering::SeqCst) == before {
                    std::hint::spin_loop();
                }
                let extra = 1 + (go % 2) as u8;
                engine.set_pockets(pockets(&root, extra)).unwrap();
            }
            // The pocket change at once, while the search runs (it restarts).
            2 => {
                engine.set_pockets(pockets(&root, 1)).unwrap();
            }
            // `stop` at once.
            _ => engine.stop(),
        }
        // The next `position`/`go` stops whatever still runs (as UCI does).
        engine.stop();
    }
    engine.stop();
    let reports = reports.lock().unwrap();
    let mut per_go = vec![0usize; GOES];
    for (go, text, legal) in reports.iter() {
        per_go[*go] += 1;
        assert!(*legal, "go {go}: illegal move {text} reported");
    }
    let wrong: Vec<(usize, usize)> = per_go
        .iter()
        .enumerate()
        .filter(|(_, n)| **n != 1)
        .map(|(go, n)| (go, *n))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {GOES} searches did not report exactly one result (go, results): {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(20)]
    );
}

#[test]
fn a_session_of_go_holding_stop_position_gets_one_bestmove_per_go() {
    let mut e = common::Engine::start();
    e.send("setoption name UCI_Variant value bughouse");
    e.send("setoption name UCI_Bughouse value true");
    e.sync();
    let rules = Variant::Bughouse.rules();
    let roots: Vec<Position> = FENS
        .iter()
        .map(|f| Position::from_fen(f, rules).expect("a test FEN"))
        .collect();
    // Each round: `position`, `go` with a tiny budget, then what may come
    // while the search ends. Every `go` stops the previous search first, so
    // the k-th `bestmove` answers the k-th `go`.
    const ROUNDS: usize = 1500;
    let mut asked = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS {
        let root = roots[round % roots.len()];
        asked.push(root);
        e.send(&format!("position fen {}", FENS[round % FENS.len()]));
        let go = match round % 3 {
            0 => "go depth 1",
            1 => "go nodes 1",
            _ => "go wtime 20 btime 20",
        };
        e.send(go);
        let holding = format!("bughouse holding {}p", root.pocket_string());
        match round % 6 {
            0 => e.send(&holding),
            1 => e.send("stop"),
            2 => {
                e.send(&holding);
                e.send("stop");
                e.send("stop");
            }
            3 => {
                e.send("stop");
                e.send(&holding);
            }
            4 => e.send("ponderhit"),
            _ => {}
        }
        // A `stop` with no search running must not answer.
        if round % 5 == 0 {
            e.send("stop");
        }
    }
    // `position` ends the last search (its bestmove comes first), then
    // `isready` marks the end of the answers.
    e.send("position startpos");
    let lines = e.sync();
    let moves: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .map(|l| l.split_whitespace().nth(1).unwrap_or(""))
        .collect();
    if moves.len() != ROUNDS {
        e.fail(&format!(
            "{} bestmoves for {ROUNDS} go commands",
            moves.len()
        ));
    }
    for (k, (root, mv)) in asked.iter().zip(&moves).enumerate() {
        if root.parse_uci_move(mv).is_err() {
            e.fail(&format!(
                "bestmove {mv} (round {k}) is illegal in {}",
                root.fen()
            ));
        }
    }
    e.quit_ok();
}

#[test]
fn a_pocket_change_after_ponderhit_restarts_a_timed_search() {
    // After `ponderhit` the search is timed: one restarted by a pocket
    // change must end on its own, not ponder again until a second
    // `ponderhit` or `stop`.
    let mut e = common::Engine::start();
    e.send("setoption name UCI_Variant value bughouse");
    e.send("setoption name UCI_Bughouse value true");
    e.send(&format!("position fen {}", FENS[1]));
    e.send("go ponder wtime 3000 btime 3000");
    e.send("ponderhit");
    e.send("bughouse holding QRBNPqrbnpp");
    let (_, mv) = e.bestmove();
    let root = Position::from_fen(FENS[1], Variant::Bughouse.rules()).unwrap();
    assert!(root.parse_uci_move(&mv).is_ok(), "illegal bestmove {mv}");
    // And it answered once: nothing more before `readyok`.
    e.send("stop");
    let more = e.sync();
    assert!(
        !more.iter().any(|l| l.starts_with("bestmove")),
        "a second bestmove: {more:?}"
    );
    e.quit_ok();
}

/// xboard repeats the holdings after every move (`holding [] []` about
/// 80 ms after each `usermove` on FICS): an unchanged holding must leave a
/// running search alone instead of starting it again from depth 1. A
/// restart would start from zero nodes; the same search goes on counting.
#[test]
fn an_unchanged_holding_does_not_restart_the_search() {
    let mut engine = Engine::new();
    engine.set_variant(Variant::Bughouse);
    let root = Position::from_fen(FENS[0], engine.rules()).expect("a test FEN");
    engine.set_position(root, Vec::new());
    let probe = Probe {
        go: 0,
        root,
        reports: Arc::new(Mutex::new(Vec::new())),
        done: Arc::new(AtomicUsize::new(0)),
        linger: false,
    };
    let request = GoRequest {
        limits: Limits {
            infinite: true,
            ..Limits::default()
        },
        ..GoRequest::default()
    };
    engine.go(request, Arc::new(probe));
    let nodes = |e: &Engine| e.progress().map_or(0, |(_, n, _)| n);
    while nodes(&engine) < 100_000 {
        std::hint::spin_loop();
    }
    let before = nodes(&engine);
    assert_eq!(engine.set_pockets(engine.pocket_counts()), Ok(false));
    assert!(nodes(&engine) >= before, "the search started again");
    assert_eq!(engine.set_pockets(pockets(&root, 1)), Ok(true));
    assert!(nodes(&engine) < before, "a new pocket restarts the search");
    engine.stop();
}
