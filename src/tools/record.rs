//! The packed training record that `rukav datagen` writes and `rukav
//! train` and `rukav tune` read.
//!
//! # Record format (64 bytes, little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy bitboard (bit i = square i, a1 = 0) |
//! | 8..24 | pieces in square order, one nibble each (low nibble first): colour * 6 + kind (P N B R Q K = 0..5); up to 32 pieces |
//! | 24..28 | promoted mask: bit i set = the i-th listed piece is promoted |
//! | 28..38 | pockets: White P N B R Q, then Black P N B R Q (counts) |
//! | 38 | flags: bit 0 Black to move; bits 1-4 castling rights (K Q k q); bit 5/6 King's-chess duty done (White/Black) |
//! | 39 | en-passant square (255: none) |
//! | 40 | half-move clock (capped at 255) |
//! | 41 | variant (`Variant::id`: chess 0, crazyhouse 1, bughouse 2, antichess 3, giveaway 4, kingschess 5, suicide 6) |
//! | 42..44 | full-move number (u16) |
//! | 44..46 | search score, White's view, centipawns (i16) |
//! | 46 | game result: 0 Black won, 1 draw, 2 White won |
//! | 47 | reserved (0) |
//! | 48..50 | best move found (the engine's 16-bit `Move`) |
//! | 50..64 | reserved (0) |
//!
//! A file is a plain sequence of records; a trailing partial record (from a
//! run killed while writing) is ignored by the reader.

use rukav::position::placement_fen;
use rukav::{Bitboard, Color, Move, Piece, PieceType, Position, Rules, Square, Variant};

/// Size of one record in bytes.
pub const RECORD_SIZE: usize = 64;

/// Positions scored this far from 0 (either side, centipawns) are not
/// written as records.
pub const RECORD_SCORE_LIMIT: i32 = 2000;

/// Whether the ply of `best` in `pos` can be a training record whatever its
/// score: not in check, `best` neither a capture nor a promotion.
pub fn quiet_ply(pos: &Position, best: Move) -> bool {
    !pos.in_check() && !pos.is_capture(best) && !best.is_promotion()
}

/// Whether data generation writes the ply of `best` in `pos`, searched to
/// `score` (either view), as a record: a quiet ply within the score limit.
/// (Antichess, giveaway and suicide also keep their other plies, with a label taken
/// from a later ply: `GameLog::records` in `src/tools/gamelog.rs`.)
pub fn is_record_ply(pos: &Position, best: Move, score: i32) -> bool {
    quiet_ply(pos, best) && score.abs() < RECORD_SCORE_LIMIT
}

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The packed bytes.
    pub bytes: [u8; RECORD_SIZE],
}

impl Record {
    /// Packs a position with its search score (side-to-move view), best move
    /// and result (from White's view: 0, 1, 2). `None` when the position has
    /// more than 32 pieces on the board.
    pub fn pack(pos: &Position, score_stm: i32, best: Move, result: u8) -> Option<Record> {
        let mut b = [0u8; RECORD_SIZE];
        let occ = pos.occupied();
        if occ.count() > 32 {
            return None;
        }
        b[0..8].copy_from_slice(&occ.0.to_le_bytes());
        let mut promoted = 0u32;
        for (i, sq) in occ.enumerate() {
            let p = pos.piece_on(sq)?;
            let nib = p.index() as u8;
            b[8 + i / 2] |= if i % 2 == 0 { nib } else { nib << 4 };
            if pos.promoted().has(sq) {
                promoted |= 1 << i;
            }
        }
        b[24..28].copy_from_slice(&promoted.to_le_bytes());
        for c in Color::ALL {
            for (k, kind) in PieceType::POCKET.iter().enumerate() {
                b[28 + c.index() * 5 + k] = pos.pocket(c, *kind);
            }
        }
        let mut flags = u8::from(pos.side_to_move() == Color::Black);
        flags |= pos.castling_rights() << 1;
        if pos.duty_done(Color::White) {
            flags |= 1 << 5;
        }
        if pos.duty_done(Color::Black) {
            flags |= 1 << 6;
        }
        b[38] = flags;
        b[39] = pos.ep_square().map_or(255, |s| s.0);
        b[40] = pos.halfmove_clock().min(255) as u8;
        b[41] = pos.variant().id();
        b[42..44].copy_from_slice(&(pos.fullmove_number().min(65535) as u16).to_le_bytes());
        let white_score = score_stm * pos.side_to_move().sign();
        b[44..46].copy_from_slice(&(white_score.clamp(-32000, 32000) as i16).to_le_bytes());
        b[46] = result;
        b[48..50].copy_from_slice(&best.0.to_le_bytes());
        Some(Record { bytes: b })
    }

