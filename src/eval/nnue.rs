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
//! `eval = (sum(y * w) + bias) * SCALE / (QA * QB * QB)`. A network may have several output neurons
//! ("output buckets"), one per range of the number of pieces on the board
//! ([`output_bucket`]); the position picks which one speaks. Accumulators are updated from the
//! [`Delta`] that `make_move_delta` reports (board pieces and pocket counts)
//! and refreshed from the position at the root.
//!
//! # File format (little-endian)
//!
//! | field | bytes |
//! |---|---|
//! | magic `RUKAVNN1` | 8 |
//! | format version (u32, = [`FORMAT_VERSION`]) | 4 |
//! | inputs (u32, = [`INPUTS`]), hidden size (u32) | 8 |
//! | output buckets (u32, 1..=[`MAX_BUCKETS`]; absent in version 1 files, which have one) | 4 |
//! | king buckets (u32, 1..=[`MAX_KING_BUCKETS`]), then the bucket of each own-king square a1..h8 as the perspective sees it (64 bytes); both absent before version 3 (one bucket) | 4 + 64 |
//! | activation (u32: 0 CReLU, 1 SCReLU); absent before version 4 (CReLU) | 4 |
//! | second-layer units (u32, 0 = none, up to [`MAX_SECOND_LAYER`]); absent before version 5 (none) | 4 |
//! | description length (u32), then the description (UTF-8: architecture, variants, how it was trained) | 4 + n |
//! | variants: count (u32), then one byte each (`Variant::id`) | 4 + v |
//! | feature weights, i16, king bucket-major, then input-major (`king buckets * INPUTS * hidden`) | |
//! | feature biases, i16 (`hidden`) | |
//! | with a second layer: its weights, i16 (`buckets * units * 2 * hidden`: per bucket and unit, side to move, then the other side), then its biases, i32 (`buckets * units`) | |
//! | output weights, i16, per bucket (`buckets * 2 * hidden`: side to move, then the other side; `buckets * units` with a second layer) | |
//! | output biases, i32 (`buckets`) | 4 x buckets |
//! | FNV-1a 64 checksum of everything before it | 8 |

use crate::position::{Delta, Position};
use crate::rules::Variant;
use crate::types::{Color, Piece, PieceType, Square};
use std::fmt;
use std::sync::Arc;

/// Board features per perspective.
pub const BOARD_FEATURES: usize = 768;
/// Pocket slots per side: P 16, N 4, B 4, R 4, Q 2.
pub const POCKET_CAPS: [usize; 5] = [16, 4, 4, 4, 2];
/// First slot of each pocket piece kind within one side's 30 slots.
const POCKET_OFFSETS: [usize; 5] = [0, 16, 20, 24, 28];
/// Pocket slots of one side.
pub const POCKET_SLOTS: usize = 30;
/// All inputs of one perspective.
pub const INPUTS: usize = BOARD_FEATURES + 2 * POCKET_SLOTS;
/// Largest hidden layer the engine accepts (accumulators are this wide).
pub const MAX_HIDDEN: usize = 1024;
/// Most output buckets.
pub const MAX_BUCKETS: usize = 8;
/// Quantisation of the feature transformer (1.0 = QA).
pub const QA: i32 = 255;
/// Quantisation of the output weights (1.0 = QB).
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output: 600, the scale at which the
/// hand-written evaluation's scores fit game results (Texel K = 0.663 at 400),
/// so that the network speaks the units the search's margins were tuned in.
pub const SCALE: i32 = 600;
/// File magic.
pub const MAGIC: &[u8; 8] = b"RUKAVNN1";
/// Most king buckets.
pub const MAX_KING_BUCKETS: usize = 16;
/// Newest version of the file format (all earlier ones are still read).
/// A network is written in the oldest version that can hold it: version 2
/// for one king bucket and CReLU (the format every earlier engine reads),
/// 3 with king buckets, 4 with SCReLU, 5 with a second layer.
pub const FORMAT_VERSION: u32 = 5;
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

/// Which set of feature weights a perspective uses: a bucket for each
/// square of its own king, seen from its side (Black's view mirrored
/// vertically, as the board features are). A side without a king (an
/// antichess position) uses the bucket of a1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    /// Bucket of each own-king square, a1..h8 from the perspective's side.
    map: [u8; 64],
    /// Number of buckets (every entry of `map` is below it).
    count: usize,
}

impl KingBuckets {
    /// One bucket: the king is weighed like any piece.
    pub const NONE: KingBuckets = KingBuckets {
        map: [0; 64],
        count: 1,
    };

    /// A map of the 64 squares to buckets; `None` unless the buckets used
    /// are exactly `0..count` for some count up to [`MAX_KING_BUCKETS`].
    pub fn from_map(map: [u8; 64]) -> Option<KingBuckets> {
        let count = *map.iter().max()? as usize + 1;
        let all_used = (0..count).all(|b| map.contains(&(b as u8)));
        (count <= MAX_KING_BUCKETS && all_used).then_some(KingBuckets { map, count })
    }

