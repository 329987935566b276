//! Random playouts in every variant and under every crazyhouse house rule.
//!
//! At every ply of every game the test checks:
//! - the incremental Zobrist key equals `compute_key()`, for the position and
//!   for the child of every legal move;
//! - FEN write-then-read gives the same FEN string, the same key and the same
//!   set of legal moves;
//! - copy-make leaves the parent unchanged (FEN and key before and after
//!   making every legal move on a copy);
//! - every generated move is unique, `count_legal()` agrees with
//!   `legal_moves()`, and no move leaves the mover's royal king attacked;
//! - variant invariants: forced captures (antichess, giveaway, suicide), King's-chess
//!   duty moves, crazyhouse material conservation (32 pieces on the board and
//!   in the pockets), consistency of `outcome()` with the move list;
//! - the `Delta` of the played move turns the parent's board into the child's;
//! - the played move survives UCI printing and parsing.
//!
//! Bughouse boards also get pieces added to and removed from the pockets
//! "from the partner" between moves, and when a bughouse side has to wait
//! (no legal move, no outcome) a piece arrives and must make a move possible.
//!
//! The PRNG is a seeded splitmix64, so every run plays the same games.

use rukav::protocol::options::apply_rules_option as set_house_rule;
use rukav::{Color, EndReason, Outcome, Piece, PieceType, Position, Rules, Square, Variant};

use rukav::rng::Rng;
use rukav::rules::StalemateRule;

/// What the playouts of one rule set covered.
#[derive(Default, Debug)]
struct Stats {
    games: usize,
    plies: usize,
    children: usize,
    decided: usize,
    pocket_edits: usize,
    waits: usize,
    /// Played moves by kind: castling, en passant, promotion, drop.
    castles: usize,
    en_passant: usize,
    promotions: usize,
    drops: usize,
    /// Castling rights gained by a move (DroppedRookCastles).
    rights_gained: usize,
}

fn board_of(pos: &Position) -> [Option<Piece>; 64] {
    let mut b = [None; 64];
    for (i, slot) in b.iter_mut().enumerate() {
        *slot = pos.piece_on(Square(i as u8));
    }
    b
}

fn pockets_of(pos: &Position) -> [[u8; 5]; 2] {
    let mut p = [[0u8; 5]; 2];
    for c in Color::ALL {
        for k in PieceType::POCKET {
            p[c.index()][k.index()] = pos.pocket(c, k);
        }
    }
    p
}

fn sorted_moves(pos: &Position) -> Vec<u16> {
    let mut v: Vec<u16> = pos.legal_moves().iter().map(|m| m.0).collect();
    v.sort_unstable();
    v
}

