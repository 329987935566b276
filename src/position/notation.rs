//! Moves as text: UCI long algebraic (`e2e4`, `e7e8q`, `P@e4`, castling as
//! the king's move, or king takes rook in Chess960) and standard algebraic (`Nf3`, `exd5`, `e8=Q`, `O-O`,
//! `N@f3`), read and checked against the legal moves.

use super::board::Position;
use super::castling;
use super::outcome::{EndReason, Outcome};
use crate::types::{Color, Move, MoveKind, PieceType, Square};
use std::fmt;

/// Why a move text was refused: it names no legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// UCI text ([`Position::parse_uci_move`]) that is no legal move here.
    Illegal {
        /// The text, trimmed.
        text: String,
        /// The position's FEN.
        fen: String,
    },
    /// Text that is neither the SAN nor the UCI notation of a legal move
    /// ([`parse_san`]).
    IllegalOrUnknown {
        /// The text as given.
        text: String,
        /// The position's FEN.
        fen: String,
    },
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Illegal { text, fen } => write!(f, "illegal move '{text}' in {fen}"),
            MoveParseError::IllegalOrUnknown { text, fen } => {
                write!(f, "illegal or unknown move '{text}' in {fen}")
            }
        }
    }
}

impl std::error::Error for MoveParseError {}

impl Position {
    /// The UCI text of `m`, a move of this position's game: `e2e4`,
    /// `e7e8q`, `P@e4`; castling as the king's move (`e1g1`), or with
    /// [`Position::chess960_notation`] as king takes rook (`e1h1`, `b1a1`).
    /// The castling setup is the same in every position of a game, so the
    /// root position may write a whole principal variation.
    pub fn uci_move(&self, m: Move) -> String {
        if m.is_castle() && self.chess960_notation() {
            format!("{}{}", m.from(), self.castling_rook_of(m))
        } else {
            m.to_string()
        }
    }

    /// The start square of the rook that castling move `m` moves.
    fn castling_rook_of(&self, m: Move) -> Square {
        let color = if m.from().rank() == 0 {
            Color::White
        } else {
            Color::Black
        };
        let right = if m.to().file() == 6 {
            castling::king_side(color)
        } else {
            castling::queen_side(color)
        };
        self.castle_setup().rook(right)
    }

    /// Parses a move in UCI notation (`e2e4`, `e7e8q`, `P@e4`, `n@f6`) and
    /// checks that it is legal here. Castling is read in the form
    /// [`Position::uci_move`] writes, and in the other form where that names
    /// no other legal move: king takes rook (`e1h1`) always, the king's move
    /// (`e1g1`) in Chess960 notation unless the king does not move or a
    /// plain king move is written the same way (then it is that move).
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let t = text.trim();
        let normalized = if let Some((piece, square)) = t.split_once('@') {
            format!(
                "{}@{}",
                piece.to_ascii_uppercase(),
                square.to_ascii_lowercase()
            )
        } else {
            t.to_ascii_lowercase()
        };
        let legal = self.legal_moves();
        if let Some(m) = legal.iter().find(|m| self.uci_move(**m) == normalized) {
            return Ok(*m);
        }
        let chess960 = self.chess960_notation();
        legal
            .iter()
            .copied()
            .find(|m| {
                m.is_castle()
                    && if chess960 {
                        m.from() != m.to() && m.to_string() == normalized
                    } else {
                        format!("{}{}", m.from(), self.castling_rook_of(*m)) == normalized
                    }
            })
            .ok_or_else(|| MoveParseError::Illegal {
                text: t.to_string(),
                fen: self.fen(),
            })
    }
}

/// SAN without the check suffix.
fn san_base(pos: &Position, m: Move) -> String {
    match m.kind() {
        MoveKind::Drop(k) => format!("{}@{}", k.char().to_ascii_uppercase(), m.to()),
        MoveKind::Castle => {
            if m.to().file() == 6 {
                "O-O".into()
            } else {
                "O-O-O".into()
            }
        }
        kind => {
            let moved = pos.moved_kind(m);
            let capture = pos.is_capture(m);
            let mut s = String::new();
            if moved == PieceType::Pawn {
                if capture {
                    s.push((b'a' + m.from().file()) as char);
                    s.push('x');
                }
                s.push_str(&m.to().to_string());
                if let MoveKind::Promotion(p) = kind {
                    s.push('=');
                    s.push(p.char().to_ascii_uppercase());
                }
            } else {
                s.push(moved.char().to_ascii_uppercase());
                let rivals: Vec<Square> = pos
                    .legal_moves()
                    .iter()
                    .filter(|o| {
                        !o.is_drop()
                            && !o.is_castle()
                            && o.to() == m.to()
                            && o.from() != m.from()
                            && pos.moved_kind(**o) == moved
                    })
                    .map(|o| o.from())
                    .collect();
                if !rivals.is_empty() {
                    let same_file = rivals.iter().any(|r| r.file() == m.from().file());
                    let same_rank = rivals.iter().any(|r| r.rank() == m.from().rank());
                    if !same_file {
                        s.push((b'a' + m.from().file()) as char);
                    } else if !same_rank {
                        s.push((b'1' + m.from().rank()) as char);
                    } else {
                        s.push_str(&m.from().to_string());
                    }
                }
                if capture {
                    s.push('x');
                }
                s.push_str(&m.to().to_string());
            }
            s
        }
    }
}

/// Standard algebraic notation of a legal move: `Nf3`, `exd5`, `e8=Q`,
/// `O-O`, drops `N@f3`; `+` for check, `#` for mate (bughouse mate rule).
pub fn san(pos: &Position, m: Move) -> String {
    let mut s = san_base(pos, m);
    let mut after = *pos;
    after.make_move(m);
    if after.in_check() {
        let mate = matches!(
            after.outcome(),
            Some(Outcome::Win {
                reason: EndReason::Checkmate,
                ..
            })
        );
        s.push(if mate { '#' } else { '+' });
    }
    s
}

/// Parses SAN (or UCI notation) into a legal move of `pos`.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    let t = t.replace("0-0-0", "O-O-O").replace("0-0", "O-O");
    let norm = |s: &str| -> String {
        if let Some((p, sq)) = s.split_once('@') {
            format!("{}@{}", p.to_ascii_uppercase(), sq)
        } else {
            s.to_string()
        }
    };
    let want = norm(&t);
    for m in pos.legal_moves().iter() {
        if san_base(pos, *m) == want {
            return Ok(*m);
        }
    }
    pos.parse_uci_move(&t)
        .map_err(|_| MoveParseError::IllegalOrUnknown {
            text: text.to_string(),
            fen: pos.fen(),
        })
}
