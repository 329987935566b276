//! Scripted UCI sessions against the built `rukav` binary.
//!
//! Each test spawns the engine with piped stdin/stdout. A reader thread
//! forwards stdout lines through a channel; every wait for a line has a
//! generous deadline (`recv_timeout`), so a hung engine fails the test with
//! the transcript instead of hanging it. No test asserts anything about time.

use crate::common;

use common::{field, Engine};
use rukav::{Position, Variant};

fn first_pv_move(line: &str) -> Option<&str> {
    field(line, "pv")
}

// ------------------------------------------------------------------ tests

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until("uciok", |l| l == "uciok");
    assert!(
        lines.iter().any(|l| l.starts_with("id name Rukav")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    // (name, type, default, combo values)
    let use_nnue = if rukav::eval::nnue::USE_NNUE_DEFAULT {
        "true"
    } else {
        "false"
    };
    let expected: [(&str, &str, Option<&str>, &[&str]); 28] = [
        ("Hash", "spin", Some("16"), &[]),
        ("Threads", "spin", Some("1"), &[]),
        ("Clear Hash", "button", None, &[]),
        ("Ponder", "check", Some("false"), &[]),
        ("MultiPV", "spin", Some("1"), &[]),
        ("Move Overhead", "spin", Some("30"), &[]),
        ("Skill Level", "spin", Some("20"), &[]),
        ("UCI_LimitStrength", "check", Some("false"), &[]),
        ("UCI_Elo", "spin", Some("3055"), &[]),
        ("UCI_ShowWDL", "check", Some("false"), &[]),
        (
            "UCI_Variant",
            "combo",
            Some("chess"),
            &[
                "chess",
                "crazyhouse",
                "bughouse",
                "antichess",
                "giveaway",
                "suicide",
                "kingschess",
            ],
        ),
        ("UCI_Chess960", "check", Some("false"), &[]),
        ("DropCheck", "check", Some("true"), &[]),
        ("DropMate", "check", Some("true"), &[]),
        ("PawnDrop7th", "check", Some("true"), &[]),
        (
            "PawnDrop2nd",
            "combo",
            Some("allowed"),
            &["allowed", "forbidden", "check-only"],
        ),
        ("PromotedRevert", "check", Some("true"), &[]),
        ("DroppedRookCastles", "check", Some("false"), &[]),
        (
            "PromotionRule",
            "combo",
            Some("standard"),
            &["standard", "gambler"],
        ),
        ("UCI_Bughouse", "check", Some("false"), &[]),
        ("PartnerMessages", "check", Some("true"), &[]),
        (
            "EvalFile",
            "string",
            Some(rukav::eval::nnue::DEFAULT_NET_NAME),
            &[],
        ),
        ("Use NNUE", "check", Some(use_nnue), &[]),
        ("AntichessTables", "string", Some("<builtin>"), &[]),
        ("SyzygyPath", "string", Some("<empty>"), &[]),
        ("SyzygyProbeDepth", "spin", Some("1"), &[]),
        ("Syzygy50MoveRule", "check", Some("true"), &[]),
        ("SyzygyProbeLimit", "spin", Some("7"), &[]),
    ];
    assert_eq!(options.len(), expected.len(), "{options:#?}");
    for (name, kind, default, vars) in expected {
        let prefix = format!("option name {name} type ");
        let line = options
            .iter()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no option {name} in {options:#?}"));
        let rest = &line[prefix.len()..];
        assert_eq!(rest.split_whitespace().next(), Some(kind), "{line}");
        assert_eq!(field(rest, "default"), default, "{line}");
        let got_vars: Vec<&str> = rest
            .split_whitespace()
            .collect::<Vec<_>>()
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1])
            .collect();
        assert_eq!(got_vars, vars, "{line}");
        if kind == "spin" {
            let min: i64 = field(rest, "min").expect("min").parse().expect("min");
            let max: i64 = field(rest, "max").expect("max").parse().expect("max");
            let d: i64 = default.expect("default").parse().expect("default");
            assert!(min <= d && d <= max, "{line}");
        }
    }
    // uciok comes last, after every option.
    assert_eq!(lines.last().map(String::as_str), Some("uciok"));
    assert!(e.sync().is_empty());
    assert!(e.quit().success());
}

