//! Clocks and the end of a bughouse game: flags, mates on any board,
//! simultaneous ends, forfeits and draws, and the clock accounting of each
//! move.

use super::game::{BoardEnd, Game, LossReason, MatchResult, PlayError, Report};
use super::settings::{board_letter, seat_name, team_of, Form, Team};
use crate::position::outcome::{EndReason, Outcome};
use crate::types::Color;

impl Game {
    /// Lets time pass to `now`: every clock that reached zero by then loses
    /// its board (flags at the same millisecond together).
    pub fn tick(&mut self, now: u64) -> Report {
        let mut report = Report::default();
        self.flags_until(now, true, &mut report);
        report
    }

    /// Processes flags with flag time `< now` (or `<= now` when `inclusive`).
    pub(super) fn flags_until(&mut self, now: u64, inclusive: bool, report: &mut Report) {
        while let Some(t) = self.next_flag_ms() {
            if t > now || (t == now && !inclusive) {
                break;
            }
            let losses: Vec<(usize, Color, LossReason, String)> = (0..self.boards.len())
                .filter(|&b| self.flag_time(b) == Some(t))
                .map(|b| {
                    let c = self.running_side(b);
                    (
                        b,
                        c,
                        LossReason::Time,
                        format!("{} lost on time", seat_name(b, c)),
                    )
                })
                .collect();
            self.resolve(losses, None, t, report);
        }
    }

    /// Applies board losses (and perhaps a draw) that happen together at `at`.
    pub(super) fn resolve(
        &mut self,
        losses: Vec<(usize, Color, LossReason, String)>,
        draw: Option<String>,
        at: u64,
        report: &mut Report,
    ) {
        if self.result.is_some() || (losses.is_empty() && draw.is_none()) {
            return;
        }
        let mut losing = [false; 2];
        let mut texts = Vec::new();
        for (b, loser, reason, text) in losses {
            if !self.boards[b].live && reason != LossReason::Forfeit {
                continue;
            }
            let team = team_of(b, loser);
            self.ends.push(BoardEnd {
                board: b,
                loser,
                reason,
                at_ms: at,
                text: text.clone(),
            });
            texts.push(text);
            if self.settings.form == Form::ThreeBoards && b != 0 && reason != LossReason::Forfeit {
                // A side board leaves play; the team loses when both are gone.
                self.boards[b].live = false;
                self.boards[b].unpressed = None;
                report.left_play.push(b);
                let lost_sides = self
                    .ends
                    .iter()
                    .filter(|e| e.board != 0 && team_of(e.board, e.loser) == team)
                    .count();
                if lost_sides >= 2 {
                    losing[team.index()] = true;
                    texts.push(format!("team {} lost both side boards", team.index() + 1));
                }
            } else {
                losing[team.index()] = true;
            }
        }
        let result = match losing {
            [true, true] => Some(MatchResult {
                winner: None,
                reason: format!("{} at the same time: draw", texts.join(", ")),
            }),
            [true, false] => Some(MatchResult {
                winner: Some(Team::Two),
                reason: texts.join(", "),
            }),
            [false, true] => Some(MatchResult {
                winner: Some(Team::One),
                reason: texts.join(", "),
            }),
            [false, false] => draw.map(|reason| MatchResult {
                winner: None,
                reason,
            }),
        };
        if let Some(r) = result {
            self.result = Some(r);
            self.end_ms = Some(at);
            report.over = true;
        }
    }

    /// The team of `color` on `board` loses the match (crash, illegal move,
    /// resignation).
    pub fn forfeit(&mut self, board: usize, color: Color, reason: String, now: u64) -> Report {
        let mut report = Report::default();
        if self.result.is_none() && board < self.boards.len() {
            self.resolve(
                vec![(board, color, LossReason::Forfeit, reason)],
                None,
                now,
                &mut report,
            );
        }
        report
    }

    /// Ends the match as a draw (agreement of both teams, adjudication).
    pub fn draw(&mut self, reason: String, now: u64) -> Report {
        let mut report = Report::default();
        self.resolve(Vec::new(), Some(reason), now, &mut report);
        report
    }

    /// Charges the time since the turn started to `color` on `board`, adds the increment.
    pub(super) fn charge(&mut self, board: usize, color: Color, now: u64) {
        if let Some(tc) = self.settings.time {
            let b = &mut self.boards[board];
            b.clock[color.index()] -= now.saturating_sub(b.turn_start) as i64;
            b.clock[color.index()] += tc.inc_ms as i64;
            b.turn_start = now;
        } else {
            self.boards[board].turn_start = now;
        }
    }

    /// Writes the mover's clock into its last logged move.
    pub(super) fn record_clock(&mut self, board: usize, mover: Color) {
        if self.settings.time.is_some() {
            let clock = self.boards[board].clock[mover.index()];
            if let Some(m) = self
                .log
                .iter_mut()
                .rev()
                .find(|m| m.board == board && m.color == mover)
            {
                m.clock_ms = Some(clock);
            }
        }
    }

    /// Applies every flag fall up to `now`; fails when the match is over or
    /// the mover on `board` ran out of time together with this action.
    pub(super) fn settle_clocks(
        &mut self,
        board: usize,
        now: u64,
        report: &mut Report,
    ) -> Result<(), PlayError> {
        self.flags_until(now, false, report);
        if self.is_over() {
            return Err(PlayError::Over);
        }
        if self.flag_time(board).is_some_and(|t| t <= now) {
            // The mover's clock reached zero together with the move: too late.
            self.flags_until(now, true, report);
            return Err(PlayError::Over);
        }
        Ok(())
    }

    /// After a change: mates on any board, repetition on `moved`, together
    /// with flags that fall at this same millisecond.
    pub(super) fn evaluate(&mut self, moved: usize, now: u64, report: &mut Report) {
        let mut losses = Vec::new();
        let mut draw = None;
        for (i, b) in self.boards.iter().enumerate() {
            if !b.live {
                continue;
            }
            match b.pos.outcome() {
                Some(Outcome::Win { winner, reason }) => {
                    let loser = winner.flip();
                    let text = match reason {
                        EndReason::Checkmate => format!("{} checkmated", seat_name(i, loser)),
                        other => format!("{} lost ({other:?})", seat_name(i, loser)),
                    };
                    losses.push((i, loser, LossReason::Checkmate, text));
                }
                Some(Outcome::Draw { reason }) => {
                    draw = Some(format!("draw on board {} ({reason:?})", board_letter(i)));
                }
                None => {}
            }
        }
        if let Some(b) = self.boards.get(moved) {
            if b.live {
                let last = b.pos.key();
                if b.keys.iter().filter(|&&k| k == last).count() >= 3 {
                    draw = Some(format!(
                        "draw by threefold repetition on board {}",
                        board_letter(moved)
                    ));
                }
            }
        }
        for b in 0..self.boards.len() {
            if self.flag_time(b) == Some(now) && !losses.iter().any(|l| l.0 == b) {
                let c = self.running_side(b);
                losses.push((
                    b,
                    c,
                    LossReason::Time,
                    format!("{} lost on time", seat_name(b, c)),
                ));
            }
        }
        if !losses.is_empty() && losses.iter().all(|l| l.2 == LossReason::Time) {
            // Only clocks at zero: they are not caused by this move; keep
            // them for `tick` unless the move itself ended something.
            losses.clear();
        }
        self.resolve(losses, draw, now, report);
    }
}
