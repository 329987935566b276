//! The bughouse brain's tuning constants, declared once with default,
//! range and SPSA step (the search's registry, [`crate::search::params`],
//! explains the mechanism). `rukav spsa-params` lists them after the
//! search's; a tuning build (`--features tune`) takes them as UCI options.
//! Clock amounts are in milliseconds, scores in centipawns.

crate::search::params::tuning_params! {
    /// Depth of the short searches that value owed pieces.
    owed_depth: 4, 2, 8, 1;
    /// Below this much on its clock (ms) the engine skips the owed-piece
    /// searches (no requests, no sitting) and spends the time on its move.
    owed_min_clock_ms: 4000, 1000, 12000, 500;
    /// Gain (centipawns) beyond a piece's usual pocket value from one more
    /// piece in hand that (with a decisive score) makes the engine ask its
    /// partner for it; the same loss makes it say "must not give".
    need_gain: 200, 50, 600, 25;
    /// Gain (centipawns, beyond the usual pocket value) from a piece not yet in
    /// hand that makes the engine sit and wait for it, when the clock allows
    /// (never less than `need_gain`: a piece worth sitting for is one worth
    /// asking for) ...
    sit_gain: 400, 100, 1000, 50;
    /// ... and the score it would then reach (a decisive one: mate, or close).
    sit_score: 1000, 400, 2000, 100;
    /// A side whose short search scores it this far behind (centipawns) is
    /// lost on its board: it stalls as a mated side does. (In 24 self-play
    /// games at 10+0.1, 11 of the 14 sides that reached -1500 or worse with 4 s
    /// or more on their clock went on to lose their board.)
    lost_score: 1500, 600, 3000, 100;
    /// The least clock (ms) a side that holds its move keeps, whatever the
    /// reason (`budgets::hold_reserve`).
    hold_reserve_floor_ms: 2000, 500, 6000, 250;
    /// A side that holds its move keeps at least this fraction (one part in
    /// this many) of what is left on its clock: one hold never spends more
    /// than half of it, so that holds repeated move after move leave time for
    /// the rest of the game.
    hold_reserve_clock_divisor: 2, 1, 6, 1;
    /// ... and at least this fraction (one part in this many) of the game's
    /// clock (the most it had this game): 12 s of a 2-minute game. On the local
    /// FICS without timeseal the server charged about 0.5 to 1 s a move for
    /// moves the engine made in 0.2 s, and a side that sat from 16 s down to
    /// the former 6 s (a twentieth) flagged a few moves later.
    hold_reserve_game_divisor: 10, 4, 40, 2;
    /// Holds shorter than this (ms) are not worth making.
    min_hold_ms: 300, 50, 1000, 50;
    /// Clock (ms) a side sitting for a piece it asked for keeps at the least.
    piece_sit_reserve_ms: 3000, 1000, 8000, 250;
    /// The longest (ms) a side sits for a piece it asked for, per move.
    piece_sit_max_ms: 3000, 500, 10000, 250;
    /// Owed-piece scores are clamped to +-this (centipawns), so that a mate
    /// counts as a large gain, not an infinite one.
    owed_score_cap: 2000, 1000, 5000, 250;
    /// Sitting for a piece: the clock lead over the opponent that is kept (ms).
    sit_clock_lead_ms: 1000, 0, 5000, 250;
    /// Sitting for a piece: at most one part in this many of the own clock.
    sit_clock_share_divisor: 3, 1, 8, 1;
    /// Gambler choice: the depth of the search of each candidate.
    gambler_depth: 3, 1, 6, 1;
    /// Gambler choice: candidate scores are clamped to +-this (centipawns).
    gambler_score_cap: 5000, 1000, 10000, 500;
    /// Gambler choice: the piece taken counts this fraction (one part in
    /// this many) of its pocket value (the opponent's partner gets a pawn;
    /// the piece is ours to hand on).
    gambler_hand_value_divisor: 2, 1, 8, 1;
    /// What the evaluation adds per piece of a requested kind (centipawns),
    /// for a request of level 1 (`+n`, "n would be nice": worth an even
    /// trade): the opponent's pieces the partner needs are worth this much
    /// more to capture, ours that must not be given this much more to keep.
    like_bias: 100, 0, 400, 25;
    /// The same for level 2 (`n`, `++n`, "no q": needed, worth a small
    /// sacrifice; what the engine itself asks with `++n`/`--q`).
    need_bias: 300, 0, 1000, 50;
    /// The same for level 3 (`+++n`, "n mates", "q mates me": worth
    /// anything short of losing).
    mates_bias: 1000, 200, 3000, 100;
    /// Share of the usual thinking time (percent) when the partner asked
    /// for fast play or is lost on his board.
    fast_time_percent: 50, 10, 100, 5;
}

/// A clock parameter as milliseconds (a negative value counts as 0).
pub fn ms(value: i32) -> u64 {
    u64::try_from(value).unwrap_or(0)
}