/// `UCI_Chess960`: X-FEN in and out, castling written and read king takes
/// rook, in chess and crazyhouse; off again, the standard forms.
#[test]
fn chess960_castling_over_uci() {
    let mut e = Engine::start();
    for (variant, pocket) in [(Variant::Chess, ""), (Variant::Crazyhouse, "[]")] {
        e.set_variant(variant);
        e.expect_ok("setoption name UCI_Chess960 value true");
        let mut rules = variant.rules();
        rules.chess960 = true;
        // Fischer-5 of tests/perft/chess960.epd: the king on g1 castles short
        // by moving only its rook (g1h1); Shredder-FEN in, X-FEN out.
        let fen =
            format!("qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR{pocket} w HEhe - 1 9");
        e.expect_ok(&format!("position fen {fen}"));
        let written = e.fen();
        assert_eq!(written, fen.replace("HEhe", "KQkq"));
        e.send("go perft 1");
        let lines = e.read_until("perft", |l| l.starts_with("Nodes searched"));
        assert!(lines.iter().any(|l| l == "g1h1: 1"), "{lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("g1g1")), "{lines:?}");
        e.expect_ok(&format!("position fen {fen} moves g1h1"));
        let after = e.fen();
        assert!(
            after.starts_with("qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1RRK1"),
            "{after}"
        );
        assert!(after.contains(" b kq "), "{after}");
        e.go_legal(rules, "depth 4");
        // Start position 0 (BBQNNRKR): X-FEN KQkq in and out.
        let start0 = format!("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR{pocket} w KQkq - 0 1");
        e.expect_ok(&format!("position fen {start0}"));
        assert_eq!(e.fen(), start0);
        e.go_legal(rules, "depth 3");
        // Off again: the standard position and notation.
        e.expect_ok("setoption name UCI_Chess960 value false");
        e.expect_ok("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1");
        assert!(e.fen().starts_with("r3k2r/8/8/8/8/8/8/R4RK1"));
        let err = e.expect_error(&format!("position fen {fen}"));
        assert!(err.contains("Chess960"), "{err}");
    }
    assert!(e.quit().success());
}

#[test]
fn every_variant_start_position_gets_a_legal_move() {
    let mut e = Engine::start();
    for v in Variant::ALL {
        e.set_variant(v);
        e.expect_ok("ucinewgame");
        e.expect_ok("position startpos");
        let fen = e.fen();
        assert_eq!(fen, Position::start_with(v.rules()).fen(), "{v}");
        let (lines, _) = e.go_legal(v.rules(), "depth 3");
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{v}: no info lines"
        );
    }
    assert!(e.quit().success());
}

#[test]
fn fen_with_pockets_and_promoted_marks_round_trips() {
    let mut e = Engine::start();
    e.set_variant(Variant::Crazyhouse);
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKQ~1R[QRBNPqrbnp] w kq - 4 4";
    e.expect_ok(&format!("position fen {fen}"));
    assert_eq!(e.fen(), fen);
    e.go_legal(Variant::Crazyhouse.rules(), "depth 3");
    // Bughouse reads the same notation, also the older "ninth rank" pocket.
    e.set_variant(Variant::Bughouse);
    e.expect_ok(&format!("position fen {fen}"));
    assert_eq!(e.fen(), fen);
    let old = "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKQ~1R/QRBNPqrbnp w kq - 4 4";
    e.expect_ok(&format!("position fen {old}"));
    assert_eq!(e.fen(), fen);
    e.go_legal(Variant::Bughouse.rules(), "depth 3");
    assert!(e.quit().success());
}

#[test]
fn drops_in_move_lists() {
    let mut e = Engine::start();
    e.set_variant(Variant::Crazyhouse);
    let rules = Variant::Crazyhouse.rules();
    let moves = ["e2e4", "d7d5", "e4d5", "d8d5", "P@e4", "d5a5", "n@f3"];
    // The library's own replay is the reference; `n@f3` is an illegal drop
    // (White has no knight in hand), so the list stops before it.
    let mut pos = Position::start_with(rules);
    for m in &moves[..6] {
        let mv = pos.parse_uci_move(m).expect("legal");
        pos.make_move(mv);
    }
    assert!(pos.parse_uci_move("N@f3").is_err());
    e.expect_ok(&format!("position startpos moves {}", moves[..6].join(" ")));
    assert_eq!(e.fen(), pos.fen());
    assert!(e.fen().contains("[p]"), "Black holds the captured pawn");
    e.go_legal(rules, "depth 4");
    // Lower-case piece letters are accepted for drops.
    e.expect_ok("position startpos moves e2e4 d7d5 e4d5 d8d5 p@e4");
    e.go_legal(rules, "depth 3");
    assert!(e.quit().success());
}

