//! Playing strength levels: `Skill Level` (0..20) and `UCI_LimitStrength`
//! with `UCI_Elo`. Every number that makes the engine weaker is in
//! [`LEVELS`], one row per skill level; nothing else in the engine knows
//! about strength levels.
//!
//! A weaker level plays like a weaker player, not like a random one:
//!
//! - it thinks less: a node budget per move and a depth cap (besides the
//!   clock, whichever ends the search first);
//! - it searches the best few root moves ([`Level::lines`], MultiPV inside
//!   the search, not reported unless the user asked for MultiPV) and picks
//!   one at random, a move `d` centipawns worse than the best with weight
//!   `exp(-d / spread)`: small inaccuracies are common at low levels, a move
//!   that drops a piece is rare (at spread 100 a queen is dropped with
//!   weight e^-9), and a clear best move (a mate, a winning capture) is
//!   nearly always found when the level's search sees it.
//!
//! The random choice draws from a seeded generator ([`crate::rng::Rng`])
//! whose seed the engine takes from the clock per game, so games differ.

use crate::rng::Rng;

/// One strength level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// The Elo this level is meant to play at (`UCI_Elo` picks the level
    /// by this column).
    pub elo: i32,
    /// Node budget per move (all threads together).
    pub nodes: u64,
    /// Depth cap per move.
    pub depth: i32,
    /// Number of best root moves the choice is among (1: the best move).
    pub lines: usize,
    /// Centipawns: a move `d` cp worse than the best is chosen with weight
    /// `exp(-d / spread)` relative to it (0: always the best).
    pub spread: i32,
}

const fn level(elo: i32, nodes: u64, depth: i32, lines: usize, spread: i32) -> Level {
    Level {
        elo,
        nodes,
        depth,
        lines,
        spread,
    }
}

/// The strength levels, `Skill Level` 0 to 19; level 20
/// ([`FULL_STRENGTH`]) is the engine unchanged.
///
/// **Calibrated by measurement** (`scripts/levels.py`, docs/measurements.md "Strength
/// levels: calibration"): the `elo` column chains the measured differences
/// of levels 2-5-8-11-14 (100 games each, crazyhouse), with level 0 set to
/// 500; pairs not used in the fit (1-2, 4-5, 7-8, 12-13, 14-17) came out
/// within 100 Elo of their nominal differences. Levels 18 and 19 are
/// extrapolated. Along the table, `elo`, `nodes` and `depth` must not
/// decrease, and `lines` and `spread` must not increase (a unit test checks
/// it, and that `UCI_Elo` is monotone in between).
pub const LEVELS: [Level; 20] = [
    //    elo    nodes   depth lines spread
    level(500, 1_000, 1, 8, 250),
    level(640, 1_500, 1, 8, 210),
    level(780, 2_000, 2, 7, 180),
    level(920, 3_000, 2, 6, 150),
    level(1065, 4_000, 3, 6, 125),
    level(1205, 6_000, 3, 5, 105),
    level(1375, 9_000, 4, 5, 88),
    level(1545, 13_000, 4, 4, 74),
    level(1715, 19_000, 5, 4, 62),
    level(1860, 28_000, 5, 4, 52),
    level(2005, 40_000, 6, 3, 43),
    level(2150, 60_000, 7, 3, 35),
    level(2285, 90_000, 8, 3, 28),
    level(2420, 130_000, 9, 3, 22),
    level(2555, 190_000, 10, 2, 16),
    level(2655, 280_000, 11, 2, 12),
    level(2755, 400_000, 12, 2, 8),
    level(2855, 600_000, 14, 2, 5),
    level(2955, 900_000, 16, 2, 3),
    level(3055, 1_300_000, 20, 1, 0),
];

/// `Skill Level` of the engine at full strength (the option's maximum and
/// default).
pub const FULL_STRENGTH: i32 = LEVELS.len() as i32;
/// The smallest `UCI_Elo` (level 0).
pub const ELO_MIN: i32 = LEVELS[0].elo;
/// The largest `UCI_Elo` (level 19; `UCI_LimitStrength` always limits).
pub const ELO_MAX: i32 = LEVELS[LEVELS.len() - 1].elo;

/// The level of `Skill Level` `skill`; `None` at full strength (20 and
/// above).
pub fn for_skill(skill: i32) -> Option<Level> {
    usize::try_from(skill.max(0))
        .ok()
        .and_then(|i| LEVELS.get(i))
        .copied()
}

