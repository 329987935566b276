//! Runs every perft suite of `tests/perft/` (one test per file; the files
//! are copies of the verified suites, with their comment headers).
//!
//! Each position is run at every listed depth whose node count is at most
//! `RUKAV_PERFT_BUDGET` (default 300 million: every depth the suites list).
//! A missing or empty suite file fails its test.

use rukav::protocol::options::apply_rules_option as set_house_rule;
use rukav::{perft::perft, Position, Rules, Variant};
use std::path::PathBuf;

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/perft")
}

fn budget() -> u64 {
    std::env::var("RUKAV_PERFT_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300_000_000)
}

struct Entry {
    line: usize,
    fen: String,
    depths: Vec<(u32, u64)>,
}

/// Reads a suite: its rules (from the file name and an `# options:` line) and entries.
fn read_suite(name: &str) -> (Rules, Vec<Entry>) {
    let path = suite_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("perft suite {} is missing: {e}", path.display()));
    // `chess960.epd` and `crazyhouse960.epd` name their variant before the
    // "960"; their `# options:` line turns on UCI_Chess960.
    let base = name.split(['-', '.']).next().unwrap_or("chess");
    let base = base.strip_suffix("960").unwrap_or(base);
    let mut rules = base
        .parse::<Variant>()
        .expect("variant from file name")
        .rules();
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(opts) = line.strip_prefix("# options:") {
            for kv in opts.split_whitespace() {
                let (k, v) = kv.split_once('=').expect("options are NAME=VALUE");
                set_house_rule(&mut rules, k, v).expect("known option");
            }
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let depths = parts
            .map(|p| {
                let mut w = p.split_whitespace();
                let d = w.next().unwrap().trim_start_matches('D').parse().unwrap();
                let n = w.next().unwrap().parse().unwrap();
                (d, n)
            })
            .collect();
        entries.push(Entry {
            line: i + 1,
            fen,
            depths,
        });
    }
    (rules, entries)
}

fn run_suite(name: &str) {
    let (rules, entries) = read_suite(name);
    assert_eq!(
        rules.chess960,
        name.contains("960"),
        "{name}: UCI_Chess960 comes from the suite's options line"
    );
    assert!(!entries.is_empty(), "{name} has no positions");
    let budget = budget();
    let mut failures = Vec::new();
    let mut run = 0;
    for e in &entries {
        let pos = match Position::from_fen(&e.fen, rules) {
            Ok(p) => p,
            Err(err) => {
                failures.push(format!("{name}:{} FEN refused: {err}: {}", e.line, e.fen));
                continue;
            }
        };
        for &(depth, expected) in &e.depths {
            if expected > budget {
                continue;
            }
            run += 1;
            let got = perft(&pos, depth);
            if got != expected {
                failures.push(format!(
                    "{name}:{} D{depth}: got {got}, expected {expected}: {}",
                    e.line, e.fen
                ));
            }
        }
    }
    eprintln!(
        "{name}: {run} depth counts checked over {} positions",
        entries.len()
    );
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

macro_rules! suites {
    ($($test:ident => $file:expr),* $(,)?) => {
        $(#[test] fn $test() { run_suite($file); })*
    };
}

suites! {
    chess => "chess.epd",
    crazyhouse => "crazyhouse.epd",
    bughouse => "bughouse.epd",
    antichess => "antichess.epd",
    giveaway => "giveaway.epd",
    suicide => "suicide.epd",
    kingschess => "kingschess.epd",
    crazyhouse_dropcheck_off => "crazyhouse-dropcheck-off.epd",
    crazyhouse_dropmate_off => "crazyhouse-dropmate-off.epd",
    crazyhouse_droppedrook_castles => "crazyhouse-droppedrook-castles.epd",
    crazyhouse_pawn2nd_checkonly => "crazyhouse-pawn2nd-checkonly.epd",
    crazyhouse_pawn2nd_forbidden => "crazyhouse-pawn2nd-forbidden.epd",
    crazyhouse_pawn7th_off => "crazyhouse-pawn7th-off.epd",
    crazyhouse_promoted_stays => "crazyhouse-promoted-stays.epd",
    chess960 => "chess960.epd",
    crazyhouse960 => "crazyhouse960.epd",
}

/// Every suite file on disk is covered by a test above.
#[test]
fn every_suite_file_has_a_test() {
    let dir = std::fs::read_dir(suite_dir()).expect("tests/perft/ is part of the repository");
    let known = [
        "chess.epd",
        "crazyhouse.epd",
        "bughouse.epd",
        "antichess.epd",
        "giveaway.epd",
        "suicide.epd",
        "kingschess.epd",
        "crazyhouse-dropcheck-off.epd",
        "crazyhouse-dropmate-off.epd",
        "crazyhouse-droppedrook-castles.epd",
        "crazyhouse-pawn2nd-checkonly.epd",
        "crazyhouse-pawn2nd-forbidden.epd",
        "crazyhouse-pawn7th-off.epd",
        "crazyhouse-promoted-stays.epd",
        "chess960.epd",
        "crazyhouse960.epd",
    ];
    for f in dir.flatten() {
        let name = f.file_name().to_string_lossy().to_string();
        if name.ends_with(".epd") {
            assert!(known.contains(&name.as_str()), "no perft test for {name}");
        }
    }
}