#[test]
fn go_depth_nodes_movetime() {
    let mut e = Engine::start();
    let rules = Variant::Chess.rules();
    e.expect_ok("position startpos moves e2e4 e7e5");
    let (lines, _) = e.go_legal(rules, "depth 5");
    let depths: Vec<i32> = lines
        .iter()
        .filter_map(|l| field(l, "depth").and_then(|d| d.parse().ok()))
        .collect();
    assert_eq!(depths.iter().max(), Some(&5), "{lines:?}");
    e.go_legal(rules, "nodes 5000");
    e.go_legal(rules, "movetime 200");
    e.go_legal(
        rules,
        "wtime 3000 btime 3000 winc 100 binc 100 movestogo 20",
    );
    e.go_legal(rules, "wtime 100 btime 100");
    // `mate` with a depth cap, on a position with a mate in 1 (Qxf7#).
    e.expect_ok("position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    let (_, mv) = e.go_legal(rules, "mate 1 depth 10");
    assert_eq!(mv, "h5f7");
    assert!(e.quit().success());
}

#[test]
fn go_infinite_waits_for_stop() {
    let mut e = Engine::start();
    e.set_variant(Variant::Crazyhouse);
    e.expect_ok("position startpos moves e2e4 d7d5");
    let fen = e.fen();
    let pos = Position::from_fen(&fen, Variant::Crazyhouse.rules()).expect("fen");
    e.send("go infinite");
    let before = e.sync();
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop: {before:?}"
    );
    e.send("stop");
    let (_, mv) = e.bestmove();
    assert!(pos.parse_uci_move(&mv).is_ok(), "{mv}");
    // Exactly one bestmove: nothing more arrives before readyok.
    assert!(!e.sync().iter().any(|l| l.starts_with("bestmove")));
    assert!(e.quit().success());
}

#[test]
fn go_ponder_then_ponderhit() {
    let mut e = Engine::start();
    e.expect_ok("setoption name Ponder value true");
    e.expect_ok("position startpos moves d2d4 g8f6");
    let fen = e.fen();
    let pos = Position::from_fen(&fen, Variant::Chess.rules()).expect("fen");
    e.send("go ponder wtime 2000 btime 2000");
    let before = e.sync();
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "bestmove while pondering: {before:?}"
    );
    e.send("ponderhit");
    let (_, mv) = e.bestmove();
    assert!(pos.parse_uci_move(&mv).is_ok(), "{mv}");
    // A ponder search can also be stopped: bestmove then too.
    e.send("go ponder wtime 2000 btime 2000");
    assert!(!e.sync().iter().any(|l| l.starts_with("bestmove")));
    e.send("stop");
    let (_, mv) = e.bestmove();
    assert!(pos.parse_uci_move(&mv).is_ok(), "{mv}");
    assert!(e.quit().success());
}

#[test]
fn multipv_three_lines() {
    let mut e = Engine::start();
    e.set_variant(Variant::Crazyhouse);
    e.expect_ok("setoption name MultiPV value 3");
    e.expect_ok("position startpos moves e2e4 e7e5 g1f3");
    let (lines, _) = e.go_legal(Variant::Crazyhouse.rules(), "depth 4");
    let mut found = false;
    for depth in 1..=4 {
        let d = depth.to_string();
        let at: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info") && field(l, "depth") == Some(&d))
            .collect();
        let first: Vec<Option<&str>> = (1..=3)
            .map(|k| {
                let k = k.to_string();
                at.iter()
                    .rev()
                    .find(|l| field(l, "multipv") == Some(&k))
                    .and_then(|l| first_pv_move(l))
            })
            .collect();
        if let [Some(a), Some(b), Some(c)] = first[..] {
            assert!(a != b && b != c && a != c, "depth {depth}: {a} {b} {c}");
            found = true;
        }
    }
    assert!(found, "no depth with multipv 1, 2 and 3: {lines:#?}");
    assert!(e.quit().success());
}

