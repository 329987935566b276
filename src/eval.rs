//! Hand-written evaluation, pocket-aware.
//!
//! Scores are centipawns from the side to move's view. Drop variants count
//! pieces in hand as material (worth more than on the board) and weigh king
//! safety by drop threats: empty squares near the king where the opponent's
//! pocket pieces could land with check. Antichess and giveaway have an
//! evaluation of their own, where material is a liability.

use crate::attacks;
use crate::position::Position;
use crate::rules::duty_period;
use crate::types::{Bitboard, Color, PieceType, Square};

/// The evaluation terms, each White minus Black, for the `eval` command.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// (name, white's part, black's part) per term.
    pub terms: Vec<(&'static str, i32, i32)>,
}

/// Tunable weights. One place, with the values the engine plays with.
pub mod weights {
    /// Board values, chess (middlegame, endgame): P N B R Q.
    pub const CHESS_MG: [i32; 5] = [82, 337, 365, 477, 1025];
    /// Endgame values for chess.
    pub const CHESS_EG: [i32; 5] = [94, 281, 297, 512, 936];
    /// Board values in drop variants: P N B R Q.
    pub const ZH_BOARD: [i32; 5] = [100, 290, 300, 420, 760];
    /// Values of pieces in hand in drop variants.
    pub const ZH_HAND: [i32; 5] = [140, 330, 320, 450, 800];
    /// Mobility per reachable square (N B R Q).
    pub const MOBILITY: [i32; 4] = [4, 4, 2, 1];
    /// King-safety attack weight per attacking piece kind (P N B R Q).
    pub const ATTACK_WEIGHT: [i32; 5] = [1, 3, 2, 3, 5];
    /// Drop-threat weight per piece in hand (P N B R Q), per checking drop square.
    pub const DROP_CHECK_WEIGHT: [i32; 5] = [2, 4, 2, 3, 5];
    /// Bonus per own pawn in the king's shield.
    pub const SHIELD: i32 = 14;
    /// Bonus for the side to move.
    pub const TEMPO: i32 = 18;
    /// Bonus for the side to move in drop variants (initiative is worth more).
    pub const TEMPO_DROPS: i32 = 35;
}

use weights::*;

/// Piece-square bonus (White's view; flipped for Black), small and simple:
/// centralisation for minor pieces, advancement for pawns.
fn psq(kind: PieceType, sq: Square, color: Color, drops: bool) -> i32 {
    let s = sq.relative(color);
    let file = s.file() as i32;
    let rank = s.rank() as i32;
    let centre = 3 - ((2 * file - 7).abs() / 2).max((2 * rank - 7).abs() / 2); // 0 (edge) .. 3 (centre)
    match kind {
        PieceType::Pawn => {
            let adv = rank - 1;
            let central = if (2..=5).contains(&file) { 4 } else { 0 };
            if drops {
                adv * 6 + central
            } else {
                adv * 5 + central * adv / 2
            }
        }
        PieceType::Knight => centre * 10 - 12,
        PieceType::Bishop => centre * 5 - 5,
        PieceType::Rook => {
            if rank == 6 {
                15
            } else {
                0
            }
        }
        PieceType::Queen => centre * 2,
        PieceType::King => {
            if drops {
                // Stay home: the king on its back rank, in a corner.
                let back = if rank == 0 { 20 } else { -15 * rank };
                back + if file <= 2 || file >= 5 { 10 } else { 0 }
            } else {
                0
            }
        }
    }
}

fn king_psq_endgame(sq: Square) -> i32 {
    let file = sq.file() as i32;
    let rank = sq.rank() as i32;
    let centre = 3 - ((2 * file - 7).abs() / 2).max((2 * rank - 7).abs() / 2);
    centre * 10
}

/// Evaluates from the side to move's view.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_impl(pos, None)
}

/// Evaluates and records the terms.
pub fn evaluate_traced(pos: &Position) -> (i32, Trace) {
    let mut t = Trace::default();
    let v = evaluate_impl(pos, Some(&mut t));
    (v, t)
}

