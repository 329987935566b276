//! The arena with small fake engines: python3 scripts written by the test
//! that answer at once from a fixed list of moves (by colour), or crash, or
//! never answer, or play an illegal move. No test asserts anything about
//! time; hanging engines lose on a short clock. An engine that stops
//! reading its input is killed and restarted between games. A move written
//! `e2e4@200` is played after 200 ms; a log starts with the process id.

use super::ArenaConfig;
use super::{self as arena};
use crate::tools::bpgn;
use crate::tools::elo::{elo_with_error, pair_scores};
use rukav::bughouse::{Form, Handover, Team, TimeControl};
use rukav::{Rules, Variant};
use std::path::PathBuf;

const FAKE: &str = r#"
import os, sys, time
log = None if sys.argv[1] == '-' else open(sys.argv[1], 'a')
if log:
    log.write('pid %d\n' % os.getpid())
    log.flush()
ext = sys.argv[2] == 'ext'
def parse(s):
    return [] if s == '-' else s.split(',')
lists = {'w': parse(sys.argv[3]), 'b': parse(sys.argv[4])}
ptell = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] != '-' else None
gamble = sys.argv[6] if len(sys.argv) > 6 and sys.argv[6] != '-' else None
name = sys.argv[7] if len(sys.argv) > 7 else 'Fake'
idx = {'w': 0, 'b': 0}
side = 'w'
def out(s):
    sys.stdout.write(s + '\n')
    sys.stdout.flush()
for line in sys.stdin:
    line = line.strip()
    if log:
        log.write(line + '\n')
        log.flush()
    if line == 'uci':
        out('id name ' + name)
        out('option name UCI_Variant type combo default chess var chess var bughouse')
        if ext:
            out('option name UCI_Bughouse type check default false')
        out('uciok')
    elif line == 'isready':
        out('readyok')
    elif line == 'ucinewgame':
        idx = {'w': 0, 'b': 0}
    elif line.startswith('position fen'):
        f = line.split()
        side = f[3] if len(f) > 3 else 'w'
    elif line.startswith('go'):
        l = lists[side]
        i = idx[side]
        if i >= len(l):
            continue
        idx[side] += 1
        m = l[i]
        if m == 'CRASH':
            sys.exit(3)
        if m == 'HANG':
            continue
        if m == 'DEAF':
            time.sleep(3600)
        if '@' in m:
            m, ms = m.split('@')
            time.sleep(int(ms) / 1000)
        if ptell:
            out('info string ptell ' + ptell)
        out('bestmove ' + m)
    elif line.startswith('bughouse gambler') and gamble:
        out('info string gambler ' + gamble)
    elif line == 'quit':
        break
