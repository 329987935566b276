//! `rukav datagen` is reproducible: the same settings give the same bytes
//! whatever the thread count, and a run stopped and resumed gives the bytes
//! of a run that never stopped.

use rukav::datagen::{read_records, run, DatagenConfig, RECORD_SIZE};
use rukav::rules::Variant;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

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
        seed: 11,
    }
}

/// Runs `cfg` into memory; returns the bytes and the checkpoints seen.
fn generate(cfg: &DatagenConfig) -> (Vec<u8>, Vec<(u64, u64)>) {
    let mut out = Vec::new();
    let checkpoints = Mutex::new(Vec::new());
    let stop = AtomicBool::new(false);
    let (games, positions) = run(cfg, &mut out, &stop, &|_| {}, &|next, bytes| {
        checkpoints.lock().unwrap().push((next, bytes))
    })
    .unwrap();
    assert_eq!(games, cfg.games - cfg.first_game);
    assert_eq!(positions as usize * RECORD_SIZE, out.len());
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

/// Runs `rukav datagen` into `out` with `games` and `nodes`; returns its stderr
/// and whether it succeeded.
fn datagen_cli(out: &std::path::Path, games: u64, nodes: u64) -> (bool, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_rukav"))
        .args([
            "datagen",
            "--threads",
            "2",
            "--seed",
            "4",
            "--random-plies",
            "6",
        ])
        .args(["--games", &games.to_string(), "--nodes", &nodes.to_string()])
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn the_command_resumes_from_its_progress_file() {
    let dir = std::env::temp_dir().join(format!("rukav-datagen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.bin");
    let parts = dir.join("parts.bin");
    assert!(datagen_cli(&whole, 4, 300).0);
    assert!(datagen_cli(&parts, 2, 300).0);
    // A run killed while writing leaves a partial record; the resume drops it.
    let mut data = std::fs::read(&parts).unwrap();
    data.extend_from_slice(&[7u8; 10]);
    std::fs::write(&parts, &data).unwrap();
    let (ok, log) = datagen_cli(&parts, 4, 300);
    assert!(ok, "{log}");
    assert!(log.contains("resuming at game 2"), "{log}");
    assert_eq!(
        std::fs::read(&parts).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    // Other settings do not append to this file.
    let (ok, log) = datagen_cli(&parts, 6, 500);
    assert!(!ok);
    assert!(log.contains("made by another run"), "{log}");
    assert_eq!(
        std::fs::read(&parts).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
