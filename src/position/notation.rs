//! Moves as text: UCI long algebraic (`e2e4`, `e7e8q`, `P@e4`, castling as
//! the king's move), read and checked against the legal moves.

use super::Position;
use crate::types::Move;

impl Position {
    /// Parses a move in UCI notation (`e2e4`, `e7e8q`, `P@e4`, `n@f6`,
    /// castling as the king's move) and checks that it is legal here.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, String> {
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
        legal
            .iter()
            .copied()
            .find(|m| m.to_string() == normalized)
            .ok_or_else(|| format!("illegal move '{t}' in {}", self.fen()))
    }
}
