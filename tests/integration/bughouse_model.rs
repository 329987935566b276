//! The two- and three-board bughouse model: transfers, the mate rule, clocks
//! and simultaneous ends, the Gambler promotion rule, the three-board form,
//! SAN. Time is given explicitly (no real clocks). BPGN is tested in
//! `src/tools/bpgn`.

use rukav::bughouse::{Form, Game, Handover, LossReason, PlayError, Settings, Team, TimeControl};
use rukav::position::notation::{parse_san, san};
use rukav::rules::PromotionRule;
use rukav::{Color, PieceType, Position, Rules, Square, Variant};

fn rules() -> Rules {
    Variant::Bughouse.rules()
}

fn settings() -> Settings {
    Settings::new(rules())
}

fn timed(base_ms: u64, inc_ms: u64) -> Settings {
    let mut s = settings();
    s.time = Some(TimeControl { base_ms, inc_ms });
    s
}

/// Plays a UCI move on a board (untimed, time 0 unless given).
fn mv(game: &mut Game, board: usize, uci: &str) {
    mv_at(game, board, uci, 0);
}

fn mv_at(game: &mut Game, board: usize, uci: &str, now: u64) {
    let pos = *game.position(board);
    let m = pos
        .parse_uci_move(uci)
        .unwrap_or_else(|e| panic!("board {board}: {e}"));
    game.play(board, m, now)
        .unwrap_or_else(|e| panic!("board {board} {uci}: {e}"));
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn keys_consistent(game: &Game) {
    for b in 0..game.board_count() {
        let p = game.position(b);
        assert_eq!(p.key(), p.compute_key(), "board {b}: {}", p.fen());
    }
}

#[test]
fn capture_goes_to_the_partner_in_his_colour() {
    let mut g = Game::new(settings());
    mv(&mut g, 0, "e2e4");
    mv(&mut g, 0, "d7d5");
    mv(&mut g, 0, "e4d5"); // White A takes a pawn: Black B gets a pawn
    assert_eq!(g.position(1).pocket(Color::Black, PieceType::Pawn), 1);
    assert_eq!(g.position(0).pocket(Color::White, PieceType::Pawn), 0);
    mv(&mut g, 0, "d8d5"); // Black A takes: White B gets a pawn
    assert_eq!(g.position(1).pocket(Color::White, PieceType::Pawn), 1);
    mv(&mut g, 1, "P@e4"); // White B drops it
    assert_eq!(g.position(1).pocket(Color::White, PieceType::Pawn), 0);
    keys_consistent(&g);
    assert!(!g.is_over());
}

#[test]
fn teams_and_seats() {
    use rukav::bughouse::team_of;
    assert_eq!(team_of(0, Color::White), Team::One);
    assert_eq!(team_of(1, Color::Black), Team::One);
    assert_eq!(team_of(0, Color::Black), Team::Two);
    assert_eq!(team_of(1, Color::White), Team::Two);
    assert_eq!(team_of(2, Color::Black), Team::One);
}

#[test]
fn promoted_piece_goes_over_as_a_pawn() {
    // White queen on d8 is promoted; Black takes it: White B gets a pawn.
    let a = Position::from_fen("3Q~k3/8/8/8/8/8/8/4K3[] b - - 0 1", rules()).unwrap();
    let b = Position::start_with(rules());
    let mut g = Game::with_positions(settings(), vec![a, b]).unwrap();
    mv(&mut g, 0, "e8d8");
    assert_eq!(g.position(1).pocket(Color::Black, PieceType::Pawn), 0);
    // Black A captured: the piece goes to Black A's partner, White B.
    assert_eq!(g.position(1).pocket(Color::White, PieceType::Pawn), 1);
    assert_eq!(g.position(1).pocket(Color::White, PieceType::Queen), 0);

    // Without PromotedRevert it goes over as a queen.
    let mut r = rules();
    r.promoted_revert = false;
    let mut g = Game::with_positions(Settings::new(r), vec![a, b]).unwrap();
    mv(&mut g, 0, "e8d8");
    assert_eq!(g.position(1).pocket(Color::White, PieceType::Queen), 1);
}

#[test]
fn fools_mate_is_not_mate_in_bughouse_until_no_piece_can_come() {
    let mut g = Game::new(settings());
    mv(&mut g, 0, "f2f3");
    mv(&mut g, 0, "e7e5");
    mv(&mut g, 0, "g2g4");
    mv(&mut g, 0, "d8h4"); // check with f2 and g3 empty: White may wait
    assert!(!g.is_over());
    assert!(g.waiting(0));
    // Black B (White A's partner) captures: White A gets a pawn and can block.
    mv(&mut g, 1, "e2e4");
    mv(&mut g, 1, "d7d5");
    mv(&mut g, 1, "b1c3");
    mv(&mut g, 1, "d5e4");
    assert_eq!(g.position(0).pocket(Color::White, PieceType::Pawn), 1);
    assert!(!g.waiting(0));
    mv(&mut g, 0, "P@g3");
    assert!(!g.is_over());
}

#[test]
fn contact_mate_ends_the_match() {
    let mut g = Game::new(settings());
    for m in ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"] {
        mv(&mut g, 0, m);
    }
    let r = g.result().expect("mate");
    assert_eq!(r.winner, Some(Team::One));
    assert_eq!(r.reason, "BlackA checkmated");
    assert_eq!(g.ends()[0].reason, LossReason::Checkmate);
    // Nothing moves after the end.
    let m = g.position(1).parse_uci_move("e2e4").unwrap();
    assert_eq!(g.play(1, m, 0), Err(PlayError::Over));
}

