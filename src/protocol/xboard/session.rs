//! The xboard session: its state, and the engine's turn (when it thinks,
//! what becomes of a finished search, when the game is over).

use super::output::{result_line, XboardOutput};
use super::time::TimeState;
use crate::engine::{Clock, Engine, GoRequest};
use crate::position::outcome::{is_repetition, EndReason, Outcome};
use crate::protocol::io::{send, Event};
use crate::search::{Limits, SearchResult};
use crate::types::Color;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

/// The xboard session.
pub struct Xboard {
    /// The engine: game, search, partner talk.
    pub(super) engine: Engine,
    /// Where a search sends its result (the main loop's input).
    pub(super) tx: Sender<Event>,
    /// Force mode: the engine plays neither side.
    pub(super) force: bool,
    /// The side the engine plays.
    pub(super) engine_color: Color,
    /// `post`: thinking lines while searching.
    pub(super) post: bool,
    /// `level`/`st`, `sd`, `time` and `otim`.
    pub(super) timing: TimeState,
    /// The bughouse partner `partner` named.
    pub(super) partner: Option<String>,
    /// Search generation: results of aborted searches are ignored.
    pub(super) generation: u64,
    /// A search is under way.
    pub(super) searching: bool,
    /// Analysis mode (`analyze` .. `exit`): an infinite search of the
    /// current position, restarted whenever the position changes.
    pub(super) analyzing: bool,
    /// After `setboard` (and `undo` on a bughouse board) the pockets are
    /// whatever the next `holding` says (the engine's own account starts
    /// there).
    pub(super) pockets_unknown: bool,
}

impl Xboard {
    /// A session before `new`: chess, the engine Black, partner talk on.
    pub(super) fn new(tx: Sender<Event>) -> Xboard {
        let mut engine = Engine::new();
        engine.set_partner_talk(true);
        Xboard {
            engine,
            tx,
            force: false,
            engine_color: Color::Black,
            post: false,
            timing: TimeState::default(),
            partner: None,
            generation: 0,
            searching: false,
            analyzing: false,
            pockets_unknown: false,
        }
    }

    /// Aborts the search under way, if any: its result, when it comes,
    /// belongs to an old generation and is ignored.
    pub(super) fn abort_search(&mut self) {
        if self.searching {
            self.generation += 1;
            self.engine.abort();
            self.searching = false;
        }
    }

    /// The game's result when it is over by the rules (mate, stalemate, no
    /// pieces, duty, 50 moves, repetition, material). On a bughouse board
    /// only a mate that no dropped piece could block ends the game here (a
    /// blockable check waits for a piece; the rest is the server's word).
    fn game_over(&self) -> Option<Outcome> {
        let pos = self.engine.position();
        if pos.rules().two_boards {
            return pos.outcome();
        }
        pos.outcome().or_else(|| {
            let keys = self.engine.history();
            is_repetition(keys, pos.halfmove_clock() as usize, 3).then_some(Outcome::Draw {
                reason: EndReason::Repetition,
            })
        })
    }

    /// Starts thinking when it is the engine's turn; states the result
    /// instead when the game is over.
    pub(super) fn maybe_think(&mut self) {
        let pos = *self.engine.position();
        if self.force || self.searching || pos.side_to_move() != self.engine_color {
            return;
        }
        if let Some(o) = self.game_over() {
            send(&result_line(&o));
            return;
        }
        if !pos.has_legal_move() {
            // A bughouse board in a check that a dropped piece could block:
            // the move comes when `holding` brings one (a comment line, so
            // that the server's log shows why nothing came yet).
            send("# no legal move: waiting for a piece to block the check");
            return;
        }
        let request = GoRequest {
            clock: self.go_clock(),
            limits: Limits {
                depth: self.timing.sd,
                multipv: 1,
                ..Limits::default()
            },
            ponder: false,
            analysis: false,
        };
        let output = XboardOutput {
            post: self.post,
            done: Mutex::new(self.tx.clone()),
            generation: self.generation,
            words: self.engine.partner_is_person(),
        };
        self.searching = true;
        self.engine.go(request, Arc::new(output));
    }

    /// The clock of the engine's next search (see [`TimeState::go_clock`]).
    pub(super) fn go_clock(&self) -> Clock {
        self.timing
            .go_clock(self.engine_color, self.engine.moves().len())
    }

    /// A search has finished: outside analysis mode the engine plays its
    /// move (`move ...`); results of aborted searches are ignored.
    pub(super) fn finished(&mut self, r: SearchResult, generation: u64) {
        if generation != self.generation {
            return;
        }
        self.searching = false;
        // Join the search thread before touching the position.
        self.engine.wait();
        if self.analyzing {
            // An analysis ends only with `exit` (a partner's `go` stops it).
            self.analyse();
            return;
        }
        if r.best.is_null() {
            return;
        }
        let text = self.engine.position().uci_move(r.best);
        self.engine.play(r.best);
        // No result claim after the engine's own move, as Fairy-Stockfish:
        // the GUI or referee judges the move it has just received, and a
        // referee that stops reading after a mating move (fairyfishtest)
        // finds the claim in the pipe as the answer to its next game's
        // first `go` ("Illegal move: None"). The result is stated when the
        // engine is asked to move in a finished game (`maybe_think`).
        send(&format!("move {text}"));
    }
}
