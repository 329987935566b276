//! Named edge cases: crazyhouse house rules, bughouse, antichess/giveaway,
//! King's chess, FEN dialects, invalid FENs, and a >256-move position.
//!
//! Every count below is derived by hand in the comment next to it
//! (K = king moves, drops counted over empty squares).

use rukav::protocol::options::apply_rules_option as set_house_rule;
use rukav::{Color, EndReason, Outcome, PieceType, Position, Rules, Square, Variant};

fn rules(variant: Variant, options: &[(&str, &str)]) -> Rules {
    let mut r = variant.rules();
    for (k, v) in options {
        set_house_rule(&mut r, k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    r
}

fn pos(fen: &str, r: Rules) -> Position {
    Position::from_fen(fen, r).unwrap_or_else(|e| panic!("{fen} refused: {e}"))
}

fn count(fen: &str, r: Rules) -> usize {
    let p = pos(fen, r);
    let n = p.count_legal();
    assert_eq!(
        n,
        p.legal_moves().len(),
        "count_legal vs legal_moves: {fen}"
    );
    n
}

fn zh(options: &[(&str, &str)]) -> Rules {
    rules(Variant::Crazyhouse, options)
}

/// Plays UCI moves, each of which must be legal.
fn play(p: &Position, moves: &[&str]) -> Position {
    let mut p = *p;
    for m in moves {
        let mv = p
            .parse_uci_move(m)
            .unwrap_or_else(|e| panic!("{m} not legal: {e}"));
        p.make_move(mv);
    }
    p
}

fn has(p: &Position, uci: &str) -> bool {
    p.legal_moves().iter().any(|m| m.to_string() == uci)
}

// ------------------------------------------------------------ DropCheck / DropMate

/// Black: Ka8, Rb8, Pa7, Pb7. White: Ka1, N in hand.
/// White: K a1 -> a2, b1, b2 (3; nothing black reaches them).
/// Knight drops: 64 - 5 occupied = 59 empty squares.
/// Default: 3 + 59 = 62.
/// Knight drops that check a8: b6 and c7 (the squares a knight on a8 attacks).
/// N@c7 is smothered mate (a8 boxed by own pieces, nothing takes c7);
/// N@b6+ is answered by a7xb6.
/// DropCheck=false: 62 - 2 = 60. DropMate=false: 62 - 1 = 61.
const SMOTHER: &str = "kr6/pp6/8/8/8/8/8/K7[N] w - - 0 1";

#[test]
fn drop_check_and_mate_smothered() {
    assert_eq!(count(SMOTHER, zh(&[])), 62);
    assert_eq!(count(SMOTHER, zh(&[("DropCheck", "false")])), 60);
    assert_eq!(count(SMOTHER, zh(&[("DropMate", "false")])), 61);
    let p = pos(SMOTHER, zh(&[("DropMate", "false")]));
    assert!(!has(&p, "N@c7") && has(&p, "N@b6"));
    // Under default rules the drop mates: no reply, and outcome says so.
    let mated = play(&pos(SMOTHER, zh(&[])), &["N@c7"]);
    assert_eq!(mated.count_legal(), 0);
    assert_eq!(
        mated.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::Checkmate
        })
    );
    // DropMate=false with DropCheck=false: DropCheck wins (no checking drop at all).
    assert_eq!(
        count(
            SMOTHER,
            zh(&[("DropCheck", "false"), ("DropMate", "false")])
        ),
        60
    );
}

/// White Ka1 is checked by Rh1; Black Ke8; White holds a queen.
/// K: a2, b2 (b1 stays on the rook's rank) = 2. Blocks: Q@b1..g1 = 6.
/// Default 8. Only Q@e1 also checks e8 (open e-file), so DropCheck=false
/// gives 7: "no drop may give check, an interposing drop included".
/// Q@e1+ is no mate (Kd7, Kf7, ...), so DropMate=false keeps 8.
#[test]
fn drop_check_off_forbids_checking_interposition() {
    let fen = "4k3/8/8/8/8/8/8/K6r[Q] w - - 0 1";
    assert_eq!(count(fen, zh(&[])), 8);
    assert_eq!(count(fen, zh(&[("DropCheck", "false")])), 7);
    assert!(!has(&pos(fen, zh(&[("DropCheck", "false")])), "Q@e1"));
    assert_eq!(count(fen, zh(&[("DropMate", "false")])), 8);
}