    /// The layouts `rukav train --king-buckets N` offers, by number of
    /// buckets: 1; 4 (own back rank a-c, d-e, f-h; the king off its back
    /// rank); 8 (back rank a-b, c, d-e, f, g-h; second rank a-d, e-h; the
    /// king further out). A drop-variant king that leaves its first two
    /// ranks is usually being hunted; where it sits on them says which
    /// pieces defend it.
    pub fn layout(count: usize) -> Option<KingBuckets> {
        let rank_file = |f: &dyn Fn(usize, usize) -> u8| {
            let mut map = [0u8; 64];
            for (sq, b) in map.iter_mut().enumerate() {
                *b = f(sq / 8, sq % 8);
            }
            KingBuckets::from_map(map)
        };
        match count {
            1 => Some(KingBuckets::NONE),
            4 => rank_file(&|rank, file| match (rank, file) {
                (0, 0..=2) => 0,
                (0, 3..=4) => 1,
                (0, _) => 2,
                _ => 3,
            }),
            8 => rank_file(&|rank, file| match (rank, file) {
                (0, 0..=1) => 0,
                (0, 2) => 1,
                (0, 3..=4) => 2,
                (0, 5) => 3,
                (0, _) => 4,
                (1, 0..=3) => 5,
                (1, _) => 6,
                _ => 7,
            }),
            _ => None,
        }
    }

    /// Number of buckets.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The map, a1..h8 from the perspective's side.
    pub fn map(&self) -> &[u8; 64] {
        &self.map
    }

    /// The bucket of `perspective` in `pos`.
    #[inline]
    pub fn of(&self, pos: &Position, perspective: Color) -> usize {
        if self.count == 1 {
            return 0;
        }
        let king = pos.pieces(perspective, PieceType::King);
        if king.is_empty() {
            return usize::from(self.map[0]);
        }
        let sq = king.lsb().0 as usize;
        let seen = if perspective == Color::White {
            sq
        } else {
            sq ^ 56
        };
        usize::from(self.map[seen])
    }
}

/// Index of a board feature: `piece` on `sq` seen from `perspective`.
#[inline]
pub fn board_feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = usize::from(piece.color != perspective);
    let sq = if perspective == Color::White {
        sq.0 as usize
    } else {
        (sq.0 ^ 56) as usize
    };
    (theirs * 6 + piece.kind.index()) * 64 + sq
}

/// Index of a pocket feature: the `slot`-th (0-based) piece of kind `kind`
/// in `owner`'s pocket, seen from `perspective`; `None` above the cap.
#[inline]
pub fn pocket_feature(
    perspective: Color,
    owner: Color,
    kind: PieceType,
    slot: usize,
) -> Option<usize> {
    let k = kind.index();
    if k >= 5 || slot >= POCKET_CAPS[k] {
        return None;
    }
    let theirs = usize::from(owner != perspective);
    Some(BOARD_FEATURES + theirs * POCKET_SLOTS + POCKET_OFFSETS[k] + slot)
}

/// The output bucket of `pos` for a network with `buckets` of them: the
/// number of pieces on the board other than kings, in ranges that split a
/// game's phases (in drop variants the pieces not on the board are in hand,
/// so this is also how full the pockets are).
#[inline]
pub fn output_bucket(pos: &Position, buckets: usize) -> usize {
    if buckets <= 1 {
        return 0;
    }
    let pieces = (pos.occupied() & !pos.kind_bb(PieceType::King)).count() as usize;
    // 0-10, 11-14, 15-17, 18-20, 21-23, 24-26, 27-28, 29+ for eight buckets.
    const EIGHT: [usize; 33] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 7,
        7, 7, 7,
    ];
    EIGHT[pieces.min(32)] * buckets / MAX_BUCKETS
}

/// Every active feature of `pos` from `perspective`, appended to `out`
/// (without a king bucket's offset).
pub fn active_features(pos: &Position, perspective: Color, out: &mut Vec<usize>) {
    for_each_feature(pos, perspective, |f| out.push(f));
}

/// Calls `visit` with every active feature of `pos` from `perspective`:
/// board pieces, then pocket slots (drop variants only).
#[inline]
fn for_each_feature(pos: &Position, perspective: Color, mut visit: impl FnMut(usize)) {
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_on(sq) {
            visit(board_feature(perspective, p, sq));
        }
    }
    if pos.rules().drops {
        for owner in Color::ALL {
            for kind in PieceType::POCKET {
                for slot in 0..pos.pocket(owner, kind) as usize {
                    if let Some(f) = pocket_feature(perspective, owner, kind, slot) {
                        visit(f);
                    }
                }
            }
        }
    }
}

/// A loaded network with quantised weights.
pub struct Network {
    hidden: usize,
    /// Output buckets.
    buckets: usize,
    /// Feature-weight sets chosen by the own king's square.
    king_buckets: KingBuckets,
    /// How the output neuron (or the second layer) reads the accumulators.
    activation: Activation,
    /// The second hidden layer (`units` 0: none).
    second: SecondLayer,
    /// `king buckets * INPUTS * hidden`, king bucket-major, then input-major.
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    /// `buckets * 2 * hidden`: per bucket, side to move, then the other
    /// side (`buckets * units` with a second layer).
    output_weights: Vec<i16>,
    /// One per bucket.
    output_bias: Vec<i32>,
    variants: Vec<Variant>,
    description: String,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}, hidden {})", self.description, self.hidden)
    }
}

/// The two accumulators of a position (index: perspective colour).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Feature-transformer sums, White's view then Black's.
    pub values: [[i16; MAX_HIDDEN]; 2],
    /// The king bucket each perspective's sums were made with.
    pub king_bucket: [u8; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            values: [[0; MAX_HIDDEN]; 2],
            king_bucket: [0; 2],
        }
    }
}

