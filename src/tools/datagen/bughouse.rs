//! Two-board bughouse self-play (`rukav datagen --variant bughouse`): whole
//! games of the bughouse game model ([`rukav::bughouse::Game`], the model
//! the arena plays) with Rukav on all four seats, each board's positions
//! written with the team result.
//!
//! # Players
//! Each board has its own engine (its own hash table and histories, cleared
//! at the start of every game). A search sees its board as the arena sends
//! it to a UCI engine before every move: the position with both pockets, no
//! earlier moves. It is a search of `--nodes` nodes on one thread.
//!
//! # Scheduling: simulated clocks
//! Real bughouse is simultaneous; here time is simulated (milliseconds of
//! a game clock, not of the machine), so that a game is the same on any
//! machine, under any load, with any thread count. Every seat has a clock
//! of the game model ([`SimClock`]: base time, increment after each move;
//! the clock of a board's side to move runs from the moment its turn
//! begins). The rule:
//!
//! 1. A board whose side to move has a legal move searches its position as
//!    it is at that moment. The search is given a simulated length of
//!    `move_ms × min(nodes searched, --nodes) / --nodes × f`, where `f` is drawn uniformly
//!    from 0.500 to 1.500 (in thousandths) from the game's generator (the one
//!    seeded by the run's seed and the game index), so that the boards do
//!    not move in lockstep. It ends at its start time plus that length.
//! 2. The search that ends first is played at its end time (ties: board A
//!    first); a capture goes to the partner's pocket when the move is
//!    played ([`rukav::bughouse::Handover::AfterClock`]).
//! 3. When a board's position changes under a running search (its pockets
//!    changed by a capture on the other board), the search starts again on
//!    the new position from that moment, as the engine restarts on a
//!    `holding` (the time already spent stays spent).
//! 4. A side to move without a legal move (a check only a dropped piece can
//!    block, or no move at all) waits, its clock running, until a piece
//!    arrives.
//! 5. A clock that runs out no later than the next move would be played
//!    ends the game first: that seat's team loses (the model's flag rule).
//!
//! # The end of a game
//! The model decides: a mate on either board (the bughouse mate rule of
//! [`rukav::Position::outcome`]: a check that a dropped piece could block is
//! not mate) loses for the mated seat's team; a flag loses for the flagged
//! seat's team; threefold repetition on a board (pockets included) is a
//! draw, and so are ends of both teams at the same moment. Besides, a game
//! in which either board reaches [`MAX_BOARD_PLIES`] plies is a draw. There
//! is no adjudication by search scores: a board that is lost can be saved
//! by a win on the other board first.
//!
//! # Records
//! Each played move's position is kept when crazyhouse datagen would keep
//! it: the side to move not in check, a best move that is no capture and no
//! promotion, a score within 2000 centipawns. A record is that board
//! position with both pockets (variant bughouse), the score of that board's
//! search, its best move, and the result of the game for the team of the
//! board's White (team 1 plays White on board A and Black on board B, so a
//! board B record's result is team 2's). Records are written in the order
//! their moves were played, both boards interleaved.

use super::setup::{opening_score, DatagenConfig, SimClock, OPENING_TRIES};
use crate::tools::record::{is_record_ply, Record};
use rukav::bughouse::{team_of, Game, Settings, TimeControl};
use rukav::engine::Engine;
use rukav::rng::Rng;
use rukav::search::{Limits, SearchResult};
use rukav::{Color, Move, Position};

/// A game in which either board reaches this many plies is a draw (as a
/// crazyhouse datagen game longer than 400 plies).
pub const MAX_BOARD_PLIES: usize = 400;

/// One played game: the model with its moves and result, and the records
/// of each board in the order they were played (`(board, record)`).
pub struct Played {
    /// The starting positions of boards A and B (after the random plies).
    #[cfg_attr(not(test), allow(dead_code))] // read by the tests
    pub start: [Position; 2],
    /// The game as the model saw it (moves, positions, result).
    #[cfg_attr(not(test), allow(dead_code))] // read by the tests
    pub game: Game,
    /// The records kept, with their board (0 = A, 1 = B).
    pub records: Vec<(usize, Record)>,
}

/// A search under way on one board.
struct Pending {
    /// The position it searches (FEN with pockets): a board whose position
    /// is no longer this one searches again.
    fen: String,
    /// Its position.
    pos: Position,
    /// Its outcome.
    result: SearchResult,
    /// When it ends (simulated ms).
    done_at: u64,
}

/// The starting positions of both boards: a book line or the start position
/// on each, then the random plies (each board draws its own count), played
/// through the model so that captures reach the partner; drawn again when
/// a board cannot move or the engine judges a board beyond the limit.
fn opening(cfg: &DatagenConfig, rng: &mut Rng, engines: &mut [Engine]) -> Option<[Position; 2]> {
    let rules = cfg.rules;
    'draw: for _ in 0..OPENING_TRIES {
        let mut start = Vec::with_capacity(2);
        for _ in 0..2 {
            start.push(if cfg.openings.is_empty() {
                Position::start_with(rules)
            } else {
                let fen = &cfg.openings[rng.below(cfg.openings.len())];
                Position::from_fen(fen, rules).unwrap_or_else(|_| Position::start_with(rules))
            });
        }
        let Ok(mut game) = Game::with_positions(Settings::new(rules), start) else {
            continue;
        };
        let plies = [0, 1].map(|_| cfg.random_plies + rng.below(2) as u32);
        for ply in 0..plies[0].max(plies[1]) {
            for (board, &n) in plies.iter().enumerate() {
                if ply >= n {
                    continue;
                }
                let moves = game.position(board).legal_moves();
                if moves.is_empty() {
                    continue 'draw;
                }
                let mv = moves[rng.below(moves.len())];
                if game.play(board, mv, 0).is_err() || game.is_over() {
                    continue 'draw;
                }
            }
        }
        let positions = [*game.position(0), *game.position(1)];
        if positions.iter().any(|p| !p.has_legal_move()) {
            continue;
        }
        if let Some(limit) = cfg.opening_limit {
            for (engine, pos) in engines.iter_mut().zip(positions) {
                if opening_score(engine, pos, cfg.opening_nodes).abs() > limit {
                    continue 'draw;
                }
            }
        }
        return Some(positions);
    }
    None
}