#[test]
fn a_blockable_back_rank_check_waits() {
    // Black king h8, pawns g7 h7; White rook a8 check with b8..g8 empty: blockable.
    let a = Position::from_fen("R6k/6pp/8/8/8/8/8/K7[] b - - 0 1", rules()).unwrap();
    let g = Game::with_positions(settings(), vec![a, Position::start_with(rules())]).unwrap();
    assert!(!g.is_over());
    assert!(g.waiting(0));
}

#[test]
fn illegal_moves_are_refused() {
    let mut g = Game::new(settings());
    let pos = *g.position(0);
    let drop = rukav::Move::drop(PieceType::Knight, sq("e4"));
    assert!(matches!(g.play(0, drop, 0), Err(PlayError::Illegal(_))));
    assert!(pos.parse_uci_move("e2e5").is_err());
    assert_eq!(g.plies(), 0);
}

#[test]
fn handover_after_or_before_the_clock() {
    for handover in [Handover::AfterClock, Handover::BeforeClock] {
        let mut s = timed(60_000, 0);
        s.handover = handover;
        let mut g = Game::new(s);
        mv_at(&mut g, 1, "e2e4", 0); // Black B to move
        mv_at(&mut g, 0, "e2e4", 0);
        mv_at(&mut g, 0, "d7d5", 10);
        let pos = *g.position(0);
        let m = pos.parse_uci_move("e4d5").unwrap();
        g.make(0, m, 20).unwrap();
        let before = g.position(1).pocket(Color::Black, PieceType::Pawn);
        match handover {
            Handover::AfterClock => assert_eq!(before, 0),
            Handover::BeforeClock => assert_eq!(before, 1),
        }
        // The board waits for the press.
        let other = g.position(0).parse_uci_move("d8d5").unwrap();
        assert_eq!(g.play(0, other, 25), Err(PlayError::Unpressed));
        g.press(0, 30).unwrap();
        assert_eq!(g.position(1).pocket(Color::Black, PieceType::Pawn), 1);
        mv_at(&mut g, 1, "P@e5", 40);
        // White A used 30 - 10 = 20 ms on its second move, 0 on its first.
        assert_eq!(g.clock_ms(0, Color::White, 40), 60_000 - 20);
    }
}

#[test]
fn a_flag_before_the_press_hands_nothing_over() {
    let mut g = Game::new(timed(10_000, 0));
    mv_at(&mut g, 0, "e2e4", 0);
    mv_at(&mut g, 0, "d7d5", 0);
    mv_at(&mut g, 1, "e2e4", 0);
    mv_at(&mut g, 1, "e7e5", 5000); // board B's next flag: 15000
    let m = g.position(0).parse_uci_move("e4d5").unwrap();
    g.make(0, m, 6000).unwrap();
    // White A's clock runs from 0 with 10000 ms: zero at 10000, before the press.
    assert_eq!(g.press(0, 12_000), Err(PlayError::Over));
    let r = g.result().unwrap();
    assert_eq!(r.winner, Some(Team::Two));
    assert_eq!(r.reason, "WhiteA lost on time");
    assert_eq!(g.position(1).pocket(Color::Black, PieceType::Pawn), 0);
}

