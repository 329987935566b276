//! Bughouse as a game of two (or three) boards: the positions, four (or six)
//! clocks, pocket transfers, the match result. Pure library: no I/O, and time
//! is whatever the caller says it is (`now`, in milliseconds since the start
//! of the game), so the same model serves the real-time arena (`rukav arena`), the
//! BPGN reader (untimed replay, `rukav bpgn`) and tests.
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

mod ends;
mod gambler;
mod game;
pub mod partner;
pub mod pockets;
pub mod settings;
pub mod tell;

pub use game::{
    opponent_in_check, BoardEnd, GamblerPending, Game, GameSetupError, LoggedMove, LossReason,
    MatchResult, PlayError, Report,
};
pub use settings::{board_letter, seat_name, team_of, Form, Handover, Settings, Team, TimeControl};
