//! Search tests with known answers, through the library (`Engine::search_sync`).
//!
//! Every expected answer is proved inside the test by an exhaustive search
//! with the library's own move generator and game-end detection
//! (`wins_within`), so a test fails only when the engine's search is wrong,
//! not when a composition is unsound.
//!
//! Tests whose name starts with `regression_` pin engine bugs found while
//! writing this file (fixed since).

use rukav::engine::Engine;
use rukav::search::{Limits, Score, SearchResult, MATE, MATE_BOUND};
use rukav::{Color, Move, Outcome, PieceType, Position, Variant};

fn pos(variant: Variant, fen: &str) -> Position {
    Position::from_fen(fen, variant.rules()).unwrap_or_else(|e| panic!("bad FEN {fen}: {e:?}"))
}

fn after(p: &Position, m: Move) -> Position {
    let mut q = *p;
    q.make_move(m);
    q
}

fn won_by(p: &Position, c: Color) -> bool {
    matches!(p.outcome(), Some(Outcome::Win { winner, .. }) if winner == c)
}

/// Can the side to move force a win (mate, or an antichess/King's-chess win)
/// on or before its `n`-th move from here? Exhaustive; repetitions ignored.
fn wins_within(p: &Position, n: u32) -> bool {
    let me = p.side_to_move();
    p.legal_moves()
        .iter()
        .any(|&m| move_wins_within(p, m, n, me))
}

/// Does `m` (by `me`, to move in `p`) force a win within `n` moves of `me`,
/// `m` included? A win "within n" is either an outcome right after one of
/// `me`'s moves, or an outcome in `me`'s favour right after the opponent's
/// reply (antichess: the opponent captured `me`'s last piece).
fn move_wins_within(p: &Position, m: Move, n: u32, me: Color) -> bool {
    let q = after(p, m);
    if won_by(&q, me) {
        return true;
    }
    if n == 0 || q.outcome().is_some() {
        return false;
    }
    q.legal_moves().iter().all(|&r| {
        let s = after(&q, r);
        if s.outcome().is_some() {
            return won_by(&s, me);
        }
        n > 1 && wins_within(&s, n - 1)
    })
}

/// Is the side to move checkmated (or otherwise lost) right now?
fn lost(p: &Position) -> bool {
    won_by(p, p.side_to_move().flip())
}

fn engine_for(variant: Variant, fen: &str) -> Engine {
    let mut e = Engine::new();
    e.set_rules(variant.rules());
    e.set_position(pos(variant, fen), vec![]);
    assert_eq!(e.position().fen(), pos(variant, fen).fen());
    e
}

fn search(variant: Variant, fen: &str, depth: i32) -> SearchResult {
    engine_for(variant, fen).search_sync(
        Limits {
            depth: Some(depth),
            multipv: 1,
            ..Default::default()
        },
        &|_| {},
    )
}

fn mv(p: &Position, text: &str) -> Move {
    p.parse_uci_move(text)
        .unwrap_or_else(|e| panic!("{text} should be legal: {e}"))
}

/// Checks the shared claims of a "mate in `n`" test: the composition is a
/// mate in exactly `n` (none shorter), the engine's move forces it, and the
/// engine reports a mate score.
fn assert_finds_forced_win(variant: Variant, fen: &str, n: u32, depth: i32) -> SearchResult {
    let p = pos(variant, fen);
    let me = p.side_to_move();
    if n > 1 {
        assert!(
            !wins_within(&p, n - 1),
            "composition error: {fen} has a win in {}",
            n - 1
        );
    }
    assert!(
        wins_within(&p, n),
        "composition error: {fen} has no win in {n}"
    );
    let r = search(variant, fen, depth);
    assert!(p.is_legal(r.best), "{fen}: illegal best move {}", r.best);
    assert!(
        move_wins_within(&p, r.best, n, me),
        "{fen}: depth {depth} chose {} (score {:?}), which does not force a win in {n}",
        r.best,
        Score::from_internal(r.score)
    );
    assert!(
        r.score >= MATE_BOUND,
        "{fen}: depth {depth} chose {} but scored {:?}, not a mate",
        r.best,
        Score::from_internal(r.score)
    );
    r
}

// ------------------------------------------------------------ crazyhouse

/// Back rank: black's king on g8 is walled in by its own pawns, black has no
/// pocket to interpose with, so any rook dropped on a8..e8 mates. No board
/// move of White gives check at all, so the mate is necessarily a drop.
#[test]
fn crazyhouse_mate_in_1_by_drop() {
    let fen = "6k1/5ppp/8/8/8/8/5PPP/6K1[R] w - - 0 1";
    let p = pos(Variant::Crazyhouse, fen);
    for &m in p.legal_moves().iter().filter(|m| !m.is_drop()) {
        assert!(!lost(&after(&p, m)), "{m} should not mate");
    }
    let r = assert_finds_forced_win(Variant::Crazyhouse, fen, 1, 4);
    assert!(r.best.is_drop(), "{}", r.best);
    assert!(lost(&after(&p, r.best)));
    assert_eq!(r.score, MATE - 1);
    assert_eq!(Score::from_internal(r.score), Score::Mate(1));
}

