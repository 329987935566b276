//! The position: bitboards, mailbox, pockets, promoted flags, state, Zobrist
//! key; FEN in and out; making moves (copy-make: callers keep the parent).

use crate::attacks;
use crate::rules::{duty_period, Rules, Variant};
use crate::types::{Bitboard, Color, Move, MoveKind, Piece, PieceType, Square};
use crate::zobrist::{KEYS, MAX_POCKET};
use std::fmt;

/// Castling right bits.
pub const WHITE_OO: u8 = 1;
/// White queenside.
pub const WHITE_OOO: u8 = 2;
/// Black kingside.
pub const BLACK_OO: u8 = 4;
/// Black queenside.
pub const BLACK_OOO: u8 = 8;

/// Rights lost when a piece moves from or to each square.
const fn castle_masks() -> [u8; 64] {
    let mut m = [0u8; 64];
    m[0] = WHITE_OOO;
    m[7] = WHITE_OO;
    m[4] = WHITE_OO | WHITE_OOO;
    m[56] = BLACK_OOO;
    m[63] = BLACK_OO;
    m[60] = BLACK_OO | BLACK_OOO;
    m
}
static CASTLE_MASK: [u8; 64] = castle_masks();

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FenError {}

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

/// What a move changed on the board, for incremental evaluation
/// (Stockfish's `DirtyPiece`): pieces removed and added, pocket changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    /// Pieces taken off a square (up to two: the mover and a captured piece).
    pub removed: [Option<(Piece, Square)>; 2],
    /// Pieces put on a square (up to two: the mover, the castling rook).
    pub added: [Option<(Piece, Square)>; 2],
    /// Pocket changes: colour, piece, +1 or -1.
    pub pocket: [Option<(Color, PieceType, i8)>; 1],
}

/// A legal position of any Rukav variant.
#[derive(Clone, Copy)]
pub struct Position {
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 6],
    mailbox: [u8; 64],
    promoted: Bitboard,
    pocket: [[u8; 5]; 2],
    side: Color,
    castling: u8,
    ep: Option<Square>,
    halfmove: u32,
    fullmove: u32,
    duty: [bool; 2],
    key: u64,
    checkers: Bitboard,
    rules: Rules,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

