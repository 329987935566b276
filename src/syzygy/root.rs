//! Ranking the root moves by the tables, as Stockfish does: by DTZ where
//! the DTZ tables know every move, otherwise by WDL; and what each root
//! move is worth, for the score to report.

use super::tables::Tablebases;
use super::wdl::Wdl;
use crate::position::outcome::Outcome;
use crate::position::Position;
use crate::types::{Color, Move};

/// Stockfish's `MAX_DTZ`: ranks of won moves are near it, lost near minus it.
const MAX_DTZ: i32 = 1 << 18;

/// What a root move is worth by the tables, for the score to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootValue {
    /// Won (also under the 50-move rule, when it counts).
    Win,
    /// Lost.
    Loss,
    /// Neither: a draw, or a win or loss the 50-move rule takes away,
    /// given as a few centipawns towards the side that would win without it.
    Cp(i32),
}

impl RootValue {
    /// Stockfish's `tbScore` of a DTZ rank.
    fn from_rank(rank: i32, rule50: bool) -> RootValue {
        const PAWN: i32 = 100;
        let bound = if rule50 { MAX_DTZ / 2 - 100 } else { 1 };
        if rank >= bound {
            RootValue::Win
        } else if rank > 0 {
            RootValue::Cp((3.max(rank - (MAX_DTZ / 2 - 200)) * PAWN) / 200)
        } else if rank == 0 {
            RootValue::Cp(0)
        } else if rank > -bound {
            RootValue::Cp(((-3).min(rank + (MAX_DTZ / 2 - 200)) * PAWN) / 200)
        } else {
            RootValue::Loss
        }
    }
}

/// A root move with its rank (higher: better) and value by the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// Its rank: moves of equal rank are equally good by the tables.
    pub rank: i32,
    /// Its value.
    pub value: RootValue,
}

/// The root moves ranked by the tables, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// Every root move, best rank first (equal ranks in the given order).
    pub moves: Vec<RankedMove>,
    /// Ranked by DTZ (`false`: by WDL only, the DTZ tables missing).
    pub by_dtz: bool,
}

impl RootRanking {
    fn sorted(mut moves: Vec<RankedMove>, by_dtz: bool) -> RootRanking {
        moves.sort_by_key(|m| std::cmp::Reverse(m.rank));
        RootRanking { moves, by_dtz }
    }

    /// The moves worth searching: those of the best rank, and as many of
    /// the next ones as it takes to have `at_least` (MultiPV).
    pub fn best_moves(&self, at_least: usize) -> Vec<Move> {
        let best = self.moves.first().map_or(0, |m| m.rank);
        let n = self.moves.iter().take_while(|m| m.rank == best).count();
        self.moves
            .iter()
            .take(n.max(at_least))
            .map(|m| m.mv)
            .collect()
    }

    /// The value of root move `m` (`None`: not a root move).
    pub fn value_of(&self, m: Move) -> Option<RootValue> {
        self.moves.iter().find(|r| r.mv == m).map(|r| r.value)
    }

    /// The value of the best root move.
    pub fn best_value(&self) -> Option<RootValue> {
        self.moves.first().map(|m| m.value)
    }
}

impl Tablebases {
    /// Ranks the root moves `moves` of `root` by the tables, as Stockfish's
    /// `Tablebases::rank_root_moves` (with DTZ ranking): by DTZ where the
    /// DTZ tables have every move, otherwise by WDL. `history` holds the
    /// keys of the game's positions, the root last (for repetitions).
    /// `None` where the tables do not know the root (or a table is
    /// missing); `Err` where a table could not be read.
    pub fn rank_root_moves(
        &self,
        root: &Position,
        history: &[u64],
        moves: &[Move],
        rule50: bool,
    ) -> Result<Option<RootRanking>, String> {
        if moves.is_empty() || !self.covers(root) {
            return Ok(None);
        }
        let rule50 = rule50 && root.rules().fifty_move_rule;
        if let Some(r) = self.rank_by_dtz(root, history, moves, rule50)? {
            return Ok(Some(r));
        }
        self.rank_by_wdl(root, moves, rule50)
    }

