//! Tests of the endgame tables against the moves and an exhaustive search.

use super::encoding::*;
use super::file::*;
use super::tables::*;
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::types::PieceType;

/// Exhaustive search to `depth` plies: `1000 - d` for a win in `d`,
/// `d - 1000` for a loss in `d`, 0 when not decided within `depth`.
fn brute(pos: &Position, depth: u32) -> i32 {
    let moves = pos.legal_moves();
    if pos.color_bb(pos.side_to_move()).is_empty() || moves.is_empty() {
        return 1000;
    }
    if depth == 0 {
        return 0;
    }
    let mut best = -1000;
    for &m in moves.iter() {
        let mut child = *pos;
        child.make_move(m);
        let v = -brute(&child, depth - 1);
        best = best.max(v - v.signum());
    }
    best
}

/// Every image of `pos` under the symmetries that keep antichess results:
/// the board mirrored left to right, and without pawns also turned or
/// flipped along a diagonal; each also with the colours swapped and the
/// board upside down (then `true`).
fn images(pos: &Position) -> Vec<(Position, bool)> {
    let has_pawns = !pos.kind_bb(PieceType::Pawn).is_empty();
    let mut out = Vec::new();
    for swap in [false, true] {
        for g in 0..if has_pawns { 2u8 } else { 8 } {
            // Swapping the colours turns the board upside down too.
            let map = |sq: u8| crate::types::Square(transform(sq, g) ^ if swap { 56 } else { 0 });
            let mut placed = Vec::new();
            for sq in pos.occupied() {
                let p = pos.piece_on(sq).unwrap();
                let p = if swap {
                    crate::types::Piece::new(!p.color, p.kind)
                } else {
                    p
                };
                placed.push((map(sq.0), p));
            }
            let side = if swap {
                !pos.side_to_move()
            } else {
                pos.side_to_move()
            };
            out.push((
                Position::from_pieces(*pos.rules(), &placed, side).unwrap(),
                swap,
            ));
        }
    }
    out
}

fn as_brute(r: TableResult, depth: u32) -> i32 {
    match r {
        TableResult::Win(d) if u32::from(d) <= depth => 1000 - i32::from(d),
        TableResult::Loss(d) if u32::from(d) <= depth => i32::from(d) - 1000,
        _ => 0,
    }
}

/// Checks every position of every table of `tables`: its result follows
/// from its moves' results in one step (the definition the build settles;
/// on a finite game graph this fixes every result), and with
/// `images_too`, every image of it (colours swapped, board mirrored or turned) has the
/// same result and its canonical index is the one it is stored at.
/// Returns how many wins, losses and draws were checked.
fn check_every_result(tables: &Tables, rules: Rules, images_too: bool) -> [usize; 3] {
    use rayon::prelude::*;
    let sigs: Vec<&Signature> = tables.tables.keys().collect();
    sigs.par_iter()
        .map(|sig| {
            let mut counts = [0usize; 3];
            for index in 0..table_size(sig) {
                let Some(pos) = position_at(rules, sig, index) else {
                    continue;
                };
                let (stored_sig, stored_index) = locate(&pos);
                assert_eq!(stored_sig, **sig);
                let r = tables.probe(&pos).unwrap();
                if images_too {
                    for (image, swapped) in images(&pos) {
                        assert_eq!(tables.probe(&image), Some(r), "{}", image.fen());
                        // With the colours swapped, a table of the same
                        // material for both sides holds the image apart.
                        if !swapped {
                            assert_eq!(locate(&image).1, stored_index, "{}", image.fen());
                        }
                    }
                }
                if stored_index != index {
                    continue;
                }
                assert_eq!(r, result_by_moves(tables, &pos), "{}", pos.fen());
                counts[match r {
                    TableResult::Win(_) => 0,
                    TableResult::Loss(_) => 1,
                    TableResult::Draw => 2,
                }] += 1;
            }
            counts
        })
        .reduce(|| [0; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]])
}

/// The result of `pos` from the tables' results of its moves.
fn result_by_moves(tables: &Tables, pos: &Position) -> TableResult {
    let moves = pos.legal_moves();
    let mut win: Option<u16> = None;
    let mut all_won = true;
    let mut longest = 0;
    for &m in moves.iter() {
        let mut child = *pos;
        child.make_move(m);
        let c = if child.color_bb(child.side_to_move()).is_empty() {
            TableResult::Win(0)
        } else {
            tables.probe(&child).unwrap()
        };
        match c {
            TableResult::Loss(d) => {
                win = Some(win.map_or(d + 1, |w| w.min(d + 1)));
                all_won = false;
            }
            TableResult::Win(d) => longest = longest.max(d + 1),
            TableResult::Draw => all_won = false,
        }
    }
    if moves.is_empty() {
        TableResult::Win(0)
    } else if let Some(d) = win {
        TableResult::Win(d)
    } else if all_won {
        TableResult::Loss(longest)
    } else {
        TableResult::Draw
    }
}

/// Every two-piece position, built under antichess and giveaway rules,
/// with its images.
#[test]
fn every_result_follows_from_the_moves() {
    for variant in [Variant::Antichess, Variant::Giveaway] {
        let tables = Tables::build(variant.rules(), 2);
        let counts = check_every_result(&tables, variant.rules(), true);
        // Each kind of result occurs (the check above is not vacuous).
        assert!(counts.iter().all(|&n| n > 1000), "{counts:?}");
    }
}

