//! What GUI users and bot operators expect over UCI: strength levels
//! (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`), `UCI_ShowWDL`, and
//! `info currmove` in longer searches. Nothing here asserts on time beyond
//! "it arrives".

use crate::common;

use common::{field, Engine};
use rukav::Variant;

#[test]
fn strength_options_refuse_bad_values() {
    let mut e = Engine::start();
    for line in [
        "setoption name Skill Level value 21",
        "setoption name Skill Level value -1",
        "setoption name Skill Level value ten",
        "setoption name UCI_Elo value 100",
        "setoption name UCI_Elo value 99999999999999999999999999",
        "setoption name UCI_Elo value 3500",
        "setoption name UCI_LimitStrength value maybe",
        "setoption name UCI_ShowWDL value 2",
    ] {
        let err = e.expect_error(line);
        assert!(!err.is_empty());
    }
    e.expect_ok("setoption name Skill Level value 0");
    e.expect_ok("setoption name skill level value 20");
    e.expect_ok("setoption name UCI_LimitStrength value true");
    e.expect_ok("setoption name UCI_Elo value 500");
    e.expect_ok("setoption name UCI_Elo value 2800");
    e.expect_ok("setoption name UCI_ShowWDL value true");
    assert!(e.quit().success());
}

/// The weakest levels play legal moves at once in every variant, also with
/// a long clock (the level's node budget and depth cap end the search),
/// and report only the lines asked for.
#[test]
fn limited_strength_plays_legal_moves_quickly_in_every_variant() {
    let mut e = Engine::start();
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        e.set_variant(v);
        e.expect_ok("ucinewgame");
        if i % 2 == 0 {
            e.expect_ok("setoption name UCI_LimitStrength value false");
            e.expect_ok("setoption name Skill Level value 0");
        } else {
            e.expect_ok("setoption name Skill Level value 20");
            e.expect_ok("setoption name UCI_LimitStrength value true");
            e.expect_ok("setoption name UCI_Elo value 700");
        }
        e.expect_ok("position startpos");
        for _ in 0..3 {
            let (lines, mv) = e.go_legal(v.rules(), "wtime 600000 btime 600000");
            for l in lines.iter().filter(|l| l.starts_with("info depth")) {
                assert_eq!(field(l, "multipv").unwrap_or("1"), "1", "{v}: {l}");
            }
            // The move played is the first move of the last line reported.
            let last = lines.iter().rev().find(|l| l.contains(" pv "));
            if let Some(last) = last {
                assert_eq!(field(last, "pv"), Some(mv.as_str()), "{v}: {lines:?}");
            }
            let fen = e.fen();
            e.expect_ok(&format!("position fen {fen} moves {mv}"));
        }
    }
    // MultiPV asked for: that many lines, not the level's internal ones.
    e.set_variant(Variant::Crazyhouse);
    e.expect_ok("setoption name MultiPV value 2");
    e.expect_ok("position startpos moves e2e4");
    let (lines, _) = e.go_legal(Variant::Crazyhouse.rules(), "depth 3");
    let most = lines
        .iter()
        .filter_map(|l| field(l, "multipv").and_then(|k| k.parse::<u32>().ok()))
        .max();
    assert_eq!(most, Some(2), "{lines:?}");
    assert!(e.quit().success());
}

/// Different games at a low level do not all repeat the same moves: the
/// choice is random, seeded per game.
#[test]
fn low_levels_vary_their_moves() {
    let mut e = Engine::start();
    e.set_variant(Variant::Crazyhouse);
    e.expect_ok("setoption name Skill Level value 0");
    let mut seen = std::collections::HashSet::new();
    for _ in 0..12 {
        e.expect_ok("ucinewgame");
        e.expect_ok("position startpos");
        let (_, mv) = e.go_legal(Variant::Crazyhouse.rules(), "depth 5");
        seen.insert(mv);
    }
    assert!(seen.len() > 1, "always {seen:?}");
    assert!(e.quit().success());
}

#[test]
fn show_wdl_lines_carry_wdl_summing_to_1000() {
    let mut e = Engine::start();
    for v in [Variant::Crazyhouse, Variant::Chess, Variant::Antichess] {
        e.set_variant(v);
        e.expect_ok("setoption name UCI_ShowWDL value true");
        e.expect_ok("position startpos moves e2e3 b7b6");
        let (lines, _) = e.go_legal(v.rules(), "depth 6");
        let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
        assert!(!infos.is_empty(), "{lines:?}");
        for l in infos {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words
                .iter()
                .position(|w| *w == "wdl")
                .unwrap_or_else(|| panic!("no wdl in {l}"));
            let nums: Vec<u32> = words[at + 1..at + 4]
                .iter()
                .map(|w| w.parse().unwrap_or_else(|_| panic!("{l}")))
                .collect();
            assert_eq!(nums.iter().sum::<u32>(), 1000, "{l}");
        }
    }
    // A mate: 1000 0 0.
    e.set_variant(Variant::Chess);
    e.expect_ok("position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    let (lines, mv) = e.go_legal(Variant::Chess.rules(), "depth 4");
    assert_eq!(mv, "h5f7");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score "))
        .expect("info");
    assert!(last.contains("score mate 1 wdl 1000 0 0"), "{last}");
    // Off again: no wdl.
    e.expect_ok("setoption name UCI_ShowWDL value false");
    let (lines, _) = e.go_legal(Variant::Chess.rules(), "depth 3");
    assert!(lines.iter().all(|l| !l.contains("wdl")), "{lines:?}");
    assert!(e.quit().success());
}

#[test]
fn currmove_appears_in_a_longer_search() {
    let mut e = Engine::start();
    e.set_variant(Variant::Crazyhouse);
    e.expect_ok("position startpos moves e2e4 e7e5");
    e.send("go movetime 2500");
    let (lines, _) = e.bestmove();
    let cur: Vec<&String> = lines.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!cur.is_empty(), "no currmove in {lines:?}");
    for l in cur {
        assert!(field(l, "currmovenumber").is_some_and(|n| n.parse::<u32>().is_ok()));
        assert!(field(l, "depth").is_some(), "{l}");
    }
    assert!(e.quit().success());
}

