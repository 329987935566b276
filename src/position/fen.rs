//! FEN in and out: every pocket dialect (`[Qn]`, `[]`, `[-]`, counts such as
//! `[N3P]`, the lichess ninth rank), `~` for promoted pieces, Shredder
//! castling letters, with `UCI_Chess960` X-FEN and Shredder-FEN castling
//! for rooks and kings on any files, missing clocks, the King's-chess
//! seventh field. A FEN
//! that leaves the rules undefined is refused with a [`FenError`] that says
//! what is wrong.

use super::board::Position;
use super::castling;
use super::castling::{BLACK_OO, BLACK_OOO, WHITE_OO, WHITE_OOO};
use super::zobrist::MAX_POCKET;
use crate::rules::{Rules, Variant};
use crate::types::{Bitboard, Color, Piece, PieceType, Square};
use std::fmt;

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but white space.
    Empty,
    /// More fields than the variant has.
    TooManyFields {
        /// Fields found.
        found: usize,
        /// The variant.
        variant: Variant,
        /// Fields it takes at most.
        max: usize,
    },
    /// A `[` pocket without its `]`.
    UnclosedPocket,
    /// The board does not have 8 ranks.
    RankCount(usize),
    /// A `0` in a rank.
    ZeroInRank(u8),
    /// A rank (1-based) with more than 8 squares.
    RankTooLong(u8),
    /// A rank (1-based) with fewer than 8 squares.
    RankTooShort {
        /// The rank, 1-based.
        rank: u8,
        /// Squares it has.
        squares: u8,
    },
    /// A letter that is no piece, on a rank (1-based).
    UnknownPiece {
        /// The letter.
        letter: char,
        /// The rank, 1-based.
        rank: u8,
    },
    /// A letter in the pocket that is no piece.
    UnknownPocketLetter(char),
    /// A king in a pocket.
    KingInPocket,
    /// A pocket in a variant without drops.
    NoPockets(Variant),
    /// More than the pocket can hold of one piece.
    PocketTooLarge(char),
    /// A count larger than any pocket holds.
    PocketCountTooLarge,
    /// A count without a piece letter after it.
    CountWithoutPiece,
    /// The side to move is not `w` or `b`.
    BadSideToMove(String),
    /// No king of a colour where the king is royal.
    MissingKing(Color),
    /// Two or more kings of a colour where the king is royal.
    ExtraKing(Color),
    /// A pawn on rank 1 or 8.
    PawnOnBackRank,
    /// A castling field with an unknown letter.
    BadCastling(String),
    /// A castling right whose king is not on its square.
    CastlingWithoutKing {
        /// The letter.
        right: char,
        /// Where the king should stand.
        square: Square,
    },
    /// A castling right whose rook is not on its square.
    CastlingWithoutRook {
        /// The letter.
        right: char,
        /// Where the rook should stand.
        square: Square,
    },
    /// A Chess960 castling right (a file letter from B to G) while
    /// `UCI_Chess960` is off.
    CastlingNeedsChess960(char),
    /// Chess960: a castling right of a colour that has no king (or more
    /// than one) on its back rank.
    CastlingKingNotOnBackRank(char),
    /// Chess960: `K`/`Q` (`k`/`q`) without a rook of that colour on that
    /// side of the king on the back rank.
    CastlingWithoutSideRook(char),
    /// Chess960: two different rooks named for one side of one colour.
    CastlingConflict(char),
    /// An en-passant field that is not a square.
    BadEnPassant(String),
    /// An en-passant square not behind a pawn that just moved two squares.
    EnPassantWrongRank(Square),
    /// An en-passant square without the pawn that just moved two squares.
    EnPassantWithoutPawn(Square),
    /// A half-move clock that is not a number.
    BadHalfmoveClock(String),
    /// A full-move number that is not a number.
    BadFullmoveNumber(String),
    /// A King's-chess field that is not two characters of `+` and `-`.
    BadDutyField(String),
    /// The side not to move is in check.
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: &Color| if c.is_white() { "white" } else { "black" };
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::TooManyFields {
                found,
                variant,
                max,
            } => write!(f, "FEN has {found} fields, {variant} takes at most {max}"),
            FenError::UnclosedPocket => write!(f, "pocket must end with ']'"),
            FenError::RankCount(n) => write!(f, "board has {n} ranks, expected 8"),
            FenError::ZeroInRank(r) => write!(f, "rank {r} has a 0"),
            FenError::RankTooLong(r) => write!(f, "rank {r} has more than 8 squares"),
            FenError::RankTooShort { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares, expected 8")
            }
            FenError::UnknownPiece { letter, rank } => {
                write!(f, "unknown piece letter '{letter}' on rank {rank}")
            }
            FenError::UnknownPocketLetter(c) => write!(f, "unknown pocket letter '{c}'"),
            FenError::KingInPocket => write!(f, "a king cannot be in a pocket"),
            FenError::NoPockets(v) => write!(f, "{v} has no pockets"),
            FenError::PocketTooLarge(c) => {
                write!(f, "more than {MAX_POCKET} {c} in a pocket")
            }
            FenError::PocketCountTooLarge => write!(f, "pocket count above {MAX_POCKET}"),
            FenError::CountWithoutPiece => write!(f, "pocket count without a piece letter"),
            FenError::BadSideToMove(s) => write!(f, "side to move must be w or b, not '{s}'"),
            FenError::MissingKing(c) => write!(f, "no {} king", name(c)),
            FenError::ExtraKing(c) => write!(f, "more than one {} king", name(c)),
            FenError::PawnOnBackRank => write!(f, "pawn on rank 1 or 8"),
            FenError::BadCastling(s) => write!(f, "bad castling field '{s}'"),
            FenError::CastlingWithoutKing { right, square } => {
                write!(f, "castling right '{right}' but no king on {square}")
            }
            FenError::CastlingWithoutRook { right, square } => {
                write!(f, "castling right '{right}' but no rook on {square}")
            }
            FenError::CastlingNeedsChess960(c) => write!(
                f,
                "castling right '{c}' is a Chess960 right (setoption name UCI_Chess960 value true)"
            ),
            FenError::CastlingKingNotOnBackRank(c) => write!(
                f,
                "castling right '{c}' but not exactly one king of that colour on its back rank"
            ),
            FenError::CastlingWithoutSideRook(c) => write!(
                f,
                "castling right '{c}' but no rook on that side of the king on the back rank"
            ),
            FenError::CastlingConflict(c) => write!(
                f,
                "castling right '{c}' names a second rook for a side that already has one"
            ),
            FenError::BadEnPassant(s) => write!(f, "bad en-passant square '{s}'"),
            FenError::EnPassantWrongRank(sq) => write!(
                f,
                "en-passant square {sq} is not on the rank behind a pawn that just moved two squares"
            ),
            FenError::EnPassantWithoutPawn(sq) => write!(
                f,
                "en-passant square {sq} without a pawn that just moved two squares"
            ),
            FenError::BadHalfmoveClock(s) => write!(f, "bad half-move clock '{s}'"),
            FenError::BadFullmoveNumber(s) => write!(f, "bad full-move number '{s}'"),
            FenError::BadDutyField(s) => write!(
                f,
                "King's-chess field must be two characters of + and -, not '{s}'"
            ),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

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

