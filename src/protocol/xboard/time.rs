//! CECP's time controls (`level`, `st`, `sd`) and clocks (`time`,
//! `otim`): the time-control state of a session, and the clock of the
//! engine's next search.

use super::output::error;
use crate::engine::Clock;
use crate::types::Color;

/// CECP's time controls. `level` and `st` "are not used together" (the
/// specification): each replaces the other; `sd` limits the depth beside
/// either; `time` and `otim` set the clocks, which only `level` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TimeControl {
    /// `level MPS BASE INC`: MPS moves per session (0: the whole game),
    /// INC the increment in ms (BASE sets the clocks until `time`/`otim`).
    Clock {
        /// Moves per session; 0 for the whole game.
        mps: u64,
        /// Increment per move, ms.
        inc: u64,
    },
    /// `st TIME`: exactly this many ms a move; the clocks are not used.
    PerMove(u64),
}

/// The time-control state of a session: the control in force, the depth
/// limit beside it, and both clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TimeState {
    /// Our clock, in ms.
    time: Option<u64>,
    /// The opponent's clock, in ms.
    otim: Option<u64>,
    /// `level` or `st`, whichever came last: they cancel each other.
    control: TimeControl,
    /// `sd`: a depth limit beside either time control.
    pub(super) sd: Option<i32>,
}

impl Default for TimeState {
    fn default() -> Self {
        TimeState {
            time: None,
            otim: None,
            control: TimeControl::Clock { mps: 0, inc: 0 },
            sd: None,
        }
    }
}

impl TimeState {
    /// The clock of the engine's next search, from the time control in
    /// force and `time`/`otim` (the engine's clock is `time`, whichever
    /// colour it plays, `engine_color`); `plies` is the number of moves
    /// played in the game.
    pub(super) fn go_clock(&self, engine_color: Color, plies: usize) -> Clock {
        let (own, theirs) = (self.time, self.otim);
        let (wtime, btime) = match engine_color {
            Color::White => (own, theirs),
            Color::Black => (theirs, own),
        };
        let (mps, inc, movetime) = match self.control {
            TimeControl::Clock { mps, inc } => (mps, inc, None),
            TimeControl::PerMove(ms) => (0, 0, Some(ms)),
        };
        let movestogo = (mps > 0).then(|| {
            let played = (plies as u64).div_ceil(2);
            mps - played % mps
        });
        Clock {
            wtime,
            btime,
            winc: inc,
            binc: inc,
            movestogo,
            movetime,
        }
    }

    /// `time CS` / `otim CS`: the engine's and the opponent's clocks in centiseconds.
    pub(super) fn set_clock(&mut self, cmd: &str, value: Option<&str>, arg: &str) {
        match value.and_then(|t| t.parse::<i128>().ok()) {
            Some(cs) => {
                let ms = cs.clamp(0, i128::from(u64::MAX / 10)) as u64 * 10;
                if cmd == "time" {
                    self.time = Some(ms);
                } else {
                    self.otim = Some(ms);
                }
            }
            None => error("bad time", arg),
        }
    }

    /// `st SECONDS`: exactly this long a move; replaces `level`.
    pub(super) fn set_st(&mut self, arg: &str) {
        match arg.parse::<f64>() {
            Ok(s) if s > 0.0 && s.is_finite() => {
                self.control = TimeControl::PerMove((s.min(1e9) * 1000.0) as u64);
            }
            _ => error("bad st", arg),
        }
    }

    /// `sd DEPTH`: a depth limit.
    pub(super) fn set_sd(&mut self, arg: &str) {
        match arg.parse::<i32>() {
            Ok(d) if d > 0 => self.sd = Some(d),
            _ => error("bad sd", arg),
        }
    }

    /// `level MPS BASE INC`, BASE as minutes or min:sec: a clock time
    /// control, which replaces `st`. Both clocks start at BASE (the
    /// `time` and `otim` that GUIs send before a move replace it).
    pub(super) fn level(&mut self, rest: &[&str], arg: &str) {
        if rest.len() != 3 {
            return error("level needs MPS BASE INC", arg);
        }
        match (
            rest[0].parse::<u64>(),
            level_base_ms(rest[1]),
            rest[2].parse::<f64>(),
        ) {
            (Ok(mps), Some(base), Ok(inc)) if inc >= 0.0 && inc.is_finite() => {
                self.control = TimeControl::Clock {
                    mps,
                    inc: (inc.min(1e9) * 1000.0) as u64,
                };
                self.time = Some(base);
                self.otim = Some(base);
            }
            _ => error("bad level", arg),
        }
    }
}

