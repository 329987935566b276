//! `rukav datagen` from the command line: a stopped run resumes to the
//! bytes of a run that never stopped, and slices of one run concatenate to
//! the whole (the in-process reproducibility tests are unit tests of
//! `src/tools/datagen`). Bughouse (two-board games) is checked the same way.

/// Runs `rukav datagen` into `out` with `games` and `nodes`; returns its stderr
/// and whether it succeeded.
fn datagen_cli(out: &std::path::Path, games: u64, nodes: u64) -> (bool, String) {
    datagen_with(
        out,
        &["--games", &games.to_string(), "--nodes", &nodes.to_string()],
    )
}

/// Runs `rukav datagen` into `out` with the given arguments; returns
/// whether it succeeded and its stderr.
fn run_datagen(out: &std::path::Path, args: &[&str]) -> (bool, String) {
    let out = out.to_string_lossy();
    run_subcommand("datagen", &[args, &["--out", &out]].concat())
}

/// Runs `rukav SUBCOMMAND ARGS`; returns whether it succeeded and its stderr.
fn run_subcommand(subcommand: &str, args: &[&str]) -> (bool, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_rukav"))
        .arg(subcommand)
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs `rukav datagen` into `out` with extra arguments.
fn datagen_with(out: &std::path::Path, extra: &[&str]) -> (bool, String) {
    let base = ["--threads", "2", "--seed", "4", "--random-plies", "6"];
    run_datagen(out, &[&base[..], extra].concat())
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

#[test]
fn slices_concatenate_to_the_whole_run() {
    let dir = std::env::temp_dir().join(format!("rukav-datagen-slices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.bin");
    let a = dir.join("a.bin");
    let b = dir.join("b.bin");
    let nodes = ["--nodes", "300"];
    assert!(datagen_with(&whole, &[&nodes[..], &["--games", "5"]].concat()).0);
    assert!(datagen_with(&a, &[&nodes[..], &["--slice", "0..2"]].concat()).0);
    let (ok, log) = datagen_with(&b, &[&nodes[..], &["--slice", "2..5"]].concat());
    assert!(ok, "{log}");
    let joined = [std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap()].concat();
    assert!(!joined.is_empty());
    assert_eq!(joined, std::fs::read(&whole).unwrap());
    // A slice resumes like a whole run: the same command again adds nothing.
    let before = std::fs::read(&b).unwrap();
    let (ok, log) = datagen_with(&b, &[&nodes[..], &["--slice", "2..5"]].concat());
    assert!(ok, "{log}");
    assert!(log.contains("resuming at game 5"), "{log}");
    assert_eq!(std::fs::read(&b).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--opening-nodes` (the judge of `--opening-limit`) is part of a run's
/// settings: a run with another value does not append to the file, and it
/// is refused without `--opening-limit`, where nothing would read it.
/// Game logs (`--format games`), sliced and resumed, unpack to the records
/// of the same run; a games run does not append to a records file, and
/// two-board games have no game logs.
#[test]
fn game_logs_unpack_to_the_records_from_the_command_line() {
    let dir = std::env::temp_dir().join(format!("rukav-datagen-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("records.bin");
    assert!(datagen_cli(&records, 4, 300).0);
    let head = dir.join("head.games");
    let tail = dir.join("tail.games");
    let games = |out, extra: &[&str]| {
        datagen_with(
            out,
            &[&["--nodes", "300", "--format", "games"], extra].concat(),
        )
    };
    assert!(games(&head, &["--slice", "0..1"]).0);
    // A longer slice with the same start resumes the file.
    let (ok, log) = games(&head, &["--slice", "0..2"]);
    assert!(ok && log.contains("resuming at game 1"), "{log}");
    let (ok, log) = games(&tail, &["--slice", "2..4"]);
    assert!(ok, "{log}");
    let unpacked = dir.join("unpacked.bin");
    let (ok, log) = run_subcommand(
        "unpack",
        &[
            &*head.to_string_lossy(),
            &*tail.to_string_lossy(),
            "--out",
            &*unpacked.to_string_lossy(),
        ],
    );
    assert!(ok, "{log}");
    assert_eq!(
        std::fs::read(&unpacked).unwrap(),
        std::fs::read(&records).unwrap()
    );
    // The records file's run does not take game logs.
    let (ok, log) = games(&records, &["--games", "6"]);
    assert!(!ok && log.contains("made by another run"), "{log}");
    // Not a game log: an error, not a panic.
    let (ok, log) = run_subcommand(
        "unpack",
        &[
            &*records.to_string_lossy(),
            "--out",
            &*unpacked.to_string_lossy(),
        ],
    );
    assert!(!ok && log.contains("no game marker"), "{log}");
    let (ok, log) = bughouse_cli(&dir.join("bug.games"), &["--format", "games"]);
    assert!(!ok && log.contains("single-board"), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn opening_nodes_are_part_of_the_settings() {
    let dir = std::env::temp_dir().join(format!("rukav-datagen-opening-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("judged.bin");
    let base = ["--nodes", "300", "--opening-limit", "300"];
    let judged = |nodes: &str, games: &str| {
        datagen_with(
            &out,
            &[&base[..], &["--opening-nodes", nodes, "--games", games]].concat(),
        )
    };
    let (ok, log) = judged("500", "2");
    assert!(ok, "{log}");
    let first = std::fs::read(&out).unwrap();
    assert!(!first.is_empty());
    let (ok, log) = judged("600", "3");
    assert!(!ok);
    assert!(log.contains("made by another run"), "{log}");
    assert_eq!(std::fs::read(&out).unwrap(), first);
    let (ok, log) = judged("500", "3");
    assert!(ok, "{log}");
    assert!(log.contains("resuming at game 2"), "{log}");
    let (ok, log) = datagen_with(
        &dir.join("unjudged.bin"),
        &["--nodes", "300", "--games", "1", "--opening-nodes", "500"],
    );
    assert!(!ok);
    assert!(log.contains("--opening-limit"), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `rukav datagen --variant bughouse` (two-board games) into `out`.
fn bughouse_cli(out: &std::path::Path, extra: &[&str]) -> (bool, String) {
    let base = [
        "--variant",
        "bughouse",
        "--nodes",
        "300",
        "--seed",
        "3",
        "--random-plies",
        "2",
    ];
    run_datagen(out, &[&base[..], extra].concat())
}

#[test]
fn bughouse_runs_resume_split_and_ignore_the_thread_count() {
    let dir = std::env::temp_dir().join(format!("rukav-datagen-bug-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    let (ok, log) = bughouse_cli(&dir.join("whole.bin"), &["--games", "3", "--threads", "2"]);
    assert!(ok, "{log}");
    let whole = read("whole.bin");
    assert!(!whole.is_empty() && whole.len() % 64 == 0);
    // Every record is a bughouse position (variant id 2).
    assert!(whole.chunks(64).all(|r| r[41] == 2));
    let (ok, log) = bughouse_cli(&dir.join("one.bin"), &["--games", "3", "--threads", "1"]);
    assert!(ok, "{log}");
    assert_eq!(read("one.bin"), whole, "the thread count changed the data");
    // Stopped after one game and run again: the bytes of the whole run.
    let parts = dir.join("parts.bin");
    assert!(bughouse_cli(&parts, &["--games", "1", "--threads", "2"]).0);
    let (ok, log) = bughouse_cli(&parts, &["--games", "3", "--threads", "2"]);
    assert!(ok, "{log}");
    assert!(log.contains("resuming at game 1"), "{log}");
    assert_eq!(read("parts.bin"), whole);
    // Other simulated clocks make other data: no appending to this file.
    let (ok, log) = bughouse_cli(&parts, &["--games", "4", "--sim-tc", "20+1"]);
    assert!(!ok);
    assert!(log.contains("made by another run"), "{log}");
    // Slices concatenate to the whole run.
    assert!(bughouse_cli(&dir.join("a.bin"), &["--slice", "0..1"]).0);
    assert!(bughouse_cli(&dir.join("b.bin"), &["--slice", "1..3"]).0);
    assert_eq!([read("a.bin"), read("b.bin")].concat(), whole);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_simulated_clocks_are_refused() {
    let dir = std::env::temp_dir().join(format!("rukav-datagen-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("bad.bin");
    for extra in [
        &["--sim-tc", "fast"][..],
        &["--sim-tc", "0+1"],
        &["--sim-tc", "-5+1"],
        &["--sim-move-ms", "0"],
        &["--sim-move-ms", "x"],
    ] {
        let (ok, log) = bughouse_cli(&out, &[extra, &["--games", "1"]].concat());
        assert!(!ok, "{extra:?} was accepted");
        assert!(!log.contains("panicked"), "{log}");
    }
    // The simulated clocks are for bughouse only.
    let (ok, log) = datagen_with(&out, &["--games", "1", "--sim-tc", "10+1"]);
    assert!(!ok);
    assert!(log.contains("bughouse only"), "{log}");
    assert!(!out.exists() || std::fs::read(&out).unwrap().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `rukav train` with `args`; returns whether it succeeded and its stderr.
fn run_train(args: &[&str]) -> (bool, String) {
    run_subcommand("train", args)
}

#[test]
fn train_init_starts_from_a_network_and_relabels_it() {
    use rukav::eval::nnue::{embedded, load_file};
    use rukav::Variant;
    let dir = std::env::temp_dir().join(format!("rukav-train-init-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("bug.bin");
    let (ok, log) = bughouse_cli(&data, &["--games", "2", "--threads", "2"]);
    assert!(ok, "{log}");
    // The embedded crazyhouse network, written to a file.
    let (_, zh) = &embedded()[0];
    let init = dir.join("zh.nnue");
    std::fs::write(&init, zh.to_bytes()).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (data, init_arg) = (path("bug.bin"), path("zh.nnue"));
    let common = [
        "--data",
        &data,
        "--init",
        &init_arg,
        "--variant",
        "bughouse",
    ];
    // Zero epochs: the same weights, now serving bughouse.
    let relabelled = path("relabelled.nnue");
    let (ok, log) = run_train(&[&common[..], &["--epochs", "0", "--out", &relabelled]].concat());
    assert!(ok, "{log}");
    let net = load_file(&relabelled).unwrap();
    assert!(net.parts() == zh.parts(), "the weights changed");
    assert_eq!((net.hidden(), net.buckets()), (zh.hidden(), zh.buckets()));
    assert!(net.serves(Variant::Bughouse) && !net.serves(Variant::Crazyhouse));
    assert!(
        net.description().contains("init zh.nnue"),
        "{}",
        net.description()
    );
    // One epoch moves the weights, keeping the sizes (--hidden ignored).
    let tuned = path("tuned.nnue");
    let args = [
        "--epochs", "1", "--hidden", "32", "--batch", "16", "--lr", "0.01", "--out", &tuned,
    ];
    let (ok, log) = run_train(&[&common[..], &args].concat());
    assert!(ok, "{log}");
    let net = load_file(&tuned).unwrap();
    assert_eq!((net.hidden(), net.buckets()), (zh.hidden(), zh.buckets()));
    assert!(net.parts().0 != zh.parts().0, "the weights did not move");
    // A file that is not a network is refused.
    let bad = ["--data", &data, "--init", &data, "--out", &tuned];
    let (ok, log) = run_train(&bad);
    assert!(!ok && log.contains("bad magic"), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--validation-data`: the held-out file is read apart from `--data` and
/// never trained on (the network is the one `--validation 0` writes from
/// `--data` alone, byte for byte), its positions are counted, and the
/// starting point's loss is printed before the first epoch.
#[test]
fn train_validation_data_is_held_out() {
    let dir = std::env::temp_dir().join(format!("rukav-train-valid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (ok, log) = datagen_cli(&dir.join("train.bin"), 2, 300);
    assert!(ok, "{log}");
    let held_out = dir.join("held.bin");
    let other_games = [
        "--games",
        "2",
        "--nodes",
        "300",
        "--seed",
        "5",
        "--random-plies",
        "6",
    ];
    let (ok, log) = run_datagen(&held_out, &other_games);
    assert!(ok, "{log}");
    let held_records = std::fs::metadata(&held_out).unwrap().len() / 64;
    let common = [
        "--data",
        &path("train.bin"),
        "--hidden",
        "32",
        "--epochs",
        "2",
        "--batch",
        "16",
    ];
    let (with_held, alone) = (path("with-held.nnue"), path("alone.nnue"));
    let held = path("held.bin");
    let (ok, log) = run_train(
        &[
            &common[..],
            &["--validation-data", &held, "--out", &with_held],
        ]
        .concat(),
    );
    assert!(ok, "{log}");
    assert!(
        log.contains(&format!("train: {held_records} validation positions")),
        "{log}"
    );
    let before = log
        .lines()
        .find_map(|l| l.strip_prefix("before training: validation loss "))
        .unwrap_or_else(|| panic!("no starting loss: {log}"));
    assert!(before.trim().parse::<f64>().unwrap().is_finite(), "{log}");
    let (ok, log) = run_train(&[&common[..], &["--validation", "0", "--out", &alone]].concat());
    assert!(ok, "{log}");
    assert!(
        std::fs::read(&with_held).unwrap() == std::fs::read(&alone).unwrap(),
        "the held-out positions changed the training"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// King buckets: a one-bucket network started into four buckets
/// (`--init --king-buckets 4 --epochs 0`) evaluates every position as
/// before (each bucket a copy), its file says four buckets, and a network
/// trained with them from scratch loads; wrong bucket settings are refused.
/// An SCReLU network trains, loads and starts another with its activation;
/// asking another activation of an `--init` network is refused.
#[test]
fn train_king_buckets_start_from_copies_and_load() {
    use rukav::eval::nnue::{embedded, load_file};
    use rukav::{Position, Variant};
    let dir = std::env::temp_dir().join(format!("rukav-train-kb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (ok, log) = datagen_cli(&dir.join("zh.bin"), 3, 300);
    assert!(ok, "{log}");
    let (_, zh) = &embedded()[0];
    std::fs::write(dir.join("zh.nnue"), zh.to_bytes()).unwrap();
    let (data, init) = (path("zh.bin"), path("zh.nnue"));
    let copied = path("copied.nnue");
    let (ok, log) = run_train(&[
        "--data",
        &data,
        "--init",
        &init,
        "--king-buckets",
        "4",
        "--epochs",
        "0",
        "--out",
        &copied,
    ]);
    assert!(ok, "{log}");
    let net = load_file(&copied).unwrap();
    assert_eq!(net.king_buckets().count(), 4);
    assert_eq!(net.parts().0.len(), 4 * zh.parts().0.len());
    let rules = Variant::Crazyhouse.rules();
    for fen in [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "2kr3r/pbp2pp1/1p2p2p/8/3PN3/5N2/PPP2PPP/2KR3R[QBbpp] b - - 2 14",
        "r4rk1/ppp2ppp/8/8/8/8/PPP2PPP/R4RK1[NNbb] w - - 0 20",
        "8/8/3k4/8/8/4K3/8/8[QRBNPqrbnp] w - - 0 40",
    ] {
        let pos = Position::from_fen(fen, rules).unwrap();
        assert_eq!(
            net.evaluate_position(&pos),
            zh.evaluate_position(&pos),
            "{fen}"
        );
    }
    // A small network from scratch with the shape arguments `shape`.
    let from_scratch = |shape: &[&str], out: &str| {
        let small = ["--hidden", "16", "--epochs", "1", "--batch", "16"];
        let (ok, log) = run_train(&[&["--data", &data, "--out", out][..], shape, &small].concat());
        assert!(ok, "{log}");
        load_file(out).unwrap()
    };
    // `init` written again by `--init` with no shape arguments.
    let again = path("again.nnue");
    let continued = |init: &str| {
        let (ok, log) = run_train(&[
            "--data", &data, "--init", init, "--epochs", "0", "--out", &again,
        ]);
        assert!(ok, "{log}");
        load_file(&again).unwrap()
    };
    // From scratch with eight buckets.
    let fresh = path("fresh.nnue");
    let net = from_scratch(&["--king-buckets", "8"], &fresh);
    assert_eq!(net.king_buckets().count(), 8);
    assert!(
        net.description().contains("8 king buckets"),
        "{}",
        net.description()
    );
    // SCReLU, from scratch, then fine-tuned from itself (its activation
    // kept without asking).
    let squared = path("squared.nnue");
    let net = from_scratch(&["--activation", "screlu"], &squared);
    assert_eq!(net.activation(), rukav::eval::nnue::Activation::SCReLU);
    assert!(
        net.description().contains("SCReLU"),
        "{}",
        net.description()
    );
    let net_again = continued(&squared);
    assert_eq!(
        net_again.activation(),
        rukav::eval::nnue::Activation::SCReLU
    );
    assert!(net_again.parts() == net.parts());
    // A second layer of 8 units, then continued from itself; another size
    // for it is refused.
    let layered = path("layered.nnue");
    let net = from_scratch(&["--second-layer", "8"], &layered);
    assert_eq!(net.second_layer().units, 8);
    assert!(
        net.description().contains("-> 8 CReLU"),
        "{}",
        net.description()
    );
    let net_again = continued(&layered);
    assert!(net_again.parts() == net.parts());
    assert_eq!(net_again.second_layer(), net.second_layer());
    // A layout that does not exist, a bucketed network started as another
    // layout, and mirroring with buckets are refused.
    let refused = |extra: &[&str]| {
        let (ok, log) = run_train(&[&["--data", &data, "--out", &fresh][..], extra].concat());
        assert!(!ok, "{extra:?}");
        log
    };
    assert!(refused(&["--king-buckets", "3"]).contains("1, 4 or 8"));
    assert!(refused(&["--activation", "relu"]).contains("crelu or screlu"));
    assert!(refused(&["--init", &layered, "--second-layer", "4"]).contains("8 units"));
    assert!(refused(&["--second-layer", "33"]).contains("0..=32"));
    assert!(refused(&["--init", &copied, "--activation", "screlu"]).contains("CReLU"));
    assert!(refused(&["--init", &copied, "--king-buckets", "8"]).contains("--king-buckets 4"));
    assert!(refused(&["--king-buckets", "4", "--mirror"]).contains("--mirror"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_also_serves_labels_the_network_for_more_variants() {
    use rukav::eval::nnue::load_file;
    use rukav::Variant;
    let dir = std::env::temp_dir().join(format!("rukav-train-also-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let data = dir.join("anti.bin");
    let (ok, log) = datagen_with(
        &data,
        &["--variant", "antichess", "--games", "4", "--nodes", "300"],
    );
    assert!(ok, "{log}");
    let common = [
        "--data",
        &path("anti.bin"),
        "--variant",
        "antichess",
        "--epochs",
        "1",
        "--hidden",
        "16",
        "--batch",
        "16",
    ];
    let both = path("both.nnue");
    let extra = ["--also-serves", "giveaway", "antichess", "--out", &both];
    let (ok, log) = run_train(&[&common[..], &extra].concat());
    assert!(ok, "{log}");
    let net = load_file(&both).unwrap();
    assert_eq!(net.variants(), &[Variant::Antichess, Variant::Giveaway]);
    // Without the option the network serves its training variant only.
    let one = path("one.nnue");
    let (ok, log) = run_train(&[&common[..], &["--out", &one]].concat());
    assert!(ok, "{log}");
    let net = load_file(&one).unwrap();
    assert!(net.serves(Variant::Antichess) && !net.serves(Variant::Giveaway));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `rukav tables` writes plain and compressed files that the engine loads;
/// its three-piece compressed file is, byte for byte, the one the engine
/// embeds (so the embedded tables are those of today's rules and move
/// generator).
#[test]
fn tables_writes_a_file_the_engine_loads() {
    use rukav::endgames::{builtin, load_file, MAX_PIECES};
    let path = std::env::temp_dir().join(format!("rukav-tables-{}.tbl", std::process::id()));
    let out = path.to_string_lossy().into_owned();
    let (ok, log) = run_subcommand("tables", &["--pieces", "2", "--out", &out]);
    assert!(ok, "{log}");
    let tables = load_file(&out).unwrap();
    assert_eq!(tables.max_pieces(), 2);
    std::fs::remove_file(&path).unwrap();

    let (ok, log) = run_subcommand("tables", &["--pieces", "3", "--compress", "--out", &out]);
    assert!(ok, "{log}");
    let written = std::fs::read(&path).unwrap();
    let embedded = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/nets/antichess3.tbl.z"
    ));
    assert!(
        embedded.as_ref().is_ok_and(|e| *e == written),
        "nets/antichess3.tbl.z is not what `rukav tables --pieces 3 --compress` writes today: \
         rebuild it (nets/README.md)"
    );
    let tables = load_file(&out).unwrap();
    assert_eq!(tables.max_pieces(), MAX_PIECES);
    assert_eq!(tables.to_bytes(), builtin().to_bytes());
    std::fs::remove_file(&path).unwrap();
    for pieces in ["1", "4", "many"] {
        let (ok, _) = run_subcommand("tables", &["--pieces", pieces, "--out", &out]);
        assert!(!ok, "--pieces {pieces} accepted");
    }
    assert!(!path.exists());
}