"#;

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("rukav-arena-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("fake.py"), FAKE).unwrap();
        Dir(d)
    }

    /// A fake engine command: moves as White, moves as Black (comma lists).
    fn engine(&self, log: Option<&str>, ext: bool, white: &str, black: &str) -> String {
        self.engine_ptell(log, ext, white, black, None)
    }

    fn engine_ptell(
        &self,
        log: Option<&str>,
        ext: bool,
        white: &str,
        black: &str,
        ptell: Option<&str>,
    ) -> String {
        let log = log.map_or("-".to_string(), |l| self.0.join(l).display().to_string());
        let mut cmd = format!(
            "python3 '{}' '{log}' {} {white} {black}",
            self.0.join("fake.py").display(),
            if ext { "ext" } else { "plain" }
        );
        if let Some(p) = ptell {
            cmd.push_str(&format!(" '{p}'"));
        }
        cmd
    }

    /// A fake engine with the extension that answers `bughouse gambler`
    /// with `square`.
    fn engine_gambler(&self, white: &str, black: &str, square: &str) -> String {
        let mut cmd = self.engine_ptell(None, true, white, black, None);
        cmd.push_str(&format!(" - {square}"));
        cmd
    }

    /// A fake engine without the extension that says `id name <name>` and
    /// logs its input to `log`.
    fn engine_named(&self, log: &str, white: &str, black: &str, name: &str) -> String {
        let mut cmd = self.engine(Some(log), false, white, black);
        cmd.push_str(&format!(" - - {name}"));
        cmd
    }

    fn path(&self, f: &str) -> PathBuf {
        self.0.join(f)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Quiet moves for a long while (no captures, no repetition).
const QUIET_W: &str = "a2a3,b2b3,c2c3,d2d3,h2h3,g2g3,a3a4,b3b4,h3h4,g3g4";
const QUIET_B: &str = "a7a6,b7b6,c7c6,d7d6,h7h6,g7g6,a6a5,b6b5,h6h5,g6g5";
/// Scholar's mate for White, and Black's part of it.
const SCHOLAR_W: &str = "e2e4,f1c4,d1h5,h5f7";
const SCHOLAR_B: &str = "e7e5,b8c6,g8f6";

fn config(
    team1: Vec<String>,
    team2: Vec<String>,
    form: Form,
    games: u32,
    tc_ms: u64,
) -> ArenaConfig {
    ArenaConfig {
        team1,
        team2,
        games,
        tc: TimeControl {
            base_ms: tc_ms,
            inc_ms: 0,
        },
        bpgn: None,
        house_rules: Vec::new(),
        form,
        handover: Handover::AfterClock,
        max_moves: 400,
        handshake_ms: 20_000,
        engine_options: [Vec::new(), Vec::new()],
        concurrency: 1,
    }
}

fn rules() -> Rules {
    Variant::Bughouse.rules()
}

#[test]
fn scripted_mate_bpgn_and_protocol() {
    let d = Dir::new("mate");
    // Seats of the first game: WhiteA mates (Scholar's mate) on board A,
    // board B plays quiet moves. WhiteA speaks the extension and sends a
    // partner message; BlackB speaks it too and logs what it receives.
    let white_a = d.engine_ptell(Some("wa.log"), true, SCHOLAR_W, "-", Some("need n"));
    let black_a = d.engine(Some("ba.log"), false, "-", SCHOLAR_B);
    let white_b = d.engine(None, false, QUIET_W, "-");
    let black_b = d.engine(Some("bb.log"), true, "-", QUIET_B);
    let mut cfg = config(
        vec![white_a, black_b],
        vec![black_a, white_b],
        Form::TwoBoards,
        1,
        60_000,
    );
    cfg.bpgn = Some(d.path("games.bpgn"));
    let mut lines = Vec::new();
    let s = arena::run(&cfg, &mut |u| lines.push(u.line().to_string())).unwrap();
    assert_eq!((s.wins, s.draws, s.losses), (1, 0, 0), "{lines:?}");
    let g = &s.games[0];
    assert_eq!(g.result.winner, Some(Team::One));
    assert_eq!(g.result.reason, "BlackA checkmated");
    assert!(g.ptells >= 1);
    assert!(g.talk[0].needs >= 1, "{:?}", g.talk);
    assert_eq!(g.talk[1].messages, 0, "{:?}", g.talk);
    assert!(
        lines.iter().any(|l| l.starts_with("game 1/1: 1-0")),
        "{lines:?}"
    );

    // The extension: UCI_Bughouse switched on, partner board and clocks sent,
    // the partner message relayed; the plain engine got UCI_Variant and FENs.
    let wa = std::fs::read_to_string(d.path("wa.log")).unwrap();
    assert!(
        wa.contains("setoption name UCI_Bughouse value true"),
        "{wa}"
    );
    assert!(wa.contains("bughouse partner fen "), "{wa}");
    assert!(wa.contains("bughouse clocks "), "{wa}");
    let bb = std::fs::read_to_string(d.path("bb.log")).unwrap();
    assert!(bb.contains("bughouse ptell need n"), "{bb}");
    let ba = std::fs::read_to_string(d.path("ba.log")).unwrap();
    assert!(
        ba.contains("setoption name UCI_Variant value bughouse"),
        "{ba}"
    );
    assert!(!ba.contains("UCI_Bughouse"), "{ba}");
    assert!(
        ba.contains("position fen rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR["),
        "{ba}"
    );
    assert!(ba.contains("go wtime "), "{ba}");

    // BPGN written, then read back through the model.
    let text = std::fs::read_to_string(d.path("games.bpgn")).unwrap();
    assert!(text.contains("[WhiteA \"Fake\"]"), "{text}");
    assert!(text.contains("[TimeControl \"60+0\"]"), "{text}");
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("1A. e4 {"), "{text}");
    assert!(text.contains("4A. Qxf7# {"), "{text}");
    assert!(text.contains("{BlackA checkmated} 1-0"), "{text}");
    let games = bpgn::read(&text, rules()).unwrap();
    assert_eq!(games.len(), 1);
    let rg = &games[0];
    assert_eq!(rg.game.result().unwrap().winner, Some(Team::One));
    assert_eq!(rg.game.moves().len(), g.moves);
    assert!(rg.clocks.iter().all(|c| c.is_some()));
    let summary = bpgn::check(&text, rules()).unwrap();
    assert!(
        summary.starts_with("1 games replayed: 1 end on the board"),
        "{summary}"
    );
    // A result that the moves contradict is found.
    let wrong = text.replace("{BlackA checkmated} 1-0", "{BlackA checkmated} 0-1");
    let err = bpgn::check(&wrong, rules()).unwrap_err();
    assert!(err.contains("game 1"), "{err}");
}

