//! The tables in use: probing a position, extending a line to the end of
//! the game, which rules they serve, and the engine's built-in set.

use super::encoding::{decode, locate, Signature, Table, TableResult};
use crate::position::Position;
use crate::rules::{Rules, StalemateRule};
use std::collections::HashMap;
use std::sync::Arc;

/// Largest number of pieces (both sides) the built-in tables cover.
pub const MAX_PIECES: usize = 3;

/// The built-in tables: every table of up to [`MAX_PIECES`] pieces as a
/// compressed table file, made by `rukav tables --pieces 3 --compress`
/// (see `nets/README.md`; a test checks it against a fresh build).
static EMBEDDED: &[u8] = include_bytes!("../../nets/antichess3.tbl.z");

/// Every table up to a number of pieces, built under one set of rules.
pub struct Tables {
    pub(super) rules: Rules,
    pub(super) max_pieces: usize,
    pub(super) tables: HashMap<Signature, Table>,
}

impl Tables {
    /// The result of `pos` for its side to move, where a table covers it:
    /// both sides on the board, few enough pieces, no castling right, and
    /// rules the tables cover (see [`covers`]).
    pub fn probe(&self, pos: &Position) -> Option<TableResult> {
        if pos.occupied().count() as usize > self.max_pieces
            || pos.castling_rights() != 0
            || !covers(pos.rules())
        {
            return None;
        }
        let (sig, index) = locate(pos);
        let table = self.tables.get(&sig)?;
        if pos.ep_square().is_some() {
            return Some(self.by_captures(pos));
        }
        Some(decode(table.codes[index]))
    }

    /// Extends `line` (legal moves from `root`) while it ends in a won or
    /// lost position the tables cover, with the best move by the tables:
    /// the quickest win, the slowest loss. So a reported line that reaches
    /// the tables shows the rest of the game.
    pub fn extend_line(&self, root: &Position, line: &mut Vec<crate::types::Move>) {
        let mut pos = *root;
        for &m in line.iter() {
            pos.make_move(m);
        }
        while line.len() < 128 {
            match self.probe(&pos) {
                None | Some(TableResult::Draw) => return,
                Some(_) => {}
            }
            let mut best: Option<(TableResult, crate::types::Move, Position)> = None;
            for &m in pos.legal_moves().iter() {
                let mut child = pos;
                child.make_move(m);
                let r = self.for_mover(&child);
                if best.is_none_or(|(b, _, _)| better(b, r) != b) {
                    best = Some((r, m, child));
                }
            }
            let Some((_, m, child)) = best else { return };
            line.push(m);
            pos = child;
        }
    }

    /// The largest number of pieces covered.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The result of a position reached by a move out of the table being
    /// built: from its side to move's view.
    pub(super) fn known(&self, child: &Position) -> TableResult {
        if child.color_bb(child.side_to_move()).is_empty() {
            return TableResult::Win(0);
        }
        if child.ep_square().is_some() {
            return self.by_captures(child);
        }
        let (sig, index) = locate(child);
        match self.tables.get(&sig) {
            Some(t) => decode(t.codes[index]),
            // Cannot happen: a move keeps the mover's pieces, and smaller
            // tables and those with fewer pawns are built first.
            None => {
                debug_assert!(false, "no table for {}", child.fen());
                TableResult::Draw
            }
        }
    }

    /// The result of the move that reached `child`, for the side that
    /// made it: one ply more than the child's, the other way round.
    pub(super) fn for_mover(&self, child: &Position) -> TableResult {
        match self.known(child) {
            TableResult::Win(d) => TableResult::Loss(d + 1),
            TableResult::Loss(d) => TableResult::Win(d + 1),
            TableResult::Draw => TableResult::Draw,
        }
    }

    /// The result of a position with an en-passant capture (not in the
    /// tables, whose positions have no en-passant square): captures are
    /// compulsory, so every move leads to a table with fewer pieces.
    pub(super) fn by_captures(&self, pos: &Position) -> TableResult {
        let mut best: Option<TableResult> = None;
        for &m in pos.legal_moves().iter() {
            let mut child = *pos;
            child.make_move(m);
            let r = self.for_mover(&child);
            best = Some(match best {
                None => r,
                Some(b) => better(b, r),
            });
        }
        best.unwrap_or(TableResult::Win(0))
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tables({} tables, up to {} pieces)",
            self.tables.len(),
            self.max_pieces
        )
    }
}

/// The better of two results for the side to move: the quicker win, a
/// draw before a loss, the slower loss.
pub(super) fn better(a: TableResult, b: TableResult) -> TableResult {
    let rank = |r: TableResult| match r {
        TableResult::Win(d) => 100_000 - i32::from(d),
        TableResult::Draw => 0,
        TableResult::Loss(d) => -100_000 + i32::from(d),
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// Whether tables built under antichess rules give the results of
/// positions played under `rules`: losing wins, a stalemated side wins,
/// captures compulsory, promotion to king, no royal king, no drops.
/// Giveaway qualifies (it differs in castling, and positions with castling
/// rights are not probed), and so do the house rules, which all concern
/// drops. Suicide does not: its stalemates go by the number of pieces
/// ([`StalemateRule::FewerPiecesWin`]), so the results of positions that
/// can reach a stalemate differ; it has no tables.
pub fn covers(rules: &Rules) -> bool {
    rules.losers_win
        && rules.stalemate == StalemateRule::Wins
        && rules.must_capture
        && rules.promote_to_king
        && !rules.royal_king
        && !rules.drops
        && !rules.king_duty
}

/// The engine's built-in tables (every position of up to [`MAX_PIECES`]
/// pieces), read from the embedded file on first use (about 0.1 s, 20 MB
/// of memory). Should the embedded file not read (it is checked by a
/// test), the two-piece tables are built instead.
pub fn builtin() -> Arc<Tables> {
    static TABLES: once_cell::sync::Lazy<Arc<Tables>> = once_cell::sync::Lazy::new(|| {
        Arc::new(
            Tables::from_file_bytes(EMBEDDED)
                .unwrap_or_else(|_| Tables::build(crate::rules::ANTICHESS, 2)),
        )
    });
    TABLES.clone()
}
