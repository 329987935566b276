//! The engine on a bughouse board: the partner's words and board, pockets
//! that change from outside, and the plan made before each move (requests,
//! sitting, the share of the clock), which the brain ([`super::brain`])
//! decides. A change that affects a running search restarts it with the
//! time it already used taken off its clock.

use super::background::LastGo;
use super::brain::{self, Decision};
use super::request::GoRequest;
use super::Engine;
use crate::bughouse::tell::Reading;
use crate::position::{PocketError, Position};
use crate::search::timeman::Budget;
use crate::search::{Limits, SearchResult};
use crate::types::{Color, Square};
use std::time::Instant;

impl Engine {
    /// Says whether the protocol carries partner messages (UCI with
    /// `UCI_Bughouse`, xboard): on a bughouse board the engine then plans
    /// requests and sitting before each move.
    pub fn set_partner_talk(&mut self, on: bool) {
        self.partner_talk = on;
    }

    /// Sends requests and acts on the partner's (`PartnerMessages`); off
    /// forgets what the partner asked.
    pub fn set_partner_messages(&mut self, on: bool) {
        self.bughouse.set_messages(on);
    }

    /// Sets the partner's board (`add`: a second one, as the centre player
    /// of the three-board form has; at most two, a repeated `add` replaces
    /// the second).
    pub fn set_partner_board(&mut self, board: Position, add: bool) {
        self.bughouse.set_partner_board(board, add);
    }

    /// Gambler promotion rule: the piece of its opponent that `chooser`
    /// takes off `board` (its own board) when its partner promotes; see
    /// [`brain::gambler_choice`].
    pub fn gambler_choice(&self, board: &Position, chooser: Color) -> Option<Square> {
        brain::gambler_choice(board, chooser)
    }

    /// A new bughouse partnership or game: what either partner asked is
    /// forgotten.
    pub fn new_partnership(&mut self) {
        self.bughouse.new_game();
    }

    /// Both pockets of the current position as counts `[colour][piece]`
    /// (the form `set_pockets` takes).
    pub fn pocket_counts(&self) -> [[u8; 5]; 2] {
        self.game.pocket_counts()
    }

    /// Sets both pockets of the current position (bughouse `holding`) and
    /// says whether they changed. A running search starts again on changed
    /// pockets, with the time it already used taken off its clock, without
    /// reporting the interrupted one; unchanged pockets (xboard repeats the
    /// holdings after every move) leave it running. On error nothing
    /// changes (a running search goes on).
    pub fn set_pockets(&mut self, counts: [[u8; 5]; 2]) -> Result<bool, PocketError> {
        let pos = self.game.with_pockets(counts)?;
        if counts == self.game.pocket_counts() {
            return Ok(false);
        }
        let restart = self.interrupt();
        self.game.replace_position(&pos);
        self.resume(restart);
        Ok(true)
    }

    /// Ends a running search without reporting it, to start it again
    /// ([`Engine::resume`]) on a changed position or bughouse state. A
    /// search that has already reported (its bestmove may be crossing this
    /// command) is over: restarting it would answer its `go` twice.
    fn interrupt(&mut self) -> Option<LastGo> {
        if self.abort() {
            self.last_go.take()
        } else {
            None
        }
    }

    /// Starts an interrupted search again with the time it already used
    /// taken off its clock.
    fn resume(&mut self, interrupted: Option<LastGo>) {
        if let Some(last) = interrupted {
            let side = self.game.position().side_to_move();
            let request = GoRequest {
                clock: last.request.clock.spent(side, last.started.elapsed()),
                ..last.request
            };
            self.launch(request, last.listener, false);
        }
    }

    /// The four clocks in ms (UCI `bughouse clocks`): own board White and
    /// Black, then the partner's board White and Black. The diagonal clock
    /// bounds every sit ([`brain::Bughouse::diagonal_ms`]).
    pub fn set_board_clocks(&mut self, clocks: [u64; 4]) {
        self.bughouse.set_board_clocks(clocks);
    }