#[test]
fn go_perft_in_crazyhouse() {
    let mut e = Engine::start();
    e.set_variant(Variant::Crazyhouse);
    e.expect_ok("position startpos");
    e.send("go perft 3");
    let lines = e.read_until("Nodes searched", |l| l.starts_with("Nodes searched:"));
    // No capture is possible in the first two plies, so drops cannot occur
    // yet: the count is chess's 8902.
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 8902")
    );
    // A position with full pockets: the UCI count equals the library's.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKQ~1R[QRBNPqrbnp] w kq - 4 4";
    e.expect_ok(&format!("position fen {fen}"));
    e.send("go perft 2");
    let lines = e.read_until("Nodes searched", |l| l.starts_with("Nodes searched:"));
    let pos = Position::from_fen(fen, Variant::Crazyhouse.rules()).expect("fen");
    let want = rukav::perft::perft(&pos, 2);
    assert_eq!(
        lines.last().cloned(),
        Some(format!("Nodes searched: {want}"))
    );
    // Divide lines: one per legal root move, summing to the total.
    let sum: u64 = lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| pos.parse_uci_move(m).is_ok())
        .map(|(_, n)| n.parse::<u64>().expect("count"))
        .sum();
    assert_eq!(sum, want);
    assert!(e.quit().success());
}

#[test]
fn searchmoves_restricts_the_best_move() {
    let mut e = Engine::start();
    let rules = Variant::Chess.rules();
    e.expect_ok("position startpos");
    for _ in 0..2 {
        let (_, mv) = e.go_legal(rules, "depth 4 searchmoves a2a3 h2h3");
        assert!(mv == "a2a3" || mv == "h2h3", "{mv}");
    }
    // A single allowed move, in crazyhouse with a drop.
    e.set_variant(Variant::Crazyhouse);
    e.expect_ok("position startpos moves e2e4 d7d5 e4d5 d8d5");
    let (_, mv) = e.go_legal(Variant::Crazyhouse.rules(), "depth 3 searchmoves P@h3");
    assert_eq!(mv, "P@h3");
    // Two allowed moves, one of them a drop.
    let (_, mv) = e.go_legal(Variant::Crazyhouse.rules(), "depth 3 searchmoves g1f3 P@c4");
    assert!(mv == "g1f3" || mv == "P@c4", "{mv}");
    assert!(e.quit().success());
}

#[test]
fn bad_input_keeps_the_last_good_state() {
    let mut e = Engine::start();
    e.set_variant(Variant::Crazyhouse);
    let rules = Variant::Crazyhouse.rules();
    e.expect_ok("position startpos moves e2e4 d7d5 e4d5");
    let good = e.fen();

    e.expect_error("garbage command here");
    e.expect_error("xyzzy");
    e.expect_error("position fen garbage");
    e.expect_error("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1");
    e.expect_error("position");
    e.expect_error("position startpos extra");
    // An illegal move in the list: the whole command is refused and the
    // previous position stays.
    let err = e.expect_error("position startpos moves e2e4 e7e5 e1e3");
    assert!(err.contains("e1e3"), "{err}");
    assert_eq!(e.fen(), good);
    e.expect_error("position startpos moves e2e4 P@e5");
    assert_eq!(e.fen(), good);
    e.expect_error("position startpos moves e2e4 e7e5 e4e5");
    assert_eq!(e.fen(), good);
    e.expect_error("setoption name Hash value -5");
    e.expect_error("setoption name Hash value 0");
    e.expect_error("setoption name Hash");
    e.expect_error("setoption name Threads value many");
    e.expect_error("setoption name MultiPV value 0");
    e.expect_error("setoption name Ponder value maybe");
    e.expect_error("setoption name NoSuchOption value 1");
    e.expect_error("setoption value 3");
    e.expect_error("setoption name UCI_Variant value nonsense");
    e.expect_error("setoption name PawnDrop2nd value sometimes");
    e.expect_error("setoption name PromotionRule value anything");
    // The refused variant change left crazyhouse and the position alone.
    assert_eq!(e.fen(), good);
    e.expect_error("go depth abc");
    e.expect_error("go depth");
    e.expect_error("go nodes -3");
    e.expect_error("go movetime soon");
    e.expect_error("go sideways");
    e.expect_error("go searchmoves e2e4");
    // None of the refused `go`s started a search.
    assert!(!e.sync().iter().any(|l| l.starts_with("bestmove")));
    // An empty line and a blank line are ignored silently.
    e.expect_ok("");
    e.expect_ok("   \t ");
    // A very long garbage line.
    let long = "x".repeat(200_000);
    e.expect_error(&long);
    e.expect_error(&format!(
        "position startpos moves {}",
        "e2e4 ".repeat(20_000)
    ));
    assert_eq!(e.fen(), good);
    // The engine still searches, from the last good position.
    e.go_legal(rules, "depth 4");
    assert_eq!(e.fen(), good);

    // A very long legal move list (knights shuffling, no repetition rule
    // in the way of parsing) is accepted.
    let shuffle = "g1f3 g8f6 f3g1 f6g8 ".repeat(250);
    e.expect_ok(&format!("position startpos moves {shuffle}"));
    let fen = e.fen();
    assert!(
        fen.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 1000 "),
        "{fen}"
    );
    e.go_legal(rules, "depth 4");
    assert!(e.quit().success());
}

