//! The engine's bughouse brain, in one place for every protocol: what
//! to ask the partner for, what to forbid, when to sit for a piece, how
//! much of the clock to use, and which piece to take for a Gambler
//! promotion. The protocols only carry the results. The model of the game
//! it plays ([`crate::bughouse`]: boards, pockets, the partner's words)
//! lies below the search; the brain runs searches, so it lives beside the
//! engine that calls it.
//!
//! Owed pieces ([`owed`]): before each move, short searches with one more piece of
//! each kind in either pocket value the pieces the partner may send (or
//! give away). A piece that would decide the game (typically a mate) makes
//! a request, `++X` (must have) or, in the opponent's hand, `--X` (must not
//! give), and makes the engine sit and wait for it while its clock allows
//! ([`budgets`]).
//! A side that is being mated, or lost on its board (`lost_score`), says
//! `dead` and stalls; a side that finds a forced mate tells its partner to
//! sit until it has mated ([`FreezeSit`]). Its tuning constants are
//! parameters ([`params`]).

pub mod budgets;
pub mod gambler;
pub mod owed;
pub mod params;
pub mod talk;

pub use self::budgets::{
    asked_by_partner_budget, asked_sit_budget, hold_reserve, mated_stall_budget, sit_budget,
    stall_budget,
};
pub use self::gambler::gambler_choice;
pub use self::owed::{may_arrive, owed_pieces, short_search, OwedPieces, OwedTable};
use self::params::ms;
use crate::bughouse::partner::{PartnerMessage, PartnerState, REQUEST_MOVES};
use crate::bughouse::tell::{Level, Reading};
use crate::eval::hand_value;
use crate::position::Position;
use crate::search::MATE_BOUND;
use crate::types::{Color, PieceType};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The share of the usual thinking time when partner messages are off (percent).
const FULL_TIME_PERCENT: u32 = 100;

/// Moves in a row (new moves, not restarts on changed pockets) for which the
/// engine must be out of danger before it takes back what it said: `x`
/// after `dead`, `trades` after `--q`. The short searches behind them
/// flicker; a partner told `dead`, `x`, `dead` within seconds (as the
/// scripted partner H saw in its first games) learns nothing he can use.
const CALM_MOVES: u8 = 2;

/// The gain that makes the engine sit for a piece: `sit_gain`, never
/// less than `need_gain` (`advice` relies on it: with messages on, the
/// piece it sits for was asked for).
fn sit_gain() -> i32 {
    params::sit_gain().max(params::need_gain())
}

/// What the engine does on a bughouse board before it thinks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    /// Messages for the partner (requests not said recently).
    pub requests: Vec<PartnerMessage>,
    /// Sitting on its own for this piece, for at most this long.
    pub sit_for: Option<(PieceType, Duration)>,
    /// Hold the move back, why, and for at most how long (the partner
    /// said `sit`, the engine is being mated or is lost and stalls, or it
    /// sits for a piece).
    pub hold: Option<(SitReason, Duration)>,
    /// Share of the usual thinking time to use (percent).
    pub time_percent: u32,
    /// Words for a person partner (said once): why the engine does not
    /// sit although he asked.
    pub declined_sit: Option<String>,
}

/// Why a bughouse engine holds its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SitReason {
    /// It waits for this piece from the partner.
    ForPiece(PieceType),
    /// The partner asked it to sit (until `go`).
    PartnerAsked,
    /// It is being mated or is otherwise lost (`lost_score`; announced
    /// as "while mated" either way, the words bughouse players use): it stalls, so that its opponent cannot mate it
    /// while the partner tries to win his board first (it said `dead`).
    Lost,
}

impl SitReason {
    /// How the engine announces to a person that it holds its move, and
    /// how to end it; `None` for a sit the partner asked for (acknowledged
    /// already).
    pub fn words(self) -> Option<String> {
        match self {
            SitReason::ForPiece(k) => Some(format!(
                "sitting: a {} from you mates; say go to make me move",
                talk::piece(k)
            )),
            SitReason::Lost => Some(
                "sitting: I'm being mated, stalling so you can win first; say go to make me move"
                    .to_string(),
            ),
            SitReason::PartnerAsked => None,
        }
    }
}

impl std::fmt::Display for SitReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SitReason::ForPiece(p) => write!(f, "for {}", p.char().to_ascii_uppercase()),
            SitReason::PartnerAsked => f.write_str("as the partner asked"),
            SitReason::Lost => f.write_str("while mated"),
        }
    }
}

/// What the owed-piece searches suggest before a move ([`Bughouse::advice`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Advice {
    /// Messages for the partner.
    pub messages: Vec<PartnerMessage>,
    /// Sit for this piece, for at most this long.
    pub sit_for: Option<(PieceType, Duration)>,
    /// Being mated or lost: stall for at most this long.
    pub stall: Option<Duration>,
    /// The side to move is winning its board (`sit_score`): it does not
    /// sit when its partner asks it to.
    pub winning: bool,
    /// The side to move is mated by force or lost (`lost_score`).
    pub lost: bool,
    /// It is dead (stalls, or was told `go` while stalling), with messages on.
    pub dead: bool,
    /// The owed-piece searches ran (not skipped for a low clock or a
    /// board without a partner): `messages` says what holds now.
    pub searched: bool,
}

/// Evaluation bias for the side `us` to move from the partner's requests:
/// the opponent's pieces the partner needs are worth more to capture, our
/// pieces that must not be given are worth more to keep, by the level of
/// the request ([`bias_of`]). Indexed `[colour][piece]`.
pub fn request_bias(partner: &PartnerState, us: Color) -> [[i32; 5]; 2] {
    let mut b = [[0; 5]; 2];
    for (k, (need, ban)) in partner.need.iter().zip(&partner.ban).enumerate() {
        if let Some(level) = need {
            b[us.flip().index()][k] += bias_of(*level);
        }
        if let Some(level) = ban {
            b[us.index()][k] += bias_of(*level);
        }
    }
    b
}

/// The bias of a request of `level` (centipawns per piece): `like_bias`
/// (worth an even trade), `need_bias` (a small sacrifice), `mates_bias`
/// (anything short of losing).
pub fn bias_of(level: Level) -> i32 {
    match level {
        Level::Like => params::like_bias(),
        Level::Need => params::need_bias(),
        Level::Mates => params::mates_bias(),
    }
}

