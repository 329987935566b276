//! Time management: how long a move may take (soft and hard limits from
//! the clock, increment and moves to go), and when to stop deepening.
//!
//! Every number may come from an untrusted `go` line, so the arithmetic
//! saturates: no clock value, however large, overflows.

use super::params;
use super::score::{is_decisive, MATE, MATE_BOUND};
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

/// The time of one search, decided once per `go` from the clock, the
/// increment, the moves to go, the move overhead and (bughouse) the
/// partner's wishes and the decision to hold the move. It owns every stop
/// rule that depends on time: after an iteration (a forced move, a proven
/// mate, the soft limit), during one (the hard limit), and how long a
/// held move is kept back. A search without a clock (depth, nodes,
/// infinite, analysis) has [`Budget::UNLIMITED`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Iterative deepening stops after an iteration that ends past this
    /// (a share of it for a stable best move).
    soft: Option<Duration>,
    /// The search stops at once past this.
    hard: Option<Duration>,
    /// Bughouse: the move is held (the search thinks on and its result
    /// waits for `stop`, the partner's `go` or a pocket change) for at
    /// most this long.
    hold: Option<Duration>,
}

/// What the main thread knows after an iteration, for the soft stop test.
#[derive(Clone, Copy, Debug)]
pub struct IterationEnd {
    /// The depth just completed.
    pub depth: i32,
    /// Time since the search started (since `ponderhit` for a ponder search).
    pub elapsed: Duration,
    /// Legal root moves searched.
    pub root_moves: usize,
    /// The best line's score (internal units).
    pub score: i32,
    /// Recent best-move changes (decaying).
    pub best_move_changes: u32,
    /// The share of this search's root nodes spent below the best move
    /// (percent, 0-100; `None` where it is not known).
    pub best_move_effort: Option<u32>,
    /// The score of the iteration before (`None` at the first).
    pub previous_score: Option<i32>,
}

impl Budget {
    /// No time limit: depth, nodes, `infinite`, analysis.
    pub const UNLIMITED: Budget = Budget {
        soft: None,
        hard: None,
        hold: None,
    };

    /// The budget of the side to move `side` under `clock`, keeping
    /// `overhead` ms for the transmission of the move; `horizon` is the
    /// number of moves a sudden-death clock is planned for
    /// ([`moves_horizon`]). A fixed time per move is used whole; a clock
    /// gives a soft limit (for ending iterative deepening) and a hard one
    /// (stop at once) that keep a reserve, so the clock never runs out.
    pub fn for_clock(clock: &Clock, side: Color, overhead: u64, horizon: u64) -> Budget {
        if let Some(mt) = clock.movetime {
            // Iterative deepening stops early only for a forced move or a
            // proven mate.
            let t = Duration::from_millis(mt.saturating_sub(overhead).max(1));
            return Budget::limits(None, Some(t));
        }
        let (Some(time), inc) = clock.of(side) else {
            return Budget::UNLIMITED;
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
        Budget::limits(
            Some(Duration::from_millis(soft)),
            Some(Duration::from_millis(hard.max(soft.min(left)))),
        )
    }

    /// A budget of the given soft and hard limits (tools and tests).
    pub fn limits(soft: Option<Duration>, hard: Option<Duration>) -> Budget {
        Budget {
            soft,
            hard,
            hold: None,
        }
    }

    /// The soft limit: iterative deepening stops after an iteration past it.
    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    /// The hard limit: the search stops at once past it.
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// How long a held move is kept back at most (`None`: not held).
    pub fn hold(&self) -> Option<Duration> {
        self.hold
    }

    /// Does the clock limit this search?
    pub fn is_timed(&self) -> bool {
        self.soft.is_some() || self.hard.is_some()
    }

    /// The same budget after `used` of it went elsewhere (the bughouse
    /// planning searches), scaled to `percent` of it (a partner who asked
    /// for speed). Never below 1 ms where a limit was set.
    pub fn scaled(self, used: Duration, percent: u32) -> Budget {
        let one = Duration::from_millis(1);
        let cut = |t: Duration| t.saturating_sub(used).max(one) * percent / PERCENT;
        Budget {
            soft: self.soft.map(cut),
            hard: self.hard.map(cut),
            hold: self.hold,
        }
    }

    /// A held move (bughouse: sitting for a piece, stalling while mated,
    /// the partner's `sit`): the search thinks on until it is told to
    /// move, for at most `hold`, and only then answers.
    pub fn holding(hold: Duration) -> Budget {
        Budget {
            soft: None,
            hard: Some(hold),
            hold: Some(hold),
        }
    }

    /// Has the search passed its hard limit after `elapsed`?
    pub fn out_of_time(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|h| elapsed >= h)
    }

    /// Time left to the hard limit after `elapsed` (`None`: no limit).
    pub fn time_left(&self, elapsed: Duration) -> Option<Duration> {
        self.hard.map(|h| h.saturating_sub(elapsed))
    }