/// All the per-ply checks. Returns the number of children made.
fn check_position(pos: &Position, rules: Rules, ctx: &str) -> usize {
    let fen = pos.fen();
    let key = pos.key();
    assert_eq!(
        key,
        pos.compute_key(),
        "{ctx}: incremental key differs: {fen}"
    );

    // FEN round trip.
    let back = Position::from_fen(&fen, rules)
        .unwrap_or_else(|e| panic!("{ctx}: own FEN refused ({e}): {fen}"));
    assert_eq!(back.fen(), fen, "{ctx}: FEN round trip changed the FEN");
    assert_eq!(
        back.key(),
        key,
        "{ctx}: FEN round trip changed the key: {fen}"
    );
    let moves = pos.legal_moves();
    let mut sorted: Vec<u16> = moves.iter().map(|m| m.0).collect();
    sorted.sort_unstable();
    assert_eq!(
        sorted_moves(&back),
        sorted,
        "{ctx}: FEN round trip changed the legal moves: {fen}"
    );

    // Uniqueness and counting.
    let n = sorted.len();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        n,
        "{ctx}: duplicate moves in {fen}: {moves:?}"
    );
    assert_eq!(pos.count_legal(), n, "{ctx}: count_legal differs: {fen}");
    assert!(
        moves.iter().all(|m| !m.is_null()),
        "{ctx}: null move: {fen}"
    );

    let us = pos.side_to_move();
    let them = us.flip();
    if rules.royal_king {
        let attacked = pos.attacked_by(pos.king_sq(us), them, pos.occupied());
        assert_eq!(pos.in_check(), attacked, "{ctx}: in_check is wrong: {fen}");
    }
    if rules.must_capture {
        let any_capture = moves.iter().any(|&m| pos.is_capture(m));
        if any_capture {
            assert!(
                moves.iter().all(|&m| pos.is_capture(m)),
                "{ctx}: a capture exists but a non-capture is generated: {fen}"
            );
        }
    }
    if pos.duty_pending() {
        for &m in &moves {
            assert!(
                m.is_castle() || pos.moved_kind(m) == PieceType::King,
                "{ctx}: duty move pending but {m} is not a king move: {fen}"
            );
        }
    }
    if rules.captures_to_hand {
        let on_board = pos.occupied().count() as usize;
        let in_hand: usize = pockets_of(pos).iter().flatten().map(|&n| n as usize).sum();
        assert_eq!(
            on_board + in_hand,
            32,
            "{ctx}: material not conserved: {fen}"
        );
    }

    // Copy-make on every move.
    for &m in &moves {
        let mut child = *pos;
        child.make_move(m);
        assert_eq!(
            child.key(),
            child.compute_key(),
            "{ctx}: key after {m} differs from scratch: {fen}"
        );
        assert_eq!(
            child.side_to_move(),
            them,
            "{ctx}: {m} did not pass the turn"
        );
        if rules.royal_king {
            assert!(
                !child.attacked_by(child.king_sq(us), them, child.occupied()),
                "{ctx}: {m} leaves the king attacked: {fen}"
            );
        }
    }
    assert_eq!(pos.fen(), fen, "{ctx}: copy-make changed the parent");
    assert_eq!(pos.key(), key, "{ctx}: copy-make changed the parent's key");

    // Outcome consistency.
    match pos.outcome() {
        None => {
            if !rules.two_boards {
                assert!(n > 0, "{ctx}: no legal move but no outcome: {fen}");
            }
        }
        Some(Outcome::Win { winner, reason }) => match reason {
            EndReason::Checkmate => {
                assert_eq!(winner, them, "{ctx}: mated side wins: {fen}");
                assert!(pos.in_check() && n == 0, "{ctx}: bad checkmate: {fen}");
                if rules.two_boards {
                    assert!(
                        !pos.check_is_blockable_by_drop(),
                        "{ctx}: bughouse mate with an empty interposition square: {fen}"
                    );
                }
            }
            EndReason::KingDutyMissed => {
                assert!(
                    rules.king_duty && n == 0 && pos.duty_pending(),
                    "{ctx}: {fen}"
                );
                assert_eq!(winner, them, "{ctx}: {fen}");
            }
            EndReason::NoPieces => {
                assert!(
                    rules.losers_win && pos.color_bb(us).is_empty(),
                    "{ctx}: {fen}"
                );
                assert_eq!(winner, us, "{ctx}: {fen}");
            }
            EndReason::Stalemate => {
                assert!(
                    rules.losers_win && rules.stalemate == StalemateRule::Wins && n == 0,
                    "{ctx}: {fen}"
                );
                assert_eq!(winner, us, "{ctx}: {fen}");
            }
            EndReason::FewerPieces => {
                assert!(
                    rules.stalemate == StalemateRule::FewerPiecesWin && n == 0,
                    "{ctx}: {fen}"
                );
                assert!(
                    pos.color_bb(winner).count() < pos.color_bb(winner.flip()).count(),
                    "{ctx}: the winner has more pieces: {fen}"
                );
            }
            r => panic!("{ctx}: unexpected win reason {r:?}: {fen}"),
        },
        Some(Outcome::Draw { reason }) => match reason {
            EndReason::Stalemate => {
                assert!(
                    !pos.in_check() && n == 0 && !rules.two_boards,
                    "{ctx}: {fen}"
                );
                if rules.losers_win {
                    assert!(
                        rules.stalemate == StalemateRule::FewerPiecesWin
                            && pos.color_bb(us).count() == pos.color_bb(them).count(),
                        "{ctx}: drawn stalemate with unequal counts: {fen}"
                    );
                }
            }
            EndReason::FiftyMoves => {
                assert!(
                    rules.fifty_move_rule && pos.halfmove_clock() >= 100,
                    "{ctx}: {fen}"
                );
            }
            EndReason::InsufficientMaterial => {
                assert!(!rules.drops && n > 0, "{ctx}: {fen}");
                assert!(
                    pos.kind_bb(PieceType::Pawn).is_empty()
                        && pos.kind_bb(PieceType::Rook).is_empty()
                        && pos.kind_bb(PieceType::Queen).is_empty(),
                    "{ctx}: insufficient material with a pawn, rook or queen: {fen}"
                );
            }
            r => panic!("{ctx}: unexpected draw reason {r:?}: {fen}"),
        },
    }
    n
}

