//! The bughouse game: boards, moves, hand-overs of captured pieces.

use super::settings::{board_letter, Form, Handover, Settings, Team};
use crate::position::notation::san;
use crate::position::Position;
use crate::rules::PromotionRule;
use crate::types::{Color, Move, MoveKind, PieceType, Square};

/// Why a board was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossReason {
    /// Mated (bughouse mate rule).
    Checkmate,
    /// The clock reached zero.
    Time,
    /// Forfeit by the arena (crash, illegal move, ...).
    Forfeit,
}

/// A board lost by one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardEnd {
    /// The board.
    pub board: usize,
    /// The colour that lost it.
    pub loser: Color,
    /// Why.
    pub reason: LossReason,
    /// When (ms).
    pub at_ms: u64,
    /// Words for the result comment (`WhiteA checkmated`).
    pub text: String,
}

/// The result of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// The winning team, `None` for a draw.
    pub winner: Option<Team>,
    /// Why, in words (`WhiteA checkmated`).
    pub reason: String,
}

impl MatchResult {
    /// `1-0` (team 1 won), `0-1` or `1/2-1/2`.
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Team::One) => "1-0",
            Some(Team::Two) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// Points of team 1: 1, 0.5 or 0.
    pub fn team1_score(&self) -> f64 {
        match self.winner {
            Some(Team::One) => 1.0,
            Some(Team::Two) => 0.0,
            None => 0.5,
        }
    }
}

/// A move as it happened, for the game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedMove {
    /// The board.
    pub board: usize,
    /// The mover.
    pub color: Color,
    /// The mover's move number on that board (1, 2, ...).
    pub number: u32,
    /// The move (for a Gambler promotion: to the piece that was taken).
    pub mv: Move,
    /// Standard algebraic notation (`Nf3`, `N@f3`, `exd8=Q#`).
    pub san: String,
    /// The mover's clock after the move (ms), when timed and pressed.
    pub clock_ms: Option<i64>,
    /// Gambler rule: the board and square the piece was taken from.
    pub gambler: Option<(usize, Square)>,
    /// When the move was made (ms).
    pub at_ms: u64,
}

/// A promotion waiting for the partner's choice (Gambler rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamblerPending {
    /// The board of the promotion.
    pub board: usize,
    /// The promotion as played.
    pub mv: Move,
    /// The promoting colour.
    pub color: Color,
    /// When the game paused (ms).
    pub since_ms: u64,
}

/// Why a move or action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The match is over.
    Over,
    /// The game waits for a Gambler choice.
    Paused,
    /// That board has left play (three boards) or does not exist.
    NotLive,
    /// A move was made and the clock is not pressed yet.
    Unpressed,
    /// Nothing to press.
    NothingToPress,
    /// Illegal move or choice.
    Illegal(String),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Over => f.write_str("the match is over"),
            PlayError::Paused => f.write_str("the game waits for a Gambler choice"),
            PlayError::NotLive => f.write_str("that board is not in play"),
            PlayError::Unpressed => f.write_str("the clock has not been pressed"),
            PlayError::NothingToPress => f.write_str("no move to complete"),
            PlayError::Illegal(s) => f.write_str(s),
        }
    }
}

/// Why [`Game::with_positions`] refused the positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSetupError {
    /// Not one position per board.
    BoardCount {
        /// Positions given.
        positions: usize,
        /// Boards of the form.
        boards: usize,
    },
    /// The three-board form's side boards have different pockets (they
    /// share one).
    SidePocketsDiffer,
}

impl std::fmt::Display for GameSetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameSetupError::BoardCount { positions, boards } => {
                write!(f, "{positions} positions for {boards} boards")
            }
            GameSetupError::SidePocketsDiffer => {
                f.write_str("the side boards share their pockets: they must be equal")
            }
        }
    }
}

impl std::error::Error for GameSetupError {}

/// What an action changed, so that a caller can tell the players.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Boards whose pockets changed.
    pub pockets: Vec<usize>,
    /// Boards whose pieces changed other than by their own move (Gambler).
    pub boards: Vec<usize>,
    /// A Gambler choice is now awaited.
    pub gambler: bool,
    /// Boards that left play (three boards).
    pub left_play: Vec<usize>,
    /// The match ended.
    pub over: bool,
}

impl Report {
    fn pocket(&mut self, b: usize) {
        if !self.pockets.contains(&b) {
            self.pockets.push(b);
        }
    }
}

