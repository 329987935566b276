//! Chess960 castling (`UCI_Chess960`): X-FEN and Shredder-FEN castling
//! fields in and out, refused fields, castling through, into and out of
//! attacked squares, the king-takes-rook notation, making castling moves,
//! DroppedRookCastles in Chess960 setups.

use rukav::position::{chess960_back_rank, chess960_fen};
use rukav::{FenError, Position, Rules, Square, Variant};

fn rules960(variant: Variant) -> Rules {
    let mut r = variant.rules();
    r.chess960 = true;
    r
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, rules960(Variant::Chess)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn zh(fen: &str) -> Position {
    Position::from_fen(fen, rules960(Variant::Crazyhouse)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).expect("a square")
}

fn castling_field(p: &Position) -> String {
    p.fen()
        .split(' ')
        .nth(2)
        .expect("a castling field")
        .to_string()
}

/// The castling moves, in the notation the position writes.
fn castles(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.is_castle())
        .map(|m| p.uci_move(*m))
        .collect();
    v.sort();
    v
}

fn play(p: &Position, moves: &[&str]) -> Position {
    let mut p = *p;
    for m in moves {
        let mv = p
            .parse_uci_move(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", p.fen()));
        p.make_move(mv);
        assert_eq!(p.key(), p.compute_key(), "key after {m}: {}", p.fen());
    }
    p
}

// ------------------------------------------------------------ FEN in and out

#[test]
fn shredder_fen_is_read_and_x_fen_written() {
    let cases = [
        // (read, castling field written)
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "KQkq",
        ),
        (
            "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
            "KQ",
        ),
        (
            "qn1rbbkr/ppp2p1p/1n1pp1p1/8/3P4/P6P/1PP1PPPK/QNNRBB1R w hd - 2 9",
            "kq",
        ),
        (
            "nqn2krb/p1prpppp/1pbp4/7P/5P2/8/PPPPPKP1/NQNRB1RB w g - 3 9",
            "k",
        ),
        // Rooks inside the outermost ones need their file letter.
        ("r3kr1r/8/8/8/8/8/8/R3KR1R w FAfa - 0 1", "FQfq"),
        ("r1r1k2r/8/8/8/8/8/8/R1R1K2R w CHch - 0 1", "KCkc"),
        ("r1r1k2r/8/8/8/8/8/8/R1R1K2R w AHah - 0 1", "KQkq"),
        // Letters in any order, X-FEN and Shredder mixed, repeated.
        ("r3kr1r/8/8/8/8/8/8/R3KR1R w aFQf - 0 1", "FQfq"),
        ("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KGQBkq - 0 1", "KQkq"),
    ];
    for (fen, field) in cases {
        let p = pos(fen);
        assert_eq!(castling_field(&p), field, "{fen}");
        // What is written reads back as the same position.
        let again = pos(&p.fen());
        assert_eq!(again.fen(), p.fen(), "{fen}");
        assert_eq!(again.key(), p.key(), "{fen}");
        assert_eq!(again.castling_rooks(), p.castling_rooks(), "{fen}");
        assert_eq!(castles(&again), castles(&p), "{fen}");
    }
}

#[test]
fn x_fen_letters_name_the_outermost_rook() {
    // K is the h-side rook farthest from the king, Q the a-side one.
    let p = pos("4k3/8/8/8/8/8/8/RR2K1RR w KQ - 0 1");
    assert_eq!(p.castling_rooks().0, sq("a1").bb().0 | sq("h1").bb().0);
    let p = pos("4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1");
    assert_eq!(p.castling_rooks().0, sq("b1").bb().0 | sq("g1").bb().0);
    assert_eq!(castling_field(&p), "GB");
    // A king on b1: the a1 rook is Q, the f1 rook K.
    let p = pos("1k3r2/8/8/8/8/8/8/RK3R2 w KQk - 0 1");
    assert_eq!(
        p.castling_rooks().0,
        sq("a1").bb().0 | sq("f1").bb().0 | sq("f8").bb().0
    );
    assert_eq!(castling_field(&p), "KQk");
}