/// Share of the usual thinking time to use (percent): less when the
/// partner asked for fast play or is lost on his board.
pub fn time_percent(partner: &PartnerState) -> u32 {
    if partner.partner_dead || partner.fast {
        u32::try_from(params::fast_time_percent()).unwrap_or(FULL_TIME_PERCENT)
    } else {
        FULL_TIME_PERCENT
    }
}

/// The engine's bughouse state on its board: what the partner said, his
/// board, and what the engine said itself.
#[derive(Clone, Debug)]
pub struct Bughouse {
    /// What the partner asked for.
    partner: PartnerState,
    /// The partner's board (two in the three-board form's centre), when the
    /// protocol told us.
    partner_boards: Vec<Position>,
    /// Send requests and act on the partner's (option `PartnerMessages`).
    messages: bool,
    /// Requests said, with the move number when they were last said.
    said: Vec<(PartnerMessage, u32)>,
    /// We told the partner `dead` (and have not said `x` since).
    said_dead: bool,
    /// Moves planned in this game.
    moves: u32,
    /// The most our clock had this game (ms): the game's time control, as
    /// far as the engine knows it ([`hold_reserve`]).
    game_clock_ms: u64,
    /// We told the partner `sit` because we are mating (shared with the
    /// search thread, which says it: [`FreezeSit::after_search`]).
    told_sit: Arc<AtomicBool>,
    /// The table the owed-piece searches share, for the whole game.
    owed_table: OwedTable,
    /// Who the partner is and what has been answered ([`talk`]).
    talk: talk::Talk,
    /// The four clocks (ms) as the protocol last told them (UCI `bughouse
    /// clocks`): own board White, Black, partner's board White, Black.
    board_clocks: Option<[u64; 4]>,
    /// Why the engine held its last move, if it did.
    holding: Option<SitReason>,
    /// The partner said `go` while the engine stalled (lost or mated): it
    /// stalls no more until he asks it to sit or it is no longer lost.
    go_while_stalling: bool,
    /// The engine told the partner why it declines his `sit`.
    declined_said: bool,
    /// New moves in a row without being lost (for `x`: [`CALM_MOVES`]).
    calm_moves: u8,
    /// New moves in a row without a piece that mates us (for `trades`).
    ban_free_moves: u8,
}

impl Default for Bughouse {
    fn default() -> Bughouse {
        Bughouse {
            partner: PartnerState::default(),
            partner_boards: Vec::new(),
            messages: true,
            said: Vec::new(),
            said_dead: false,
            moves: 0,
            game_clock_ms: 0,
            told_sit: Arc::new(AtomicBool::new(false)),
            owed_table: OwedTable::default(),
            talk: talk::Talk::default(),
            board_clocks: None,
            holding: None,
            go_while_stalling: false,
            declined_said: false,
            calm_moves: 0,
            ban_free_moves: 0,
        }
    }
}

/// Freezing the partner's board while we mate: a timed search that finds
/// a forced mate for the side to move tells the partner `sit`, so that his
/// opponent captures nothing that would reach our opponent's pocket (a
/// piece to drop in the way breaks the mate) and cannot press on with his
/// own attack meanwhile; the first search after it that finds no mate
/// says `go`. A partner who is behind on his own clock (the diagonal: his
/// `time` against his `otim`, where he told them) is never asked to sit:
/// his flag would fall first.
#[derive(Clone, Debug)]
pub struct FreezeSit {
    told: Arc<AtomicBool>,
    /// The partner can afford to sit (not known to be behind on his clock).
    partner_may_sit: bool,
}

impl FreezeSit {
    /// The message to send after a search whose score (side to move's
    /// view) is `score`, if any.
    pub fn after_search(&self, score: i32) -> Option<PartnerMessage> {
        let mating = score >= MATE_BOUND && self.partner_may_sit;
        if mating == self.told.swap(mating, Ordering::Relaxed) {
            return None;
        }
        Some(if mating {
            PartnerMessage::Sit
        } else {
            PartnerMessage::Go
        })
    }
}

impl Bughouse {
    /// Sends requests and acts on the partner's (`PartnerMessages`); off
    /// forgets what the partner asked.
    pub fn set_messages(&mut self, on: bool) {
        self.messages = on;
        if !on {
            self.partner = PartnerState::default();
        }
    }

    /// Sets the partner's board (`add`: a second one, as the centre player
    /// of the three-board form has; at most two, a repeated `add` replaces
    /// the second).
    pub fn set_partner_board(&mut self, board: Position, add: bool) {
        self.partner_boards.truncate(usize::from(add));
        self.partner_boards.push(board);
    }

    /// Has the partner asked us to sit (and not said `go` since)?
    pub fn partner_asked_sit(&self) -> bool {
        self.partner.sit
    }

    /// A new game: requests in both directions are forgotten.
    pub fn new_game(&mut self) {
        self.partner = PartnerState::default();
        self.talk.new_game();
        self.said.clear();
        self.said_dead = false;
        self.moves = 0;
        self.game_clock_ms = 0;
        self.told_sit.store(false, Ordering::Relaxed);
        self.owed_table.clear();
        self.board_clocks = None;
        self.holding = None;
        self.go_while_stalling = false;
        self.declined_said = false;
        self.calm_moves = 0;
        self.ban_free_moves = 0;
    }

    /// The four clocks in ms (UCI `bughouse clocks`): own board White and
    /// Black, then the partner's board White and Black.
    pub fn set_board_clocks(&mut self, clocks: [u64; 4]) {
        self.board_clocks = Some(clocks);
    }

    /// The diagonal clock (ms) for the side `us`: the partner's opponent's,
    /// who plays `us`'s colour on the partner's board, from the board clocks
    /// or, with `PartnerMessages` on, from the partner's `otim`.
    pub fn diagonal_ms(&self, us: Color) -> Option<u64> {
        if let Some(diagonal) = self.partner_board_ms(us) {
            return Some(diagonal);
        }
        let told = self
            .partner
            .partner_opponent_time_cs
            .map(|cs| cs.saturating_mul(10));
        told.filter(|_| self.messages)
    }