/// The board field of a FEN (ranks 8 to 1, `~` after promoted pieces) for
/// whatever `piece_at` says stands on each square.
pub fn placement_fen(piece_at: impl Fn(Square) -> Option<(Piece, bool)>) -> String {
    let mut s = String::with_capacity(80);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match piece_at(Square::new(file, rank)) {
                Some((p, promoted)) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(p.char());
                    if promoted {
                        s.push('~');
                    }
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
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
    fn put(&mut self, p: Piece, sq: Square) {
        let b = sq.bb();
        self.by_color[p.color.index()] |= b;
        self.by_kind[p.kind.index()] |= b;
        self.mailbox[sq.index()] = p.index() as u8 + 1;
        self.key ^= KEYS.piece[p.index()][sq.index()];
    }

    #[inline(always)]
    fn remove(&mut self, p: Piece, sq: Square) {
        let b = sq.bb();
        self.by_color[p.color.index()] ^= b;
        self.by_kind[p.kind.index()] ^= b;
        self.mailbox[sq.index()] = 0;
        self.key ^= KEYS.piece[p.index()][sq.index()];
    }

    #[inline(always)]
    fn set_pocket(&mut self, c: Color, k: PieceType, n: u8) {
        let slot = &mut self.pocket[c.index()][k.index()];
        self.key ^= KEYS.pocket[c.index()][k.index()][*slot as usize]
            ^ KEYS.pocket[c.index()][k.index()][n as usize];
        *slot = n;
    }

    /// Adds one piece to a pocket, as a bughouse partner's capture does.
    /// Fails (changing nothing) for a king, a variant without pockets, or a full pocket.
    pub fn add_to_pocket(&mut self, c: Color, k: PieceType) -> Result<(), String> {
        if !self.rules.drops {
            return Err(format!("{} has no pockets", self.rules.variant));
        }
        if k == PieceType::King {
            return Err("a king cannot be held in a pocket".into());
        }
        let n = self.pocket[c.index()][k.index()] as usize;
        if n >= MAX_POCKET {
            return Err(format!("pocket already holds {MAX_POCKET} of that piece"));
        }
        self.set_pocket(c, k, n as u8 + 1);
        Ok(())
    }

    /// Removes one piece from a pocket (a bughouse correction from outside).
    pub fn remove_from_pocket(&mut self, c: Color, k: PieceType) -> Result<(), String> {
        if k == PieceType::King || self.pocket(c, k) == 0 {
            return Err(format!("no {} in the pocket", k.char()));
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
    pub fn put_piece(&mut self, sq: Square, piece: Piece, promoted: bool) -> Result<(), String> {
        if piece.kind == PieceType::King {
            return Err("a king cannot be put on the board from outside".into());
        }
        if self.occupied().has(sq) {
            return Err(format!("{sq} is occupied"));
        }
        if piece.kind == PieceType::Pawn && (sq.rank() == 0 || sq.rank() == 7) {
            return Err(format!("a pawn cannot stand on {sq}"));
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
    pub fn take_piece(&mut self, sq: Square) -> Result<Piece, String> {
        let piece = self.piece_on(sq).ok_or_else(|| format!("{sq} is empty"))?;
        if piece.kind == PieceType::King {
            return Err("a king cannot be taken off the board".into());
        }
        let mut next = *self;
        next.remove(piece, sq);
        if next.promoted.has(sq) {
            next.promoted ^= sq.bb();
            next.key ^= KEYS.promoted[sq.index()];
        }
        let old = next.castling;
        next.castling &= !CASTLE_MASK[sq.index()];
        if next.castling != old {
            next.key ^= KEYS.castling[old as usize] ^ KEYS.castling[next.castling as usize];
        }
        next.after_edit();
        *self = next;
        Ok(piece)
    }

    /// After `put_piece`/`take_piece`: drops an en-passant square that no
    /// longer applies and recomputes the checkers.
    fn after_edit(&mut self) {
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
    fn ep_capturable(&self, ep: Square, mover: Color) -> bool {
        // Pawns of the side to move next that attack the ep square.
        (attacks::pawn(mover, ep) & self.pieces(mover.flip(), PieceType::Pawn)).nonempty()
    }

    #[inline]
    fn compute_checkers(&self) -> Bitboard {
        if !self.rules.royal_king {
            return Bitboard::EMPTY;
        }
        let king = self.pieces(self.side, PieceType::King);
        if king.is_empty() {
            return Bitboard::EMPTY;
        }
        self.attackers_to(king.lsb(), self.occupied()) & self.by_color[self.side.flip().index()]
    }

    /// Plays a legal move. The caller keeps a copy for undo (copy-make).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        self.make_move_delta(m);
    }

    /// Plays a legal move and reports what changed (for NNUE accumulators).
    pub fn make_move_delta(&mut self, m: Move) -> Delta {
        let mut delta = Delta::default();
        let us = self.side;
        let them = us.flip();
        if let Some(ep) = self.ep.take() {
            self.key ^= KEYS.ep_file[ep.file() as usize];
        }
        self.halfmove = self.halfmove.saturating_add(1);
        let mover_number = self.fullmove;
        let to = m.to();
        let mut king_move = false;
        let old_castling = self.castling;
        match m.kind() {
            MoveKind::Drop(kind) => {
                let n = self.pocket[us.index()][kind.index()];
                self.set_pocket(us, kind, n - 1);
                delta.pocket[0] = Some((us, kind, -1));
                let p = Piece::new(us, kind);
                self.put(p, to);
                delta.added[0] = Some((p, to));
                if kind == PieceType::Pawn {
                    self.halfmove = 0;
                }
                if kind == PieceType::Rook && self.rules.dropped_rook_castles {
                    let home = Square::E1.relative(us);
                    if self.pieces(us, PieceType::King).has(home) {
                        if to == Square::H1.relative(us) {
                            self.castling |= if us.is_white() { WHITE_OO } else { BLACK_OO };
                        } else if to == Square::A1.relative(us) {
                            self.castling |= if us.is_white() { WHITE_OOO } else { BLACK_OOO };
                        }
                    }
                }
            }
            MoveKind::Castle => {
                let from = m.from();
                let king = Piece::new(us, PieceType::King);
                let rook = Piece::new(us, PieceType::Rook);
                let (rook_from, rook_to) = if to.file() > from.file() {
                    (Square::new(7, from.rank()), Square::new(5, from.rank()))
                } else {
                    (Square::new(0, from.rank()), Square::new(3, from.rank()))
                };
                self.remove(king, from);
                self.remove(rook, rook_from);
                self.put(king, to);
                self.put(rook, rook_to);
                if self.promoted.has(rook_from) {
                    self.promoted ^= rook_from.bb() | rook_to.bb();
                    self.key ^= KEYS.promoted[rook_from.index()] ^ KEYS.promoted[rook_to.index()];
                }
                delta.removed = [Some((king, from)), Some((rook, rook_from))];
                delta.added = [Some((king, to)), Some((rook, rook_to))];
                self.castling &= !CASTLE_MASK[from.index()];
                king_move = true;
            }
            kind => {
                let from = m.from();
                let moving = match self.piece_on(from) {
                    Some(p) => p,
                    None => return delta,
                };
                let cap_sq = if kind == MoveKind::EnPassant {
                    Square::new(to.file(), from.rank())
                } else {
                    to
                };
                if let Some(captured) = self.piece_on(cap_sq) {
                    self.remove(captured, cap_sq);
                    delta.removed[1] = Some((captured, cap_sq));
                    let was_promoted = self.promoted.has(cap_sq);
                    if was_promoted {
                        self.promoted ^= cap_sq.bb();
                        self.key ^= KEYS.promoted[cap_sq.index()];
                    }
                    if self.rules.captures_to_hand {
                        let k = if was_promoted && self.rules.promoted_revert {
                            PieceType::Pawn
                        } else {
                            captured.kind
                        };
                        if k != PieceType::King {
                            let n = self.pocket[us.index()][k.index()];
                            if (n as usize) < MAX_POCKET {
                                self.set_pocket(us, k, n + 1);
                                delta.pocket[0] = Some((us, k, 1));
                            }
                        }
                    }
                    self.halfmove = 0;
                }
                self.remove(moving, from);
                delta.removed[0] = Some((moving, from));
                let placed = if let MoveKind::Promotion(k) = kind {
                    let p = Piece::new(us, k);
                    if self.rules.drops {
                        self.promoted |= to.bb();
                        self.key ^= KEYS.promoted[to.index()];
                    }
                    p
                } else {
                    if self.promoted.has(from) {
                        self.promoted ^= from.bb() | to.bb();
                        self.key ^= KEYS.promoted[from.index()] ^ KEYS.promoted[to.index()];
                    }
                    moving
                };
                self.put(placed, to);
                delta.added[0] = Some((placed, to));
                match moving.kind {
                    PieceType::Pawn => {
                        self.halfmove = 0;
                        if from.0 ^ to.0 == 16 {
                            let ep = Square((from.0 + to.0) / 2);
                            if self.ep_capturable(ep, us) {
                                self.ep = Some(ep);
                                self.key ^= KEYS.ep_file[ep.file() as usize];
                            }
                        }
                    }
                    PieceType::King => king_move = true,
                    _ => {}
                }
                self.castling &= !(CASTLE_MASK[from.index()] | CASTLE_MASK[to.index()]);
            }
        }
        if self.castling != old_castling {
            self.key ^=
                KEYS.castling[old_castling as usize] ^ KEYS.castling[self.castling as usize];
        }
        if self.rules.king_duty {
            let period = duty_period(us.is_white(), mover_number);
            let same = period.is_some()
                && period == duty_period(us.is_white(), mover_number.saturating_add(1));
            let flag = same && (self.duty[us.index()] || king_move);
            if flag != self.duty[us.index()] {
                self.duty[us.index()] = flag;
                self.key ^= KEYS.duty[us.index()];
            }
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.key ^= KEYS.side;
        self.checkers = self.compute_checkers();
        delta
    }

    /// Passes the move (null move for search). Not legal in check.
    pub fn make_null_move(&mut self) {
        if let Some(ep) = self.ep.take() {
            self.key ^= KEYS.ep_file[ep.file() as usize];
        }
        self.halfmove = self.halfmove.saturating_add(1);
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.key ^= KEYS.side;
        self.checkers = self.compute_checkers();
    }

    /// The Zobrist key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0u64;
        for sq in self.occupied() {
            if let Some(p) = self.piece_on(sq) {
                k ^= KEYS.piece[p.index()][sq.index()];
            }
        }
        for sq in self.promoted {
            k ^= KEYS.promoted[sq.index()];
        }
        for c in Color::ALL {
            for p in 0..5 {
                k ^= KEYS.pocket[c.index()][p][self.pocket[c.index()][p] as usize];
            }
            if self.duty[c.index()] {
                k ^= KEYS.duty[c.index()];
            }
        }
        k ^= KEYS.castling[self.castling as usize];
        if let Some(ep) = self.ep {
            k ^= KEYS.ep_file[ep.file() as usize];
        }
        if self.side == Color::Black {
            k ^= KEYS.side;
        }
        k
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

    // ---------------------------------------------------------------- FEN

    /// Parses a FEN (any pocket dialect) for the given rules.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return err("empty FEN");
        }
        let max_fields = if rules.king_duty { 7 } else { 6 };
        if fields.len() > max_fields {
            return err(format!(
                "FEN has {} fields, {} takes at most {}",
                fields.len(),
                rules.variant,
                max_fields
            ));
        }
        let mut pos = Position {
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 6],
            mailbox: [0; 64],
            promoted: Bitboard::EMPTY,
            pocket: [[0; 5]; 2],
            side: Color::White,
            castling: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            duty: [false; 2],
            key: 0,
            checkers: Bitboard::EMPTY,
            rules,
        };
        // Board and pocket.
        let mut board = fields[0];
        let mut pocket_text: Option<&str> = None;
        if let Some(open) = board.find('[') {
            if !board.ends_with(']') {
                return err("pocket must end with ']'");
            }
            pocket_text = Some(&board[open + 1..board.len() - 1]);
            board = &board[..open];
        }
        let ranks: Vec<&str> = board.split('/').collect();
        let ranks: &[&str] = if ranks.len() == 9 && pocket_text.is_none() {
            pocket_text = Some(ranks[8]);
            &ranks[..8]
        } else {
            &ranks
        };
        if ranks.len() != 8 {
            return err(format!("board has {} ranks, expected 8", ranks.len()));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            let chars: Vec<char> = rank_text.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return err(format!("rank {} has a 0", rank + 1));
                    }
                    file += d as u8;
                    if file > 8 {
                        return err(format!("rank {} has more than 8 squares", rank + 1));
                    }
                } else if let Some(p) = Piece::from_char(c) {
                    if file >= 8 {
                        return err(format!("rank {} has more than 8 squares", rank + 1));
                    }
                    let sq = Square::new(file, rank);
                    pos.put(p, sq);
                    if chars.get(j + 1) == Some(&'~') {
                        j += 1;
                        if rules.drops {
                            pos.promoted |= sq.bb();
                        }
                    }
                    file += 1;
                } else {
                    return err(format!("unknown piece letter '{c}' on rank {}", rank + 1));
                }
                j += 1;
            }
            if file != 8 {
                return err(format!(
                    "rank {} has {} squares, expected 8",
                    rank + 1,
                    file
                ));
            }
        }
        if let Some(text) = pocket_text {
            let mut count: Option<usize> = None;
            for c in text.chars() {
                if c == '-' {
                    continue;
                }
                if let Some(d) = c.to_digit(10) {
                    count = Some(count.unwrap_or(0) * 10 + d as usize);
                    if count.unwrap_or(0) > MAX_POCKET {
                        return err(format!("pocket count above {MAX_POCKET}"));
                    }
                    continue;
                }
                let p = match Piece::from_char(c) {
                    Some(p) if p.kind != PieceType::King => p,
                    Some(_) => return err("a king cannot be in a pocket"),
                    None => return err(format!("unknown pocket letter '{c}'")),
                };
                if !rules.drops {
                    return err(format!("{} has no pockets", rules.variant));
                }
                let n = count.take().unwrap_or(1);
                let slot = &mut pos.pocket[p.color.index()][p.kind.index()];
                if *slot as usize + n > MAX_POCKET {
                    return err(format!("more than {MAX_POCKET} {} in a pocket", p.char()));
                }
                *slot += n as u8;
            }
            if count.is_some() {
                return err("pocket count without a piece letter");
            }
        }
        // Side to move.
        pos.side = match fields.get(1).copied().unwrap_or("w") {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            s => return err(format!("side to move must be w or b, not '{s}'")),
        };
        // Validation of material.
        for c in Color::ALL {
            let name = if c.is_white() { "white" } else { "black" };
            let kings = pos.pieces(c, PieceType::King).count();
            if rules.royal_king {
                if kings == 0 {
                    return err(format!("no {name} king"));
                }
                if kings > 1 {
                    return err(format!("more than one {name} king"));
                }
            }
        }
        if (pos.kind_bb(PieceType::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8)).nonempty() {
            return err("pawn on rank 1 or 8");
        }
        // Castling.
        let castle_text = fields.get(2).copied().unwrap_or("-");
        if castle_text != "-" {
            for c in castle_text.chars() {
                let (color, right, rook_file) = match c {
                    'K' | 'H' => (Color::White, WHITE_OO, 7),
                    'Q' | 'A' => (Color::White, WHITE_OOO, 0),
                    'k' | 'h' => (Color::Black, BLACK_OO, 7),
                    'q' | 'a' => (Color::Black, BLACK_OOO, 0),
                    _ => return err(format!("bad castling field '{castle_text}'")),
                };
                if !rules.castling {
                    continue; // antichess: rights are ignored, as Fairy-Stockfish does
                }
                let king_sq = Square::E1.relative(color);
                let rook_sq = Square::new(rook_file, color.relative_rank(0));
                if !pos.pieces(color, PieceType::King).has(king_sq) {
                    return err(format!("castling right '{c}' but no king on {king_sq}"));
                }
                if !pos.pieces(color, PieceType::Rook).has(rook_sq) {
                    return err(format!("castling right '{c}' but no rook on {rook_sq}"));
                }
                pos.castling |= right;
            }
        }
        // En passant.
        let ep_text = fields.get(3).copied().unwrap_or("-");
        if ep_text != "-" {
            let ep = match Square::parse(ep_text) {
                Some(s) => s,
                None => return err(format!("bad en-passant square '{ep_text}'")),
            };
            let them = pos.side.flip();
            if ep.rank() != them.relative_rank(2) {
                return err(format!(
                    "en-passant square {ep} is not on the rank behind a pawn that just moved two squares"
                ));
            }
            let pawn_sq = Square::new(ep.file(), them.relative_rank(3));
            let origin = Square::new(ep.file(), them.relative_rank(1));
            if !pos.pieces(them, PieceType::Pawn).has(pawn_sq)
                || pos.occupied().has(ep)
                || pos.occupied().has(origin)
            {
                return err(format!(
                    "en-passant square {ep} without a pawn that just moved two squares"
                ));
            }
            if pos.ep_capturable(ep, them) {
                pos.ep = Some(ep);
            }
        }
        // Clocks.
        if let Some(h) = fields.get(4) {
            pos.halfmove = h
                .parse()
                .map_err(|_| FenError(format!("bad half-move clock '{h}'")))?;
        }
        if let Some(f) = fields.get(5) {
            let n: u32 = f
                .parse()
                .map_err(|_| FenError(format!("bad full-move number '{f}'")))?;
            pos.fullmove = n.max(1);
        }
        // King's chess duty field.
        if let Some(d) = fields.get(6) {
            let b = d.as_bytes();
            if b.len() != 2 || !b.iter().all(|&c| c == b'+' || c == b'-') {
                return err(format!(
                    "King's-chess field must be two characters of + and -, not '{d}'"
                ));
            }
            pos.duty = [b[0] == b'+', b[1] == b'+'];
        }
        // Side not to move must not be in check.
        if rules.royal_king {
            let them = pos.side.flip();
            let their_king = pos.king_sq(them);
            if pos.attacked_by(their_king, pos.side, pos.occupied()) {
                return err("the side not to move is in check");
            }
        }
        pos.checkers = pos.compute_checkers();
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// Writes the FEN: pockets in brackets, `~` after promoted pieces, and the
    /// seventh field in King's chess.
    pub fn fen(&self) -> String {
        let mut s = placement_fen(|sq| self.piece_on(sq).map(|p| (p, self.promoted.has(sq))));
        if self.rules.drops {
            s.push('[');
            s.push_str(&self.pocket_string());
            s.push(']');
        }
        s.push(' ');
        s.push(if self.side.is_white() { 'w' } else { 'b' });
        s.push(' ');
        if self.castling == 0 {
            s.push('-');
        } else {
            for (bit, c) in [
                (WHITE_OO, 'K'),
                (WHITE_OOO, 'Q'),
                (BLACK_OO, 'k'),
                (BLACK_OOO, 'q'),
            ] {
                if self.castling & bit != 0 {
                    s.push(c);
                }
            }
        }
        s.push(' ');
        match self.ep {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        if self.rules.king_duty {
            s.push(' ');
            for c in Color::ALL {
                s.push(if self.duty[c.index()] { '+' } else { '-' });
            }
        }
        s
    }

    /// The pockets as FEN letters, White first, Q R B N P order.
    pub fn pocket_string(&self) -> String {
        let mut s = String::new();
        for c in Color::ALL {
            for k in [
                PieceType::Queen,
                PieceType::Rook,
                PieceType::Bishop,
                PieceType::Knight,
                PieceType::Pawn,
            ] {
                for _ in 0..self.pocket[c.index()][k.index()] {
                    s.push(Piece::new(c, k).char());
                }
            }
        }
        s
    }

    /// A board diagram for the `d` command.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        s.push_str(" +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::new(file, rank);
                let c = self.piece_on(sq).map(|p| p.char()).unwrap_or(' ');
                let mark = if self.promoted.has(sq) { '~' } else { ' ' };
                if file == 0 {
                    s.push(' ');
                }
                s.push_str(&format!("| {c}{mark}"));
            }
            s.push_str(&format!(
                "| {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        s.push_str("   a   b   c   d   e   f   g   h\n");
        if self.rules.drops {
            s.push_str(&format!("Pocket: [{}]\n", self.pocket_string()));
        }
        s
    }
}
