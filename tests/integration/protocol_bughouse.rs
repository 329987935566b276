//! Scripted sessions for the bughouse protocol parts: the UCI bughouse
//! extension and xboard/CECP with `holding`, `partner`, `ptell`.

use crate::common;

use common::Engine;
use rukav::{Position, Variant};

#[test]
fn uci_extension_is_refused_until_enabled_then_works() {
    let mut s = Engine::start();
    s.send("uci");
    s.expect("UCI_Bughouse option", |l| {
        l == "option name UCI_Bughouse type check default false"
    });
    s.expect("uciok", |l| l == "uciok");
    s.send("bughouse ptell sit");
    s.expect("refusal", |l| {
        l.starts_with("info string error:") && l.contains("UCI_Bughouse")
    });
    s.send("setoption name UCI_Variant value bughouse");
    s.send("setoption name UCI_Bughouse value true");
    s.send("bughouse partner startpos moves e2e4 e7e5");
    s.send("bughouse clocks 60000 60000 59000 58000");
    s.send("bughouse ptell need knight");
    s.send("bughouse ptell +q");
    // Chat is no error; a tell of which nothing is understood is.
    s.send("bughouse ptell hello there");
    s.send("bughouse ptell what now");
    let bad = s.expect("bad ptell", |l| l.contains("unknown partner message"));
    assert!(bad.contains("'what now'"), "{bad}");
    s.send("bughouse partner fen garbage");
    s.expect("bad partner FEN", |l| l.contains("bad partner FEN"));
    // A pocket arrives from outside: the position shows it.
    s.send("position startpos moves e2e4 d7d5 e4d5");
    s.send("bughouse holding Nq");
    s.send("d");
    let fen = s.expect("fen", |l| l.starts_with("Fen: "));
    assert!(fen.contains("[Nq]"), "{fen}");
    s.send("go depth 4");
    let best = s.expect("bestmove", |l| l.starts_with("bestmove "));
    let mv = best.split_whitespace().nth(1).unwrap().to_string();
    let pos =
        Position::from_fen(fen.trim_start_matches("Fen: "), Variant::Bughouse.rules()).unwrap();
    assert!(
        pos.parse_uci_move(&mv).is_ok(),
        "{mv} illegal in {}",
        pos.fen()
    );
    s.quit_ok();
}

/// Waits for the engine's sitting line and checks that it holds its move
/// (it answers `isready`, and no `bestmove` comes); returns that line.
fn expect_sitting(s: &mut Engine) -> String {
    let sit = s.expect("the sitting line", |l| {
        l.starts_with("info string sitting") || l.starts_with("bestmove")
    });
    s.send("isready");
    let line = s.expect("readyok", |l| l == "readyok" || l.starts_with("bestmove"));
    assert_eq!(line, "readyok", "moved while sitting: {sit}");
    sit
}

#[test]
fn uci_sitting_holds_the_move_until_go() {
    let mut s = Engine::start();
    s.send("setoption name UCI_Variant value bughouse");
    s.send("setoption name UCI_Bughouse value true");
    s.send("position startpos");
    s.send("bughouse ptell sit");
    s.send("go wtime 60000 btime 60000");
    // Sitting, keeping half of its clock, and saying so.
    let sit = expect_sitting(&mut s);
    assert_eq!(
        sit,
        "info string sitting as the partner asked at most 30000 ms"
    );
    s.send("bughouse ptell go");
    s.expect("bestmove after go", |l| l.starts_with("bestmove "));
    // `sit` during a timed search (ten minutes on the clock: it thinks for
    // seconds) turns it into a sitting one, which holds its move too.
    s.send("go wtime 600000 btime 600000");
    s.send("bughouse ptell sit");
    let sit = expect_sitting(&mut s);
    assert!(
        sit.starts_with("info string sitting as the partner asked"),
        "{sit}"
    );
    s.send("bughouse ptell go");
    s.expect("bestmove after go", |l| l.starts_with("bestmove "));
    s.quit_ok();
}