/// Why network bytes ([`Network::from_bytes`]) or parts
/// ([`Network::from_parts`]) were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The bytes do not start with the network magic.
    BadMagic,
    /// The checksum does not match the bytes (a damaged or cut file).
    ChecksumMismatch,
    /// The bytes end inside a field.
    Truncated,
    /// A format version this engine does not read.
    UnsupportedVersion(u32),
    /// An input count other than this engine's [`INPUTS`].
    WrongInputCount(usize),
    /// A hidden size of 0 or above [`MAX_HIDDEN`] in a file.
    HiddenSizeOutOfRange(usize),
    /// A bucket count of 0 or above [`MAX_BUCKETS`] in a file.
    BucketCountOutOfRange(usize),
    /// A king-bucket map whose buckets are not `0..n` for some `n` up to
    /// [`MAX_KING_BUCKETS`], or a count that does not match it.
    BadKingBuckets,
    /// A variant number that names no variant.
    UnknownVariantId(u8),
    /// An activation number that names no activation.
    UnknownActivation(u32),
    /// An SCReLU network with an output weight (or second-layer weight)
    /// beyond ±[`MAX_SCRELU_OUTPUT_WEIGHT`].
    OutputWeightOutOfRange(i16),
    /// A second layer of more than [`MAX_SECOND_LAYER`] units.
    SecondLayerOutOfRange(usize),
    /// Bytes after the last weight.
    TrailingBytes,
    /// Parts: a hidden size that is not a multiple of 16 in 16..=[`MAX_HIDDEN`].
    InvalidHiddenSize(usize),
    /// Parts: a bucket count outside 1..=[`MAX_BUCKETS`].
    InvalidBucketCount(usize),
    /// Parts: weight arrays whose lengths do not fit the sizes.
    WeightSizeMismatch,
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::BadMagic => write!(f, "not a Rukav network (bad magic)"),
            NetworkError::ChecksumMismatch => {
                write!(f, "checksum mismatch (corrupt or truncated file)")
            }
            NetworkError::Truncated => write!(f, "the file is truncated"),
            NetworkError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "format version {v}, this engine reads 1..={FORMAT_VERSION}"
                )
            }
            NetworkError::WrongInputCount(n) => write!(f, "{n} inputs, this engine has {INPUTS}"),
            NetworkError::HiddenSizeOutOfRange(h) => write!(f, "hidden size {h} out of range"),
            NetworkError::BucketCountOutOfRange(b) => write!(f, "{b} output buckets out of range"),
            NetworkError::BadKingBuckets => write!(
                f,
                "the king-bucket map does not use buckets 0..n (n up to {MAX_KING_BUCKETS})"
            ),
            NetworkError::UnknownVariantId(v) => write!(f, "unknown variant number {v}"),
            NetworkError::UnknownActivation(a) => write!(f, "unknown activation number {a}"),
            NetworkError::OutputWeightOutOfRange(w) => write!(
                f,
                "output weight {w} of an SCReLU network beyond ±{MAX_SCRELU_OUTPUT_WEIGHT}"
            ),
            NetworkError::SecondLayerOutOfRange(n) => write!(
                f,
                "second layer of {n} units, at most {MAX_SECOND_LAYER} allowed"
            ),
            NetworkError::TrailingBytes => write!(f, "trailing bytes after the weights"),
            NetworkError::InvalidHiddenSize(h) => write!(
                f,
                "hidden size {h} is not a multiple of 16 in 16..={MAX_HIDDEN}"
            ),
            NetworkError::InvalidBucketCount(b) => {
                write!(f, "{b} output buckets, 1..={MAX_BUCKETS} allowed")
            }
            NetworkError::WeightSizeMismatch => write!(f, "weight arrays do not match the sizes"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// Why [`load_file`] loaded no network.
pub type NetworkFileError = crate::data_file::FileError<NetworkError>;

/// The file checksum: FNV-1a, 64 bits.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NetworkError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(NetworkError::Truncated)?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, NetworkError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i32s(&mut self, n: usize) -> Result<Vec<i32>, NetworkError> {
        (0..n).map(|_| self.u32().map(|x| x as i32)).collect()
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, NetworkError> {
        let b = self.take(n * 2)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

impl Network {
    /// Builds a network of one king bucket from quantised parts:
    /// `output_weights` holds `2 * hidden` weights per bucket and
    /// `output_bias` one bias per bucket.
    pub fn from_parts(
        hidden: usize,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
        variants: Vec<Variant>,
        description: String,
    ) -> Result<Network, NetworkError> {
        Network::from_parts_bucketed(
            hidden,
            KingBuckets::NONE,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            variants,
            description,
        )
    }

    /// Builds a network from quantised parts (the trainer's output), with
    /// `king_buckets.count() * INPUTS * hidden` feature weights.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts_bucketed(
        hidden: usize,
        king_buckets: KingBuckets,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
        variants: Vec<Variant>,
        description: String,
    ) -> Result<Network, NetworkError> {
        Network::from_parts_layered(
            hidden,
            king_buckets,
            feature_weights,
            feature_bias,
            SecondLayer::default(),
            output_weights,
            output_bias,
            variants,
            description,
        )
    }

    /// Builds a network from quantised parts with a second hidden layer
    /// (`second.units` 0: none, as [`Network::from_parts_bucketed`]); the
    /// output then reads `second.units` values per bucket
    /// (`output_weights`: `buckets * units`; the output biases on the
    /// scale `QA * QB * QB`). CReLU; see [`Network::with_activation`].
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts_layered(
        hidden: usize,
        king_buckets: KingBuckets,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        second: SecondLayer,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
        variants: Vec<Variant>,
        description: String,
    ) -> Result<Network, NetworkError> {
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(16) {
            return Err(NetworkError::InvalidHiddenSize(hidden));
        }
        let buckets = output_bias.len();
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetworkError::InvalidBucketCount(buckets));
        }
        let units = second.units;
        if units > MAX_SECOND_LAYER {
            return Err(NetworkError::SecondLayerOutOfRange(units));
        }
        let output_inputs = if units > 0 { units } else { 2 * hidden };
        if feature_weights.len() != king_buckets.count() * INPUTS * hidden
            || feature_bias.len() != hidden
            || second.weights.len() != buckets * units * 2 * hidden
            || second.bias.len() != buckets * units
            || output_weights.len() != buckets * output_inputs
        {
            return Err(NetworkError::WeightSizeMismatch);
        }
        Ok(Network {
            hidden,
            buckets,
            king_buckets,
            activation: Activation::CReLU,
            second,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            variants,
            description,
        })
    }

    /// The same network read through `activation` (CReLU when built from
    /// parts); SCReLU refuses weights that read the accumulators beyond
    /// ±[`MAX_SCRELU_OUTPUT_WEIGHT`].
    pub fn with_activation(mut self, activation: Activation) -> Result<Network, NetworkError> {
        self.activation = activation;
        self.check_activation_weights()?;
        Ok(self)
    }

    /// The network with a second hidden layer of at least one unit between
    /// the accumulators and the output, which now reads `layer.units`
    /// values per bucket (see [`Network::from_parts_layered`]).
    pub fn with_second_layer(
        self,
        layer: SecondLayer,
        output_weights: Vec<i16>,
    ) -> Result<Network, NetworkError> {
        if layer.units == 0 {
            return Err(NetworkError::SecondLayerOutOfRange(0));
        }
        Network::from_parts_layered(
            self.hidden,
            self.king_buckets,
            self.feature_weights,
            self.feature_bias,
            layer,
            output_weights,
            self.output_bias,
            self.variants,
            self.description,
        )?
        .with_activation(self.activation)
    }

    /// SCReLU: the weights that read the accumulators are within
    /// ±[`MAX_SCRELU_OUTPUT_WEIGHT`] (the kernel's 16-bit products).
    fn check_activation_weights(&self) -> Result<(), NetworkError> {
        if self.activation != Activation::SCReLU {
            return Ok(());
        }
        let readers = if self.second.units > 0 {
            &self.second.weights
        } else {
            &self.output_weights
        };
        match readers
            .iter()
            .find(|w| w.unsigned_abs() > MAX_SCRELU_OUTPUT_WEIGHT as u16)
        {
            Some(&w) => Err(NetworkError::OutputWeightOutOfRange(w)),
            None => Ok(()),
        }
    }

    /// Reads a network file, checking magic, version, sizes and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 8 + 8 || &bytes[..8] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut sum_bytes = [0u8; 8];
        sum_bytes.copy_from_slice(sum);
        if checksum(body) != u64::from_le_bytes(sum_bytes) {
            return Err(NetworkError::ChecksumMismatch);
        }
        let mut r = Reader { bytes: body, at: 8 };
        let version = r.u32()?;
        if !(1..=FORMAT_VERSION).contains(&version) {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        let inputs = r.u32()? as usize;
        if inputs != INPUTS {
            return Err(NetworkError::WrongInputCount(inputs));
        }
        let hidden = r.u32()? as usize;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetworkError::HiddenSizeOutOfRange(hidden));
        }
        let buckets = if version == 1 { 1 } else { r.u32()? as usize };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetworkError::BucketCountOutOfRange(buckets));
        }
        let king_buckets = if version >= 3 {
            let count = r.u32()? as usize;
            let mut map = [0u8; 64];
            map.copy_from_slice(r.take(64)?);
            KingBuckets::from_map(map)
                .filter(|k| k.count() == count)
                .ok_or(NetworkError::BadKingBuckets)?
        } else {
            KingBuckets::NONE
        };
        let activation = if version >= 4 {
            let id = r.u32()?;
            Activation::from_id(id).ok_or(NetworkError::UnknownActivation(id))?
        } else {
            Activation::CReLU
        };
        let units = if version >= 5 { r.u32()? as usize } else { 0 };
        if units > MAX_SECOND_LAYER {
            return Err(NetworkError::SecondLayerOutOfRange(units));
        }
        let desc_len = r.u32()? as usize;
        let description = String::from_utf8_lossy(r.take(desc_len)?).into_owned();
        let n_variants = r.u32()? as usize;
        let mut variants = Vec::new();
        for &v in r.take(n_variants)? {
            let variant = Variant::from_id(v).ok_or(NetworkError::UnknownVariantId(v))?;
            variants.push(variant);
        }
        let feature_weights = r.i16s(king_buckets.count() * INPUTS * hidden)?;
        let feature_bias = r.i16s(hidden)?;
        let second = SecondLayer {
            units,
            weights: r.i16s(buckets * units * 2 * hidden)?,
            bias: r.i32s(buckets * units)?,
        };
        let readers = if units > 0 { units } else { 2 * hidden };
        let output_weights = r.i16s(buckets * readers)?;
        let output_bias = r.i32s(buckets)?;
        if r.at != body.len() {
            return Err(NetworkError::TrailingBytes);
        }
        Network::from_parts_layered(
            hidden,
            king_buckets,
            feature_weights,
            feature_bias,
            second,
            output_weights,
            output_bias,
            variants,
            description,
        )?
        .with_activation(activation)
    }

    /// The file image of the network (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let version: u32 = if self.second.units > 0 {
            5
        } else if self.activation != Activation::CReLU {
            4
        } else if self.king_buckets.count() > 1 {
            3
        } else {
            2
        };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        if version >= 3 {
            out.extend_from_slice(&(self.king_buckets.count() as u32).to_le_bytes());
            out.extend_from_slice(self.king_buckets.map());
        }
        if version >= 4 {
            out.extend_from_slice(&self.activation.id().to_le_bytes());
        }
        if version >= 5 {
            out.extend_from_slice(&(self.second.units as u32).to_le_bytes());
        }
        out.extend_from_slice(&(self.description.len() as u32).to_le_bytes());
        out.extend_from_slice(self.description.as_bytes());
        out.extend_from_slice(&(self.variants.len() as u32).to_le_bytes());
        for v in &self.variants {
            out.push(v.id());
        }
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.second.weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.second.bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for w in &self.output_weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

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

    /// Adds the weights of feature `f` (of the weight set starting at
    /// input `base`: king bucket times [`INPUTS`]).
    #[inline]
    fn add_feature(&self, acc: &mut [i16; MAX_HIDDEN], base: usize, f: usize) {
        let h = self.hidden;
        let row = (base + f) * h;
        simd::add(&mut acc[..h], &self.feature_weights[row..row + h]);
    }

    /// Subtracts the weights of feature `f` (see [`Network::add_feature`]).
    #[inline]
    fn sub_feature(&self, acc: &mut [i16; MAX_HIDDEN], base: usize, f: usize) {
        let h = self.hidden;
        let row = (base + f) * h;
        simd::sub(&mut acc[..h], &self.feature_weights[row..row + h]);
    }

    /// Computes both accumulators of `pos` from scratch.
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        for c in Color::ALL {
            self.refresh_perspective(pos, c, acc);
        }
    }

    /// Computes `perspective`'s accumulator of `pos` from scratch (no
    /// allocation: it runs in the search when a king changes bucket).
    fn refresh_perspective(&self, pos: &Position, perspective: Color, acc: &mut Accumulator) {
        let bucket = self.king_buckets.of(pos, perspective);
        acc.king_bucket[perspective.index()] = bucket as u8;
        let base = bucket * INPUTS;
        let a = &mut acc.values[perspective.index()];
        a[..self.hidden].copy_from_slice(&self.feature_bias);
        for_each_feature(pos, perspective, |f| self.add_feature(a, base, f));
    }

    /// The accumulators of `child` (the position after a move whose changes
    /// are `delta`) from those of its parent.
    pub fn update(
        &self,
        parent: &Accumulator,
        delta: &Delta,
        child: &Position,
        acc: &mut Accumulator,
    ) {
        let h = self.hidden;
        for c in Color::ALL {
            let bucket = self.king_buckets.of(child, c);
            if bucket != usize::from(parent.king_bucket[c.index()]) {
                // The king moved to another bucket: other weights throughout.
                self.refresh_perspective(child, c, acc);
                continue;
            }
            acc.king_bucket[c.index()] = bucket as u8;
            let base = bucket * INPUTS;
            let a = &mut acc.values[c.index()];
            a[..h].copy_from_slice(&parent.values[c.index()][..h]);
            for &(piece, sq) in delta.removed.iter().flatten() {
                self.sub_feature(a, base, board_feature(c, piece, sq));
            }
            for &(piece, sq) in delta.added.iter().flatten() {
                self.add_feature(a, base, board_feature(c, piece, sq));
            }
            if child.rules().drops {
                for &(owner, kind, change) in delta.pocket.iter().flatten() {
                    let after = child.pocket(owner, kind) as usize;
                    if change > 0 {
                        if let Some(f) = pocket_feature(c, owner, kind, after - 1) {
                            self.add_feature(a, base, f);
                        }
                    } else if let Some(f) = pocket_feature(c, owner, kind, after) {
                        self.sub_feature(a, base, f);
                    }
                }
            }
        }
    }

    /// The evaluation (centipawns, side to move's view) of `pos` from its
    /// accumulators.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let h = self.hidden;
        let side = pos.side_to_move();
        let bucket = output_bucket(pos, self.buckets);
        let us = &acc.values[side.index()][..h];
        let them = &acc.values[side.flip().index()][..h];
        let units = self.second.units;
        if units == 0 {
            let weights = &self.output_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
            let sum = self.read_accumulators(us, them, weights);
            return ((sum + i64::from(self.output_bias[bucket])) * i64::from(SCALE)
                / i64::from(QA * QB)) as i32;
        }
        let weights = &self.second.weights[bucket * units * 2 * h..(bucket + 1) * units * 2 * h];
        let bias = &self.second.bias[bucket * units..(bucket + 1) * units];
        let output = &self.output_weights[bucket * units..(bucket + 1) * units];
        let mut readings = [0i64; MAX_SECOND_LAYER];
        match self.activation {
            Activation::CReLU => {
                let mut sums = [0i32; MAX_SECOND_LAYER];
                simd::crelu_dots(us, them, weights, &mut sums[..units]);
                for (r, &x) in readings.iter_mut().zip(&sums[..units]) {
                    *r = i64::from(x);
                }
            }
            Activation::SCReLU => {
                for (r, row) in readings.iter_mut().zip(weights.chunks_exact(2 * h)) {
                    *r = self.read_accumulators(us, them, row);
                }
            }
        }
        let mut sum = i64::from(self.output_bias[bucket]);
        for ((&reading, &b), &w) in readings.iter().zip(bias).zip(output) {
            let z = reading + i64::from(b);
            sum += z.clamp(0, i64::from(QA * QB)) * i64::from(w);
        }
        (sum * i64::from(SCALE) / i64::from(QA * QB * QB)) as i32
    }

    /// One neuron's reading of the two accumulators through the
    /// activation, scale `QA * QB`: `weights` holds the side to move's
    /// `hidden` weights, then the other side's.
    #[inline]
    fn read_accumulators(&self, us: &[i16], them: &[i16], weights: &[i16]) -> i64 {
        let (w_us, w_them) = weights.split_at(self.hidden);
        match self.activation {
            Activation::CReLU => {
                i64::from(crelu_dot(us, w_us)) + i64::from(crelu_dot(them, w_them))
            }
            Activation::SCReLU => {
                (simd::screlu_dot(us, w_us) + simd::screlu_dot(them, w_them)) / i64::from(QA)
            }
        }
    }

    /// Evaluates `pos` from scratch (tests, `eval` command).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let mut acc = Accumulator::default();
        self.refresh(pos, &mut acc);
        self.evaluate(&acc, pos)
    }
}

