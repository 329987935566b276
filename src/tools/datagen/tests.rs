//! Data generation is reproducible: the same settings give the same bytes
//! whatever the thread count, and runs split at any game concatenate to
//! the bytes of one whole run.

use super::*;
use crate::tools::gamelog::decode_all;
use crate::tools::record::{read_records, RECORD_SIZE};

fn config(first_game: u64, games: u64, threads: usize) -> DatagenConfig {
    DatagenConfig {
        rules: Variant::Crazyhouse.rules(),
        first_game,
        games,
        nodes: 300,
        threads,
        openings: vec![
            "rnbqkbnr/1pp1pppp/p7/3p4/3P4/2P2N2/PP2PPPP/RNBQKB1R[] b KQkq - 1 3".to_string(),
            "rnbqkb1r/pppp1ppp/4pn2/8/3PP3/3B4/PPP2PPP/RNBQK1NR[] b KQkq - 2 3".to_string(),
        ],
        random_plies: 4,
        opening_limit: None,
        opening_nodes: OPENING_CHECK_NODES,
        seed: 11,
        sim: SimClock::default(),
        format: DataFormat::Records,
    }
}

/// Runs `cfg` into memory; returns the bytes and the checkpoints seen.
fn generate(cfg: &DatagenConfig) -> (Vec<u8>, Vec<(u64, u64)>) {
    let mut out = Vec::new();
    let checkpoints = Mutex::new(Vec::new());
    let stop = AtomicBool::new(false);
    let (games, positions) = run(cfg, &mut out, &stop, &|next, bytes, _| {
        checkpoints.lock().unwrap().push((next, bytes))
    })
    .unwrap();
    assert_eq!(games, cfg.games - cfg.first_game);
    if cfg.format == DataFormat::Records {
        assert_eq!(positions as usize * RECORD_SIZE, out.len());
    }
    (out, checkpoints.into_inner().unwrap())
}

#[test]
fn same_bytes_whatever_the_thread_count() {
    let (one, _) = generate(&config(0, 6, 1));
    let (two, checkpoints) = generate(&config(0, 6, 2));
    assert!(!one.is_empty());
    assert_eq!(one, two, "two threads wrote other data than one");
    // Checkpoints name whole games in order and end at the end of the data.
    let nexts: Vec<u64> = checkpoints.iter().map(|c| c.0).collect();
    assert!(nexts.windows(2).all(|w| w[0] < w[1]), "{nexts:?}");
    assert_eq!(checkpoints.last(), Some(&(6, two.len() as u64)));
    // The records are positions of the variant with a result.
    let path = std::env::temp_dir().join(format!("rukav-datagen-{}.bin", std::process::id()));
    std::fs::write(&path, &two).unwrap();
    let records = read_records(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(records.len() * RECORD_SIZE, two.len());
    for r in &records {
        let pos = r.unpack(Variant::Crazyhouse.rules()).unwrap();
        assert!(!pos.in_check());
        assert!(pos.legal_moves().contains(&r.best_move()));
    }
}

#[test]
fn a_resumed_run_equals_an_unbroken_one() {
    let (whole, _) = generate(&config(0, 5, 2));
    let (head, _) = generate(&config(0, 2, 2));
    let (tail, _) = generate(&config(2, 5, 2));
    assert_eq!([head, tail].concat(), whole);
}

#[test]
fn another_seed_gives_other_games() {
    let (a, _) = generate(&config(0, 3, 2));
    let mut other = config(0, 3, 2);
    other.seed = 12;
    let (b, _) = generate(&other);
    assert_ne!(a, b);
}

/// Without a book the openings come from the start position and random
/// plies; with a limit, the engine's own judgement keeps them playable.
#[test]
fn engine_made_openings_are_judged_playable() {
    let mut cfg = config(0, 4, 2);
    cfg.openings.clear();
    cfg.random_plies = 8;
    cfg.opening_limit = Some(150);
    let mut engine = Engine::new();
    engine.set_rules(cfg.rules);
    for index in 0..4 {
        let (mut pos, moves) = opening(&cfg, &mut Rng::for_index(cfg.seed, index), &mut engine)
            .expect("an opening within the limit");
        assert!(moves.len() >= 8);
        for m in moves {
            pos.make_move(m);
        }
        assert!(pos.fullmove_number() >= 5, "{}", pos.fen());
        let score = opening_score(&mut engine, pos, OPENING_CHECK_NODES);
        assert!(score.abs() <= 150, "{} scored {score}", pos.fen());
    }
    // An impossible limit finds nothing and the game writes no positions.
    cfg.opening_limit = Some(-1);
    assert!(opening(&cfg, &mut Rng::for_index(cfg.seed, 0), &mut engine).is_none());
    let (bytes, _) = generate(&DatagenConfig { games: 2, ..cfg });
    assert!(bytes.is_empty());
}

/// A run written as game logs unpacks to the bytes the same run writes as
/// records, slices of it included, and costs far fewer bytes.
#[test]
fn game_logs_unpack_to_the_records_of_the_same_run() {
    let (records, _) = generate(&config(0, 5, 2));
    let mut games_cfg = config(0, 5, 2);
    games_cfg.format = DataFormat::Games;
    let (games, _) = generate(&games_cfg);
    let head_cfg = DatagenConfig {
        games: 2,
        ..games_cfg.clone()
    };
    let tail_cfg = DatagenConfig {
        first_game: 2,
        ..games_cfg
    };
    let sliced = [generate(&head_cfg).0, generate(&tail_cfg).0].concat();
    assert_eq!(sliced, games);
    let logs = decode_all(&games).unwrap();
    assert_eq!(logs.len(), 5);
    let unpacked: Vec<u8> = logs
        .iter()
        .flat_map(|log| log.records())
        .flat_map(|r| r.bytes)
        .collect();
    assert!(!records.is_empty());
    assert_eq!(unpacked, records);
    assert!(
        games.len() * 4 < records.len(),
        "{} vs {}",
        games.len(),
        records.len()
    );
}

#[test]
fn slices_parse() {
    assert_eq!(parse_slice("0..100"), Ok((0, 100)));
    assert_eq!(parse_slice(" 5 .. 7"), Ok((5, 7)));
    assert!(parse_slice("7..7").is_err());
    assert!(parse_slice("9..3").is_err());
    assert!(parse_slice("x..3").is_err());
    assert!(parse_slice("100").is_err());
}
