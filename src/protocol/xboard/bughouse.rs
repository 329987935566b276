//! The bughouse commands of xboard's zippy mode on FICS: `holding` (the
//! pockets, checked against the engine's own account), a drop of a piece
//! still on its way, `partner` and `ptell`.

use super::output::error;
use super::session::Xboard;
use crate::bughouse::pockets::{reconcile, PocketCounts, PocketSync};
use crate::bughouse::tell::Reading;
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

    /// `partner [NAME]`: a new bughouse partner (or none). A partner of a
    /// new name is greeted (how to talk to the engine); the greeting also
    /// tells another Rukav that its partner is a bot.
    pub(super) fn set_partner(&mut self, arg: &str) {
        let name = (!arg.is_empty()).then(|| arg.to_string());
        if name.is_some() && name != self.partner {
            let greeting = self.engine.greet_partner();
            send(&format!("tellics ptell {greeting}"));
        } else {
            self.engine.new_partnership();
        }
        self.partner = name;
    }

    /// `ptell TEXT`: a tell from the partner, read as `rukav ptell` reads
    /// it. The engine's answers (help, an acknowledgement or one "?" to a
    /// person) go back to the partner; a tell not understood is noted as a
    /// comment too.
    pub(super) fn ptell(&mut self, arg: &str) {
        let heard = self.engine.hear_tell(arg);
        for reply in &heard.replies {
            send(&format!("tellics ptell {reply}"));
        }
        if heard.readings.contains(&Reading::Unknown) {
            let shown: String = arg.chars().filter(|c| !c.is_control()).take(80).collect();
            send(&format!("# partner tell not (fully) understood: '{shown}'"));
        }
    }
}