/// `sum(clamp(a, 0, QA) * w)` over a hidden layer.
#[inline]
fn crelu_dot(acc: &[i16], weights: &[i16]) -> i32 {
    simd::crelu_dot(acc, weights)
}

/// The vector kernels: plain loops over 16-wide chunks that the compiler
/// vectorises, compiled twice on x86-64: for the baseline target (SSE2, runs
/// on any x86-64) and with AVX2 enabled, chosen once at run time by CPU
/// detection. Other architectures get the portable loops only.
mod simd {
    use super::QA;

    #[inline(always)]
    fn add_portable(acc: &mut [i16], w: &[i16]) {
        for (a, &x) in acc.iter_mut().zip(w) {
            *a = a.wrapping_add(x);
        }
    }

    #[inline(always)]
    fn sub_portable(acc: &mut [i16], w: &[i16]) {
        for (a, &x) in acc.iter_mut().zip(w) {
            *a = a.wrapping_sub(x);
        }
    }

    /// Sums wrap in 32 bits, as the AVX2 kernel's lanes do (addition
    /// modulo 2^32 does not depend on the order), so the two agree on any
    /// network, and a file whose weights overflow the sum gives a wrong
    /// evaluation, not a panic; the trainer's networks never come near it.
    #[inline(always)]
    fn dot_portable(acc: &[i16], weights: &[i16]) -> i32 {
        let mut total = 0i32;
        for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
            let mut lane = [0i32; 16];
            for i in 0..16 {
                lane[i] = i32::from(a[i].clamp(0, QA as i16)) * i32::from(w[i]);
            }
            total = lane.iter().fold(total, |t, &x| t.wrapping_add(x));
        }
        total
    }

    /// `sum(clamp(a, 0, QA)^2 * w)`, exactly, in 64 bits.
    #[inline(always)]
    fn screlu_dot_portable(acc: &[i16], weights: &[i16]) -> i64 {
        let mut total = 0i64;
        for (&a, &w) in acc.iter().zip(weights) {
            let c = i64::from(a.clamp(0, QA as i16));
            total += c * c * i64::from(w);
        }
        total
    }

    /// The same loops compiled for AVX2.
    ///
    /// # Safety
    ///
    /// Every function here may only be called on a CPU with AVX2.
    #[cfg(target_arch = "x86_64")]
    mod avx2 {
        /// `acc += w`. Safety: needs AVX2.
        #[target_feature(enable = "avx2")]
        pub unsafe fn add(acc: &mut [i16], w: &[i16]) {
            super::add_portable(acc, w)
        }

        /// `acc -= w`. Safety: needs AVX2.
        #[target_feature(enable = "avx2")]
        pub unsafe fn sub(acc: &mut [i16], w: &[i16]) {
            super::sub_portable(acc, w)
        }

        use std::arch::x86_64::{
            __m256i, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256,
            _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16,
            _mm256_mullo_epi16, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256,
            _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32,
        };

        /// The 16 values of `chunk` (exactly 16) in one register.
        /// Safety: needs AVX2.
        #[target_feature(enable = "avx2")]
        #[inline]
        unsafe fn load16(chunk: &[i16]) -> __m256i {
            assert_eq!(chunk.len(), 16);
            // SAFETY: 16 i16 values, 32 bytes, the size of one unaligned
            // load.
            unsafe { _mm256_loadu_si256(chunk.as_ptr().cast::<__m256i>()) }
        }

        /// Accumulator values clipped to the activation's range `0..=QA`.
        /// Safety: needs AVX2.
        #[target_feature(enable = "avx2")]
        #[inline]
        unsafe fn clip(v: __m256i) -> __m256i {
            let ceiling = _mm256_set1_epi16(super::QA as i16);
            _mm256_min_epi16(_mm256_max_epi16(v, _mm256_setzero_si256()), ceiling)
        }

        /// The CReLU dot product, written with intrinsics: the compiler
        /// does not find the multiply-add (`vpmaddwd`, adjacent products
        /// summed in 32 bits) in the plain loop (with it, this kernel took
        /// 19% of crazyhouse datagen's time; now 2.5%, by perf). A clamped activation (at most 255) times
        /// a weight fits 32 bits, and so does a hidden layer's sum, so the
        /// result equals [`super::dot_portable`]'s (a unit test checks it).
        /// Safety: needs AVX2.
        #[target_feature(enable = "avx2")]
        pub unsafe fn dot(acc: &[i16], weights: &[i16]) -> i32 {
            let mut sum = _mm256_setzero_si256();
            for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
                // SAFETY: AVX2 is enabled for this function's caller's CPU.
                let (clamped, w) = unsafe { (clip(load16(a)), load16(w)) };
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clamped, w));
            }
            // SAFETY: AVX2 is enabled for this function's caller's CPU.
            unsafe { horizontal_sum(sum) }
        }

        /// The sum of the eight 32-bit lanes of `v` (wrapping).
        /// Safety: needs AVX2.
        #[target_feature(enable = "avx2")]
        #[inline]
        unsafe fn horizontal_sum(v: __m256i) -> i32 {
            let half = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
            let last = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
            _mm_cvtsi128_si32(last)
        }

        /// Eight neurons' CReLU readings of both accumulators at once:
        /// `out[k] = sum(clamp(us) * row_k[..h]) + sum(clamp(them) *
        /// row_k[h..])`, `rows` holding the eight rows of `2 * h` weights
        /// one after the other. Each chunk of 16 inputs is loaded and
        /// clamped once for all eight (eight accumulators stay in
        /// registers); sums wrap in 32 bits, as [`dot`]'s do. Safety: needs
        /// AVX2.
        #[target_feature(enable = "avx2")]
        pub unsafe fn crelu_dot8(us: &[i16], them: &[i16], rows: &[i16], out: &mut [i32]) {
            let h = us.len();
            assert!(
                them.len() == h
                    && h.is_multiple_of(16)
                    && rows.len() >= 8 * 2 * h
                    && out.len() >= 8
            );
            let mut sums = [_mm256_setzero_si256(); 8];
            for (half, input) in [us, them].into_iter().enumerate() {
                let starts: [*const i16; 8] =
                    std::array::from_fn(|k| rows[k * 2 * h + half * h..][..h].as_ptr());
                for (c, a) in (0..h).step_by(16).zip(input.chunks_exact(16)) {
                    // SAFETY: AVX2 is enabled for this function's caller's CPU.
                    let clamped = unsafe { clip(load16(a)) };
                    for (sum, start) in sums.iter_mut().zip(starts) {
                        // SAFETY: each start begins a row of `h` weights
                        // (sliced above) and `c + 16 <= h`: one unaligned
                        // load inside it.
                        let w = unsafe { _mm256_loadu_si256(start.add(c).cast::<__m256i>()) };
                        *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(clamped, w));
                    }
                }
            }
            for (o, sum) in out.iter_mut().zip(sums) {
                // SAFETY: AVX2 is enabled for this function's caller's CPU.
                *o = unsafe { horizontal_sum(sum) };
            }
        }

        /// The SCReLU dot product: `(c * w) * c` with `c` the clamped
        /// activation, the first product in 16 bits (it fits: `c <= 255`
        /// and `|w| <= MAX_SCRELU_OUTPUT_WEIGHT`, which loading checks),
        /// the second by `vpmaddwd` into 32-bit lanes. A lane adds one pair
        /// per 16 units, at most `2 * 255 * 32385` each, 64 pairs for the
        /// largest layer: below 2^31. The lanes are added in 64 bits, so
        /// the result equals [`super::screlu_dot_portable`]'s (a unit test
        /// checks it). Safety: needs AVX2.
        #[target_feature(enable = "avx2")]
        pub unsafe fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
            let mut sum = _mm256_setzero_si256();
            for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
                // SAFETY: AVX2 is enabled for this function's caller's CPU.
                let (clamped, w) = unsafe { (clip(load16(a)), load16(w)) };
                let weighted = _mm256_mullo_epi16(clamped, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(weighted, clamped));
            }
            let mut lanes = [0i32; 8];
            // SAFETY: `lanes` is 8 i32 values, 32 bytes, the size of one
            // unaligned store.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sum) };
            lanes.iter().map(|&x| i64::from(x)).sum()
        }
    }

    #[cfg(target_arch = "x86_64")]
    fn has_avx2() -> bool {
        static AVX2: once_cell::sync::Lazy<bool> =
            once_cell::sync::Lazy::new(|| std::is_x86_feature_detected!("avx2"));
        *AVX2
    }

    /// Runs the AVX2 kernel where the CPU has AVX2, the portable one elsewhere.
    macro_rules! dispatch {
        ($fast:expr, $portable:expr) => {{
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                // SAFETY: the CPU supports AVX2 (checked at run time above).
                return unsafe { $fast };
            }
            $portable
        }};
    }

    /// `acc += w`, lane by lane (wrapping).
    #[inline]
    pub fn add(acc: &mut [i16], w: &[i16]) {
        dispatch!(avx2::add(acc, w), add_portable(acc, w))
    }

    /// `acc -= w`, lane by lane (wrapping).
    #[inline]
    pub fn sub(acc: &mut [i16], w: &[i16]) {
        dispatch!(avx2::sub(acc, w), sub_portable(acc, w))
    }

    /// `sum(clamp(a, 0, QA) * w)`.
    #[inline]
    pub fn crelu_dot(acc: &[i16], weights: &[i16]) -> i32 {
        dispatch!(avx2::dot(acc, weights), dot_portable(acc, weights))
    }

    /// The CReLU readings of both accumulators by `out.len()` neurons whose
    /// weights are `rows` (`2 * us.len()` per neuron: the side to move's,
    /// then the other side's): eight at a time with AVX2, each the same
    /// (wrapping) number as [`crelu_dot`] of its two halves added.
    #[inline]
    pub fn crelu_dots(us: &[i16], them: &[i16], rows: &[i16], out: &mut [i32]) {
        let h = us.len();
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            for (group, row_block) in out.chunks_exact_mut(8).zip(rows.chunks_exact(8 * 2 * h)) {
                // SAFETY: the CPU supports AVX2 (checked at run time).
                unsafe { avx2::crelu_dot8(us, them, row_block, group) };
                done += 8;
            }
        }
        for (o, row) in out[done..]
            .iter_mut()
            .zip(rows[done * 2 * h..].chunks_exact(2 * h))
        {
            let (w_us, w_them) = row.split_at(h);
            *o = crelu_dot(us, w_us).wrapping_add(crelu_dot(them, w_them));
        }
    }

    /// `sum(clamp(a, 0, QA)^2 * w)`, for weights within
    /// ±`MAX_SCRELU_OUTPUT_WEIGHT` and at most `MAX_HIDDEN` units.
    #[inline]
    pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
        dispatch!(
            avx2::screlu_dot(acc, weights),
            screlu_dot_portable(acc, weights)
        )
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn dispatched_kernels_equal_the_portable_ones() {
            let a: Vec<i16> = (0..256).map(|i| (i * 37 % 700) as i16 - 200).collect();
            let w: Vec<i16> = (0..256).map(|i| (i * 53 % 255) as i16 - 127).collect();
            assert_eq!(super::crelu_dot(&a, &w), super::dot_portable(&a, &w));
            // Extreme values: activations past both ends of the clamp,
            // weights at both ends of i16 (partial sums stay in range, so
            // the portable loop does not overflow), a layer of 1024.
            let big_a: Vec<i16> = (0..1024)
                .map(|i| [i16::MIN, -1, 0, 1, 254, 255, 256, i16::MAX][i % 8])
                .collect();
            let big_w: Vec<i16> = (0..1024)
                .map(|i| [i16::MAX, i16::MIN, 7, -7][i % 4])
                .collect();
            assert_eq!(
                super::crelu_dot(&big_a, &big_w),
                super::dot_portable(&big_a, &big_w)
            );
            // SCReLU: weights at both ends of the allowed range, every
            // activation at the clamp's top, the largest layer (the lanes'
            // worst case), and the mixed values.
            let top_a = vec![i16::MAX; 1024];
            for w in [127i16, -127] {
                let top_w = vec![w; 1024];
                let exact = 1024 * 255 * 255 * i64::from(w);
                assert_eq!(super::screlu_dot(&top_a, &top_w), exact);
                assert_eq!(super::screlu_dot_portable(&top_a, &top_w), exact);
            }
            let small_w: Vec<i16> = w.iter().map(|&x| x.clamp(-127, 127)).collect();
            assert_eq!(
                super::screlu_dot(&a, &small_w),
                super::screlu_dot_portable(&a, &small_w)
            );
            let mixed_w: Vec<i16> = (0..1024).map(|i| [127, -127, 3, 0][i % 4]).collect();
            assert_eq!(
                super::screlu_dot(&big_a, &mixed_w),
                super::screlu_dot_portable(&big_a, &mixed_w)
            );
            // Weights that overflow a 32-bit sum (only a hand-made file has
            // them): both kernels wrap alike.
            let top_a = vec![255i16; 1024];
            let huge_w = vec![i16::MAX; 1024];
            assert_eq!(
                super::crelu_dot(&top_a, &huge_w),
                super::dot_portable(&top_a, &huge_w)
            );
            // Several neurons at once equal one at a time: 19 rows (two
            // groups of eight and three alone), 256 units a side.
            let (us, them) = (&big_a[..256], &big_a[256..512]);
            let rows: Vec<i16> = (0..19 * 512)
                .map(|i| (i * 7919 % 511) as i16 - 255)
                .collect();
            let mut many = [0i32; 19];
            super::crelu_dots(us, them, &rows, &mut many);
            for (k, row) in rows.chunks_exact(512).enumerate() {
                let one = super::dot_portable(us, &row[..256])
                    .wrapping_add(super::dot_portable(them, &row[256..]));
                assert_eq!(many[k], one, "neuron {k}");
            }
            let (mut x, mut y) = (a.clone(), a.clone());
            super::add(&mut x, &w);
            super::add_portable(&mut y, &w);
            assert_eq!(x, y);
            super::sub(&mut x, &w);
            super::sub_portable(&mut y, &w);
            assert_eq!(x, y);
            assert_eq!(x, a);
        }
    }
}

