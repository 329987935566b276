//! Self-play data generation (`rukav datagen`) and the packed training
//! record it writes, read back by the tuner (and later the NNUE trainer).
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
//! | 41 | variant (index in `Variant::ALL`: chess, crazyhouse, bughouse, antichess, giveaway, kingschess) |
//! | 42..44 | full-move number (u16) |
//! | 44..46 | search score, White's view, centipawns (i16) |
//! | 46 | game result: 0 Black won, 1 draw, 2 White won |
//! | 47 | reserved (0) |
//! | 48..50 | best move found (the engine's 16-bit `Move`) |
//! | 50..64 | reserved (0) |
//!
//! A file is a plain sequence of records; a trailing partial record (from a
//! run killed while writing) is ignored by the reader.

use crate::engine::Engine;
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::search::{Limits, MATE_BOUND};
use crate::types::{Color, Move, Piece, PieceType, Square};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// Size of one record in bytes.
pub const RECORD_SIZE: usize = 64;

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
        b[41] = Variant::ALL
            .iter()
            .position(|v| *v == pos.variant())
            .unwrap_or(0) as u8;
        b[42..44].copy_from_slice(&(pos.fullmove_number().min(65535) as u16).to_le_bytes());
        let white_score = score_stm * pos.side_to_move().sign();
        b[44..46].copy_from_slice(&(white_score.clamp(-32000, 32000) as i16).to_le_bytes());
        b[46] = result;
        b[48..50].copy_from_slice(&best.0.to_le_bytes());
        Some(Record { bytes: b })
    }

    /// The variant of the position.
    pub fn variant(&self) -> Variant {
        Variant::ALL[(self.bytes[41] as usize).min(5)]
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
    pub fn best_move(&self) -> Move {
        Move(u16::from_le_bytes([self.bytes[48], self.bytes[49]]))
    }

    /// Rebuilds the position under the given rules (of the record's variant).
    pub fn unpack(&self, rules: Rules) -> Result<Position, String> {
        let b = &self.bytes;
        let occ = u64::from_le_bytes(b[0..8].try_into().map_err(|_| "bad record")?);
        let promoted = u32::from_le_bytes(b[24..28].try_into().map_err(|_| "bad record")?);
        let mut board: [Option<(Piece, bool)>; 64] = [None; 64];
        for (i, sq) in crate::types::Bitboard(occ).enumerate() {
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
        let mut fen = crate::position::placement_fen(|sq| board[sq.index()]);
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

/// Settings of a data-generation run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Rules to play.
    pub rules: Rules,
    /// Index of the first game to play (a resumed run starts where the last
    /// one stopped).
    pub first_game: u64,
    /// Games in the whole run: indices `first_game .. games` are played.
    pub games: u64,
    /// Node budget per move.
    pub nodes: u64,
    /// Worker threads (one game each at a time).
    pub threads: usize,
    /// Opening FENs to start from (empty: the start position).
    pub openings: Vec<String>,
    /// Random plies played before the engine takes over.
    pub random_plies: u32,
    /// Seed of the random openings.
    pub seed: u64,
}

/// splitmix64: a small, fast, deterministic generator (openings here, random
/// playouts in the tests).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Plays one self-play game; returns its usable positions packed.
fn play_game(cfg: &DatagenConfig, rng: &mut Rng, engine: &mut Engine) -> Vec<Record> {
    let rules = cfg.rules;
    let start = if cfg.openings.is_empty() {
        Position::start_with(rules)
    } else {
        let fen = &cfg.openings[rng.below(cfg.openings.len())];
        match Position::from_fen(fen, rules) {
            Ok(p) => p,
            Err(_) => Position::start_with(rules),
        }
    };
    let mut pos = start;
    let plies = cfg.random_plies + (rng.below(2) as u32);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            return Vec::new();
        }
        pos.make_move(moves[rng.below(moves.len())]);
    }
    engine.new_game();
    engine.set_position(pos, Vec::new());
    let mut keys = vec![pos.key()];
    let mut kept: Vec<(Position, i32, Move)> = Vec::new();
    let mut winning_streak = 0i32;
    let result: u8;
    loop {
        let pos = *engine.position();
        if let Some(o) = pos.outcome() {
            result = match o {
                crate::outcome::Outcome::Win { winner, .. } => {
                    if winner == Color::White {
                        2
                    } else {
                        0
                    }
                }
                crate::outcome::Outcome::Draw { .. } => 1,
            };
            break;
        }
        if crate::outcome::is_repetition(&keys, pos.halfmove_clock() as usize, 3)
            || keys.len() > 400
        {
            result = 1;
            break;
        }
        if !pos.has_legal_move() {
            // Bughouse: a side that must wait for a piece; count it as lost here.
            result = if pos.side_to_move() == Color::White {
                0
            } else {
                2
            };
            break;
        }
        let r = engine.search_sync(
            Limits {
                nodes: Some(cfg.nodes),
                multipv: 1,
                ..Limits::default()
            },
            &|_| {},
        );
        if r.best.is_null() {
            result = 1;
            break;
        }
        let white_score = r.score * pos.side_to_move().sign();
        // Adjudicate decided games: mate found, or a big score held for 8 plies.
        if r.score.abs() >= MATE_BOUND {
            result = if white_score > 0 { 2 } else { 0 };
            break;
        }
        if white_score.abs() > 1500 {
            winning_streak = if white_score.signum() == winning_streak.signum() {
                winning_streak + white_score.signum()
            } else {
                white_score.signum()
            };
            if winning_streak.abs() >= 8 {
                result = if winning_streak > 0 { 2 } else { 0 };
                break;
            }
        } else {
            winning_streak = 0;
        }
        let quiet = !pos.in_check() && !pos.is_capture(r.best) && !r.best.is_promotion();
        if quiet && r.score.abs() < 2000 {
            kept.push((pos, r.score, r.best));
        }
        engine.play(r.best);
        keys.push(engine.position().key());
    }
    kept.iter()
        .filter_map(|(p, s, m)| Record::pack(p, *s, *m, result))
        .collect()
}