#[test]
fn stop_and_isready_when_idle_are_harmless() {
    let mut e = Engine::start();
    e.expect_ok("stop");
    e.expect_ok("ponderhit");
    e.expect_ok("ucinewgame");
    e.expect_ok("debug on");
    assert!(!e.sync().iter().any(|l| l.starts_with("bestmove")));
    e.go_legal(Variant::Chess.rules(), "depth 3");
    assert!(e.quit().success());
}

#[test]
fn quit_during_a_search_exits_cleanly() {
    let mut e = Engine::start();
    e.send("go infinite");
    let _ = e.sync();
    assert!(e.quit().success());
}

#[test]
fn end_of_input_exits_cleanly() {
    let mut e = Engine::start();
    assert!(e.sync().is_empty());
    assert!(e.close_input().success());
}

#[test]
fn nnue_options_load_refuse_and_switch() {
    let mut e = Engine::start();
    e.set_variant(Variant::Crazyhouse);
    let rules = Variant::Crazyhouse.rules();
    e.expect_ok("position startpos moves e2e4 d7d5 e4d5 d8d5");
    // A missing file and a file that is not a network are refused.
    let err = e.expect_error("setoption name EvalFile value /nonexistent/net.nnue");
    assert!(err.contains("cannot read"), "{err}");
    let dir = std::env::temp_dir().join(format!("rukav-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.nnue");
    std::fs::write(&junk, b"RUKAVNN1 but then nothing useful").unwrap();
    let err = e.expect_error(&format!("setoption name EvalFile value {}", junk.display()));
    assert!(err.contains("checksum"), "{err}");
    // The embedded network by its name, and a copy of it from a file.
    e.send(&format!(
        "setoption name EvalFile value {}",
        rukav::eval::nnue::DEFAULT_NET_NAME
    ));
    let out = e.sync();
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string NNUE network")),
        "{out:?}"
    );
    let copy = dir.join("copy.nnue");
    let bytes = rukav::eval::nnue::default_network().unwrap().to_bytes();
    std::fs::write(&copy, bytes).unwrap();
    e.expect_ok(&format!("setoption name EvalFile value {}", copy.display()));
    // With the network on, `eval` says so and searches play legal moves.
    e.expect_ok("setoption name Use NNUE value true");
    e.send("eval");
    let out = e.sync();
    assert!(
        out.iter()
            .any(|l| l.contains("final evaluation") && l.contains("[NNUE]")),
        "{out:?}"
    );
    e.go_legal(rules, "depth 6");
    e.expect_ok("setoption name Use NNUE value false");
    e.send("eval");
    let out = e.sync();
    assert!(
        out.iter()
            .any(|l| l.contains("final evaluation") && l.contains("[hand-written]")),
        "{out:?}"
    );
    e.expect_error("setoption name Use NNUE value perhaps");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(e.quit().success());
}

