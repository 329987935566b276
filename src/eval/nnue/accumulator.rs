//! The accumulators: the feature transformer's sums of a position, made
//! from scratch or updated from the parent's by a move's changes, and the
//! evaluation that reads them.

use super::feature::{board_feature, for_each_feature, output_bucket, pocket_feature, INPUTS};
use super::network::{Activation, Network, MAX_HIDDEN, MAX_SECOND_LAYER, QA, QB, SCALE};
use super::simd;
use crate::position::{Delta, Position};
use crate::types::Color;

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

impl Network {
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
                i64::from(simd::crelu_dot(us, w_us)) + i64::from(simd::crelu_dot(them, w_them))
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