/// Q@g8+ (the bishop on c4 guards g8, so only Rxg8 answers it) and then
/// N@f7 is a smothered mate: king h8 boxed in by Rg8, g7, h7, and a knight
/// check cannot be blocked. The engine may pick another mate in 2 (it finds
/// N@f7+ first); the exhaustive check proves whichever it plays. There is no
/// mate in 1 (checked).
#[test]
fn crazyhouse_mate_in_2_by_drops() {
    let fen = "r6k/6pp/8/8/2B5/8/5PPP/6K1[QN] w - - 0 1";
    let r = assert_finds_forced_win(Variant::Crazyhouse, fen, 2, 6);
    assert_eq!(Score::from_internal(r.score), Score::Mate(2));
}

/// Black's king h8 behind pawns g7 h7; Black holds a knight to interpose on
/// the back rank, White a queen and a rook. R@f8+ N@g8 (the only legal
/// reply) and the drops continue to mate on the back
/// rank in three. There is no mate in 2 (checked exhaustively).
#[test]
fn crazyhouse_mate_in_3_with_drops() {
    let fen = "7k/6pp/8/8/8/8/5PPP/6K1[QRn] w - - 0 1";
    let r = assert_finds_forced_win(Variant::Crazyhouse, fen, 3, 8);
    assert!(r.best.is_drop(), "{}", r.best);
    // The engine may report a longer mate than the shortest one (pruning),
    // but never a shorter one than exists.
    match Score::from_internal(r.score) {
        Score::Mate(m) => assert!(m >= 3, "mate {m} is shorter than possible"),
        s => panic!("not a mate score: {s:?}"),
    }
}

/// Same idea with a bishop in Black's pocket (it can interpose on f8 or g8
/// too): still mate in 3, found with a drop first.
#[test]
fn crazyhouse_mate_in_3_against_bishop_in_pocket() {
    let fen = "7k/6pp/8/8/8/8/5PPP/6K1[QRb] w - - 0 1";
    assert_finds_forced_win(Variant::Crazyhouse, fen, 3, 8);
}

/// Regression (search): Philidor's legacy with a drop. Q@g8+ is forced to be
/// taken by the rook (the king may not take: Nh6 guards g8), then Nf7 is a
/// smothered mate: mate in 2, a 3-ply line. The engine once played h6f7 up
/// to depth 11 because quiet checks (Nf7#) were pruned at frontier nodes;
/// since quiet checks are detected before the move and never pruned, it is
/// found at depth 5.
#[test]
fn regression_drop_sacrifice_then_smothered_mate_in_2() {
    let fen = "r6k/6pp/7N/8/8/8/5PPP/6K1[Q] w - - 0 1";
    let p = pos(Variant::Crazyhouse, fen);
    // The composition: Q@g8 forces mate next move; nothing mates at once.
    assert!(!wins_within(&p, 1));
    assert!(move_wins_within(&p, mv(&p, "Q@g8"), 2, Color::White));
    let q = after(
        &after(&p, mv(&p, "Q@g8")),
        mv(&after(&p, mv(&p, "Q@g8")), "a8g8"),
    );
    assert!(lost(&after(&q, mv(&q, "h6f7"))));
    let r = search(Variant::Crazyhouse, fen, 8);
    assert_eq!(
        r.best.to_string(),
        "Q@g8",
        "depth 8 missed the mate in 2 (score {:?})",
        Score::from_internal(r.score)
    );
    assert_eq!(Score::from_internal(r.score), Score::Mate(2));
}

/// Black to move. White threatens Q@g7 mate (the queen dropped on g7 is
/// guarded by the f6 pawn; the king on h8 or g8 then has no square). Every
/// board move of Black (Kg8, h6, h5) leaves that mate in 1 on. Black's knight
/// in hand is the only defence: dropped on g7 itself or where it guards g7
/// (e6, e8, f5, h5), it stops the mate. The engine must drop, and its drop
/// must leave White without a mate in 1.
#[test]
fn crazyhouse_drop_is_the_only_defence() {
    let fen = "7k/7p/5P2/8/8/8/5PPP/6K1[Qn] b - - 0 1";
    let p = pos(Variant::Crazyhouse, fen);
    let board_moves: Vec<Move> = p
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| !m.is_drop())
        .collect();
    assert!(!board_moves.is_empty());
    for m in board_moves {
        assert!(
            wins_within(&after(&p, m), 1),
            "{m} should lose to mate in 1"
        );
    }
    assert!(p
        .legal_moves()
        .iter()
        .any(|&m| m.is_drop() && !wins_within(&after(&p, m), 1)));
    for depth in [2, 4, 6] {
        let r = search(Variant::Crazyhouse, fen, depth);
        assert!(r.best.is_drop(), "depth {depth}: {} is not a drop", r.best);
        assert!(
            !wins_within(&after(&p, r.best), 1),
            "depth {depth}: {} still allows mate in 1",
            r.best
        );
    }
}