/// Antichess and giveaway are evaluated by the built-in network mixed with
/// the hand-written evaluation (`losers_net_share`), suicide by the
/// hand-written one alone; `eval` prints each part and the mix.
#[test]
fn antichess_mixes_the_network_with_the_hand_written_evaluation() {
    fn score(out: &[String], what: &str) -> Option<i32> {
        let line = out.iter().find(|l| l.contains(what))?;
        line.split(what)
            .nth(1)?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    }
    let mut e = Engine::start();
    e.set_variant(Variant::Antichess);
    e.send("position startpos moves e2e3 b7b5");
    e.send("eval");
    let out = e.sync();
    let hand = score(&out, "hand-written evaluation ").expect("hand-written score");
    let net = score(&out, "NNUE evaluation ").expect("network score");
    let mixed = score(&out, "final evaluation ").expect("final score");
    let share = rukav::search::params::losers_net_share();
    assert!(0 < share && share < 100);
    assert_ne!(hand, net, "{out:?}");
    assert_eq!(
        mixed,
        rukav::eval::mix_evaluations(net, hand, share),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.contains(&format!("[NNUE {share}%, hand-written {}%]", 100 - share))),
        "{out:?}"
    );
    // Giveaway is served by the same network, mixed the same way ...
    e.set_variant(Variant::Giveaway);
    e.send("position startpos moves e2e3 b7b5");
    e.send("eval");
    let out = e.sync();
    let hand = score(&out, "hand-written evaluation ").expect("hand-written score");
    let net = score(&out, "NNUE evaluation ").expect("network score");
    assert_eq!(
        score(&out, "final evaluation "),
        Some(rukav::eval::mix_evaluations(net, hand, share)),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.contains(&format!("[NNUE {share}%, hand-written {}%]", 100 - share))),
        "{out:?}"
    );
    e.go_legal(Variant::Giveaway.rules(), "nodes 20000");
    // ... and suicide, which no network serves, by the hand-written one.
    e.set_variant(Variant::Suicide);
    e.send("position startpos moves e2e3");
    e.send("eval");
    let out = e.sync();
    assert_eq!(
        score(&out, "final evaluation "),
        score(&out, "hand-written evaluation "),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.contains("[hand-written]")), "{out:?}");
    assert!(e.quit().success());
}

/// At a finished position the engine answers as Stockfish and
/// Fairy-Stockfish do, which variant testing tools read to score the game:
/// `info depth 0 score mate 0` before `bestmove (none)` when the game is
/// decided, `info depth 0 score cp 0` when it is drawn. One position per
/// variant (and a draw where the variant has one).
#[test]
fn a_finished_position_says_mate_0_or_cp_0_before_bestmove_none() {
    let fools_mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let cases = [
        ("chess", fools_mate, "info depth 0 score mate 0"),
        (
            "chess",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "info depth 0 score cp 0",
        ),
        ("kingschess", fools_mate, "info depth 0 score mate 0"),
        // A crazyhouse mate the pocket cannot help: a contact check.
        (
            "crazyhouse",
            "6rk/5Npp/8/8/8/8/8/6K1[Qq] b - - 0 1",
            "info depth 0 score mate 0",
        ),
        // Bughouse: mate only when no dropped piece could block it.
        (
            "bughouse",
            "6rk/5Npp/8/8/8/8/8/6K1[] b - - 0 1",
            "info depth 0 score mate 0",
        ),
        // Antichess and giveaway: the side without pieces has won.
        (
            "antichess",
            "8/8/8/8/8/8/7P/8 b - - 0 1",
            "info depth 0 score mate 0",
        ),
        (
            "giveaway",
            "8/8/8/8/8/8/7P/8 b - - 0 1",
            "info depth 0 score mate 0",
        ),
    ];
    let mut s = Engine::start();
    for (variant, fen, expected) in cases {
        s.send(&format!("setoption name UCI_Variant value {variant}"));
        s.send(&format!("position fen {fen}"));
        s.send("go depth 3");
        let (lines, best) = s.bestmove();
        assert_eq!(best, "(none)", "{variant} {fen}: {lines:?}");
        let before = lines.iter().rev().nth(1).map(String::as_str);
        assert_eq!(before, Some(expected), "{variant} {fen}: {lines:?}");
    }
    // A bughouse check that a dropped piece could block is no end: the
    // side waits for a piece, and no score line claims a result.
    s.send("setoption name UCI_Variant value bughouse");
    s.send("position fen k6R/pp6/8/8/8/8/8/4K3[] b - - 0 1");
    s.send("go depth 3");
    let (lines, best) = s.bestmove();
    assert_eq!(best, "(none)");
    assert!(
        lines.iter().all(|l| !l.starts_with("info depth 0 score")),
        "{lines:?}"
    );
    s.quit_ok();
}