/// Black Ka8, White Kb6, White holds Q; in the second FEN Black holds n.
/// White K b6 -> a5, b5, c5, a6, c6, c7 (a7, b7 touch a8) = 6; Q drops on
/// 62 empty squares: default 68.
/// Mating queen drops with Black's hand empty: a7, b7 (protected contact)
/// and c8..h8 (6: rank check, b8 covered, a7/b7 covered by Kb6) = 8 -> 60.
/// With n in Black's hand the rank checks are blocked by n@b8 (and more),
/// so only Q@a7 and Q@b7 mate -> 66: a drop reply counts.
#[test]
fn drop_mate_counts_drop_replies() {
    let bare = "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1";
    let with_n = "k7/8/1K6/8/8/8/8/8[Qn] w - - 0 1";
    let off = zh(&[("DropMate", "false")]);
    assert_eq!(count(bare, zh(&[])), 68);
    assert_eq!(count(with_n, zh(&[])), 68);
    assert_eq!(count(bare, off), 60);
    assert_eq!(count(with_n, off), 66);
    assert!(has(&pos(with_n, off), "Q@d8"));
    assert!(!has(&pos(bare, off), "Q@d8"));
    // A board move may still mate under DropMate=false: Rh1-h8 mates
    // (b8 on the rook's rank, a7 and b7 covered by Kb6).
    let rook = "k7/8/1K6/8/8/8/8/7R[] w - - 0 1";
    let p = pos(rook, off);
    assert!(has(&p, "h1h8"));
    let mated = play(&p, &["h1h8"]);
    assert_eq!(mated.count_legal(), 0);
    assert!(mated.in_check());
}

// ------------------------------------------------------------ pawn drops

/// White Ke1, Black Ke8, White holds a pawn.
/// K: d1, d2, e2, f2, f1 = 5. Pawn drops: ranks 2-7 are empty = 48.
/// Default 53; PawnDrop7th=false removes rank 7 (8) -> 45;
/// PawnDrop2nd=forbidden removes rank 2 (8) -> 45; check-only keeps no
/// rank-2 drop (none checks e8) -> 45.
#[test]
fn pawn_drop_ranks_white() {
    let fen = "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1";
    assert_eq!(count(fen, zh(&[])), 53);
    assert_eq!(count(fen, zh(&[("PawnDrop7th", "false")])), 45);
    assert!(!has(&pos(fen, zh(&[("PawnDrop7th", "false")])), "P@d7"));
    assert_eq!(count(fen, zh(&[("PawnDrop2nd", "forbidden")])), 45);
    assert_eq!(count(fen, zh(&[("PawnDrop2nd", "check-only")])), 45);
    assert_eq!(count(fen, zh(&[("PawnDrop2nd", "allowed")])), 53);
}

/// The same for Black (its 7th rank is rank 2, its 2nd rank is rank 7):
/// K e8: d8, f8, d7, e7, f7 = 5; pawn drops 48; default 53.
/// PawnDrop7th=false: no drop on rank 2 -> 45 (p@d2 and p@f2 checked e1).
/// PawnDrop2nd=forbidden: no drop on rank 7 -> 45.
#[test]
fn pawn_drop_ranks_black() {
    let fen = "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1";
    assert_eq!(count(fen, zh(&[])), 53);
    let p = pos(fen, zh(&[("PawnDrop7th", "false")]));
    assert_eq!(p.count_legal(), 45);
    assert!(!has(&p, "P@d2") && has(&p, "P@d7"));
    let p = pos(fen, zh(&[("PawnDrop2nd", "forbidden")]));
    assert_eq!(p.count_legal(), 45);
    assert!(has(&p, "P@d2") && !has(&p, "P@d7"));
}

/// Black king on d3, so a white pawn dropped on c2 or e2 gives check.
/// White K e1: d1, f1, f2 (d2, e2 touch d3) = 3. Pawn drops: 48 - d3 = 47.
/// Default 50. Forbidden: minus the 8 rank-2 squares -> 42.
/// Check-only: 42 + P@c2 + P@e2 = 44. PawnDrop7th=false: 50 - 8 = 42.
#[test]
fn pawn_drop_second_rank_check_only() {
    let fen = "8/8/8/8/8/3k4/8/4K3[P] w - - 0 1";
    assert_eq!(count(fen, zh(&[])), 50);
    assert_eq!(count(fen, zh(&[("PawnDrop2nd", "forbidden")])), 42);
    let p = pos(fen, zh(&[("PawnDrop2nd", "check-only")]));
    assert_eq!(p.count_legal(), 44);
    assert!(has(&p, "P@c2") && has(&p, "P@e2") && !has(&p, "P@d2"));
    assert_eq!(count(fen, zh(&[("PawnDrop7th", "false")])), 42);
}

/// A pawn dropped on its own 2nd rank may double-step (rules.md).
/// After P@e2 and ...Kd8 White has: K e1 -> d1, d2, f1, f2 (e2 is taken) = 4,
/// pawn e2 -> e3, e4 = 2; total 6.
#[test]
fn dropped_pawn_double_steps() {
    let p = play(
        &pos("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", zh(&[])),
        &["P@e2", "e8d8"],
    );
    assert_eq!(p.count_legal(), 6);
    assert!(has(&p, "e2e4"));
}

// ------------------------------------------------------------ PromotedRevert

