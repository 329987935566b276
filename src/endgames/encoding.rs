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

/// The pieces of a table of `sig` in the table's order (White before
/// Black, pawn to king); at most [`MAX_TABLE_PIECES`] of them.
pub(super) fn pieces_of(sig: &Signature) -> arrayvec::ArrayVec<Piece, MAX_TABLE_PIECES> {
    let mut v = arrayvec::ArrayVec::new();
    for c in Color::ALL {
        for k in PieceType::ALL {
            for _ in 0..sig[c.index() * 6 + k.index()] {
                v.push(Piece::new(c, k));
            }
        }
    }
    v
}

/// Most pieces a table can hold (both sides together).
pub(super) const MAX_TABLE_PIECES: usize = 4;

/// Where the first piece of a pawnless table stands once the position is
/// made canonical: the smallest square of each orbit of the eight
/// symmetries of the board (a1, b1, c1, d1, b2, c2, d2, c3, d3, d4).
const PAWNLESS_FIRST: [u8; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

/// How many squares the first piece may stand on in a canonical
/// position: ten without pawns, files a to d (32) with pawns, whose moves
/// keep only the left-right mirror.
fn first_squares(pawns: bool) -> usize {
    if pawns {
        32
    } else {
        PAWNLESS_FIRST.len()
    }
}

/// The slot of the first piece's square among [`first_squares`], if the
/// square is one of them.
fn first_slot(sq: u8, pawns: bool) -> Option<usize> {
    if pawns {
        (sq & 7 < 4).then_some(usize::from((sq >> 3) * 4 + (sq & 7)))
    } else {
        PAWNLESS_FIRST.iter().position(|&s| s == sq)
    }
}

/// The square of slot `slot` (see [`first_slot`]).
fn first_square(slot: usize, pawns: bool) -> u8 {
    if pawns {
        ((slot / 4) * 8 + slot % 4) as u8
    } else {
        PAWNLESS_FIRST[slot]
    }
}

/// Symmetry `g` (0 to 7) of the board applied to a square: bit 2 swaps
/// files and ranks, bit 0 mirrors the files, bit 1 the ranks. Positions
/// with pawns use only 0 and 1.
pub(super) fn transform(sq: u8, g: u8) -> u8 {
    let (mut file, mut rank) = (sq & 7, sq >> 3);
    if g & 4 != 0 {
        std::mem::swap(&mut file, &mut rank);
    }
    if g & 1 != 0 {
        file = 7 - file;
    }
    if g & 2 != 0 {
        rank = 7 - rank;
    }
    rank * 8 + file
}

/// The signature with the colours swapped.
pub(super) fn flipped(sig: &Signature) -> Signature {
    let mut out = [0u8; 12];
    out[..6].copy_from_slice(&sig[6..]);
    out[6..].copy_from_slice(&sig[..6]);
    out
}

/// Whether a table of `sig` is stored: of a signature and its colour swap,
/// the smaller (both, when they are the same). Positions of the other are
/// looked up with colours swapped and the board turned upside down.
pub(super) fn is_stored(sig: &Signature) -> bool {
    *sig <= flipped(sig)
}

fn has_pawns(sig: &Signature) -> bool {
    sig[PieceType::Pawn.index()] + sig[6 + PieceType::Pawn.index()] > 0
}

/// The number of entries of the table of `sig`: side to move, the first
/// piece's canonical square, 64 squares for each other piece.
pub(super) fn table_size(sig: &Signature) -> usize {
    let n: usize = sig.iter().map(|&k| usize::from(k)).sum();
    (2 * first_squares(has_pawns(sig))) << (6 * (n.max(1) - 1))
}

/// The pieces' squares in a table's order, sorted within each group of
/// equal pieces (`groups`: the group lengths, in order).
type Squares = arrayvec::ArrayVec<u8, MAX_TABLE_PIECES>;

fn sort_groups(squares: &mut Squares, groups: &[usize]) {
    let mut at = 0;
    for &len in groups {
        squares[at..at + len].sort_unstable();
        at += len;
    }
}

/// Where `pos` is stored: the signature of its table and its index there.
/// The colours are swapped when its own signature is not stored, and of
/// the board's symmetries (the left-right mirror only, with pawns) the one
/// giving the smallest squares in the table's order is applied, so every
/// image of a position has one entry. The position must have at most
/// [`MAX_TABLE_PIECES`] pieces.
pub(super) fn locate(pos: &Position) -> (Signature, usize) {
    let own = signature(pos);
    let swap = !is_stored(&own);
    let sig = if swap { flipped(&own) } else { own };
    let mut squares = Squares::new();
    let mut groups = arrayvec::ArrayVec::<usize, 12>::new();
    for c in Color::ALL {
        let actual = if swap { !c } else { c };
        for k in PieceType::ALL {
            let bb = pos.pieces(actual, k);
            if bb.is_empty() {
                continue;
            }
            groups.push(bb.count() as usize);
            for sq in bb {
                let s = sq.index() as u8;
                squares.push(if swap { s ^ 56 } else { s });
            }
        }
    }
    let side = if swap {
        !pos.side_to_move()
    } else {
        pos.side_to_move()
    };
    let pawns = has_pawns(&sig);
    let key = |t: &Squares| t.iter().fold(0u64, |k, &s| (k << 6) | u64::from(s));
    sort_groups(&mut squares, &groups);
    let mut best = (key(&squares), squares.clone());
    for g in 1..if pawns { 2 } else { 8 } {
        let mut t: Squares = squares.iter().map(|&s| transform(s, g)).collect();
        sort_groups(&mut t, &groups);
        let k = key(&t);
        if k < best.0 {
            best = (k, t);
        }
    }
    let t = best.1;
    // The smallest image puts the first piece on the smallest square of
    // its orbit, which is always one of the canonical squares.
    let slot = first_slot(t[0], pawns).unwrap_or(0);
    let body = t[1..]
        .iter()
        .fold(slot, |acc, &s| (acc << 6) | usize::from(s));
    (sig, (body << 1) | side.index())
}

/// The position at `index` of the table of `sig`, if the index is one (the
/// first piece on a canonical square, squares ascending among equal
/// pieces, no pawn on rank 1 or 8, no square used twice). It may be an
/// image of a position stored at another index (see [`locate`]).
pub(super) fn position_at(rules: Rules, sig: &Signature, index: usize) -> Option<Position> {
    let pieces = pieces_of(sig);
    let n = pieces.len();
    let pawns = has_pawns(sig);
    let side = if index & 1 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let body = index >> 1;
    let slot = body >> (6 * (n - 1));
    if slot >= first_squares(pawns) {
        return None;
    }
    let mut placed: arrayvec::ArrayVec<(Square, Piece), MAX_TABLE_PIECES> =
        arrayvec::ArrayVec::new();
    for (i, &p) in pieces.iter().enumerate() {
        let sq = if i == 0 {
            first_square(slot, pawns)
        } else {
            ((body >> (6 * (n - 1 - i))) & 63) as u8
        };
        if i > 0 && pieces[i - 1] == p && placed[i - 1].0 .0 >= sq {
            return None;
        }
        placed.push((Square(sq), p));
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

/// Every stored signature (see [`is_stored`]) of `total` pieces with at
/// least one piece per side.
pub(super) fn signatures(total: usize) -> Vec<Signature> {
    let mut out = Vec::new();
    let mut sig = [0u8; 12];
    fn rec(slot: usize, left: usize, sig: &mut Signature, out: &mut Vec<Signature>) {
        if slot == 12 {
            let white: u8 = sig[..6].iter().sum();
            let black: u8 = sig[6..].iter().sum();
            if left == 0 && white > 0 && black > 0 && is_stored(sig) {
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
