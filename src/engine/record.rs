//! The game record: the position a game (or a `position` command) starts
//! from, the moves played since, the keys of every position reached (for
//! repetitions) and the current position. Pockets changed from outside (a
//! bughouse `holding`) change the current position in place.

use crate::position::{MoveParseError, PocketError, Position};
use crate::rules::Rules;
use crate::types::{Color, Move, PieceType};

/// The moves of a game from its base position, and where they lead.
#[derive(Clone, Debug)]
pub(super) struct GameRecord {
    base: Position,
    position: Position,
    history: Vec<u64>,
    moves: Vec<Move>,
}

impl GameRecord {
    /// A game at `start` with no move played.
    pub(super) fn new(start: Position) -> GameRecord {
        GameRecord {
            base: start,
            position: start,
            history: vec![start.key()],
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub(super) fn position(&self) -> &Position {
        &self.position
    }

    /// The position the move list starts from.
    pub(super) fn base(&self) -> &Position {
        &self.base
    }

    /// Moves played from the base position.
    pub(super) fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of the game's positions, the current one last.
    pub(super) fn history(&self) -> &[u64] {
        &self.history
    }

    /// Starts again from `start` with `moves` (already checked legal) played.
    pub(super) fn set(&mut self, start: Position, moves: Vec<Move>) {
        self.base = start;
        let mut pos = start;
        let mut history = vec![pos.key()];
        for &m in &moves {
            pos.make_move(m);
            history.push(pos.key());
        }
        self.position = pos;
        self.history = history;
        self.moves = moves;
    }

    /// Parses and plays `moves` from `start`, failing at the first illegal one.
    pub(super) fn replay(start: &Position, moves: &[&str]) -> Result<Vec<Move>, MoveParseError> {
        let mut pos = *start;
        let mut out = Vec::with_capacity(moves.len());
        for text in moves {
            let m = pos.parse_uci_move(text)?;
            pos.make_move(m);
            out.push(m);
        }
        Ok(out)
    }

    /// Plays one more move on the current position.
    pub(super) fn play(&mut self, m: Move) {
        self.position.make_move(m);
        self.history.push(self.position.key());
        self.moves.push(m);
    }

    /// Takes back the last `n` moves (all of them when there are fewer).
    pub(super) fn undo(&mut self, n: usize) {
        let keep = self.moves.len().saturating_sub(n);
        let moves = self.moves[..keep].to_vec();
        self.set(self.base, moves);
    }

    /// Both pockets of the current position as counts `[colour][piece]`.
    pub(super) fn pocket_counts(&self) -> [[u8; 5]; 2] {
        let mut counts = [[0u8; 5]; 2];
        for c in Color::ALL {
            for k in PieceType::POCKET {
                counts[c.index()][k.index()] = self.position.pocket(c, k);
            }
        }
        counts
    }

    /// The current position with both pockets set to `counts`; the record
    /// is not changed ([`GameRecord::replace_position`] does that).
    pub(super) fn with_pockets(&self, counts: [[u8; 5]; 2]) -> Result<Position, PocketError> {
        let mut pos = self.position;
        for c in Color::ALL {
            for k in PieceType::POCKET {
                while pos.pocket(c, k) > counts[c.index()][k.index()] {
                    pos.remove_from_pocket(c, k)?;
                }
                while pos.pocket(c, k) < counts[c.index()][k.index()] {
                    pos.add_to_pocket(c, k)?;
                }
            }
        }
        Ok(pos)
    }

    /// Replaces the current position by `pos`, the same position changed
    /// from outside (its pockets, or its rules): the moves stay, the last
    /// key becomes `pos`'s.
    pub(super) fn replace_position(&mut self, pos: &Position) {
        self.position.clone_from(pos);
        if let Some(last) = self.history.last_mut() {
            *last = pos.key();
        }
    }

    /// Reads the current position again under `rules` (other house rules
    /// of the same variant); where its FEN does not read under them, the
    /// rules change in place. The key history stays.
    pub(super) fn reread(&mut self, rules: Rules) {
        let fen = self.position.fen();
        match Position::from_fen(&fen, rules) {
            Ok(p) => self.position.clone_from(&p),
            Err(_) => self.position.set_rules(rules),
        }
    }
}
