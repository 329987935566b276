//! The position itself: bitboards, mailbox, pockets, promoted flags,
//! state, Zobrist key, and the edits a caller may make (pockets, pieces).

use super::castling::CastleSetup;
use super::zobrist::{KEYS, MAX_POCKET};
use crate::attacks;
use crate::rules::{duty_period, Rules, Variant};
use crate::types::{Bitboard, Color, Move, Piece, PieceType, Square};
use std::fmt;

/// A legal position of any Rukav variant.
#[derive(Clone, Copy)]
pub struct Position {
    pub(super) by_color: [Bitboard; 2],
    pub(super) by_kind: [Bitboard; 6],
    pub(super) mailbox: [u8; 64],
    pub(super) promoted: Bitboard,
    pub(super) pocket: [[u8; 5]; 2],
    pub(super) side: Color,
    pub(super) castling: u8,
    pub(super) castle: CastleSetup,
    pub(super) ep: Option<Square>,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    pub(super) duty: [bool; 2],
    pub(super) key: u64,
    pub(super) checkers: Bitboard,
    pub(super) rules: Rules,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// The start position of a variant with its default rules.
    pub fn startpos(variant: Variant) -> Position {
        Position::start_with(variant.rules())
    }

    /// The start position under the given rules.
    pub fn start_with(rules: Rules) -> Position {
        let fen = if rules.drops {
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
        } else if rules.castling {
            START_FEN
        } else {
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        };
        match Position::from_fen(fen, rules) {
            Ok(p) => p,
            Err(e) => unreachable!("start position rejected: {e}"),
        }
    }