/// Plays the move and checks its `Delta` and its UCI round trip.
fn play_checked(pos: &Position, m: rukav::Move, ctx: &str) -> Position {
    let fen = pos.fen();
    assert_eq!(
        pos.parse_uci_move(&m.to_string()),
        Ok(m),
        "{ctx}: UCI round trip of {m} in {fen}"
    );
    let mut child = *pos;
    let delta = child.make_move_delta(m);
    let mut board = board_of(pos);
    for (p, sq) in delta.removed.iter().flatten() {
        assert_eq!(
            board[sq.index()],
            Some(*p),
            "{ctx}: delta of {m} removes wrongly: {fen}"
        );
        board[sq.index()] = None;
    }
    for (p, sq) in delta.added.iter().flatten() {
        assert_eq!(
            board[sq.index()],
            None,
            "{ctx}: delta of {m} adds on a full square: {fen}"
        );
        board[sq.index()] = Some(*p);
    }
    assert_eq!(
        board,
        board_of(&child),
        "{ctx}: delta of {m} misses a change: {fen}"
    );
    let mut pockets = pockets_of(pos);
    for (c, k, d) in delta.pocket.iter().flatten() {
        let slot = &mut pockets[c.index()][k.index()];
        *slot = (*slot as i16 + *d as i16) as u8;
    }
    assert_eq!(
        pockets,
        pockets_of(&child),
        "{ctx}: pocket delta of {m} is wrong: {fen}"
    );
    child
}

/// Bughouse: the partner's captures arrive (or a correction removes one).
fn pocket_traffic(pos: &mut Position, rng: &mut Rng, ctx: &str) -> bool {
    let c = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let k = PieceType::POCKET[rng.below(5)];
    let before = pos.key();
    let had = pos.pocket(c, k);
    let changed = if rng.below(4) == 0 {
        pos.remove_from_pocket(c, k).is_ok()
    } else {
        pos.add_to_pocket(c, k).is_ok()
    };
    if changed {
        assert_ne!(pos.key(), before, "{ctx}: pocket change kept the key");
        assert_ne!(pos.pocket(c, k), had, "{ctx}: pocket change kept the count");
    } else {
        assert_eq!(
            pos.key(),
            before,
            "{ctx}: failed pocket change moved the key"
        );
        assert_eq!(
            pos.pocket(c, k),
            had,
            "{ctx}: failed pocket change moved the count"
        );
    }
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "{ctx}: key after pocket change"
    );
    changed
}