    /// Should iterative deepening stop after the iteration `it` (main
    /// thread, not pondering)? A forced move and a mate proven within the
    /// full-width depth end a timed search that does not hold its move; a
    /// best move that stayed stable ends it at a share of the soft limit,
    /// one that keeps changing uses the whole soft limit.
    pub fn stop_after_iteration(&self, it: &IterationEnd) -> bool {
        if self.is_timed() && self.hold.is_none() {
            let mate_plies = MATE - it.score.abs();
            if it.root_moves == 1 || (it.score.abs() >= MATE_BOUND && mate_plies <= it.depth) {
                return true;
            }
        }
        self.soft
            .is_some_and(|soft| it.elapsed.as_secs_f64() >= soft.as_secs_f64() * soft_scale(it))
    }

    /// Does a search that has finished keep its result back after
    /// `elapsed`? Yes while pondering or `infinite` (until `stop` or
    /// `ponderhit`), and while a held move is within its hold.
    pub fn keeps_result(&self, infinite: bool, pondering: bool, elapsed: Duration) -> bool {
        pondering || infinite || self.hold.is_some_and(|h| elapsed < h)
    }
}

/// Percentages are hundredths.
const PERCENT: u32 = 100;
/// The hard limit stays this far below what is left of the clock (ms).
const HARD_LIMIT_MARGIN_MS: u64 = 10;

/// `share` percent of `x`, rounded down, for any `x` (no overflow).
fn percent(x: u64, share: u64) -> u64 {
    u64::try_from(u128::from(x) * u128::from(share) / u128::from(PERCENT)).unwrap_or(u64::MAX)
}