#[test]
fn every_start_position_round_trips() {
    for n in 0..960u16 {
        let fen = chess960_fen(n, false).expect("a start position");
        let p = pos(&fen);
        assert_eq!(p.fen(), fen, "start position {n}");
        // The Shredder form of the same rights reads as the same position.
        let rank = chess960_back_rank(n).expect("a back rank");
        let files: Vec<char> = (0..8)
            .filter(|&i| rank[i] == 'R')
            .map(|i| (b'a' + i as u8) as char)
            .collect();
        let shredder: String = files
            .iter()
            .rev()
            .map(|c| c.to_ascii_uppercase())
            .chain(files.iter().rev().copied())
            .collect();
        let q = pos(&fen.replace("KQkq", &shredder));
        assert_eq!(q.fen(), fen, "start position {n} from {shredder}");
        assert_eq!(q.key(), p.key(), "start position {n}");
        let zh_fen = chess960_fen(n, true).expect("a start position");
        assert_eq!(zh(&zh_fen).fen(), zh_fen, "start position {n}");
    }
}

#[test]
fn standard_positions_keep_their_fen_and_key() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 17",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        let standard = Position::from_fen(fen, Variant::Chess.rules()).expect("standard");
        let p960 = pos(fen);
        assert_eq!(standard.fen(), fen);
        assert_eq!(p960.fen(), fen);
        assert_eq!(p960.key(), standard.key(), "{fen}");
        assert!(p960.castle_setup().is_standard());
        // Shredder letters for the standard rooks, either mode.
        let shredder = fen.replace("KQkq", "HAha");
        assert_eq!(pos(&shredder).fen(), fen);
        assert_eq!(
            Position::from_fen(&shredder, Variant::Chess.rules())
                .expect("standard")
                .fen(),
            fen
        );
    }
}

#[test]
fn bad_castling_fields_are_refused_with_their_reason() {
    let chess = Variant::Chess.rules();
    let c960 = rules960(Variant::Chess);
    let cases: [(&str, Rules, FenError); 9] = [
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            chess,
            FenError::CastlingNeedsChess960('F'),
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 w K - 0 1",
            c960,
            FenError::CastlingWithoutSideRook('K'),
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w Q - 0 1",
            c960,
            FenError::CastlingWithoutSideRook('Q'),
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w C - 0 1",
            c960,
            FenError::CastlingWithoutRook {
                right: 'C',
                square: sq("c1"),
            },
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w E - 0 1",
            c960,
            FenError::CastlingWithoutRook {
                right: 'E',
                square: sq("e1"),
            },
        ),
        (
            "4k3/8/8/8/8/8/4K3/R6R w K - 0 1",
            c960,
            FenError::CastlingKingNotOnBackRank('K'),
        ),
        (
            "4k3/8/8/8/8/8/8/4KR1R w HF - 0 1",
            c960,
            FenError::CastlingConflict('F'),
        ),
        (
            "4k3/8/8/8/8/8/8/4KR1R w KF - 0 1",
            c960,
            FenError::CastlingConflict('F'),
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w Kx - 0 1",
            c960,
            FenError::BadCastling("Kx".into()),
        ),
    ];
    for (fen, rules, err) in cases {
        assert_eq!(Position::from_fen(fen, rules).err(), Some(err), "{fen}");
    }
}

/// Any castling field, in either mode, in any variant, is read or refused,
/// never a panic; what is read is written back readably.
#[test]
fn castling_fields_never_panic() {
    let boards = [
        "rk4r1/ppp2ppp/8/3q4/8/8/PPP2PPP/RK4R1",
        "4k3/8/8/8/8/8/4K3/R6R",
        "r3kr1r/8/8/8/8/8/8/R3KR1R",
        "8/8/8/8/8/8/8/8",
        "kkkkkkkk/8/8/8/8/8/8/KKKKKKKK",
        "rrrrrrrr/8/8/8/8/8/8/RRRRRRRR",
    ];
    let letters = [
        'K', 'Q', 'k', 'q', 'A', 'H', 'h', 'a', 'C', 'f', 'E', 'x', '-', '1',
    ];
    let mut rng = rukav::rng::Rng(960);
    for variant in Variant::ALL {
        for chess960 in [false, true] {
            let mut rules = variant.rules();
            rules.chess960 = chess960;
            for board in boards {
                for _ in 0..200 {
                    let len = 1 + rng.below(5);
                    let field: String = (0..len)
                        .map(|_| letters[rng.below(letters.len())])
                        .collect();
                    let pocket = if variant.has_pockets() { "[]" } else { "" };
                    let fen = format!("{board}{pocket} w {field} - 0 1");
                    if let Ok(p) = Position::from_fen(&fen, rules) {
                        let again = Position::from_fen(&p.fen(), rules)
                            .unwrap_or_else(|e| panic!("{fen} -> {}: {e}", p.fen()));
                        assert_eq!(again.fen(), p.fen(), "{fen}");
                        let _ = p.legal_moves();
                    }
                }
            }
        }
    }
}