fn evaluate_impl(pos: &Position, mut trace: Option<&mut Trace>) -> i32 {
    let rules = pos.rules();
    if rules.losers_win {
        return evaluate_antichess(pos, trace);
    }
    let drops = rules.drops;
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut material = [0i32; 2];
    let mut hand = [0i32; 2];
    let mut placement = [0i32; 2];
    let mut mobility = [0i32; 2];
    let mut safety = [0i32; 2];
    let mut duty = [0i32; 2];
    let occ = pos.occupied();
    let mut phase = 0i32;

    for c in Color::ALL {
        let ci = c.index();
        let them = c.flip();
        let their_pawn_attacks = pos.pieces(them, PieceType::Pawn).pawn_attacks(them);
        let mobility_area = !pos.color_bb(c) & !their_pawn_attacks;
        for (i, kind) in PieceType::POCKET.iter().enumerate() {
            let bb = pos.pieces(c, *kind);
            let n = bb.count() as i32;
            if drops {
                material[ci] += n * ZH_BOARD[i];
                hand[ci] += pos.pocket(c, *kind) as i32 * ZH_HAND[i];
            } else {
                mg[ci] += n * CHESS_MG[i];
                eg[ci] += n * CHESS_EG[i];
            }
            phase += n * [0, 1, 1, 2, 4][i];
            for sq in bb {
                placement[ci] += psq(*kind, sq, c, drops);
                let reach = match kind {
                    PieceType::Knight => attacks::knight(sq),
                    PieceType::Bishop => attacks::bishop(sq, occ),
                    PieceType::Rook => attacks::rook(sq, occ),
                    PieceType::Queen => attacks::queen(sq, occ),
                    _ => continue,
                };
                mobility[ci] += (reach & mobility_area).count() as i32 * MOBILITY[i - 1];
            }
        }
        if pos.pieces(c, PieceType::King).nonempty() {
            let k = pos.king_sq(c);
            placement[ci] += psq(PieceType::King, k, c, drops);
            safety[ci] = king_safety(pos, c, drops);
            if rules.king_duty {
                duty[ci] = duty_pressure(pos, c);
            }
        }
    }
    let stm = pos.side_to_move();
    let tempo = if drops { TEMPO_DROPS } else { TEMPO };

    let white_minus_black = if drops {
        let w = material[0] + hand[0] + placement[0] + mobility[0] + safety[0] + duty[0];
        let b = material[1] + hand[1] + placement[1] + mobility[1] + safety[1] + duty[1];
        w - b
    } else {
        // Tapered: phase 24 = all pieces, 0 = pawn endgame.
        let ph = phase.min(24);
        let mut total = [0i32; 2];
        for c in Color::ALL {
            let ci = c.index();
            let k = pos.king_sq(c);
            let mgv = mg[ci] + placement[ci] + mobility[ci] + safety[ci];
            let egv = eg[ci] + placement[ci] / 2 + mobility[ci] + king_psq_endgame(k);
            total[ci] = (mgv * ph + egv * (24 - ph)) / 24 + duty[ci];
        }
        total[0] - total[1]
    };
    if let Some(t) = trace.as_deref_mut() {
        if drops {
            t.terms.push(("material (board)", material[0], material[1]));
            t.terms.push(("material (pocket)", hand[0], hand[1]));
        } else {
            t.terms.push(("material (mg)", mg[0], mg[1]));
            t.terms.push(("material (eg)", eg[0], eg[1]));
        }
        t.terms.push(("placement", placement[0], placement[1]));
        t.terms.push(("mobility", mobility[0], mobility[1]));
        t.terms.push(("king safety", safety[0], safety[1]));
        if rules.king_duty {
            t.terms.push(("king duty", duty[0], duty[1]));
        }
        let tw = if stm.is_white() { tempo } else { 0 };
        t.terms.push(("tempo", tw, tempo - tw));
    }
    white_minus_black * stm.sign() + tempo
}

