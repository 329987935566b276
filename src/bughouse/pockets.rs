//! Keeping a board's pockets right when they change from outside.
//!
//! On a bughouse server (and under a referee such as fairyfishtest) the
//! pockets of one board change for two reasons: a drop on the board, which
//! the engine sees as a move, and a piece the partner's board sends, which
//! comes as a `holding [WHITE] [BLACK] CP` line naming the piece that
//! arrived (`CP`: colour `W`/`B` and the piece). The two streams race: the
//! sender computes the brackets from its own game, which may already count
//! the opponent's drop that the engine will only hear of as the next
//! `usermove`, or may not yet count the drop the engine has just sent.
//! Taking the brackets as they stand then loses or doubles a piece: an
//! opponent's drop the engine calls illegal (a hang), or a drop of a piece
//! the engine no longer has (an illegal move on the server).
//!
//! So the engine keeps its own account, as xboard's protocol intends and
//! Fairy-Stockfish does: an arrival adds just the piece that arrived, and
//! the brackets are only a check. Brackets that differ from the account by
//! exactly one move still on its way (the side to move's drop that the
//! sender already counts, or the other side's drop that it does not yet
//! count) keep the account; any other difference means the account is
//! wrong, and the brackets replace it.

use crate::types::{Color, PieceType};

/// Pocket counts `[colour][piece]`, pieces in [`PieceType::POCKET`] order.
pub type PocketCounts = [[u8; 5]; 2];

/// What a `holding` line does to the pockets the engine keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PocketSync {
    /// The brackets agree with the account (plus the arrival): these are
    /// the pockets now.
    Agreed(PocketCounts),
    /// The brackets differ from the account (plus the arrival) by one drop
    /// still on its way: the account stands. `drop_of` is the colour whose
    /// drop explains the difference.
    InFlight {
        /// The pockets now: the account plus the arrival.
        pockets: PocketCounts,
        /// Whose drop the brackets count and the account does not, or the
        /// other way round.
        drop_of: Color,
    },
    /// The brackets differ in a way no move on its way explains: they
    /// replace the account.
    Resync(PocketCounts),
}

impl PocketSync {
    /// The pockets the engine should hold after the line.
    pub fn pockets(self) -> PocketCounts {
        match self {
            PocketSync::Agreed(p)
            | PocketSync::InFlight { pockets: p, .. }
            | PocketSync::Resync(p) => p,
        }
    }
}

/// Reconciles a `holding` line with the engine's own account of the pockets.
///
/// `ours` is the account, `arrival` the piece the line says has arrived,
/// `reported` the brackets, and `to_move` the side to move in the engine's
/// position: its drop may already be counted by the sender (unless the
/// engine itself is to move: `engine` is the side it plays, `None` in
/// force mode), and the other side's (the move the engine just made or
/// heard) may not be yet. A piece fewer for the engine on its own turn is
/// never taken for a move on its way: keeping it could make the engine
/// drop a piece it no longer has.
pub fn reconcile(
    ours: PocketCounts,
    arrival: Option<(Color, PieceType)>,
    reported: PocketCounts,
    to_move: Color,
    engine: Option<Color>,
) -> PocketSync {
    let mut expected = ours;
    if let Some((color, kind)) = arrival {
        let slot = &mut expected[color.index()][kind.index()];
        *slot = slot.saturating_add(1);
    }
    if reported == expected {
        return PocketSync::Agreed(expected);
    }
    match one_piece_apart(expected, reported) {
        // The sender counts a drop of the side to move that is still to come.
        Some((color, -1)) if color == to_move && engine != Some(to_move) => PocketSync::InFlight {
            pockets: expected,
            drop_of: color,
        },
        // The sender does not yet count the last mover's drop.
        Some((color, 1)) if color == to_move.flip() => PocketSync::InFlight {
            pockets: expected,
            drop_of: color,
        },
        _ => PocketSync::Resync(reported),
    }
}

