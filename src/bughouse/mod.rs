//! Bughouse as a game of two (or three) boards: the positions, four (or six)
//! clocks, pocket transfers, the match result. Pure library: no I/O, and time
//! is whatever the caller says it is (`now`, in milliseconds since the start
//! of the game), so the same model serves the real-time [`arena`], the
//! [`bpgn`] reader (untimed replay) and tests.
//!
//! # Seats and teams
//! Boards are numbered 0, 1 (, 2) and named A, B (, C). Team 1 plays White
//! on board A and Black on every other board; team 2 the other seats
//! ([`team_of`]). Partners therefore play opposite colours, as in rules.md.
//!
//! # Two boards
//! A piece captured by White on A goes to Black on B (as a pawn if it was
//! promoted and `PromotedRevert` holds), and so on: a capture goes to the
//! capturer's partner, in the colour the partner plays. The hand-over
//! happens when the capturing move is completed, that is when the clock is
//! pressed ([`Handover::AfterClock`], the rule of rules.md) or, in the
//! variant, as soon as the piece is taken ([`Handover::BeforeClock`]).
//! [`Game::make`] and [`Game::press`] are the two halves of a move;
//! [`Game::play`] does both at once (what an engine's move is).
//!
//! The match ends when either board ends: a mate (the bughouse mate rule of
//! [`Position::outcome`]: a check that a dropped piece could block is not
//! mate, and a side without moves waits) or a flag (a clock that reaches
//! zero). Ends at the same millisecond are simultaneous: wins for different
//! teams make the match a draw. Threefold repetition on a board (pockets
//! included) draws the match; so do agreement and adjudication
//! ([`Game::draw`]).
//!
//! # The Gambler promotion rule
//! With `PromotionRule::Gambler` a promotion is not completed by the
//! promoting player: the game pauses (every clock stops, no board may move)
//! until one of the promoter's partners takes a piece (knight, bishop, rook
//! or queen) of his own opponent from his board ([`Game::gambler_choices`],
//! [`Game::complete_gambler`]). That piece, in the promoter's colour and not
//! marked as promoted, stands on the promotion square (so it is later handed
//! on as itself); the partner's opponent receives a pawn in his pocket. The
//! partner may only take a piece whose removal leaves his board legal (the
//! side not to move not in check). When there is no such piece the
//! promotion is played as an ordinary one, with the piece the promoter chose.
//!
//! # Three boards
//! Board A is the centre board, B and C the side boards. Team 1 plays White
//! in the centre and Black on both side boards; team 2 the other seats. The
//! two side-board players of a team play the same colour and share one
//! pocket: a piece captured in the centre goes into that shared pocket (it
//! appears in the pockets of both side positions), and a drop on one side
//! board takes the piece out of the other side position too. A piece
//! captured on a side board goes to the team's centre player. A side board
//! whose player is mated or flagged leaves play: its pieces (and its
//! pocket) leave the game, nothing is handed over. A team loses when it is
//! mated or flagged in the centre, or when it has lost both side boards.
//! Under the Gambler rule a centre promoter's partners are both side
//! players (the piece may come from either side board), a side promoter's
//! partner is the centre player.

pub mod bpgn;

use crate::position::outcome::{EndReason, Outcome};
use crate::position::Position;
use crate::rules::{PromotionRule, Rules, Variant};
use crate::types::{Color, Move, MoveKind, PieceType, Square};

/// One of the two teams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Team {
    /// White on board A, Black on the other boards.
    One,
    /// Black on board A, White on the other boards.
    Two,
}

impl Team {
    /// The other team.
    pub const fn other(self) -> Team {
        match self {
            Team::One => Team::Two,
            Team::Two => Team::One,
        }
    }

    /// 0 for team 1, 1 for team 2.
    pub const fn index(self) -> usize {
        match self {
            Team::One => 0,
            Team::Two => 1,
        }
    }
}

/// Two boards (bughouse) or three (centre plus two side boards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Boards A and B.
    TwoBoards,
    /// Centre board A, side boards B and C.
    ThreeBoards,
}

impl Form {
    /// Number of boards.
    pub const fn boards(self) -> usize {
        match self {
            Form::TwoBoards => 2,
            Form::ThreeBoards => 3,
        }
    }
}

/// When a captured piece reaches the partner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handover {
    /// When the capturing move is completed (clock pressed): rules.md.
    AfterClock,
    /// As soon as the piece is captured, before the clock is pressed.
    BeforeClock,
}

/// Base time and increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Starting time of every clock (ms).
    pub base_ms: u64,
    /// Added to the mover's clock when it presses (ms).
    pub inc_ms: u64,
}

/// How a game is played.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The rules of every board (variant bughouse plus house rules).
    pub rules: Rules,
    /// Two or three boards.
    pub form: Form,
    /// Clocks; `None` plays untimed (replays, tests).
    pub time: Option<TimeControl>,
    /// When captured pieces are handed over.
    pub handover: Handover,
}

