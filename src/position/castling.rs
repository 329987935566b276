//! Castling setups for standard chess and Chess960: where each castling
//! rook and each king started. A position's rights are four bits
//! (`WHITE_OO` ...); the setup says which rook each bit castles with. It is
//! fixed for a whole game (read from the FEN, the standard corners and e1/e8
//! by default), so the rights bits alone tell positions of one game apart.
//!
//! Castling moves keep the standard encoding in every setup: the king's
//! move to g1/c1 (g8/c8) with `MoveKind::Castle`, the king's origin as
//! `from`. In Chess960 `from` may equal `to` (a king on g1 castling short,
//! on c1 castling long: only the rook moves).

use super::zobrist::KEYS;
use crate::types::{Bitboard, Color, Square};

/// Castling right bits.
pub const WHITE_OO: u8 = 1;
/// White queenside.
pub const WHITE_OOO: u8 = 2;
/// Black kingside.
pub const BLACK_OO: u8 = 4;
/// Black queenside.
pub const BLACK_OOO: u8 = 8;

/// The castling right bits of `c` (both sides).
#[inline(always)]
pub(crate) const fn color_rights(c: Color) -> u8 {
    match c {
        Color::White => WHITE_OO | WHITE_OOO,
        Color::Black => BLACK_OO | BLACK_OOO,
    }
}

/// The kingside (short castling) right bit of `c`.
#[inline(always)]
pub(crate) const fn king_side(c: Color) -> u8 {
    match c {
        Color::White => WHITE_OO,
        Color::Black => BLACK_OO,
    }
}

/// The queenside (long castling) right bit of `c`.
#[inline(always)]
pub(crate) const fn queen_side(c: Color) -> u8 {
    king_side(c) << 1
}

/// Where the king and the rook of a castling right stand afterwards:
/// files g and f (short) or c and d (long) of `c`'s back rank.
#[inline(always)]
pub(crate) const fn targets(c: Color, short: bool) -> (Square, Square) {
    let rank = c.relative_rank(0);
    if short {
        (Square::new(6, rank), Square::new(5, rank))
    } else {
        (Square::new(2, rank), Square::new(3, rank))
    }
}

/// Where the castling pieces of a game started: the rook of each right (by
/// bit index: White short, White long, Black short, Black long) and the
/// king of each colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastleSetup {
    rooks: [Square; 4],
    kings: [Square; 2],
    /// Every square above: a piece moving from or to one of them may cost
    /// rights.
    squares: Bitboard,
}

impl CastleSetup {
    /// Standard chess: kings on e1/e8, rooks in the corners.
    pub const STANDARD: CastleSetup = CastleSetup {
        rooks: [Square::H1, Square::A1, Square::H8, Square::A8],
        kings: [Square::E1, Square::E8],
        squares: Bitboard(
            Square::H1.bb().0
                | Square::A1.bb().0
                | Square::H8.bb().0
                | Square::A8.bb().0
                | Square::E1.bb().0
                | Square::E8.bb().0,
        ),
    };

    /// The start square of the rook of `right` (one bit).
    #[inline(always)]
    pub fn rook(&self, right: u8) -> Square {
        self.rooks[(right.trailing_zeros() & 3) as usize]
    }

    /// The start square of the rook of the right with bit index `index`
    /// (0 White short, 1 White long, 2 Black short, 3 Black long).
    #[inline(always)]
    pub(crate) fn rook_of(&self, index: usize) -> Square {
        self.rooks[index & 3]
    }

    /// The start square of `c`'s king.
    #[inline(always)]
    pub fn king(&self, c: Color) -> Square {
        self.kings[c.index()]
    }

    /// Is this the standard setup?
    #[inline]
    pub fn is_standard(&self) -> bool {
        *self == CastleSetup::STANDARD
    }

    /// Is castling with `right` (one bit) the standard castling: king from
    /// e1/e8, rook from the corner?
    #[inline]
    pub fn is_standard_right(&self, right: u8) -> bool {
        let i = (right.trailing_zeros() & 3) as usize;
        let color = if i < 2 { Color::White } else { Color::Black };
        self.rooks[i] == CastleSetup::STANDARD.rooks[i]
            && self.kings[color.index()] == CastleSetup::STANDARD.kings[color.index()]
    }

    /// Sets the rook of `right` (one bit) and the king of its colour.
    pub(crate) fn set(&mut self, right: u8, rook: Square, king: Square) {
        let i = (right.trailing_zeros() & 3) as usize;
        self.rooks[i] = rook;
        self.kings[if i < 2 { 0 } else { 1 }] = king;
        let mut squares = Bitboard::EMPTY;
        for s in self.rooks.iter().chain(self.kings.iter()) {
            squares |= s.bb();
        }
        self.squares = squares;
    }

    /// The rights lost when a piece moves from `from` to `to`: those of a
    /// rook leaving or captured on its start square, both of a colour
    /// whose king leaves its start square (or is captured there).
    #[inline(always)]
    pub fn lost(&self, from: Square, to: Square) -> u8 {
        let touched = (from.bb() | to.bb()) & self.squares;
        if touched.is_empty() {
            0
        } else {
            self.lost_on(touched)
        }
    }