#[test]
fn flags_and_simultaneous_ends() {
    // Both White clocks run from 0: they reach zero together, one per team.
    let mut g = Game::new(timed(1000, 0));
    assert_eq!(g.next_flag_ms(), Some(1000));
    g.tick(999);
    assert!(!g.is_over());
    g.tick(1000);
    let r = g.result().unwrap();
    assert_eq!(r.winner, None, "{}", r.reason);
    assert!(r.reason.contains("WhiteA lost on time"));
    assert!(r.reason.contains("WhiteB lost on time"));

    // White A moves in time: only White B flags.
    let mut g = Game::new(timed(1000, 500));
    mv_at(&mut g, 0, "e2e4", 10);
    assert_eq!(g.clock_ms(0, Color::White, 10), 1000 - 10 + 500);
    g.tick(1005);
    let r = g.result().unwrap();
    assert_eq!(r.winner, Some(Team::One));
    assert_eq!(r.reason, "WhiteB lost on time");

    // A move that comes after its own flag does not count.
    let mut g = Game::new(timed(1000, 0));
    let m = g.position(0).parse_uci_move("e2e4").unwrap();
    assert_eq!(g.play(0, m, 1500), Err(PlayError::Over));
    assert!(g.result().unwrap().reason.contains("lost on time"));
}

#[test]
fn repetition_draws_the_match_and_forfeit_and_draw_work() {
    let mut g = Game::new(settings());
    for _ in 0..2 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            mv(&mut g, 0, m);
        }
    }
    let r = g.result().unwrap();
    assert_eq!(r.winner, None);
    assert!(r.reason.contains("repetition"), "{}", r.reason);

    let mut g = Game::new(settings());
    g.forfeit(1, Color::White, "WhiteB crashed".into(), 5);
    assert_eq!(g.result().unwrap().winner, Some(Team::One));
    assert_eq!(g.result().unwrap().result_str(), "1-0");

    let mut g = Game::new(settings());
    g.draw("agreed".into(), 5);
    assert_eq!(g.result().unwrap().result_str(), "1/2-1/2");
}

#[test]
fn gambler_promotion_takes_a_piece_from_the_partners_opponent() {
    let mut r = rules();
    r.promotion_rule = PromotionRule::Gambler;
    let a = Position::from_fen("k2r4/4P3/8/8/8/8/8/4K3[] w - - 0 1", r).unwrap();
    let b = Position::start_with(r);
    let mut g = Game::with_positions(Settings::new(r), vec![a, b]).unwrap();
    let promo = g.position(0).parse_uci_move("e7e8q").unwrap();
    let rep = g.play(0, promo, 0).unwrap();
    assert!(rep.gambler);
    let pending = *g.gambler_pending().unwrap();
    assert_eq!(pending.board, 0);
    // Both boards wait.
    let m = g.position(1).parse_uci_move("e2e4").unwrap();
    assert_eq!(g.play(1, m, 0), Err(PlayError::Paused));
    // Black B (the partner) may take White B's knights, bishops, rooks, queen.
    let choices = g.gambler_choices();
    assert_eq!(choices.len(), 7);
    assert!(choices.contains(&(1, sq("d1"))));
    assert!(!choices.contains(&(1, sq("e2"))));
    assert_eq!(g.default_gambler_choice(), Some((1, sq("d1"))));
    // Taking a rook from its corner costs White B that castling right.
    assert!(g.complete_gambler(1, sq("e1"), 0).is_err());
    g.complete_gambler(1, sq("h1"), 0).unwrap();
    assert!(g.gambler_pending().is_none());
    let pa = g.position(0);
    assert_eq!(pa.piece_on(sq("e8")).map(|p| p.kind), Some(PieceType::Rook));
    assert!(!pa.promoted().has(sq("e8")));
    let pb = g.position(1);
    assert!(pb.piece_on(sq("h1")).is_none());
    assert_eq!(pb.pocket(Color::White, PieceType::Pawn), 1);
    assert!(!pb.fen().contains(" KQkq "));
    assert_eq!(g.moves().last().unwrap().san, "e8=R");
    keys_consistent(&g);
    // The rook is handed on as a rook, not as a pawn.
    mv(&mut g, 0, "d8e8");
    assert_eq!(g.position(1).pocket(Color::White, PieceType::Rook), 1);
    // The log records where the piece came from (BPGN writes it as a comment).
    let promotion = g.moves().iter().rev().nth(1).unwrap();
    assert_eq!(promotion.gambler, Some((1, sq("h1"))));
}

#[test]
fn gambler_without_a_piece_to_take_is_an_ordinary_promotion() {
    let mut r = rules();
    r.promotion_rule = PromotionRule::Gambler;
    let a = Position::from_fen("k7/4P3/8/8/8/8/8/4K3[] w - - 0 1", r).unwrap();
    let b = Position::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3[] w - - 0 1", r).unwrap();
    let mut g = Game::with_positions(Settings::new(r), vec![a, b]).unwrap();
    mv(&mut g, 0, "e7e8n");
    assert!(g.gambler_pending().is_none());
    assert_eq!(
        g.position(0).piece_on(sq("e8")).map(|p| p.kind),
        Some(PieceType::Knight)
    );
    assert!(g.position(0).promoted().has(sq("e8")));
}

