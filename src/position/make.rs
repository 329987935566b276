//! Making moves (copy-make: the caller keeps the parent position) and the
//! record of what a move changed, for incremental evaluation.

use super::board::Position;
use super::castling::{color_rights, king_side, queen_side, targets};
use super::zobrist::{KEYS, MAX_POCKET};
use crate::rules::duty_period;
use crate::types::{Color, Move, MoveKind, Piece, PieceType, Square};

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

impl Position {
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
                    // Standard castling only: king on e1/e8, rook dropped on
                    // the corner of a right whose setup is the standard one.
                    let home = Square::E1.relative(us);
                    if self.pieces(us, PieceType::King).has(home) {
                        let right = if to == Square::H1.relative(us) {
                            king_side(us)
                        } else if to == Square::A1.relative(us) {
                            queen_side(us)
                        } else {
                            0
                        };
                        if right != 0 && self.castle.is_standard_right(right) {
                            self.castling |= right;
                        }
                    }
                }
            }
            MoveKind::Castle => {
                let from = m.from();
                let king = Piece::new(us, PieceType::King);
                let rook = Piece::new(us, PieceType::Rook);
                let short = to.file() == 6;
                let right = if short { king_side(us) } else { queen_side(us) };
                let rook_from = self.castle.rook(right);
                let (_, rook_to) = targets(us, short);
                // Both off first: in Chess960 the king may land where the
                // rook stood and the other way round.
                self.remove(king, from);
                self.remove(rook, rook_from);
                self.put(king, to);
                self.put(rook, rook_to);
                if rook_from != rook_to && self.promoted.has(rook_from) {
                    self.promoted ^= rook_from.bb() | rook_to.bb();
                    self.key ^= KEYS.promoted[rook_from.index()] ^ KEYS.promoted[rook_to.index()];
                }
                delta.removed = [Some((king, from)), Some((rook, rook_from))];
                delta.added = [Some((king, to)), Some((rook, rook_to))];
                self.castling &= !color_rights(us);
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
                self.castling &= !self.castle.lost(from, to);
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
        k ^= KEYS.castling[self.castling as usize] ^ self.castle.key();
        if let Some(ep) = self.ep {
            k ^= KEYS.ep_file[ep.file() as usize];
        }
        if self.side == Color::Black {
            k ^= KEYS.side;
        }
        k
    }
}
