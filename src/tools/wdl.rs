//! `rukav wdl`: fits the win/draw/loss model of `UCI_ShowWDL`
//! ([`rukav::wdl`]) to self-play data by maximum likelihood.
//!
//! Each datagen record gives a position, its search score and the game's
//! result; seen from the side to move, a score `x` at phase `m` won, drew
//! or lost. The model gives those three outcomes the probabilities
//! `W = σ((x - a(m)) / b(m))`, `L = σ((-x - a(m)) / b(m))`, `D = 1 - W - L`
//! with `a` and `b` quadratic in `m`; the fit minimises the negative log
//! likelihood (Levenberg-Marquardt: analytic gradient, Hessian by
//! differences of the gradient). Positions with the same phase and score
//! are counted together, so the fit is fast on millions of records.
//! It prints the parameters as the Rust constant of `src/wdl.rs` and the
//! log-loss, with that of simpler models for comparison.

use super::out::{Out, ToolError};
use super::record::read_records;
use rayon::prelude::*;
use rukav::wdl::{Input, Model};
use rukav::Variant;
use std::collections::HashMap;
use std::path::PathBuf;

/// Command-line arguments of `rukav wdl`.
#[derive(clap::Args, Debug, Clone)]
pub struct WdlArgs {
    /// Data file(s) from `rukav datagen`.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Variant whose positions are used.
    #[arg(long, default_value = "crazyhouse", value_parser = super::variant_parser())]
    pub variant: Variant,
    /// The phase variable: `move` (full-move number) or `material`
    /// (default: the one the engine's model of the variant uses).
    #[arg(long, value_parser = ["move", "material"])]
    pub input: Option<String>,
}

/// Positions with one phase and one score, and how their games ended
/// (side to move's view).
#[derive(Clone, Copy, Debug)]
struct Cell {
    /// Phase variable.
    m: f64,
    /// Score, centipawns.
    x: f64,
    /// Wins, draws, losses.
    n: [f64; 3],
}

/// Log of the logistic function, without overflow.
fn ln_sigmoid(u: f64) -> f64 {
    if u > 0.0 {
        -(-u).exp().ln_1p()
    } else {
        u - u.exp().ln_1p()
    }
}

fn sigmoid(u: f64) -> f64 {
    1.0 / (1.0 + (-u).exp())
}

const PARAMS: usize = 6;
/// Smallest draw probability the likelihood uses (a = 0 leaves none).
const MIN_DRAW: f64 = 1e-12;

/// Negative log likelihood of `theta` (a0 a1 a2 b0 b1 b2) and its gradient;
/// infinite where `b` is not positive.
fn nll(cells: &[Cell], theta: &[f64; PARAMS]) -> (f64, [f64; PARAMS]) {
    let parts: Vec<(f64, [f64; PARAMS])> = cells
        .par_chunks(4096)
        .map(|chunk| {
            let mut f = 0.0;
            let mut g = [0.0; PARAMS];
            for c in chunk {
                let pow = [1.0, c.m, c.m * c.m];
                let a = theta[0] + theta[1] * c.m + theta[2] * c.m * c.m;
                let b = theta[3] + theta[4] * c.m + theta[5] * c.m * c.m;
                if b <= 0.5 {
                    return (f64::INFINITY, g);
                }
                let (u, v) = ((c.x - a) / b, (-c.x - a) / b);
                let (pw, pl) = (sigmoid(u), sigmoid(v));
                let pd = (1.0 - pw - pl).max(MIN_DRAW);
                let [nw, nd, nl] = c.n;
                f -= nw * ln_sigmoid(u) + nd * pd.ln() + nl * ln_sigmoid(v);
                // d ln(pw)/da = -(1 - pw)/b, d ln(pw)/db = -(1 - pw) u/b; pl alike;
                // pd = 1 - pw - pl.
                let (sw, sl) = (pw * (1.0 - pw), pl * (1.0 - pl));
                let dpd_da = (sw + sl) / b;
                let dpd_db = (sw * u + sl * v) / b;
                let ga = nw * (1.0 - pw) / b + nl * (1.0 - pl) / b - nd * dpd_da / pd;
                let gb = nw * (1.0 - pw) * u / b + nl * (1.0 - pl) * v / b - nd * dpd_db / pd;
                for k in 0..3 {
                    g[k] += ga * pow[k];
                    g[3 + k] += gb * pow[k];
                }
            }
            (f, g)
        })
        .collect();
    let mut f = 0.0;
    let mut g = [0.0; PARAMS];
    for (pf, pg) in parts {
        f += pf;
        for k in 0..PARAMS {
            g[k] += pg[k];
        }
    }
    (f, g)
}

