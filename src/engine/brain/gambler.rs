//! The Gambler promotion rule's choice: which of its opponent's pieces a
//! partner takes off his own board when his partner promotes.

use super::owed::short_search;
use super::params;
use crate::bughouse::opponent_in_check;
use crate::eval::hand_value;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// Gambler promotion rule: the piece of the opponent that `chooser` takes
/// off `pos` (his own board) when his partner promotes. Each queen, rook,
/// bishop or knight whose removal leaves nobody in an impossible check is
/// tried with a short search; the piece also lands on the partner's board,
/// so half its pocket value is added. `None` when nothing may be taken.
pub fn gambler_choice(pos: &Position, chooser: Color) -> Option<Square> {
    let them = chooser.flip();
    let mut best: Option<(i32, Square)> = None;
    for kind in [
        PieceType::Queen,
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Knight,
    ] {
        for sq in pos.pieces(them, kind) {
            let mut p = *pos;
            if p.take_piece(sq).is_err() {
                continue;
            }
            // The side not to move may not be left in check.
            if opponent_in_check(&p) {
                continue;
            }
            let s = short_search(&p, params::gambler_depth())
                .clamp(-params::gambler_score_cap(), params::gambler_score_cap());
            let ours = if p.side_to_move() == chooser { s } else { -s };
            let score = ours + hand_value(kind) / params::gambler_hand_value_divisor().max(1);
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, sq));
            }
        }
    }
    best.map(|(_, sq)| sq)
}
