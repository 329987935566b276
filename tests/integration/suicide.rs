//! FICS suicide: antichess whose stalemates are decided by the number of
//! pieces (the side with fewer wins, equal numbers draw). Game ends through
//! the library and over both protocols, and searches that must choose by
//! that rule.
//!
//! Every expected result of an end position below was checked with
//! python-chess 1.11.2 (`chess.variant.SuicideBoard(fen).outcome()`) and
//! pyffish 0.0.90 (`game_result("suicide", fen, [])`), which agree on all
//! of them; the antichess results with python-chess `AntichessBoard`.

use crate::common::Engine;
use rukav::search::{Limits, Score, SearchResult, MATE};
use rukav::{Color, EndReason, Outcome, Position, Variant};

fn pos(variant: Variant, fen: &str) -> Position {
    Position::from_fen(fen, variant.rules()).unwrap_or_else(|e| panic!("bad FEN {fen}: {e:?}"))
}

/// The PGN result of `fen` under `variant` ("*" while play goes on).
fn result(variant: Variant, fen: &str) -> &'static str {
    pos(variant, fen).outcome().map_or("*", |o| o.result())
}

/// The bug report's position: Black (a4, a3) is stalemated by the white
/// pawn on a2 and has more pieces, so White wins. Antichess gave it to
/// Black, and so did Rukav's "suicide" when that name meant antichess.
const BUG: &str = "8/8/8/8/p7/p7/P7/8 b - - 0 1";

/// End positions and their results, as python-chess 1.11.2 `SuicideBoard`
/// and pyffish 0.0.90 (`suicide`) give them.
const ENDS: [(&str, &str, &str); 13] = [
    // Stalemated with more pieces: the stalemated side loses.
    (BUG, "1-0", "Black stalemated, 2 pieces to 1"),
    (
        "8/8/8/8/7p/7p/7P/8 b - - 0 1",
        "1-0",
        "Black stalemated, 2 pieces to 1 (h-file)",
    ),
    (
        "8/8/8/p7/P7/P7/8/8 w - - 0 1",
        "0-1",
        "White stalemated, 2 pieces to 1",
    ),
    // Stalemated with fewer pieces: the stalemated side wins.
    (
        "8/8/8/8/p7/p7/P7/8 w - - 0 1",
        "1-0",
        "White stalemated, 1 piece to 2",
    ),
    (
        "8/8/8/p7/P7/P7/8/8 b - - 0 1",
        "0-1",
        "Black stalemated, 1 piece to 2",
    ),
    // Two from random python-chess playouts (reachable positions).
    (
        "r3k3/3p3p/p2P4/2p5/8/b7/P7/8 w - - 1 29",
        "1-0",
        "White stalemated, 2 pieces to 7",
    ),
    (
        "8/8/2r2k2/p2b1p2/P7/8/8/8 w - - 0 31",
        "1-0",
        "White stalemated, 1 piece to 5",
    ),
    // As many pieces: a draw.
    (
        "8/8/8/1p6/1P6/8/8/8 w - - 0 1",
        "1/2-1/2",
        "White stalemated, 1 piece each",
    ),
    (
        "8/8/8/1p6/1P6/8/8/8 b - - 0 1",
        "1/2-1/2",
        "Black stalemated, 1 piece each",
    ),
    (
        "8/8/8/1p2p3/1P2P3/8/8/8 w - - 0 1",
        "1/2-1/2",
        "White stalemated, 2 pieces each",
    ),
    // No pieces left: that side wins.
    ("8/8/8/8/8/8/8/1r6 w - - 0 1", "1-0", "White has no pieces"),
    ("8/8/8/8/8/8/8/1R6 b - - 0 1", "0-1", "Black has no pieces"),
    // A stalemate comes before the 50-move rule.
    (
        "8/8/8/8/p7/p7/P7/8 b - - 100 80",
        "1-0",
        "Black stalemated, 2 pieces to 1, halfmove clock 100",
    ),
];