/// Black: Kh8 Rg8 g7 h7. A knight in White's hand would mate at once
/// (N@f7, smothered: the king's three squares hold its own pieces and
/// nothing of Black's reaches f7); without it White has nothing.
const SMOTHER: &str = "6rk/6pp/8/8/8/8/PPP5/1K6[] w - - 0 1";

/// Plays `go` (with its clocks) in the smothered-mate position with the
/// bughouse extension: the engine asks for the knight that mates (the
/// urgent request) and sits; the knight arrives and the restarted search
/// mates with it. Returns the sitting line.
fn sits_for_the_mating_knight(go: &str) -> String {
    let mut s = Engine::start();
    s.send("setoption name UCI_Variant value bughouse");
    s.send("setoption name UCI_Bughouse value true");
    s.send(&format!("position fen {SMOTHER}"));
    s.send(go);
    s.expect("the request", |l| l == "info string ptell ++n");
    let sit = expect_sitting(&mut s);
    s.send("bughouse holding N");
    let best = s.expect("bestmove", |l| l.starts_with("bestmove "));
    assert!(best.starts_with("bestmove N@f7"), "{best}");
    s.quit_ok();
    sit
}

#[test]
fn uci_engine_sits_for_an_owed_piece_when_its_clock_allows() {
    // Ten seconds ahead on the clock: sitting is affordable.
    let sit = sits_for_the_mating_knight("go wtime 20000 btime 10000");
    assert!(
        sit.starts_with("info string sitting for N at most "),
        "{sit}"
    );
}

#[test]
fn uci_engine_behind_on_the_clock_sits_only_for_a_piece_it_asked_for() {
    // Ten seconds behind: no lead to sit on, but the partner was asked
    // for the knight and hunts it, so it sits up to 3 s.
    let sit = sits_for_the_mating_knight("go wtime 10000 btime 20000");
    assert_eq!(sit, "info string sitting for N at most 3000 ms");
}

#[test]
fn uci_engine_does_not_sit_when_behind_without_talk_or_in_plain_uci() {
    for (setup, go) in [
        (
            "setoption name UCI_Bughouse value true\nsetoption name PartnerMessages value false",
            "go wtime 10000 btime 20000",
        ),
        ("isready", "go wtime 20000 btime 10000"),
    ] {
        let mut s = Engine::start();
        s.send("setoption name UCI_Variant value bughouse");
        for line in setup.lines() {
            s.send(line);
        }
        s.send(&format!("position fen {SMOTHER}"));
        s.send(go);
        let best = s.expect("bestmove without a piece arriving", |l| {
            l.starts_with("bestmove") || l.starts_with("info string sitting")
        });
        assert!(best.starts_with("bestmove "), "{setup}: {best}");
        assert!(!best.contains('@'), "nothing in hand to drop: {best}");
        s.quit_ok();
    }
}

#[test]
fn uci_sitting_looks_at_every_partner_board() {
    // Partner boards where nothing of White's is attacked, and one where
    // the partner (Black) attacks a white knight with a pawn.
    let quiet = "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR[] b KQkq - 0 1";
    let knight_hangs = "r1bqkbnr/pppppppp/2n5/8/1p6/2N5/PPPPPPPP/R1BQKBNR[] w KQkq - 0 1";
    for (second, sits) in [(None, false), (Some(knight_hangs), true)] {
        let mut s = Engine::start();
        s.send("setoption name UCI_Variant value bughouse");
        s.send("setoption name UCI_Bughouse value true");
        s.send(&format!("bughouse partner fen {quiet}"));
        if let Some(fen) = second {
            s.send(&format!("bughouse partner add fen {fen}"));
        }
        s.send(&format!("position fen {SMOTHER}"));
        s.send("go wtime 20000 btime 10000");
        let line = s.expect("sitting or a move", |l| {
            l.starts_with("info string sitting") || l.starts_with("bestmove")
        });
        assert_eq!(line.starts_with("info string sitting"), sits, "{line}");
        if sits {
            s.send("bughouse holding N");
            let best = s.expect("bestmove", |l| l.starts_with("bestmove "));
            assert!(best.starts_with("bestmove N@f7"), "{best}");
        }
        s.quit_ok();
    }
}

