//! The move picker: every move of a node gets a score in a named band
//! (table move, good captures, killers, counter move, safe quiet checks or
//! antichess offers, quiet moves by history, bad captures), and the picker
//! hands them out best first, one at a time, so that a cutoff spares the
//! ordering of the rest.

use super::checks::CheckInfo;
use super::history::{ContinuationRows, Histories};
use super::params;
use super::see::see;
use crate::eval::PIECE_VALUE;
use crate::position::movegen::{MoveList, MAX_MOVES};
use crate::position::Position;
use crate::types::{Move, PieceType};

/// Ordering scores, one per move of a `MoveList`.
pub(super) type ScoreList = arrayvec::ArrayVec<i32, MAX_MOVES>;

/// Band of the move from the transposition table.
pub(super) const TT_MOVE: i32 = 1 << 30;
/// Band of captures that do not lose material, and queen promotions (plus MVV-LVA).
pub(super) const GOOD_CAPTURE: i32 = 1 << 28;
/// A queen promotion's place in the good-capture band.
const QUEEN_PROMOTION: i32 = GOOD_CAPTURE + 800;
/// Band of the first killer move (the second is one below).
pub(super) const KILLER: i32 = 1 << 27;
/// Band of the counter move to the opponent's last move.
pub(super) const COUNTER_MOVE: i32 = 1 << 26;
/// Band of quiet checks that do not lose material (plus history).
pub(super) const QUIET_CHECK: i32 = 1 << 25;
/// Band of captures that lose material (plus MVV-LVA).
pub(super) const BAD_CAPTURE: i32 = -(1 << 20);
/// Under-promotions.
pub(super) const UNDER_PROMOTION: i32 = -(1 << 21);
/// Everything below this is a bad capture or an under-promotion: quiet
/// moves score their history, bounded far above it.
const QUIET_FLOOR: i32 = BAD_CAPTURE + (1 << 19);
/// MVV-LVA: the victim's value counts this many times the attacker's
/// value divided by [`MVV_LVA_ATTACKER_DIV`].
const MVV_LVA_VICTIM_WEIGHT: i32 = 8;
/// MVV-LVA: the attacker's value is divided by this.
const MVV_LVA_ATTACKER_DIV: i32 = 100;

/// A quiet move ordered by its history alone (not the TT move, a killer,
/// the counter move or a safe check): what late-move pruning may skip.
#[inline(always)]
pub(super) fn is_plain_quiet(score: i32) -> bool {
    (QUIET_FLOOR..QUIET_CHECK).contains(&score)
}

/// A bad capture or an under-promotion.
#[inline(always)]
pub(super) fn is_bad_tactical(score: i32) -> bool {
    score < QUIET_FLOOR
}

/// Antichess, giveaway and suicide: the quiet move `m` (not a capture or a
/// promotion) goes to a square the opponent attacks, so the opponent must
/// capture: tactical, ordered early and never pruned or reduced.
#[inline(always)]
pub(super) fn offers_capture(pos: &Position, m: Move) -> bool {
    pos.rules().losers_win
        && !m.is_drop()
        && pos.attacked_by(m.to(), pos.side_to_move().flip(), pos.occupied())
}

/// Most valuable victim, least valuable attacker.
#[inline(always)]
pub(super) fn mvv_lva(pos: &Position, m: Move, victim: PieceType) -> i32 {
    PIECE_VALUE[victim.index()] * MVV_LVA_VICTIM_WEIGHT
        - PIECE_VALUE[pos.moved_kind(m).index()] / MVV_LVA_ATTACKER_DIV
}

/// What a node knows that orders its moves.
pub(super) struct OrderingHints<'a> {
    /// The move from the transposition table (null: none).
    pub tt_move: Move,
    /// The node's killer moves.
    pub killers: [Move; 2],
    /// The counter move to the opponent's last move (null: none).
    pub counter: Move,
    /// The continuation rows of the node.
    pub rows: ContinuationRows,
    /// The histories.
    pub histories: &'a Histories,
}

/// The ordering score of `m` in `pos`.
#[inline(always)]
fn score_move(pos: &Position, m: Move, hints: &OrderingHints, checks: &CheckInfo) -> i32 {
    let h = hints.histories;
    if m == hints.tt_move {
        TT_MOVE
    } else if let Some(victim) = pos.captured_kind(m) {
        let mvv =
            mvv_lva(pos, m, victim) + h.capture(pos, m, victim) / params::capture_history_div();
        if pos.rules().losers_win || see(pos, m) >= 0 {
            GOOD_CAPTURE + mvv
        } else {
            BAD_CAPTURE + mvv
        }
    } else if m.is_promotion() {
        if m.promotion_piece() == PieceType::Queen {
            QUEEN_PROMOTION
        } else {
            UNDER_PROMOTION
        }
    } else if m == hints.killers[0] {
        KILLER
    } else if m == hints.killers[1] {
        KILLER - 1
    } else if m == hints.counter {
        COUNTER_MOVE
    } else {
        let history = h.quiet(pos, m, hints.rows);
        if offers_capture(pos, m) {
            QUIET_CHECK + history
        } else if checks.gives_check(pos, m) {
            if see(pos, m) >= 0 {
                QUIET_CHECK + history
            } else {
                history - params::unsafe_check_penalty()
            }
        } else {
            history
        }
    }
}