/// Black Ra8 takes the promoted white queen on a1 (check on rank 1).
/// Then White: K e1 -> d2, e2, f2 (d1, f1 stay on the rook's rank) = 3.
/// After Ke2 Black has: K e8 -> d8, f8, d7, e7, f7 = 5; R a1 -> a2..a8 (7)
/// and b1..h1 (7) = 14; drops of what it captured:
/// default (revert to pawn): pawn on ranks 2-7 minus e2 = 47 -> 66;
/// PromotedRevert=false (a queen): 64 - 3 = 61 -> 80.
#[test]
fn promoted_revert() {
    let fen = "r3k3/8/8/8/8/8/8/Q~3K3[] b - - 0 1";
    let p = pos(fen, zh(&[]));
    assert!(p.promoted().has(Square::A1));
    assert_eq!(p.fen(), fen);
    let after = play(&p, &["a8a1"]);
    assert_eq!(after.pocket(Color::Black, PieceType::Pawn), 1);
    assert_eq!(after.pocket(Color::Black, PieceType::Queen), 0);
    assert!(after.promoted().is_empty());
    assert_eq!(after.count_legal(), 3);
    assert_eq!(play(&after, &["e1e2"]).count_legal(), 66);

    let keep = zh(&[("PromotedRevert", "false")]);
    let p = pos(fen, keep);
    assert_eq!(p.fen(), fen, "the ~ mark is still read and written");
    let after = play(&p, &["a8a1"]);
    assert_eq!(after.pocket(Color::Black, PieceType::Pawn), 0);
    assert_eq!(after.pocket(Color::Black, PieceType::Queen), 1);
    assert_eq!(after.count_legal(), 3);
    assert_eq!(play(&after, &["e1e2"]).count_legal(), 80);
}

/// Promotion in crazyhouse marks the piece: e7e8q gives Q~ on e8.
/// White Kh1, pawn e7, Black Ka1 (far). White: K g1, g2, h2 = 3; pawn e8=Q/R/B/N = 4 -> 7.
#[test]
fn promotion_marks_piece() {
    let p = pos("8/4P3/8/8/8/8/8/k6K[] w - - 0 1", zh(&[]));
    assert_eq!(p.count_legal(), 7);
    let q = play(&p, &["e7e8q"]);
    assert!(q.promoted().has(Square::E8));
    assert!(q.fen().starts_with("4Q~3/"));
}

// ------------------------------------------------------------ DroppedRookCastles

/// White Ke1 drops a rook on h1; Black answers Kd8.
/// With the rule, White then has: K d1, d2, e2, f2, f1 (5) + O-O (1) +
/// R h1 -> h2..h8 (7), g1, f1 (2) = 15. Without it: 14.
#[test]
fn dropped_rook_castles() {
    let fen = "4k3/8/8/8/8/8/8/4K3[R] w - - 0 1";
    let on = zh(&[("DroppedRookCastles", "true")]);
    let p = play(&pos(fen, on), &["R@h1"]);
    assert_eq!(p.castling_rights(), 1, "WHITE_OO gained");
    assert!(p.fen().contains(" b K - "), "{}", p.fen());
    let p = play(&p, &["e8d8"]);
    assert_eq!(p.count_legal(), 15);
    assert!(has(&p, "e1g1"));

    let p = play(&pos(fen, zh(&[])), &["R@h1", "e8d8"]);
    assert_eq!(p.castling_rights(), 0);
    assert_eq!(p.count_legal(), 14);

    // Black, queenside: r@a8 gives 'q'.
    let p = play(&pos("4k3/8/8/8/8/8/8/4K3[r] b - - 0 1", on), &["R@a8"]);
    assert!(p.fen().contains(" w q - "), "{}", p.fen());

    // The king is not on e1: nothing is gained.
    let p = play(&pos("4k3/8/8/8/8/8/8/3K4[R] w - - 0 1", on), &["R@h1"]);
    assert_eq!(p.castling_rights(), 0);

    // A rook moving onto the corner gains nothing.
    let p = play(&pos("4k3/8/8/8/8/8/7R/4K3[] w - - 0 1", on), &["h2h1"]);
    assert_eq!(p.castling_rights(), 0);
}

// ------------------------------------------------------------ bughouse

/// White Ra1 takes the black rook on a2.
/// White: K d1, f1 (d2, e2, f2 on the rook's rank) = 2, O-O-O = 1,
/// R a1 -> a2 (capture), b1, c1, d1 = 4: total 7 in both variants.
/// Crazyhouse puts the rook in White's hand, bughouse does not (it goes
/// to the partner, outside this board).
#[test]
fn bughouse_captures_leave_the_board() {
    let fen = "4k3/8/8/8/8/8/r7/R3K3[] w Q - 0 1";
    let zh_pos = pos(fen, zh(&[]));
    let bh_pos = pos(fen, Variant::Bughouse.rules());
    assert_eq!(zh_pos.count_legal(), 7);
    assert_eq!(bh_pos.count_legal(), 7);
    let a = play(&zh_pos, &["a1a2"]);
    let b = play(&bh_pos, &["a1a2"]);
    assert_eq!(a.pocket(Color::White, PieceType::Rook), 1);
    assert_eq!(b.pocket(Color::White, PieceType::Rook), 0);
    assert!(b.fen().contains("[]"), "{}", b.fen());
    // The partner's capture arrives from outside.
    let mut b = b;
    b.add_to_pocket(Color::White, PieceType::Rook).unwrap();
    assert_eq!(b.key(), b.compute_key());
    assert_eq!(b.pocket(Color::White, PieceType::Rook), 1);
}