    /// Can the partner of `us` afford to sit? From the board clocks when
    /// known (his clock not below the diagonal), else from what he said
    /// ([`PartnerState::may_sit`]).
    fn partner_may_sit(&self, us: Color) -> bool {
        match (self.partner_board_ms(us.flip()), self.partner_board_ms(us)) {
            (Some(partner), Some(diagonal)) => partner >= diagonal,
            _ => self.partner.may_sit(),
        }
    }

    /// The clock (ms) of the player of `colour` on the partner's board, from
    /// the board clocks when the protocol gave them.
    fn partner_board_ms(&self, colour: Color) -> Option<u64> {
        self.board_clocks.map(|c| c[2 + colour.index()])
    }

    /// Does the engine act on the partner's tells (`PartnerMessages`)?
    pub fn listens(&self) -> bool {
        self.messages
    }

    /// Why the engine holds (or held) its latest move, if it does.
    pub fn holding(&self) -> Option<SitReason> {
        self.holding
    }

    /// Records the hold of the search just started (`None`: it does not
    /// hold its move).
    pub fn set_holding(&mut self, reason: Option<SitReason>) {
        self.holding = reason;
    }

    /// The partner `sit`/`go` that a timed search of ours says when it
    /// finds (or no longer finds) a forced mate; `None` with
    /// `PartnerMessages` off.
    pub fn freeze_sit(&self, us: Color) -> Option<FreezeSit> {
        self.messages.then(|| FreezeSit {
            told: self.told_sit.clone(),
            partner_may_sit: self.partner_may_sit(us),
        })
    }

    /// One reading of a partner's tell. Returns true when it releases a
    /// move that was held back (`go` after `sit`). Ignored (false) with
    /// `PartnerMessages` off.
    pub fn hear(&mut self, reading: &Reading) -> bool {
        if !self.messages {
            return false;
        }
        let was_sitting = self.partner.sit;
        self.partner.apply(reading);
        match reading {
            Reading::Sit => {
                self.declined_said = false;
                self.go_while_stalling = false;
            }
            Reading::Go | Reading::Move(_) if self.holding == Some(SitReason::Lost) => {
                self.go_while_stalling = true;
            }
            _ => {}
        }
        was_sitting && !self.partner.sit
    }

    /// What the partner has asked for (as far as it is heard: nothing
    /// with `PartnerMessages` off).
    pub fn partner_state(&self) -> &PartnerState {
        &self.partner
    }

