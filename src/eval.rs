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

/// Indices into the weight vector: each names the first of its group.
pub mod w {
    /// Board values, chess middlegame: P N B R Q.
    pub const CHESS_MG: usize = 0;
    /// Board values, chess endgame: P N B R Q.
    pub const CHESS_EG: usize = 5;
    /// Board values in drop variants: P N B R Q.
    pub const ZH_BOARD: usize = 10;
    /// Values of pieces in hand in drop variants: P N B R Q.
    pub const ZH_HAND: usize = 15;
    /// Mobility per safe reachable square: N B R Q.
    pub const MOBILITY: usize = 20;
    /// King-zone attack weight per attacking piece kind: P N B R Q.
    pub const ATTACK: usize = 24;
    /// Drop-threat weight per piece kind in the enemy hand: P N B R Q.
    pub const DROP_CHECK: usize = 29;
    /// Bonus per shield pawn.
    pub const SHIELD: usize = 34;
    /// Side-to-move bonus (chess).
    pub const TEMPO: usize = 35;
    /// Side-to-move bonus (drop variants).
    pub const TEMPO_DROPS: usize = 36;
    /// Pawn advancement per rank (drop variants).
    pub const PAWN_ADVANCE_DROPS: usize = 37;
    /// Pawn advancement per rank (chess).
    pub const PAWN_ADVANCE: usize = 38;
    /// Central pawn bonus.
    pub const PAWN_CENTRAL: usize = 39;
    /// Knight centralisation per step.
    pub const KNIGHT_CENTRE: usize = 40;
    /// Bishop centralisation per step.
    pub const BISHOP_CENTRE: usize = 41;
    /// Rook on the 7th rank.
    pub const ROOK_SEVENTH: usize = 42;
    /// Queen centralisation per step.
    pub const QUEEN_CENTRE: usize = 43;
    /// King on its back rank (drop variants).
    pub const KING_HOME: usize = 44;
    /// King penalty per rank advanced (drop variants).
    pub const KING_ADVANCE: usize = 45;
    /// King on a wing (drop variants).
    pub const KING_WING: usize = 46;
    /// King-danger scale in drop variants (danger = units^2 * scale / 1000).
    pub const DANGER_DROPS: usize = 47;
    /// King-danger scale in chess.
    pub const DANGER: usize = 48;
    /// Undefended empty square next to the king (drop variants), in units.
    pub const HOLE: usize = 49;
    /// Antichess liability per piece: P N B R Q K.
    pub const ANTI: usize = 50;
    /// Antichess mobility per square.
    pub const ANTI_MOBILITY: usize = 56;
    /// Number of weights.
    pub const COUNT: usize = 57;
}

/// The evaluation weights as one vector, so that the tuner can adjust them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; w::COUNT]);

/// The weights the engine plays with (tuned with `rukav tune`, see nets/README.md).
pub const DEFAULT_WEIGHTS: Weights = Weights([
    82, 337, 365, 477, 1025, // CHESS_MG
    94, 281, 297, 512, 936, // CHESS_EG
    130, 272, 300, 342, 666, // ZH_BOARD
    140, 310, 340, 478, 700, // ZH_HAND
    9, 15, 16, 10, // MOBILITY (N B R Q)
    11, 6, 3, 6, 8, // ATTACK
    2, 4, 2, 3, 3,   // DROP_CHECK
    13,  // SHIELD
    18,  // TEMPO
    55,  // TEMPO_DROPS
    -5,  // PAWN_ADVANCE_DROPS
    5,   // PAWN_ADVANCE
    14,  // PAWN_CENTRAL
    24,  // KNIGHT_CENTRE
    24,  // BISHOP_CENTRE
    -25, // ROOK_SEVENTH
    -36, // QUEEN_CENTRE
    -17, // KING_HOME
    19,  // KING_ADVANCE
    50,  // KING_WING
    206, // DANGER_DROPS
    100, // DANGER
    4,   // HOLE
    60, 90, 90, 110, 140, 80, // ANTI
    2,  // ANTI_MOBILITY
]);