#[derive(Clone, Debug)]
pub(super) struct Unpressed {
    pub(super) mover: Color,
    pub(super) transfers: Vec<(usize, Color, PieceType)>,
}

#[derive(Clone, Debug)]
pub(super) struct Board {
    pub(super) pos: Position,
    pub(super) keys: Vec<u64>,
    pub(super) clock: [i64; 2],
    pub(super) turn_start: u64,
    pub(super) unpressed: Option<Unpressed>,
    pub(super) live: bool,
    pub(super) moves: [u32; 2],
}

/// A bughouse game on two or three boards.
#[derive(Clone, Debug)]
pub struct Game {
    pub(super) settings: Settings,
    pub(super) boards: Vec<Board>,
    pub(super) result: Option<MatchResult>,
    pub(super) end_ms: Option<u64>,
    pub(super) ends: Vec<BoardEnd>,
    pub(super) gambler: Option<GamblerPending>,
    pub(super) log: Vec<LoggedMove>,
}

/// Is the side not to move in check (an illegal position)?
pub fn opponent_in_check(pos: &Position) -> bool {
    let them = pos.side_to_move().flip();
    pos.rules().royal_king
        && pos.pieces(them, PieceType::King).nonempty()
        && pos.attacked_by(pos.king_sq(them), pos.side_to_move(), pos.occupied())
}

impl Game {
    /// A new game from the start position on every board.
    pub fn new(settings: Settings) -> Game {
        let n = settings.form.boards();
        let pos = Position::start_with(settings.rules);
        Game::with_positions(settings, vec![pos; n]).unwrap_or_else(|_| unreachable!())
    }