/// Solves `h x = r` (Gaussian elimination with pivoting); `None` when singular.
fn solve(mut h: Vec<Vec<f64>>, mut r: Vec<f64>) -> Option<Vec<f64>> {
    let n = r.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| h[i][col].abs().total_cmp(&h[j][col].abs()))?;
        if h[piv][col].abs() < 1e-300 {
            return None;
        }
        h.swap(col, piv);
        r.swap(col, piv);
        for row in col + 1..n {
            let f = h[row][col] / h[col][col];
            let (top, bottom) = h.split_at_mut(row);
            for (x, p) in bottom[0][col..].iter_mut().zip(&top[col][col..]) {
                *x -= f * p;
            }
            r[row] -= f * r[col];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| h[i][k] * x[k]).sum();
        x[i] = (r[i] - s) / h[i][i];
    }
    Some(x)
}

/// Minimises the negative log likelihood over the parameters marked `free`
/// (Levenberg-Marquardt); returns the parameters and the minimum.
fn fit(cells: &[Cell], start: [f64; PARAMS], free: &[usize]) -> ([f64; PARAMS], f64) {
    let mut theta = start;
    let (mut f, mut g) = nll(cells, &theta);
    let mut lambda = 1e-3;
    for _ in 0..200 {
        // Hessian of the free parameters by forward differences of the gradient.
        let n = free.len();
        // Column j: the change of the gradient along free parameter j.
        let columns: Vec<Vec<f64>> = free
            .iter()
            .map(|&pj| {
                let step = 1e-5 * theta[pj].abs().max(1.0);
                let mut t = theta;
                t[pj] += step;
                let (_, gj) = nll(cells, &t);
                free.iter().map(|&pi| (gj[pi] - g[pi]) / step).collect()
            })
            .collect();
        // Symmetrised.
        let h: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| 0.5 * (columns[j][i] + columns[i][j]))
                    .collect()
            })
            .collect();
        let mut improved = false;
        while lambda < 1e12 {
            let mut damped = h.clone();
            for (i, row) in damped.iter_mut().enumerate() {
                row[i] = h[i][i].abs().max(1e-9) * (1.0 + lambda);
            }
            let rhs: Vec<f64> = free.iter().map(|&p| -g[p]).collect();
            if let Some(step) = solve(damped, rhs) {
                let mut t = theta;
                for (k, &p) in free.iter().enumerate() {
                    t[p] += step[k];
                }
                let (ft, gt) = nll(cells, &t);
                if ft.is_finite() && ft < f {
                    let gain = f - ft;
                    theta = t;
                    f = ft;
                    g = gt;
                    lambda = (lambda / 3.0).max(1e-9);
                    improved = gain > 1e-10 * f.abs();
                    break;
                }
            }
            lambda *= 4.0;
        }
        if !improved {
            break;
        }
    }
    (theta, f)
}