#[test]
fn put_and_take_piece_keep_the_key() {
    let mut p = Position::start_with(rules());
    assert!(p.take_piece(sq("e1")).is_err());
    assert!(p.take_piece(sq("e4")).is_err());
    assert!(p
        .put_piece(
            sq("e2"),
            rukav::Piece::new(Color::White, PieceType::Queen),
            false
        )
        .is_err());
    let q = p.take_piece(sq("a1")).unwrap();
    assert_eq!(q.kind, PieceType::Rook);
    assert_eq!(p.key(), p.compute_key());
    p.put_piece(sq("e4"), q, true).unwrap();
    assert!(p.promoted().has(sq("e4")));
    assert_eq!(p.key(), p.compute_key());
    assert!(p
        .put_piece(
            sq("e8"),
            rukav::Piece::new(Color::White, PieceType::Pawn),
            false
        )
        .is_err());
}

fn three() -> Settings {
    let mut s = settings();
    s.form = Form::ThreeBoards;
    s
}

#[test]
fn three_boards_share_the_side_pocket() {
    let mut g = Game::new(three());
    // Centre: White (team 1) takes: Black on both side boards gets it.
    mv(&mut g, 0, "e2e4");
    mv(&mut g, 0, "d7d5");
    mv(&mut g, 0, "e4d5");
    for b in [1, 2] {
        assert_eq!(g.position(b).pocket(Color::Black, PieceType::Pawn), 1);
    }
    // A drop on side board B empties the shared pocket on C too.
    mv(&mut g, 1, "e2e4");
    mv(&mut g, 1, "P@e5");
    assert_eq!(g.position(2).pocket(Color::Black, PieceType::Pawn), 0);
    // A side-board capture goes to the centre player of the team.
    mv(&mut g, 2, "d2d4");
    mv(&mut g, 2, "e7e5");
    mv(&mut g, 2, "d4e5"); // White C (team 2) takes: Black A (team 2) gets it
    assert_eq!(g.position(0).pocket(Color::Black, PieceType::Pawn), 1);
    keys_consistent(&g);
}

const SCHOLAR: [&str; 7] = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"];

#[test]
fn three_boards_side_mates_leave_play_and_two_lose_the_match() {
    let mut g = Game::new(three());
    // White on B (team 2) mates Black (team 1): board B leaves play.
    for m in SCHOLAR {
        mv(&mut g, 1, m);
    }
    assert!(!g.is_over());
    assert!(!g.is_live(1));
    // Its pieces leave the game: later captures in the centre go to C only.
    mv(&mut g, 0, "e2e4");
    mv(&mut g, 0, "d7d5");
    mv(&mut g, 0, "e4d5");
    assert_eq!(g.position(2).pocket(Color::Black, PieceType::Pawn), 1);
    assert_eq!(g.position(1).pocket(Color::Black, PieceType::Pawn), 0);
    let m = rukav::Move::normal(sq("a7"), sq("a6"));
    assert_eq!(g.play(1, m, 0), Err(PlayError::NotLive));
    // Team 1 loses its second side board: team 2 wins the match.
    for m in SCHOLAR {
        mv(&mut g, 2, m);
    }
    let r = g.result().unwrap();
    assert_eq!(r.winner, Some(Team::Two));
    assert!(r.reason.contains("lost both side boards"), "{}", r.reason);
}

#[test]
fn three_boards_centre_mate_ends_the_match() {
    let mut g = Game::new(three());
    for m in SCHOLAR {
        mv(&mut g, 0, m);
    }
    let r = g.result().unwrap();
    assert_eq!(r.winner, Some(Team::One));
    assert_eq!(r.reason, "BlackA checkmated");
}

#[test]
fn san_disambiguates_and_marks_checks() {
    let two = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R[] w - - 0 1", rules()).unwrap();
    let m = two.parse_uci_move("a1d1").unwrap();
    assert_eq!(san(&two, m), "Rad1");
    assert_eq!(parse_san(&two, "Rad1").unwrap().to_string(), "a1d1");
    let p = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R[] w KQ - 0 1", rules()).unwrap();
    let m = p.parse_uci_move("e1g1").unwrap();
    assert_eq!(san(&p, m), "O-O");
    let m = p.parse_uci_move("a1a8").unwrap();
    assert_eq!(san(&p, m), "Ra8+");
    assert_eq!(parse_san(&p, "0-0").unwrap().to_string(), "e1g1");
}