#[test]
fn crashing_engine_loses_and_the_match_goes_on() {
    let d = Dir::new("crash");
    let good = d.engine(None, false, QUIET_W, QUIET_B);
    let crash = d.engine(None, false, "CRASH", "CRASH");
    let cfg = config(
        vec![good.clone(), good],
        vec![crash.clone(), crash],
        Form::TwoBoards,
        2,
        60_000,
    );
    let s = arena::run(&cfg, &mut |_| {}).unwrap();
    assert_eq!((s.wins, s.draws, s.losses), (2, 0, 0));
    for g in &s.games {
        assert!(g.result.reason.contains("crashed"), "{}", g.result.reason);
    }
    // The second game has the seats swapped: team 1's engines sit on team 2's seats.
    assert!(s.games[1].swapped);
    assert_eq!(s.games[1].result.winner, Some(Team::Two));
    let (elo, _) = s.elo();
    assert!(elo.is_infinite() && elo > 0.0);
}

#[test]
fn hanging_engine_loses_on_time() {
    let d = Dir::new("hang");
    let good = d.engine(None, false, QUIET_W, QUIET_B);
    let hang = d.engine(None, false, "HANG", "HANG");
    let cfg = config(
        vec![hang.clone(), hang],
        vec![good.clone(), good],
        Form::TwoBoards,
        1,
        300,
    );
    let s = arena::run(&cfg, &mut |_| {}).unwrap();
    assert_eq!((s.wins, s.draws, s.losses), (0, 0, 1));
    let r = &s.games[0].result;
    assert_eq!(r.winner, Some(Team::Two));
    assert!(r.reason.contains("WhiteA lost on time"), "{}", r.reason);
}

#[test]
fn illegal_move_loses() {
    let d = Dir::new("illegal");
    let good = d.engine(None, false, QUIET_W, QUIET_B);
    let bad = d.engine(None, false, "a2a3,e2e5", "a1a1");
    let cfg = config(
        vec![good.clone(), good],
        vec![bad.clone(), bad],
        Form::TwoBoards,
        1,
        60_000,
    );
    let s = arena::run(&cfg, &mut |_| {}).unwrap();
    let r = &s.games[0].result;
    assert_eq!(r.winner, Some(Team::One), "{}", r.reason);
    assert!(r.reason.contains("illegal move"), "{}", r.reason);
}

#[test]
fn three_boards_centre_mate() {
    let d = Dir::new("three");
    // Team 1: White in the centre (Scholar's mate), Black on the sides.
    let t1 = d.engine(None, false, SCHOLAR_W, QUIET_B);
    // Team 2: Black in the centre, White on the sides.
    let t2 = d.engine(None, false, QUIET_W, SCHOLAR_B);
    let mut cfg = config(
        vec![t1.clone(), t1.clone(), t1],
        vec![t2.clone(), t2.clone(), t2],
        Form::ThreeBoards,
        1,
        60_000,
    );
    cfg.bpgn = Some(d.path("three.bpgn"));
    let s = arena::run(&cfg, &mut |_| {}).unwrap();
    let r = &s.games[0].result;
    assert_eq!(r.winner, Some(Team::One), "{}", r.reason);
    assert_eq!(r.reason, "BlackA checkmated");
    let text = std::fs::read_to_string(d.path("three.bpgn")).unwrap();
    assert!(text.contains("[Boards \"3\"]"), "{text}");
    assert!(text.contains("[WhiteC \"Fake\"]"), "{text}");
    let games = bpgn::read(&text, rules()).unwrap();
    assert_eq!(games[0].game.board_count(), 3);
    assert!(games[0].game.is_over());
}