/// The share of the soft limit that the iteration `it` may use before
/// deepening stops (1.0: all of it): the product of
/// - the best move's stability: a move that stayed the best for a while
///   (`time_stable_*`) uses a share, one that keeps changing more
///   (`time_unstable_percent` per recent change);
/// - the effort it took: from `time_effort_min_depth` on, the fewer root
///   nodes the best move needed, the longer the search goes on
///   (`time_effort_base`, `time_effort_scale`);
/// - the score's trend: a falling score extends the search, a rising one
///   shortens it (`time_falling_*`, `time_rising_min`).
fn soft_scale(it: &IterationEnd) -> f64 {
    let pct = |v: i64| v as f64 / f64::from(PERCENT);
    let stable = it.depth > params::time_stable_min_depth()
        && i64::from(it.best_move_changes) <= i64::from(params::time_stable_changes_max());
    let stability = if stable {
        pct(i64::from(params::time_stable_percent()))
    } else {
        pct(100 + i64::from(params::time_unstable_percent()) * i64::from(it.best_move_changes))
    };
    let effort = match it.best_move_effort {
        Some(share) if it.depth >= params::time_effort_min_depth() => {
            let base = i64::from(params::time_effort_base());
            let scale = i64::from(params::time_effort_scale());
            pct((base - i64::from(share.min(100))).max(0) * scale / i64::from(PERCENT))
        }
        _ => 1.0,
    };
    let trend = match it.previous_score {
        Some(prev) if !is_decisive(prev) && !is_decisive(it.score) => {
            let fall = i64::from(prev) - i64::from(it.score);
            let change = fall * i64::from(params::time_falling_percent()) / 10;
            // max-then-min: a tuning that crosses the bounds never panics.
            pct((100 + change)
                .max(i64::from(params::time_rising_min()))
                .min(i64::from(params::time_falling_max())))
        }
        _ => 1.0,
    };
    stability * effort * trend
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// The soft and hard limits of [`Budget::for_clock`].
    fn time_limits(
        c: &Clock,
        side: Color,
        overhead: u64,
        horizon: u64,
    ) -> (Option<Duration>, Option<Duration>) {
        let b = Budget::for_clock(c, side, overhead, horizon);
        (b.soft(), b.hard())
    }

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

    fn iteration(depth: i32, elapsed_ms: u64, root_moves: usize, score: i32) -> IterationEnd {
        IterationEnd {
            depth,
            elapsed: Duration::from_millis(elapsed_ms),
            root_moves,
            score,
            best_move_changes: 3,
            best_move_effort: None,
            previous_score: None,
        }
    }

    /// `movetime` is used whole: no soft limit, the hard limit is the time
    /// less the overhead; only a forced move or a proven mate ends it early.
    #[test]
    fn movetime_is_used_whole() {
        let c = Clock {
            movetime: Some(1000),
            wtime: Some(5000),
            ..Clock::default()
        };
        let b = Budget::for_clock(&c, Color::White, 50, 30);
        assert_eq!(
            (b.soft(), b.hard()),
            (None, Some(Duration::from_millis(950)))
        );
        assert!(!b.stop_after_iteration(&iteration(30, 940, 20, 10)));
        assert!(!b.out_of_time(Duration::from_millis(949)));
        assert!(b.out_of_time(Duration::from_millis(950)));
        assert!(
            b.stop_after_iteration(&iteration(3, 1, 1, 10)),
            "forced move"
        );
        assert!(
            b.stop_after_iteration(&iteration(5, 1, 20, MATE - 3)),
            "mate in 3 plies at depth 5"
        );
        assert!(
            !b.stop_after_iteration(&iteration(5, 1, 20, MATE - 9)),
            "a shorter mate may exist"
        );
        assert!(!b.keeps_result(false, false, Duration::ZERO));
    }

    /// The soft limit ends deepening (earlier for a stable best move); the
    /// hard limit stops the search.
    #[test]
    fn soft_and_hard_limits_stop_the_search() {
        let b = Budget::limits(
            Some(Duration::from_millis(1000)),
            Some(Duration::from_millis(3000)),
        );
        assert!(b.is_timed());
        assert!(!b.stop_after_iteration(&iteration(20, 999, 20, 0)));
        // Three recent changes of the best move stretch the soft limit.
        let stretched = 10 * (100 + 3 * params::time_unstable_percent()) as u64;
        assert!(!b.stop_after_iteration(&iteration(20, stretched - 1, 20, 0)));
        assert!(b.stop_after_iteration(&iteration(20, stretched, 20, 0)));
        let stable = IterationEnd {
            best_move_changes: 0,
            ..iteration(20, 999, 20, 0)
        };
        assert!(
            b.stop_after_iteration(&stable),
            "a stable move stops at a share of soft"
        );
        assert!(b.out_of_time(Duration::from_millis(3000)));
        assert_eq!(
            b.time_left(Duration::from_millis(2500)),
            Some(Duration::from_millis(500))
        );
        let cut = b.scaled(Duration::from_millis(200), 50);
        assert_eq!(cut.soft(), Some(Duration::from_millis(400)));
        assert_eq!(cut.hard(), Some(Duration::from_millis(1400)));
    }

    /// A held move answers neither for a forced move nor a mate, waits for
    /// `go` up to its hold, and stops searching at the hold.
    #[test]
    fn a_held_move_waits_up_to_its_hold() {
        let b = Budget::holding(Duration::from_millis(4000));
        assert_eq!(b.hold(), Some(Duration::from_millis(4000)));
        assert_eq!(b.soft(), None);
        assert!(!b.stop_after_iteration(&iteration(9, 10, 1, MATE - 1)));
        assert!(b.keeps_result(false, false, Duration::from_millis(3999)));
        assert!(!b.keeps_result(false, false, Duration::from_millis(4000)));
        assert!(
            b.keeps_result(false, true, Duration::from_millis(9000)),
            "pondering"
        );
        assert!(b.out_of_time(Duration::from_millis(4000)));
    }

    /// Without a clock nothing ends the search but its own limits or `stop`.
    #[test]
    fn an_unlimited_search_never_stops_for_time() {
        let b = Budget::UNLIMITED;
        assert!(!b.is_timed());
        assert!(!b.stop_after_iteration(&iteration(50, u64::MAX / 2, 1, MATE - 1)));
        assert!(!b.out_of_time(Duration::MAX));
        assert_eq!(b.time_left(Duration::ZERO), None);
        assert!(b.keeps_result(true, false, Duration::MAX));
        assert!(!b.keeps_result(false, false, Duration::ZERO));
        assert_eq!(
            Budget::for_clock(&Clock::default(), Color::White, 30, 30),
            b
        );
    }

    /// The soft limit stretches for a move that took little of the root
    /// effort and for a falling score, and shrinks for an easy move.
    #[test]
    fn effort_and_score_trend_scale_the_soft_limit() {
        let at = |effort: Option<u32>, previous: Option<i32>, score: i32| IterationEnd {
            best_move_changes: 0,
            best_move_effort: effort,
            previous_score: previous,
            ..iteration(20, 0, 30, score)
        };
        let plain = soft_scale(&at(None, None, 0));
        let easy = soft_scale(&at(Some(98), None, 0));
        let doubtful = soft_scale(&at(Some(25), None, 0));
        assert!(
            easy < plain && plain < doubtful,
            "{easy} {plain} {doubtful}"
        );
        let falling = soft_scale(&at(None, Some(80), 0));
        let rising = soft_scale(&at(None, Some(-80), 0));
        assert!(
            rising < plain && plain < falling,
            "{rising} {plain} {falling}"
        );
        // A mate score says nothing about a trend.
        assert_eq!(soft_scale(&at(None, Some(MATE - 10), 0)), plain);
        // Too shallow for the effort to count.
        let shallow = IterationEnd {
            depth: params::time_effort_min_depth() - 1,
            ..at(Some(5), None, 0)
        };
        let shallow_plain = IterationEnd {
            best_move_effort: None,
            ..shallow
        };
        assert_eq!(soft_scale(&shallow), soft_scale(&shallow_plain));
        // The budget stops by the scaled limit.
        let b = Budget::limits(
            Some(Duration::from_millis(1000)),
            Some(Duration::from_millis(4000)),
        );
        let doubtful_late = IterationEnd {
            elapsed: Duration::from_millis(1000),
            ..at(Some(10), Some(100), 0)
        };
        assert!(!b.stop_after_iteration(&doubtful_late));
    }
}