/// `go infinite` waits for `stop` even when the search ends on its own: a
/// mate in one reaches the deepest iteration at once, and a strength level
/// caps the depth.
#[test]
fn a_finished_infinite_search_waits_for_stop() {
    let mut e = Engine::start();
    e.expect_ok("position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    for level in ["20", "0"] {
        e.expect_ok(&format!("setoption name Skill Level value {level}"));
        e.send("go infinite");
        std::thread::sleep(std::time::Duration::from_millis(300));
        let before = e.sync();
        assert!(
            !before.iter().any(|l| l.starts_with("bestmove")),
            "bestmove before stop: {before:?}"
        );
        e.send("stop");
        let (_, mv) = e.bestmove();
        assert_eq!(mv, "h5f7");
    }
    // Pondering too: no bestmove before ponderhit.
    e.expect_ok("setoption name Skill Level value 20");
    e.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(!e.sync().iter().any(|l| l.starts_with("bestmove")));
    e.send("ponderhit");
    let (_, mv) = e.bestmove();
    assert_eq!(mv, "h5f7");
    assert!(e.quit().success());
}

/// Antichess endgame tables over UCI: a bad `AntichessTables` file is
/// refused and the engine goes on with its built-in tables; a position a
/// capture away from the tables gets a mate score whose line, extended by
/// the tables, replays legally to the end of the game, won by the side the
/// score says, in the number of moves it says.
#[test]
fn antichess_tables_give_exact_lines_to_the_end() {
    let mut e = Engine::start();
    e.set_variant(Variant::Antichess);
    let err = e.expect_error("setoption name AntichessTables value /no/such/file.tbl");
    assert!(err.contains("AntichessTables"), "{err}");
    let bad = std::env::temp_dir().join(format!("rukav-bad-{}.tbl", std::process::id()));
    std::fs::write(&bad, b"RUKAVEG1 but nothing else of a table file").unwrap();
    let err = e.expect_error(&format!(
        "setoption name AntichessTables value {}",
        bad.display()
    ));
    assert!(err.contains("AntichessTables"), "{err}");
    std::fs::remove_file(&bad).unwrap();
    e.send("setoption name AntichessTables value <builtin>");
    let out = e.sync();
    assert!(out.iter().any(|l| l.contains("up to 3 pieces")), "{out:?}");
    let rules = Variant::Antichess.rules();
    // Three pieces, in the built-in tables, and four, with a compulsory
    // capture into them.
    let mut checked = 0;
    for fen in [
        "8/8/8/8/8/8/1p6/RK5n w - - 0 1",
        "k7/8/8/8/8/8/6q1/5NR1 b - - 0 1",
        "8/8/3k4/8/8/8/4P3/R7 b - - 0 1",
        "8/8/8/8/8/8/8/R1n4k w - - 0 1",
        "8/5b2/8/8/2N5/8/8/6K1 w - - 0 1",
        "7q/8/8/8/8/8/1P6/K7 b - - 0 1",
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 4");
        let (lines, _) = e.bestmove();
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap_or_else(|| e.fail("no info line"));
        let mate: i32 = match field(last, "mate") {
            Some(m) => m.parse().unwrap(),
            // A draw by the tables, or no capture reachable at depth 4.
            None => continue,
        };
        let pv: Vec<&str> = last
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect();
        let mut pos = rukav::Position::from_fen(fen, rules).unwrap();
        let me = pos.side_to_move();
        for m in &pv {
            let mv = pos
                .parse_uci_move(m)
                .unwrap_or_else(|err| panic!("{fen}: {m}: {err}"));
            pos.make_move(mv);
        }
        match pos.outcome() {
            Some(rukav::Outcome::Win { winner, .. }) => {
                assert_eq!(winner == me, mate > 0, "{fen}: {last}")
            }
            other => panic!("{fen}: the line {pv:?} ends without a winner: {other:?}"),
        }
        // The side to move at the end has won: plies even for our win.
        assert_eq!(mate.unsigned_abs() as usize, pv.len() / 2, "{fen}: {last}");
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} positions had a mate score");
    assert!(e.quit().success());
}