/// Every position of the built-in (embedded) three-piece tables, under
/// antichess and giveaway rules (release builds: some 20 million
/// positions).
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn every_builtin_result_follows_from_the_moves() {
    let tables = builtin();
    for variant in [Variant::Antichess, Variant::Giveaway] {
        let counts = check_every_result(&tables, variant.rules(), false);
        assert!(counts.iter().all(|&n| n > 100_000), "{counts:?}");
    }
}

/// The tables agree with an exhaustive search on a sample of positions
/// of two and three pieces (a sample: the search is slow).
#[test]
fn tables_agree_with_exhaustive_search() {
    let rules = Variant::Antichess.rules();
    // Every two-piece table and a few three-piece ones without pawns
    // (a promotion would need the tables of the promoted piece).
    let mut sigs = signatures(2);
    let three = |white: &[PieceType], black: &[PieceType]| {
        let mut s = [0u8; 12];
        for k in white {
            s[k.index()] += 1;
        }
        for k in black {
            s[6 + k.index()] += 1;
        }
        s
    };
    use PieceType::*;
    sigs.push(three(&[Rook], &[King, Knight]));
    sigs.push(three(&[Queen, Bishop], &[King]));
    sigs.push(three(&[Knight], &[Bishop, Bishop]));
    let tables = Tables::build_signatures(rules, sigs);
    let mut decided = 0;
    let mut rng = crate::rng::Rng(7);
    let sigs: Vec<&Signature> = tables.tables.keys().collect();
    let mut tried = 0;
    let sample = if cfg!(debug_assertions) { 600 } else { 3000 };
    while tried < sample {
        let sig = sigs[rng.below(sigs.len())];
        let pieces = pieces_of(sig);
        let index = rng.below(table_size(sig));
        let Some(pos) = position_at(rules, sig, index) else {
            continue;
        };
        tried += 1;
        let depth = if pieces.len() == 2 { 5 } else { 3 };
        let r = tables.probe(&pos).unwrap();
        assert_eq!(
            as_brute(r, depth),
            brute(&pos, depth),
            "{}: {r:?}",
            pos.fen()
        );
        decided += usize::from(as_brute(r, depth) != 0);
    }
    assert!(decided > sample / 10, "{decided}");
}

/// Positions the tables do not cover are not probed.
#[test]
fn only_covered_positions_are_probed() {
    let rules = Variant::Antichess.rules();
    let tables = Tables::build(rules, 2);
    let probe = |fen: &str, r: Rules| tables.probe(&Position::from_fen(fen, r).unwrap());
    assert!(probe("8/8/8/8/8/8/8/R6r w - - 0 1", rules).is_some());
    assert!(probe("8/8/8/8/8/8/8/RR5r w - - 0 1", rules).is_none());
    // An en-passant capture, compulsory, takes White's last piece.
    let ep = "8/8/8/8/3pP3/8/8/8 b - e3 0 1";
    assert_eq!(probe(ep, rules), Some(TableResult::Loss(1)));
    let giveaway = Variant::Giveaway.rules();
    assert_eq!(
        probe("8/8/8/8/8/8/8/R6r w - - 0 1", giveaway),
        probe("8/8/8/8/8/8/8/R6r w - - 0 1", rules)
    );
    assert!(probe("8/8/8/8/8/8/8/R3K3 w Q - 0 1", giveaway).is_none());
    assert!(!covers(&Variant::Chess.rules()) && !covers(&Variant::Crazyhouse.rules()));
}

/// A table file reads back to the same tables; damaged or cut files
/// are refused.
#[test]
fn files_round_trip_and_damage_is_refused() {
    let tables = Tables::build(crate::rules::ANTICHESS, 2);
    let bytes = tables.to_bytes();
    let back = Tables::from_bytes(&bytes).unwrap();
    assert_eq!(back.max_pieces(), 2);
    assert_eq!(back.to_bytes(), bytes);
    let mut damaged = bytes.clone();
    damaged[100] ^= 1;
    assert_eq!(
        Tables::from_bytes(&damaged).err(),
        Some(TablesError::ChecksumMismatch)
    );
    assert!(Tables::from_bytes(&bytes[..bytes.len() / 2]).is_err());
    assert!(Tables::from_bytes(b"RUKAVNN1 something else entirely").is_err());
    assert!(Tables::from_bytes(&[]).is_err());
    // The compressed form reads back to the same tables; damage to it is
    // refused too.
    let packed = tables.to_compressed_bytes();
    assert!(packed.len() < bytes.len() / 2);
    assert_eq!(Tables::from_file_bytes(&packed).unwrap().to_bytes(), bytes);
    assert_eq!(Tables::from_file_bytes(&bytes).unwrap().to_bytes(), bytes);
    let mut damaged = packed.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x55;
    assert!(Tables::from_file_bytes(&damaged).is_err());
    assert!(Tables::from_file_bytes(&packed[..packed.len() / 2]).is_err());
    assert_eq!(
        Tables::from_file_bytes(b"neither plain nor compressed").err(),
        Some(TablesError::BadMagic)
    );
}

/// The built-in tables are the embedded three-piece file, and they know a
/// three-piece ending: White's rook and king against a knight, White to
/// move gives both away in four plies (Rb1 Nxb1 Kd2 Nxd2).
#[test]
fn the_builtin_tables_cover_three_pieces() {
    let tables = builtin();
    assert_eq!(tables.max_pieces(), MAX_PIECES);
    assert_eq!(MAX_PIECES, 3);
    let rules = Variant::Antichess.rules();
    let pos = Position::from_fen("8/8/8/8/8/2n5/8/R3K3 w - - 0 1", rules).unwrap();
    assert_eq!(tables.probe(&pos), Some(TableResult::Win(4)));
}