#[test]
fn uci_partner_messages_off_sends_and_hears_nothing() {
    let mut s = Engine::start();
    s.send("setoption name UCI_Variant value bughouse");
    s.send("setoption name UCI_Bughouse value true");
    s.send("setoption name PartnerMessages value false");
    s.send(&format!("position fen {SMOTHER}"));
    // A partner's "sit" is ignored: the engine plays (behind on the clock,
    // so it does not sit on its own either), and asks for nothing.
    s.send("bughouse ptell sit");
    s.send("go wtime 10000 btime 20000");
    let line = s.expect("bestmove", |l| {
        l.starts_with("bestmove") || l.starts_with("info string ptell") || l.contains("error")
    });
    assert!(line.starts_with("bestmove "), "{line}");
    s.quit_ok();
}

#[test]
fn uci_gambler_choice_takes_the_piece_that_matters() {
    let mut s = Engine::start();
    s.send("setoption name UCI_Variant value bughouse");
    s.send("setoption name UCI_Bughouse value true");
    // Only Black's knight on h6 guards f7: without it Nf7 is a smothered
    // mate, worth more than Black's queen.
    s.send("bughouse gambler white 6rk/6pp/7n/4N3/q7/8/PPP5/1K6[] w - - 0 1");
    let line = s.expect("the choice", |l| l.starts_with("info string gambler"));
    assert_eq!(line, "info string gambler h6");
    s.send("bughouse gambler purple 8/8/8/8/8/8/8/8 w - - 0 1");
    s.expect("an error", |l| l.starts_with("info string error"));
    s.quit_ok();
}

#[test]
fn uci_holding_during_a_search_restarts_it_on_the_new_pocket() {
    let mut s = Engine::start();
    s.send("setoption name UCI_Variant value bughouse");
    s.send("setoption name UCI_Bughouse value true");
    // Black has played ...f5: with a queen in hand Q@f7 is mate (contact
    // check, f7 guarded by Bc4, e7 covered by the queen); without one there
    // is no mate in 1, so a "score mate 1" line can only come from the
    // restarted search.
    s.send("position fen r1bqkbnr/pppp2pp/2n5/4pp2/2B1P3/5N2/PPPP1PPP/RNBQK2R[] w KQkq - 0 4");
    s.send("go infinite");
    s.send("bughouse holding Q");
    s.send("d");
    // The restarted search runs while `d` is answered, so its mate lines
    // may come before the board or after it (a loaded machine showed both).
    let mate = |l: &str| l.starts_with("info depth") && l.contains("score mate 1 ");
    let lines = s.read_until("fen", |l| l.starts_with("Fen: "));
    let fen = lines.last().cloned().unwrap_or_default();
    assert!(fen.contains("[Q]"), "{fen}");
    if !lines.iter().any(|l| mate(l)) {
        s.expect("the restarted search sees the mate", mate);
    }
    s.send("stop");
    let best = s.expect("bestmove", |l| l.starts_with("bestmove "));
    // Exactly one bestmove: the interrupted search reported none.
    s.send("isready");
    let next = s.expect("readyok", |l| l == "readyok" || l.starts_with("bestmove"));
    assert_eq!(next, "readyok", "two bestmoves after a restart");
    assert!(best.starts_with("bestmove Q@f7"), "Q@f7 mates: {best}");
    s.quit_ok();
}