#[test]
fn command_line_parsing() {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: arena::ArenaArgs,
    }
    let cli = Cli::parse_from([
        "x",
        "--team1",
        "a b",
        "--team2",
        "c",
        "--white-b",
        "w b",
        "--tc",
        "0.5+0.1",
        "--option",
        "PromotionRule=gambler",
        "--games",
        "4",
    ]);
    let cfg = ArenaConfig::from_args(&cli.args).unwrap();
    assert_eq!(cfg.team1, vec!["a b".to_string(), "a b".to_string()]);
    assert_eq!(cfg.team2, vec!["c".to_string(), "w b".to_string()]);
    assert_eq!(cfg.tc.base_ms, 500);
    assert_eq!(cfg.tc.inc_ms, 100);
    assert_eq!(cfg.games, 4);
    assert_eq!(
        cfg.rules().unwrap().promotion_rule,
        rukav::rules::PromotionRule::Gambler
    );
    assert_eq!(
        arena::split_command("python3 'a b.py' x \"y z\""),
        vec!["python3", "a b.py", "x", "y z"]
    );
    assert!(arena::parse_tc("abc").is_err());
    let (elo, err) = elo_with_error(&[1.0, 0.5, 0.0, 1.0].repeat(6));
    assert!(elo > 0.0 && err > 0.0 && err.is_finite());
    assert_eq!(pair_scores(&[1.0, 0.5, 0.0, 0.0, 1.0]), vec![0.75, 0.0]);
}

#[test]
fn deaf_engine_is_restarted_between_games() {
    let d = Dir::new("deaf");
    let good = d.engine(None, false, QUIET_W, QUIET_B);
    let deaf = d.engine(None, false, "DEAF", "DEAF");
    let mut cfg = config(
        vec![good.clone(), good],
        vec![deaf.clone(), deaf],
        Form::TwoBoards,
        2,
        300,
    );
    cfg.handshake_ms = 4000;
    let s = arena::run(&cfg, &mut |_| {}).unwrap();
    assert_eq!((s.wins, s.draws, s.losses), (2, 0, 0));
    for g in &s.games {
        assert!(
            g.result.reason.contains("lost on time"),
            "{}",
            g.result.reason
        );
    }
}

#[test]
fn gambler_promotion_in_the_arena() {
    // Board A: White promotes on a8 (5. bxa8), then plays an illegal move so
    // that the game ends at once; board B plays quiet moves. No engine has
    // the extension: the arena chooses.
    let (s, text) = gambler_game("gambler", None);
    let r = &s.games[0].result;
    assert_eq!(r.winner, Some(Team::Two), "{}", r.reason);
    assert!(r.reason.contains("WhiteA"), "{}", r.reason);
    assert!(r.reason.contains("illegal move"), "{}", r.reason);
    assert!(
        text.contains("[HouseRules \"PromotionRule=gambler\"]"),
        "{text}"
    );
    // The partner took White B's queen: it stands on a8, not promoted.
    assert!(text.contains("5A. bxa8=Q {gambler B d1}"), "{text}");
    let games = bpgn::read(&text, rules()).unwrap();
    let g = &games[0].game;
    let a8 = rukav::Square::parse("a8").unwrap();
    let d1 = rukav::Square::parse("d1").unwrap();
    assert_eq!(
        g.position(0).piece_on(a8),
        Some(rukav::Piece::new(
            rukav::Color::White,
            rukav::PieceType::Queen
        ))
    );
    assert!(!g.position(0).promoted().has(a8));
    assert!(g.position(1).piece_on(d1).is_none());
}