/// Whether `Use NNUE` is on by default (set by measurement; nets/README.md).
pub const USE_NNUE_DEFAULT: bool = true;

/// The networks shipped in the binary (see `nets/README.md`): file name
/// and contents; for each variant the first one that serves it evaluates.
/// A build with `EVALFILE` puts that network first.
static EMBEDDED_FILES: &[(&str, &[u8])] = &[
    #[cfg(rukav_evalfile)]
    (
        env!("RUKAV_EVALFILE_NAME"),
        include_bytes!(env!("RUKAV_EVALFILE")),
    ),
    (
        "rukav-zh-1b831f8ffad7.nnue",
        include_bytes!("../../nets/rukav-zh-1b831f8ffad7.nnue"),
    ),
    (
        "rukav-bug-d4a20cde1fda.nnue",
        include_bytes!("../../nets/rukav-bug-d4a20cde1fda.nnue"),
    ),
    (
        "rukav-anti-96192a4fd6bf.nnue",
        include_bytes!("../../nets/rukav-anti-96192a4fd6bf.nnue"),
    ),
];

/// The name of the first embedded network (the default of `EvalFile`).
pub const DEFAULT_NET_NAME: &str = EMBEDDED_FILES[0].0;

/// The embedded networks, parsed once: (file name, network).
pub fn embedded() -> &'static [(&'static str, Arc<Network>)] {
    static NETS: once_cell::sync::Lazy<Vec<(&'static str, Arc<Network>)>> =
        once_cell::sync::Lazy::new(|| {
            EMBEDDED_FILES
                .iter()
                .filter_map(|(name, bytes)| {
                    Network::from_bytes(bytes)
                        .ok()
                        .map(|n| (*name, Arc::new(n)))
                })
                .collect()
        });
    &NETS
}

/// The embedded network that evaluates `variant`, with its file name.
pub fn embedded_for(variant: Variant) -> Option<(&'static str, Arc<Network>)> {
    embedded()
        .iter()
        .find(|(_, n)| n.serves(variant))
        .map(|(name, n)| (*name, n.clone()))
}

/// The first embedded network (the one `EvalFile` names by default).
pub fn default_network() -> Option<Arc<Network>> {
    embedded().first().map(|(_, n)| n.clone())
}

/// Loads a network file.
pub fn load_file(path: &str) -> Result<Network, NetworkFileError> {
    crate::data_file::load(path, Network::from_bytes)
}
