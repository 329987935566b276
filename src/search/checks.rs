//! Telling cheaply, before making a move, whether it gives check: check
//! squares per piece kind and the pieces that may uncover a check.

use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Move, PieceType, Square};

/// What a node needs to tell cheaply whether a quiet move gives check.
pub(super) struct CheckInfo {
    /// Squares from which each piece kind (P N B R Q) attacks the enemy king.
    squares: [Bitboard; 5],
    /// Our pieces whose move may uncover a check.
    discoverers: Bitboard,
    /// The enemy king.
    king: Square,
    /// Does the enemy have a royal king at all?
    active: bool,
}

impl CheckInfo {
    pub(super) fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let them = us.flip();
        let active = pos.rules().royal_king && pos.pieces(them, PieceType::King).nonempty();
        let mut squares = [Bitboard::EMPTY; 5];
        let mut discoverers = Bitboard::EMPTY;
        if active {
            for k in PieceType::POCKET {
                squares[k.index()] = pos.check_squares(k);
            }
            discoverers = pos.blockers(them, us) & pos.color_bb(us);
        }
        CheckInfo {
            squares,
            discoverers,
            king: pos.king_sq(them),
            active,
        }
    }

    /// Does the quiet move or drop `m` give check? (Castling, en passant and
    /// promotions answer false; the search learns those after making them.)
    #[inline]
    pub(super) fn gives_check(&self, pos: &Position, m: Move) -> bool {
        if !self.active || m.is_castle() || m.is_en_passant() || m.is_promotion() {
            return false;
        }
        if m.is_drop() {
            return self.squares[m.drop_piece().index()].has(m.to());
        }
        let kind = pos.moved_kind(m);
        (kind != PieceType::King && self.squares[kind.index()].has(m.to()))
            || (self.discoverers.has(m.from()) && !attacks::line(self.king, m.from()).has(m.to()))
    }
}