#[test]
fn end_positions_agree_with_python_chess() {
    for (fen, expected, what) in ENDS {
        assert_eq!(result(Variant::Suicide, fen), expected, "{what}: {fen}");
    }
    // Play goes on: the queen may stalemate Black (Qa2), but has not yet.
    assert_eq!(
        result(Variant::Suicide, "8/8/8/8/p7/p7/3Q4/8 w - - 0 1"),
        "*"
    );
}

/// The reasons: a stalemate won or lost on the count is `FewerPieces`
/// (the winner has fewer), one with equal counts a drawn `Stalemate`; no
/// pieces stays `NoPieces`.
#[test]
fn end_reasons() {
    assert_eq!(
        pos(Variant::Suicide, BUG).outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::FewerPieces
        })
    );
    assert_eq!(
        pos(Variant::Suicide, "8/8/8/8/p7/p7/P7/8 w - - 0 1").outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::FewerPieces
        })
    );
    assert_eq!(
        pos(Variant::Suicide, "8/8/8/1p6/1P6/8/8/8 b - - 0 1").outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Stalemate
        })
    );
    assert_eq!(
        pos(Variant::Suicide, "8/8/8/8/8/8/8/1r6 w - - 0 1").outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::NoPieces
        })
    );
}

/// Antichess and giveaway keep their rule: the stalemated side wins,
/// whatever the count (python-chess `AntichessBoard` agrees).
#[test]
fn antichess_and_giveaway_are_unchanged() {
    for variant in [Variant::Antichess, Variant::Giveaway] {
        assert_eq!(result(variant, BUG), "0-1", "{variant}");
        assert_eq!(
            result(variant, "8/8/8/1p6/1P6/8/8/8 w - - 0 1"),
            "1-0",
            "{variant}"
        );
        assert_eq!(
            result(variant, "8/8/8/p7/P7/P7/8/8 w - - 0 1"),
            "1-0",
            "{variant}"
        );
    }
}

/// Suicide has no castling: rights in a FEN are dropped, as in antichess.
#[test]
fn no_castling() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let p = pos(Variant::Suicide, fen);
    assert_eq!(p.castling_rights(), 0);
    assert!(p.parse_uci_move("e1g1").is_err());
    assert_eq!(p.count_legal(), pos(Variant::Antichess, fen).count_legal());
}

// ------------------------------------------------------------ protocols

/// UCI: the names, and the bug report's line: `position fen` of a finished
/// game and `go` give `info depth 0 score mate 0` (the game is decided)
/// and `bestmove (none)`; a drawn stalemate gives `score cp 0`.
#[test]
fn uci_finished_positions() {
    let mut e = Engine::start();
    e.send("uci");
    let options = e.read_until("uciok", |l| l == "uciok");
    let combo = options
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .expect("UCI_Variant");
    assert!(
        combo.contains(" var suicide") && combo.contains(" var antichess"),
        "{combo}"
    );
    e.expect_ok("setoption name UCI_Variant value suicide");
    for (fen, expected) in [
        (BUG, "info depth 0 score mate 0"),
        ("8/8/8/1p6/1P6/8/8/8 w - - 0 1", "info depth 0 score cp 0"),
        ("8/8/8/8/8/8/8/1r6 w - - 0 1", "info depth 0 score mate 0"),
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 3");
        let (lines, best) = e.bestmove();
        assert_eq!(best, "(none)", "{fen}: {lines:?}");
        let before = lines.iter().rev().nth(1).map(String::as_str);
        assert_eq!(before, Some(expected), "{fen}: {lines:?}");
    }
    // The engine is still there and plays on from the start position.
    e.expect_ok("position startpos");
    e.go_legal(Variant::Suicide.rules(), "depth 3");
    assert!(e.quit().success());
}

