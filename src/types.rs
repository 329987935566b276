//! Basic chess types: squares, bitboards, colours, pieces and moves.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A side: White or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// Index 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Is this White?
    #[inline(always)]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `value` for White, `-value` for Black.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// The rank (0-based) seen from this side: `relative_rank(0)` is the back rank.
    #[inline(always)]
    pub const fn relative_rank(self, rank: u8) -> u8 {
        match self {
            Color::White => rank,
            Color::Black => 7 - rank,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A kind of piece, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceType {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl PieceType {
    /// All six piece types, pawn first.
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// The pieces that can be held in a pocket, pawn first.
    pub const POCKET: [PieceType; 5] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ];

    /// Index 0 (pawn) .. 5 (king): P N B R Q K. Also the piece's number in
    /// file formats (datagen records, network inputs, `Move` drops), so the
    /// order never changes (a test pins it).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece type with the given index (0..6); out-of-range values give a king.
    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceType {
        match i {
            0 => PieceType::Pawn,
            1 => PieceType::Knight,
            2 => PieceType::Bishop,
            3 => PieceType::Rook,
            4 => PieceType::Queen,
            _ => PieceType::King,
        }
    }

    /// Lower-case letter (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// Parses a piece letter, either case.
    pub fn from_char(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        })
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its colour.
    pub color: Color,
    /// Its kind.
    pub kind: PieceType,
}

impl Piece {
    /// Makes a piece.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece { color, kind }
    }

    /// FEN letter: upper case for White.
    pub fn char(self) -> char {
        let c = self.kind.char();
        if self.color.is_white() {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    /// Parses a FEN letter.
    pub fn from_char(c: char) -> Option<Piece> {
        let kind = PieceType::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }

    /// Dense index 0..12 (colour * 6 + kind).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.kind.index()
    }
}

/// A square, 0 = a1 .. 63 = h8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// Square from file (0 = a) and rank (0 = 1).
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }

    /// 0..64.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 = a.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank, 0 = rank 1.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// Single-square bitboard.
    #[inline(always)]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1u64 << self.0)
    }

    /// Mirror vertically (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square seen from `color` (flipped for Black).
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// Offset by a signed amount; the caller makes sure the result is on the board.
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Square {
        Square((self.0 as i8 + delta) as u8)
    }

    /// Parses `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        if f < 8 && r < 8 {
            Some(Square::new(f, r))
        } else {
            None
        }
    }

    /// Common square names.
    pub const A1: Square = Square(0);
    /// b1.
    pub const B1: Square = Square(1);
    /// c1.
    pub const C1: Square = Square(2);
    /// d1.
    pub const D1: Square = Square(3);
    /// e1.
    pub const E1: Square = Square(4);
    /// f1.
    pub const F1: Square = Square(5);
    /// g1.
    pub const G1: Square = Square(6);
    /// h1.
    pub const H1: Square = Square(7);
    /// a8.
    pub const A8: Square = Square(56);
    /// e8.
    pub const E8: Square = Square(60);
    /// h8.
    pub const H8: Square = Square(63);
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// A set of squares, one bit per square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// File a.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// File h.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// Rank 1.
    pub const RANK_1: Bitboard = Bitboard(0xff);
    /// Rank 8.
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);

    /// The given rank (0 = rank 1).
    #[inline(always)]
    pub const fn rank(r: u8) -> Bitboard {
        Bitboard(0xff << (8 * r))
    }

    /// The given file (0 = a).
    #[inline(always)]
    pub const fn file(f: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << f)
    }

    /// The rank `r` as seen from `color`.
    #[inline(always)]
    pub const fn relative_rank(color: Color, r: u8) -> Bitboard {
        Bitboard::rank(color.relative_rank(r))
    }

    /// True when no square is set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when at least one square is set.
    #[inline(always)]
    pub const fn nonempty(self) -> bool {
        self.0 != 0
    }

    /// Number of squares.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when more than one square is set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Is `sq` in the set?
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.0 & 1 != 0
    }

    /// The lowest square; the set must not be empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square(self.0.trailing_zeros() as u8)
    }

    /// Removes and returns the lowest square.
    #[inline(always)]
    pub fn pop(&mut self) -> Square {
        let s = self.lsb();
        self.0 &= self.0 - 1;
        s
    }

    /// Shift north (towards rank 8) by one rank.
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Shift south by one rank.
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Shift one rank forward from `color`'s view.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.north(),
            Color::Black => self.south(),
        }
    }

    /// Squares attacked by pawns of `color` standing on this set.
    #[inline(always)]
    pub const fn pawn_attacks(self, color: Color) -> Bitboard {
        let f = self.forward(color).0;
        Bitboard(((f << 1) & !Bitboard::FILE_A.0) | ((f >> 1) & !Bitboard::FILE_H.0))
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(self.pop())
        }
    }
}

macro_rules! bb_op {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
bb_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bb_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bb_op!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A plain move or capture (not castling, en passant, promotion).
    Normal,
    /// A pawn move to the last rank that becomes the given piece.
    Promotion(PieceType),
    /// A piece from the pocket placed on an empty square.
    Drop(PieceType),
    /// Castling, encoded as the king's move (e1g1, e1c1, ...): from the
    /// king's square to g1/c1 (g8/c8), also in Chess960, where the two may
    /// be the same square (a king on g1 castling short).
    Castle,
    /// An en-passant capture.
    EnPassant,
}

