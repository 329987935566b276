//! How a search evaluates a position, in one place for the search and
//! for the `eval` command ([`crate::engine::Engine::trace_eval`]): the
//! network that serves the variant, if any, mixed with the hand-written
//! evaluation at the variant's share ([`params::net_share`]); without a
//! network, the hand-written evaluation alone.

use super::params;
use crate::eval::nnue::Network;
use crate::eval::{evaluate, evaluate_traced, mix_evaluations, Trace};
use crate::position::Position;
use crate::rules::Rules;
use std::sync::Arc;

/// The evaluation of one variant: its network and the network's share.
#[derive(Clone)]
pub struct Evaluator {
    net: Option<Arc<Network>>,
    net_share: i32,
}

impl Default for Evaluator {
    /// The hand-written evaluation alone.
    fn default() -> Evaluator {
        Evaluator {
            net: None,
            net_share: 100,
        }
    }
}

impl Evaluator {
    /// The evaluation of positions under `rules`: `net` where it serves
    /// the variant, at the variant's share.
    pub fn for_rules(net: Option<Arc<Network>>, rules: &Rules) -> Evaluator {
        Evaluator {
            net: net.filter(|n| n.serves(rules.variant)),
            net_share: params::net_share(rules),
        }
    }

    /// The network in use, if any.
    #[inline]
    pub fn net(&self) -> Option<&Network> {
        self.net.as_deref()
    }

    /// The network's share in percent (the rest is the hand-written
    /// evaluation's).
    pub fn net_share(&self) -> i32 {
        self.net_share
    }

    /// The score of `pos` (side to move's view, centipawns), the network's
    /// part computed by `net_score` (the search passes its incrementally
    /// updated accumulator; [`Evaluator::trace`] evaluates from scratch).
    #[inline]
    pub fn evaluate(&self, pos: &Position, net_score: impl FnOnce(&Network) -> i32) -> i32 {
        match self.net.as_deref() {
            Some(net) if self.net_share >= 100 => net_score(net),
            Some(net) => mix_evaluations(net_score(net), evaluate(pos), self.net_share),
            None => evaluate(pos),
        }
    }

    /// Every part of the evaluation of `pos`, for the `eval` command.
    pub fn trace(&self, pos: &Position) -> EvalTrace {
        let (hand_written, terms) = evaluate_traced(pos);
        let network = self.net().map(|n| n.evaluate_position(pos));
        EvalTrace {
            hand_written,
            terms,
            network,
            network_percent: if network.is_some() { self.net_share } else { 0 },
            score: self.evaluate(pos, |n| n.evaluate_position(pos)),
        }
    }
}

/// The parts of one evaluation ([`Evaluator::trace`]); scores from the
/// side to move's view, in centipawns.
#[derive(Clone, Debug)]
pub struct EvalTrace {
    /// The hand-written evaluation.
    pub hand_written: i32,
    /// Its terms, White's and Black's part of each.
    pub terms: Trace,
    /// The network's score, where a network serves the variant.
    pub network: Option<i32>,
    /// The network's share of `score` in percent (0 without a network).
    pub network_percent: i32,
    /// The evaluation the search uses.
    pub score: i32,
}