    /// An empty board under `rules`, White to move, move 1 (what the FEN
    /// reader fills).
    pub(super) fn empty(rules: Rules) -> Position {
        Position {
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 6],
            mailbox: [0; 64],
            promoted: Bitboard::EMPTY,
            pocket: [[0; 5]; 2],
            side: Color::White,
            castling: 0,
            castle: CastleSetup::STANDARD,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            duty: [false; 2],
            key: 0,
            checkers: Bitboard::EMPTY,
            rules,
        }
    }

    /// A position of a variant without a royal king (antichess, giveaway, suicide)
    /// holding only `pieces`, `side` to move, without castling rights or an
    /// en-passant square, clocks at their start: how endgame tables make
    /// their positions. `None` for a royal-king variant, two pieces on one
    /// square, or a pawn on rank 1 or 8.
    pub fn from_pieces(rules: Rules, pieces: &[(Square, Piece)], side: Color) -> Option<Position> {
        if rules.royal_king {
            return None;
        }
        let mut pos = Position::empty(rules);
        for &(sq, piece) in pieces {
            let back_rank = sq.rank() == 0 || sq.rank() == 7;
            if pos.occupied().has(sq) || (piece.kind == PieceType::Pawn && back_rank) {
                return None;
            }
            pos.put(piece, sq);
        }
        pos.side = side;
        pos.key = pos.compute_key();
        Some(pos)
    }

    // ---------------------------------------------------------------- accessors

    /// The rules this position is played under.
    #[inline(always)]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The variant.
    #[inline(always)]
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of one colour.
    #[inline(always)]
    pub fn color_bb(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// All pieces of one kind, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, k: PieceType) -> Bitboard {
        self.by_kind[k.index()]
    }

    /// Pieces of one colour and kind.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceType) -> Bitboard {
        self.by_color[c.index()] & self.by_kind[k.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Promoted pieces (drop variants only).
    #[inline(always)]
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// The piece on a square.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        let v = self.mailbox[sq.index()];
        if v == 0 {
            None
        } else {
            let i = (v - 1) as usize;
            Some(Piece::new(
                if i < 6 { Color::White } else { Color::Black },
                PieceType::from_index(i % 6),
            ))
        }
    }

    /// The kind of piece on a square.
    #[inline(always)]
    pub fn kind_on(&self, sq: Square) -> Option<PieceType> {
        let v = self.mailbox[sq.index()];
        if v == 0 {
            None
        } else {
            Some(PieceType::from_index(((v - 1) % 6) as usize))
        }
    }

    /// How many pieces of a kind `c` holds in its pocket.
    #[inline(always)]
    pub fn pocket(&self, c: Color, k: PieceType) -> u8 {
        if k == PieceType::King {
            0
        } else {
            self.pocket[c.index()][k.index()]
        }
    }

    /// Does `c` hold anything in its pocket?
    #[inline(always)]
    pub fn pocket_nonempty(&self, c: Color) -> bool {
        self.pocket[c.index()].iter().any(|&n| n > 0)
    }

    /// Castling rights as bits (`WHITE_OO` ...).
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// Where the castling rooks and kings of this game started (the
    /// standard squares unless a Chess960 FEN said otherwise).
    #[inline(always)]
    pub fn castle_setup(&self) -> &CastleSetup {
        &self.castle
    }

    /// The rooks that still have a castling right.
    pub fn castling_rooks(&self) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for i in 0..4 {
            let right = 1u8 << i;
            if self.castling & right != 0 {
                b |= self.castle.rook(right).bb();
            }
        }
        b
    }

    /// Are castling moves written king-takes-rook (`e1h1`)? With
    /// `UCI_Chess960` on, and for a castling setup other than the standard
    /// one (which only a change of `UCI_Chess960` in mid-game leaves
    /// behind), where the king's move alone could be ambiguous.
    #[inline]
    pub fn chess960_notation(&self) -> bool {
        self.rules.chess960 || !self.castle.is_standard()
    }

    /// En-passant target square, kept only when a pawn can capture there.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Half-move clock (plies since the last capture or pawn move).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Full-move number.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// King's chess: has `c`'s king moved in the period of its next move?
    #[inline(always)]
    pub fn duty_done(&self, c: Color) -> bool {
        self.duty[c.index()]
    }

    /// Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Pieces giving check to the side to move (royal variants).
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Is the side to move in check?
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.nonempty()
    }

    /// The square of `c`'s king (the lowest one if several); a1 if none.
    #[inline(always)]
    pub fn king_sq(&self, c: Color) -> Square {
        let k = self.pieces(c, PieceType::King);
        if k.is_empty() {
            Square(0)
        } else {
            k.lsb()
        }
    }

    /// King's chess: must the side to move play a king move now
    /// (last move of a period without a king move yet)?
    #[inline]
    pub fn duty_pending(&self) -> bool {
        if !self.rules.king_duty || self.duty[self.side.index()] {
            return false;
        }
        matches!(duty_period(self.side.is_white(), self.fullmove), Some((_, end)) if end == self.fullmove)
    }

    /// Pieces of either colour attacking `sq` with occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        (attacks::pawn(Color::White, sq) & self.pieces(Color::Black, PieceType::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces(Color::White, PieceType::Pawn))
            | (attacks::knight(sq) & self.by_kind[PieceType::Knight.index()])
            | (attacks::king(sq) & self.by_kind[PieceType::King.index()])
            | (attacks::rook(sq, occ)
                & (self.by_kind[PieceType::Rook.index()] | self.by_kind[PieceType::Queen.index()]))
            | (attacks::bishop(sq, occ)
                & (self.by_kind[PieceType::Bishop.index()]
                    | self.by_kind[PieceType::Queen.index()]))
    }

    /// Is `sq` attacked by `by` with occupancy `occ`?
    #[inline]
    pub fn attacked_by(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        let rq =
            (self.by_kind[PieceType::Rook.index()] | self.by_kind[PieceType::Queen.index()]) & them;
        let bq = (self.by_kind[PieceType::Bishop.index()] | self.by_kind[PieceType::Queen.index()])
            & them;
        (attacks::knight(sq) & self.by_kind[PieceType::Knight.index()] & them).nonempty()
            || (attacks::pawn(by.flip(), sq) & self.by_kind[PieceType::Pawn.index()] & them)
                .nonempty()
            || (attacks::king(sq) & self.by_kind[PieceType::King.index()] & them).nonempty()
            || (rq.nonempty() && (attacks::rook(sq, occ) & rq).nonempty())
            || (bq.nonempty() && (attacks::bishop(sq, occ) & bq).nonempty())
    }

    // ---------------------------------------------------------------- editing

    #[inline(always)]
    pub(super) fn put(&mut self, p: Piece, sq: Square) {
        let b = sq.bb();
        self.by_color[p.color.index()] |= b;
        self.by_kind[p.kind.index()] |= b;
        self.mailbox[sq.index()] = p.index() as u8 + 1;
        self.key ^= KEYS.piece[p.index()][sq.index()];
    }

    #[inline(always)]
    pub(super) fn remove(&mut self, p: Piece, sq: Square) {
        let b = sq.bb();
        self.by_color[p.color.index()] ^= b;
        self.by_kind[p.kind.index()] ^= b;
        self.mailbox[sq.index()] = 0;
        self.key ^= KEYS.piece[p.index()][sq.index()];
    }

    #[inline(always)]
    pub(super) fn set_pocket(&mut self, c: Color, k: PieceType, n: u8) {
        let slot = &mut self.pocket[c.index()][k.index()];
        self.key ^= KEYS.pocket[c.index()][k.index()][*slot as usize]
            ^ KEYS.pocket[c.index()][k.index()][n as usize];
        *slot = n;
    }

    /// Adds one piece to a pocket, as a bughouse partner's capture does.
    /// Fails (changing nothing) for a king, a variant without pockets, or a full pocket.
    pub fn add_to_pocket(&mut self, c: Color, k: PieceType) -> Result<(), PocketError> {
        if !self.rules.drops {
            return Err(PocketError::NoPockets(self.rules.variant));
        }
        if k == PieceType::King {
            return Err(PocketError::KingInPocket);
        }
        let n = self.pocket[c.index()][k.index()] as usize;
        if n >= MAX_POCKET {
            return Err(PocketError::PocketFull(k));
        }
        self.set_pocket(c, k, n as u8 + 1);
        Ok(())
    }

    /// Removes one piece from a pocket (a bughouse correction from outside).
    pub fn remove_from_pocket(&mut self, c: Color, k: PieceType) -> Result<(), PocketError> {
        if k == PieceType::King || self.pocket(c, k) == 0 {
            return Err(PocketError::NotInPocket(k));
        }
        let n = self.pocket[c.index()][k.index()];
        self.set_pocket(c, k, n - 1);
        Ok(())
    }

    /// Puts a piece on an empty square from outside the game (the bughouse
    /// Gambler promotion rule). Refuses kings, occupied squares and pawns on
    /// rank 1 or 8; on error nothing changes. `promoted` marks the piece as
    /// promoted (drop variants only). The caller checks that the position it
    /// ends with is legal (the side not to move not in check).
    pub fn put_piece(
        &mut self,
        sq: Square,
        piece: Piece,
        promoted: bool,
    ) -> Result<(), BoardEditError> {
        if piece.kind == PieceType::King {
            return Err(BoardEditError::KingPut);
        }
        if self.occupied().has(sq) {
            return Err(BoardEditError::Occupied(sq));
        }
        if piece.kind == PieceType::Pawn && (sq.rank() == 0 || sq.rank() == 7) {
            return Err(BoardEditError::PawnOnBackRank(sq));
        }
        let mut next = *self;
        next.put(piece, sq);
        if promoted && next.rules.drops {
            next.promoted |= sq.bb();
            next.key ^= KEYS.promoted[sq.index()];
        }
        next.after_edit();
        *self = next;
        Ok(())
    }

    /// Takes a piece off the board from outside the game (the bughouse
    /// Gambler promotion rule) and returns it. Refuses empty squares and
    /// kings; on error nothing changes. A rook taken from its corner loses
    /// that castling right; a promoted mark on the square goes with the
    /// piece. The caller checks that the position it ends with is legal.
    pub fn take_piece(&mut self, sq: Square) -> Result<Piece, BoardEditError> {
        let piece = self.piece_on(sq).ok_or(BoardEditError::Empty(sq))?;
        if piece.kind == PieceType::King {
            return Err(BoardEditError::KingTaken);
        }
        let mut next = *self;
        next.remove(piece, sq);
        if next.promoted.has(sq) {
            next.promoted ^= sq.bb();
            next.key ^= KEYS.promoted[sq.index()];
        }
        let old = next.castling;
        next.castling &= !next.castle.lost_on(sq.bb());
        if next.castling != old {
            next.key ^= KEYS.castling[old as usize] ^ KEYS.castling[next.castling as usize];
        }
        next.after_edit();
        *self = next;
        Ok(piece)
    }

    /// After `put_piece`/`take_piece`: drops an en-passant square that no
    /// longer applies and recomputes the checkers.
    pub(super) fn after_edit(&mut self) {
        if let Some(ep) = self.ep {
            let mover = self.side.flip();
            let pawn_sq = Square::new(ep.file(), mover.relative_rank(3));
            let valid = self.pieces(mover, PieceType::Pawn).has(pawn_sq)
                && !self.occupied().has(ep)
                && self.ep_capturable(ep, mover);
            if !valid {
                self.ep = None;
                self.key ^= KEYS.ep_file[ep.file() as usize];
            }
        }
        self.checkers = self.compute_checkers();
    }

    /// Replaces the rules (house-rule options) keeping the position; the
    /// variant must stay the same.
    pub fn set_rules(&mut self, rules: Rules) {
        debug_assert_eq!(rules.variant, self.rules.variant);
        self.rules = rules;
    }

    #[inline(always)]
    pub(super) fn ep_capturable(&self, ep: Square, mover: Color) -> bool {
        // Pawns of the side to move next that attack the ep square.
        (attacks::pawn(mover, ep) & self.pieces(mover.flip(), PieceType::Pawn)).nonempty()
    }

    #[inline]
    pub(super) fn compute_checkers(&self) -> Bitboard {
        if !self.rules.royal_king {
            return Bitboard::EMPTY;
        }
        let king = self.pieces(self.side, PieceType::King);
        if king.is_empty() {
            return Bitboard::EMPTY;
        }
        self.attackers_to(king.lsb(), self.occupied()) & self.by_color[self.side.flip().index()]
    }

    /// Does `m` capture something (en passant included)?
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        if m.is_drop() || m.is_castle() {
            return false;
        }
        m.is_en_passant() || self.by_color[self.side.flip().index()].has(m.to())
    }

    /// The piece kind `m` captures, if any.
    #[inline]
    pub fn captured_kind(&self, m: Move) -> Option<PieceType> {
        if m.is_en_passant() {
            Some(PieceType::Pawn)
        } else if m.is_drop() || m.is_castle() {
            None
        } else {
            self.kind_on(m.to())
                .filter(|_| self.by_color[self.side.flip().index()].has(m.to()))
        }
    }

    /// The piece kind that moves (the dropped piece for drops).
    #[inline]
    pub fn moved_kind(&self, m: Move) -> PieceType {
        if m.is_drop() {
            m.drop_piece()
        } else {
            self.kind_on(m.from()).unwrap_or(PieceType::Pawn)
        }
    }
}