    /// Is a search on the clock running for a move of ours (not pondering,
    /// not `infinite`, not an analysis)?
    fn thinking_on_the_clock(&self) -> bool {
        self.is_searching()
            && self.last_go.as_ref().is_some_and(|l| {
                !l.request.ponder && !l.request.limits.infinite && !l.request.analysis
            })
    }

    /// One reading of the bughouse partner's tell (ignored with
    /// `PartnerMessages` off). `go` after `sit` plays the move that was
    /// held back, and so does `go` during any hold; from a person, `go`
    /// means "move now" whatever the engine is thinking (a bot's `go` only
    /// ends a sit it asked for, as Sjeng's does). `sit` during a timed
    /// search starts it again as a sitting one (it holds its move too). A
    /// dictated move (`move e2e4`) is played at once when it is legal and
    /// the engine is thinking about its move. Returns words for a person
    /// partner when the engine could not do what he asked.
    pub fn hear(&mut self, reading: &Reading) -> Option<String> {
        if !self.bughouse.listens() {
            return None;
        }
        let was_sitting = self.bughouse.partner_asked_sit();
        let held = self.bughouse.holding().is_some();
        let released = self.bughouse.hear(reading);
        match reading {
            Reading::Move(text) => {
                let (played, reply) = self.play_dictated(text);
                // A move that cannot be played still ends the sit.
                if !played && released && self.is_searching() {
                    self.stop();
                }
                return Some(reply);
            }
            Reading::Go
                if released
                    || (self.thinking_on_the_clock()
                        && (held || self.bughouse.partner_is_person())) =>
            {
                self.stop();
            }
            _ if released && self.is_searching() => self.stop(),
            _ if !was_sitting
                && self.bughouse.partner_asked_sit()
                && self.thinking_on_the_clock() =>
            {
                let interrupted = self.interrupt();
                self.resume(interrupted);
            }
            _ => {}
        }
        None
    }

    /// Plays the move `text` that the partner dictates, when it is legal
    /// and a search on the clock is running for it: the search ends
    /// without its own result and the dictated move is the answer. Returns
    /// whether it was played and what to tell a person.
    fn play_dictated(&mut self, text: &str) -> (bool, String) {
        if !self.thinking_on_the_clock() {
            return (
                false,
                format!("sorry, I can't play {text}: it is not my move now"),
            );
        }
        let Ok(m) = self.game.position().parse_uci_move(text) else {
            return (false, format!("sorry, {text} is not legal here"));
        };
        let listener = self.last_go.as_ref().map(|l| l.listener.clone());
        match listener {
            Some(listener) if self.abort() => {
                self.last_go = None;
                listener.best_move(&SearchResult::dictated(m));
                (true, format!("ok: playing {text}"))
            }
            _ => (false, format!("sorry, too late for {text}: I have moved")),
        }
    }

    /// The bughouse plan of a search for `request` with the usual time
    /// budget in `limits`, made when the protocol carries partner talk
    /// (`None` otherwise): the brain's decision, the budget cut by the time
    /// the planning took and by the partner's wish for speed, and for a
    /// sitting side a held move ([`Budget::holding`]).
    pub(super) fn plan_bughouse(
        &mut self,
        request: &GoRequest,
        new_move: bool,
        limits: &mut Limits,
    ) -> Option<Decision> {
        let pos = *self.game.position();
        if !self.partner_talk || !pos.rules().two_boards || request.analysis {
            return None;
        }
        let side = pos.side_to_move();
        let (own, theirs) = (request.clock.of(side).0, request.clock.of(side.flip()).0);
        let planning = Instant::now();
        let d = self.bughouse.decide(&pos, own, theirs, new_move);
        // The planning searches used the clock too.
        limits.time = limits.time.scaled(planning.elapsed(), d.time_percent);
        if let (false, Some((_, hold))) = (limits.infinite, d.hold) {
            // Sitting: think on until the partner says go or the piece
            // arrives (a pocket change restarts the search), within a budget.
            limits.time = Budget::holding(hold);
        }
        Some(d)
    }
}