/// Black Ka8 checked by Ra2 along the a-file (a3..a7 empty); Rb1 covers b7
/// and b8; a7 is on the checking file. No legal move (empty hands).
/// Crazyhouse: checkmate. Bughouse: not mate, Black waits for a piece.
/// With a knight in hand Black has the 5 blocks n@a3..n@a7.
#[test]
fn bughouse_blockable_check_is_not_mate() {
    let fen = "k7/8/8/8/8/8/R7/1R5K[] b - - 0 1";
    let z = pos(fen, zh(&[]));
    assert_eq!(z.count_legal(), 0);
    assert_eq!(
        z.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::Checkmate
        })
    );
    let mut b = pos(fen, Variant::Bughouse.rules());
    assert_eq!(b.count_legal(), 0);
    assert!(b.check_is_blockable_by_drop());
    assert_eq!(b.outcome(), None);
    b.add_to_pocket(Color::Black, PieceType::Knight).unwrap();
    assert_eq!(b.count_legal(), 5);
    assert_eq!(b.outcome(), None);
}

/// Contact check: Qb7 protected by Kb6 against Ka8; no move (a7, b8
/// covered). Mate in bughouse too, even with a full hand (0 blocks).
#[test]
fn bughouse_contact_check_is_mate() {
    let fen = "k7/1Q6/1K6/8/8/8/8/8[] b - - 0 1";
    let mut b = pos(fen, Variant::Bughouse.rules());
    assert_eq!(b.count_legal(), 0);
    let mate = Some(Outcome::Win {
        winner: Color::White,
        reason: EndReason::Checkmate,
    });
    assert_eq!(b.outcome(), mate);
    for k in PieceType::POCKET {
        b.add_to_pocket(Color::Black, k).unwrap();
    }
    assert_eq!(b.count_legal(), 0);
    assert_eq!(b.outcome(), mate);
}

/// Double check (Ra1 on the a-file, Bh1 on the long diagonal) with empty
/// squares between: still mate in bughouse, a drop cannot block both.
/// Ka8: a7 (rook), b7 (bishop, Kc8), b8 (Kc8) -> 0 moves.
#[test]
fn bughouse_double_check_is_mate() {
    let fen = "k1K5/8/8/8/8/8/8/R6B[qrbnp] b - - 0 1";
    let b = pos(fen, Variant::Bughouse.rules());
    assert!(b.checkers().more_than_one());
    assert_eq!(b.count_legal(), 0);
    assert_eq!(
        b.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::Checkmate
        })
    );
}

/// Stalemate (Ka8, White Kb6, Qc7): a draw in crazyhouse; in bughouse the
/// side waits. A knight arriving gives 64 - 3 = 61 drops.
#[test]
fn bughouse_stalemate_waits() {
    let fen = "k7/2Q5/1K6/8/8/8/8/8[] b - - 0 1";
    let z = pos(fen, zh(&[]));
    assert_eq!(z.count_legal(), 0);
    assert_eq!(
        z.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Stalemate
        })
    );
    let mut b = pos(fen, Variant::Bughouse.rules());
    assert_eq!(b.outcome(), None);
    b.add_to_pocket(Color::Black, PieceType::Knight).unwrap();
    assert_eq!(b.count_legal(), 61);
}

// ------------------------------------------------------------ antichess / giveaway

/// After 1.e3 b5 White must take: Bf1xb5 is the only capture (the queen's
/// diagonal d1-h5 holds no black piece). 1 move.
#[test]
fn antichess_forced_capture() {
    let p = play(&Position::startpos(Variant::Antichess), &["e2e3", "b7b5"]);
    assert_eq!(p.count_legal(), 1);
    assert!(has(&p, "f1b5"));
    // In chess the same capture is not forced.
    let c = play(&Position::startpos(Variant::Chess), &["e2e3", "b7b5"]);
    assert!(c.count_legal() > 1);
}