/// Names of the weight groups, for the tuner's output.
pub const WEIGHT_NAMES: [(&str, usize, usize); 25] = [
    ("CHESS_MG", w::CHESS_MG, 5),
    ("CHESS_EG", w::CHESS_EG, 5),
    ("ZH_BOARD", w::ZH_BOARD, 5),
    ("ZH_HAND", w::ZH_HAND, 5),
    ("MOBILITY", w::MOBILITY, 4),
    ("ATTACK", w::ATTACK, 5),
    ("DROP_CHECK", w::DROP_CHECK, 5),
    ("SHIELD", w::SHIELD, 1),
    ("TEMPO", w::TEMPO, 1),
    ("TEMPO_DROPS", w::TEMPO_DROPS, 1),
    ("PAWN_ADVANCE_DROPS", w::PAWN_ADVANCE_DROPS, 1),
    ("PAWN_ADVANCE", w::PAWN_ADVANCE, 1),
    ("PAWN_CENTRAL", w::PAWN_CENTRAL, 1),
    ("KNIGHT_CENTRE", w::KNIGHT_CENTRE, 1),
    ("BISHOP_CENTRE", w::BISHOP_CENTRE, 1),
    ("ROOK_SEVENTH", w::ROOK_SEVENTH, 1),
    ("QUEEN_CENTRE", w::QUEEN_CENTRE, 1),
    ("KING_HOME", w::KING_HOME, 1),
    ("KING_ADVANCE", w::KING_ADVANCE, 1),
    ("KING_WING", w::KING_WING, 1),
    ("DANGER_DROPS", w::DANGER_DROPS, 1),
    ("DANGER", w::DANGER, 1),
    ("HOLE", w::HOLE, 1),
    ("ANTI", w::ANTI, 6),
    ("ANTI_MOBILITY", w::ANTI_MOBILITY, 1),
];

