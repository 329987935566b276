//! How long a bughouse side may hold its move: the reserve every hold
//! keeps, and the budgets of sitting for a piece, of stalling while lost or
//! mated, of sitting for a piece asked for, and of sitting as the partner
//! asked.
//!
//! The diagonal clock (the partner's opponent's, where the engine knows it)
//! bounds every sit but the stall of a side that is mated: while we sit, he
//! can sit too (and then nothing reaches either pocket), so the first flag
//! to fall in that race would be ours once our clock is below his.

use super::params::{self, ms};
use std::time::Duration;

/// The clock (ms) a side that holds its move keeps, for every reason of
/// holding but a forced mate against it ([`mated_stall_budget`]), with
/// `own_ms` on its clock in a game whose clock was `game_ms` at the most:
/// `hold_reserve_floor_ms`, half of `own_ms` (`hold_reserve_clock_divisor`)
/// or a tenth of `game_ms` (`hold_reserve_game_divisor`), whichever is
/// most. On a real server
/// a side that sat until 2 s were left lost on time to lag.
pub fn hold_reserve(own_ms: u64, game_ms: u64) -> u64 {
    lag_reserve(game_ms).max(own_ms / ms(params::hold_reserve_clock_divisor()).max(1))
}

/// The clock (ms) no hold goes below in a game whose clock was `game_ms`:
/// `hold_reserve_floor_ms` or a tenth of the game's clock
/// (`hold_reserve_game_divisor`), whichever is more; what kept sides on a
/// real server from flagging to lag.
fn lag_reserve(game_ms: u64) -> u64 {
    ms(params::hold_reserve_floor_ms())
        .max(game_ms / ms(params::hold_reserve_game_divisor()).max(1))
}

/// How long the side to move may sit with `own_ms` on its clock against
/// `their_ms` on its opponent's and `diagonal_ms` on the partner's
/// opponent's when known (`game_ms`: see [`hold_reserve`]): sitting costs
/// only our clock, so we wait while we stay at least `sit_clock_lead_ms`
/// ahead of both, and never more than a third (`sit_clock_share_divisor`)
/// of what is left. `None` when that is under `min_hold_ms`.
pub fn sit_budget(
    own_ms: u64,
    their_ms: u64,
    diagonal_ms: Option<u64>,
    game_ms: u64,
) -> Option<Duration> {
    let wanted = own_ms
        .saturating_sub(their_ms.max(diagonal_ms.unwrap_or(0)))
        .saturating_sub(ms(params::sit_clock_lead_ms()))
        .min(own_ms / ms(params::sit_clock_share_divisor()).max(1));
    hold_budget(wanted, own_ms, game_ms)
}

/// How long a side that is lost on its board (but not mated by force)
/// stalls with `own_ms` on its clock: all but the reserve
/// ([`hold_reserve`]), which keeps half of the clock for the moves it may
/// still play. `None` when that is under `min_hold_ms`.
pub fn stall_budget(own_ms: u64, game_ms: u64) -> Option<Duration> {
    hold_budget(own_ms, own_ms, game_ms)
}

/// How long a side that is mated by force stalls (until its partner says
/// `go`) with `own_ms` on its clock in a game whose clock was `game_ms`:
/// moving loses the board, so every second its partner gets is free, as
/// long as the clock loses nothing: it keeps `hold_reserve_floor_ms` or a
/// tenth of the game's clock (`hold_reserve_game_divisor`; the lag that
/// made sides on a real server flag), enough to play on if a piece that
/// breaks the mate arrives. `None` under `min_hold_ms`.
pub fn mated_stall_budget(own_ms: u64, game_ms: u64) -> Option<Duration> {
    hold_above(own_ms, own_ms, lag_reserve(game_ms))
}

/// How long a side sits because its partner asked it to, with `own_ms` on
/// its clock and `diagonal_ms` on the partner's opponent's when known: what
/// [`stall_budget`] allows, and never below the diagonal clock. `None`
/// when that is under `min_hold_ms` (then it declines the sit).
pub fn asked_by_partner_budget(
    own_ms: u64,
    diagonal_ms: Option<u64>,
    game_ms: u64,
) -> Option<Duration> {
    let wanted = own_ms.saturating_sub(diagonal_ms.unwrap_or(0));
    hold_budget(wanted, own_ms, game_ms)
}

/// How long a side that has asked its partner for a piece that mates
/// (`++X`, with `PartnerMessages` on) sits for it with `own_ms` on its
/// clock: the partner is hunting the piece, so the side waits without the
/// clock lead [`sit_budget`] needs (but never below the diagonal clock
/// `diagonal_ms` when known), up to `piece_sit_max_ms`, and keeps
/// `piece_sit_reserve_ms` (or the larger [`hold_reserve`]) to mate with
/// or play on. `None` under `min_hold_ms`.
pub fn asked_sit_budget(own_ms: u64, diagonal_ms: Option<u64>, game_ms: u64) -> Option<Duration> {
    let wanted = own_ms
        .saturating_sub(ms(params::piece_sit_reserve_ms()))
        .min(ms(params::piece_sit_max_ms()))
        .min(own_ms.saturating_sub(diagonal_ms.unwrap_or(0)));
    hold_budget(wanted, own_ms, game_ms)
}

/// A hold of `wanted_ms` cut to what the reserve leaves of `own_ms`
/// ([`hold_reserve`]), or `None` when that is under `min_hold_ms`.
fn hold_budget(wanted_ms: u64, own_ms: u64, game_ms: u64) -> Option<Duration> {
    hold_above(wanted_ms, own_ms, hold_reserve(own_ms, game_ms))
}

/// A hold of `wanted_ms` that leaves `reserve_ms` of `own_ms`, or `None`
/// when that is under `min_hold_ms`.
fn hold_above(wanted_ms: u64, own_ms: u64, reserve_ms: u64) -> Option<Duration> {
    let hold = wanted_ms.min(own_ms.saturating_sub(reserve_ms));
    (hold >= ms(params::min_hold_ms())).then(|| Duration::from_millis(hold))
}