/// The generator of game `index` of a run with `seed`: every game draws its
/// opening from its own stream, so the data do not depend on which thread
/// played which game.
pub fn game_rng(seed: u64, index: u64) -> Rng {
    let mut mix = Rng(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407));
    Rng(mix.next_u64())
}

/// Games finished out of order, held until every game before them is written.
struct InOrder {
    /// Finished games by index.
    pending: std::collections::BTreeMap<u64, Vec<u8>>,
    /// The next game index to write.
    next: u64,
    /// Bytes written so far by this run.
    bytes: u64,
}

/// Runs data generation: plays games `cfg.first_game .. cfg.games` and
/// appends their records to `out` in game order, so a run is reproducible
/// byte for byte whatever the thread count (each game has its own seed and
/// its own cleared hash table, and a node budget, not time, ends each search).
/// `progress` receives a line now and then; `checkpoint` receives (next game
/// index, bytes written by this run) after each write, which is what a
/// resumed run needs; `stop` ends the run after the games under way.
/// Returns (games written, positions written).
pub fn run(
    cfg: &DatagenConfig,
    out: &mut (dyn Write + Send),
    stop: &AtomicBool,
    progress: &(dyn Fn(String) + Sync),
    checkpoint: &(dyn Fn(u64, u64) + Sync),
) -> std::io::Result<(u64, u64)> {
    let next_index = AtomicU64::new(cfg.first_game);
    let written = Mutex::new((
        out,
        InOrder {
            pending: std::collections::BTreeMap::new(),
            next: cfg.first_game,
            bytes: 0,
        },
    ));
    let error: Mutex<Option<std::io::Error>> = Mutex::new(None);
    let t0 = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            let next_index = &next_index;
            let written = &written;
            let error = &error;
            scope.spawn(move || {
                let mut engine = Engine::new();
                engine.set_rules(cfg.rules);
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next_index.fetch_add(1, Ordering::Relaxed);
                    if index >= cfg.games {
                        break;
                    }
                    let records = play_game(cfg, &mut game_rng(cfg.seed, index), &mut engine);
                    let mut bytes = Vec::with_capacity(records.len() * RECORD_SIZE);
                    for r in &records {
                        bytes.extend_from_slice(&r.bytes);
                    }
                    let Ok(mut guard) = written.lock() else {
                        break;
                    };
                    let (out, order) = &mut *guard;
                    order.pending.insert(index, bytes);
                    let before = order.next;
                    while let Some(bytes) = order.pending.remove(&order.next) {
                        if let Err(e) = out.write_all(&bytes).and_then(|_| out.flush()) {
                            if let Ok(mut slot) = error.lock() {
                                *slot = Some(e);
                            }
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                        order.bytes += bytes.len() as u64;
                        order.next += 1;
                    }
                    if order.next == before {
                        continue;
                    }
                    checkpoint(order.next, order.bytes);
                    let g = order.next - cfg.first_game;
                    let p = order.bytes / RECORD_SIZE as u64;
                    if g / 10 != (before - cfg.first_game) / 10 || order.next == cfg.games {
                        let secs = t0.elapsed().as_secs_f64().max(1e-3);
                        progress(format!(
                            "games {}/{} positions {p} ({:.1} games/s, {:.0} positions/s)",
                            order.next,
                            cfg.games,
                            g as f64 / secs,
                            p as f64 / secs
                        ));
                    }
                }
            });
        }
    });
    if let Ok(mut slot) = error.lock() {
        if let Some(e) = slot.take() {
            return Err(e);
        }
    }
    let totals = match written.lock() {
        Ok(guard) => (
            guard.1.next - cfg.first_game,
            guard.1.bytes / RECORD_SIZE as u64,
        ),
        Err(_) => (0, 0),
    };
    Ok(totals)
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
            assert_eq!(r.variant(), Variant::Crazyhouse);
        }
    }
}
