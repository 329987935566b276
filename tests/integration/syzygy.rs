//! Syzygy tablebases over UCI and xboard (lichess-bot sets `SyzygyPath`):
//! the options as Stockfish offers them; a path without tables is accepted
//! with an `info string` and changes nothing; an empty path unloads. With
//! tables (the folder in `RUKAV_SYZYGY_TEST_PATH`, chess tables of up to
//! four pieces at least, WDL and DTZ; the tests that need them skip with a
//! printed reason without it): tablebase scores (`cp 20000 - ply`),
//! `tbhits`, and a won ending kept won move after move against the
//! tables' best defence.

use crate::common;

use common::{field, Engine};
use rukav::syzygy::{Tablebases, Wdl};
use rukav::{Position, Variant};

/// KQ v KRP, White to move: Qxc3 reaches a won KQ v KR.
const KQ_KRP: &str = "8/8/8/3k4/8/2p5/6r1/Q1K5 w - - 0 1";
/// KQ v KR, White to move and win.
const KQ_KR: &str = "8/8/8/3k4/8/8/6r1/Q1K5 w - - 0 1";

/// The last `info depth` line with a score of a search.
fn last_info(e: &Engine, lines: &[String]) -> String {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score "))
        .cloned()
        .unwrap_or_else(|| e.fail("no info line with a score"))
}

/// `go depth N` on `fen`: the last info line and the best move.
fn search(e: &mut Engine, fen: &str, depth: u32) -> (String, String) {
    e.send(&format!("position fen {fen}"));
    e.send(&format!("go depth {depth}"));
    let (lines, mv) = e.bestmove();
    (last_info(e, &lines), mv)
}

#[test]
fn syzygy_options_are_offered_and_refuse_bad_values() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until("uciok", |l| l == "uciok");
    for want in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want} in {lines:?}");
    }
    for line in [
        "setoption name SyzygyProbeDepth value 0",
        "setoption name SyzygyProbeDepth value 101",
        "setoption name SyzygyProbeLimit value 8",
        "setoption name SyzygyProbeLimit value -1",
        "setoption name Syzygy50MoveRule value maybe",
    ] {
        e.expect_error(line);
    }
    e.expect_ok("setoption name SyzygyProbeDepth value 4");
    e.expect_ok("setoption name SyzygyProbeLimit value 0");
    e.expect_ok("setoption name Syzygy50MoveRule value false");
    assert!(e.quit().success());
}

/// lichess-bot's default: `./syzygy/`, usually missing. Accepted with an
/// `info string`, not an error; searches are the same as without it, node
/// for node, in chess and antichess (whose built-in tables stay); an empty
/// value (or `<empty>`) unloads.
#[test]
fn a_path_without_tables_is_accepted_and_changes_nothing() {
    let mut plain = Engine::start();
    let mut with_path = Engine::start();
    for line in [
        "setoption name SyzygyPath value ./syzygy/",
        "setoption name SyzygyPath value /nonexistent/a:/nonexistent/b",
    ] {
        with_path.send(line);
        let out = with_path.sync();
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0].starts_with("info string Syzygy: no tables found in "),
            "{out:?}"
        );
        assert!(!out[0].contains("error"), "{out:?}");
    }
    let empty = tempdir("empty");
    with_path.send(&format!(
        "setoption name SyzygyPath value {}",
        empty.display()
    ));
    let out = with_path.sync();
    assert_eq!(
        out,
        vec![format!(
            "info string Syzygy: no tables found in {}",
            empty.display()
        )]
    );
    for (variant, fen, depth) in [
        (Variant::Chess, KQ_KRP, 9),
        (Variant::Chess, KQ_KR, 9),
        (Variant::Antichess, "8/8/8/8/2p5/8/1N6/R6k w - - 0 1", 8),
    ] {
        let mut results = Vec::new();
        for e in [&mut plain, &mut with_path] {
            e.set_variant(variant);
            e.expect_ok("ucinewgame");
            let (info, mv) = search(e, fen, depth);
            assert_eq!(field(&info, "tbhits"), None, "{info}");
            results.push((field(&info, "nodes").map(str::to_string), mv));
        }
        assert_eq!(results[0], results[1], "{variant:?} {fen}");
    }
    for value in ["", " <empty>"] {
        with_path.send(&format!("setoption name SyzygyPath value{value}"));
        let out = with_path.sync();
        assert_eq!(
            out,
            vec!["info string Syzygy: no tables (SyzygyPath is empty)".to_string()]
        );
    }
    std::fs::remove_dir_all(&empty).unwrap();
    assert!(plain.quit().success());
    assert!(with_path.quit().success());
}

/// xboard: `feature egt="syzygy"`, and `egtpath syzygy PATH` loads them
/// (told as `#` comment lines).
#[test]
fn xboard_egtpath_syzygy() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.read_until("feature done=1", |l| l == "feature done=1");
    assert!(
        features.iter().any(|l| l.contains(" egt=\"syzygy\" ")),
        "{features:?}"
    );
    e.send("egtpath syzygy /nonexistent/syzygy");
    e.send("ping 1");
    let out = e.read_until("pong", |l| l == "pong 1");
    assert!(
        out.iter()
            .any(|l| l.starts_with("# Syzygy: no tables found in /nonexistent/syzygy")),
        "{out:?}"
    );
    assert!(!out.iter().any(|l| l.starts_with("Error")), "{out:?}");
    e.send("quit");
    assert!(e.close_input().success());
}