    /// Greets a new partner ([`talk::GREETING`]): a person until he greets
    /// as a bot does.
    pub fn greet(&mut self) -> &'static str {
        self.talk.person = true;
        talk::GREETING
    }

    /// Is the partner a person (words), with `PartnerMessages` on?
    pub fn partner_is_person(&self) -> bool {
        self.messages && self.talk.person
    }

    /// Reads a partner's tell with [`crate::bughouse::tell::read`] (what
    /// `rukav ptell` prints). A bot's greeting makes the partner a bot and
    /// asks for nothing, and so does a bot's acknowledgement of our tells.
    pub fn read_tell(&mut self, text: &str) -> Vec<Reading> {
        if talk::is_bot_greeting(text) {
            self.talk.person = false;
            return vec![Reading::Chat];
        }
        if !self.talk.person && talk::is_bot_acknowledgement(text) {
            return vec![Reading::Chat];
        }
        crate::bughouse::tell::read(text)
    }

    /// What to answer a tell `text` read as `readings`, which changed what
    /// the partner asked from `before`: the help text; to a person (with
    /// `PartnerMessages` on) an acknowledgement, or one "?" for a tell not
    /// understood at all.
    pub fn replies(
        &mut self,
        text: &str,
        before: &PartnerState,
        readings: &[Reading],
    ) -> Vec<String> {
        let mut out = Vec::new();
        if readings.contains(&Reading::Help) {
            out.push(crate::bughouse::partner::HELP.to_string());
        }
        if self.partner_is_person() {
            out.extend(talk::acknowledge(before, &self.partner, readings));
            out.extend(self.talk.question(text, readings));
        }
        out
    }

    /// The evaluation bias of the partner's requests for the side `us`.
    pub fn bias(&self, us: Color) -> [[i32; 5]; 2] {
        if self.messages {
            request_bias(&self.partner, us)
        } else {
            [[0; 5]; 2]
        }
    }

    /// What to ask and whether to sit before this move of `pos`'s side to
    /// move, from the owed-piece searches. `own_ms` and `their_ms` are the
    /// clocks of the side to move and of its opponent.
    ///
    /// Gains and losses are counted beyond the piece's usual pocket value.
    /// Messages: `must have X` for the piece that would help most (a gain of
    /// at least `need_gain`) when it brings a decisive score
    /// (`sit_score`), `must not give X` for the piece that would hurt most
    /// in the opponent's hand when that is decisive against us; requests for
    /// a piece that only wins material are not made. Sitting: when a piece
    /// not yet in hand would
    /// gain at least `sit_gain` and reach `sit_score` (a mate it allows,
    /// typically), it may arrive ([`may_arrive`]), the clock allows
    /// waiting ([`sit_budget`]; with messages on, where the piece has been
    /// asked for, [`asked_sit_budget`] when longer) and the partner has not
    /// said he is lost
    /// (then no piece comes from him). Stalling, with messages on: when the
    /// side to move is being mated or is lost (`lost_score`), it sits for
    /// most of its clock
    /// ([`stall_budget`]); its opponent cannot mate it meanwhile, and its
    /// partner, told `dead`, plays fast to win his board first. A side
    /// mated by force stalls down to the clock it needs not to flag
    /// ([`mated_stall_budget`]), until the partner says `go`. Sitting for a
    /// piece never goes below the diagonal clock when it is known
    /// ([`Bughouse::diagonal_ms`]).
    pub fn advice(&self, pos: &Position, own_ms: Option<u64>, their_ms: Option<u64>) -> Advice {
        let mut messages = Vec::new();
        let mut dead = false;
        // The eleven short searches take a few milliseconds together; with
        // a low clock that time goes to the move.
        if !pos.rules().two_boards || own_ms.is_some_and(|t| t < ms(params::owed_min_clock_ms())) {
            return Advice::default();
        }
        let owed = owed_pieces(pos, &self.owed_table);
        let gain = |k: PieceType| owed.mine[k.index()].map_or(0, |s| s - owed.base - hand_value(k));
        let loss =
            |k: PieceType| owed.theirs[k.index()].map_or(0, |s| owed.base - s - hand_value(k));
        let best_gain = PieceType::POCKET
            .into_iter()
            .max_by_key(|&k| (gain(k), k.index()));
        let worst_loss = PieceType::POCKET
            .into_iter()
            .max_by_key(|&k| (loss(k), k.index()));
        // The piece decides the game: with it we mate, or in the opponent's
        // hand it mates us.
        let wins_with =
            |k: PieceType| owed.mine[k.index()].is_some_and(|s| s >= params::sit_score());
        let loses_to =
            |k: PieceType| owed.theirs[k.index()].is_some_and(|s| s <= -params::sit_score());
        let lost = owed.mated || owed.base <= -params::lost_score();
        let game = self.game_clock_ms;
        let stall = match own_ms {
            Some(own) if self.messages && lost && !self.go_while_stalling => {
                if owed.mated {
                    mated_stall_budget(own, game)
                } else {
                    stall_budget(own, game)
                }
            }
            _ => None,
        };
        if self.messages {
            // Only a piece that decides the game is worth bending the
            // partner's play.
            if let Some(k) = best_gain.filter(|&k| gain(k) >= params::need_gain() && wins_with(k)) {
                messages.push(PartnerMessage::MustHave(k));
            }
            if let Some(k) = worst_loss.filter(|&k| loss(k) >= params::need_gain() && loses_to(k)) {
                messages.push(PartnerMessage::MustNotGive(k));
            }
            // Told `go` while stalling, it moves on but is still dead.
            dead = stall.is_some() || (lost && self.go_while_stalling);
            if dead && !self.said_dead {
                messages.push(PartnerMessage::Dead);
            } else if !dead && self.said_dead {
                messages.push(PartnerMessage::Alive);
            }
        }
        let mut sit_for = None;
        // No piece comes from a partner who is lost or says so.
        let partner_lost = self.messages && (self.partner.partner_dead || self.partner.unavailable);
        if let (Some(k), Some(own), Some(theirs)) = (best_gain, own_ms, their_ms) {
            let us = pos.side_to_move();
            let diagonal = self.diagonal_ms(us);
            if gain(k) >= sit_gain()
                && wins_with(k)
                && !partner_lost
                && may_arrive(&self.partner_boards, us, k)
            {
                // With talk on this piece was asked for (`++X`: it gains
                // more than need_gain and wins), so it is worth waiting for
                // without a clock lead: the partner hunts it meanwhile.
                let asked = asked_sit_budget(own, diagonal, game).filter(|_| self.messages);
                sit_for = sit_budget(own, theirs, diagonal, game)
                    .max(asked)
                    .map(|d| (k, d));
            }
        }
        Advice {
            messages,
            sit_for,
            stall,
            winning: owed.base >= params::sit_score(),
            lost,
            dead,
            searched: true,
        }
    }

    /// Everything decided before a move of `pos`'s side to move:
    /// `new_move` is false for a search restarted on changed pockets (the
    /// requests do not age then). A request is said again only once it has
    /// lapsed at the partner's end ([`REQUEST_MOVES`] of our moves). A ban
    /// (`--q`) holds at the partner's end until trades are good again: when
    /// no ban has held for [`CALM_MOVES`] new moves in a row, the engine
    /// says `trades`; `x` after `dead` waits as long.
    pub fn decide(
        &mut self,
        pos: &Position,
        own_ms: Option<u64>,
        their_ms: Option<u64>,
        new_move: bool,
    ) -> Decision {
        if new_move {
            self.moves += 1;
            self.partner.tick();
            self.talk.new_move();
        }
        if let Some(own) = own_ms {
            self.game_clock_ms = self.game_clock_ms.max(own);
        }
        let Advice {
            messages,
            sit_for,
            stall,
            winning,
            lost,
            dead,
            searched,
        } = self.advice(pos, own_ms, their_ms);
        if searched && !lost {
            self.go_while_stalling = false;
        }
        let is_ban = |m: &PartnerMessage| matches!(m, PartnerMessage::MustNotGive(_));
        if searched && new_move {
            let calm = |n: u8, danger: bool| if danger { 0 } else { n.saturating_add(1) };
            self.calm_moves = calm(self.calm_moves, dead);
            self.ban_free_moves = calm(self.ban_free_moves, messages.iter().any(is_ban));
        } else if dead {
            self.calm_moves = 0;
        }
        let now = self.moves;
        let mut requests = Vec::new();
        let ban_said = self.said.iter().any(|(m, _)| is_ban(m));
        if new_move && searched && ban_said && self.ban_free_moves >= CALM_MOVES {
            self.said.retain(|(m, _)| !is_ban(m));
            requests.push(PartnerMessage::Trades);
        }
        for msg in messages {
            if msg == PartnerMessage::Alive && self.calm_moves < CALM_MOVES {
                continue;
            }
            if matches!(msg, PartnerMessage::Dead | PartnerMessage::Alive) {
                // Said once each way: `dead` holds at the partner's end
                // until `x`.
                self.said_dead = msg == PartnerMessage::Dead;
                requests.push(msg);
                continue;
            }
            match self.said.iter_mut().find(|(m, _)| *m == msg) {
                Some((_, at)) if now - *at < u32::from(REQUEST_MOVES) => {}
                Some((_, at)) => {
                    *at = now;
                    requests.push(msg);
                }
                None => {
                    self.said.push((msg, now));
                    requests.push(msg);
                }
            }
        }
        // A side winning its own board plays on even when asked to sit; a
        // sitting side keeps the stalling reserve on its clock and never
        // sits below the diagonal clock.
        let asked_to_sit = self.messages && self.partner.sit && !winning;
        let diagonal = self.diagonal_ms(pos.side_to_move());
        let asked_hold = own_ms
            .filter(|_| asked_to_sit)
            .and_then(|own| asked_by_partner_budget(own, diagonal, self.game_clock_ms));
        let mut declined_sit = None;
        if let (true, None, Some(own), Some(diag)) = (asked_to_sit, asked_hold, own_ms, diagonal) {
            let reserve_allows = stall_budget(own, self.game_clock_ms).is_some();
            if reserve_allows && !self.declined_said {
                self.declined_said = true;
                let text = format!(
                    "can't sit: my clock ({} s) is not ahead of your opponent's ({} s); moving",
                    own / 1000,
                    diag / 1000
                );
                declined_sit = Some(text);
            }
        }
        let hold = if let Some(d) = asked_hold {
            Some((SitReason::PartnerAsked, d))
        } else if let Some(d) = stall {
            Some((SitReason::Lost, d))
        } else {
            sit_for.map(|(k, d)| (SitReason::ForPiece(k), d))
        };
        Decision {
            requests,
            sit_for,
            hold,
            time_percent: if self.messages {
                time_percent(&self.partner)
            } else {
                FULL_TIME_PERCENT
            },
            declined_sit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Requests weigh in the evaluation by their level: three levels of
    /// need and of ban, each more than the one below; needs lapse, bans
    /// hold until trades are good again.
    #[test]
    fn requests_bias_the_evaluation_by_level() {
        let (n, q) = (PieceType::Knight.index(), PieceType::Queen.index());
        let (white, black) = (Color::White.index(), Color::Black.index());
        assert!(bias_of(Level::Like) > 0);
        assert!(bias_of(Level::Like) < bias_of(Level::Need));
        assert!(bias_of(Level::Need) < bias_of(Level::Mates));
        let mut s = PartnerState::default();
        for text in ["n mates", "q mates me"] {
            for r in crate::bughouse::tell::read(text) {
                s.apply(&r);
            }
        }
        let b = request_bias(&s, Color::Black);
        assert_eq!(b[white][n], params::mates_bias());
        assert_eq!(b[black][q], params::mates_bias());
        assert_eq!(b[white][q] + b[black][n], 0);
        s.apply(&Reading::Need(PieceType::Knight, Level::Like));
        assert_eq!(
            request_bias(&s, Color::Black)[white][n],
            params::like_bias()
        );
        for _ in 0..REQUEST_MOVES {
            s.tick();
        }
        let b = request_bias(&s, Color::Black);
        assert_eq!(b[white][n], 0, "the need lapsed");
        assert_eq!(b[black][q], params::mates_bias(), "the ban holds");
        s.apply(&Reading::TradesGood);
        assert_eq!(request_bias(&s, Color::Black), [[0; 5]; 2]);
        assert_eq!(time_percent(&s), FULL_TIME_PERCENT);
        s.apply(&Reading::Dead);
        assert!(time_percent(&s) < FULL_TIME_PERCENT);
    }

    use crate::rules::Variant;

    #[test]
    fn sit_budget_needs_a_clock_lead() {
        assert_eq!(
            sit_budget(20_000, 10_000, None, 0),
            Some(Duration::from_millis(6_666))
        );
        assert_eq!(
            sit_budget(20_000, 17_000, None, 0),
            Some(Duration::from_millis(2_000))
        );
        assert_eq!(sit_budget(10_000, 20_000, None, 0), None);
        assert_eq!(sit_budget(10_000, 9_500, None, 0), None);
        assert_eq!(sit_budget(600, 0, None, 0), None);
        assert_eq!(
            sit_budget(u64::MAX, 0, None, u64::MAX).map(|d| d.as_millis() > 0),
            Some(true)
        );
    }

    /// White to move; a knight in hand mates at f7 (smothered).
    fn smother() -> Position {
        Position::from_fen(
            "6rk/6pp/8/8/8/8/PPP5/1K6[] w - - 0 1",
            Variant::Bughouse.rules(),
        )
        .unwrap()
    }

    #[test]
    fn owed_knight_makes_the_engine_ask_and_sit() {
        let pos = smother();
        let owed = owed_pieces(&pos, &OwedTable::default());
        assert_eq!(owed.mine[PieceType::Knight.index()], Some(2000), "{owed:?}");
        let mut b = Bughouse::default();
        let d = b.decide(&pos, Some(20_000), Some(10_000), true);
        assert!(
            d.requests
                .contains(&PartnerMessage::MustHave(PieceType::Knight)),
            "a knight that mates is asked for urgently: {d:?}"
        );
        assert_eq!(
            d.sit_for,
            Some((PieceType::Knight, Duration::from_millis(6_666)))
        );
        assert_eq!(
            d.hold,
            Some((
                SitReason::ForPiece(PieceType::Knight),
                Duration::from_millis(6_666)
            ))
        );
        // Behind on the clock: not asked again so soon, but the partner
        // hunts the knight, so it still sits, keeping the reserve.
        let d = b.decide(&pos, Some(10_000), Some(20_000), true);
        assert!(d.requests.is_empty(), "said one move ago: {d:?}");
        let asked = Duration::from_millis(ms(params::piece_sit_max_ms()));
        assert_eq!(d.sit_for, Some((PieceType::Knight, asked)));
        let low = ms(params::piece_sit_reserve_ms()) + 1_000;
        let d = b.decide(&pos, Some(low), Some(20_000), true);
        assert_eq!(d.sit_for, Some((PieceType::Knight, Duration::from_secs(1))));
        // Without talk nobody hunts it: behind on the clock, it plays on.
        b.new_game();
        b.messages = false;
        let d = b.decide(&pos, Some(10_000), Some(20_000), true);
        assert!(d.requests.is_empty(), "{d:?}");
        assert_eq!(d.sit_for, None);
        assert_eq!(d.hold, None);
    }

    #[test]
    fn asked_sit_budget_keeps_the_reserve() {
        assert_eq!(
            asked_sit_budget(ms(params::piece_sit_reserve_ms()) + 299, None, 0),
            None
        );
        assert_eq!(
            asked_sit_budget(ms(params::piece_sit_reserve_ms()) + 300, None, 0),
            Some(Duration::from_millis(300))
        );
        assert_eq!(
            asked_sit_budget(u64::MAX, None, u64::MAX),
            Some(Duration::from_millis(ms(params::piece_sit_max_ms())))
        );
    }

    /// A ban we asked for holds at the partner's end until trades are good
    /// again: when no piece mates us any more, the engine says `trades`,
    /// once, and only at a new move whose searches ran.
    #[test]
    fn a_ban_that_no_longer_holds_is_withdrawn() {
        let pos = Position::startpos(Variant::Bughouse);
        let mut b = Bughouse::default();
        b.said
            .push((PartnerMessage::MustNotGive(PieceType::Queen), 0));
        let restart = b.decide(&pos, Some(20_000), Some(20_000), false);
        assert!(!restart.requests.contains(&PartnerMessage::Trades));
        let low_clock = b.decide(&pos, Some(1_000), Some(20_000), true);
        assert!(!low_clock.requests.contains(&PartnerMessage::Trades));
        // Withdrawn after CALM_MOVES new moves without a piece that mates.
        for _ in 1..CALM_MOVES {
            let d = b.decide(&pos, Some(20_000), Some(20_000), true);
            assert!(d.requests.is_empty(), "{d:?}");
        }
        let d = b.decide(&pos, Some(20_000), Some(20_000), true);
        assert_eq!(d.requests, vec![PartnerMessage::Trades]);
        let d = b.decide(&pos, Some(20_000), Some(20_000), true);
        assert!(d.requests.is_empty(), "{d:?}");
    }

    /// A knight would win a rook (fork on c7) but not the game: well worth
    /// having, yet not worth bending the partner's play, so it is not asked
    /// for. (A queen would win the rook and the game: that one is.)
    #[test]
    fn a_piece_that_only_wins_material_is_not_asked_for() {
        let pos = Position::from_fen(
            "r3k3/8/8/8/8/8/8/4K3[] w - - 0 1",
            Variant::Bughouse.rules(),
        )
        .unwrap();
        let owed = owed_pieces(&pos, &OwedTable::default());
        let with_knight = owed.mine[PieceType::Knight.index()].unwrap();
        let gain = with_knight - owed.base - hand_value(PieceType::Knight);
        assert!(
            gain >= params::need_gain() && with_knight < params::sit_score(),
            "{owed:?}"
        );
        let mut b = Bughouse::default();
        let d = b.decide(&pos, Some(20_000), Some(10_000), true);
        let knight = PieceType::Knight;
        assert!(
            !d.requests
                .iter()
                .any(|m| matches!(m, PartnerMessage::MustHave(k) if *k == knight)),
            "{d:?}"
        );
        assert!(d
            .requests
            .contains(&PartnerMessage::MustHave(PieceType::Queen)));
        assert!(d.sit_for.is_none_or(|(k, _)| k != knight));
    }

    /// A request is repeated once it has lapsed at the partner's end, and a
    /// restarted search neither ages requests nor says them again.
    #[test]
    fn requests_repeat_only_after_they_lapse() {
        let pos = smother();
        let mut b = Bughouse::default();
        let need = PartnerMessage::MustHave(PieceType::Knight);
        let mut said_at = Vec::new();
        for move_number in 1..=(2 * u32::from(REQUEST_MOVES) + 1) {
            let d = b.decide(&pos, Some(20_000), Some(10_000), true);
            if d.requests.contains(&need) {
                said_at.push(move_number);
            }
            let again = b.decide(&pos, Some(20_000), Some(10_000), false);
            assert!(!again.requests.contains(&need), "restart said it again");
        }
        let n = u32::from(REQUEST_MOVES);
        assert_eq!(said_at, vec![1, 1 + n, 1 + 2 * n]);
    }

    #[test]
    fn a_piece_may_arrive_only_when_the_partner_attacks_one() {
        let rules = Variant::Bughouse.rules();
        let pos = smother();
        // Partner (Black on the other board) attacks White's knight on c3
        // with his pawn on b4; no white bishop is attacked.
        let partner = "r1bqkbnr/pppppppp/2n5/8/1p6/2N5/PPPPPPPP/R1BQKBNR[] w KQkq - 0 1";
        let mut b = Bughouse {
            partner_boards: vec![Position::from_fen(partner, rules).unwrap()],
            ..Bughouse::default()
        };
        assert!(may_arrive(
            &b.partner_boards,
            Color::White,
            PieceType::Knight
        ));
        assert!(!may_arrive(
            &b.partner_boards,
            Color::White,
            PieceType::Bishop
        ));
        let sit = b.advice(&pos, Some(20_000), Some(10_000)).sit_for;
        assert_eq!(sit.map(|(k, _)| k), Some(PieceType::Knight));
        // Nothing of the kind is attacked: no sitting for it.
        let quiet = "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR[] b KQkq - 0 1";
        b.partner_boards = vec![Position::from_fen(quiet, rules).unwrap()];
        assert!(!may_arrive(
            &b.partner_boards,
            Color::White,
            PieceType::Knight
        ));
        assert_eq!(b.advice(&pos, Some(20_000), Some(10_000)).sit_for, None);
    }

    /// White to move is mated in two (a queen drop follows Kg1): with
    /// messages on it says `dead` once and stalls until only the clock it
    /// needs not to flag is left (`hold_reserve_floor_ms` here); when the
    /// mate is gone it says `x`. With messages off it plays on.
    #[test]
    fn a_mated_side_stalls_and_says_dead() {
        let rules = Variant::Bughouse.rules();
        let mated = Position::from_fen("8/8/8/8/8/6k1/8/7K[q] w - - 0 1", rules).unwrap();
        assert!(owed_pieces(&mated, &OwedTable::default()).mated);
        let mut b = Bughouse::default();
        let d = b.decide(&mated, Some(9_000), Some(3_000), true);
        assert_eq!(d.requests, vec![PartnerMessage::Dead]);
        let floor = ms(params::hold_reserve_floor_ms());
        assert_eq!(
            d.hold,
            Some((SitReason::Lost, Duration::from_millis(9_000 - floor)))
        );
        let again = b.decide(&mated, Some(8_000), Some(3_000), false);
        assert!(again.requests.is_empty(), "{again:?}");
        assert_eq!(
            stall_budget(ms(params::hold_reserve_floor_ms()) + 299, 0),
            None
        );
        // `x` only after CALM_MOVES new moves out of danger: a restart
        // on changed pockets does not count.
        let safe = Position::startpos(Variant::Bughouse);
        for _ in 1..CALM_MOVES {
            let d = b.decide(&safe, Some(9_000), Some(3_000), true);
            assert!(d.requests.is_empty(), "{d:?}");
            let d = b.decide(&safe, Some(9_000), Some(3_000), false);
            assert!(d.requests.is_empty(), "{d:?}");
        }
        let d = b.decide(&safe, Some(9_000), Some(3_000), true);
        assert_eq!(d.requests, vec![PartnerMessage::Alive]);
        assert_eq!(d.hold, None);
        b.new_game();
        b.messages = false;
        let d = b.decide(&mated, Some(9_000), Some(3_000), true);
        assert!(d.requests.is_empty() && d.hold.is_none(), "{d:?}");
    }

    /// White to move has no mate to fear but is two queens and two rooks
    /// down: lost, it says `dead` and stalls; Black in the mirrored
    /// position is winning and does not sit when its partner asks.
    const LOST: &str = "rq1qk2r/pppppppp/8/8/8/8/PPPPPPPP/4K3[] w - - 0 1";
    const WON: &str = "4k3/pppppppp/8/8/8/8/PPPPPPPP/RQ1QK2R[] w - - 0 1";

    #[test]
    fn a_lost_side_stalls_without_a_mate() {
        let lost = Position::from_fen(LOST, Variant::Bughouse.rules()).unwrap();
        let owed = owed_pieces(&lost, &OwedTable::default());
        assert!(
            !owed.mated && owed.base <= -params::lost_score(),
            "{owed:?}"
        );
        let mut b = Bughouse::default();
        let d = b.decide(&lost, Some(9_000), Some(9_000), true);
        assert_eq!(d.requests, vec![PartnerMessage::Dead]);
        assert_eq!(
            d.hold,
            Some((SitReason::Lost, Duration::from_millis(4_500)))
        );
    }

    /// The holds seen on FICS in 2-minute games (`sitting while mated at
    /// most 84895 ms`, `sitting as the partner asked at most 65000 ms`,
    /// each leaving about 2 s, then lost on time; later a sit from 16 s down
    /// to 6 s, flagged a few moves on): every reason of holding now keeps
    /// half of the clock and 12 s of a 2-minute game (a side mated by force,
    /// which loses nothing by waiting, only the 12 s), and holds repeated
    /// move after move never take the clock below that.
    #[test]
    fn holds_in_a_two_minute_game_keep_time_for_the_rest_of_it() {
        let game = 120_000;
        assert_eq!(hold_reserve(86_895, game), 43_447);
        assert_eq!(
            stall_budget(86_895, game),
            Some(Duration::from_millis(43_448))
        );
        // The sit seen on FICS from 16 s: 4 s at most, 12 s kept.
        assert_eq!(
            stall_budget(16_000, game),
            Some(Duration::from_millis(4_000))
        );
        let mated =
            Position::from_fen("8/8/8/8/8/6k1/8/7K[q] w - - 0 1", Variant::Bughouse.rules())
                .unwrap();
        let mut b = Bughouse::default();
        b.decide(&mated, Some(game), Some(game), true);
        let d = b.decide(&mated, Some(67_000), Some(60_000), true);
        let (_, budget) = d.hold.expect("a mated side stalls");
        assert_eq!(67_000 - budget.as_millis() as u64, game / 10, "{d:?}");
        assert_eq!(mated_stall_budget(12_200, game), None);
        b.hear(&Reading::Sit);
        let pos = Position::startpos(Variant::Bughouse);
        let d = b.decide(&pos, Some(67_000), Some(60_000), true);
        assert_eq!(
            d.hold,
            Some((SitReason::PartnerAsked, Duration::from_millis(33_500)))
        );
        // Stalling on every move from a full clock: the clock never falls
        // below 12 s, the tenth of the game.
        let mut own = game;
        while let Some(hold) = stall_budget(own, game) {
            own -= hold.as_millis() as u64;
            assert!(
                own >= game / ms(params::hold_reserve_game_divisor()),
                "{own}"
            );
        }
        assert!(own >= 12_000);
        // With no time left to keep, nothing is held.
        assert_eq!(stall_budget(12_200, game), None);
        assert_eq!(asked_sit_budget(12_200, None, game), None);
    }

    #[test]
    fn a_mate_found_tells_the_partner_to_sit_until_it_is_gone() {
        let mut b = Bughouse::default();
        let freeze = b.freeze_sit(Color::White).expect("messages are on");
        assert_eq!(freeze.after_search(900), None);
        assert_eq!(
            freeze.after_search(MATE_BOUND + 9),
            Some(PartnerMessage::Sit)
        );
        assert_eq!(freeze.after_search(MATE_BOUND + 7), None, "said once");
        assert_eq!(freeze.after_search(300), Some(PartnerMessage::Go));
        assert_eq!(freeze.after_search(300), None);
        assert_eq!(freeze.after_search(MATE_BOUND), Some(PartnerMessage::Sit));
        b.new_game();
        assert_eq!(
            freeze.after_search(MATE_BOUND),
            Some(PartnerMessage::Sit),
            "a new game forgets"
        );
        b.messages = false;
        assert!(b.freeze_sit(Color::White).is_none());
    }

    /// A partner who said he is behind on his clock is not asked to sit
    /// (his flag would fall first); level or ahead, he is.
    #[test]
    fn a_partner_behind_on_his_clock_is_not_asked_to_sit() {
        let mut b = Bughouse::default();
        b.hear(&Reading::Time(3_000));
        b.hear(&Reading::Otim(5_000));
        let freeze = b.freeze_sit(Color::White).expect("messages are on");
        assert_eq!(freeze.after_search(MATE_BOUND + 9), None);
        b.hear(&Reading::Otim(3_000));
        let freeze = b.freeze_sit(Color::White).expect("messages are on");
        assert_eq!(
            freeze.after_search(MATE_BOUND + 9),
            Some(PartnerMessage::Sit)
        );
    }

    #[test]
    fn partner_sit_holds_all_but_the_reserve_and_go_releases() {
        let pos = Position::startpos(Variant::Bughouse);
        let mut b = Bughouse::default();
        assert!(!b.hear(&Reading::Sit));
        let d = b.decide(&pos, Some(30_000), Some(30_000), true);
        assert_eq!(
            d.hold,
            Some((SitReason::PartnerAsked, Duration::from_millis(15_000)))
        );
        // A side winning its own board plays on.
        let won = Position::from_fen(WON, Variant::Bughouse.rules()).unwrap();
        assert_eq!(b.decide(&won, Some(30_000), Some(30_000), true).hold, None);
        assert!(b.hear(&Reading::Go));
        b.hear(&Reading::Dead);
        assert_eq!(b.decide(&pos, None, None, true).time_percent, 50);
        // PartnerMessages off: nothing heard, nothing said.
        b.new_game();
        b.messages = false;
        assert!(!b.hear(&Reading::Sit));
        assert!(!b.partner.sit);
        let d = b.decide(&smother(), Some(20_000), Some(10_000), true);
        assert!(d.requests.is_empty());
    }

    /// The diagonal clock (the partner's opponent's) bounds every sit: for
    /// a piece (with or without asking), and as the partner asked, which is
    /// declined in words, once, when the engine is not ahead of it.
    #[test]
    fn the_diagonal_clock_bounds_every_sit() {
        let lead = ms(params::sit_clock_lead_ms());
        assert_eq!(
            sit_budget(20_000, 10_000, Some(15_000), 0),
            Some(Duration::from_millis(5_000 - lead))
        );
        assert_eq!(sit_budget(20_000, 10_000, Some(19_500), 0), None);
        let reserve = ms(params::piece_sit_reserve_ms());
        assert!(asked_sit_budget(reserve + 2_000, None, 0) > Some(Duration::from_millis(1_000)));
        assert_eq!(
            asked_sit_budget(reserve + 2_000, Some(reserve + 1_000), 0),
            Some(Duration::from_millis(1_000))
        );
        assert_eq!(
            asked_sit_budget(reserve + 2_000, Some(reserve + 2_000), 0),
            None
        );
        assert_eq!(
            asked_by_partner_budget(30_000, Some(20_000), 0),
            Some(Duration::from_millis(10_000))
        );
        assert_eq!(
            asked_by_partner_budget(30_000, None, 0),
            stall_budget(30_000, 0)
        );

        let pos = Position::startpos(Variant::Bughouse);
        let mut b = Bughouse::default();
        b.hear(&Reading::Sit);
        // White's partner plays Black on his board: his opponent (the
        // diagonal) has 40 s, we have 30 s.
        b.set_board_clocks([30_000, 30_000, 40_000, 35_000]);
        assert_eq!(b.diagonal_ms(Color::White), Some(40_000));
        let d = b.decide(&pos, Some(30_000), Some(30_000), true);
        assert_eq!(d.hold, None, "behind the diagonal: no sit");
        let words = d.declined_sit.expect("told why");
        assert!(words.contains("30 s") && words.contains("40 s"), "{words}");
        let d = b.decide(&pos, Some(30_000), Some(30_000), true);
        assert_eq!(d.declined_sit, None, "said once");
        // Ahead of the diagonal by 10 s: sits for those 10 s.
        b.set_board_clocks([30_000, 30_000, 20_000, 35_000]);
        let d = b.decide(&pos, Some(30_000), Some(30_000), true);
        assert_eq!(
            d.hold,
            Some((SitReason::PartnerAsked, Duration::from_millis(10_000)))
        );
        // Without board clocks, the partner's `otim` is the diagonal.
        let mut b = Bughouse::default();
        b.hear(&Reading::Otim(2_500));
        assert_eq!(b.diagonal_ms(Color::Black), Some(25_000));
        b.hear(&Reading::Up(None));
        assert_eq!(b.diagonal_ms(Color::Black), None);
    }

    /// The partner's words on his clock decide whether he is asked to sit
    /// for our mate, and so do the board clocks when the protocol gives
    /// them (his clock against the diagonal).
    #[test]
    fn a_partner_who_says_he_is_down_is_not_asked_to_sit() {
        let mut b = Bughouse::default();
        b.hear(&Reading::Down(Some(1_000)));
        let freeze = b.freeze_sit(Color::White).expect("messages are on");
        assert_eq!(freeze.after_search(MATE_BOUND + 9), None);
        b.hear(&Reading::Up(None));
        let freeze = b.freeze_sit(Color::White).expect("messages are on");
        assert_eq!(
            freeze.after_search(MATE_BOUND + 9),
            Some(PartnerMessage::Sit)
        );
        // White's partner is Black on the other board: 10 s against 20 s.
        b.set_board_clocks([60_000, 60_000, 20_000, 10_000]);
        let freeze = b.freeze_sit(Color::White).expect("messages are on");
        assert_eq!(
            freeze.after_search(MATE_BOUND + 9),
            Some(PartnerMessage::Go)
        );
        assert_eq!(freeze.after_search(MATE_BOUND + 9), None);
    }

    /// A mated side stalls until its partner says `go`; then it moves on
    /// (still `dead`, no `x`) until he asks it to sit again.
    #[test]
    fn a_mated_side_sits_until_go() {
        let rules = Variant::Bughouse.rules();
        let mated = Position::from_fen("8/8/8/8/8/6k1/8/7K[q] w - - 0 1", rules).unwrap();
        let mut b = Bughouse::default();
        let d = b.decide(&mated, Some(60_000), Some(30_000), true);
        let hold = d.hold.expect("stalls");
        assert_eq!(hold.0, SitReason::Lost);
        b.set_holding(Some(hold.0));
        b.hear(&Reading::Go);
        let d = b.decide(&mated, Some(50_000), Some(30_000), true);
        assert_eq!(d.hold, None, "go: it moves");
        assert!(d.requests.is_empty(), "still dead: {d:?}");
        // Asked to sit again, it holds as he asked; his `go` ends that
        // sit, and the stall while mated is back.
        b.hear(&Reading::Sit);
        let d = b.decide(&mated, Some(50_000), Some(30_000), true);
        let hold = d.hold.expect("sits");
        assert_eq!(hold.0, SitReason::PartnerAsked);
        b.set_holding(Some(hold.0));
        assert!(b.hear(&Reading::Go));
        let d = b.decide(&mated, Some(40_000), Some(30_000), true);
        assert_eq!(d.hold.map(|h| h.0), Some(SitReason::Lost));
    }
}