    fn rank_by_dtz(
        &self,
        root: &Position,
        history: &[u64],
        moves: &[Move],
        rule50: bool,
    ) -> Result<Option<RootRanking>, String> {
        let cnt50 = root.halfmove_clock() as i32;
        let rep = repeated_since_zeroing(history, root.halfmove_clock());
        let mut ranked = Vec::with_capacity(moves.len());
        for &m in moves {
            let mut child = *root;
            child.make_move(m);
            let dtz = if let Some(outcome) = child.outcome() {
                // The move ends the game (mate, a variant's end, a draw).
                match winner(&outcome) {
                    Some(w) if w == root.side_to_move() => 1,
                    Some(_) => -1,
                    None => 0,
                }
            } else if child.halfmove_clock() == 0 {
                // A capture or pawn move: the WDL after it decides.
                match self.try_probe_wdl(&child)? {
                    Some(w) => w.flip().dtz_before_zeroing(),
                    None => return Ok(None),
                }
            } else if repeated(history, child.key(), child.halfmove_clock()) {
                0
            } else {
                match self.try_probe_dtz(&child)? {
                    Some(d) => {
                        let d = -d;
                        d.signum() * (d.abs() + 1)
                    }
                    None => return Ok(None),
                }
            };
            let rank = if dtz > 0 {
                if dtz + cnt50 <= 99 && !rep {
                    MAX_DTZ - dtz
                } else {
                    MAX_DTZ / 2 - (dtz + cnt50)
                }
            } else if dtz < 0 {
                if -dtz * 2 + cnt50 < 100 {
                    -MAX_DTZ - dtz
                } else {
                    -MAX_DTZ / 2 + (-dtz + cnt50)
                }
            } else {
                0
            };
            ranked.push(RankedMove {
                mv: m,
                rank,
                value: RootValue::from_rank(rank, rule50),
            });
        }
        Ok(Some(RootRanking::sorted(ranked, true)))
    }

    fn rank_by_wdl(
        &self,
        root: &Position,
        moves: &[Move],
        rule50: bool,
    ) -> Result<Option<RootRanking>, String> {
        let mut ranked = Vec::with_capacity(moves.len());
        for &m in moves {
            let mut child = *root;
            child.make_move(m);
            let wdl = match child.outcome() {
                Some(o) => match winner(&o) {
                    Some(w) if w == root.side_to_move() => Wdl::Win,
                    Some(_) => Wdl::Loss,
                    None => Wdl::Draw,
                },
                None => match self.try_probe_wdl(&child)? {
                    Some(w) => w.flip(),
                    None => return Ok(None),
                },
            };
            let wdl = match wdl {
                Wdl::CursedWin if !rule50 => Wdl::Win,
                Wdl::BlessedLoss if !rule50 => Wdl::Loss,
                w => w,
            };
            let (rank, value) = match wdl {
                Wdl::Loss => (-MAX_DTZ, RootValue::Loss),
                Wdl::BlessedLoss => (-MAX_DTZ + 101, RootValue::Cp(-2)),
                Wdl::Draw => (0, RootValue::Cp(0)),
                Wdl::CursedWin => (MAX_DTZ - 101, RootValue::Cp(2)),
                Wdl::Win => (MAX_DTZ, RootValue::Win),
            };
            ranked.push(RankedMove { mv: m, rank, value });
        }
        Ok(Some(RootRanking::sorted(ranked, false)))
    }
}

/// The winner of a finished game (`None`: a draw).
fn winner(o: &Outcome) -> Option<Color> {
    match o {
        Outcome::Win { winner, .. } => Some(*winner),
        Outcome::Draw { .. } => None,
    }
}

/// Has the position with `key` (side to move the other than the last
/// entry's) occurred in `history` within the last `halfmove` plies?
fn repeated(history: &[u64], key: u64, halfmove: u32) -> bool {
    let n = history.len();
    let window = (halfmove as usize).min(n);
    (2..=window).step_by(2).any(|i| history[n - i] == key)
}

/// Has any position of `history` since the last capture or pawn move (the
/// last `halfmove` plies) occurred twice (Stockfish's `has_repeated`)?
fn repeated_since_zeroing(history: &[u64], halfmove: u32) -> bool {
    let n = history.len();
    let recent = &history[n - (halfmove as usize + 1).min(n)..];
    recent
        .iter()
        .enumerate()
        .any(|(i, k)| recent[i + 1..].contains(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetitions_are_found_in_the_window() {
        // a b a b a: the last `a` repeats; a child `b` repeats too.
        let h = [1, 2, 1, 2, 1];
        assert!(repeated_since_zeroing(&h, 4));
        assert!(!repeated_since_zeroing(&h, 1));
        assert!(repeated(&h, 2, 4));
        assert!(!repeated(&h, 2, 0));
        assert!(!repeated(&h, 3, 4));
    }

    #[test]
    fn root_values_follow_stockfish() {
        assert_eq!(RootValue::from_rank(MAX_DTZ - 5, true), RootValue::Win);
        assert_eq!(RootValue::from_rank(0, true), RootValue::Cp(0));
        assert_eq!(RootValue::from_rank(-MAX_DTZ + 5, true), RootValue::Loss);
        // A cursed win: a few centipawns, a win without the 50-move rule.
        let cursed = MAX_DTZ / 2 - 120;
        assert!(matches!(RootValue::from_rank(cursed, true), RootValue::Cp(c) if c > 0));
        assert_eq!(RootValue::from_rank(cursed, false), RootValue::Win);
    }
}
