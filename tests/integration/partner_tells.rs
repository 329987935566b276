//! The corpus of partner tells (tests/data/partner_tells.txt): each phrase
//! with the readings it is meant to have. The reader may leave a phrase not
//! understood, but never reads a meaning that was not meant; at least 90% of
//! the phrases must be read exactly right. `rukav ptell` prints the same
//! readings.

use rukav::bughouse::tell::{read, Reading};
use std::collections::BTreeSet;
use std::process::Command;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/partner_tells.txt");

/// The corpus: (phrase, intended readings as printed).
fn corpus() -> Vec<(String, BTreeSet<String>)> {
    let text = std::fs::read_to_string(CORPUS).expect("the corpus file is missing");
    let mut out: Vec<(String, BTreeSet<String>)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (phrase, meant) = line
            .rsplit_once("=>")
            .unwrap_or_else(|| panic!("line {}: no '=>': {line}", n + 1));
        let phrase = phrase.trim().to_string();
        let meant: BTreeSet<String> = meant.split(';').map(|r| r.trim().to_string()).collect();
        assert!(
            !out.iter().any(|(p, _)| *p == phrase),
            "line {}: '{phrase}' twice",
            n + 1
        );
        assert!(
            !meant.contains("unknown") && !meant.contains(""),
            "line {}: a meaning must be given",
            n + 1
        );
        out.push((phrase, meant));
    }
    out
}

#[test]
fn the_corpus_is_read_without_a_wrong_meaning_and_mostly_right() {
    let corpus = corpus();
    let (mut right, mut wrong, mut unread) = (0, Vec::new(), Vec::new());
    for (phrase, meant) in &corpus {
        let got: BTreeSet<String> = read(phrase).iter().map(Reading::to_string).collect();
        let stray: Vec<&String> = got
            .iter()
            .filter(|r| *r != "unknown" && !meant.contains(*r))
            .collect();
        if !stray.is_empty() {
            wrong.push(format!("'{phrase}': {got:?}, meant {meant:?}"));
        } else if got == *meant {
            right += 1;
        } else {
            unread.push(format!("'{phrase}': {got:?}, meant {meant:?}"));
        }
    }
    let total = corpus.len();
    println!(
        "partner tells: {total} phrases, {right} right, {} wrong, {} not (or partly) understood",
        wrong.len(),
        unread.len()
    );
    for u in &unread {
        println!("  not understood: {u}");
    }
    assert!(total >= 120, "the corpus has {total} phrases");
    assert!(
        wrong.is_empty(),
        "read with a wrong meaning:\n{}",
        wrong.join("\n")
    );
    assert!(
        right * 10 >= total * 9,
        "{right} of {total} right:\n{}",
        unread.join("\n")
    );
}

/// `rukav ptell` prints the readings one a line, as [`read`] makes them.
#[test]
fn rukav_ptell_prints_the_readings() {
    let out = Command::new(env!("CARGO_BIN_EXE_rukav"))
        .args(["ptell", "sit,", "need", "n", "or", "b!!"])
        .output()
        .expect("rukav runs");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "sit\nneed n 2\nneed b 2\n"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_rukav"))
        .args(["ptell", "-q"])
        .output()
        .expect("rukav runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ban q 1\n");
}
