//! Time management: how long a move may take (soft and hard limits from
//! the clock, increment and moves to go), and when to stop deepening.
//!
//! Every number may come from an untrusted `go` line, so the arithmetic
//! saturates: no clock value, however large, overflows.

use super::params;
use crate::rules::Rules;
use crate::types::Color;
use std::time::Duration;

/// Clock information of a `go` command (milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// White's remaining time.
    pub wtime: Option<u64>,
    /// Black's remaining time.
    pub btime: Option<u64>,
    /// White's increment.
    pub winc: u64,
    /// Black's increment.
    pub binc: u64,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
}

impl Clock {
    /// The remaining time and increment of `side`.
    pub fn of(&self, side: Color) -> (Option<u64>, u64) {
        match side {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        }
    }

    /// The same clock with `used` taken off `side`'s remaining time (a
    /// search restarted after `used` of thinking).
    pub fn spent(&self, side: Color, used: Duration) -> Clock {
        let used = u64::try_from(used.as_millis()).unwrap_or(u64::MAX);
        let mut c = *self;
        let slot = match side {
            Color::White => &mut c.wtime,
            Color::Black => &mut c.btime,
        };
        *slot = slot.map(|t| t.saturating_sub(used).max(1));
        c.movetime = c.movetime.map(|t| t.saturating_sub(used).max(1));
        c
    }
}

/// The moves a sudden-death clock is planned for under `rules`.
pub fn moves_horizon(rules: &Rules) -> u64 {
    let moves = if rules.losers_win {
        params::losers_moves_horizon()
    } else {
        params::moves_horizon()
    };
    moves.max(1) as u64
}

/// Soft and hard time limits for the side to move. The soft limit ends
/// iterative deepening after an iteration; the hard limit stops at once.
/// `horizon` is the number of moves a sudden-death clock is planned for.
pub fn time_limits(
    clock: &Clock,
    side: Color,
    overhead: u64,
    horizon: u64,
) -> (Option<Duration>, Option<Duration>) {
    if let Some(mt) = clock.movetime {
        // A fixed time per move is used whole (iterative deepening stops
        // early only for a forced move or a proven mate).
        let t = Duration::from_millis(mt.saturating_sub(overhead).max(1));
        return (None, Some(t));
    }
    let (Some(time), inc) = clock.of(side) else {
        return (None, None);
    };
    let left = time.saturating_sub(overhead);
    let param = |v: i32| u64::try_from(v).unwrap_or(0);
    let moves = clock
        .movestogo
        .unwrap_or(horizon)
        .clamp(1, param(params::time_moves_max()));
    // Keep a reserve so that the clock never runs out: never plan to use more
    // than half of what is left, nor (sudden death) more than a fifth.
    let base = (left / (moves + param(params::time_moves_extra())))
        .saturating_add(percent(inc, param(params::time_inc_percent())));
    let cap = if clock.movestogo.is_some() {
        percent(left, param(params::time_cap_movestogo_percent()))
    } else {
        percent(left, param(params::time_cap_sudden_percent()))
    };
    let soft = base.min(cap).max(1);
    let hard = soft
        .saturating_mul(param(params::time_hard_factor()))
        .min(
            percent(left, param(params::time_hard_cap_percent()))
                .saturating_add(percent(inc, param(params::time_hard_inc_percent()))),
        )
        .min(left.saturating_sub(HARD_LIMIT_MARGIN_MS))
        .max(1);
    (
        Some(Duration::from_millis(soft)),
        Some(Duration::from_millis(hard.max(soft.min(left)))),
    )
}

/// Percentages are hundredths.
const PERCENT: u32 = 100;
/// The hard limit stays this far below what is left of the clock (ms).
const HARD_LIMIT_MARGIN_MS: u64 = 10;

/// `share` percent of `x`, rounded down, for any `x` (no overflow).
fn percent(x: u64, share: u64) -> u64 {
    u64::try_from(u128::from(x) * u128::from(share) / u128::from(PERCENT)).unwrap_or(u64::MAX)
}

/// Should iterative deepening stop after `depth` (main thread, not
/// pondering)? A best move that stayed stable ends it early, at a share of
/// the soft limit; one that keeps changing uses the whole soft limit.
pub fn soft_limit_reached(
    elapsed: Duration,
    soft: Duration,
    depth: i32,
    best_move_changes: u32,
) -> bool {
    let stable = depth > params::time_stable_min_depth()
        && i64::from(best_move_changes) <= i64::from(params::time_stable_changes_max());
    let factor = if stable {
        f64::from(params::time_stable_percent()) / f64::from(PERCENT)
    } else {
        1.0
    };
    elapsed.as_secs_f64() >= soft.as_secs_f64() * factor
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn time_limits_leave_a_reserve() {
        for horizon in [30, 10, 1] {
            for time in [50u64, 200, 1000, 5000, 60_000, 300_000] {
                for inc in [0u64, 50, 1000] {
                    let c = Clock {
                        wtime: Some(time),
                        winc: inc,
                        ..Clock::default()
                    };
                    let (soft, hard) = time_limits(&c, Color::White, 30, horizon);
                    let (soft, hard) = (
                        soft.unwrap().as_millis() as u64,
                        hard.unwrap().as_millis() as u64,
                    );
                    let at = format!("{time}+{inc} horizon {horizon}");
                    assert!(soft <= hard, "{at}: soft {soft} hard {hard}");
                    assert!(hard < time.max(2), "{at}: hard {hard} would flag");
                }
            }
        }
        // A shorter horizon plans more time per move.
        let c = Clock {
            wtime: Some(5000),
            winc: 50,
            ..Clock::default()
        };
        let chess = time_limits(
            &c,
            Color::White,
            30,
            moves_horizon(&Variant::Crazyhouse.rules()),
        )
        .0;
        let losers = time_limits(
            &c,
            Color::White,
            30,
            moves_horizon(&Variant::Antichess.rules()),
        )
        .0;
        assert!(losers > chess, "{losers:?} vs {chess:?}");
        let c = Clock {
            movetime: Some(500),
            ..Clock::default()
        };
        let (soft, hard) = time_limits(&c, Color::Black, 30, params::moves_horizon() as u64);
        assert_eq!(soft, None);
        assert_eq!(hard, Some(Duration::from_millis(470)));
    }

    /// Untrusted clocks never overflow (this test panics on overflow in a
    /// debug build, where `cargo test` without `--release` runs it).
    #[test]
    fn extreme_clocks_do_not_overflow() {
        let huge = [u64::MAX, u64::MAX / 2, i64::MAX as u64, u64::MAX - 1];
        for &t in &huge {
            for &inc in &[0, 1, u64::MAX, i64::MAX as u64] {
                for mtg in [None, Some(1), Some(u64::MAX)] {
                    let c = Clock {
                        wtime: Some(t),
                        btime: Some(t),
                        winc: inc,
                        binc: inc,
                        movestogo: mtg,
                        movetime: None,
                    };
                    for overhead in [0, 30, u64::MAX] {
                        let (soft, hard) =
                            time_limits(&c, Color::White, overhead, params::moves_horizon() as u64);
                        assert!(soft <= hard);
                    }
                    let spent = c.spent(Color::Black, Duration::MAX);
                    assert_eq!(spent.btime, Some(1));
                    assert_eq!(spent.wtime, Some(t));
                }
            }
            let c = Clock {
                movetime: Some(t),
                ..Clock::default()
            };
            let (soft, hard) = time_limits(&c, Color::White, 30, params::moves_horizon() as u64);
            assert!(soft.is_none() && hard.is_some());
        }
    }
}
