//! What the xboard session writes besides its answers: the result line of
//! a finished game, thinking lines (`post`), `Error (...)` lines, and the
//! listener that carries a search's output (and its result, back to the
//! main loop).

use crate::bughouse::partner::PartnerMessage;
use crate::engine::brain::talk;
use crate::engine::{Listener, SitReason};
use crate::position::outcome::{EndReason, Outcome};
use crate::protocol::io::{send, Event};
use crate::search::{Info, Score, SearchResult};
use crate::types::Color;
use std::sync::mpsc::Sender;
use std::sync::Mutex;
use std::time::Duration;

/// The result line xboard expects when a game is over (`1-0 {White mates}`).
pub fn result_line(o: &Outcome) -> String {
    let name = |c: Color| if c.is_white() { "White" } else { "Black" };
    let reason = match *o {
        Outcome::Win { winner, reason } => match reason {
            EndReason::Checkmate => format!("{} mates", name(winner)),
            EndReason::Stalemate => format!("{} is stalemated and wins", name(winner)),
            EndReason::FewerPieces => format!("{} has fewer pieces", name(winner)),
            EndReason::NoPieces => format!("{} has no pieces left and wins", name(winner)),
            EndReason::KingDutyMissed => {
                format!("{} missed the king-move duty", name(winner.flip()))
            }
            other => format!("{} wins ({other:?})", name(winner)),
        },
        Outcome::Draw { reason } => match reason {
            EndReason::Stalemate => "Stalemate".to_string(),
            EndReason::FiftyMoves => "Draw by the 50-move rule".to_string(),
            EndReason::Repetition => "Draw by repetition".to_string(),
            EndReason::InsufficientMaterial => "Draw by insufficient material".to_string(),
            other => format!("Draw ({other:?})"),
        },
    };
    format!("{} {{{reason}}}", o.result())
}

/// Formats a thinking line (`post`): depth, score (mate as 100000 + n),
/// time in centiseconds, nodes, PV.
fn thinking_line(info: &Info) -> String {
    let score = match info.score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 100_000 + m,
        Score::Mate(m) => -100_000 + m,
    };
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "{} {} {} {} {}",
        info.depth,
        score,
        info.time.as_millis() / 10,
        info.nodes,
        pv.join(" ")
    )
}

/// How an xboard search's output is written: thinking lines when `post`
/// is on, the result back to the main loop (which plays the move).
pub(super) struct XboardOutput {
    /// Thinking lines are written.
    pub(super) post: bool,
    /// Where the result goes: the main loop's input.
    pub(super) done: Mutex<Sender<Event>>,
    /// The generation of the search (see `Xboard::generation`).
    pub(super) generation: u64,
    /// The bughouse partner is a person: requests and sits are told in
    /// words ([`talk::words`], [`SitReason::words`]), not short codes.
    pub(super) words: bool,
}

impl Listener for XboardOutput {
    fn info(&self, info: &Info) {
        if self.post {
            send(&thinking_line(info));
        }
    }
    fn best_move(&self, result: &SearchResult) {
        if let Ok(tx) = self.done.lock() {
            let _ = tx.send(Event::SearchDone(result.clone(), self.generation));
        }
    }
    fn tell_partner(&self, msg: PartnerMessage) {
        if self.words {
            send(&format!("tellics ptell {}", talk::words(msg)));
        } else {
            send(&format!("tellics ptell {msg}"));
        }
    }
    fn tell_person(&self, text: &str) {
        if self.words {
            send(&format!("tellics ptell {text}"));
        }
    }
    fn sitting(&self, reason: SitReason, budget: Duration) {
        // Lines starting with '#' are comments for xboard (shown in its debug log).
        send(&format!(
            "# sitting {reason} at most {} ms",
            budget.as_millis()
        ));
        if let Some(words) = reason.words().filter(|_| self.words) {
            send(&format!("tellics ptell {words}"));
        }
    }
}

/// `Error (kind): text`; `text` is a refused argument or a refusal.
pub(super) fn error(kind: &str, text: impl std::fmt::Display) {
    send(&format!("Error ({kind}): {text}"));
}
