//! How positions map to table entries and results to bytes: material
//! signatures, the index of a position, the position at an index, the
//! one-byte result codes.

use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Color, Piece, PieceType, Square};

/// The result of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableResult {
    /// The side to move wins in this many plies (0: it has already won).
    Win(u16),
    /// The side to move loses in this many plies.
    Loss(u16),
    /// Neither side can force the end of the game.
    Draw,
}

/// How many pieces of each colour and kind (index `color * 6 + kind`).
pub(super) type Signature = [u8; 12];

/// One table: a result per index (see the module doc).
pub(super) struct Table {
    /// Per index: 0 draw or not a position, `1 + 2d` win in `d`, `2 + 2d`
    /// loss in `d` (distances beyond [`MAX_DISTANCE`] stored as it: the
    /// result stays exact, the distance is then a lower bound).
    pub(super) codes: Vec<u8>,
}

pub(super) fn signature(pos: &Position) -> Signature {
    let mut sig = [0u8; 12];
    for c in Color::ALL {
        for k in PieceType::ALL {
            sig[c.index() * 6 + k.index()] = pos.pieces(c, k).count() as u8;
        }
    }
    sig
}

pub(super) fn pieces_of(sig: &Signature) -> Vec<Piece> {
    let mut v = Vec::new();
    for c in Color::ALL {
        for k in PieceType::ALL {
            for _ in 0..sig[c.index() * 6 + k.index()] {
                v.push(Piece::new(c, k));
            }
        }
    }
    v
}

/// The index of `pos` in the table of its signature.
pub(super) fn index_of(pos: &Position) -> usize {
    let mut index = 0usize;
    let mut shift = 1;
    for c in Color::ALL {
        for k in PieceType::ALL {
            for sq in pos.pieces(c, k) {
                index |= sq.index() << shift;
                shift += 6;
            }
        }
    }
    index | pos.side_to_move().index()
}

/// The position at `index` of a table of `pieces`, if the index is one
/// (squares ascending among equal pieces, no pawn on rank 1 or 8, no
/// square used twice).
pub(super) fn position_at(rules: Rules, pieces: &[Piece], index: usize) -> Option<Position> {
    let side = if index & 1 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut placed: arrayvec::ArrayVec<(Square, Piece), 8> = arrayvec::ArrayVec::new();
    for (i, &p) in pieces.iter().enumerate() {
        let sq = Square(((index >> (1 + 6 * i)) & 63) as u8);
        if i > 0 && pieces[i - 1] == p && placed[i - 1].0 >= sq {
            return None;
        }
        placed.push((sq, p));
    }
    Position::from_pieces(rules, &placed, side)
}

/// The largest distance a table stores.
pub(super) const MAX_DISTANCE: u16 = 126;

pub(super) fn encode(r: TableResult) -> u8 {
    match r {
        TableResult::Draw => 0,
        TableResult::Win(d) => 1 + 2 * d.min(MAX_DISTANCE) as u8,
        TableResult::Loss(d) => 2 + 2 * d.min(MAX_DISTANCE) as u8,
    }
}

pub(super) fn decode(code: u8) -> TableResult {
    let d = u16::from(code.saturating_sub(1) / 2);
    match code {
        0 => TableResult::Draw,
        c if c % 2 == 1 => TableResult::Win(d),
        _ => TableResult::Loss(d),
    }
}

/// Every signature of `total` pieces with at least one piece per side.
pub(super) fn signatures(total: usize) -> Vec<Signature> {
    let mut out = Vec::new();
    let mut sig = [0u8; 12];
    fn rec(slot: usize, left: usize, sig: &mut Signature, out: &mut Vec<Signature>) {
        if slot == 12 {
            let white: u8 = sig[..6].iter().sum();
            let black: u8 = sig[6..].iter().sum();
            if left == 0 && white > 0 && black > 0 {
                out.push(*sig);
            }
            return;
        }
        for n in 0..=left {
            sig[slot] = n as u8;
            rec(slot + 1, left - n, sig, out);
        }
        sig[slot] = 0;
    }
    rec(0, total, &mut sig, &mut out);
    out
}
