//! The network's file and parts: a network built from quantised parts or
//! read from a file's bytes (checking what it is given), written back,
//! the checksum, and why bytes or parts are refused.
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

use super::feature::{KingBuckets, INPUTS, MAX_BUCKETS, MAX_KING_BUCKETS};
use super::network::{
    Activation, Network, SecondLayer, MAX_HIDDEN, MAX_SCRELU_OUTPUT_WEIGHT, MAX_SECOND_LAYER,
};
use crate::rules::Variant;
use std::fmt;

/// File magic.
pub const MAGIC: &[u8; 8] = b"RUKAVNN1";
/// Newest version of the file format (all earlier ones are still read).
/// A network is written in the oldest version that can hold it: version 2
/// for one king bucket and CReLU (the format every earlier engine reads),
/// 3 with king buckets, 4 with SCReLU, 5 with a second layer.
pub const FORMAT_VERSION: u32 = 5;

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
}

/// Loads a network file.
pub fn load_file(path: &str) -> Result<Network, NetworkFileError> {
    crate::data_file::load(path, Network::from_bytes)
}
