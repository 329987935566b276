//! Every principal variation the engine reports is a line GUIs can replay:
//! each move legal in turn, and nothing after the game's end (mate,
//! stalemate, no pieces, a missed king duty, the 50-move rule, insufficient
//! material). Checked over many searches of random positions in every
//! variant, with MultiPV and with two threads; the best and ponder moves
//! too.

use rukav::engine::Engine;
use rukav::rng::Rng;
use rukav::search::{Info, Limits};
use rukav::{Move, Position, Variant};
use std::sync::Mutex;

/// Replays `line` from `root`; the reason it cannot be replayed, if any.
fn replay_problem(root: &Position, line: &[Move]) -> Option<String> {
    let mut pos = *root;
    for (i, &m) in line.iter().enumerate() {
        if let Some(o) = pos.outcome() {
            return Some(format!("move {} ({m}) after the game ended ({o})", i + 1));
        }
        if !pos.is_legal(m) {
            return Some(format!("move {} ({m}) illegal in {}", i + 1, pos.fen()));
        }
        pos.make_move(m);
    }
    None
}

/// A position reached by `plies` random moves from the start (None when
/// the game ended on the way).
fn random_position(variant: Variant, rng: &mut Rng, plies: usize) -> Option<Position> {
    let mut pos = Position::startpos(variant);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            return None;
        }
        pos.make_move(moves[rng.below(moves.len())]);
    }
    (pos.outcome().is_none() && pos.has_legal_move()).then_some(pos)
}

fn check_searches(variant: Variant, positions: usize, threads: usize, multipv: usize) -> usize {
    let mut rng = Rng(0x5eed ^ (u64::from(variant.id()) * 7919 + threads as u64));
    let mut engine = Engine::new();
    engine.set_rules(variant.rules());
    engine.set_threads(threads);
    engine.set_multipv(multipv);
    let mut lines = 0;
    let mut searched = 0;
    while searched < positions {
        // Short and long random games: openings, middlegames, endings.
        let plies = 4 + rng.below(120);
        let Some(root) = random_position(variant, &mut rng, plies) else {
            continue;
        };
        searched += 1;
        engine.new_game();
        engine.set_position(root, Vec::new());
        let infos: Mutex<Vec<Info>> = Mutex::new(Vec::new());
        let result = engine.search_sync(
            Limits {
                depth: Some(7),
                nodes: Some(60_000),
                multipv,
                ..Limits::default()
            },
            &|info: &Info| infos.lock().unwrap().push(info.clone()),
        );
        for info in infos.into_inner().unwrap() {
            lines += 1;
            if let Some(problem) = replay_problem(&root, &info.pv) {
                let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
                panic!(
                    "{variant} {}: depth {} pv {}: {problem}",
                    root.fen(),
                    info.depth,
                    pv.join(" ")
                );
            }
        }
        let mut best_line = vec![result.best];
        best_line.extend(result.ponder);
        if let Some(problem) = replay_problem(&root, &best_line) {
            panic!("{variant} {}: bestmove/ponder: {problem}", root.fen());
        }
    }
    lines
}

#[test]
fn principal_variations_replay_in_every_variant() {
    for variant in Variant::ALL {
        let lines = check_searches(variant, 60, 1, 1);
        assert!(lines >= 60, "{variant}: only {lines} lines reported");
    }
}

#[test]
fn multipv_and_threads_lines_replay_too() {
    for variant in [Variant::Crazyhouse, Variant::Chess, Variant::Antichess] {
        check_searches(variant, 20, 1, 3);
        check_searches(variant, 20, 2, 1);
    }
}

/// A capture that leaves bare kings ends the game: the line stops there.
#[test]
fn lines_stop_at_insufficient_material() {
    let rules = Variant::Chess.rules();
    for fen in [
        "8/8/8/4k3/8/8/3r4/4K3 w - - 0 1",
        "8/8/8/8/3k4/8/2B5/1K1r4 w - - 0 1",
    ] {
        let root = Position::from_fen(fen, rules).unwrap();
        let mut engine = Engine::new();
        engine.set_position(root, Vec::new());
        let infos: Mutex<Vec<Info>> = Mutex::new(Vec::new());
        engine.search_sync(
            Limits {
                depth: Some(8),
                multipv: 1,
                ..Limits::default()
            },
            &|info: &Info| infos.lock().unwrap().push(info.clone()),
        );
        for info in infos.into_inner().unwrap() {
            assert_eq!(replay_problem(&root, &info.pv), None, "{fen}");
        }
    }
}

#[test]
fn a_line_past_a_mate_is_caught() {
    // The check itself must be able to fail: after Qh5xf7# nothing follows.
    let rules = Variant::Chess.rules();
    let root = Position::from_fen(
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        rules,
    )
    .unwrap();
    let mate = root.parse_uci_move("h5f7").unwrap();
    assert_eq!(replay_problem(&root, &[mate]), None);
    let mut after = root;
    after.make_move(mate);
    let king = Move::normal(
        rukav::Square::parse("e8").unwrap(),
        rukav::Square::parse("e7").unwrap(),
    );
    assert!(replay_problem(&root, &[mate, king]).is_some());
    let bad = root.parse_uci_move("e1e2").unwrap();
    assert!(replay_problem(&after, &[bad]).is_some());
}
