//! xboard analysis mode, scripted as xboard drives it: `post`, `analyze`,
//! thinking lines, `.` answered with `stat01: ...`, moves, `undo`, `new`,
//! `setboard` and (crazyhouse, bughouse) `holding` restarting the analysis
//! on the new position, `exit`. No move is ever played in analysis mode.

use crate::common;

use common::Engine;
use rukav::{Position, Variant};

fn start() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.read_until("feature done=1", |l| l == "feature done=1");
    assert!(
        features.iter().any(|l| l.contains(" analyze=1 ")),
        "{features:?}"
    );
    for name in ["Skill Level", "UCI_LimitStrength", "UCI_Elo"] {
        assert!(
            features
                .iter()
                .any(|l| l.starts_with(&format!("feature option=\"{name} -"))),
            "{name} missing from {features:?}"
        );
    }
    assert!(!features.iter().any(|l| l.contains("UCI_ShowWDL")));
    e
}

/// A thinking line: depth, score, time, nodes, then the PV.
fn is_thinking(line: &str) -> bool {
    let w: Vec<&str> = line.split_whitespace().collect();
    w.len() >= 5 && w[..4].iter().all(|x| x.parse::<i64>().is_ok())
}

/// The first PV move of the next thinking line; fails on a `move` line.
fn next_pv_move(e: &mut Engine) -> String {
    let l = e.expect("a thinking line", |l| {
        is_thinking(l) || l.starts_with("move ")
    });
    if l.starts_with("move ") {
        e.fail("a move was played in analysis mode");
    }
    l.split_whitespace().nth(4).unwrap_or_default().to_string()
}

/// `ping n` and everything up to `pong n`.
fn ping(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let pong = format!("pong {n}");
    e.read_until("pong", |l| l == pong)
}

/// Sends `.` and checks the `stat01` line: time nodes depth left total move.
fn stat(e: &mut Engine, pos: &Position) -> Vec<String> {
    e.send(".");
    let line = e.expect("stat01", |l| l.starts_with("stat01: "));
    let w: Vec<&str> = line.split_whitespace().collect();
    assert!(w.len() == 7 || w.len() == 6, "{line}");
    let n: Vec<u64> = w[1..6]
        .iter()
        .map(|x| x.parse().unwrap_or_else(|_| panic!("{line}")))
        .collect();
    let total = pos.legal_moves().len() as u64;
    if n[2] > 0 {
        assert_eq!(n[4], total, "{line}");
        assert!(n[3] < total, "{line}");
        if let Some(m) = w.get(6) {
            assert!(
                pos.parse_uci_move(m).is_ok(),
                "{line}: {m} is not a root move"
            );
        }
    }
    w.iter().map(|s| s.to_string()).collect()
}

fn legal_in(pos: &Position, m: &str) -> bool {
    pos.parse_uci_move(m).is_ok()
}

#[test]
fn analysis_follows_the_position() {
    let mut e = start();
    let rules = Variant::Chess.rules();
    e.send("new");
    e.send("post");
    e.send("analyze");
    let start_pos = Position::start_with(rules);
    let m = next_pv_move(&mut e);
    assert!(legal_in(&start_pos, &m), "{m}");
    stat(&mut e, &start_pos);
    // A move: the analysis goes on from Black's side.
    e.send("usermove e2e4");
    let mut after = start_pos;
    after.make_move(start_pos.parse_uci_move("e2e4").expect("legal"));
    ping(&mut e, 1);
    let m = next_pv_move(&mut e);
    assert!(legal_in(&after, &m), "{m} after e2e4");
    stat(&mut e, &after);
    // undo: back to the start position.
    e.send("undo");
    ping(&mut e, 2);
    let m = next_pv_move(&mut e);
    assert!(legal_in(&start_pos, &m), "{m} after undo");
    // setboard: a mate in one is found.
    e.send("setboard r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    ping(&mut e, 3);
    let l = e.expect("the mate", |l| is_thinking(l) && l.contains(" h5f7"));
    assert!(l.split_whitespace().nth(1) == Some("100001"), "{l}");
    // new: the start position again, still analysing.
    e.send("new");
    ping(&mut e, 4);
    let m = next_pv_move(&mut e);
    assert!(legal_in(&start_pos, &m), "{m} after new");
    // exit: no more thinking lines, and `.` gets no answer.
    e.send("exit");
    ping(&mut e, 5);
    e.send(".");
    let quiet = ping(&mut e, 6);
    assert!(
        !quiet
            .iter()
            .any(|l| is_thinking(l) || l.starts_with("stat01") || l.starts_with("move ")),
        "{quiet:?}"
    );
    // Back to playing: `go` makes a move.
    e.send("sd 4");
    e.send("go");
    e.expect("a move", |l| l.starts_with("move "));
    assert!(e.quit().success());
}

#[test]
fn analysis_restarts_on_pocket_changes() {
    for variant in ["crazyhouse", "bughouse"] {
        let mut e = start();
        let rules = match variant {
            "crazyhouse" => Variant::Crazyhouse.rules(),
            _ => Variant::Bughouse.rules(),
        };
        e.send("new");
        e.send(&format!("variant {variant}"));
        e.send("force");
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[] w KQkq - 4 4";
        e.send(&format!("setboard {fen}"));
        e.send("post");
        e.send("analyze");
        let pos = Position::from_fen(fen, rules).expect("fen");
        let m = next_pv_move(&mut e);
        assert!(legal_in(&pos, &m), "{variant}: {m}");
        // A queen arrives in White's hand: drops become possible.
        e.send("holding [Q] []");
        ping(&mut e, 1);
        let with_queen = Position::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Q] w KQkq - 4 4",
            rules,
        )
        .expect("fen");
        let m = next_pv_move(&mut e);
        assert!(
            legal_in(&with_queen, &m),
            "{variant}: {m} with a queen in hand"
        );
        // The status counts the root moves of the new position (the drops too).
        let s = stat(&mut e, &with_queen);
        assert_eq!(s.len(), 7, "{s:?}");
        assert!(with_queen.legal_moves().len() > pos.legal_moves().len());
        // No partner talk in analysis mode.
        let rest = ping(&mut e, 2);
        assert!(!rest.iter().any(|l| l.starts_with("tellics")), "{rest:?}");
        e.send("exit");
        assert!(e.quit().success());
    }
}