/// The level for `UCI_Elo` `elo` (brought within [`ELO_MIN`]..[`ELO_MAX`]):
/// between two rows of [`LEVELS`] the node budget is interpolated
/// geometrically, the rest linearly (depth and lines rounded towards the
/// weaker row), so that more Elo never means fewer nodes or more spread.
pub fn for_elo(elo: i32) -> Level {
    let elo = elo.clamp(ELO_MIN, ELO_MAX);
    let i = LEVELS
        .iter()
        .rposition(|l| l.elo <= elo)
        .unwrap_or(0)
        .min(LEVELS.len() - 2);
    let (lo, hi) = (LEVELS[i], LEVELS[i + 1]);
    let span = (hi.elo - lo.elo).max(1);
    let t = (f64::from(elo - lo.elo) / f64::from(span)).clamp(0.0, 1.0);
    let nodes = (lo.nodes as f64 * (hi.nodes as f64 / lo.nodes.max(1) as f64).powf(t)).round();
    Level {
        elo,
        nodes: (nodes as u64).max(lo.nodes).min(hi.nodes.max(lo.nodes)),
        depth: lo.depth + (t * f64::from(hi.depth - lo.depth)).floor() as i32,
        lines: lo
            .lines
            .saturating_sub((t * lo.lines.saturating_sub(hi.lines) as f64).floor() as usize)
            .max(1),
        spread: lo.spread + (t * f64::from(hi.spread - lo.spread)).round() as i32,
    }
}

/// A weakened move choice, as the search gets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weakening {
    /// Root moves searched to choose among ([`Level::lines`]).
    pub lines: usize,
    /// [`Level::spread`].
    pub spread: i32,
    /// Seed of this move's random choice.
    pub seed: u64,
}

impl Weakening {
    /// The weakening of `level` with `seed`; `None` when the level always
    /// plays the best move it finds.
    pub fn of(level: &Level, seed: u64) -> Option<Weakening> {
        (level.lines > 1 && level.spread > 0).then_some(Weakening {
            lines: level.lines,
            spread: level.spread,
            seed,
        })
    }

    /// Picks one of the lines by their `scores` (best first, side to
    /// move's view, internal units): the index of the move to play.
    pub fn choose(&self, scores: &[i32]) -> usize {
        let Some(&best) = scores.iter().max() else {
            return 0;
        };
        if self.spread <= 0 {
            return scores.iter().position(|&s| s == best).unwrap_or(0);
        }
        let spread = f64::from(self.spread);
        let weight = |s: i32| (-f64::from(best.saturating_sub(s)) / spread).exp();
        let total: f64 = scores.iter().map(|&s| weight(s)).sum();
        let mut x = Rng(self.seed).unit() * total;
        for (i, &s) in scores.iter().enumerate() {
            x -= weight(s);
            if x < 0.0 {
                return i;
            }
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_monotone() {
        for w in LEVELS.windows(2) {
            let (a, b) = (w[0], w[1]);
            assert!(a.elo < b.elo, "{a:?} {b:?}");
            assert!(a.nodes <= b.nodes && a.depth <= b.depth, "{a:?} {b:?}");
            assert!(a.lines >= b.lines && a.spread >= b.spread, "{a:?} {b:?}");
            assert!(a.lines >= 1 && a.spread >= 0 && a.depth >= 1);
        }
        // More Elo: at least as many nodes and as much depth, no more
        // lines and no more spread.
        let mut last = for_elo(ELO_MIN - 100);
        for elo in ELO_MIN - 100..=ELO_MAX + 100 {
            let l = for_elo(elo);
            assert!(l.nodes >= last.nodes, "{elo}: {l:?} after {last:?}");
            assert!(l.depth >= last.depth, "{elo}: {l:?} after {last:?}");
            assert!(l.lines <= last.lines, "{elo}: {l:?} after {last:?}");
            assert!(l.spread <= last.spread, "{elo}: {l:?} after {last:?}");
            last = l;
        }
        // The rows themselves are what their Elo gives.
        for l in LEVELS {
            assert_eq!(for_elo(l.elo), l);
        }
        assert_eq!(for_skill(0), Some(LEVELS[0]));
        assert_eq!(for_skill(FULL_STRENGTH - 1), Some(LEVELS[19]));
        assert_eq!(for_skill(FULL_STRENGTH), None);
        assert_eq!(for_skill(-5), Some(LEVELS[0]));
    }

    #[test]
    fn the_choice_prefers_small_losses() {
        let scores = [50, 40, 0, -850];
        let mut counts = [0usize; 4];
        for seed in 0..10_000u64 {
            let w = Weakening {
                lines: 4,
                spread: 100,
                seed: Rng::for_index(9, seed).next_u64(),
            };
            counts[w.choose(&scores)] += 1;
        }
        // Weights 1, 0.90, 0.61, 0.0001.
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
        assert!(counts[2] > 1500 && counts[3] < 10, "{counts:?}");
        // Spread 0 and a single line: the best.
        let w = Weakening {
            lines: 4,
            spread: 0,
            seed: 1,
        };
        assert_eq!(w.choose(&scores), 0);
        assert_eq!(w.choose(&[7]), 0);
        assert_eq!(w.choose(&[]), 0);
        // A mate among the lines is always taken.
        let w = Weakening {
            lines: 3,
            spread: 250,
            seed: 3,
        };
        for seed in 0..100 {
            let w = Weakening { seed, ..w };
            assert_eq!(w.choose(&[31_990, 300, 200]), 0);
        }
        assert_eq!(Weakening::of(&LEVELS[19], 1), None);
        assert!(Weakening::of(&LEVELS[0], 1).is_some());
    }
}