/// Why [`Position::add_to_pocket`] or [`Position::remove_from_pocket`]
/// refused; the position is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PocketError {
    /// The variant has no pockets.
    NoPockets(Variant),
    /// A king cannot be held in a pocket.
    KingInPocket,
    /// The pocket already holds as many of this piece as it can.
    PocketFull(PieceType),
    /// The pocket holds none of this piece (never a king).
    NotInPocket(PieceType),
}

impl fmt::Display for PocketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PocketError::NoPockets(v) => write!(f, "{v} has no pockets"),
            PocketError::KingInPocket => write!(f, "a king cannot be held in a pocket"),
            PocketError::PocketFull(_) => {
                write!(f, "pocket already holds {MAX_POCKET} of that piece")
            }
            PocketError::NotInPocket(k) => write!(f, "no {} in the pocket", k.char()),
        }
    }
}

impl std::error::Error for PocketError {}

/// Why [`Position::put_piece`] or [`Position::take_piece`] refused; the
/// position is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardEditError {
    /// A king cannot be put on the board from outside.
    KingPut,
    /// A king cannot be taken off the board.
    KingTaken,
    /// The square to put a piece on is occupied.
    Occupied(Square),
    /// The square to take a piece from is empty.
    Empty(Square),
    /// A pawn cannot be put on rank 1 or 8.
    PawnOnBackRank(Square),
}

impl fmt::Display for BoardEditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardEditError::KingPut => {
                write!(f, "a king cannot be put on the board from outside")
            }
            BoardEditError::KingTaken => write!(f, "a king cannot be taken off the board"),
            BoardEditError::Occupied(sq) => write!(f, "{sq} is occupied"),
            BoardEditError::Empty(sq) => write!(f, "{sq} is empty"),
            BoardEditError::PawnOnBackRank(sq) => write!(f, "a pawn cannot stand on {sq}"),
        }
    }
}

impl std::error::Error for BoardEditError {}