impl Settings {
    /// Two boards, untimed, hand-over after the clock, with the given rules
    /// (their variant is forced to bughouse, house rules kept).
    pub fn new(rules: Rules) -> Settings {
        let mut r = rules;
        if r.variant != Variant::Bughouse {
            let _ = crate::rules::set_house_rule(&mut r, "UCI_Variant", "bughouse");
        }
        Settings {
            rules: r,
            form: Form::TwoBoards,
            time: None,
            handover: Handover::AfterClock,
        }
    }
}

/// The team of the player with `color` on `board`.
pub const fn team_of(board: usize, color: Color) -> Team {
    match (board == 0, color) {
        (true, Color::White) | (false, Color::Black) => Team::One,
        _ => Team::Two,
    }
}

/// Board letter: `A`, `B`, `C`.
pub const fn board_letter(board: usize) -> char {
    match board {
        0 => 'A',
        1 => 'B',
        _ => 'C',
    }
}

/// Seat name as in BPGN tags: `WhiteA`, `BlackB`, ...
pub fn seat_name(board: usize, color: Color) -> String {
    format!(
        "{}{}",
        if color.is_white() { "White" } else { "Black" },
        board_letter(board)
    )
}

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
struct Unpressed {
    mover: Color,
    transfers: Vec<(usize, Color, PieceType)>,
}

#[derive(Clone, Debug)]
struct Board {
    pos: Position,
    keys: Vec<u64>,
    clock: [i64; 2],
    turn_start: u64,
    unpressed: Option<Unpressed>,
    live: bool,
    moves: [u32; 2],
}

