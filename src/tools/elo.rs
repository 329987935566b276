//! Elo from match scores: the logistic difference and a 95% interval from
//! per-game (trinomial) or per-pair (pentanomial) score variance.

/// Logistic Elo of a score fraction.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The average score of each pair of consecutive games.
pub fn pair_scores(scores: &[f64]) -> Vec<f64> {
    scores
        .chunks_exact(2)
        .map(|p| (p[0] + p[1]) / 2.0)
        .collect()
}

/// Elo and the half-width of its 95% interval from per-game scores.
pub fn elo_with_error(scores: &[f64]) -> (f64, f64) {
    let n = scores.len();
    if n == 0 {
        return (0.0, f64::INFINITY);
    }
    let mean = scores.iter().sum::<f64>() / n as f64;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n as f64;
    let se = (var / n as f64).sqrt();
    let lo = (mean - 1.96 * se).clamp(0.0, 1.0);
    let hi = (mean + 1.96 * se).clamp(0.0, 1.0);
    let elo = elo_from_score(mean);
    let err = (elo_from_score(hi) - elo_from_score(lo)) / 2.0;
    (elo, if err.is_nan() { f64::INFINITY } else { err })
}

/// Formats `+12.3 +/- 45.6`.
pub fn format_elo(elo: f64, err: f64) -> String {
    let f = |v: f64| {
        if v.is_infinite() {
            if v > 0.0 {
                "inf".to_string()
            } else {
                "-inf".to_string()
            }
        } else {
            // `+ 0.0` turns -0.0 into 0.0.
            format!("{:+.1}", v + 0.0)
        }
    };
    let e = if err.is_infinite() {
        "inf".to_string()
    } else {
        format!("{err:.1}")
    };
    format!("{} +/- {e}", f(elo))
}