fn playouts(name: &str, rules: Rules, games: usize, max_plies: usize, seed: u64) -> Stats {
    let mut rng = Rng(seed);
    let mut stats = Stats::default();
    for game in 0..games {
        let mut pos = Position::start_with(rules);
        for ply in 0..max_plies {
            let ctx = format!("{name} game {game} ply {ply}");
            if rules.two_boards && rng.below(3) == 0 {
                stats.pocket_edits += pocket_traffic(&mut pos, &mut rng, &ctx) as usize;
            }
            let n = check_position(&pos, rules, &ctx);
            stats.plies += 1;
            stats.children += n;
            if pos.outcome().is_some() {
                stats.decided += 1;
                break;
            }
            if n == 0 {
                // Only a bughouse side can have no move and no outcome: it
                // waits for its partner, who sends a knight.
                assert!(rules.two_boards, "{ctx}: no move, no outcome");
                let us = pos.side_to_move();
                pos.add_to_pocket(us, PieceType::Knight)
                    .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                assert!(
                    pos.count_legal() > 0,
                    "{ctx}: a knight in hand gives no move: {}",
                    pos.fen()
                );
                stats.waits += 1;
                continue;
            }
            let moves = pos.legal_moves();
            let m = moves[rng.below(moves.len())];
            stats.castles += m.is_castle() as usize;
            stats.en_passant += m.is_en_passant() as usize;
            stats.promotions += m.is_promotion() as usize;
            stats.drops += m.is_drop() as usize;
            let rights = pos.castling_rights();
            pos = play_checked(&pos, m, &ctx);
            if pos.castling_rights() & !rights != 0 {
                assert!(
                    rules.dropped_rook_castles && m.is_drop(),
                    "{ctx}: {m} gained castling rights"
                );
                stats.rights_gained += 1;
            }
        }
        stats.games += 1;
    }
    eprintln!("{name}: {stats:?}");
    assert_eq!(stats.games, games);
    assert!(stats.decided > 0, "{name}: no game reached an outcome");
    // The games reach every special move their rules allow.
    assert!(stats.en_passant > 0, "{name}: no en passant played");
    assert!(stats.promotions > 0, "{name}: no promotion played");
    assert_eq!(stats.castles > 0, rules.castling, "{name}: castling");
    assert_eq!(stats.drops > 0, rules.drops, "{name}: drops");
    assert_eq!(
        stats.rights_gained > 0,
        rules.dropped_rook_castles,
        "{name}: castling rights gained by a rook drop"
    );
    stats
}

fn rules_with(variant: Variant, options: &[(&str, &str)]) -> Rules {
    let mut rules = variant.rules();
    for (k, v) in options {
        set_house_rule(&mut rules, k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    rules
}

const GAMES: usize = 1000;

#[test]
fn chess_playouts() {
    playouts("chess", Variant::Chess.rules(), GAMES, 400, 1);
}

#[test]
fn kingschess_playouts() {
    let s = playouts("kingschess", Variant::KingsChess.rules(), GAMES, 400, 2);
    assert!(s.plies > GAMES * 10);
}

#[test]
fn antichess_playouts() {
    playouts("antichess", Variant::Antichess.rules(), GAMES, 400, 3);
}

#[test]
fn giveaway_playouts() {
    playouts("giveaway", Variant::Giveaway.rules(), GAMES, 400, 4);
}

#[test]
fn suicide_playouts() {
    playouts("suicide", Variant::Suicide.rules(), GAMES, 400, 7);
}

#[test]
fn crazyhouse_playouts() {
    playouts("crazyhouse", Variant::Crazyhouse.rules(), GAMES, 300, 5);
}

#[test]
fn bughouse_playouts() {
    let s = playouts("bughouse", Variant::Bughouse.rules(), GAMES, 300, 6);
    assert!(s.pocket_edits > 0);
}

macro_rules! house_rule_playouts {
    ($($test:ident: $name:expr, $opt:expr, $val:expr, $seed:expr;)*) => {$(
        #[test]
        fn $test() {
            let rules = rules_with(Variant::Crazyhouse, &[($opt, $val)]);
            assert_ne!(rules, Variant::Crazyhouse.rules(), "{} changed nothing", $name);
            playouts($name, rules, GAMES, 300, $seed);
        }
    )*};
}

house_rule_playouts! {
    zh_dropcheck_off: "zh DropCheck=false", "DropCheck", "false", 11;
    zh_dropmate_off: "zh DropMate=false", "DropMate", "false", 12;
    zh_pawndrop7th_off: "zh PawnDrop7th=false", "PawnDrop7th", "false", 13;
    zh_pawndrop2nd_forbidden: "zh PawnDrop2nd=forbidden", "PawnDrop2nd", "forbidden", 14;
    zh_pawndrop2nd_checkonly: "zh PawnDrop2nd=check-only", "PawnDrop2nd", "check-only", 15;
    zh_promotedrevert_off: "zh PromotedRevert=false", "PromotedRevert", "false", 16;
    zh_droppedrook_castles: "zh DroppedRookCastles=true", "DroppedRookCastles", "true", 17;
}