// ------------------------------------------------------------- antichess

/// Antichess: White gives its only rook away. Ra1 (or Rd8) puts it where
/// Black is forced to capture it (captures are compulsory), after which White
/// has no pieces left and wins.
#[test]
fn antichess_forced_capture_of_last_piece() {
    for variant in [Variant::Antichess, Variant::Giveaway] {
        let fen = "r3k3/8/8/8/8/8/8/3R4 w - - 0 1";
        let r = assert_finds_forced_win(variant, fen, 1, 4);
        let p = pos(variant, fen);
        let q = after(&p, r.best);
        // Every Black reply is a capture of the rook, and White then wins.
        for &b in q.legal_moves().iter() {
            assert!(q.is_capture(b), "{variant}: {b} is not a capture");
            assert!(won_by(&after(&q, b), Color::White));
        }
    }
}

/// Antichess, two pieces to give away: White must feed both the knight and
/// the rook to Black's king and rook, never letting Black shed a piece
/// itself. Forced win in 2 White moves (Black then captures the last piece;
/// none in 1, checked).
#[test]
fn antichess_forced_win_giving_away_two_pieces() {
    let fen = "r3k3/8/8/8/8/8/8/1N1R4 w - - 0 1";
    assert_finds_forced_win(Variant::Antichess, fen, 2, 8);
}

// ------------------------------------------------------------- King's chess

/// King's chess: White's 10th move, the last of the first control period,
/// and White has not moved its king (flag `-`). Qxf7 would be mate in chess,
/// but on this move only king moves are legal, so the engine must move the
/// king. With the duty done (flag `+`) the same position is mate in 1.
#[test]
fn kings_chess_duty_forces_a_king_move_over_mate() {
    let base = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 10";
    let pending = format!("{base} -+");
    let p = pos(Variant::KingsChess, &pending);
    assert!(p.duty_pending());
    assert!(p.parse_uci_move("h5f7").is_err(), "Qxf7 must be illegal");
    for depth in [1, 3, 5] {
        let r = search(Variant::KingsChess, &pending, depth);
        assert!(p.is_legal(r.best));
        assert_eq!(
            p.moved_kind(r.best),
            PieceType::King,
            "depth {depth}: {} is not a king move",
            r.best
        );
    }
    // Control: duty already done, so Qxf7 is legal and mates.
    let done = format!("{base} ++");
    let q = pos(Variant::KingsChess, &done);
    assert!(!q.duty_pending());
    let r = search(Variant::KingsChess, &done, 3);
    assert_eq!(r.best, mv(&q, "h5f7"));
    assert!(lost(&after(&q, r.best)));
    assert_eq!(Score::from_internal(r.score), Score::Mate(1));
}

// ------------------------------------------------------------------ chess

/// Chess back-rank mate in 2 with doubled rooks: Re8+ Rxe8 Rxe8#. Black has
/// no luft (f7 g7 h7) and the a8 rook is its only defender.
#[test]
fn chess_mate_in_2_back_rank() {
    let fen = "r5k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1";
    let r = assert_finds_forced_win(Variant::Chess, fen, 2, 5);
    assert_eq!(r.best.to_string(), "e2e8");
    assert_eq!(Score::from_internal(r.score), Score::Mate(2));
}

/// The side to move that is already mated gets a null best move, in chess
/// and in crazyhouse (where the
/// check could be blocked by a drop, but Black's pocket is empty).
#[test]
fn mated_root_has_no_best_move() {
    for (variant, fen) in [
        (Variant::Chess, "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"),
        (
            Variant::Crazyhouse,
            "R5k1/5ppp/8/8/8/8/5PPP/6K1[] b - - 0 1",
        ),
    ] {
        assert!(lost(&pos(variant, fen)), "{fen}");
        let r = search(variant, fen, 3);
        assert!(r.best.is_null(), "{variant}: {}", r.best);
    }
}

/// `rukav spsa-params` (what scripts/spsa.py and OpenBench read): one line
/// per search parameter and per evaluation weight, `name, int, default,
/// min, max, step, 0.002`, the default within its range and a positive step.
#[test]
fn spsa_params_lists_every_parameter_in_openbench_format() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rukav"))
        .arg("spsa-params")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let params: Vec<_> = rukav::engine::tuning::all().collect();
    assert!(params.len() > rukav::search::params::PARAMS.len());
    assert_eq!(lines.len(), params.len());
    for (line, p) in lines.iter().zip(params) {
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!((fields[0], fields[1], fields[6]), (p.name, "int", "0.002"));
        let numbers: Vec<i32> = fields[2..6].iter().map(|f| f.parse().unwrap()).collect();
        let [default, min, max, step] = numbers[..] else {
            unreachable!()
        };
        assert!(min <= default && default <= max && step > 0, "{line}");
    }
}