impl Position {
    /// Parses a FEN (any pocket dialect) for the given rules.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        let max = if rules.king_duty { 7 } else { 6 };
        if fields.len() > max {
            return Err(FenError::TooManyFields {
                found: fields.len(),
                variant: rules.variant,
                max,
            });
        }
        let mut pos = Position::empty(rules);
        let pocket = pos.read_board(fields[0])?;
        if let Some(text) = pocket {
            pos.read_pocket(text)?;
        }
        pos.side = match fields.get(1).copied().unwrap_or("w") {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            s => return Err(FenError::BadSideToMove(s.to_string())),
        };
        pos.check_material()?;
        pos.read_castling(fields.get(2).copied().unwrap_or("-"))?;
        pos.read_en_passant(fields.get(3).copied().unwrap_or("-"))?;
        if let Some(h) = fields.get(4) {
            pos.halfmove = h
                .parse()
                .map_err(|_| FenError::BadHalfmoveClock(h.to_string()))?;
        }
        if let Some(f) = fields.get(5) {
            let n: u32 = f
                .parse()
                .map_err(|_| FenError::BadFullmoveNumber(f.to_string()))?;
            pos.fullmove = n.max(1);
        }
        if let Some(d) = fields.get(6) {
            let b = d.as_bytes();
            if b.len() != 2 || !b.iter().all(|&c| c == b'+' || c == b'-') {
                return Err(FenError::BadDutyField(d.to_string()));
            }
            pos.duty = [b[0] == b'+', b[1] == b'+'];
        }
        if rules.royal_king {
            let them = pos.side.flip();
            if pos.attacked_by(pos.king_sq(them), pos.side, pos.occupied()) {
                return Err(FenError::OpponentInCheck);
            }
        }
        pos.checkers = pos.compute_checkers();
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// Reads the board field (pieces and `~` marks); returns the pocket text
    /// it carries (`[...]` or the lichess ninth rank), if any.
    fn read_board<'a>(&mut self, field: &'a str) -> Result<Option<&'a str>, FenError> {
        let mut board = field;
        let mut pocket = None;
        if let Some(open) = board.find('[') {
            if !board.ends_with(']') {
                return Err(FenError::UnclosedPocket);
            }
            pocket = Some(&board[open + 1..board.len() - 1]);
            board = &board[..open];
        }
        let ranks: Vec<&str> = board.split('/').collect();
        let ranks: &[&str] = if ranks.len() == 9 && pocket.is_none() {
            pocket = Some(ranks[8]);
            &ranks[..8]
        } else {
            &ranks
        };
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            let mut chars = rank_text.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::ZeroInRank(rank + 1));
                    }
                    file += d as u8;
                    if file > 8 {
                        return Err(FenError::RankTooLong(rank + 1));
                    }
                } else if let Some(p) = Piece::from_char(c) {
                    if file >= 8 {
                        return Err(FenError::RankTooLong(rank + 1));
                    }
                    let sq = Square::new(file, rank);
                    self.put(p, sq);
                    if chars.peek() == Some(&'~') {
                        chars.next();
                        if self.rules.drops {
                            self.promoted |= sq.bb();
                        }
                    }
                    file += 1;
                } else {
                    return Err(FenError::UnknownPiece {
                        letter: c,
                        rank: rank + 1,
                    });
                }
            }
            if file != 8 {
                return Err(FenError::RankTooShort {
                    rank: rank + 1,
                    squares: file,
                });
            }
        }
        Ok(pocket)
    }

    /// Reads pocket letters with optional counts (`QRbn`, `N3P`, `-`).
    fn read_pocket(&mut self, text: &str) -> Result<(), FenError> {
        let mut count: Option<usize> = None;
        for c in text.chars() {
            if c == '-' {
                continue;
            }
            if let Some(d) = c.to_digit(10) {
                let n = count.unwrap_or(0) * 10 + d as usize;
                if n > MAX_POCKET {
                    return Err(FenError::PocketCountTooLarge);
                }
                count = Some(n);
                continue;
            }
            let p = match Piece::from_char(c) {
                Some(p) if p.kind != PieceType::King => p,
                Some(_) => return Err(FenError::KingInPocket),
                None => return Err(FenError::UnknownPocketLetter(c)),
            };
            if !self.rules.drops {
                return Err(FenError::NoPockets(self.rules.variant));
            }
            let n = count.take().unwrap_or(1);
            let slot = &mut self.pocket[p.color.index()][p.kind.index()];
            if *slot as usize + n > MAX_POCKET {
                return Err(FenError::PocketTooLarge(p.char()));
            }
            *slot += n as u8;
        }
        if count.is_some() {
            return Err(FenError::CountWithoutPiece);
        }
        Ok(())
    }

    /// Kings where the king is royal; no pawn on rank 1 or 8.
    fn check_material(&self) -> Result<(), FenError> {
        if self.rules.royal_king {
            for c in Color::ALL {
                match self.pieces(c, PieceType::King).count() {
                    0 => return Err(FenError::MissingKing(c)),
                    1 => {}
                    _ => return Err(FenError::ExtraKing(c)),
                }
            }
        }
        if (self.kind_bb(PieceType::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8)).nonempty() {
            return Err(FenError::PawnOnBackRank);
        }
        Ok(())
    }

    /// Reads the castling field: `KQkq`, Shredder `HAha`, `-`; with
    /// `UCI_Chess960` X-FEN and Shredder-FEN for kings and rooks on any
    /// files ([`Position::read_castling_960`]). Variants without castling
    /// ignore the rights, as Fairy-Stockfish does.
    fn read_castling(&mut self, text: &str) -> Result<(), FenError> {
        if text == "-" {
            return Ok(());
        }
        if self.rules.chess960 {
            return self.read_castling_960(text);
        }
        if self.rules.castling {
            if let Some(c) = text.chars().find(|c| matches!(c, 'B'..='G' | 'b'..='g')) {
                return Err(FenError::CastlingNeedsChess960(c));
            }
        }
        for c in text.chars() {
            let (color, right, rook_file) = match c {
                'K' | 'H' => (Color::White, WHITE_OO, 7),
                'Q' | 'A' => (Color::White, WHITE_OOO, 0),
                'k' | 'h' => (Color::Black, BLACK_OO, 7),
                'q' | 'a' => (Color::Black, BLACK_OOO, 0),
                _ => return Err(FenError::BadCastling(text.to_string())),
            };
            if !self.rules.castling {
                continue;
            }
            let king_sq = Square::E1.relative(color);
            let rook_sq = Square::new(rook_file, color.relative_rank(0));
            if !self.pieces(color, PieceType::King).has(king_sq) {
                return Err(FenError::CastlingWithoutKing {
                    right: c,
                    square: king_sq,
                });
            }
            if !self.pieces(color, PieceType::Rook).has(rook_sq) {
                return Err(FenError::CastlingWithoutRook {
                    right: c,
                    square: rook_sq,
                });
            }
            self.castling |= right;
        }
        Ok(())
    }

    /// Chess960 castling field, X-FEN or Shredder-FEN, letters in any order:
    /// `K`/`k` is the outermost rook of that colour on the king's h-side of
    /// the back rank, `Q`/`q` the outermost on its a-side, a file letter
    /// (`A`-`H` White, `a`-`h` Black) the rook on that file, on whichever side
    /// of the king it stands. The king must be alone on its back rank.
    /// A letter repeated or naming the same rook twice counts once; two
    /// rooks for one side are refused.
    fn read_castling_960(&mut self, text: &str) -> Result<(), FenError> {
        for c in text.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let letter = c.to_ascii_lowercase();
            if !matches!(letter, 'k' | 'q' | 'a'..='h') {
                return Err(FenError::BadCastling(text.to_string()));
            }
            if !self.rules.castling {
                continue;
            }
            let rank = color.relative_rank(0);
            let back = Bitboard::rank(rank);
            let kings = self.pieces(color, PieceType::King) & back;
            if kings.is_empty() || kings.more_than_one() {
                return Err(FenError::CastlingKingNotOnBackRank(c));
            }
            let king = kings.lsb();
            let rooks = self.pieces(color, PieceType::Rook) & back;
            // Squares above and below the king's (its bit is not zero).
            let below = king.bb().0 - 1;
            let h_side = Bitboard(rooks.0 & !(below | king.bb().0));
            let a_side = Bitboard(rooks.0 & below);
            let rook = match letter {
                'k' => match h_side.0.checked_ilog2() {
                    Some(i) => Square(i as u8),
                    None => return Err(FenError::CastlingWithoutSideRook(c)),
                },
                'q' if a_side.nonempty() => a_side.lsb(),
                'q' => return Err(FenError::CastlingWithoutSideRook(c)),
                file => {
                    let sq = Square::new(file as u8 - b'a', rank);
                    if !rooks.has(sq) {
                        return Err(FenError::CastlingWithoutRook {
                            right: c,
                            square: sq,
                        });
                    }
                    sq
                }
            };
            let right = if rook.file() > king.file() {
                castling::king_side(color)
            } else {
                castling::queen_side(color)
            };
            if self.castling & right != 0 && self.castle.rook(right) != rook {
                return Err(FenError::CastlingConflict(c));
            }
            self.castling |= right;
            self.castle.set(right, rook, king);
        }
        Ok(())
    }

    /// Reads the en-passant field; the square is kept only when a pawn of
    /// the side to move can capture there.
    fn read_en_passant(&mut self, text: &str) -> Result<(), FenError> {
        if text == "-" {
            return Ok(());
        }
        let ep = Square::parse(text).ok_or_else(|| FenError::BadEnPassant(text.to_string()))?;
        let them = self.side.flip();
        if ep.rank() != them.relative_rank(2) {
            return Err(FenError::EnPassantWrongRank(ep));
        }
        let pawn_sq = Square::new(ep.file(), them.relative_rank(3));
        let origin = Square::new(ep.file(), them.relative_rank(1));
        if !self.pieces(them, PieceType::Pawn).has(pawn_sq)
            || self.occupied().has(ep)
            || self.occupied().has(origin)
        {
            return Err(FenError::EnPassantWithoutPawn(ep));
        }
        if self.ep_capturable(ep, them) {
            self.ep = Some(ep);
        }
        Ok(())
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
        self.write_castling(&mut s);
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

    /// The castling field, X-FEN: per colour (White first) the short then
    /// the long right, `K`/`Q` (`k`/`q`) when its rook is the outermost one
    /// on that side of the back rank, else the rook's file letter (Chess960
    /// only). The standard setup always gives `KQkq` or a part of it.
    fn write_castling(&self, s: &mut String) {
        if self.castling == 0 {
            s.push('-');
            return;
        }
        for (right, color, short) in [
            (WHITE_OO, Color::White, true),
            (WHITE_OOO, Color::White, false),
            (BLACK_OO, Color::Black, true),
            (BLACK_OOO, Color::Black, false),
        ] {
            if self.castling & right == 0 {
                continue;
            }
            let rook = self.castle.rook(right);
            let rooks =
                self.pieces(color, PieceType::Rook) & Bitboard::rank(color.relative_rank(0));
            let outermost = if short {
                rooks.0.checked_ilog2().map(|i| Square(i as u8))
            } else {
                rooks.nonempty().then(|| rooks.lsb())
            };
            let letter = if outermost == Some(rook) {
                if short {
                    'k'
                } else {
                    'q'
                }
            } else {
                (b'a' + rook.file()) as char
            };
            s.push(if color.is_white() {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
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