/// CECP: `variant suicide` is suicide (`antichess` is antichess); the
/// result lines of the bug report's position and of a drawn stalemate.
#[test]
fn cecp_result_lines() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.expect("variants feature", |l| {
        l.starts_with("feature ") && l.contains("variants=")
    });
    assert!(
        features.contains("suicide") && features.contains("antichess"),
        "{features}"
    );
    e.expect("done", |l| l == "feature done=1");
    let cases = [
        ("suicide", BUG, "1-0 {White has fewer pieces}"),
        (
            "suicide",
            "8/8/8/p7/P7/P7/8/8 w - - 0 1",
            "0-1 {Black has fewer pieces}",
        ),
        (
            "suicide",
            "8/8/8/1p6/1P6/8/8/8 w - - 0 1",
            "1/2-1/2 {Stalemate}",
        ),
        (
            "suicide",
            "8/8/8/8/8/8/8/1R6 b - - 0 1",
            "0-1 {Black has no pieces left and wins}",
        ),
        ("antichess", BUG, "0-1 {Black is stalemated and wins}"),
    ];
    for (i, (variant, fen, expected)) in cases.into_iter().enumerate() {
        e.send("new");
        e.send(&format!("variant {variant}"));
        e.send("force");
        e.send(&format!("setboard {fen}"));
        e.send("go");
        let line = e.expect("a result line", |l| {
            l.starts_with("move ") || l.contains(" {") || l.starts_with("Error")
        });
        assert_eq!(line, expected, "{variant} {fen}");
        e.send(&format!("ping {i}"));
        e.expect("pong", |l| l == format!("pong {i}"));
    }
    e.quit_ok();
}

// ------------------------------------------------------------ search

fn search(variant: Variant, fen: &str, depth: i32) -> SearchResult {
    let mut e = rukav::engine::Engine::new();
    e.set_rules(variant.rules());
    e.set_position(pos(variant, fen), vec![]);
    e.search_sync(
        Limits {
            depth: Some(depth),
            multipv: 1,
            ..Default::default()
        },
        &|_| {},
    )
}

/// White's queen can stalemate Black's two blocked pawns from a2 (Qa2):
/// in suicide White then has fewer pieces and wins at once; in antichess
/// the stalemated Black would win, so the move loses at once. The position
/// has three pieces, the size of the built-in antichess tables, which
/// must not answer for suicide.
#[test]
fn search_chooses_the_stalemate_by_the_piece_count() {
    let fen = "8/8/8/8/p7/p7/3Q4/8 w - - 0 1";
    for depth in [1, 4, 8] {
        let r = search(Variant::Suicide, fen, depth);
        assert_eq!(r.best.to_string(), "d2a2", "depth {depth}");
        assert_eq!(r.score, MATE - 1, "depth {depth}");
        assert_eq!(Score::from_internal(r.score), Score::Mate(1));
        let a = search(Variant::Antichess, fen, depth);
        assert_ne!(a.best.to_string(), "d2a2", "antichess, depth {depth}");
    }
}

/// A drawn stalemate as the only escape: one move stalemates Black with
/// as many pieces as White (a draw in suicide, a win for Black in
/// antichess); every other move loses by force within four plies (both
/// found and checked with python-chess 1.11.2 `SuicideBoard` by exhaustive
/// search; `Kxc5` and `c4` draw there). The search must take the draw and
/// score it 0; antichess must not take it.
#[test]
fn search_takes_a_drawn_stalemate_over_a_loss() {
    for (fen, draw) in [
        ("8/2p5/2pK4/2n5/8/5P2/8/8 w - - 0 1", "d6c5"),
        ("8/8/7p/2p4B/8/2P5/8/8 w - - 0 1", "c3c4"),
    ] {
        let p = pos(Variant::Suicide, fen);
        let m = p.parse_uci_move(draw).expect("legal");
        let mut q = p;
        q.make_move(m);
        assert_eq!(
            q.outcome(),
            Some(Outcome::Draw {
                reason: EndReason::Stalemate
            }),
            "{fen}"
        );
        for depth in [6, 9] {
            let r = search(Variant::Suicide, fen, depth);
            assert_eq!(r.best.to_string(), draw, "{fen} depth {depth}");
            assert_eq!(r.score, 0, "{fen} depth {depth}");
            let a = search(Variant::Antichess, fen, depth);
            assert_ne!(a.best.to_string(), draw, "antichess {fen} depth {depth}");
        }
    }
}
