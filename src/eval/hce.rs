//! The hand-written evaluation, pocket-aware: the fallback where no
//! network serves the variant, and the baseline.
//!
//! Scores are centipawns from the side to move's view. Drop variants count
//! pieces in hand as material (worth more than on the board) and weigh king
//! safety by drop threats: empty squares near the king where the opponent's
//! pocket pieces could land with check. Antichess, giveaway and suicide have an
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

/// Declares the weight groups once: each group's index constant in [`w`],
/// its default values in [`DEFAULT_WEIGHTS`] and its name in
/// [`WEIGHT_NAMES`] come from the same line.
macro_rules! weight_groups {
    ($( $(#[$doc:meta])* $name:ident = [$($v:expr),+ $(,)?]; )*) => {
        /// Indices into the weight vector: each names the first of its group.
        pub mod w {
            #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
            #[repr(usize)]
            enum Group { $($name),* }
            const LENGTHS: &[usize] = &[$([$($v),+].len()),*];
            const fn start(group: usize) -> usize {
                let mut i = 0;
                let mut sum = 0;
                while i < group {
                    sum += LENGTHS[i];
                    i += 1;
                }
                sum
            }
            $( $(#[$doc])* pub const $name: usize = start(Group::$name as usize); )*
            /// Number of weights.
            pub const COUNT: usize = start(LENGTHS.len());
        }

        /// The weights the engine plays with (tuned with `rukav tune`, see nets/README.md).
        pub const DEFAULT_WEIGHTS: Weights = Weights([$($($v),+),*]);

        /// Names of the weight groups (name, first index, length), for the tuner's output.
        pub const WEIGHT_NAMES: &[(&str, usize, usize)] =
            &[$((stringify!($name), w::$name, [$($v),+].len())),*];
    };
}

weight_groups! {
    /// Board values, chess middlegame: P N B R Q.
    CHESS_MG = [82, 337, 365, 477, 1025];
    /// Board values, chess endgame: P N B R Q.
    CHESS_EG = [94, 281, 297, 512, 936];
    /// Board values in drop variants: P N B R Q.
    ZH_BOARD = [130, 272, 300, 342, 666];
    /// Values of pieces in hand in drop variants: P N B R Q.
    ZH_HAND = [140, 310, 340, 478, 700];
    /// Mobility per safe reachable square: N B R Q.
    MOBILITY = [9, 15, 16, 10];
    /// King-zone attack weight per attacking piece kind: P N B R Q.
    ATTACK = [11, 6, 3, 6, 8];
    /// Drop-threat weight per piece kind in the enemy hand: P N B R Q.
    DROP_CHECK = [2, 4, 2, 3, 3];
    /// Bonus per shield pawn.
    SHIELD = [13];
    /// Side-to-move bonus (chess).
    TEMPO = [18];
    /// Side-to-move bonus (drop variants).
    TEMPO_DROPS = [55];
    /// Pawn advancement per rank (drop variants).
    PAWN_ADVANCE_DROPS = [-5];
    /// Pawn advancement per rank (chess).
    PAWN_ADVANCE = [5];
    /// Central pawn bonus.
    PAWN_CENTRAL = [14];
    /// Knight centralisation per step.
    KNIGHT_CENTRE = [24];
    /// Bishop centralisation per step.
    BISHOP_CENTRE = [24];
    /// Rook on the 7th rank.
    ROOK_SEVENTH = [-25];
    /// Queen centralisation per step.
    QUEEN_CENTRE = [-36];
    /// King on its back rank (drop variants).
    KING_HOME = [-17];
    /// King penalty per rank advanced (drop variants).
    KING_ADVANCE = [19];
    /// King on a wing (drop variants).
    KING_WING = [50];
    /// King-danger scale in drop variants (danger = units^2 * scale / 1000).
    DANGER_DROPS = [206];
    /// King-danger scale in chess.
    DANGER = [100];
    /// Undefended empty square next to the king (drop variants), in units.
    HOLE = [4];
    /// Antichess liability per piece: P N B R Q K.
    ANTI = [64, 93, 91, 115, 132, -2];
    /// Antichess mobility per empty square a piece reaches: N B R Q K.
    ANTI_MOBILITY = [33, 28, 31, 36, 36];
    /// Antichess: having a capture (hence owing one) is a liability; this
    /// weight is divided by one plus the number of those captures the
    /// opponent must answer by taking back.
    ANTI_CAPTURE = [3106];
    /// Antichess: per empty square a piece could move to where the opponent
    /// would have to take it (a forcing move), and again when we cover that
    /// square at most once (the exchange stops there).
    ANTI_FORCE = [167, 168];
    /// The four antichess groups above again, for the endgame (few pieces
    /// left): the evaluation blends the two sets by the pieces on the board.
    /// Antichess endgame liability per piece: P N B R Q K.
    ANTI_EG = [85, 73, 115, 111, 138, -5];
    /// Antichess endgame mobility per empty square: N B R Q K.
    ANTI_MOBILITY_EG = [45, 22, 28, 21, 60];
    /// Antichess endgame owed-capture liability.
    ANTI_CAPTURE_EG = [3243];
    /// Antichess endgame forcing squares (once, and again when covered once).
    ANTI_FORCE_EG = [147, 145];
}

/// The evaluation weights as one vector, so that the tuner can adjust them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; w::COUNT]);

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
    with_playing_weights(|wt| evaluate_impl(pos, wt, None))
}

/// Runs `f` with the weights the engine plays with: the defaults.
#[cfg(not(feature = "tune"))]
#[inline(always)]
fn with_playing_weights<R>(f: impl FnOnce(&Weights) -> R) -> R {
    f(&DEFAULT_WEIGHTS)
}

/// Runs `f` with the weights the engine plays with: in a tuning build, the
/// values `setoption` gave ([`set_tuned_weight`]), defaults elsewhere.
#[cfg(feature = "tune")]
fn with_playing_weights<R>(f: impl FnOnce(&Weights) -> R) -> R {
    let tuned = Weights(std::array::from_fn(|i| {
        TUNED[i].load(std::sync::atomic::Ordering::Relaxed)
    }));
    f(&tuned)
}

/// The weights of a tuning build, set one by one by `setoption`.
#[cfg(feature = "tune")]
static TUNED: once_cell::sync::Lazy<[std::sync::atomic::AtomicI32; w::COUNT]> =
    once_cell::sync::Lazy::new(|| {
        std::array::from_fn(|i| std::sync::atomic::AtomicI32::new(DEFAULT_WEIGHTS.0[i]))
    });

/// Sets weight `index` (an index of the weight vector) in a tuning build.
#[cfg(feature = "tune")]
pub fn set_tuned_weight(index: usize, value: i32) {
    if let Some(slot) = TUNED.get(index) {
        slot.store(value, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Evaluates with other weights (the tuner).
pub fn evaluate_with(pos: &Position, weights: &Weights) -> i32 {
    evaluate_impl(pos, weights, None)
}

/// Evaluates and records the terms.
pub fn evaluate_traced(pos: &Position) -> (i32, Trace) {
    let mut t = Trace::default();
    let v = with_playing_weights(|wt| evaluate_impl(pos, wt, Some(&mut t)));
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
            phase += n * PIECE_PHASE[kind.index()];
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

/// Antichess/giveaway/suicide: fewer pieces is better, and so is an opponent forced
/// to take; a lone king or few pawns are good. Tempo decides most games:
/// owing a capture is bad, a move that forces the opponent to capture is
/// good, and mobility keeps those moves available.
fn evaluate_antichess(pos: &Position, wt: &Weights, trace: Option<&mut Trace>) -> i32 {
    let v = &wt.0;
    let stm = pos.side_to_move();
    let occ = pos.occupied();
    // Each term is summed twice, with the middlegame and the endgame
    // weights ([mg, eg] per colour), and blended by the phase below.
    let mut count = [[0i32; 2]; 2];
    let mut mobility = [[0i32; 2]; 2];
    let mut phase = 0i32;
    // Squares each side attacks, attacks twice, and could move a piece to
    // without capturing.
    let mut attacked = [Bitboard::EMPTY; 2];
    let mut attacked_twice = [Bitboard::EMPTY; 2];
    let mut quiet_targets = [Bitboard::EMPTY; 2];
    for c in Color::ALL {
        let ci = c.index();
        for kind in PieceType::ALL {
            let bb = pos.pieces(c, kind);
            let n = bb.count() as i32;
            count[ci][0] += n * v[w::ANTI + kind.index()];
            count[ci][1] += n * v[w::ANTI_EG + kind.index()];
            phase += n * PIECE_PHASE[kind.index()];
            for sq in bb {
                let a = attacks::piece(kind, c, sq, occ);
                attacked_twice[ci] |= attacked[ci] & a;
                attacked[ci] |= a;
                if kind != PieceType::Pawn {
                    let reach = (a & !occ).count() as i32;
                    mobility[ci][0] += reach * v[w::ANTI_MOBILITY + kind.index() - 1];
                    mobility[ci][1] += reach * v[w::ANTI_MOBILITY_EG + kind.index() - 1];
                    if kind != PieceType::King {
                        quiet_targets[ci] |= a & !occ;
                    }
                }
            }
        }
        let pushes = pos.pieces(c, PieceType::Pawn).forward(c) & !occ;
        let doubles = (pushes & Bitboard::relative_rank(c, 2)).forward(c) & !occ;
        quiet_targets[ci] |= pushes | doubles;
    }
    let mut capture = [[0i32; 2]; 2];
    let mut force = [[0i32; 2]; 2];
    for c in Color::ALL {
        let (us, them) = (c.index(), c.flip().index());
        let captures = attacked[us] & pos.color_bb(c.flip());
        if captures.nonempty() {
            let retaken = (captures & attacked[them] & !attacked_twice[us]).count() as i32;
            capture[us] = [
                v[w::ANTI_CAPTURE] / (1 + retaken),
                v[w::ANTI_CAPTURE_EG] / (1 + retaken),
            ];
        }
        let forcing = quiet_targets[us] & attacked[them];
        let (once, loose) = (
            forcing.count() as i32,
            (forcing & !attacked_twice[us]).count() as i32,
        );
        force[us] = [
            v[w::ANTI_FORCE] * once + v[w::ANTI_FORCE + 1] * loose,
            v[w::ANTI_FORCE_EG] * once + v[w::ANTI_FORCE_EG + 1] * loose,
        ];
    }
    // Middlegame share, 0 to ANTI_PHASE_SPAN.
    let mg = (phase - ANTI_PHASE_EG).clamp(0, ANTI_PHASE_SPAN);
    let blend = |x: [i32; 2]| (x[0] * mg + x[1] * (ANTI_PHASE_SPAN - mg)) / ANTI_PHASE_SPAN;
    let [count, mobility, capture, force] = [count, mobility, capture, force].map(|t| t.map(blend));
    if let Some(t) = trace {
        t.terms.push(("material (liability)", -count[0], -count[1]));
        t.terms.push(("mobility", mobility[0], mobility[1]));
        t.terms.push(("owed captures", -capture[0], -capture[1]));
        t.terms.push(("forcing moves", force[0], force[1]));
    }
    let white =
        -count[0] + count[1] + mobility[0] - mobility[1] - capture[0] + capture[1] + force[0]
            - force[1];
    white * stm.sign()
}

/// Game phase weight per piece on the board (P N B R Q K): 24 with all
/// pieces. Chess blends its middlegame and endgame values over 0-24.
const PIECE_PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Antichess, giveaway and suicide blend theirs over a narrower range of
/// [`PIECE_PHASE`]: the middlegame weights alone at `ANTI_PHASE_EG +
/// ANTI_PHASE_SPAN` (22, nearly all pieces) or more, the endgame weights
/// alone at `ANTI_PHASE_EG` (6: a queen and a rook, or six minor pieces) or
/// less, and a linear blend between.
const ANTI_PHASE_EG: i32 = 6;
/// See [`ANTI_PHASE_EG`].
const ANTI_PHASE_SPAN: i32 = 16;

#[cfg(test)]
mod tests {
    use super::*;

    /// The groups tile the weight vector in declaration order.
    #[test]
    fn weight_groups_tile_the_vector() {
        assert_eq!(w::CHESS_MG, 0);
        assert_eq!(w::ZH_HAND, 15);
        assert_eq!(w::ANTI, 50);
        assert_eq!(w::COUNT, 78);
        let mut next = 0;
        for &(name, start, len) in WEIGHT_NAMES {
            assert_eq!(start, next, "{name}");
            next += len;
        }
        assert_eq!(next, w::COUNT);
        assert_eq!(DEFAULT_WEIGHTS.0[w::ZH_HAND + 4], 700);
    }

    fn antichess_terms(fen: &str) -> Trace {
        let rules = crate::Variant::Antichess.rules();
        let pos = Position::from_fen(fen, rules).expect("valid fen");
        let mut t = Trace::default();
        evaluate_impl(&pos, &DEFAULT_WEIGHTS, Some(&mut t));
        t
    }

    fn term(t: &Trace, name: &str) -> (i32, i32) {
        let &(_, white, black) = t.terms.iter().find(|x| x.0 == name).expect(name);
        (white, black)
    }

    /// Owing a capture costs the side that owes it, less when the opponent
    /// must take back.
    #[test]
    fn antichess_owed_captures_cost_the_side_that_can_take() {
        // White's rook on a1 attacks the knight on a8; nothing else touches.
        // So few pieces: the endgame weight alone.
        let t = antichess_terms("n7/8/8/8/8/8/8/R7 b - - 0 1");
        assert_eq!(
            term(&t, "owed captures"),
            (-DEFAULT_WEIGHTS.0[w::ANTI_CAPTURE_EG], 0)
        );
        // The knight on a8 is defended by the rook on b8: the capture is
        // taken back, so the debt is halved.
        let t = antichess_terms("nr6/8/8/8/8/8/8/R7 b - - 0 1");
        let (white, _) = term(&t, "owed captures");
        assert_eq!(white, -DEFAULT_WEIGHTS.0[w::ANTI_CAPTURE_EG] / 2);
    }

    /// The antichess weights blend from the middlegame set (all pieces on
    /// the board) to the endgame set (few pieces left).
    #[test]
    fn antichess_weights_taper_from_middlegame_to_endgame() {
        // Two weight sets that differ only in the endgame piece values:
        // equal to the middlegame ones, and 100 more.
        let mut flat = DEFAULT_WEIGHTS.clone();
        let mut weights = DEFAULT_WEIGHTS.clone();
        for kind in 0..6 {
            flat.0[w::ANTI_EG + kind] = flat.0[w::ANTI + kind];
            weights.0[w::ANTI_EG + kind] = weights.0[w::ANTI + kind] + 100;
        }
        let material = |fen: &str, wt: &Weights| {
            let pos = Position::from_fen(fen, crate::Variant::Antichess.rules()).expect("fen");
            let mut t = Trace::default();
            evaluate_impl(&pos, wt, Some(&mut t));
            term(&t, "material (liability)")
        };
        // The start: the middlegame weights alone.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
        assert_eq!(material(start, &weights), material(start, &flat));
        // A rook, a knight and three pawns (phase 3): the endgame weights alone.
        let ending = "8/p7/8/3n4/8/8/PP6/R7 w - - 0 1";
        let (white, black) = material(ending, &flat);
        assert_eq!(material(ending, &weights), (white - 300, black - 200));
        // Phase 14 (two rooks, two queens, two minor pieces) is half way.
        let half = "r2qk1n1/8/8/8/8/8/8/R2QK1N1 w - - 0 1";
        let (white, black) = material(half, &flat);
        assert_eq!(material(half, &weights), (white - 200, black - 200));
    }

    /// A quiet move onto a square the opponent attacks forces a capture.
    #[test]
    fn antichess_forcing_squares_are_counted() {
        // The black rook on h8 sweeps the 8th rank and the h-file; the
        // white king's moves do not count and the pawn's push to a7 is safe.
        let t = antichess_terms("7r/8/P4N2/8/8/8/8/K7 w - - 0 1");
        // Knight f6 reaches e8, g8 (the rook's rank), h7, h5 (its file), g4,
        // e4, d5, d7: four of them are attacked by the rook, none of them
        // covered by White twice. An endgame: the endgame weights alone.
        let per = DEFAULT_WEIGHTS.0[w::ANTI_FORCE_EG] + DEFAULT_WEIGHTS.0[w::ANTI_FORCE_EG + 1];
        assert_eq!(term(&t, "forcing moves").0, 4 * per);
    }
}
