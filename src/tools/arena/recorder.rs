//! Finished games recorded in game order, whichever slot played them: the
//! running totals, the BPGN file (with its tags) and the game line.

use super::config::ArenaConfig;
use super::summary::{GameRecord, Summary};
use super::talk::TalkStats;
use crate::tools::bpgn;
use crate::tools::elo::{elo_with_error, format_elo, pair_scores};
use rukav::bughouse::{Game, MatchResult, TimeControl};
use std::io::Write;

/// What a running match reports.
pub enum Update<'a> {
    /// A setup message (which engine plays where).
    Note(&'a str),
    /// A game ended: games played so far and the game's line.
    Game(u32, &'a str),
}

impl Update<'_> {
    /// The text of the update.
    pub fn line(&self) -> &str {
        match self {
            Update::Note(l) | Update::Game(_, l) => l,
        }
    }
}

/// A game a slot finished, on its way to be recorded in game order.
pub(super) struct Played {
    /// The game's index (0-based) in the match.
    pub(super) index: u64,
    /// Did the engines of `--team1` sit on team 2's seats?
    pub(super) swapped: bool,
    /// The game, over (or adjudicated).
    pub(super) game: Game,
    /// Partner messages relayed.
    pub(super) ptells: usize,
    /// What the engines of `--team1` and `--team2` said and did for each other.
    pub(super) talk: [TalkStats; 2],
    /// Seat tags (`WhiteA`, engine name), board by board.
    pub(super) seats: Vec<(String, String)>,
}

/// Records finished games in order: totals, the BPGN file, the game line.
pub(super) struct Recorder<'a> {
    /// The match.
    pub(super) cfg: &'a ArenaConfig,
    /// The BPGN file, if any.
    pub(super) file: Option<std::fs::File>,
    /// The totals of the games recorded so far.
    pub(super) summary: Summary,
}

impl Recorder<'_> {
    /// Counts game `played`, writes it to the BPGN file and reports its line.
    pub(super) fn record(
        &mut self,
        played: Played,
        progress: &mut dyn FnMut(Update),
    ) -> Result<(), String> {
        let cfg = self.cfg;
        let Played {
            index,
            swapped,
            game,
            ptells,
            talk,
            seats,
        } = played;
        let summary = &mut self.summary;
        let result = game.result().cloned().unwrap_or(MatchResult {
            winner: None,
            reason: "unfinished".into(),
        });
        let mut score = result.team1_score();
        if swapped {
            score = 1.0 - score;
        }
        if score > 0.75 {
            summary.wins += 1;
        } else if score < 0.25 {
            summary.losses += 1;
        } else {
            summary.draws += 1;
        }
        if let Some(f) = self.file.as_mut() {
            let mut tags = vec![
                ("Event".to_string(), "Rukav arena".to_string()),
                ("Site".to_string(), "local".to_string()),
                ("Date".to_string(), today()),
                ("Round".to_string(), (index + 1).to_string()),
            ];
            tags.extend(seats);
            if cfg.form.boards() == 3 {
                tags.push(("Boards".into(), "3".into()));
            }
            tags.push(("Variant".into(), "bughouse".into()));
            tags.push(("TimeControl".into(), tc_string(&cfg.tc)));
            if !cfg.house_rules.is_empty() {
                let h: Vec<String> = cfg
                    .house_rules
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                tags.push(("HouseRules".into(), h.join(" ")));
            }
            let text = bpgn::write_game(&tags, &game);
            f.write_all(text.as_bytes())
                .and_then(|_| f.flush())
                .map_err(|e| format!("writing BPGN: {e}"))?;
        }
        let scores: Vec<f64> = summary
            .games
            .iter()
            .map(|r: &GameRecord| r.score)
            .chain(std::iter::once(score))
            .collect();
        let (elo, err) = if Summary::pentanomial(scores.len()) {
            elo_with_error(&pair_scores(&scores))
        } else {
            elo_with_error(&scores)
        };
        let line = format!(
            "game {}/{}{}: {} {} ({} moves) | team 1 W {} D {} L {} | Elo {}",
            index + 1,
            cfg.games,
            if swapped {
                " (teams swapped seats)"
            } else {
                ""
            },
            result.result_str(),
            result.reason,
            game.plies(),
            summary.wins,
            summary.draws,
            summary.losses,
            format_elo(elo, err)
        );
        progress(Update::Game(summary.games.len() as u32 + 1, &line));
        summary.games.push(GameRecord {
            result,
            swapped,
            score,
            moves: game.plies(),
            ptells,
            talk,
        });
        Ok(())
    }
}

/// Today's date (UTC) for the `Date` tag: `YYYY.MM.DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = (secs / 86400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The time control for the `TimeControl` tag: `60+1`, `0.5+0`.
fn tc_string(tc: &TimeControl) -> String {
    let s = |ms: u64| {
        if ms.is_multiple_of(1000) {
            format!("{}", ms / 1000)
        } else {
            format!("{}", ms as f64 / 1000.0)
        }
    };
    format!("{}+{}", s(tc.base_ms), s(tc.inc_ms))
}
