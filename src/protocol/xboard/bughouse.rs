//! The bughouse commands of xboard's zippy mode on FICS: `holding` (the
//! pockets, checked against the engine's own account), a drop of a piece
//! still on its way, `partner` and `ptell`.

use super::output::error;
use super::session::Xboard;
use crate::bughouse::partner::{PartnerMessage, HELP};
use crate::bughouse::pockets::{reconcile, PocketCounts, PocketSync};
use crate::protocol::io::send;
use crate::protocol::parse;
use crate::types::{Move, PieceType};

/// Pockets as `[WHITE] [BLACK]` (for `#` lines).
fn pocket_text(counts: PocketCounts) -> String {
    let side = |c: usize| -> String {
        PieceType::POCKET
            .iter()
            .flat_map(|k| std::iter::repeat_n(k.char(), usize::from(counts[c][k.index()])))
            .collect::<String>()
            .to_ascii_uppercase()
    };
    format!("[{}] [{}]", side(0), side(1))
}

impl Xboard {
    /// `holding [WHITE] [BLACK]`, optionally followed by the piece that
    /// just arrived (`BR`). The engine keeps its own account of the
    /// pockets: an arrival adds its piece, and brackets that a drop still
    /// on its way explains leave the account alone (`bughouse::pockets`;
    /// a `#` line says so); other differences, and the first line after a
    /// `setboard`, replace it. Changed pockets restart a search under way
    /// (in analysis mode as a fresh analysis); the unchanged ones that
    /// xboard repeats after every move leave it alone.
    pub(super) fn holding(&mut self, arg: &str) {
        let line = match parse::cecp_holding(arg) {
            Ok(line) => line,
            Err(e) => return error("holding", &e),
        };
        let ours = self.engine.pocket_counts();
        let pockets = if std::mem::take(&mut self.pockets_unknown) {
            line.counts
        } else {
            let to_move = self.engine.position().side_to_move();
            let engine = (!self.force && !self.analyzing).then_some(self.engine_color);
            let sync = reconcile(ours, line.arrival, line.counts, to_move, engine);
            match sync {
                PocketSync::Agreed(_) => {}
                PocketSync::InFlight { drop_of, .. } => send(&format!(
                    "# holding {arg}: {drop_of:?}'s drop on its way explains the difference; \
                     kept {}",
                    pocket_text(sync.pockets())
                )),
                PocketSync::Resync(_) => send(&format!(
                    "# holding {arg}: differs from {}; taken as the pockets",
                    pocket_text(ours)
                )),
            }
            sync.pockets()
        };
        if pockets == ours {
            return;
        }
        if self.analyzing {
            self.abort_search();
        }
        if let Err(e) = self.engine.set_pockets(pockets) {
            error("holding", e);
        }
        if self.analyzing {
            self.analyse();
        } else {
            // A piece may have arrived that an engine without a legal
            // move was waiting for (a running search has already
            // restarted on the new pockets).
            self.maybe_think();
        }
    }

    /// On a bughouse board the server has judged the opponent's drop
    /// already: a drop of a piece the engine's account has not got yet (a
    /// `holding` still on its way, or one that raced the move) is legal
    /// with that piece added. Then the piece is added, a `#` line says so,
    /// and the drop is returned; `None` for anything else.
    pub(super) fn drop_of_a_piece_on_its_way(&mut self, text: &str) -> Option<Move> {
        let pos = *self.engine.position();
        if !pos.rules().two_boards {
            return None;
        }
        let (letter, _) = text.trim().split_once('@')?;
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return None;
        };
        let kind = PieceType::from_char(c).filter(|&k| k != PieceType::King)?;
        let mover = pos.side_to_move();
        let mut with_piece = pos;
        with_piece.add_to_pocket(mover, kind).ok()?;
        let m = with_piece.parse_uci_move(text).ok()?;
        let mut pockets = self.engine.pocket_counts();
        pockets[mover.index()][kind.index()] += 1;
        self.engine.set_pockets(pockets).ok()?;
        send(&format!(
            "# usermove {text}: {mover:?} drops a {kind:?} its pocket did not hold here yet; \
             taken as on its way"
        ));
        Some(m)
    }

    /// `partner [NAME]`: a new bughouse partner (or none).
    pub(super) fn set_partner(&mut self, arg: &str) {
        self.partner = (!arg.is_empty()).then(|| arg.to_string());
        self.engine.new_partnership();
        self.answered_unknown_tell = false;
    }

    /// `ptell TEXT`: a message from the partner. A tell not understood is
    /// answered once a game; later ones only as a comment.
    pub(super) fn ptell(&mut self, arg: &str) {
        match arg.parse::<PartnerMessage>() {
            Ok(PartnerMessage::Help) => send(&format!("tellics ptell {HELP}")),
            Ok(msg) => self.engine.hear(msg),
            Err(_) if !self.answered_unknown_tell => {
                self.answered_unknown_tell = true;
                send(&format!(
                    "tellics ptell Sorry, I do not understand '{}'. 'ptell help' lists what I do.",
                    arg.chars()
                        .filter(|c| !c.is_control())
                        .take(60)
                        .collect::<String>()
                ));
            }
            Err(e) => send(&format!("# {e}")),
        }
    }
}