/// The moves of a node, handed out best first (a selection sort that
/// stops where the node stops). Once the search has decided to skip the
/// remaining plain quiet moves ([`MovePicker::skip_quiets`]), only bad
/// captures and under-promotions are left to pick.
pub(super) struct MovePicker {
    moves: MoveList,
    scores: ScoreList,
    next: usize,
    skip_quiets: bool,
}

impl MovePicker {
    /// A picker with no moves yet. The search generates a node's moves
    /// straight into it ([`MovePicker::moves_mut`]) and then calls
    /// [`MovePicker::score`]: the move and score lists (4 KiB each) are
    /// built where they stay, never copied.
    #[inline(always)]
    pub fn new() -> Self {
        MovePicker {
            moves: MoveList::new(),
            scores: ScoreList::new(),
            next: 0,
            skip_quiets: false,
        }
    }

    /// The moves to pick from, to fill or filter before [`MovePicker::score`].
    #[inline(always)]
    pub fn moves_mut(&mut self) -> &mut MoveList {
        &mut self.moves
    }

    /// Scores the moves (the legal moves of `pos`) for picking.
    #[inline]
    pub fn score(&mut self, pos: &Position, hints: &OrderingHints, checks: &CheckInfo) {
        self.scores.clear();
        for &m in &self.moves {
            self.scores.push(score_move(pos, m, hints, checks));
        }
        self.next = 0;
    }

    /// The number of moves (picked or not).
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// The first move picked (null before any).
    pub fn first_picked(&self) -> Move {
        if self.next > 0 {
            self.moves[0]
        } else {
            Move::NULL
        }
    }

    /// From now on, plain quiet moves are no longer handed out.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The best move not handed out yet, with its ordering score.
    #[inline]
    pub fn next_move(&mut self) -> Option<(Move, i32)> {
        let i = self.next;
        let n = self.moves.len();
        if i >= n {
            return None;
        }
        let mut bi = i;
        for j in i + 1..n {
            if self.scores[j] > self.scores[bi] {
                bi = j;
            }
        }
        if self.skip_quiets && is_plain_quiet(self.scores[bi]) {
            // The best remaining is a plain quiet: every other one is
            // quiet or a bad capture; pick among the bad captures only.
            bi = (i..n).find(|&j| is_bad_tactical(self.scores[j]))?;
        }
        self.moves.swap(i, bi);
        self.scores.swap(i, bi);
        self.next = i + 1;
        Some((self.moves[i], self.scores[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// A node without a table move, killers, counter move or earlier moves.
    fn no_hints(histories: &Histories) -> OrderingHints<'_> {
        OrderingHints {
            tt_move: Move::NULL,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            rows: ContinuationRows {
                one_back: super::super::history::NO_PIECE_TO,
                two_back: super::super::history::NO_PIECE_TO,
            },
            histories,
        }
    }

    /// In antichess a quiet move that forces the opponent to capture is
    /// ordered above every plain quiet move; in chess the same move is not.
    #[test]
    fn antichess_orders_offers_first() {
        // The black pawn on e4 attacks f3: Nf3 offers the knight, Nh3 does not.
        let fen = "4k3/8/8/8/4p3/8/8/4K1N1 w - - 0 1";
        let histories = Histories::new();
        for (variant, offers_first) in [(Variant::Antichess, true), (Variant::Chess, false)] {
            let pos = Position::from_fen(fen, variant.rules()).expect("valid FEN");
            let hints = no_hints(&histories);
            let checks = CheckInfo::new(&pos);
            let score_of = |uci: &str| {
                let m = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|m| m.to_string() == uci)
                    .expect(uci);
                score_move(&pos, m, &hints, &checks)
            };
            let offer = score_of("g1f3");
            assert_eq!(!is_plain_quiet(offer), offers_first, "{variant:?}: {offer}");
            assert!(is_plain_quiet(score_of("g1h3")), "{variant:?}");
        }
    }

    /// The picker hands out every move once, best first, and after
    /// `skip_quiets` no plain quiet move.
    #[test]
    fn moves_come_best_first_and_quiets_can_be_skipped() {
        let pos = Position::from_fen(
            "r3k2r/ppp2ppp/2n5/3pp3/4P3/2N2N2/PPP2PPP/R3K2R w KQkq - 0 1",
            Variant::Chess.rules(),
        )
        .expect("valid FEN");
        let histories = Histories::new();
        let hints = no_hints(&histories);
        let checks = CheckInfo::new(&pos);
        let legal = pos.legal_moves();
        let mut picker = MovePicker::new();
        pos.generate(picker.moves_mut());
        picker.score(&pos, &hints, &checks);
        let mut seen = Vec::new();
        let mut last = i32::MAX;
        while let Some((m, score)) = picker.next_move() {
            assert!(score <= last, "{m} scored {score} after {last}");
            last = score;
            seen.push(m);
        }
        assert_eq!(seen.len(), legal.len());
        assert!(legal.iter().all(|m| seen.contains(m)));

        let mut picker = MovePicker::new();
        pos.generate(picker.moves_mut());
        picker.score(&pos, &hints, &checks);
        let (first, _) = picker.next_move().expect("moves");
        assert_eq!(picker.first_picked(), first);
        picker.skip_quiets();
        while let Some((m, score)) = picker.next_move() {
            assert!(!is_plain_quiet(score), "{m} is a plain quiet");
        }
    }
}