/// King safety of `c` (negative is danger): enemy pieces attacking the king
/// zone, enemy drop threats (checking drop squares for each piece in the
/// enemy's hand), and the pawn shield.
fn king_safety(pos: &Position, c: Color, drops: bool) -> i32 {
    let them = c.flip();
    let k = pos.king_sq(c);
    let occ = pos.occupied();
    let zone = attacks::king(k) | k.bb();
    let mut units = 0i32;
    let mut attackers = 0;
    for (i, kind) in PieceType::POCKET.iter().enumerate() {
        for sq in pos.pieces(them, *kind) {
            let a = attacks::piece(*kind, them, sq, occ) & zone;
            if a.nonempty() {
                attackers += 1;
                units += ATTACK_WEIGHT[i] * a.count() as i32;
            }
        }
    }
    let mut defended = Bitboard::EMPTY;
    if drops {
        // Squares we defend (by anything but the king) near the king.
        for kind in PieceType::POCKET {
            for sq in pos.pieces(c, kind) {
                defended |= attacks::piece(kind, c, sq, occ);
            }
        }
        let empty = !occ;
        for (i, kind) in PieceType::POCKET.iter().enumerate() {
            let n = pos.pocket(them, *kind);
            if n == 0 {
                continue;
            }
            let checks = match kind {
                PieceType::Pawn => attacks::pawn(c, k) & !(Bitboard::RANK_1 | Bitboard::RANK_8),
                PieceType::Knight => attacks::knight(k),
                PieceType::Bishop => attacks::bishop(k, occ),
                PieceType::Rook => attacks::rook(k, occ),
                _ => attacks::queen(k, occ),
            } & empty;
            let near = checks & (zone | attacks::knight(k));
            let weak = checks & !defended;
            let count = (near.count() + weak.count()).min(8) as i32;
            units += DROP_CHECK_WEIGHT[i] * count * (1 + (n as i32 > 1) as i32);
            attackers += 1;
        }
        // Holes: empty zone squares we do not defend.
        units += (zone & empty & !defended).count() as i32 * 2;
    }
    let forward = zone.forward(c) | zone;
    let shield = (pos.pieces(c, PieceType::Pawn) & forward).count().min(3) as i32;
    let danger = if attackers >= 2 || drops {
        units * units / if drops { 6 } else { 10 }
    } else {
        0
    };
    shield * SHIELD - danger.min(900)
}

/// King's chess: pressure when the king has not moved yet in its period.
fn duty_pressure(pos: &Position, c: Color) -> i32 {
    if pos.duty_done(c) {
        return 0;
    }
    // White's next move after Black's comes with the next full-move number.
    let number =
        pos.fullmove_number() + u32::from(c == Color::White && pos.side_to_move() == Color::Black);
    let Some((_, end)) = duty_period(c.is_white(), number) else {
        return 0;
    };
    let left = (end - number) as i32;
    let k = pos.king_sq(c);
    let free = (attacks::king(k) & !pos.occupied()).count() as i32;
    let cramped = if free == 0 {
        60
    } else if free == 1 {
        20
    } else {
        0
    };
    -(cramped + 10) / (left + 1)
}

/// Antichess/giveaway: fewer pieces is better, and so is an opponent forced
/// to take; a lone king or few pawns are good.
fn evaluate_antichess(pos: &Position, trace: Option<&mut Trace>) -> i32 {
    let stm = pos.side_to_move();
    let mut count = [0i32; 2];
    let mut mobility = [0i32; 2];
    let occ = pos.occupied();
    for c in Color::ALL {
        let ci = c.index();
        for kind in PieceType::ALL {
            let bb = pos.pieces(c, kind);
            let w = match kind {
                PieceType::Pawn => 60,
                PieceType::King => 80,
                PieceType::Knight => 90,
                PieceType::Bishop => 90,
                PieceType::Rook => 110,
                PieceType::Queen => 140,
            };
            count[ci] += bb.count() as i32 * w;
            for sq in bb {
                if kind != PieceType::Pawn {
                    mobility[ci] += (attacks::piece(kind, c, sq, occ) & !occ).count() as i32;
                }
            }
        }
    }
    if let Some(t) = trace {
        t.terms.push(("material (liability)", -count[0], -count[1]));
        t.terms.push(("mobility", mobility[0] * 2, mobility[1] * 2));
    }
    let white = -count[0] + count[1] + 2 * (mobility[0] - mobility[1]);
    white * stm.sign()
}
