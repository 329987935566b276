//! Two-board datagen: reproducible bytes whatever the thread count and
//! split, legal positions with consistent team results, pockets fed by the
//! other board, simulated time that runs forward.

use super::super::{run, DataFormat, DatagenConfig, SimClock};
use super::*;
use crate::tools::record::RECORD_SIZE;
use rukav::bughouse::{opponent_in_check, Game, Team};
use rukav::{PieceType, Variant};
use std::sync::atomic::AtomicBool;

fn config(first_game: u64, games: u64, threads: usize) -> DatagenConfig {
    DatagenConfig {
        rules: Variant::Bughouse.rules(),
        first_game,
        games,
        nodes: 300,
        threads,
        openings: Vec::new(),
        random_plies: 2,
        opening_limit: None,
        opening_nodes: super::super::setup::OPENING_CHECK_NODES,
        seed: 11,
        sim: SimClock::default(),
        format: DataFormat::Records,
    }
}

/// Runs `cfg` into memory.
fn generate(cfg: &DatagenConfig) -> Vec<u8> {
    let mut out = Vec::new();
    let stop = AtomicBool::new(false);
    let (games, positions) = run(cfg, &mut out, &stop, &|_, _, _| {}).unwrap();
    assert_eq!(games, cfg.games - cfg.first_game);
    assert_eq!(positions as usize * RECORD_SIZE, out.len());
    out
}

/// Plays game `index` of `cfg` on fresh engines.
fn played(cfg: &DatagenConfig, index: u64) -> Played {
    let mut engines: Vec<Engine> = (0..2)
        .map(|_| {
            let mut e = Engine::new();
            e.set_rules(cfg.rules);
            e
        })
        .collect();
    play(cfg, &mut Rng::for_index(cfg.seed, index), &mut engines).expect("an opening")
}

#[test]
fn same_bytes_whatever_the_thread_count_and_split() {
    let one = generate(&config(0, 4, 1));
    let two = generate(&config(0, 4, 2));
    assert!(!one.is_empty());
    assert_eq!(one, two, "two threads wrote other data than one");
    let head = generate(&config(0, 2, 2));
    let tail = generate(&config(2, 4, 1));
    assert!(!head.is_empty() && !tail.is_empty());
    // Another seed plays other games.
    let mut other = config(0, 2, 2);
    other.seed = 12;
    assert_ne!(generate(&other), head);
    assert_eq!([head, tail].concat(), one, "a split run differs");
    // The bytes are the games `play` plays, in order.
    let cfg = config(0, 4, 1);
    let mut again = Vec::new();
    for index in 0..4 {
        for (_, r) in played(&cfg, index).records {
            again.extend_from_slice(&r.bytes);
        }
    }
    assert_eq!(again, one);
}

#[test]
fn records_are_legal_and_partners_share_the_result() {
    let cfg = config(0, 3, 1);
    let mut pocket_pieces = 0;
    for index in 0..3 {
        let p = played(&cfg, index);
        let result = p.game.result().expect("the game ended");
        for board in 0..2 {
            assert!(
                p.records.iter().any(|(b, _)| *b == board),
                "game {index}: no record of board {board}"
            );
        }
        // Team 1 is White on A and Black on B.
        let team1 = match result.winner {
            Some(Team::One) => 2,
            Some(Team::Two) => 0,
            None => 1,
        };
        for (board, r) in &p.records {
            assert_eq!(r.variant(), Some(Variant::Bughouse));
            let pos = r.unpack(cfg.rules).unwrap();
            assert!(!pos.in_check() && !opponent_in_check(&pos), "{}", pos.fen());
            assert!(pos.is_legal(r.best_move()), "{}", pos.fen());
            assert!(!pos.is_capture(r.best_move()), "{}", pos.fen());
            let white = r.bytes[46];
            // The result of the board's White; A's White and B's Black are partners.
            let partners = if *board == 0 { white } else { 2 - white };
            assert_eq!(
                partners, team1,
                "game {index} ({}) board {board}",
                result.reason
            );
            for c in Color::ALL {
                for k in PieceType::POCKET {
                    pocket_pieces += pos.pocket(c, k) as usize;
                }
            }
        }
    }
    // In bughouse no capture fills its own board's pockets: these pieces
    // came from the other board.
    assert!(pocket_pieces > 0, "no record has a piece in hand");
}

/// Replays each board's moves with the captures of the other board handed
/// over: the model's final positions and every recorded position come out,
/// and the boards were not played in lockstep.
#[test]
fn pockets_are_fed_by_the_other_board() {
    let cfg = config(0, 3, 1);
    let mut handed = 0;
    let mut runs_of_one_board = 0;
    for index in 0..3 {
        let p = played(&cfg, index);
        let moves = p.game.moves();
        let mut pos = p.start;
        let mut seen: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        let mut last_given = None;
        for (i, m) in moves.iter().enumerate() {
            let b = m.board;
            seen[b].push(pos[b].fen());
            let kind = Game::handover_kind(&pos[b], m.mv);
            pos[b].make_move(m.mv);
            last_given = None;
            if let Some(kind) = kind {
                // A piece taken by `color` on one board goes to its partner,
                // who plays the other colour on the other board.
                pos[1 - b].add_to_pocket(m.color.flip(), kind).unwrap();
                handed += 1;
                last_given = Some((1 - b, m.color.flip(), kind));
            }
            if i > 0 {
                assert!(moves[i - 1].at_ms <= m.at_ms, "time ran backwards");
                if moves[i - 1].board == b {
                    runs_of_one_board += 1;
                }
            }
        }
        // A move that ends the game hands nothing over.
        let mut without_last = pos;
        if let Some((b, c, kind)) = last_given {
            without_last[b].remove_from_pocket(c, kind).unwrap();
        }
        for b in 0..2 {
            let model = p.game.position(b).fen();
            assert!(
                model == pos[b].fen() || model == without_last[b].fen(),
                "game {index} board {b}: model {model}, replay {}",
                pos[b].fen()
            );
        }
        for (b, r) in &p.records {
            let fen = r.unpack(cfg.rules).unwrap().fen();
            assert!(
                seen[*b].contains(&fen),
                "game {index}: {fen} never on board {b}"
            );
        }
    }
    assert!(handed > 0, "no capture was handed over");
    assert!(runs_of_one_board > 0, "the boards moved in lockstep");
}

#[test]
fn thinking_time_follows_the_nodes() {
    let sim = SimClock::default();
    let mut rng = Rng(5);
    let full: Vec<u64> = (0..200)
        .map(|_| think_ms(&sim, 300, 300, &mut rng))
        .collect();
    assert!(full.iter().all(|&t| (500..=1500).contains(&t)), "{full:?}");
    assert!(full.iter().any(|&t| t < 700) && full.iter().any(|&t| t > 1300));
    let short: Vec<u64> = (0..200)
        .map(|_| think_ms(&sim, 300, 30, &mut rng))
        .collect();
    assert!(short.iter().all(|&t| (50..=150).contains(&t)), "{short:?}");
    let over: Vec<u64> = (0..50)
        .map(|_| think_ms(&sim, 300, 1024, &mut rng))
        .collect();
    assert!(over.iter().all(|&t| (500..=1500).contains(&t)), "{over:?}");
    assert!(think_ms(&sim, 300, 0, &mut rng) >= 1);
}
