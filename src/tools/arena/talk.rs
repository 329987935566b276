//! What the engines of each team said to each other in a game and what came
//! of it: messages relayed, `need` requests and whether the piece arrived
//! in the requester's pocket and was dropped, `sit` requests, and how often
//! engines held a move (for a piece on their own, or as the partner asked).

use rukav::bughouse::partner::REQUEST_MOVES;
use rukav::bughouse::tell::{read, Reading};
use rukav::bughouse::Game;
use rukav::{Color, Move, MoveKind, PieceType};

/// One team's talk in one game (or summed over games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TalkStats {
    /// Messages relayed from this team's engines.
    pub messages: usize,
    /// `need` requests among them.
    pub needs: usize,
    /// Requests whose piece reached the requester's pocket while the
    /// request held (the requester's next [`REQUEST_MOVES`] moves).
    pub arrived: usize,
    /// Arrived pieces the requester then dropped while the request held.
    pub used: usize,
    /// `sit` requests.
    pub sits_asked: usize,
    /// Moves held back for a piece (the engine sat on its own).
    pub sat_for_piece: usize,
    /// Moves held back because the partner asked.
    pub sat_for_partner: usize,
    /// Moves held back while being mated (stalling).
    pub stalled: usize,
}

impl TalkStats {
    /// Adds another game's counts.
    pub fn add(&mut self, o: &TalkStats) {
        self.messages += o.messages;
        self.needs += o.needs;
        self.arrived += o.arrived;
        self.used += o.used;
        self.sits_asked += o.sits_asked;
        self.sat_for_piece += o.sat_for_piece;
        self.sat_for_partner += o.sat_for_partner;
        self.stalled += o.stalled;
    }
}

/// A `need` request still holding.
#[derive(Clone, Copy, Debug)]
struct OpenNeed {
    team: usize,
    board: usize,
    color: Color,
    kind: PieceType,
    moves_left: u8,
    pocket_seen: u8,
    arrived: bool,
}

/// The talk of one game, per team of engines (`--team1` first).
#[derive(Clone, Debug, Default)]
pub struct TalkLog {
    /// Counts per team of engines.
    pub stats: [TalkStats; 2],
    open: Vec<OpenNeed>,
}

impl TalkLog {
    /// A message relayed from the engine of team `team` on `board` playing `color`.
    pub fn said(&mut self, game: &Game, team: usize, board: usize, color: Color, text: &str) {
        let s = &mut self.stats[team];
        s.messages += 1;
        for reading in read(text) {
            match reading {
                Reading::Need(kind, _) => {
                    s.needs += 1;
                    self.open.retain(|n| {
                        !(n.team == team && n.board == board && n.color == color && n.kind == kind)
                    });
                    self.open.push(OpenNeed {
                        team,
                        board,
                        color,
                        kind,
                        moves_left: REQUEST_MOVES,
                        pocket_seen: game.position(board).pocket(color, kind),
                        arrived: false,
                    });
                }
                Reading::Sit => s.sits_asked += 1,
                _ => {}
            }
        }
    }

    /// An engine line `info string sitting ...` of team `team`.
    pub fn sat(&mut self, team: usize, text: &str) {
        if text.starts_with("as the partner asked") {
            self.stats[team].sat_for_partner += 1;
        } else if text.starts_with("for ") {
            self.stats[team].sat_for_piece += 1;
        } else if text.starts_with("while mated") {
            self.stats[team].stalled += 1;
        }
    }

    /// A move `mv` by `color` on `board`, just played (before [`TalkLog::update`]
    /// looks at the pockets again): a drop of a requested piece that has
    /// arrived counts as used, and the requests of the mover age.
    pub fn moving(&mut self, board: usize, color: Color, mv: Move) {
        let stats = &mut self.stats;
        self.open.retain_mut(|n| {
            if n.board != board || n.color != color {
                return true;
            }
            if n.arrived && mv.kind() == MoveKind::Drop(n.kind) {
                stats[n.team].used += 1;
                return false;
            }
            n.moves_left = n.moves_left.saturating_sub(1);
            n.moves_left > 0
        });
    }

    /// After any change of the game: pieces that reached a requester's pocket.
    pub fn update(&mut self, game: &Game) {
        for n in &mut self.open {
            let now = game.position(n.board).pocket(n.color, n.kind);
            if now > n.pocket_seen && !n.arrived {
                n.arrived = true;
                self.stats[n.team].arrived += 1;
            }
            n.pocket_seen = now;
        }
    }
}

/// One line per team for the match summary.
pub fn talk_lines(totals: &[TalkStats; 2], games: usize) -> Vec<String> {
    let games = games.max(1) as f64;
    totals
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(
                "Talk of team {}'s engines: {} messages ({:.1} per game); need {}: arrived {}, \
                 dropped {}; sit asked {}; held a move for a piece {}, as the partner asked {}, \
                 while mated {}",
                i + 1,
                t.messages,
                t.messages as f64 / games,
                t.needs,
                t.arrived,
                t.used,
                t.sits_asked,
                t.sat_for_piece,
                t.sat_for_partner,
                t.stalled
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rukav::bughouse::Settings;
    use rukav::Variant;

    fn play(game: &mut Game, log: &mut TalkLog, board: usize, uci: &str) {
        let pos = *game.position(board);
        let mv = pos.parse_uci_move(uci).unwrap();
        game.play(board, mv, 0).unwrap();
        log.moving(board, pos.side_to_move(), mv);
        log.update(game);
    }

    /// WhiteA asks for a knight; his partner (Black on B) wins one, it
    /// reaches WhiteA's pocket and is dropped: counted as arrived and used.
    /// A second request lapses after WhiteA's next moves without a knight.
    #[test]
    fn a_requested_piece_arrives_and_is_dropped() {
        let mut game = Game::new(Settings::new(Variant::Bughouse.rules()));
        let mut log = TalkLog::default();
        log.said(&game, 0, 0, Color::White, "need n");
        log.said(&game, 0, 1, Color::Black, "help");
        log.said(&game, 1, 1, Color::White, "sit");
        for m in ["g1f3", "e7e5", "f3g5", "d8g5"] {
            play(&mut game, &mut log, 1, m);
        }
        assert_eq!(game.position(0).pocket(Color::White, PieceType::Knight), 1);
        play(&mut game, &mut log, 0, "N@e5");
        let team1 = log.stats[0];
        assert_eq!((team1.messages, team1.needs), (2, 1));
        assert_eq!((team1.arrived, team1.used), (1, 1));
        assert_eq!((log.stats[1].messages, log.stats[1].sits_asked), (1, 1));
        log.said(&game, 0, 0, Color::White, "+q");
        for m in ["d7d6", "a2a3", "a7a6", "b2b3", "b7b6", "c2c3"] {
            play(&mut game, &mut log, 0, m);
        }
        for m in ["h7h6", "d2d3", "g7g6", "e2e3", "f7f6", "h2h3"] {
            play(&mut game, &mut log, 0, m);
        }
        assert_eq!(log.stats[0].needs, 2);
        assert_eq!(log.stats[0].arrived, 1, "no queen came");
        assert!(log.open.is_empty(), "the request lapsed: {:?}", log.open);
        log.sat(0, "for N at most 6666 ms");
        log.sat(0, "as the partner asked at most 100 ms");
        log.sat(1, "while mated at most 8000 ms");
        assert_eq!(
            (log.stats[0].sat_for_piece, log.stats[0].sat_for_partner),
            (1, 1)
        );
        assert_eq!((log.stats[0].stalled, log.stats[1].stalled), (0, 1));
    }
}