/// Simulated length of a search of `nodes` nodes with a budget of `budget`
/// (rule 1 of the module documentation; a search that overshoots its
/// budget, as the search's periodic node check allows, counts as the
/// budget): at least 1 ms.
fn think_ms(sim: &SimClock, budget: u64, nodes: u64, rng: &mut Rng) -> u64 {
    let factor = 500 + rng.below(1001) as u128;
    let budget = budget.max(1);
    let ms =
        nodes.clamp(1, budget) as u128 * sim.move_ms as u128 * factor / (budget as u128 * 1000);
    ms.clamp(1, u64::MAX as u128) as u64
}

/// Plays one two-board game (`engines`: one per board); `None` when no
/// acceptable opening was found.
pub fn play(cfg: &DatagenConfig, rng: &mut Rng, engines: &mut [Engine]) -> Option<Played> {
    let start = opening(cfg, rng, engines)?;
    let mut settings = Settings::new(cfg.rules);
    settings.time = Some(TimeControl {
        base_ms: cfg.sim.base_ms,
        inc_ms: cfg.sim.inc_ms,
    });
    let mut game = Game::with_positions(settings, start.to_vec()).ok()?;
    for engine in engines.iter_mut() {
        engine.new_game();
    }
    let limits = Limits {
        nodes: Some(cfg.nodes),
        multipv: 1,
        ..Limits::default()
    };
    let mut pending: [Option<Pending>; 2] = [None, None];
    let mut kept: Vec<(usize, Position, i32, Move)> = Vec::new();
    let mut plies = [0usize; 2];
    let mut now = 0u64;
    while !game.is_over() {
        if plies.iter().any(|&p| p >= MAX_BOARD_PLIES) {
            game.draw(format!("{MAX_BOARD_PLIES} plies on a board"), now);
            break;
        }
        // Rules 1, 3 and 4: start the searches that are due.
        for (board, slot) in pending.iter_mut().enumerate() {
            if game.waiting(board) {
                *slot = None;
                continue;
            }
            let pos = *game.position(board);
            let fen = pos.fen();
            if slot.as_ref().is_some_and(|p| p.fen == fen) {
                continue;
            }
            let engine = &mut engines[board];
            engine.set_position(pos, Vec::new());
            let result = engine.search_sync(limits.clone(), &|_| {});
            let done_at = now + think_ms(&cfg.sim, cfg.nodes, result.nodes, rng);
            *slot = Some(Pending {
                fen,
                pos,
                result,
                done_at,
            });
        }
        // Rules 2 and 5: the next event.
        let next = (0..2)
            .filter_map(|b| pending[b].as_ref().map(|p| (p.done_at, b)))
            .min();
        let flag = game.next_flag_ms();
        // A flag first when it falls no later than the next move (or when
        // no search runs: both boards wait, the first clock to run out decides).
        if let Some(f) = flag.filter(|&f| next.is_none_or(|(at, _)| f <= at)) {
            game.tick(f);
            if !game.is_over() {
                // Not expected: a flag ends a two-board game.
                game.draw("a flag that ended nothing".into(), f);
            }
            break;
        }
        let Some((at, board)) = next else {
            // Untimed and both boards waiting (not expected: clocks run).
            game.draw("no board can move".into(), now);
            break;
        };
        let Some(p) = pending[board].take() else {
            break;
        };
        now = at;
        let best = p.result.best;
        if best.is_null() || !p.pos.is_legal(best) {
            // Not expected from a search of a position with legal moves.
            game.draw("no move from the search".into(), now);
            break;
        }
        let pos = p.pos;
        if is_record_ply(&pos, best, p.result.score) {
            kept.push((board, pos, p.result.score, best));
        }
        if game.play(board, best, now).is_err() {
            game.draw("the model refused a move".into(), now);
            break;
        }
        plies[board] += 1;
    }
    let winner = game.result().and_then(|r| r.winner);
    let records = kept
        .iter()
        .filter_map(|&(board, pos, score, best)| {
            let result = match winner {
                None => 1,
                Some(team) if team == team_of(board, Color::White) => 2,
                Some(_) => 0,
            };
            Record::pack(&pos, score, best, result).map(|r| (board, r))
        })
        .collect();
    Some(Played {
        start,
        game,
        records,
    })
}

/// Plays one two-board game; returns its records in the order they were
/// played (nothing when no acceptable opening was found).
pub fn play_game(cfg: &DatagenConfig, rng: &mut Rng, engines: &mut [Engine]) -> Vec<Record> {
    play(cfg, rng, engines)
        .map(|p| p.records.into_iter().map(|(_, r)| r).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
