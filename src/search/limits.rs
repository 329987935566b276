//! What a search is asked to do: its limits ([`Limits`]) and what it
//! searches with ([`SearchSetup`]).

use super::strength;
use super::timeman::Budget;
use crate::endgames;
use crate::eval::nnue::Network;
use crate::syzygy::{ProbeConfig, Tablebases};
use crate::types::Move;
use std::sync::Arc;

/// What to search for and how long.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth.
    pub depth: Option<i32>,
    /// Node budget (all threads).
    pub nodes: Option<u64>,
    /// The time of this search and its stop rules ([`Budget::UNLIMITED`]
    /// without a clock); a held bughouse move says so here.
    pub time: Budget,
    /// Search for a mate in this many moves.
    pub mate: Option<i32>,
    /// Search until told to stop (also while pondering).
    pub infinite: bool,
    /// Only these root moves.
    pub searchmoves: Vec<Move>,
    /// Number of principal variations.
    pub multipv: usize,
}

/// What a search plays with beyond its limits: the evaluation's network,
/// the endgame tables (built-in antichess and Syzygy), the partner's
/// requests as piece values, and a weakened move choice.
#[derive(Clone, Debug, Default)]
pub struct SearchSetup {
    /// Extra value per piece kind (P N B R Q) on the board or in hand, `[colour]`:
    /// bughouse partner requests ("need a knight": the opponent's knights
    /// are worth more to take; "don't give a queen": ours worth more to keep).
    pub bias: [[i32; 5]; 2],
    /// The NNUE network to evaluate with, where it serves the variant
    /// (`None`: the hand-written evaluation).
    pub net: Option<Arc<Network>>,
    /// Antichess and giveaway endgame tables to probe (`None`: none).
    pub endgames: Option<Arc<endgames::Tables>>,
    /// Syzygy tables (`SyzygyPath`; `None`: none loaded). Probed in chess,
    /// antichess and giveaway only.
    pub syzygy: Option<Arc<Tablebases>>,
    /// How the Syzygy tables are probed (`SyzygyProbeDepth`,
    /// `SyzygyProbeLimit`, `Syzygy50MoveRule`).
    pub syzygy_config: ProbeConfig,
    /// A weakened move choice (strength levels): the main thread searches
    /// that many lines internally and picks among them at random; only
    /// `multipv` lines are reported. `None`: the best move, full strength.
    pub weakening: Option<strength::Weakening>,
}
