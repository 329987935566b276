//! The outcome of a match: the record of each game, the totals from the
//! side of the `--team1` engines, the Elo difference with its error bar,
//! and the summary printed at the end.

use super::talk::{talk_lines, TalkStats};
use crate::tools::elo::{elo_with_error, format_elo, pair_scores};
use crate::tools::out::{Out, ToolError};
use rukav::bughouse::MatchResult;

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The result (team 1 / team 2 of that game's seating).
    pub result: MatchResult,
    /// Did the engines of `--team1` sit on team 2's seats?
    pub swapped: bool,
    /// Points of the `--team1` engines.
    pub score: f64,
    /// Moves played.
    pub moves: usize,
    /// Partner messages relayed.
    pub ptells: usize,
    /// What the engines of `--team1` and `--team2` said and did for each other.
    pub talk: [TalkStats; 2],
}

/// The outcome of a match, from the side of the `--team1` engines.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games won by team 1's engines.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Every game.
    pub games: Vec<GameRecord>,
}

impl Summary {
    /// Score fraction of team 1's engines.
    pub fn score(&self) -> f64 {
        let n = self.games.len();
        if n == 0 {
            return 0.5;
        }
        self.games.iter().map(|g| g.score).sum::<f64>() / n as f64
    }

    /// Logistic Elo difference and the half-width of its 95% interval;
    /// infinite for 0% or 100%. With an even number of games (at least 4)
    /// the variance comes from game pairs (the same engines with seats
    /// swapped: pentanomial), otherwise from single games (trinomial).
    pub fn elo(&self) -> (f64, f64) {
        let scores: Vec<f64> = self.games.iter().map(|g| g.score).collect();
        if Self::pentanomial(scores.len()) {
            elo_with_error(&pair_scores(&scores))
        } else {
            elo_with_error(&scores)
        }
    }

    /// Which statistics [`Summary::elo`] uses for `n` games.
    pub fn pentanomial(n: usize) -> bool {
        n >= 4 && n.is_multiple_of(2)
    }
}

/// Prints W/D/L, score and Elo with its error bar.
pub fn print_summary(out: &mut Out, s: &Summary) -> Result<(), ToolError> {
    let (elo, err) = s.elo();
    writeln!(
        out,
        "Team 1 vs team 2: W {} D {} L {} ({} games, score {:.1}%)",
        s.wins,
        s.draws,
        s.losses,
        s.games.len(),
        100.0 * s.score()
    )?;
    let model = if Summary::pentanomial(s.games.len()) {
        "pentanomial"
    } else {
        "trinomial"
    };
    writeln!(
        out,
        "Elo difference: {} (95%, {model})",
        format_elo(elo, err)
    )?;
    let ptells: usize = s.games.iter().map(|g| g.ptells).sum();
    let games = s.games.len().max(1) as f64;
    writeln!(
        out,
        "Partner messages relayed: {ptells} ({:.1} per game)",
        ptells as f64 / games
    )?;
    let mut talk = [TalkStats::default(); 2];
    for g in &s.games {
        for (total, t) in talk.iter_mut().zip(&g.talk) {
            total.add(t);
        }
    }
    for line in talk_lines(&talk, s.games.len()) {
        writeln!(out, "{line}")?;
    }
    let moves: usize = s.games.iter().map(|g| g.moves).sum();
    let swapped = s.games.iter().filter(|g| g.swapped).count();
    writeln!(
        out,
        "Moves per game: {:.1}; team 1's engines sat on team 2's seats in {swapped} games",
        moves as f64 / games
    )?;
    let mut endings: Vec<(String, usize)> = Vec::new();
    for g in &s.games {
        let kind = ending_kind(&g.result.reason);
        match endings.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => endings.push((kind, 1)),
        }
    }
    let endings: Vec<String> = endings.iter().map(|(k, n)| format!("{k}: {n}")).collect();
    writeln!(out, "Endings: {}", endings.join("; "))?;
    Ok(())
}

/// A game's ending without seat and engine names (`WhiteB checkmated` and
/// `BlackA checkmated` are both `checkmated`), for counting.
pub(super) fn ending_kind(reason: &str) -> String {
    let mut plain = String::new();
    let mut depth = 0usize;
    for c in reason.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let plain = plain.split(':').next().unwrap_or_default();
    let words: Vec<&str> = plain
        .split_whitespace()
        .filter(|w| {
            !["White", "Black"]
                .iter()
                .any(|c| w.strip_prefix(c).is_some_and(|b| b.len() == 1))
        })
        .collect();
    words.join(" ")
}