/// The Gambler test's game; with `square`, team 1's engines have the
/// extension and answer `bughouse gambler` with it (team 1 plays Black on
/// board B in game 1, so its board-B engine chooses the piece of White B).
fn gambler_game(name: &str, square: Option<&str>) -> (arena::Summary, String) {
    let d = Dir::new(name);
    let white = "b2b4,b4a5,a5b6,b6b7,b7a8q,a1a1";
    let t1 = match square {
        Some(sq) => d.engine_gambler(white, QUIET_B, sq),
        None => d.engine(None, false, white, QUIET_B),
    };
    let t2 = d.engine(None, false, QUIET_W, "a7a5,b7b6,h7h6,h6h5,h8h6");
    let mut cfg = config(
        vec![t1.clone(), t1],
        vec![t2.clone(), t2],
        Form::TwoBoards,
        1,
        60_000,
    );
    cfg.house_rules = vec![("PromotionRule".into(), "gambler".into())];
    cfg.bpgn = Some(d.path("gambler.bpgn"));
    let s = arena::run(&cfg, &mut |_| {}).unwrap();
    let text = std::fs::read_to_string(d.path("gambler.bpgn")).unwrap();
    (s, text)
}

#[test]
fn gambler_choice_is_asked_of_an_extension_engine() {
    // The partner engine takes the knight on g1, not the arena's queen.
    let (s, text) = gambler_game("gambler-ask", Some("g1"));
    let r = &s.games[0].result;
    assert!(r.reason.contains("illegal move"), "{}", r.reason);
    assert!(text.contains("5A. bxa8=N {gambler B g1}"), "{text}");
    let games = bpgn::read(&text, rules()).unwrap();
    let g = &games[0].game;
    let a8 = rukav::Square::parse("a8").unwrap();
    assert_eq!(
        g.position(0).piece_on(a8),
        Some(rukav::Piece::new(
            rukav::Color::White,
            rukav::PieceType::Knight
        ))
    );
}

#[test]
fn illegal_gambler_choice_loses() {
    // e1 holds White B's king: it may not be taken.
    let (s, _) = gambler_game("gambler-illegal", Some("e1"));
    let r = &s.games[0].result;
    assert_eq!(r.winner, Some(Team::Two), "{}", r.reason);
    assert!(r.reason.contains("illegal Gambler choice"), "{}", r.reason);
    assert!(r.reason.contains("BlackB"), "{}", r.reason);
}

#[test]
fn endings_are_counted_without_names() {
    assert_eq!(
        super::summary::ending_kind("BlackA checkmated"),
        "checkmated"
    );
    assert_eq!(
        super::summary::ending_kind("WhiteB (Rukav 0.1.0) crashed (exited)"),
        "crashed"
    );
    assert_eq!(
        super::summary::ending_kind("BlackB (x) played an illegal move: e2e5"),
        "played an illegal move"
    );
}

/// Tags (but the date), result, result comment, moves of board A.
type GameKey = (Vec<(String, String)>, String, Option<String>, Vec<String>);

/// One game of a BPGN file, without what depends on timing (clocks, and
/// how far board B got).
fn game_key(g: &bpgn::ReadGame) -> GameKey {
    let tags = g
        .tags
        .iter()
        .filter(|(k, _)| k != "Date")
        .cloned()
        .collect();
    let board_a = g
        .game
        .moves()
        .iter()
        .filter(|m| m.board == 0)
        .map(|m| m.san.clone())
        .collect();
    (tags, g.result.clone(), g.result_comment.clone(), board_a)
}

/// A 4-game match at `concurrency`: the BPGN text, the summary, the game
/// lines, and how many engine processes were started.
fn concurrent_match(d: &Dir, concurrency: u32) -> (String, arena::Summary, Vec<String>, usize) {
    // Team 1's board-A engine mates slowly as White (game 1, 3) and plays
    // an illegal move at once as Black (games 2, 4, seats swapped): the
    // even games end long before the odd ones.
    let slow_mate = "e2e4@150,f1c4@150,d1h5@150,h5f7@150";
    let log = |seat: &str| format!("{seat}-{concurrency}.log");
    let t1a = d.engine_named(&log("t1a"), slow_mate, "a1a1", "T1A");
    let t1b = d.engine_named(&log("t1b"), QUIET_W, QUIET_B, "T1B");
    let t2a = d.engine_named(&log("t2a"), QUIET_W, SCHOLAR_B, "T2A");
    let t2b = d.engine_named(&log("t2b"), QUIET_W, QUIET_B, "T2B");
    let mut cfg = config(vec![t1a, t1b], vec![t2a, t2b], Form::TwoBoards, 4, 60_000);
    cfg.concurrency = concurrency;
    let file = d.path(&format!("games-{concurrency}.bpgn"));
    cfg.bpgn = Some(file.clone());
    let mut lines = Vec::new();
    let s = arena::run(&cfg, &mut |u| {
        if let arena::Update::Game(_, l) = u {
            lines.push(l.to_string());
        }
    })
    .unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let mut pids = std::collections::HashSet::new();
    for seat in ["t1a", "t1b", "t2a", "t2b"] {
        let l = std::fs::read_to_string(d.path(&log(seat))).unwrap();
        pids.extend(
            l.lines()
                .filter(|l| l.starts_with("pid "))
                .map(String::from),
        );
    }
    (text, s, lines, pids.len())
}

