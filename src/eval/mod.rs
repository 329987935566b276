//! Evaluation: the NNUE network ([`nnue`]) where one serves the variant,
//! the hand-written evaluation ([`hce`]) elsewhere, and the piece values
//! that exchanges, move ordering and the bughouse brain share.
//!
//! Scores are centipawns from the side to move's view. A piece in hand is
//! material: the network sees it as an input, the hand-written evaluation
//! counts it (usually more than the same piece on the board).

pub mod hce;
pub mod nnue;

pub use hce::{
    evaluate, evaluate_traced, evaluate_with, w, Trace, Weights, DEFAULT_WEIGHTS, WEIGHT_NAMES,
};

use crate::types::PieceType;

/// Nominal piece values in centipawns, P N B R Q K: what static exchange
/// evaluation and move ordering count, and how the bughouse model ranks
/// pieces. (The evaluation's own material weights are tuned separately.)
pub const PIECE_VALUE: [i32; 6] = [100, 300, 310, 500, 900, 20000];

/// What one more piece of kind `k` in hand is usually worth: the
/// hand-written evaluation's pocket value (centipawns). The bughouse
/// brain (`engine::brain`) measures what an owed piece gains beyond it.
pub fn hand_value(k: PieceType) -> i32 {
    DEFAULT_WEIGHTS.0[w::ZH_HAND + k.index()]
}

/// The evaluation made of a network's score and the hand-written one, the
/// network weighing `share` percent.
pub fn mix_evaluations(net: i32, hand_written: i32, share: i32) -> i32 {
    (net * share + hand_written * (100 - share)) / 100
}