/// Piece-square bonus (White's view; flipped for Black), small and simple:
/// centralisation for minor pieces, advancement for pawns.
fn psq(wt: &Weights, kind: PieceType, sq: Square, color: Color, drops: bool) -> i32 {
    let v = &wt.0;
    let s = sq.relative(color);
    let file = s.file() as i32;
    let rank = s.rank() as i32;
    let centre = 3 - ((2 * file - 7).abs() / 2).max((2 * rank - 7).abs() / 2); // 0 (edge) .. 3 (centre)
    match kind {
        PieceType::Pawn => {
            let adv = rank - 1;
            let central = if (2..=5).contains(&file) {
                v[w::PAWN_CENTRAL]
            } else {
                0
            };
            if drops {
                adv * v[w::PAWN_ADVANCE_DROPS] + central
            } else {
                adv * v[w::PAWN_ADVANCE] + central * adv / 2
            }
        }
        PieceType::Knight => (centre * 2 - 2) * v[w::KNIGHT_CENTRE] / 2,
        PieceType::Bishop => (centre - 1) * v[w::BISHOP_CENTRE],
        PieceType::Rook => {
            if rank == 6 {
                v[w::ROOK_SEVENTH]
            } else {
                0
            }
        }
        PieceType::Queen => centre * v[w::QUEEN_CENTRE],
        PieceType::King => {
            if drops {
                // Stay home: the king on its back rank, on a wing.
                let back = if rank == 0 {
                    v[w::KING_HOME]
                } else {
                    -v[w::KING_ADVANCE] * rank
                };
                back + if file <= 2 || file >= 5 {
                    v[w::KING_WING]
                } else {
                    0
                }
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
    evaluate_impl(pos, &DEFAULT_WEIGHTS, None)
}

/// Evaluates with other weights (the tuner).
pub fn evaluate_with(pos: &Position, weights: &Weights) -> i32 {
    evaluate_impl(pos, weights, None)
}

/// Evaluates and records the terms.
pub fn evaluate_traced(pos: &Position) -> (i32, Trace) {
    let mut t = Trace::default();
    let v = evaluate_impl(pos, &DEFAULT_WEIGHTS, Some(&mut t));
    (v, t)
}

fn evaluate_impl(pos: &Position, wt: &Weights, trace: Option<&mut Trace>) -> i32 {
    let v = &wt.0;
    let rules = pos.rules();
    if rules.losers_win {
        return evaluate_antichess(pos, wt, trace);
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
                material[ci] += n * v[w::ZH_BOARD + i];
                hand[ci] += pos.pocket(c, *kind) as i32 * v[w::ZH_HAND + i];
            } else {
                mg[ci] += n * v[w::CHESS_MG + i];
                eg[ci] += n * v[w::CHESS_EG + i];
            }
            phase += n * [0, 1, 1, 2, 4][i];
            for sq in bb {
                placement[ci] += psq(wt, *kind, sq, c, drops);
                let reach = match kind {
                    PieceType::Knight => attacks::knight(sq),
                    PieceType::Bishop => attacks::bishop(sq, occ),
                    PieceType::Rook => attacks::rook(sq, occ),
                    PieceType::Queen => attacks::queen(sq, occ),
                    _ => continue,
                };
                mobility[ci] += (reach & mobility_area).count() as i32 * v[w::MOBILITY + i - 1];
            }
        }
        if pos.pieces(c, PieceType::King).nonempty() {
            let k = pos.king_sq(c);
            placement[ci] += psq(wt, PieceType::King, k, c, drops);
            safety[ci] = king_safety(pos, wt, c, drops);
            if rules.king_duty {
                duty[ci] = duty_pressure(pos, c);
            }
        }
    }
    let stm = pos.side_to_move();
    let tempo = if drops {
        v[w::TEMPO_DROPS]
    } else {
        v[w::TEMPO]
    };

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
    if let Some(t) = trace {
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
fn king_safety(pos: &Position, wt: &Weights, c: Color, drops: bool) -> i32 {
    let v = &wt.0;
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
                units += v[w::ATTACK + i] * a.count() as i32;
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
            units += v[w::DROP_CHECK + i] * count * (1 + (n as i32 > 1) as i32);
            attackers += 1;
        }
        // Holes: empty zone squares we do not defend.
        units += (zone & empty & !defended).count() as i32 * v[w::HOLE];
    }
    let forward = zone.forward(c) | zone;
    let shield = (pos.pieces(c, PieceType::Pawn) & forward).count().min(3) as i32;
    let danger = if attackers >= 2 || drops {
        units
            * units
            * if drops {
                v[w::DANGER_DROPS]
            } else {
                v[w::DANGER]
            }
            / 1000
    } else {
        0
    };
    shield * v[w::SHIELD] - danger.min(900)
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
fn evaluate_antichess(pos: &Position, wt: &Weights, trace: Option<&mut Trace>) -> i32 {
    let v = &wt.0;
    let stm = pos.side_to_move();
    let mut count = [0i32; 2];
    let mut mobility = [0i32; 2];
    let occ = pos.occupied();
    for c in Color::ALL {
        let ci = c.index();
        for kind in PieceType::ALL {
            let bb = pos.pieces(c, kind);
            count[ci] += bb.count() as i32 * v[w::ANTI + kind.index()];
            for sq in bb {
                if kind != PieceType::Pawn {
                    mobility[ci] += (attacks::piece(kind, c, sq, occ) & !occ).count() as i32;
                }
            }
        }
    }
    if let Some(t) = trace {
        t.terms.push(("material (liability)", -count[0], -count[1]));
        let m = v[w::ANTI_MOBILITY];
        t.terms.push(("mobility", mobility[0] * m, mobility[1] * m));
    }
    let white = -count[0] + count[1] + v[w::ANTI_MOBILITY] * (mobility[0] - mobility[1]);
    white * stm.sign()
}