    /// The variant of the position (`None` for a number no variant has).
    pub fn variant(&self) -> Option<Variant> {
        Variant::from_id(self.bytes[41])
    }

    /// Search score from White's view.
    pub fn score_white(&self) -> i32 {
        i16::from_le_bytes([self.bytes[44], self.bytes[45]]) as i32
    }

    /// Result from White's view: 0.0, 0.5 or 1.0.
    pub fn result_white(&self) -> f64 {
        self.bytes[46].min(2) as f64 / 2.0
    }

    /// The best move stored.
    #[cfg_attr(not(test), allow(dead_code))] // part of the format; read by the tests
    pub fn best_move(&self) -> Move {
        Move(u16::from_le_bytes([self.bytes[48], self.bytes[49]]))
    }

    /// Rebuilds the position under the given rules (of the record's variant).
    pub fn unpack(&self, rules: Rules) -> Result<Position, String> {
        let b = &self.bytes;
        let occ = u64::from_le_bytes(b[0..8].try_into().map_err(|_| "bad record")?);
        let promoted = u32::from_le_bytes(b[24..28].try_into().map_err(|_| "bad record")?);
        let mut board: [Option<(Piece, bool)>; 64] = [None; 64];
        for (i, sq) in Bitboard(occ).enumerate() {
            let nib = if i % 2 == 0 {
                b[8 + i / 2] & 15
            } else {
                b[8 + i / 2] >> 4
            } as usize;
            if nib >= 12 {
                return Err("bad piece code".into());
            }
            let color = if nib < 6 { Color::White } else { Color::Black };
            board[sq.index()] = Some((
                Piece::new(color, PieceType::from_index(nib % 6)),
                promoted >> i & 1 != 0,
            ));
        }
        let mut fen = placement_fen(|sq| board[sq.index()]);
        if rules.drops {
            fen.push('[');
            for c in 0..2 {
                for k in 0..5 {
                    let p = Piece::new(Color::ALL[c], PieceType::POCKET[k]);
                    for _ in 0..b[28 + c * 5 + k] {
                        fen.push(p.char());
                    }
                }
            }
            fen.push(']');
        }
        let flags = b[38];
        fen.push_str(if flags & 1 != 0 { " b " } else { " w " });
        let mut castle = String::new();
        for (bit, c) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if (flags >> 1) & bit != 0 {
                castle.push(c);
            }
        }
        fen.push_str(if castle.is_empty() { "-" } else { &castle });
        fen.push(' ');
        if b[39] < 64 {
            fen.push_str(&Square(b[39]).to_string());
        } else {
            fen.push('-');
        }
        let fullmove = u16::from_le_bytes([b[42], b[43]]);
        fen.push_str(&format!(" {} {}", b[40], fullmove));
        if rules.king_duty {
            fen.push(' ');
            fen.push(if flags & (1 << 5) != 0 { '+' } else { '-' });
            fen.push(if flags & (1 << 6) != 0 { '+' } else { '-' });
        }
        Position::from_fen(&fen, rules).map_err(|e| format!("{e}: {fen}"))
    }
}

/// Reads every whole record of a file.
pub fn read_records(path: &std::path::Path) -> std::io::Result<Vec<Record>> {
    let data = std::fs::read(path)?;
    Ok(data
        .chunks_exact(RECORD_SIZE)
        .map(|c| {
            let mut bytes = [0u8; RECORD_SIZE];
            bytes.copy_from_slice(c);
            Record { bytes }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let rules = Variant::Crazyhouse.rules();
        let fens = [
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[PNq] w KQkq - 3 7",
            "4k3/1P6/8/3pP3/8/8/6p1/R3K2R~[NBpp] w KQ d6 0 31",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen, rules).unwrap();
            let m = pos.legal_moves()[0];
            let r = Record::pack(&pos, 57, m, 2).unwrap();
            let back = r.unpack(rules).unwrap();
            assert_eq!(back.fen(), pos.fen());
            assert_eq!(r.score_white(), 57 * pos.side_to_move().sign());
            assert_eq!(r.best_move(), m);
            assert_eq!(r.result_white(), 1.0);
            assert_eq!(r.variant(), Some(Variant::Crazyhouse));
        }
    }
}