/// Black pawn a2 with a white rook on b1: the capture a2xb1 is forced, with
/// 5 promotions (q, r, b, n and k) -> 5. Without the rook: a2a1 x 5 -> 5.
#[test]
fn antichess_promotion_to_king() {
    let p = pos("8/8/8/8/8/8/p7/1R6 b - - 0 1", Variant::Antichess.rules());
    assert_eq!(p.count_legal(), 5);
    assert!(has(&p, "a2b1k") && !has(&p, "a2a1q"));
    let p = pos("8/8/8/8/8/8/p7/8 b - - 0 1", Variant::Antichess.rules());
    assert_eq!(p.count_legal(), 5);
    let k = play(&p, &["a2a1k"]);
    assert_eq!(
        k.piece_on(Square::A1).map(|x| x.kind),
        Some(PieceType::King)
    );
    // Chess has no promotion to a king: 4.
    let c = pos("k7/8/8/8/8/8/p7/7K b - - 0 1", Variant::Chess.rules());
    assert!(!has(&c, "a2a1k") && has(&c, "a2a1q"));
}

/// A side without pieces wins; a side without moves wins.
#[test]
fn antichess_wins() {
    let r = Variant::Antichess.rules();
    // White has nothing left: 0 moves, White wins.
    let p = pos("8/8/8/8/8/8/8/1r6 w - - 0 1", r);
    assert_eq!(p.count_legal(), 0);
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::NoPieces
        })
    );
    // White pawn a2 blocked by a3, nothing to take (a2 attacks only b3): 0 moves, White wins.
    let p = pos("8/8/8/8/8/p7/P7/8 w - - 0 1", r);
    assert_eq!(p.count_legal(), 0);
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: EndReason::Stalemate
        })
    );
    // Several kings are fine: Ka1 -> a2, b1, b2 and Kh1 -> g1, g2, h2 = 6
    // (no capture: Black's only piece, Kh8, is out of reach).
    assert_eq!(count("7k/8/8/8/8/8/8/K6K w - - 0 1", r), 6);
}

/// Castling: giveaway has it (even "through check", there is no check),
/// antichess ignores the rights, chess forbids it in check.
/// White Ke1, Ra1, Rh1; Black Kc8, Re8 (on the e-file). Nothing can capture.
/// Giveaway: K d1, d2, e2, f2, f1 (5) + O-O, O-O-O (2) + Ra1: a2..a8, b1..d1
/// (10) + Rh1: h2..h8, g1, f1 (9) = 26. Antichess: 24.
/// Chess: in check from e8: K d1, d2, f1, f2 = 4 (no rook reaches the e-file).
#[test]
fn giveaway_castling() {
    let fen = "2k1r3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    let g = pos(fen, Variant::Giveaway.rules());
    assert_eq!(g.count_legal(), 26);
    assert!(has(&g, "e1g1") && has(&g, "e1c1"));
    let a = pos(fen, Variant::Antichess.rules());
    assert_eq!(a.count_legal(), 24);
    assert_eq!(a.castling_rights(), 0);
    assert!(a.fen().contains(" w - - "), "antichess drops the rights");
    assert_eq!(count(fen, Variant::Chess.rules()), 4);
}

// ------------------------------------------------------------ King's chess

/// rules.md's example: White to make its 10th move (last of period 1-10)
/// without a king move: only king moves. After 1.e4 e5 2.Nf3 Nc6 the king
/// has one move, e1e2 (Bf1 blocks f1, Qd1 d1...). -> 1.
/// The same position with the duty done (`++`) has the 27 usual moves:
/// pawns a, b, c, d, g, h x 2 (12), Nb1 a3 c3 (2), Nf3 d4 e5 g5 h4 g1 (5),
/// Bf1 e2 d3 c4 b5 a6 (5), Qd1 e2, Ke1 e2, Rh1 g1 (3).
#[test]
fn kingschess_duty_move() {
    let r = Variant::KingsChess.rules();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 10 -+";
    let p = pos(fen, r);
    assert!(p.duty_pending());
    assert_eq!(p.count_legal(), 1);
    assert_eq!(p.fen(), fen, "seventh field written back");
    // The period ends: White's flag becomes '-', Black's stays '+'.
    let after = play(&p, &["e1e2"]);
    assert!(after.fen().ends_with(" b kq - 3 10 -+"), "{}", after.fen());
    let done = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 10 ++";
    assert_eq!(count(done, r), 27);
    // Move 9 is not the last of the period: no duty yet.
    let early = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 9 --";
    assert_eq!(count(early, r), 27);
    // White's move 16 lies outside every period: free.
    let free = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 16 --";
    assert_eq!(count(free, r), 27);
    // White's move 15 is the last of period 11-15: duty -> 1.
    let p15 = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 15 --";
    assert_eq!(count(p15, r), 1);
    // Chess has no duty, and a seventh field is refused there.
    assert!(Position::from_fen(fen, Variant::Chess.rules()).is_err());
}