/// A bughouse game on two or three boards.
#[derive(Clone, Debug)]
pub struct Game {
    settings: Settings,
    boards: Vec<Board>,
    result: Option<MatchResult>,
    end_ms: Option<u64>,
    ends: Vec<BoardEnd>,
    gambler: Option<GamblerPending>,
    log: Vec<LoggedMove>,
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
    pub fn with_positions(settings: Settings, positions: Vec<Position>) -> Result<Game, String> {
        let n = settings.form.boards();
        if positions.len() != n {
            return Err(format!("{} positions for {n} boards", positions.len()));
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
            return Err("the side boards share their pockets: they must be equal".into());
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
    fn running_side(&self, board: usize) -> Color {
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

    /// Lets time pass to `now`: every clock that reached zero by then loses
    /// its board (flags at the same millisecond together).
    pub fn tick(&mut self, now: u64) -> Report {
        let mut report = Report::default();
        self.flags_until(now, true, &mut report);
        report
    }

    /// Processes flags with flag time `< now` (or `<= now` when `inclusive`).
    fn flags_until(&mut self, now: u64, inclusive: bool, report: &mut Report) {
        while let Some(t) = self.next_flag_ms() {
            if t > now || (t == now && !inclusive) {
                break;
            }
            let losses: Vec<(usize, Color, LossReason, String)> = (0..self.boards.len())
                .filter(|&b| self.flag_time(b) == Some(t))
                .map(|b| {
                    let c = self.running_side(b);
                    (
                        b,
                        c,
                        LossReason::Time,
                        format!("{} lost on time", seat_name(b, c)),
                    )
                })
                .collect();
            self.resolve(losses, None, t, report);
        }
    }

    /// Applies board losses (and perhaps a draw) that happen together at `at`.
    fn resolve(
        &mut self,
        losses: Vec<(usize, Color, LossReason, String)>,
        draw: Option<String>,
        at: u64,
        report: &mut Report,
    ) {
        if self.result.is_some() || (losses.is_empty() && draw.is_none()) {
            return;
        }
        let mut losing = [false; 2];
        let mut texts = Vec::new();
        for (b, loser, reason, text) in losses {
            if !self.boards[b].live && reason != LossReason::Forfeit {
                continue;
            }
            let team = team_of(b, loser);
            self.ends.push(BoardEnd {
                board: b,
                loser,
                reason,
                at_ms: at,
                text: text.clone(),
            });
            texts.push(text);
            if self.settings.form == Form::ThreeBoards && b != 0 && reason != LossReason::Forfeit {
                // A side board leaves play; the team loses when both are gone.
                self.boards[b].live = false;
                self.boards[b].unpressed = None;
                report.left_play.push(b);
                let lost_sides = self
                    .ends
                    .iter()
                    .filter(|e| e.board != 0 && team_of(e.board, e.loser) == team)
                    .count();
                if lost_sides >= 2 {
                    losing[team.index()] = true;
                    texts.push(format!("team {} lost both side boards", team.index() + 1));
                }
            } else {
                losing[team.index()] = true;
            }
        }
        let result = match losing {
            [true, true] => Some(MatchResult {
                winner: None,
                reason: format!("{} at the same time: draw", texts.join(", ")),
            }),
            [true, false] => Some(MatchResult {
                winner: Some(Team::Two),
                reason: texts.join(", "),
            }),
            [false, true] => Some(MatchResult {
                winner: Some(Team::One),
                reason: texts.join(", "),
            }),
            [false, false] => draw.map(|reason| MatchResult {
                winner: None,
                reason,
            }),
        };
        if let Some(r) = result {
            self.result = Some(r);
            self.end_ms = Some(at);
            report.over = true;
        }
    }

    /// The team of `color` on `board` loses the match (crash, illegal move,
    /// resignation).
    pub fn forfeit(&mut self, board: usize, color: Color, reason: String, now: u64) -> Report {
        let mut report = Report::default();
        if self.result.is_none() && board < self.boards.len() {
            self.resolve(
                vec![(board, color, LossReason::Forfeit, reason)],
                None,
                now,
                &mut report,
            );
        }
        report
    }

    /// Ends the match as a draw (agreement of both teams, adjudication).
    pub fn draw(&mut self, reason: String, now: u64) -> Report {
        let mut report = Report::default();
        self.resolve(Vec::new(), Some(reason), now, &mut report);
        report
    }

    /// Puts a piece into a pocket; side-board pockets are shared (three boards).
    fn give(&mut self, board: usize, color: Color, kind: PieceType, report: &mut Report) {
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
    fn capture_target(&self, board: usize, capturer: Color) -> Option<(usize, Color)> {
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

    fn check_can_move(&self, board: usize) -> Result<(), PlayError> {
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
        let san = bpgn::san(&pos, mv);
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
    fn apply_board_move(
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

    /// Charges the time since the turn started to `color` on `board`, adds the increment.
    fn charge(&mut self, board: usize, color: Color, now: u64) {
        if let Some(tc) = self.settings.time {
            let b = &mut self.boards[board];
            b.clock[color.index()] -= now.saturating_sub(b.turn_start) as i64;
            b.clock[color.index()] += tc.inc_ms as i64;
            b.turn_start = now;
        } else {
            self.boards[board].turn_start = now;
        }
    }

    /// Writes the mover's clock into its last logged move.
    fn record_clock(&mut self, board: usize, mover: Color) {
        if self.settings.time.is_some() {
            let clock = self.boards[board].clock[mover.index()];
            if let Some(m) = self
                .log
                .iter_mut()
                .rev()
                .find(|m| m.board == board && m.color == mover)
            {
                m.clock_ms = Some(clock);
            }
        }
    }

    /// Applies every flag fall up to `now`; fails when the match is over or
    /// the mover on `board` ran out of time together with this action.
    fn settle_clocks(
        &mut self,
        board: usize,
        now: u64,
        report: &mut Report,
    ) -> Result<(), PlayError> {
        self.flags_until(now, false, report);
        if self.is_over() {
            return Err(PlayError::Over);
        }
        if self.flag_time(board).is_some_and(|t| t <= now) {
            // The mover's clock reached zero together with the move: too late.
            self.flags_until(now, true, report);
            return Err(PlayError::Over);
        }
        Ok(())
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

    /// After a change: mates on any board, repetition on `moved`, together
    /// with flags that fall at this same millisecond.
    fn evaluate(&mut self, moved: usize, now: u64, report: &mut Report) {
        let mut losses = Vec::new();
        let mut draw = None;
        for (i, b) in self.boards.iter().enumerate() {
            if !b.live {
                continue;
            }
            match b.pos.outcome() {
                Some(Outcome::Win { winner, reason }) => {
                    let loser = winner.flip();
                    let text = match reason {
                        EndReason::Checkmate => format!("{} checkmated", seat_name(i, loser)),
                        other => format!("{} lost ({other:?})", seat_name(i, loser)),
                    };
                    losses.push((i, loser, LossReason::Checkmate, text));
                }
                Some(Outcome::Draw { reason }) => {
                    draw = Some(format!("draw on board {} ({reason:?})", board_letter(i)));
                }
                None => {}
            }
        }
        if let Some(b) = self.boards.get(moved) {
            if b.live {
                let last = b.pos.key();
                if b.keys.iter().filter(|&&k| k == last).count() >= 3 {
                    draw = Some(format!(
                        "draw by threefold repetition on board {}",
                        board_letter(moved)
                    ));
                }
            }
        }
        for b in 0..self.boards.len() {
            if self.flag_time(b) == Some(now) && !losses.iter().any(|l| l.0 == b) {
                let c = self.running_side(b);
                losses.push((
                    b,
                    c,
                    LossReason::Time,
                    format!("{} lost on time", seat_name(b, c)),
                ));
            }
        }
        if !losses.is_empty() && losses.iter().all(|l| l.2 == LossReason::Time) {
            // Only clocks at zero: they are not caused by this move; keep
            // them for `tick` unless the move itself ended something.
            losses.clear();
        }
        self.resolve(losses, draw, now, report);
    }

    /// The squares (with their boards) the partner of a promoter with
    /// `color` on `board` may take under the Gambler rule.
    fn choices_for(&self, board: usize, color: Color) -> Vec<(usize, Square)> {
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
        let san = bpgn::san(&pos, mv);
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