    /// A game from given positions (one per board; their rules are replaced
    /// by the settings' rules). Side-board pockets of the three-board form
    /// must agree (they are one shared pocket).
    pub fn with_positions(
        settings: Settings,
        positions: Vec<Position>,
    ) -> Result<Game, GameSetupError> {
        let n = settings.form.boards();
        if positions.len() != n {
            return Err(GameSetupError::BoardCount {
                positions: positions.len(),
                boards: n,
            });
        }
        let base = settings.time.map_or(0, |t| t.base_ms as i64);
        let boards: Vec<Board> = positions
            .into_iter()
            .map(|mut pos| {
                pos.set_rules(settings.rules);
                Board {
                    keys: vec![pos.key()],
                    pos,
                    clock: [base; 2],
                    turn_start: 0,
                    unpressed: None,
                    live: true,
                    moves: [0; 2],
                }
            })
            .collect();
        if n == 3 && boards[1].pos.pocket_string() != boards[2].pos.pocket_string() {
            return Err(GameSetupError::SidePocketsDiffer);
        }
        Ok(Game {
            settings,
            boards,
            result: None,
            end_ms: None,
            ends: Vec::new(),
            gambler: None,
            log: Vec::new(),
        })
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Number of boards.
    pub fn board_count(&self) -> usize {
        self.boards.len()
    }

    /// The position on a board (boards that left play keep their last one).
    pub fn position(&self, board: usize) -> &Position {
        &self.boards[board.min(self.boards.len() - 1)].pos
    }

    /// Is the board still in play?
    pub fn is_live(&self, board: usize) -> bool {
        self.boards.get(board).is_some_and(|b| b.live)
    }

    /// The side to move on a board.
    pub fn to_move(&self, board: usize) -> Color {
        self.position(board).side_to_move()
    }

    /// The match result, once decided.
    pub fn result(&self) -> Option<&MatchResult> {
        self.result.as_ref()
    }

    /// Is the match over?
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// When the match ended (ms).
    pub fn end_ms(&self) -> Option<u64> {
        self.end_ms
    }

    /// Boards lost so far, in order (side boards and the final ones).
    pub fn ends(&self) -> &[BoardEnd] {
        &self.ends
    }

    /// The moves in the order they were made.
    pub fn moves(&self) -> &[LoggedMove] {
        &self.log
    }

    /// The pending Gambler promotion, if any.
    pub fn gambler_pending(&self) -> Option<&GamblerPending> {
        self.gambler.as_ref()
    }

    /// Is the board waiting: in play, its side to move without a legal move
    /// but not lost (a blockable check, or no move at all)?
    pub fn waiting(&self, board: usize) -> bool {
        self.is_live(board) && !self.is_over() && !self.position(board).has_legal_move()
    }

    /// The boards that feed `board` with captures (and receive its captures).
    pub fn partner_boards(&self, board: usize) -> Vec<usize> {
        match self.settings.form {
            Form::TwoBoards => vec![1 - board.min(1)],
            Form::ThreeBoards => {
                if board == 0 {
                    (1..3).filter(|&b| self.boards[b].live).collect()
                } else {
                    vec![0]
                }
            }
        }
    }

    /// The side whose clock runs on a board (the mover until it presses).
    pub(super) fn running_side(&self, board: usize) -> Color {
        let b = &self.boards[board];
        b.unpressed
            .as_ref()
            .map_or(b.pos.side_to_move(), |u| u.mover)
    }

    /// A clock at time `now` (ms); `i64::MAX` when untimed.
    pub fn clock_ms(&self, board: usize, color: Color, now: u64) -> i64 {
        if self.settings.time.is_none() {
            return i64::MAX;
        }
        let b = &self.boards[board];
        let mut t = b.clock[color.index()];
        let runs = b.live
            && !self.is_over()
            && self.gambler.is_none()
            && self.running_side(board) == color;
        if runs {
            t -= now.saturating_sub(b.turn_start) as i64;
        }
        t
    }

    /// When the running clock of a board reaches zero (ms), if it runs.
    pub fn flag_time(&self, board: usize) -> Option<u64> {
        if self.settings.time.is_none() || self.is_over() || self.gambler.is_some() {
            return None;
        }
        let b = self.boards.get(board)?;
        if !b.live {
            return None;
        }
        let left = b.clock[self.running_side(board).index()].max(0) as u64;
        Some(b.turn_start + left)
    }

    /// The earliest flag time over all boards.
    pub fn next_flag_ms(&self) -> Option<u64> {
        (0..self.boards.len())
            .filter_map(|b| self.flag_time(b))
            .min()
    }

    /// Puts a piece into a pocket; side-board pockets are shared (three boards).
    pub(super) fn give(
        &mut self,
        board: usize,
        color: Color,
        kind: PieceType,
        report: &mut Report,
    ) {
        let targets: Vec<usize> = if self.settings.form == Form::ThreeBoards && board != 0 {
            (1..3).filter(|&b| self.boards[b].live).collect()
        } else {
            vec![board]
        };
        for b in targets {
            // A full pocket (64 of a kind) cannot take more: the piece is lost.
            if self.boards[b].pos.add_to_pocket(color, kind).is_ok() {
                report.pocket(b);
            }
        }
    }

    /// Where a piece captured on `board` goes: (board, colour) or nothing.
    pub(super) fn capture_target(&self, board: usize, capturer: Color) -> Option<(usize, Color)> {
        let partner = match self.settings.form {
            Form::TwoBoards => 1 - board,
            Form::ThreeBoards => {
                if board == 0 {
                    (1..3).find(|&b| self.boards[b].live)?
                } else {
                    0
                }
            }
        };
        if !self.boards[partner].live {
            return None;
        }
        Some((partner, capturer.flip()))
    }

    pub(super) fn check_can_move(&self, board: usize) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::Over);
        }
        if self.gambler.is_some() {
            return Err(PlayError::Paused);
        }
        if !self.is_live(board) {
            return Err(PlayError::NotLive);
        }
        Ok(())
    }

    /// Plays a whole move (made and clock pressed) on a board at time `now`.
    pub fn play(&mut self, board: usize, mv: Move, now: u64) -> Result<Report, PlayError> {
        let mover = self.to_move(board);
        let mut report = self.make(board, mv, now)?;
        if !self.is_over() && !self.is_live(board) {
            // The move ended its side board (three boards): record its clock.
            self.charge(board, mover, now);
            self.record_clock(board, mover);
        } else if self.is_over() {
            // The move ended the match: stop the mover's clock for the record.
            if let Some(u) = self.boards[board].unpressed.take() {
                self.charge(board, u.mover, now);
                self.record_clock(board, u.mover);
            }
        } else if self.boards[board].unpressed.is_some() {
            let r2 = self.press(board, now)?;
            for b in r2.pockets {
                report.pocket(b);
            }
            report.left_play.extend(r2.left_play);
            report.over |= r2.over;
        }
        Ok(report)
    }

    /// Makes a move on a board (the first half: the clock is not pressed yet).
    /// A flag that fell before `now` ends the match first. A Gambler
    /// promotion pauses the game instead and counts as pressed.
    pub fn make(&mut self, board: usize, mv: Move, now: u64) -> Result<Report, PlayError> {
        let mut report = Report::default();
        self.check_can_move(board)?;
        if self.boards[board].unpressed.is_some() {
            return Err(PlayError::Unpressed);
        }
        let pos = self.boards[board].pos;
        if !pos.is_legal(mv) {
            return Err(PlayError::Illegal(format!(
                "illegal move {mv} on board {} in {}",
                board_letter(board),
                pos.fen()
            )));
        }
        self.settle_clocks(board, now, &mut report)?;
        let us = pos.side_to_move();
        if mv.is_promotion()
            && self.settings.rules.promotion_rule == PromotionRule::Gambler
            && !self.choices_for(board, us).is_empty()
        {
            self.charge(board, us, now);
            self.gambler = Some(GamblerPending {
                board,
                mv,
                color: us,
                since_ms: now,
            });
            report.gambler = true;
            return Ok(report);
        }
        let san = san(&pos, mv);
        let captured = self.apply_board_move(board, mv, &mut report);
        let mut transfers = Vec::new();
        if let Some(kind) = captured {
            if let Some((b, c)) = self.capture_target(board, us) {
                transfers.push((b, c, kind));
            }
        }
        self.boards[board].moves[us.index()] += 1;
        self.log.push(LoggedMove {
            board,
            color: us,
            number: self.boards[board].moves[us.index()],
            mv,
            san,
            clock_ms: None,
            gambler: None,
            at_ms: now,
        });
        if self.settings.handover == Handover::BeforeClock {
            for (b, c, k) in transfers.drain(..) {
                self.give(b, c, k, &mut report);
            }
        }
        self.boards[board].unpressed = Some(Unpressed {
            mover: us,
            transfers,
        });
        self.evaluate(board, now, &mut report);
        Ok(report)
    }

    /// Applies a legal move to a board's position; returns the kind that goes
    /// to the partner if it captured. Keeps the shared side pocket in step.
    pub(super) fn apply_board_move(
        &mut self,
        board: usize,
        mv: Move,
        report: &mut Report,
    ) -> Option<PieceType> {
        let b = &mut self.boards[board];
        let us = b.pos.side_to_move();
        let was_promoted = if mv.is_en_passant() {
            false
        } else {
            b.pos.promoted().has(mv.to())
        };
        let delta = b.pos.make_move_delta(mv);
        b.keys.push(b.pos.key());
        report.pocket(board);
        if let MoveKind::Drop(kind) = mv.kind() {
            if self.settings.form == Form::ThreeBoards && board != 0 {
                let other = 3 - board;
                if self.boards[other].live
                    && self.boards[other].pos.remove_from_pocket(us, kind).is_ok()
                {
                    report.pocket(other);
                }
            }
        }
        if mv.is_castle() || mv.is_drop() {
            return None; // the castling rook is not a capture
        }
        let (captured, _) = delta.removed[1]?;
        if captured.kind == PieceType::King {
            return None;
        }
        Some(if was_promoted && self.settings.rules.promoted_revert {
            PieceType::Pawn
        } else {
            captured.kind
        })
    }

    /// Presses the clock on a board after [`Game::make`]: the mover's time
    /// is charged (a clock that reached zero first loses the board, and then
    /// nothing is handed over), then the capture goes to the partner.
    pub fn press(&mut self, board: usize, now: u64) -> Result<Report, PlayError> {
        let mut report = Report::default();
        self.check_can_move(board)?;
        let Some(u) = self.boards[board].unpressed.clone() else {
            return Err(PlayError::NothingToPress);
        };
        self.settle_clocks(board, now, &mut report)?;
        self.boards[board].unpressed = None;
        self.charge(board, u.mover, now);
        self.record_clock(board, u.mover);
        for (b, c, k) in u.transfers {
            if self.boards[b].live {
                self.give(b, c, k, &mut report);
            }
        }
        self.evaluate(board, now, &mut report);
        Ok(report)
    }

    /// Total moves made so far on all boards.
    pub fn plies(&self) -> usize {
        self.log.len()
    }

    /// A piece that would be handed over from a capture: exposed for tests
    /// and the arena's messages.
    pub fn handover_kind(pos: &Position, mv: Move) -> Option<PieceType> {
        let kind = pos.captured_kind(mv)?;
        if !mv.is_en_passant() && pos.promoted().has(mv.to()) && pos.rules().promoted_revert {
            Some(PieceType::Pawn)
        } else {
            Some(kind)
        }
    }
}