/// A king move inside a period sets the mover's flag; the other flag stays.
#[test]
fn kingschess_flag_set_by_king_move() {
    let r = Variant::KingsChess.rules();
    let p = play(
        &Position::startpos(Variant::KingsChess),
        &["e2e4", "e7e5", "e1e2"],
    );
    assert!(p.fen().ends_with(" b kq - 1 2 +-"), "{}", p.fen());
    assert!(p.duty_done(Color::White) && !p.duty_done(Color::Black));
    // No field means "--".
    let q = pos(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        r,
    );
    assert!(q.fen().ends_with(" 0 1 --"));
    // Castling counts as a king move: White Ke1 Rh1, Black Ke8, move 5.
    // White: K d1, d2, e2, f2, f1 (5), O-O (1), Rh1 h2..h7, xh8? no: h2..h8 (7), g1, f1 (2) = 15.
    let c = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 5 --", r);
    assert_eq!(c.count_legal(), 15);
    let c = play(&c, &["e1g1"]);
    assert!(c.fen().ends_with(" +-"), "{}", c.fen());
    // Bad duty fields are refused.
    for bad in ["x+", "+", "+-+", "++ extra"] {
        let fen = format!("4k3/8/8/8/8/8/8/4K2R w K - 0 5 {bad}");
        assert!(Position::from_fen(&fen, r).is_err(), "{fen}");
    }
}

/// Duty pending and the king boxed in (start position at move 10):
/// 0 legal moves although pawns could move -> Black wins (duty missed).
/// Stalemate with duty pending stays a draw (Kh8 vs Qf7, Kg6).
#[test]
fn kingschess_duty_loss_and_stalemate() {
    let r = Variant::KingsChess.rules();
    let p = pos(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 10 --",
        r,
    );
    assert_eq!(p.count_legal(), 0);
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: EndReason::KingDutyMissed
        })
    );
    let s = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 10 --", r);
    assert!(s.duty_pending());
    assert_eq!(s.count_legal(), 0);
    assert_eq!(
        s.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Stalemate
        })
    );
    // Black's periods: move 12 is free, move 20 is the last of 16-20.
    let free = pos(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 12 --",
        r,
    );
    assert_eq!(free.count_legal(), 20);
    let due = pos(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 20 --",
        r,
    );
    assert_eq!(due.count_legal(), 0);
}

// ------------------------------------------------------------ FEN dialects