#[test]
fn concurrent_games_are_recorded_in_game_order() {
    let d = Dir::new("concurrency");
    let (text1, s1, lines1, procs1) = concurrent_match(&d, 1);
    let (text2, s2, lines2, procs2) = concurrent_match(&d, 2);
    // One set of four engines per slot: no process is in two games at once.
    assert_eq!(procs1, 4);
    assert_eq!(procs2, 8);
    for (text, s, lines) in [(&text1, &s1, &lines1), (&text2, &s2, &lines2)] {
        // Game index, not finishing order: odd games are team 1's wins
        // with team 1's engines on their own seats.
        let scores: Vec<f64> = s.games.iter().map(|g| g.score).collect();
        assert_eq!(scores, vec![1.0, 0.0, 1.0, 0.0], "{lines:?}");
        let swapped: Vec<bool> = s.games.iter().map(|g| g.swapped).collect();
        assert_eq!(swapped, vec![false, true, false, true]);
        assert_eq!((s.wins, s.draws, s.losses), (2, 0, 2));
        assert_eq!(s.games[0].result.reason, "BlackA checkmated");
        assert!(
            s.games[1]
                .result
                .reason
                .contains("BlackA (T1A) played an illegal move"),
            "{}",
            s.games[1].result.reason
        );
        for (i, l) in lines.iter().enumerate() {
            assert!(l.starts_with(&format!("game {}/4", i + 1)), "{lines:?}");
        }
        assert_eq!(lines.len(), 4);
        // The last line's totals are the match's.
        assert!(lines[3].contains("team 1 W 2 D 0 L 2"), "{lines:?}");
        let games = bpgn::read(text, rules()).unwrap();
        let rounds: Vec<&str> = games.iter().filter_map(|g| g.tag("Round")).collect();
        assert_eq!(rounds, vec!["1", "2", "3", "4"], "{text}");
        let white_a: Vec<&str> = games.iter().filter_map(|g| g.tag("WhiteA")).collect();
        assert_eq!(white_a, vec!["T1A", "T2A", "T1A", "T2A"], "{text}");
        let summary = bpgn::check(text, rules()).unwrap();
        assert!(summary.starts_with("4 games replayed"), "{summary}");
    }
    // The same games, in the same order, with and without concurrency.
    let keys = |text: &str| -> Vec<_> {
        bpgn::read(text, rules())
            .unwrap()
            .iter()
            .map(game_key)
            .collect()
    };
    assert_eq!(keys(&text1), keys(&text2));
}

#[test]
fn concurrency_out_of_range_is_refused() {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: arena::ArenaArgs,
    }
    let parse = |n: &str| {
        Cli::try_parse_from(["x", "--team1", "a", "--team2", "b", "--concurrency", n])
            .map(|c| c.args.concurrency)
    };
    assert_eq!(parse("3").unwrap(), 3);
    for bad in ["0", "257", "-1", "two"] {
        assert!(parse(bad).is_err(), "{bad}");
    }
    let ok = Cli::parse_from(["x", "--team1", "a", "--team2", "b"]);
    assert_eq!(ok.args.concurrency, 1);
    let mut args = ok.args;
    args.concurrency = 0;
    let err = ArenaConfig::from_args(&args).unwrap_err();
    assert!(err.contains("--concurrency"), "{err}");
    // A configuration built in code is checked too, before any engine starts.
    let d = Dir::new("concurrency0");
    let e = d.engine(None, false, QUIET_W, QUIET_B);
    let mut cfg = config(
        vec![e.clone(), e.clone()],
        vec![e.clone(), e],
        Form::TwoBoards,
        2,
        60_000,
    );
    cfg.concurrency = 0;
    let err = arena::run(&cfg, &mut |_| {}).unwrap_err();
    assert!(err.contains("--concurrency"), "{err}");
}