// ------------------------------------------------------------ legality

#[test]
fn castling_through_or_into_attacked_squares_is_illegal() {
    // King b1, rooks a1 and g1: short castling crosses c1..g1, long castling
    // puts the king on c1 and the rook on d1.
    let base = "1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1";
    assert_eq!(castles(&pos(base)), ["b1a1", "b1g1"]);
    // e1 attacked: the king would pass it.
    assert_eq!(
        castles(&pos("1k2r3/8/8/8/8/8/8/RK4R1 w GA - 0 1")),
        ["b1a1"]
    );
    // g1 attacked (through the g1 rook, which is lifted): the king would
    // land on it.
    assert_eq!(
        castles(&pos("1k4r1/8/8/8/8/8/8/RK4R1 w GA - 0 1")),
        ["b1a1"]
    );
    // A knight on e3 attacks d1 and f1, which the king crosses in short
    // castling; long castling puts the rook on d1, which may be attacked.
    assert_eq!(
        castles(&pos("1k6/8/8/8/8/4n3/8/RK4R1 w GA - 0 1")),
        ["b1a1"]
    );
    // d1 attacked: only the rook crosses it in long castling, the king
    // does in short castling.
    assert_eq!(
        castles(&pos("1k1r4/8/8/8/8/8/8/RK4R1 w GA - 0 1")),
        ["b1a1"]
    );
    // c1 attacked: both castlings need it for the king.
    assert!(castles(&pos("1kr5/8/8/8/8/8/8/RK4R1 w GA - 0 1")).is_empty());
    // In check: no castling.
    assert!(castles(&pos("1r5k/8/8/8/8/8/8/RK4R1 w GA - 0 1")).is_empty());
    // The rook's own path may be attacked: f1 attacked, king on g1
    // castling short only moves the rook there.
    assert_eq!(castles(&pos("k4r2/8/8/8/8/8/8/6KR w H - 0 1")), ["g1h1"]);
}

#[test]
fn a_castling_rook_that_shields_its_king_does_not_count() {
    // The b1 rook blocks the a1 queen; long castling (king stays on c1, the
    // rook goes to d1) would open the rank: illegal. Short castling keeps
    // the b1 rook where it is.
    let p = pos("1k6/pp6/8/8/8/8/PP6/qRK4R w HB - 0 1");
    assert!(!p.in_check());
    assert_eq!(castles(&p), ["c1h1"]);
    // Black, mirrored, in crazyhouse with pockets.
    let p = zh("Qrk4r/pp6/8/8/8/8/PP6/1K6[Nn] b hb - 0 1");
    assert_eq!(castles(&p), ["c8h8"]);
}

#[test]
fn the_path_must_be_empty_but_for_king_and_rook() {
    // King f1 and rook g1 swap in short castling.
    let p = pos("k7/8/8/8/8/8/8/4RKR1 w GE - 0 1");
    assert_eq!(castles(&p), ["f1e1", "f1g1"]);
    let after = play(&p, &["f1g1"]);
    assert!(
        after.fen().starts_with("k7/8/8/8/8/8/8/4RRK1 b - "),
        "{}",
        after.fen()
    );
    // Long castling needs c1 and d1 empty: here a knight stands on c1.
    let p = pos("k7/8/8/8/8/8/8/2N1RKR1 w GE - 0 1");
    assert_eq!(castles(&p), ["f1g1"]);
    let p = pos("k7/8/8/8/8/8/8/4RKR1 w GE - 0 1");
    let long = play(&p, &["f1e1"]);
    assert!(
        long.fen().starts_with("k7/8/8/8/8/8/8/2KR2R1 b - "),
        "{}",
        long.fen()
    );
    // An enemy piece on the rook's target blocks too.
    assert!(castles(&pos("4k3/8/8/8/8/8/8/RK1n4 w A - 0 1")).is_empty());
    // A drop fills the path in crazyhouse.
    let p = zh("4k3/8/8/8/8/8/8/RK4R1[n] b GA - 0 1");
    let p = play(&p, &["N@d1"]);
    assert!(castles(&p).is_empty());
}

