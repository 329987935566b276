//! The Gambler promotion rule: which pieces the promoter's partner may take,
//! and completing the promotion with the chosen one.

use super::game::{opponent_in_check, Game, LoggedMove, PlayError, Report};
use super::settings::board_letter;
use crate::position::notation::san;
use crate::types::{Color, Move, PieceType, Square};

impl Game {
    /// The squares (with their boards) the partner of a promoter with
    /// `color` on `board` may take under the Gambler rule.
    pub(super) fn choices_for(&self, board: usize, color: Color) -> Vec<(usize, Square)> {
        let mut out = Vec::new();
        for pb in self.partner_boards(board) {
            let b = &self.boards[pb];
            if !b.live {
                continue;
            }
            for kind in [
                PieceType::Queen,
                PieceType::Rook,
                PieceType::Bishop,
                PieceType::Knight,
            ] {
                for sq in b.pos.pieces(color, kind) {
                    let mut p = b.pos;
                    if p.take_piece(sq).is_ok() && !opponent_in_check(&p) {
                        out.push((pb, sq));
                    }
                }
            }
        }
        out
    }

    /// The pieces the partner may take for the pending Gambler promotion
    /// (board, square), most valuable first.
    pub fn gambler_choices(&self) -> Vec<(usize, Square)> {
        match self.gambler {
            Some(g) => self.choices_for(g.board, g.color),
            None => Vec::new(),
        }
    }

    /// Completes the pending Gambler promotion with the piece on `sq` of
    /// `board`; the clocks start again at `now`.
    pub fn complete_gambler(
        &mut self,
        board: usize,
        sq: Square,
        now: u64,
    ) -> Result<Report, PlayError> {
        let mut report = Report::default();
        let Some(g) = self.gambler else {
            return Err(PlayError::Illegal("no Gambler promotion is pending".into()));
        };
        if !self.choices_for(g.board, g.color).contains(&(board, sq)) {
            return Err(PlayError::Illegal(format!(
                "{sq} on board {} cannot be taken",
                board_letter(board)
            )));
        }
        let Some(piece) = self.boards[board].pos.piece_on(sq) else {
            return Err(PlayError::Illegal(format!("{sq} is empty")));
        };
        // The clocks stood still during the pause.
        let paused = now.saturating_sub(g.since_ms);
        for b in &mut self.boards {
            b.turn_start += paused;
        }
        self.gambler = None;
        let mv = Move::promotion(g.mv.from(), g.mv.to(), piece.kind);
        let pos = self.boards[g.board].pos;
        let san = san(&pos, mv);
        let captured = self.apply_board_move(g.board, mv, &mut report);
        // The piece on the promotion square is the taken piece, not promoted.
        {
            let p = &mut self.boards[g.board].pos;
            let placed = p.take_piece(g.mv.to());
            if let Ok(placed) = placed {
                let _ = p.put_piece(g.mv.to(), placed, false);
            }
            let key = p.key();
            if let Some(k) = self.boards[g.board].keys.last_mut() {
                *k = key;
            }
        }
        let _ = self.boards[board].pos.take_piece(sq);
        report.boards.push(board);
        self.give(board, g.color, PieceType::Pawn, &mut report);
        if let Some(kind) = captured {
            if let Some((b, c)) = self.capture_target(g.board, g.color) {
                self.give(b, c, kind, &mut report);
            }
        }
        let gb = &mut self.boards[g.board];
        gb.moves[g.color.index()] += 1;
        let number = gb.moves[g.color.index()];
        let clock_ms = self.settings.time.map(|_| gb.clock[g.color.index()]);
        self.log.push(LoggedMove {
            board: g.board,
            color: g.color,
            number,
            mv,
            san,
            clock_ms,
            gambler: Some((board, sq)),
            at_ms: g.since_ms,
        });
        self.evaluate(g.board, now, &mut report);
        Ok(report)
    }

    /// The choice a simple partner makes: the most valuable piece.
    pub fn default_gambler_choice(&self) -> Option<(usize, Square)> {
        let choices = self.gambler_choices();
        choices.into_iter().max_by_key(|&(b, sq)| {
            let v = self.boards[b]
                .pos
                .kind_on(sq)
                .map_or(0, |k| crate::eval::PIECE_VALUE[k.index()]);
            // Prefer the first square among equals (max_by_key keeps the last).
            (v, std::cmp::Reverse((b, sq.0)))
        })
    }
}
