//! Texel tuning of the hand-written evaluation (`rukav tune`).
//!
//! Loss: mean squared error between `sigmoid(K * eval)` and a target that
//! blends the game result with the search score of the position
//! (`lambda * result + (1 - lambda) * sigmoid(K * score)`), over quiet
//! positions from `rukav datagen`. Coordinate descent over the weight vector
//! with shrinking steps; the evaluation of all positions runs on rayon.

use super::out::{Out, ToolError};
use super::record::{read_records, Record};
use rayon::prelude::*;
use rukav::eval::{evaluate_with, Weights, WEIGHT_NAMES};
use rukav::{Position, Rules, Variant};
use std::path::PathBuf;

/// A decoded training position.
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// Target probability that White wins (blended).
    pub target: f64,
    /// +1 when White is to move, -1 otherwise (eval is side-to-move relative).
    pub sign: f64,
}

fn sigmoid(x: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-k * x / 400.0).exp())
}

/// Decodes the records of the given rules' variant into samples.
pub fn samples(records: &[Record], rules: Rules, lambda: f64, k: f64) -> Vec<Sample> {
    records
        .par_iter()
        .filter(|r| r.variant() == Some(rules.variant))
        .filter_map(|r| {
            let pos = r.unpack(rules).ok()?;
            let target =
                lambda * r.result_white() + (1.0 - lambda) * sigmoid(r.score_white() as f64, k);
            Some(Sample {
                pos,
                target,
                sign: pos.side_to_move().sign() as f64,
            })
        })
        .collect()
}

/// Mean squared error of `weights` over the samples.
/// The sum is taken over fixed chunks in order, so it is deterministic
/// (a plain parallel float sum is not, and the tuner would chase noise).
pub fn loss(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    let parts: Vec<f64> = samples
        .par_chunks(1024)
        .map(|chunk| {
            chunk
                .iter()
                .map(|s| {
                    let e = evaluate_with(&s.pos, weights) as f64 * s.sign;
                    let d = s.target - sigmoid(e, k);
                    d * d
                })
                .sum::<f64>()
        })
        .collect();
    parts.iter().sum::<f64>() / samples.len().max(1) as f64
}

/// The weights that matter for a variant (the others cannot change its loss).
pub fn relevant_weights(rules: &Rules) -> Vec<usize> {
    use rukav::eval::w;
    let groups: &[(usize, usize)] = if rules.losers_win {
        &[
            (w::ANTI, 6),
            (w::ANTI_MOBILITY, 5),
            (w::ANTI_CAPTURE, 1),
            (w::ANTI_FORCE, 2),
            (w::ANTI_EG, 6),
            (w::ANTI_MOBILITY_EG, 5),
            (w::ANTI_CAPTURE_EG, 1),
            (w::ANTI_FORCE_EG, 2),
        ]
    } else if rules.drops {
        &[
            (w::ZH_BOARD, 5),
            (w::ZH_HAND, 5),
            (w::MOBILITY, 4),
            (w::ATTACK, 5),
            (w::DROP_CHECK, 5),
            (w::SHIELD, 1),
            (w::TEMPO_DROPS, 1),
            (w::PAWN_ADVANCE_DROPS, 1),
            (w::PAWN_CENTRAL, 1),
            (w::KNIGHT_CENTRE, 4),
            (w::KING_HOME, 3),
            (w::DANGER_DROPS, 1),
            (w::HOLE, 1),
        ]
    } else {
        &[
            (w::CHESS_MG, 5),
            (w::CHESS_EG, 5),
            (w::MOBILITY, 4),
            (w::ATTACK, 5),
            (w::SHIELD, 1),
            (w::TEMPO, 1),
            (w::PAWN_ADVANCE, 1),
            (w::PAWN_CENTRAL, 1),
            (w::KNIGHT_CENTRE, 4),
            (w::DANGER, 1),
        ]
    };
    groups
        .iter()
        .flat_map(|&(start, len)| start..start + len)
        .collect()
}

/// Finds the scaling constant K that best fits the current weights.
pub fn fit_k(samples: &[Sample], weights: &Weights) -> f64 {
    let (mut lo, mut hi) = (0.2f64, 3.0f64);
    for _ in 0..30 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if loss(samples, weights, a) < loss(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Coordinate descent: tries +step and -step on every weight, keeps what
/// lowers the loss, halves the steps when a pass finds nothing; `report`
/// receives a line per pass.
pub fn tune(
    samples: &[Sample],
    start: &Weights,
    tunable: &[usize],
    k: f64,
    passes: usize,
    report: &mut dyn FnMut(String),
) -> Weights {
    let mut best = start.clone();
    let mut best_loss = loss(samples, &best, k);
    report(format!(
        "start loss {best_loss:.6} K {k:.3} positions {}",
        samples.len()
    ));
    let mut steps: Vec<i32> = best.0.iter().map(|v| (v.abs() / 16).max(1)).collect();
    for pass in 0..passes {
        let mut improved = false;
        for (i, step) in steps.iter().enumerate() {
            if !tunable.contains(&i) {
                continue;
            }
            for dir in [1, -1] {
                let mut w = best.clone();
                w.0[i] += dir * step;
                let l = loss(samples, &w, k);
                if l < best_loss {
                    best_loss = l;
                    best = w;
                    improved = true;
                    break;
                }
            }
        }
        report(format!("pass {} loss {best_loss:.6}", pass + 1));
        if !improved {
            let mut any = false;
            for s in steps.iter_mut() {
                if *s > 1 {
                    *s /= 2;
                    any = true;
                }
            }
            if !any {
                break;
            }
        }
    }
    best
}

/// The weights as Rust source, grouped by name.
pub fn format_weights(w: &Weights) -> String {
    let mut s = String::new();
    for &(name, start, len) in WEIGHT_NAMES {
        let vals: Vec<String> = w.0[start..start + len]
            .iter()
            .map(|v| v.to_string())
            .collect();
        s.push_str(&format!("    {}, // {}\n", vals.join(", "), name));
    }
    s
}

/// Command-line arguments of `rukav tune`.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// Data file(s) from `rukav datagen`.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Variant whose positions are used.
    #[arg(long, default_value = "crazyhouse", value_parser = super::variant_parser())]
    pub variant: Variant,
    /// Passes of coordinate descent.
    #[arg(long, default_value_t = 20)]
    pub passes: usize,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
}

/// `rukav tune`: tunes the variant's weights and prints them.
pub fn main(args: TuneArgs) -> Result<(), ToolError> {
    let rules = args.variant.rules();
    let mut records = Vec::new();
    for path in &args.data {
        records.extend(read_records(path).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    let start = rukav::eval::DEFAULT_WEIGHTS;
    let rough = samples(&records, rules, 1.0, 1.0);
    if rough.is_empty() {
        return Err(format!("no {} positions in the data", args.variant).into());
    }
    let k = fit_k(&rough, &start);
    let samples = samples(&records, rules, args.lambda, k);
    let tunable = relevant_weights(&rules);
    let tuned = tune(&samples, &start, &tunable, k, args.passes, &mut |l| {
        eprintln!("{l}")
    });
    writeln!(Out::lock(), "{}", format_weights(&tuned))
}
