//! The engine's side of talking with the bughouse partner: a tell is read
//! ([`crate::bughouse::tell::read`], the function `rukav ptell` prints),
//! each reading is heard ([`Engine::hear`]), and the brain says what to
//! answer ([`super::brain::talk`]: words to a person, nothing new to a bot).

use super::Engine;
use crate::bughouse::tell::Reading;

/// A partner's tell as the engine took it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heard {
    /// How the tell was read.
    pub readings: Vec<Reading>,
    /// Lines to tell the partner in answer (the help text, an
    /// acknowledgement, a "?").
    pub replies: Vec<String>,
}

impl Engine {
    /// A new partner (xboard `partner NAME`): what either partner asked is
    /// forgotten, and the greeting to tell him is returned. The partner
    /// counts as a person until he greets as a bot does.
    pub fn greet_partner(&mut self) -> &'static str {
        self.new_partnership();
        self.bughouse.greet()
    }

    /// Is the partner a person, to be told things in words (sits, requests)?
    pub fn partner_is_person(&self) -> bool {
        self.bughouse.partner_is_person()
    }

    /// A tell from the partner: read, heard reading by reading (a `go`
    /// plays a held move, a `sit` holds the move being thought about), and
    /// answered.
    pub fn hear_tell(&mut self, text: &str) -> Heard {
        let readings = self.bughouse.read_tell(text);
        let before = *self.bughouse.partner_state();
        let mut outcomes = Vec::new();
        for r in &readings {
            outcomes.extend(self.hear(r));
        }
        let mut replies = self.bughouse.replies(text, &before, &readings);
        if self.bughouse.partner_is_person() {
            replies.extend(outcomes);
        }
        Heard { readings, replies }
    }
}