/// A move in 16 bits: 6 bits origin, 6 bits target, 4 bits kind.
///
/// Drops keep the piece in the kind bits and leave the origin at 0.
/// `Move::NULL` (all zero) is never a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);

const FLAG_NORMAL: u16 = 0;
const FLAG_CASTLE: u16 = 1;
const FLAG_EP: u16 = 2;
const FLAG_PROMO: u16 = 3; // 3..=7: promotion to N, B, R, Q, K (piece index 1..=5)
const FLAG_DROP: u16 = 8; // 8..=12: drop of P, N, B, R, Q (piece index 0..=4)

impl Move {
    /// The "no move" value.
    pub const NULL: Move = Move(0);

    /// A plain move.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | FLAG_NORMAL << 12)
    }

    /// A promotion to `piece` (knight .. king).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: PieceType) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | (FLAG_PROMO + piece.index() as u16 - 1) << 12)
    }

    /// Castling, given as the king's move to g1/c1 (g8/c8); `from` may equal
    /// `to` in Chess960.
    #[inline(always)]
    pub const fn castle(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | FLAG_CASTLE << 12)
    }

    /// An en-passant capture.
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | FLAG_EP << 12)
    }

    /// A drop of `piece` (pawn .. queen) on `to`.
    #[inline(always)]
    pub const fn drop(piece: PieceType, to: Square) -> Move {
        Move((to.0 as u16) << 6 | (FLAG_DROP + piece.index() as u16) << 12)
    }

    /// Origin square (a1 for drops).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    /// Target square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 >> 6 & 63) as u8)
    }

    #[inline(always)]
    const fn flag(self) -> u16 {
        self.0 >> 12
    }

    /// Is this a drop?
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.flag() >= FLAG_DROP
    }

    /// Is this a promotion?
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        let f = self.flag();
        f >= FLAG_PROMO && f < FLAG_DROP
    }

    /// Is this castling?
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.flag() == FLAG_CASTLE
    }

    /// Is this an en-passant capture?
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.flag() == FLAG_EP
    }

    /// The dropped piece, for drops.
    #[inline(always)]
    pub const fn drop_piece(self) -> PieceType {
        PieceType::from_index((self.flag() - FLAG_DROP) as usize)
    }

    /// The promotion piece, for promotions.
    #[inline(always)]
    pub const fn promotion_piece(self) -> PieceType {
        PieceType::from_index((self.flag() - FLAG_PROMO + 1) as usize)
    }

    /// The kind of move.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        let f = self.flag();
        if f >= FLAG_DROP {
            MoveKind::Drop(self.drop_piece())
        } else if f >= FLAG_PROMO {
            MoveKind::Promotion(self.promotion_piece())
        } else if f == FLAG_CASTLE {
            MoveKind::Castle
        } else if f == FLAG_EP {
            MoveKind::EnPassant
        } else {
            MoveKind::Normal
        }
    }

    /// Is this the null move?
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// UCI notation: `e2e4`, `e7e8q`, `P@e4`, castling as the king's move
    /// (`Position::uci_move` writes Chess960 castling king takes rook).
    pub fn to_uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return write!(f, "0000");
        }
        if self.is_drop() {
            return write!(
                f,
                "{}@{}",
                self.drop_piece().char().to_ascii_uppercase(),
                self.to()
            );
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if self.is_promotion() {
            write!(f, "{}", self.promotion_piece().char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    /// Records and networks depend on these numbers.
    #[test]
    fn file_format_piece_numbers_are_pinned() {
        use super::{Color, Piece, PieceType};
        let order = ['p', 'n', 'b', 'r', 'q', 'k'];
        for (i, c) in order.into_iter().enumerate() {
            assert_eq!(PieceType::from_index(i).char(), c);
            assert_eq!(PieceType::from_index(i).index(), i);
            assert_eq!(
                Piece::new(Color::White, PieceType::from_index(i)).index(),
                i
            );
            assert_eq!(
                Piece::new(Color::Black, PieceType::from_index(i)).index(),
                6 + i
            );
        }
    }
    use super::*;

    #[test]
    fn move_round_trips_every_kind() {
        let e2 = Square::parse("e2").unwrap();
        let e4 = Square::parse("e4").unwrap();
        assert_eq!(Move::normal(e2, e4).to_string(), "e2e4");
        let m = Move::promotion(Square(52), Square(60), PieceType::Knight);
        assert_eq!(m.kind(), MoveKind::Promotion(PieceType::Knight));
        assert_eq!(m.to_string(), "e7e8n");
        let k = Move::promotion(Square(52), Square(60), PieceType::King);
        assert_eq!(k.kind(), MoveKind::Promotion(PieceType::King));
        for p in PieceType::POCKET {
            let d = Move::drop(p, e4);
            assert_eq!(d.kind(), MoveKind::Drop(p));
            assert!(!d.is_null());
        }
        assert_eq!(Move::drop(PieceType::Pawn, e4).to_string(), "P@e4");
        assert_eq!(
            Move::castle(Square::E1, Square::G1).kind(),
            MoveKind::Castle
        );
        assert_eq!(Move::en_passant(e4, e2).kind(), MoveKind::EnPassant);
    }
}