#[test]
fn xboard_bughouse_session() {
    let mut s = Engine::start();
    s.send("xboard");
    s.send("protover 2");
    let features = s.expect("features", |l| {
        l.starts_with("feature ") && l.contains("variants=")
    });
    for v in ["normal", "crazyhouse", "bughouse", "suicide", "giveaway"] {
        assert!(features.contains(v), "{features}");
    }
    assert!(
        features.contains("setboard=1")
            && features.contains("usermove=1")
            && features.contains("ping=1")
    );
    s.expect("done", |l| l == "feature done=1");
    s.send("new");
    s.send("variant bughouse");
    s.send("partner somebody");
    // A person is greeted with how to talk to the engine.
    let greeting = s.expect("greeting", |l| l.starts_with("tellics ptell"));
    assert!(
        greeting.contains("sit") && greeting.contains("help"),
        "{greeting}"
    );
    // A greeting asks for nothing and gets no "not understood" answer;
    // a tell that is not understood gets an answer partners can read, not
    // an error line.
    s.send("ptell hello");
    s.send("ptell what now");
    let answer = s.expect("polite answer", |l| l.starts_with("tellics ptell"));
    assert!(
        answer.contains("'what now'") && answer.contains("ptell help"),
        "{answer}"
    );
    s.send("ptell help");
    let help = s.expect("help", |l| l.starts_with("tellics ptell I understand"));
    assert!(help.contains("need") && help.contains("sit"), "{help}");
    s.send("ptell ?");
    s.expect("help again", |l| {
        l.starts_with("tellics ptell I understand")
    });
    s.send("ptell +n");
    s.send("ping 7");
    s.expect("pong", |l| l == "pong 7");
    s.send("time 6000");
    s.send("otim 6000");
    s.send("usermove e2e4");
    let reply = s.expect("engine move", |l| l.starts_with("move "));
    let mut pos = Position::startpos(Variant::Bughouse);
    pos.make_move(pos.parse_uci_move("e2e4").unwrap());
    let m = pos
        .parse_uci_move(reply.trim_start_matches("move "))
        .expect("legal reply");
    pos.make_move(m);
    // The partner's capture arrives: White gets a knight, Black a pawn.
    s.send("holding [N] [p]");
    s.send("force");
    s.send("usermove N@f3");
    s.send("usermove e2e5");
    s.expect("illegal", |l| l == "Illegal move: e2e5");
    s.send("go");
    let reply = s.expect("engine move 2", |l| l.starts_with("move "));
    pos.add_to_pocket(rukav::Color::White, rukav::PieceType::Knight)
        .unwrap();
    pos.add_to_pocket(rukav::Color::Black, rukav::PieceType::Pawn)
        .unwrap();
    pos.make_move(pos.parse_uci_move("N@f3").unwrap());
    assert!(
        pos.parse_uci_move(reply.trim_start_matches("move "))
            .is_ok(),
        "{reply} illegal in {}",
        pos.fen()
    );
    s.send("foo");
    s.expect("unknown", |l| l.starts_with("Error (unknown command)"));
    s.quit_ok();
}

/// An xboard session in bughouse, as xboard's zippy mode starts one on FICS.
fn zippy_session() -> Engine {
    let mut s = Engine::start();
    s.send("xboard");
    s.send("protover 2");
    s.expect("done", |l| l == "feature done=1");
    s.send("new");
    s.send("variant bughouse");
    s.send("partner BugB");
    s
}

/// An engine that has been sent `lines`.
fn after(lines: &[&str]) -> Engine {
    let mut s = Engine::start();
    for line in lines {
        s.send(line);
    }
    s
}

/// The lines up to the answer to `ping n`, none of them starting with any
/// of `refused` (an `Illegal move`, an `Error`, a claim).
fn none_until_pong(s: &mut Engine, n: u32, refused: &[&str]) {
    s.send(&format!("ping {n}"));
    let pong = format!("pong {n}");
    let lines = s.read_until("pong", |l| l == pong);
    assert!(
        lines
            .iter()
            .all(|l| !refused.iter().any(|r| l.starts_with(r))),
        "{lines:?}"
    );
}

/// The engine's `move ...` for the current `go`; panics on `Error` or
/// `Illegal move` lines.
fn zippy_move(s: &mut Engine) -> String {
    let line = s.expect("a move", |l| {
        l.starts_with("move ") || l.starts_with("Error") || l.starts_with("Illegal")
    });
    assert!(line.starts_with("move "), "{line}");
    line.trim_start_matches("move ").to_string()
}

