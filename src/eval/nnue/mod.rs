//! NNUE: an efficiently updatable neural evaluation with the pocket as input.
//!
//! # Architecture
//!
//! Inputs, seen from one side ("perspective"; Black's view mirrors the board
//! vertically):
//! - 768 board features: (own/their) x (P N B R Q K) x 64 squares;
//! - 60 pocket features: (own/their) x 30 "thermometer" slots, one slot per
//!   piece in hand: pawns 1..16, knights, bishops and rooks 1..4, queens
//!   1..2. A pocket of two knights activates the slots "knight 1" and
//!   "knight 2", so a third knight arriving changes one feature.
//!
//! A network may have several "king buckets": one set of feature weights per
//! group of squares of the perspective's own king ([`KingBuckets`], a map of
//! the 64 squares seen from that side stored in the file), so that a piece
//! is weighed by where the king it defends or attacks stands. With one
//! bucket (every network before format version 3) the king is just a piece.
//!
//! A feature transformer (`INPUTS x HIDDEN` per king bucket, bias) gives one
//! accumulator per perspective; both are clipped to `0..=QA` (CReLU), the side to move's
//! first, and one output neuron reads them: `eval = (out + bias) * SCALE /
//! (QA * QB)` centipawns. A network may instead square the clipped values
//! ([`Activation::SCReLU`], format version 4): then `out = sum(clamp(a, 0,
//! QA)^2 * w) / QA`, on the same scale.
//!
//! A network may have a second hidden layer ([`SecondLayer`], format
//! version 5): per output bucket, `units` neurons each read both
//! accumulators as the output neuron does (`z = sum + bias`, scale `QA *
//! QB`), are clipped to `0..=QA * QB`, and the output neuron reads them:
//! `eval = (sum(y * w) + bias) * SCALE / (QA * QB * QB)`. A network may have
//! several output neurons ("output buckets"), one per range of the number of
//! pieces on the board ([`output_bucket`]); the position picks which one
//! speaks. Accumulators are updated from the
//! [`Delta`](crate::position::Delta) that `make_move_delta` reports (board
//! pieces and pocket counts) and refreshed from the position at the root.
//!
//! # Files
//!
//! `feature.rs` (the inputs, king and output buckets), `network.rs` (the
//! sizes, layers and weights), `accumulator.rs` (the feature transformer's
//! sums, refreshed and updated, and the evaluation that reads them),
//! `format.rs` (a network built from parts or read from a file, described
//! there, written back, and why either is refused), `simd.rs` (the vector
//! kernels), `embedded.rs` (the networks in the binary). The files import
//! one another, never this one, which only re-exports their public items.

mod accumulator;
mod embedded;
mod feature;
mod format;
mod network;
mod simd;

pub use accumulator::Accumulator;
pub use embedded::{default_network, embedded, embedded_for, DEFAULT_NET_NAME, USE_NNUE_DEFAULT};
pub use feature::{
    active_features, board_feature, output_bucket, pocket_feature, KingBuckets, BOARD_FEATURES,
    INPUTS, MAX_BUCKETS, MAX_KING_BUCKETS, POCKET_CAPS, POCKET_SLOTS,
};
pub use format::{checksum, load_file, NetworkError, NetworkFileError, FORMAT_VERSION, MAGIC};
pub use network::{
    Activation, Network, SecondLayer, MAX_HIDDEN, MAX_SCRELU_OUTPUT_WEIGHT, MAX_SECOND_LAYER, QA,
    QB, SCALE,
};