/// When `reported` differs from `expected` in one piece of one colour by
/// one, that colour and the sign of the difference (`reported - expected`).
fn one_piece_apart(expected: PocketCounts, reported: PocketCounts) -> Option<(Color, i32)> {
    let mut found = None;
    for color in Color::ALL {
        for kind in PieceType::POCKET {
            let diff = i32::from(reported[color.index()][kind.index()])
                - i32::from(expected[color.index()][kind.index()]);
            match (diff, found) {
                (0, _) => {}
                (1 | -1, None) => found = Some((color, diff)),
                _ => return None,
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts from letters: upper case White, lower case Black.
    fn pockets(text: &str) -> PocketCounts {
        let mut p = [[0u8; 5]; 2];
        for c in text.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if let Some(k) = PieceType::from_char(c) {
                p[color.index()][k.index()] += 1;
            }
        }
        p
    }

    #[test]
    fn an_arrival_adds_its_piece() {
        let sync = reconcile(
            pockets("N"),
            Some((Color::Black, PieceType::Rook)),
            pockets("Nr"),
            Color::White,
            Some(Color::White),
        );
        assert_eq!(sync, PocketSync::Agreed(pockets("Nr")));
    }

    /// fairyfishtest's race: Black (to move in the engine's position) has
    /// dropped a pawn on the referee's board; the brackets no longer count
    /// it, the `usermove P@e6` is still to come.
    #[test]
    fn the_opponents_drop_still_to_come_keeps_its_piece() {
        let sync = reconcile(
            pockets("p"),
            Some((Color::White, PieceType::Queen)),
            pockets("Q"),
            Color::Black,
            Some(Color::White),
        );
        assert_eq!(
            sync,
            PocketSync::InFlight {
                pockets: pockets("Qp"),
                drop_of: Color::Black
            }
        );
    }

    /// The engine (White) has just dropped its knight; the sender's
    /// brackets still count it: the knight must not come back.
    #[test]
    fn the_engines_own_drop_is_not_given_back() {
        let sync = reconcile(
            pockets(""),
            Some((Color::Black, PieceType::Pawn)),
            pockets("Np"),
            Color::Black,
            Some(Color::White),
        );
        assert_eq!(
            sync,
            PocketSync::InFlight {
                pockets: pockets("p"),
                drop_of: Color::White
            }
        );
    }

    /// Differences no single drop on its way explains replace the account:
    /// a missing piece of the side that just moved, two pieces, a piece of
    /// the side to move that it could not have dropped yet.
    #[test]
    fn other_differences_resync_from_the_brackets() {
        for (ours, reported, to_move) in [
            ("N", "", Color::Black),
            ("", "PP", Color::White),
            ("", "p", Color::Black),
            ("Qq", "", Color::White),
        ] {
            let sync = reconcile(pockets(ours), None, pockets(reported), to_move, None);
            assert_eq!(
                sync,
                PocketSync::Resync(pockets(reported)),
                "{ours} / {reported}"
            );
        }
    }

    #[test]
    fn a_repeated_snapshot_is_agreed() {
        let sync = reconcile(pockets("PNq"), None, pockets("PNq"), Color::White, None);
        assert_eq!(sync.pockets(), pockets("PNq"));
    }

    /// On the engine's own turn a piece fewer for it is believed: keeping
    /// it could make the engine drop a piece it has not got.
    #[test]
    fn a_piece_fewer_on_the_engines_own_turn_is_believed() {
        let sync = reconcile(
            pockets("N"),
            None,
            pockets(""),
            Color::White,
            Some(Color::White),
        );
        assert_eq!(sync, PocketSync::Resync(pockets("")));
    }

    /// The stale line of fairyfishtest's other thread: the opponent's drop
    /// has arrived as `usermove` (the engine is to move again), the
    /// brackets still count the dropped piece.
    #[test]
    fn a_line_older_than_the_last_usermove_keeps_the_account() {
        let sync = reconcile(
            pockets(""),
            None,
            pockets("p"),
            Color::White,
            Some(Color::White),
        );
        assert_eq!(
            sync,
            PocketSync::InFlight {
                pockets: pockets(""),
                drop_of: Color::Black
            }
        );
    }
}