/// `rukav wdl`: fits the model for a variant and prints it.
pub fn main(args: WdlArgs) -> Result<(), ToolError> {
    let rules = args.variant.rules();
    let engine_model = rukav::wdl::model(args.variant);
    let input = match args.input.as_deref() {
        Some("move") => Input::MoveNumber,
        Some("material") => Input::Material,
        _ => engine_model.input,
    };
    let mut records = Vec::new();
    for path in &args.data {
        records.extend(read_records(path).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    // (raw phase, score, outcome 0 win 1 draw 2 loss), side to move's view.
    let samples: Vec<(u32, i32, usize)> = records
        .par_iter()
        .filter(|r| r.variant() == Some(args.variant))
        .filter_map(|r| {
            let pos = r.unpack(rules).ok()?;
            let sign = pos.side_to_move().sign();
            let result = r.result_white();
            let outcome = if result == 0.5 {
                1
            } else if (result == 1.0) == (sign > 0) {
                0
            } else {
                2
            };
            Some((input.raw(&pos), r.score_white() * sign, outcome))
        })
        .collect();
    if samples.is_empty() {
        return Err(format!("no {} positions in the data", args.variant).into());
    }
    let mut grouped: HashMap<(u32, i32), [f64; 3]> = HashMap::new();
    let mut totals = [0.0; 3];
    for &(raw, x, o) in &samples {
        grouped.entry((raw, x)).or_insert([0.0; 3])[o] += 1.0;
        totals[o] += 1.0;
    }
    let mut keys: Vec<(u32, i32)> = grouped.keys().copied().collect();
    keys.sort_unstable();
    let cells: Vec<Cell> = keys
        .iter()
        .map(|&(raw, x)| Cell {
            m: input.scaled(raw),
            x: f64::from(x),
            n: grouped[&(raw, x)],
        })
        .collect();
    let n = samples.len() as f64;
    let share = |k: usize| 100.0 * totals[k] / n;
    let mut out = Out::lock();
    writeln!(
        out,
        "{}: {} positions from {} file(s), {} distinct (phase, score); side to move won {:.1}%, drew {:.1}%, lost {:.1}%",
        args.variant,
        samples.len(),
        args.data.len(),
        cells.len(),
        share(0),
        share(1),
        share(2)
    )?;
    // Log-loss (nats per position) of the constant frequencies: the baseline.
    let base: f64 = -(0..3)
        .filter(|&k| totals[k] > 0.0)
        .map(|k| totals[k] * (totals[k] / n).ln())
        .sum::<f64>()
        / n;
    let start = [50.0, 0.0, 0.0, 150.0, 0.0, 0.0];
    let (flat, flat_loss) = fit(&cells, start, &[0, 3]);
    let (theta, loss) = fit(&cells, flat, &[0, 1, 2, 3, 4, 5]);
    let model = Model {
        input,
        a: [theta[0], theta[1], theta[2]],
        b: [theta[3], theta[4], theta[5]],
    };
    // The engine's evaluation of the model (with its clamps), as a check.
    let engine_loss: f64 = cells
        .iter()
        .map(|c| {
            let (w, d, l) = model.curve_at(c.m).probabilities(c.x);
            -(c.n[0] * w.max(MIN_DRAW).ln()
                + c.n[1] * d.max(MIN_DRAW).ln()
                + c.n[2] * l.max(MIN_DRAW).ln())
        })
        .sum::<f64>()
        / n;
    writeln!(out, "log-loss (nats per position):")?;
    writeln!(out, "  constant W/D/L frequencies            {base:.5}")?;
    writeln!(
        out,
        "  a, b constant (a {:.1}, b {:.1})      {:.5}",
        flat[0],
        flat[3],
        flat_loss / n
    )?;
    writeln!(
        out,
        "  a, b quadratic in the {} (fitted)  {:.5} (as the engine computes it: {engine_loss:.5})",
        input.name(),
        loss / n
    )?;
    let what = match input {
        Input::MoveNumber => "move",
        Input::Material => "material",
    };
    let points: &[u32] = match input {
        Input::MoveNumber => &[5, 10, 20, 40, 60, 100],
        Input::Material => &[78, 60, 45, 30, 15, 5],
    };
    for &raw in points {
        let c = model.curve_at(input.scaled(raw));
        let (w, d, l) = c.probabilities(100.0);
        writeln!(
            out,
            "  {what} {raw:>3}: a {:6.1} b {:6.1}; at +100 cp W {:.0} D {:.0} L {:.0}",
            c.a,
            c.b,
            w * 1000.0,
            d * 1000.0,
            l * 1000.0
        )?;
    }
    let input_name = match input {
        Input::MoveNumber => "MoveNumber",
        Input::Material => "Material",
    };
    writeln!(out, "Model {{")?;
    writeln!(out, "    input: Input::{input_name},")?;
    writeln!(
        out,
        "    a: [{:.3}, {:.3}, {:.3}],",
        theta[0], theta[1], theta[2]
    )?;
    writeln!(
        out,
        "    b: [{:.3}, {:.3}, {:.3}],",
        theta[3], theta[4], theta[5]
    )?;
    writeln!(out, "}}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rukav::rng::Rng;

    /// Data drawn from a known model give that model back.
    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = [60.0, 20.0, -4.0, 120.0, 30.0, 0.0];
        let mut rng = Rng(5);
        let mut grouped: HashMap<(u32, i32), [f64; 3]> = HashMap::new();
        for _ in 0..300_000 {
            let raw = 1 + rng.below(80) as u32;
            let x = rng.below(1201) as i32 - 600;
            let m = Input::MoveNumber.scaled(raw);
            let a = truth[0] + truth[1] * m + truth[2] * m * m;
            let b = truth[3] + truth[4] * m + truth[5] * m * m;
            let w = sigmoid((f64::from(x) - a) / b);
            let l = sigmoid((-f64::from(x) - a) / b);
            let u = rng.unit();
            let o = if u < w {
                0
            } else if u < w + l {
                2
            } else {
                1
            };
            grouped.entry((raw, x)).or_insert([0.0; 3])[o] += 1.0;
        }
        let cells: Vec<Cell> = grouped
            .iter()
            .map(|(&(raw, x), &n)| Cell {
                m: Input::MoveNumber.scaled(raw),
                x: f64::from(x),
                n,
            })
            .collect();
        let (theta, _) = fit(
            &cells,
            [50.0, 0.0, 0.0, 150.0, 0.0, 0.0],
            &[0, 1, 2, 3, 4, 5],
        );
        for m in [0.2, 1.0, 2.0] {
            let a = |t: &[f64; 6]| t[0] + t[1] * m + t[2] * m * m;
            let b = |t: &[f64; 6]| t[3] + t[4] * m + t[5] * m * m;
            assert!((a(&theta) - a(&truth)).abs() < 8.0, "{theta:?}");
            assert!((b(&theta) - b(&truth)).abs() < 8.0, "{theta:?}");
        }
    }
}