    /// The rights lost when the pieces on `touched` move or are taken.
    #[inline(never)]
    pub fn lost_on(&self, touched: Bitboard) -> u8 {
        let mut lost = 0;
        for (i, sq) in self.rooks.iter().enumerate() {
            if touched.has(*sq) {
                lost |= 1 << i;
            }
        }
        for c in Color::ALL {
            if touched.has(self.kings[c.index()]) {
                lost |= color_rights(c);
            }
        }
        lost
    }

    /// The setup's part of the Zobrist key: 0 for the standard setup.
    pub fn key(&self) -> u64 {
        if self.is_standard() {
            return 0;
        }
        let mut k = 0;
        for (i, sq) in self.rooks.iter().enumerate() {
            k ^= KEYS.castle_rook[i][sq.index()];
        }
        for (c, sq) in self.kings.iter().enumerate() {
            k ^= KEYS.castle_king[c][sq.index()];
        }
        k
    }
}

impl Default for CastleSetup {
    fn default() -> CastleSetup {
        CastleSetup::STANDARD
    }
}

/// Chess960 start positions by their standard number (0 ..= 959, Scharnagl's
/// scheme; 518 is the standard start position): White's back rank as piece
/// letters, `None` for a number above 959.
///
/// The number n gives, in turn: the light-squared bishop's file (n mod 4 of
/// b, d, f, h), the dark-squared bishop's file (then mod 4 of a, c, e, g),
/// the queen (then mod 6: the k-th empty square), the knights (the last
/// quotient 0..=9 picks two of the five empty squares: 01 02 03 04 12 13 14
/// 23 24 34), and rook, king, rook on the three squares left.
pub fn chess960_back_rank(n: u16) -> Option<[char; 8]> {
    if n > 959 {
        return None;
    }
    let mut rank = [' '; 8];
    let mut n = n as usize;
    rank[2 * (n % 4) + 1] = 'B';
    n /= 4;
    rank[2 * (n % 4)] = 'B';
    n /= 4;
    let place = |rank: &mut [char; 8], k: usize, piece: char| {
        if let Some(i) = (0..8).filter(|&i| rank[i] == ' ').nth(k) {
            rank[i] = piece;
        }
    };
    place(&mut rank, n % 6, 'Q');
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n];
    // The second knight first, so that the first one's index still counts
    // the same empty squares.
    place(&mut rank, b, 'N');
    place(&mut rank, a, 'N');
    for piece in ['R', 'K', 'R'] {
        place(&mut rank, 0, piece);
    }
    Some(rank)
}

/// The FEN of Chess960 start position number `n` (0 ..= 959), with X-FEN
/// castling rights `KQkq` and, when `pockets` is true, empty pockets `[]`.
pub fn chess960_fen(n: u16, pockets: bool) -> Option<String> {
    let rank = chess960_back_rank(n)?;
    let white: String = rank.iter().collect();
    let black = white.to_ascii_lowercase();
    Some(format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white}{} w KQkq - 0 1",
        if pockets { "[]" } else { "" }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_numbering_is_scharnagls() {
        let s = |n| chess960_back_rank(n).map(|r| r.iter().collect::<String>());
        assert_eq!(s(518).as_deref(), Some("RNBQKBNR"));
        assert_eq!(s(0).as_deref(), Some("BBQNNRKR"));
        assert_eq!(s(1).as_deref(), Some("BQNBNRKR"));
        assert_eq!(s(959).as_deref(), Some("RKRNNQBB"));
        assert_eq!(s(960), None);
        let mut all = std::collections::HashSet::new();
        for n in 0..960 {
            let r = chess960_back_rank(n).unwrap();
            let files = |c: char| (0..8).filter(|&i| r[i] == c).collect::<Vec<_>>();
            let (b, rooks, k) = (files('B'), files('R'), files('K'));
            assert_eq!(b.len(), 2);
            assert_ne!(b[0] % 2, b[1] % 2, "{n}: bishops on opposite colours");
            assert!(
                rooks[0] < k[0] && k[0] < rooks[1],
                "{n}: king between the rooks"
            );
            assert_eq!(files('Q').len(), 1);
            assert_eq!(files('N').len(), 2);
            assert!(all.insert(r), "{n}: repeated");
        }
    }

    #[test]
    fn lost_rights_follow_the_setup() {
        let s = CastleSetup::STANDARD;
        assert_eq!(s.lost(Square::E1, Square::F1), WHITE_OO | WHITE_OOO);
        assert_eq!(s.lost(Square::A1, Square(8)), WHITE_OOO);
        assert_eq!(s.lost(Square::A1, Square::H8), WHITE_OOO | BLACK_OO);
        assert_eq!(s.lost(Square(12), Square(28)), 0);
        assert_eq!(s.key(), 0);
        let mut x = s;
        x.set(WHITE_OO, Square::F1, Square::B1);
        assert_eq!(x.lost(Square::F1, Square(13)), WHITE_OO);
        assert_eq!(x.lost(Square::H1, Square(15)), 0);
        assert_eq!(x.lost(Square::B1, Square::C1), WHITE_OO | WHITE_OOO);
        assert!(!x.is_standard() && !x.is_standard_right(WHITE_OO));
        assert_ne!(x.key(), 0);
    }
}