/// White Ke1, Black Ke8. `[Qn]`: K 5 + Q drops on 62 squares = 67 for White.
/// The lichess ninth-rank form reads the same.
#[test]
fn fen_pocket_dialects() {
    let r = zh(&[]);
    let a = pos("4k3/8/8/8/8/8/8/4K3[Qn] w - - 0 1", r);
    let b = pos("4k3/8/8/8/8/8/8/4K3/Qn w - - 0 1", r);
    assert_eq!(a.count_legal(), 67);
    assert_eq!(a.fen(), b.fen());
    assert_eq!(a.key(), b.key());
    assert_eq!(a.pocket(Color::White, PieceType::Queen), 1);
    assert_eq!(a.pocket(Color::Black, PieceType::Knight), 1);
    // Empty hands: [] and [-] are the same; written as [].
    let e1 = pos("4k3/8/8/8/8/8/8/4K3[] w - - 0 1", r);
    let e2 = pos("4k3/8/8/8/8/8/8/4K3[-] w - - 0 1", r);
    assert_eq!(e1.key(), e2.key());
    assert_eq!(e2.fen(), "4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    assert_eq!(e1.count_legal(), 5);
    // Counts: [N3P] is a knight and three pawns: K 5 + N 62 + P 48 = 115.
    let c = pos("4k3/8/8/8/8/8/8/4K3[N3P] w - - 0 1", r);
    assert_eq!(c.pocket(Color::White, PieceType::Knight), 1);
    assert_eq!(c.pocket(Color::White, PieceType::Pawn), 3);
    assert_eq!(c.fen(), "4k3/8/8/8/8/8/8/4K3[NPPP] w - - 0 1");
    assert_eq!(c.count_legal(), 115);
    // Holdings are written in Q R B N P order, White first.
    let d = pos("4k3/8/8/8/8/8/8/4K3[pnPQbR] w - - 0 1", r);
    assert!(
        d.fen().starts_with("4k3/8/8/8/8/8/8/4K3[QRPbnp]"),
        "{}",
        d.fen()
    );
    // A FEN without a pocket in a drop variant means empty hands.
    let f = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1", r);
    assert_eq!(f.key(), e1.key());
    // Chess refuses a pocket.
    assert!(
        Position::from_fen("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", Variant::Chess.rules()).is_err()
    );
}

/// `~` marks: kept in drop variants (and written back), dropped in chess.
/// White Kh1, Q~ on a1, Black Ke8. White: K g1, g2, h2 (3),
/// Qa1: a2..a8 (7), b1..g1 (6), b2..h8 diagonal (7) = 23.
#[test]
fn fen_promoted_marks() {
    let fen = "4k3/8/8/8/8/8/8/Q~6K[] w - - 0 1";
    let p = pos(fen, zh(&[]));
    assert!(p.promoted().has(Square::A1));
    assert_eq!(p.fen(), fen);
    assert_eq!(p.count_legal(), 23);
    let c = pos("4k3/8/8/8/8/8/8/Q~6K w - - 0 1", Variant::Chess.rules());
    assert!(c.promoted().is_empty());
    assert_eq!(c.fen(), "4k3/8/8/8/8/8/8/Q6K w - - 0 1");
    assert_eq!(c.count_legal(), 23);
}

/// The ep square is kept only when a pawn can take there.
/// After 1.e4 no black pawn reaches d3/f3: written `-`.
/// White Ke1, pawn e5; Black Ke8, pawn d7 -> ...d5 keeps d6.
/// White then: K d1, d2, e2, f2, f1 (5), e5-e6 (1), e5xd6 ep (1) = 7.
#[test]
fn fen_ep_square() {
    let p = play(&Position::startpos(Variant::Chess), &["e2e4"]);
    assert!(p.fen().contains(" b KQkq - 0 1"), "{}", p.fen());
    let p = play(
        &pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", Variant::Chess.rules()),
        &["d7d5"],
    );
    assert_eq!(p.fen(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(p.count_legal(), 7);
    // Reading an ep square no pawn can use drops it (python-chess style).
    let q = pos("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2", Variant::Chess.rules());
    assert_eq!(q.ep_square(), None);
    assert_eq!(q.fen(), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 2");
}

// ------------------------------------------------------------ invalid FENs

#[test]
fn invalid_fens_are_refused_with_a_typed_error() {
    use rukav::FenError as E;
    let chess = Variant::Chess.rules();
    let sq = |s: &str| Square::parse(s).unwrap();
    let cases: Vec<(&str, Rules, E)> = vec![
        (
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            chess,
            E::MissingKing(Color::Black),
        ),
        (
            "4k3/8/8/8/8/8/8/8 w - - 0 1",
            chess,
            E::MissingKing(Color::White),
        ),
        (
            "4k3/8/8/8/8/8/8/4K1k1 w - - 0 1",
            chess,
            E::ExtraKing(Color::Black),
        ),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", chess, E::PawnOnBackRank),
        ("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", chess, E::PawnOnBackRank),
        (
            "4k3/8/8/8/8/8/8/4K2P w - - 0 1",
            Variant::Antichess.rules(),
            E::PawnOnBackRank,
        ),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", chess, E::OpponentInCheck),
        (
            "4k3/8/8/8/8/8/8/4K3[X] w - - 0 1",
            zh(&[]),
            E::UnknownPocketLetter('X'),
        ),
        ("4k3/8/8/8/8/8/8/4K3[K] w - - 0 1", zh(&[]), E::KingInPocket),
        (
            "4k3/8/8/8/8/8/8/4K3[Q w - - 0 1",
            zh(&[]),
            E::UnclosedPocket,
        ),
        (
            "4k3/8/8/8/8/8/8/4K3[3] w - - 0 1",
            zh(&[]),
            E::CountWithoutPiece,
        ),
        (
            "4k3/8/8/8/8/8/8/4K3[99P] w - - 0 1",
            zh(&[]),
            E::PocketCountTooLarge,
        ),
        (
            "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1",
            chess,
            E::NoPockets(Variant::Chess),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1",
            chess,
            E::CastlingWithoutRook {
                right: 'K',
                square: sq("h1"),
            },
        ),
        (
            "4k3/8/8/8/8/8/8/R3K2R w X - 0 1",
            chess,
            E::BadCastling("X".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1",
            chess,
            E::CastlingWithoutKing {
                right: 'K',
                square: sq("e1"),
            },
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
            chess,
            E::EnPassantWrongRank(sq("e4")),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
            chess,
            E::EnPassantWithoutPawn(sq("e6")),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - z9 0 1",
            chess,
            E::BadEnPassant("z9".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
            chess,
            E::BadSideToMove("x".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - x 1",
            chess,
            E::BadHalfmoveClock("x".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 y",
            chess,
            E::BadFullmoveNumber("y".into()),
        ),
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", chess, E::RankCount(7)),
        ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", chess, E::RankTooLong(1)),
        (
            "4k3/8/8/8/8/8/8/4K2 w - - 0 1",
            chess,
            E::RankTooShort {
                rank: 1,
                squares: 7,
            },
        ),
        ("4k3/8/8/8/8/8/8/4K03 w - - 0 1", chess, E::ZeroInRank(1)),
        (
            "4k3/8/8/8/8/8/8/4X3 w - - 0 1",
            chess,
            E::UnknownPiece {
                letter: 'X',
                rank: 1,
            },
        ),
        ("", chess, E::Empty),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -- extra",
            Variant::KingsChess.rules(),
            E::TooManyFields {
                found: 8,
                variant: Variant::KingsChess,
                max: 7,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 x+",
            Variant::KingsChess.rules(),
            E::BadDutyField("x+".into()),
        ),
    ];
    for (fen, r, expected) in cases {
        match Position::from_fen(fen, r) {
            Ok(p) => panic!("{expected:?}: accepted {fen:?} as {}", p.fen()),
            Err(e) => {
                assert_eq!(e, expected, "{fen:?}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
}

/// Mutated FENs never panic; whatever is accepted writes a FEN that reads
/// back to the same position, and has working move generation.
#[test]
fn mutated_fens_never_panic() {
    let seeds = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Variant::Chess,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            Variant::Chess,
        ),
        (
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[PNBRQpnbrq] w KQkq - 0 1",
            Variant::Crazyhouse,
        ),
        ("4k3/1Q~6/8/8/4b3/8/Kpp5/8/Qn b - - 0 1", Variant::Bughouse),
        ("8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", Variant::Antichess),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", Variant::Giveaway),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 10 -+",
            Variant::KingsChess,
        ),
    ];
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/[]~- wbKQkqa-h0123456789+x"
        .chars()
        .collect();
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut accepted = 0;
    for i in 0..30_000 {
        let (seed, variant) = seeds[i % seeds.len()];
        let mut chars: Vec<char> = seed.chars().collect();
        for _ in 0..1 + next() % 3 {
            let at = (next() % chars.len() as u64) as usize;
            match next() % 3 {
                0 => chars[at] = alphabet[(next() % alphabet.len() as u64) as usize],
                1 => {
                    chars.remove(at);
                }
                _ => chars.insert(at, alphabet[(next() % alphabet.len() as u64) as usize]),
            }
            if chars.is_empty() {
                break;
            }
        }
        let fen: String = chars.into_iter().collect();
        let r = variant.rules();
        if let Ok(p) = Position::from_fen(&fen, r) {
            accepted += 1;
            let written = p.fen();
            let back = Position::from_fen(&written, r)
                .unwrap_or_else(|e| panic!("{fen:?} -> {written:?} refused: {e}"));
            assert_eq!(back.fen(), written, "{fen:?}");
            assert_eq!(back.key(), p.key(), "{fen:?}");
            assert_eq!(p.key(), p.compute_key(), "{fen:?}");
            let moves = p.legal_moves();
            assert_eq!(moves.len(), p.count_legal(), "{fen:?}");
            let _ = p.outcome();
            for &m in moves.iter().take(8) {
                let mut c = p;
                c.make_move(m);
                assert_eq!(c.key(), c.compute_key(), "{fen:?} {m}");
            }
        }
    }
    eprintln!("mutated FENs: {accepted} of 30000 accepted");
    assert!(
        accepted > 1000,
        "the mutations should leave many FENs valid"
    );
}

// ------------------------------------------------------------ many moves

/// White Ke1 with Q, R, B, N, P in hand vs Black Ke8:
/// K 5 + Q/R/B/N drops 4 x 62 + pawn drops 48 = 301 (> 256).
#[test]
fn more_than_256_moves() {
    let p = pos("4k3/8/8/8/8/8/8/4K3[QRBNP] w - - 0 1", zh(&[]));
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 301);
    assert_eq!(p.count_legal(), 301);
    let mut v: Vec<u16> = moves.iter().map(|m| m.0).collect();
    v.sort_unstable();
    v.dedup();
    assert_eq!(v.len(), 301, "all distinct");
    // Each drop leaves Black (Ke8) with: K d8, f8, d7, e7, f7 minus the
    // squares the dropped piece covers; perft 2 just has to be consistent
    // with the sum over children.
    let total: u64 = moves
        .iter()
        .map(|&m| {
            let mut c = p;
            c.make_move(m);
            c.count_legal() as u64
        })
        .sum();
    assert_eq!(rukav::perft::perft(&p, 2), total);
}

/// Clocks at u32::MAX: `make_move` saturates both clocks (this once
/// overflowed: a debug build panicked, a release build wrapped the full-move
/// number to 0). Every variant must keep the FEN round trip.
#[test]
fn extreme_clocks_do_not_panic() {
    for v in Variant::ALL {
        let fen = if v.rules().drops {
            "4k3/8/8/8/8/8/8/4K3[] b - - 4294967295 4294967295"
        } else {
            "4k3/8/8/8/8/8/8/4K3 b - - 4294967295 4294967295"
        };
        let Ok(p) = Position::from_fen(fen, v.rules()) else {
            continue; // refusing absurd clocks is a fine fix too
        };
        let _ = p.outcome();
        for &m in p.legal_moves().iter() {
            let mut c = p;
            c.make_move(m);
            let _ = c.outcome();
            let written = c.fen();
            let back = Position::from_fen(&written, v.rules())
                .unwrap_or_else(|e| panic!("{v}: {written} refused: {e}"));
            assert_eq!(
                back.fen(),
                written,
                "{v}: clocks do not round-trip after {m}"
            );
        }
    }
}