/// `level`'s BASE in ms: minutes (`5`, `0.5`) or minutes and seconds
/// (`0:30`, `2:05`); `None` for anything else.
fn level_base_ms(text: &str) -> Option<u64> {
    let (minutes, seconds) = match text.split_once(':') {
        Some((m, s)) => (m.parse::<f64>().ok()?, s.parse::<f64>().ok()?),
        None => (text.parse::<f64>().ok()?, 0.0),
    };
    let ms = (minutes * 60.0 + seconds) * 1000.0;
    (ms.is_finite() && ms >= 0.0 && minutes >= 0.0 && seconds >= 0.0).then(|| ms.min(1e15) as u64)
}

#[cfg(test)]
mod tests {
    use super::super::session::Xboard;
    use super::*;

    /// An xboard session whose results go nowhere.
    fn session() -> Xboard {
        let (tx, _rx) = std::sync::mpsc::channel();
        Xboard::new(tx)
    }

    fn after(lines: &[&str]) -> Xboard {
        let mut x = session();
        for l in lines {
            x.handle(l);
        }
        x
    }

    /// lichess-bot over xboard (python-chess) sends `st` for the first
    /// move, then `level` and the clocks: the engine thought 2 s a move at
    /// 10+0.1 and its clock went to -168 s. `level` ends `st`.
    #[test]
    fn level_after_st_plays_by_the_clock() {
        let x = after(&["st 2", "level 0 0:08 0.1", "time 800", "otim 750"]);
        let c = x.go_clock();
        assert_eq!(c.movetime, None);
        // The engine plays Black after `new`-less start: `time` is Black's.
        assert_eq!((c.btime, c.wtime, c.binc), (Some(8000), Some(7500), 100));
    }

    #[test]
    fn st_after_level_is_exact_time_per_move() {
        let x = after(&["level 40 5 0", "time 30000", "st 2.5"]);
        let c = x.go_clock();
        assert_eq!(c.movetime, Some(2500));
        assert_eq!((c.winc, c.binc, c.movestogo), (0, 0, None));
    }

    /// `sd` is orthogonal: it stays beside either control, and neither
    /// control clears it; `new` does.
    #[test]
    fn sd_stays_beside_level_and_st_until_new() {
        let mut x = after(&["sd 7", "st 1", "level 0 1 0"]);
        assert_eq!(x.timing.sd, Some(7));
        assert_eq!(x.go_clock().movetime, None);
        x.handle("st 3");
        assert_eq!(x.timing.sd, Some(7));
        x.handle("new");
        assert_eq!(x.timing.sd, None);
        // `new` keeps the time control (the specification resets clocks,
        // not the control).
        assert_eq!(x.go_clock().movetime, Some(3000));
    }

    /// `level` sets both clocks to BASE; `time`/`otim` replace them and
    /// do not change the control; `mps` counts moves to the next session.
    #[test]
    fn time_and_otim_set_the_clocks_only() {
        let mut x = after(&["level 40 0:30 0"]);
        let c = x.go_clock();
        assert_eq!(
            (c.wtime, c.btime, c.movestogo),
            (Some(30_000), Some(30_000), Some(40))
        );
        x.handle("time 1234");
        x.handle("otim 99999999999999999999");
        let c = x.go_clock();
        assert_eq!(c.btime, Some(12_340));
        assert!(c.wtime.is_some_and(|t| t > 30_000));
        assert_eq!(c.movestogo, Some(40));
        x.handle("st 1");
        x.handle("time 500");
        assert_eq!(x.go_clock().movetime, Some(1000));
    }

    #[test]
    fn bad_time_controls_change_nothing() {
        let mut x = after(&["level 0 2 1"]);
        let before = x.go_clock();
        for bad in [
            "level 0 x 1",
            "level 0 -2 1",
            "level 0 2:xx 1",
            "level 0 2 -1",
            "level 0 2",
            "st 0",
            "st -1",
            "st nan",
            "st inf",
        ] {
            x.handle(bad);
            assert_eq!(x.go_clock(), before, "{bad}");
        }
    }

    #[test]
    fn level_base_reads_minutes_and_seconds() {
        assert_eq!(level_base_ms("5"), Some(300_000));
        assert_eq!(level_base_ms("0:30"), Some(30_000));
        assert_eq!(level_base_ms("2:05"), Some(125_000));
        assert_eq!(level_base_ms("0.5"), Some(30_000));
        assert_eq!(level_base_ms("-1"), None);
        assert_eq!(level_base_ms("1:-5"), None);
        assert_eq!(level_base_ms(""), None);
    }
}