/// A fresh folder under the system's temporary folder.
fn tempdir(what: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("rukav-syzygy-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// With tables: the count is told; a won KQ v KR at the root scores
/// `cp 20000` (the root's moves ranked by DTZ), a KQ v KRP whose capture
/// reaches the tables scores `cp 20000 - ply` by the probes in the search,
/// with `tbhits`; emptied again, the same searches know nothing of it.
#[test]
fn tables_give_tablebase_scores_and_tbhits() {
    let Some(path) = rukav::syzygy::test_path() else {
        return;
    };
    let mut e = Engine::start();
    e.send(&format!("setoption name SyzygyPath value {path}"));
    let out = e.sync();
    let found = out
        .iter()
        .find(|l| l.starts_with("info string Syzygy: found "))
        .unwrap_or_else(|| e.fail("no 'found N tables' line"));
    assert!(found.contains(" tables (up to "), "{found}");

    let (info, _) = search(&mut e, KQ_KR, 6);
    assert_eq!(field(&info, "score"), Some("cp"), "{info}");
    assert_eq!(field(&info, "cp"), Some("20000"), "{info}");
    let hits: u64 = field(&info, "tbhits").unwrap().parse().unwrap();
    assert!(hits > 0, "{info}");

    let (info, mv) = search(&mut e, KQ_KRP, 8);
    let cp: i32 = field(&info, "cp").unwrap().parse().unwrap();
    assert!((19_900..20_000).contains(&cp), "{info}");
    assert!(field(&info, "tbhits").unwrap().parse::<u64>().unwrap() > 0);
    assert_eq!(mv, "a1c3", "{info}");

    // Without the 50-move rule too; and with probes limited to 3 pieces
    // the KQ v KR root is no longer ranked.
    e.expect_ok("setoption name Syzygy50MoveRule value false");
    let (info, _) = search(&mut e, KQ_KR, 4);
    assert_eq!(field(&info, "cp"), Some("20000"), "{info}");
    e.expect_ok("setoption name Syzygy50MoveRule value true");
    e.expect_ok("setoption name SyzygyProbeLimit value 3");
    e.expect_ok("ucinewgame");
    let (info, _) = search(&mut e, KQ_KR, 4);
    assert_ne!(field(&info, "cp"), Some("20000"), "{info}");
    e.expect_ok("setoption name SyzygyProbeLimit value 7");

    // Crazyhouse: never probed.
    e.set_variant(Variant::Crazyhouse);
    let (info, _) = search(&mut e, "8/8/8/3k4/8/8/6r1/Q1K5[] w - - 0 1", 4);
    assert_eq!(field(&info, "tbhits"), Some("0"), "{info}");
    e.set_variant(Variant::Chess);

    e.send("setoption name SyzygyPath value");
    e.sync();
    e.expect_ok("ucinewgame");
    let (info, _) = search(&mut e, KQ_KR, 6);
    assert_eq!(field(&info, "tbhits"), None, "{info}");
    assert_ne!(field(&info, "cp"), Some("20000"), "{info}");
    assert!(e.quit().success());
}

/// The tables' best defence in `pos` (the longest loss): the first of
/// the moves they rank best.
fn best_defence(tb: &Tablebases, pos: &Position, history: &[u64]) -> rukav::Move {
    let moves = pos.legal_moves().to_vec();
    let ranking = tb
        .rank_root_moves(pos, history, &moves, true)
        .unwrap()
        .expect("the defender's position is in the tables");
    ranking.moves[0].mv
}

/// Is `pos` (the defender to move) lost by the tables?
fn lost(tb: &Tablebases, pos: &Position) -> bool {
    if pos.halfmove_clock() == 0 {
        tb.probe_wdl(pos) == Some(Wdl::Loss)
    } else {
        matches!(tb.try_probe_dtz(pos), Ok(Some(d)) if d < 0)
    }
}

/// KQ v KR played out at `go depth 4` against the tables' best defence:
/// every move of the engine keeps the win, and the game ends in mate
/// within the 50-move rule.
#[test]
fn a_won_ending_is_kept_and_converted() {
    let Some(path) = rukav::syzygy::test_path() else {
        return;
    };
    let tb = Tablebases::load(&path).tables.unwrap();
    let rules = Variant::Chess.rules();
    let mut e = Engine::start();
    e.send(&format!("setoption name SyzygyPath value {path}"));
    e.sync();
    let start = Position::from_fen(KQ_KR, rules).unwrap();
    let mut pos = start;
    let mut history = vec![pos.key()];
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..200 {
        if pos.outcome().is_some() {
            break;
        }
        let m = if ply % 2 == 0 {
            e.send(&format!("position fen {KQ_KR} moves {}", moves.join(" ")));
            e.send("go depth 4");
            let (_, mv) = e.bestmove();
            pos.parse_uci_move(&mv).unwrap()
        } else {
            best_defence(&tb, &pos, &history)
        };
        moves.push(pos.uci_move(m));
        pos.make_move(m);
        history.push(pos.key());
        if ply % 2 == 0 && pos.outcome().is_none() {
            assert!(lost(&tb, &pos), "not won after {moves:?}");
        }
    }
    let outcome = pos.outcome();
    assert!(
        matches!(outcome, Some(rukav::Outcome::Win { winner, .. }) if winner == rukav::Color::White),
        "{outcome:?} after {moves:?}"
    );
    assert!(e.quit().success());
}