/// The lines seen on FICS: xboard forwards the server's holdings with
/// upper-case letters in both brackets (`holding [B] [N]`, the CECP
/// specification's own example is `holding [PPPRQ] [R] BR`). The bracket
/// names the owner: White must not drop Black's knight (4 illegal drops
/// in 3 games before), and Black drops its own.
#[test]
fn xboard_fics_holdings_are_read_by_bracket() {
    let mut s = zippy_session();
    s.send("force");
    s.send("setboard 4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    s.send("holding [] [N]");
    s.send("sd 2");
    s.send("go");
    let white = zippy_move(&mut s);
    assert!(!white.contains('@'), "White holds nothing: {white}");
    // Black in check from the rook on h8, its king boxed in by its own
    // pawns: the only legal moves are drops of its knight on b8..g8.
    s.send("force");
    s.send("setboard k6R/pp6/8/8/8/8/8/4K3 b - - 0 1");
    s.send("holding [P] [N] BN");
    s.send("sd 2");
    s.send("go");
    let black = zippy_move(&mut s);
    let pos = Position::from_fen(
        "k6R/pp6/8/8/8/8/8/4K3[Pn] b - - 0 1",
        Variant::Bughouse.rules(),
    )
    .unwrap();
    assert!(
        black.starts_with("N@") && pos.parse_uci_move(&black).is_ok(),
        "{black}"
    );
    // The trailing field and repeated unchanged holdings are no errors.
    s.send("force");
    s.send("holding [PPPRQ] [R] BR");
    s.send("holding [PPPRQ] [R]");
    s.send("ping 3");
    let lines = s.read_until("pong", |l| l == "pong 3");
    assert!(lines.iter().all(|l| !l.starts_with("Error")), "{lines:?}");
    s.quit_ok();
}

/// fairyfishtest (Fairy-Stockfish's four-engine bughouse referee) computes
/// a board's holdings from its own move list, which already holds the
/// opponent's drop when the partner board's capture sends `holding` to
/// both engines of this board; the drop itself comes after, as `usermove`.
/// Taking the brackets as the pockets lost Black's pawn, `usermove P@e6`
/// was called illegal, and the referee waited for ever (two hangs in two
/// runs). The engine keeps its own account: the arrival (`WQ`) adds the
/// queen, the brackets' missing pawn is Black's drop on its way.
#[test]
fn xboard_holding_that_counts_a_drop_still_to_come_keeps_the_piece() {
    let mut s = after(&[
        "xboard",
        "protover 2",
        "new",
        "variant bughouse",
        "partner test",
        "level 0 0:10 0",
        "time 1000",
        "otim 1000",
        "go",
    ]);
    let first = zippy_move(&mut s);
    let mut pos = Position::startpos(Variant::Bughouse);
    pos.make_move(pos.parse_uci_move(&first).unwrap());
    // Black receives a pawn from the other board (the brackets say so).
    s.send("holding [] [P] BP");
    // The race: Black drops it on the referee's board; White's partner
    // captures a queen; the line reaches the engine before the drop.
    s.send("holding [Q] [] WQ");
    s.send("time 990");
    s.send("otim 980");
    s.send("usermove P@e6");
    let reply = zippy_move(&mut s);
    pos.add_to_pocket(rukav::Color::Black, rukav::PieceType::Pawn)
        .unwrap();
    pos.make_move(pos.parse_uci_move("P@e6").unwrap());
    pos.add_to_pocket(rukav::Color::White, rukav::PieceType::Queen)
        .unwrap();
    assert!(
        pos.parse_uci_move(&reply).is_ok(),
        "{reply} illegal in {}",
        pos.fen()
    );
    s.quit_ok();
}

/// A drop whose piece the engine's account has not got yet (the `holding`
/// that brings it is still on its way) is the server's word: played, with
/// a `#` line, never `Illegal move` and a hang. Outside bughouse an
/// impossible drop stays illegal.
#[test]
fn xboard_drop_before_its_holding_is_played() {
    let mut s = after(&[
        "xboard",
        "protover 2",
        "new",
        "variant bughouse",
        "force",
        "usermove e2e4",
        "usermove N@f6",
    ]);
    s.expect("the note", |l| l.starts_with("# usermove N@f6"));
    none_until_pong(&mut s, 1, &["Illegal"]);
    // The knight is on f6 and the pockets are empty: the next holding
    // snapshot agrees without a note.
    s.send("holding [] []");
    s.send("usermove g1f3");
    none_until_pong(&mut s, 2, &["#", "Illegal"]);
    // A drop on an occupied square is illegal whatever the pockets.
    s.send("usermove N@e4");
    s.expect("illegal", |l| l == "Illegal move: N@e4");
    s.send("variant crazyhouse");
    s.send("force");
    s.send("usermove N@f3");
    s.expect("illegal in crazyhouse", |l| l == "Illegal move: N@f3");
    s.quit_ok();
}

/// The engine's own drop is not given back by a line computed before the
/// server saw it (`holding` still counting the dropped knight), and a
/// difference no move on its way explains is taken from the brackets.
#[test]
fn xboard_holding_keeps_the_engines_own_drop_and_resyncs_otherwise() {
    let mut s = after(&[
        "xboard",
        "protover 2",
        "new",
        "variant bughouse",
        "force",
        "usermove e2e4",
        "usermove e7e5",
        "holding [N] [] WN",
        "usermove N@f3",
        // Stale: still counts White's knight, and brings Black a pawn.
        "holding [N] [P] BP",
    ]);
    s.expect("kept", |l| {
        l.starts_with("# holding") && l.contains("on its way")
    });
    // White's knight is gone: dropping another is illegal on this board
    // only if White has none (Black to move, so test Black's pawn).
    s.send("usermove P@d6");
    none_until_pong(&mut s, 1, &["Illegal"]);
    // Now White to move, with nothing in hand by the account; brackets
    // that say White holds two rooks cannot be a drop on its way.
    s.send("holding [RR] []");
    s.expect("resync", |l| {
        l.starts_with("# holding") && l.contains("taken as")
    });
    s.send("usermove R@a3");
    s.send("usermove P@c6");
    // P@c6: Black has no pawn any more, but this is bughouse: the server's
    // word, played with a note; R@a3 is White's own rook.
    none_until_pong(&mut s, 2, &["Illegal"]);
    s.quit_ok();
}

/// fairyfishtest stops reading an engine once its move ends the game, and
/// takes the next line it reads as the answer to the next game's first
/// `go`: a result claim printed after the engine's own mating move became
/// "Illegal move: None" and a lost game. Like Fairy-Stockfish, the engine
/// claims nothing after its own move.
#[test]
fn xboard_no_claim_follows_the_engines_own_mating_move() {
    let mut s = after(&[
        "xboard",
        "protover 2",
        "new",
        "variant crazyhouse",
        "force",
        "setboard r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR[] w KQkq - 4 4",
        "sd 3",
        "go",
    ]);
    assert_eq!(zippy_move(&mut s), "h5f7");
    s.send("new");
    none_until_pong(&mut s, 1, &["1-0", "0-1", "1/2"]);
    s.quit_ok();
}

/// Sjeng greets its partner and answers what it does not understand with
/// "Sorry, but I don't understand that command."; answering that again
/// would make two bots talk for ever. A partner that greets as Sjeng is a
/// bot: nothing is answered to it, in this game or the next, and its
/// requests are read. A new partner of another name is a person again.
#[test]
fn xboard_bot_partners_get_no_answers() {
    let mut s = zippy_session();
    s.expect("greeting", |l| {
        l.starts_with("tellics ptell Hi, I am Rukav")
    });
    s.send("ptell Hello! I am Sjeng and hope you enjoy playing with me.");
    s.send("ptell Sorry, but I don't understand that command.");
    s.send("ptell Mate in 3, give him no more pieces.");
    s.send("ptell ---n");
    s.send("ptell what now");
    s.send("ping 1");
    let lines = s.read_until("pong", |l| l == "pong 1");
    assert!(
        lines.iter().all(|l| !l.starts_with("tellics")),
        "answered a bot: {lines:?}"
    );
    s.send("new");
    s.send("variant bughouse");
    s.send("ptell Greetings.");
    s.send("ptell what now");
    s.send("ping 2");
    let lines = s.read_until("pong", |l| l == "pong 2");
    assert!(lines.iter().all(|l| !l.starts_with("tellics")), "{lines:?}");
    s.send("partner alice");
    s.expect("greeting", |l| {
        l.starts_with("tellics ptell Hi, I am Rukav")
    });
    s.send("ptell what now");
    s.expect("a person's answer", |l| l.starts_with("tellics ptell ?"));
    s.quit_ok();
}

/// The holds seen in 2-minute games on FICS: `sitting while mated at most
/// 84895 ms` and `sitting as the partner asked at most 65000 ms` left
/// about 2 s, and a bot without timeseal then lost on time (and later one
/// that sat from 16 s down to 6 s). Every hold now keeps half of the clock
/// (and a tenth of the game's); a side mated by force keeps the tenth
/// only: waiting costs it nothing, and the tenth is what kept bots from
/// flagging to lag.
#[test]
fn xboard_holds_keep_a_reserve_on_a_two_minute_clock() {
    let mut s = zippy_session();
    s.send("level 0 2 0");
    // White is mated in two (a queen drop follows Kg1): it stalls.
    s.send("force");
    s.send("setboard 8/8/8/8/8/6k1/8/7K w - - 0 1");
    s.send("holding [] [Q]");
    s.send("time 8690");
    s.send("otim 7000");
    s.send("go");
    let sit = s.expect("the stall", |l| {
        l.starts_with("# sitting") || l.starts_with("move ")
    });
    // Mated by force, it waits until a tenth of the game is left (the
    // game's clock as far as it knows: 86.9 s): 78.21 s of 86.9 s.
    assert_eq!(sit, "# sitting while mated at most 78210 ms");
    s.send("?");
    zippy_move(&mut s);
    // The partner asks to sit: at 67 s, at most half of it.
    s.send("new");
    s.send("variant bughouse");
    s.send("level 0 2 0");
    s.send("ptell sit");
    s.send("time 6700");
    s.send("otim 6000");
    s.send("usermove e2e4");
    let sit = s.expect("the sit", |l| {
        l.starts_with("# sitting") || l.starts_with("move ")
    });
    assert_eq!(sit, "# sitting as the partner asked at most 33500 ms");
    s.send("ptell go");
    zippy_move(&mut s);
    s.quit_ok();
}

/// A person is told in words what changed: each tell that changed
/// something is acknowledged, chat is not, and a tell not understood gets
/// one "?" until the engine has moved.
#[test]
fn xboard_acknowledges_a_persons_tells_in_words() {
    let mut s = Engine::start();
    s.send("xboard");
    s.send("protover 2");
    s.expect("done", |l| l == "feature done=1");
    s.send("new");
    s.send("variant bughouse");
    s.send("force");
    s.send("partner alice");
    s.expect("greeting", |l| {
        l.starts_with("tellics ptell Hi, I am Rukav")
    });
    s.send("ptell Don't give him a queen!");
    let ack = s.expect("ack", |l| l.starts_with("tellics ptell"));
    assert_eq!(ack, "tellics ptell ok: won't give Q until you say trades");
    s.send("ptell thanks");
    s.send("ptell blorp");
    let q = s.expect("question", |l| l.starts_with("tellics ptell"));
    assert!(
        q.starts_with("tellics ptell ?") && q.contains("'blorp'"),
        "{q}"
    );
    s.send("ptell blorp again");
    s.send("ptell trades good");
    let next = s.expect("trades ack", |l| l.starts_with("tellics ptell"));
    assert_eq!(
        next, "tellics ptell ok: trading freely again",
        "one '?' until the engine moves, none for thanks"
    );
    s.quit_ok();
}

/// A partner that greets as a bot (Sjeng here) gets no words: no
/// acknowledgement, no "?", and its acknowledgements ("Ok, Knight mates")
/// ask for nothing.
#[test]
fn xboard_keeps_short_codes_with_a_bot_partner() {
    let mut s = Engine::start();
    s.send("xboard");
    s.send("protover 2");
    s.expect("done", |l| l == "feature done=1");
    s.send("new");
    s.send("variant bughouse");
    s.send("force");
    s.send("partner sjengbot");
    s.expect("greeting", |l| l.starts_with("tellics ptell"));
    s.send("ptell Hello! I am Sjeng and hope you enjoy playing with me.");
    s.send("ptell For help on some commands that I understand, ptell me 'help'");
    s.send("ptell -q");
    s.send("ptell Ok, Knight mates");
    s.send("ptell blorp");
    s.send("ping 3");
    let next = s.expect("pong", |l| l.starts_with("tellics ptell") || l == "pong 3");
    assert_eq!(next, "pong 3", "nothing said to a bot");
    s.quit_ok();
}

/// The partner dictates a move: a legal one is played at once instead of
/// the searched one; an illegal one changes nothing.
#[test]
fn uci_a_dictated_move_is_played() {
    let mut s = Engine::start();
    s.send("setoption name UCI_Variant value bughouse");
    s.send("setoption name UCI_Bughouse value true");
    s.send("position startpos moves e2e4");
    // Ten minutes on the clock: it would think for seconds.
    s.send("go wtime 600000 btime 600000");
    s.send("bughouse ptell move e7e4");
    s.send("bughouse ptell move f7f6");
    let best = s.expect("bestmove", |l| l.starts_with("bestmove "));
    assert_eq!(best, "bestmove f7f6", "a weak move no search plays");
    s.quit_ok();
}

/// The partner board's clocks (`bughouse clocks`) bound a sit the partner
/// asks for: White to move with 60 s against a diagonal (the partner's
/// opponent, White on the partner's board) of 70 s does not sit; against
/// 50 s it sits for 10 s.
#[test]
fn uci_no_sit_below_the_diagonal_clock() {
    let mut s = Engine::start();
    s.send("setoption name UCI_Variant value bughouse");
    s.send("setoption name UCI_Bughouse value true");
    s.send("position startpos");
    s.send("bughouse ptell sit");
    s.send("bughouse clocks 60000 60000 70000 50000");
    s.send("go wtime 60000 btime 60000 movetime 200");
    let line = s.expect("sit or move", |l| {
        l.starts_with("info string sitting") || l.starts_with("bestmove")
    });
    assert!(line.starts_with("bestmove"), "{line}");
    s.send("bughouse clocks 60000 60000 50000 70000");
    s.send("go wtime 60000 btime 60000");
    let sit = expect_sitting(&mut s);
    assert_eq!(
        sit,
        "info string sitting as the partner asked at most 10000 ms"
    );
    s.send("bughouse ptell go");
    s.expect("bestmove after go", |l| l.starts_with("bestmove "));
    s.quit_ok();
}

/// A person's `go` moves now (also when the engine holds for its own
/// reasons or just thinks); a dictated move is played and acknowledged, an
/// impossible one is answered in words.
#[test]
fn xboard_a_persons_go_and_move_play_now() {
    let mut s = zippy_session();
    s.expect("greeting", |l| {
        l.starts_with("tellics ptell Hi, I am Rukav")
    });
    s.send("ptell move e2e4");
    let sorry = s.expect("sorry", |l| l.starts_with("tellics ptell"));
    assert!(sorry.contains("not my move"), "{sorry}");
    s.send("time 60000");
    s.send("otim 60000");
    s.send("usermove e2e4");
    s.send("ptell move e7e5");
    let ack = s.expect("ack", |l| {
        l.starts_with("tellics ptell") || l.starts_with("move ")
    });
    assert_eq!(ack, "tellics ptell ok: playing e7e5");
    assert_eq!(zippy_move(&mut s), "e7e5");
    s.send("time 60000");
    s.send("otim 60000");
    s.send("usermove g1f3");
    s.send("ptell go");
    zippy_move(&mut s);
    s.quit_ok();
}