// ------------------------------------------------------------ notation, making moves

#[test]
fn castling_notation_follows_the_mode() {
    // Standard setup with UCI_Chess960 on: king takes rook, and e1g1 is read
    // too (it names no other move).
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(castles(&p), ["e1a1", "e1h1"]);
    let short = p.parse_uci_move("e1h1").expect("e1h1");
    assert_eq!(p.parse_uci_move("e1g1"), Ok(short));
    assert_eq!(p.parse_uci_move("E1H1"), Ok(short));
    assert_eq!(rukav::position::notation::san(&p, short), "O-O");
    // UCI_Chess960 off: e1g1, and e1h1 is read as castling as well.
    let s = Position::from_fen(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        Variant::Chess.rules(),
    )
    .expect("standard");
    let m = s.parse_uci_move("e1g1").expect("e1g1");
    assert_eq!(s.uci_move(m), "e1g1");
    assert_eq!(s.parse_uci_move("e1h1"), Ok(m));
    assert_eq!(m, short, "one encoding in both modes");
    // King f1, rook h1: f1g1 is the king's step, castling is f1h1.
    let p = pos("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert!(castles(&p).is_empty());
    let p = pos("3k4/8/8/8/8/8/8/5K1R w H - 0 1");
    assert_eq!(castles(&p), ["f1h1"]);
    let step = p.parse_uci_move("f1g1").expect("f1g1");
    assert!(!step.is_castle(), "f1g1 is the plain king move");
    assert!(p.parse_uci_move("f1h1").expect("f1h1").is_castle());
    // King on g1: castling short is g1h1; g1g1 is no move.
    let p = pos("3k4/8/8/8/8/8/8/6KR w H - 0 1");
    assert_eq!(castles(&p), ["g1h1"]);
    assert!(p.parse_uci_move("g1g1").is_err());
    let m = p.parse_uci_move("g1h1").expect("g1h1");
    assert_eq!(rukav::position::notation::san(&p, m), "O-O");
    let after = play(&p, &["g1h1"]);
    assert!(
        after.fen().starts_with("3k4/8/8/8/8/8/8/5RK1 b - "),
        "{}",
        after.fen()
    );
}

#[test]
fn castling_rights_are_lost_with_their_rook_or_king() {
    let p = pos("1r3kr1/8/8/8/8/8/1P6/RK4R1 w GAgb - 0 1");
    assert_eq!(castling_field(&p), "KQkq");
    // The g1 rook moves: G goes, A stays.
    assert_eq!(castling_field(&play(&p, &["g1g2"])), "Qkq");
    // The a1 rook and Black's king move.
    assert_eq!(castling_field(&play(&p, &["a1a2", "f8e8"])), "K");
    // A rook captured on its start square loses its right too.
    assert_eq!(castling_field(&play(&p, &["g1g8"])), "Qq");
    // Castling takes both rights of that colour.
    assert_eq!(castling_field(&play(&p, &["b1a1"])), "kq");
}

#[test]
fn dropped_rook_castles_only_in_standard_setups() {
    let mut on = rules960(Variant::Crazyhouse);
    on.dropped_rook_castles = true;
    // A Chess960 setup: king e1 but the queenside right's rook started on
    // b1. A rook dropped on a1 gains nothing; on h1 (the kingside setup is
    // the standard one: king e1, rook h1) it regains K.
    let p = Position::from_fen("r3k2r/8/8/8/8/8/8/1R2K2R[RR] w Bkq - 0 1", on).expect("fen");
    let p = play(&p, &["b1b2", "a8a7"]);
    assert_eq!(castling_field(&p), "k");
    let a = play(&p, &["R@a1"]);
    assert_eq!(castling_field(&a), "k");
    let h = play(&p, &["h1h2", "h8h7", "R@h1"]);
    assert_eq!(castling_field(&h), "K");
    // King on b1 (its start square): no right is ever regained.
    let p = Position::from_fen("1k5r/8/8/8/8/8/8/1K5R[RR] w Hh - 0 1", on).expect("fen");
    let p = play(&p, &["h1h2", "h8h7", "R@h1"]);
    assert_eq!(castling_field(&p), "-");
    // The standard setup keeps the rule (tests/integration/house_rules.rs has more).
    let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1", on).expect("fen");
    assert_eq!(castling_field(&play(&p, &["R@h1"])), "K");
}
