//! The network: its sizes and quantisation, its activation and second
//! layer, and what it holds. It is built from parts or bytes in
//! `format.rs` and reads positions in `accumulator.rs`.

use super::feature::KingBuckets;
use crate::rules::Variant;

/// Largest hidden layer the engine accepts (accumulators are this wide).
pub const MAX_HIDDEN: usize = 1024;
/// Quantisation of the feature transformer (1.0 = QA).
pub const QA: i32 = 255;
/// Quantisation of the output weights (1.0 = QB).
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output: 600, the scale at which the
/// hand-written evaluation's scores fit game results (Texel K = 0.663 at 400),
/// so that the network speaks the units the search's margins were tuned in.
pub const SCALE: i32 = 600;
/// Largest weight that reads the accumulators of an SCReLU network (the
/// output weights, or the second layer's): a clipped activation (at most
/// [`QA`]) times it must fit `i16`, which the vector kernel relies on.
pub const MAX_SCRELU_OUTPUT_WEIGHT: i16 = 127;
/// Most units of a second hidden layer.
pub const MAX_SECOND_LAYER: usize = 32;

/// A second hidden layer: per output bucket, `units` neurons that read the
/// accumulators (quantised as the output neuron of a one-layer network:
/// weights x[`QB`], biases x`QA * QB`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SecondLayer {
    /// Neurons per output bucket (1..=[`MAX_SECOND_LAYER`]).
    pub units: usize,
    /// `buckets * units * 2 * hidden`: per bucket and neuron, the side to
    /// move's accumulator, then the other side's.
    pub weights: Vec<i16>,
    /// `buckets * units`.
    pub bias: Vec<i32>,
}

/// How the output neuron reads a hidden unit's sum `a` (1.0 = [`QA`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(a, 0, 1)`.
    #[default]
    CReLU,
    /// `clamp(a, 0, 1)^2`: squared, so that the single output neuron can
    /// weigh products of a unit with itself.
    SCReLU,
}

impl Activation {
    /// The number stored in the file.
    pub fn id(self) -> u32 {
        match self {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        }
    }

    /// The activation stored as `id` in a file.
    pub fn from_id(id: u32) -> Option<Activation> {
        match id {
            0 => Some(Activation::CReLU),
            1 => Some(Activation::SCReLU),
            _ => None,
        }
    }

    /// Its name in descriptions and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Activation::CReLU => "CReLU",
            Activation::SCReLU => "SCReLU",
        }
    }
}

/// A loaded network with quantised weights.
pub struct Network {
    /// Hidden units per perspective (accumulator width).
    pub(super) hidden: usize,
    /// Output buckets.
    pub(super) buckets: usize,
    /// Feature-weight sets chosen by the own king's square.
    pub(super) king_buckets: KingBuckets,
    /// How the output neuron (or the second layer) reads the accumulators.
    pub(super) activation: Activation,
    /// The second hidden layer (`units` 0: none).
    pub(super) second: SecondLayer,
    /// `king buckets * INPUTS * hidden`, king bucket-major, then input-major.
    pub(super) feature_weights: Vec<i16>,
    /// One per hidden unit.
    pub(super) feature_bias: Vec<i16>,
    /// `buckets * 2 * hidden`: per bucket, side to move, then the other
    /// side (`buckets * units` with a second layer).
    pub(super) output_weights: Vec<i16>,
    /// One per bucket.
    pub(super) output_bias: Vec<i32>,
    /// The variants it serves.
    pub(super) variants: Vec<Variant>,
    /// The description stored in the file.
    pub(super) description: String,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}, hidden {})", self.description, self.hidden)
    }
}

impl Network {
    /// Hidden layer size.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The king buckets (feature-weight sets by the own king's square).
    pub fn king_buckets(&self) -> KingBuckets {
        self.king_buckets
    }

    /// How the output neuron reads the accumulators.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// The second hidden layer (`units` 0: none).
    pub fn second_layer(&self) -> &SecondLayer {
        &self.second
    }

    /// The description stored in the file.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Variants the network was trained for.
    pub fn variants(&self) -> &[Variant] {
        &self.variants
    }

    /// Does the network serve this variant?
    pub fn serves(&self, v: Variant) -> bool {
        self.variants.contains(&v)
    }

    /// The quantised weights, in the order of [`Network::from_parts`]:
    /// feature weights, feature biases, output weights, output biases (the
    /// trainer starts from them with `rukav train --init`); the second
    /// layer's are in [`Network::second_layer`].
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (
            &self.feature_weights,
            &self.feature_bias,
            &self.output_weights,
            &self.output_bias,
        )
    }
}
