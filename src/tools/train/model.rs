//! The trainer's model in floating point, its gradient over a batch, and
//! Adam, parallel over slices of the hidden layer.
//!
//! The hidden units are cut into fixed slices of [`SLICE_WIDTH`] units
//! (16 where the hidden size is not a multiple of it). A batch is
//! trained in three steps: the forward pass, by fixed blocks of samples
//! (it only reads the weights), slice by slice within a block; the errors
//! and the gradients of the output (and of the second layer, if any), in
//! sample order; then every slice adds the gradients of its own units (its
//! columns of the feature weights, its biases, and the weights that read
//! it: the output's, or the second layer's). No two slices write the same number, so
//! there is one gradient buffer, not one per thread, and a network with
//! king buckets (eight sets of feature weights) costs little more per
//! sample than one without. Blocks and slices are fixed and every sum runs
//! in a fixed order, so the result does not depend on the number of threads.
//!
//! The feature weights are stored slice by slice (`[slice][row][unit of the
//! slice]`), so that a slice's weights, gradients and Adam moments are one
//! contiguous block; [`Params::from_input_major`] and
//! [`Params::w1_input_major`] convert from and to the network file's order
//! (`[row][unit]`).

use rayon::prelude::*;
use rukav::eval::nnue::Activation;

/// Units of a slice of the hidden layer: wide enough that the work per
/// sample and feature is a few vector operations, not the bookkeeping
/// around them (2 epochs of 596,298 positions at 256 hidden units, loading
/// included: 12.1 s with 16-unit slices, 5.3 s with 64-unit ones).
pub(super) const SLICE_WIDTH: usize = 64;
/// Units of a slice where the hidden size is not a multiple of
/// [`SLICE_WIDTH`] (it is always a multiple of this).
pub(super) const NARROW_SLICE_WIDTH: usize = 16;

/// Largest feature weight and bias (quantised: 1.98 * QA = 504; forty
/// features stay far below i16's range).
const FEATURE_CLIP: f32 = 1.98;
/// Largest output weight (quantised: 1.98 * QB = 126).
const OUTPUT_CLIP: f32 = 1.98;
/// Largest output bias.
const OUTPUT_BIAS_CLIP: f32 = 1000.0;

/// The sizes of a network being trained.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    /// Feature rows: king buckets times the inputs.
    pub rows: usize,
    /// Hidden units per perspective (a multiple of [`NARROW_SLICE_WIDTH`]).
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// How the output (or the second layer) reads a hidden unit.
    pub activation: Activation,
    /// Units of the second hidden layer per output bucket (0: none).
    pub second: usize,
}

impl Shape {
    /// Neurons per output bucket that read the accumulators: the second
    /// layer's units, or the output neuron.
    pub fn readers(&self) -> usize {
        self.second.max(1)
    }

    /// The weights (`[bucket][reader][perspective][unit]`) and biases
    /// (`[bucket][reader]`) of the neurons that read the accumulators.
    fn reader_params<'a>(&self, p: &'a Params) -> (&'a [f32], &'a [f32]) {
        if self.second > 0 {
            (&p.mid_w, &p.mid_b)
        } else {
            (&p.w2, &p.b2)
        }
    }

    /// Is the activation squared (SCReLU)?
    fn squared(&self) -> bool {
        self.activation == Activation::SCReLU
    }

    /// Units per slice.
    fn width(&self) -> usize {
        if self.hidden.is_multiple_of(SLICE_WIDTH) {
            SLICE_WIDTH
        } else {
            NARROW_SLICE_WIDTH
        }
    }

    /// Slices of the hidden layer.
    fn slices(&self) -> usize {
        self.hidden / self.width()
    }
}

/// Training positions as feature rows (side to move's view, then the
/// other side's, each already offset by its king bucket) and targets.
pub(super) struct Samples {
    /// The feature rows of every sample, one after the other.
    pub features: Vec<u16>,
    /// Per sample: start in `features`, number of side-to-move features,
    /// number of other-side features, output bucket.
    pub index: Vec<(u32, u8, u8, u8)>,
    /// Per sample: the target of the prediction (0..1).
    pub targets: Vec<f32>,
}

impl Samples {
    /// The feature rows of sample `i`: side to move's, other side's.
    #[inline(always)]
    pub fn features(&self, i: usize) -> [&[u16]; 2] {
        let (start, a, b, _) = self.index[i];
        let s = start as usize;
        let (a, b) = (a as usize, b as usize);
        [&self.features[s..s + a], &self.features[s + a..s + a + b]]
    }

    /// The output bucket of sample `i`.
    #[inline(always)]
    pub fn bucket(&self, i: usize) -> usize {
        self.index[i].3 as usize
    }
}

/// Floating-point parameters (and, with the same layout, gradients and
/// Adam moments).
#[derive(Clone)]
pub(super) struct Params {
    /// Feature weights, slice by slice: `[slice][row][unit of the slice]`.
    pub w1: Vec<f32>,
    /// Feature biases, one per hidden unit.
    pub b1: Vec<f32>,
    /// Output weights: `2 * hidden` per output bucket (side to move's
    /// units, then the other side's); with a second layer, one per unit of
    /// it per bucket.
    pub w2: Vec<f32>,
    /// One per output bucket.
    pub b2: Vec<f32>,
    /// Second-layer weights, `[bucket][unit][perspective][hidden unit]`
    /// (empty without a second layer).
    pub mid_w: Vec<f32>,
    /// Second-layer biases, `[bucket][unit]`.
    pub mid_b: Vec<f32>,
}

impl Params {
    /// Zeros of `shape`.
    pub fn zeros(shape: Shape) -> Params {
        Params {
            w1: vec![0.0; shape.rows * shape.hidden],
            b1: vec![0.0; shape.hidden],
            w2: vec![0.0; shape.buckets * output_inputs(shape)],
            b2: vec![0.0; shape.buckets],
            mid_w: vec![0.0; shape.buckets * shape.second * 2 * shape.hidden],
            mid_b: vec![0.0; shape.buckets * shape.second],
        }
    }

    /// Parameters from feature weights in the file's order (`[row][unit]`);
    /// the second layer's are zeros of `shape`.
    pub fn from_input_major(
        shape: Shape,
        w1: &[f32],
        b1: Vec<f32>,
        w2: Vec<f32>,
        b2: Vec<f32>,
    ) -> Params {
        let mut p = Params {
            w1: vec![0.0; w1.len()],
            b1,
            w2,
            b2,
            mid_w: vec![0.0; shape.buckets * shape.second * 2 * shape.hidden],
            mid_b: vec![0.0; shape.buckets * shape.second],
        };
        for (i, &w) in w1.iter().enumerate() {
            p.w1[sliced_index(shape, i)] = w;
        }
        p
    }

    /// The feature weights in the file's order (`[row][unit]`).
    pub fn w1_input_major(&self, shape: Shape) -> Vec<f32> {
        (0..self.w1.len())
            .map(|i| self.w1[sliced_index(shape, i)])
            .collect()
    }
}

/// Inputs of the output neuron: the second layer's units, or both
/// accumulators.
pub(super) fn output_inputs(shape: Shape) -> usize {
    if shape.second > 0 {
        shape.second
    } else {
        2 * shape.hidden
    }
}

/// Where the weight at `i` of the file's order (`row * hidden + unit`)
/// is stored.
fn sliced_index(shape: Shape, i: usize) -> usize {
    let (row, unit) = (i / shape.hidden, i % shape.hidden);
    let width = shape.width();
    ((unit / width) * shape.rows + row) * width + unit % width
}

/// Buffers of a batch, kept from one batch to the next.
#[derive(Default)]
pub(super) struct Work {
    /// Accumulators: `[sample][perspective][unit]`.
    acc: Vec<f32>,
    /// What the neurons that read the accumulators sum (the output itself
    /// without a second layer): `[sample][reader]`.
    z: Vec<f32>,
    /// Per sample: the network's output.
    out: Vec<f32>,
    /// Per sample: d loss / d output.
    d_out: Vec<f32>,
    /// d loss / d z, `[sample][reader]`.
    d_z: Vec<f32>,
}

impl Work {
    fn prepare(&mut self, shape: Shape, samples: usize) {
        self.acc.resize(samples * 2 * shape.hidden, 0.0);
        self.z.resize(samples * shape.readers(), 0.0);
        self.out.resize(samples, 0.0);
        self.d_out.resize(samples, 0.0);
        self.d_z.resize(samples * shape.readers(), 0.0);
    }
}

/// The logistic function.
pub(super) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Samples per task of the forward pass.
const FORWARD_BLOCK: usize = 256;

/// Runs the forward pass of the samples `ids` into `work` (accumulators
/// and outputs), blocks of samples in parallel: it only reads the weights,
/// so it is split by samples, each one's whole hidden layer at once.
fn forward(p: &Params, shape: Shape, s: &Samples, ids: &[usize], work: &mut Work) {
    let n = ids.len();
    work.prepare(shape, n);
    let per_sample = 2 * shape.hidden;
    let readers = shape.readers();
    work.acc[..n * per_sample]
        .par_chunks_mut(FORWARD_BLOCK * per_sample)
        .zip(work.z[..n * readers].par_chunks_mut(FORWARD_BLOCK * readers))
        .zip(work.out[..n].par_chunks_mut(FORWARD_BLOCK))
        .zip(ids.par_chunks(FORWARD_BLOCK))
        .for_each(|(((acc, z), out), ids)| forward_block(p, shape, s, ids, acc, z, out));
}

/// Defines `$name`, which runs `$kernel` (an `#[inline(always)]` function
/// of the same parameters) compiled with AVX2 (8 floats a vector instead of
/// SSE2's 4) where the CPU has it, for the baseline target elsewhere. Only
/// element-wise loops are vectorised (the compiler does not reorder a float
/// sum, and FMA is not enabled), so the result is the same to the bit and
/// training stays deterministic across CPUs; a unit test checks it. The
/// AVX2 copy takes the parameters itself, not in a struct, so that the
/// compiler knows that its slices do not overlap (passed in a struct, they
/// got run-time overlap checks and a scalar fallback loop).
macro_rules! widest_vectors {
    (
        $(#[$doc:meta])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? = $kernel:ident;
    ) => {
        $(#[$doc])*
        #[allow(clippy::too_many_arguments)]
        fn $name($($arg: $ty),*) $(-> $ret)? {
            /// The kernel compiled with AVX2.
            ///
            /// # Safety
            ///
            /// Only on a CPU with AVX2.
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2")]
            #[allow(clippy::too_many_arguments)]
            unsafe fn avx2($($arg: $ty),*) $(-> $ret)? {
                $kernel($($arg),*)
            }
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                // SAFETY: the CPU has AVX2 (checked at run time by `has_avx2`).
                return unsafe { avx2($($arg),*) };
            }
            $kernel($($arg),*)
        }
    };
}

widest_vectors! {
    /// The forward pass of a block of samples ([`forward_block_portable`]),
    /// with the widest vectors the CPU has.
    fn forward_block(
        p: &Params, shape: Shape, s: &Samples, ids: &[usize],
        acc: &mut [f32], z: &mut [f32], out: &mut [f32],
    ) = forward_block_portable;
}

/// Whether this CPU has AVX2 (checked once).
#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    static AVX2: once_cell::sync::Lazy<bool> =
        once_cell::sync::Lazy::new(|| std::is_x86_feature_detected!("avx2"));
    *AVX2
}

/// The activation of a hidden unit's sum `x`: `clamp(x, 0, 1)`, squared
/// for SCReLU.
#[inline(always)]
fn activate<const SQUARED: bool>(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    if SQUARED {
        c * c
    } else {
        c
    }
}

/// The derivative of [`activate`] at `x` (0 where the clamp is flat).
#[inline(always)]
fn activation_slope<const SQUARED: bool>(x: f32) -> f32 {
    if x <= 0.0 || x >= 1.0 {
        0.0
    } else if SQUARED {
        2.0 * x
    } else {
        1.0
    }
}

/// The forward pass of a block of samples: for each its accumulators
/// (`[perspective][unit]`), what the neurons reading them sum, and its
/// output. Slice by slice, so that the feature weights read at a time are
/// one slice's block (with eight king buckets and 512 units the whole
/// layer is 13.5 MB, a slice's 1.7 MB).
#[inline(always)]
fn forward_block_portable(
    p: &Params,
    shape: Shape,
    s: &Samples,
    ids: &[usize],
    acc: &mut [f32],
    z: &mut [f32],
    out: &mut [f32],
) {
    if shape.squared() {
        forward_block_with::<true>(p, shape, s, ids, acc, z, out)
    } else {
        forward_block_with::<false>(p, shape, s, ids, acc, z, out)
    }
}

/// [`forward_block_portable`] for one activation.
#[inline(always)]
fn forward_block_with<const SQUARED: bool>(
    p: &Params,
    shape: Shape,
    s: &Samples,
    ids: &[usize],
    acc: &mut [f32],
    z: &mut [f32],
    out: &mut [f32],
) {
    let (h, width, rows) = (shape.hidden, shape.width(), shape.rows);
    let readers = shape.readers();
    let (read_w, read_b) = shape.reader_params(p);
    for (k, &i) in ids.iter().enumerate() {
        let b = s.bucket(i);
        z[k * readers..(k + 1) * readers].copy_from_slice(&read_b[b * readers..(b + 1) * readers]);
    }
    let mut activated = vec![0.0f32; width];
    for slice in 0..shape.slices() {
        let weights = &p.w1[slice * rows * width..(slice + 1) * rows * width];
        let bias = &p.b1[slice * width..(slice + 1) * width];
        for (k, &i) in ids.iter().enumerate() {
            let b = s.bucket(i);
            for (side, feats) in s.features(i).into_iter().enumerate() {
                let a = &mut acc[(k * 2 + side) * h + slice * width..][..width];
                a.copy_from_slice(bias);
                for &f in feats {
                    let row = &weights[f as usize * width..(f as usize + 1) * width];
                    for (x, w) in a.iter_mut().zip(row) {
                        *x += w;
                    }
                }
                for (y, x) in activated.iter_mut().zip(a.iter()) {
                    *y = activate::<SQUARED>(*x);
                }
                for r in 0..readers {
                    let w =
                        &read_w[(b * readers + r) * 2 * h + side * h + slice * width..][..width];
                    let mut sum = z[k * readers + r];
                    for (y, w) in activated.iter().zip(w) {
                        sum += y * w;
                    }
                    z[k * readers + r] = sum;
                }
            }
        }
    }
    for (k, &i) in ids.iter().enumerate() {
        let zs = &z[k * readers..(k + 1) * readers];
        out[k] = if shape.second > 0 {
            let b = s.bucket(i);
            let w2 = &p.w2[b * readers..(b + 1) * readers];
            zs.iter()
                .zip(w2)
                .fold(p.b2[b], |o, (z, w)| o + z.clamp(0.0, 1.0) * w)
        } else {
            zs[0]
        };
    }
}

/// Loss (sum of squared errors) and gradient of the samples `ids`, written
/// into `g` (which is overwritten).
pub(super) fn batch_gradient(
    p: &Params,
    shape: Shape,
    s: &Samples,
    ids: &[usize],
    g: &mut Params,
    work: &mut Work,
) -> f64 {
    forward(p, shape, s, ids, work);
    let n = ids.len();
    let readers = shape.readers();
    let mut loss = 0.0f64;
    g.b2.fill(0.0);
    if shape.second > 0 {
        g.w2.fill(0.0);
        g.mid_b.fill(0.0);
    }
    for (k, &i) in ids.iter().enumerate() {
        let pred = sigmoid(work.out[k]);
        let err = pred - s.targets[i];
        loss += f64::from(err * err);
        let d_out = 2.0 * err * pred * (1.0 - pred);
        work.d_out[k] = d_out;
        let b = s.bucket(i);
        g.b2[b] += d_out;
        if shape.second == 0 {
            work.d_z[k] = d_out;
            continue;
        }
        for r in 0..readers {
            let (at, z) = (b * readers + r, work.z[k * readers + r]);
            g.w2[at] += d_out * z.clamp(0.0, 1.0);
            let d_z = if z <= 0.0 || z >= 1.0 {
                0.0
            } else {
                d_out * p.w2[at]
            };
            work.d_z[k * readers + r] = d_z;
            g.mid_b[at] += d_z;
        }
    }
    let width = shape.width();
    let (acc, d_z) = (&work.acc[..n * 2 * shape.hidden], &work.d_z[..n * readers]);
    // Split by slices of the hidden layer: each writes its own columns.
    let slices: Vec<(Vec<f32>, Vec<f32>)> =
        g.w1.par_chunks_mut(shape.rows * width)
            .enumerate()
            .map(|(slice, g_w1)| backward_slice(p, shape, s, ids, slice, acc, d_z, g_w1))
            .collect();
    let h = shape.hidden;
    let g_read = if shape.second > 0 {
        &mut g.mid_w
    } else {
        &mut g.w2
    };
    for (slice, (g_b1, g_w)) in slices.into_iter().enumerate() {
        g.b1[slice * width..(slice + 1) * width].copy_from_slice(&g_b1);
        for bucket_reader in 0..shape.buckets * readers {
            for side in 0..2 {
                let at = bucket_reader * 2 * h + side * h + slice * width;
                let from = (bucket_reader * 2 + side) * width;
                g_read[at..at + width].copy_from_slice(&g_w[from..from + width]);
            }
        }
    }
    loss
}

widest_vectors! {
    /// One slice's gradients ([`backward_slice_portable`]), with the widest
    /// vectors the CPU has, from the forward pass's accumulators
    /// (`[sample][perspective][unit]`) and the gradients of what the reading
    /// neurons sum (`d_z`, `[sample][reader]`): its feature weights into
    /// `g_w1` (overwritten); returns its biases' and the reading weights'
    /// (`[bucket][reader][perspective][unit of the slice]`).
    fn backward_slice(
        p: &Params, shape: Shape, s: &Samples, ids: &[usize], slice: usize,
        acc: &[f32], d_z: &[f32], g_w1: &mut [f32],
    ) -> (Vec<f32>, Vec<f32>) = backward_slice_portable;
}

/// One slice's gradients (see [`backward_slice`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn backward_slice_portable(
    p: &Params,
    shape: Shape,
    s: &Samples,
    ids: &[usize],
    slice: usize,
    acc: &[f32],
    d_z: &[f32],
    g_w1: &mut [f32],
) -> (Vec<f32>, Vec<f32>) {
    if shape.squared() {
        backward_slice_with::<true>(p, shape, s, ids, slice, acc, d_z, g_w1)
    } else {
        backward_slice_with::<false>(p, shape, s, ids, slice, acc, d_z, g_w1)
    }
}

/// [`backward_slice_portable`] for one activation.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn backward_slice_with<const SQUARED: bool>(
    p: &Params,
    shape: Shape,
    s: &Samples,
    ids: &[usize],
    slice: usize,
    acc: &[f32],
    d_z: &[f32],
    g_w1: &mut [f32],
) -> (Vec<f32>, Vec<f32>) {
    let width = shape.width();
    let h = shape.hidden;
    let readers = shape.readers();
    let (read_w, _) = shape.reader_params(p);
    g_w1.fill(0.0);
    let mut g_b1 = vec![0.0f32; width];
    let mut g_read = vec![0.0f32; shape.buckets * readers * 2 * width];
    let mut da = vec![0.0f32; width];
    let mut activated = vec![0.0f32; width];
    for (k, &i) in ids.iter().enumerate() {
        let bucket = s.bucket(i);
        for (side, feats) in s.features(i).into_iter().enumerate() {
            let a = &acc[(k * 2 + side) * h + slice * width..][..width];
            for (y, x) in activated.iter_mut().zip(a) {
                *y = activate::<SQUARED>(*x);
            }
            // da: d loss / d activation for now, made d loss / d sum below.
            da.fill(0.0);
            for r in 0..readers {
                let d = d_z[k * readers + r];
                let at = (bucket * readers + r) * 2 + side;
                let w = &read_w[at * h + slice * width..][..width];
                let g = &mut g_read[at * width..(at + 1) * width];
                for j in 0..width {
                    g[j] += d * activated[j];
                    da[j] += d * w[j];
                }
            }
            for j in 0..width {
                da[j] *= activation_slope::<SQUARED>(a[j]);
                g_b1[j] += da[j];
            }
            for &f in feats {
                let row = &mut g_w1[f as usize * width..(f as usize + 1) * width];
                for (gw, d) in row.iter_mut().zip(&da) {
                    *gw += d;
                }
            }
        }
    }
    (g_b1, g_read)
}

/// Sum of the squared errors of the samples `ids` (no gradient), in
/// batches of `batch`.
pub(super) fn loss(
    p: &Params,
    shape: Shape,
    s: &Samples,
    ids: &[usize],
    batch: usize,
    work: &mut Work,
) -> f64 {
    let mut total = 0.0f64;
    for chunk in ids.chunks(batch.max(1)) {
        forward(p, shape, s, chunk, work);
        for (k, &i) in chunk.iter().enumerate() {
            let e = sigmoid(work.out[k]) - s.targets[i];
            total += f64::from(e * e);
        }
    }
    total
}

/// Adam's moments and step count.
pub(super) struct Adam {
    m: Params,
    v: Params,
    t: i32,
}

impl Adam {
    /// Fresh moments for `shape`.
    pub fn new(shape: Shape) -> Adam {
        Adam {
            m: Params::zeros(shape),
            v: Params::zeros(shape),
            t: 0,
        }
    }

    /// One step with gradient `g` times `scale` (one over the batch size);
    /// the feature weights slice by slice in parallel (element-wise, so the
    /// thread count changes nothing).
    pub fn step(&mut self, shape: Shape, p: &mut Params, g: &Params, lr: f32, scale: f32) {
        self.t += 1;
        let c1 = 1.0 - ADAM_B1.powi(self.t);
        let c2 = 1.0 - ADAM_B2.powi(self.t);
        let update = Update { lr, scale, c1, c2 };
        let width = p.w1.len() / shape.slices();
        p.w1.par_chunks_mut(width)
            .zip(g.w1.par_chunks(width))
            .zip(self.m.w1.par_chunks_mut(width))
            .zip(self.v.w1.par_chunks_mut(width))
            .for_each(|(((w, g), m), v)| update.apply(w, g, m, v, FEATURE_CLIP));
        let (m, v) = (&mut self.m, &mut self.v);
        for (w, g, m, v, clip) in [
            (&mut p.b1, &g.b1, &mut m.b1, &mut v.b1, FEATURE_CLIP),
            (&mut p.w2, &g.w2, &mut m.w2, &mut v.w2, OUTPUT_CLIP),
            (&mut p.b2, &g.b2, &mut m.b2, &mut v.b2, OUTPUT_BIAS_CLIP),
            (
                &mut p.mid_w,
                &g.mid_w,
                &mut m.mid_w,
                &mut v.mid_w,
                OUTPUT_CLIP,
            ),
            (
                &mut p.mid_b,
                &g.mid_b,
                &mut m.mid_b,
                &mut v.mid_b,
                OUTPUT_BIAS_CLIP,
            ),
        ] {
            update.apply(w, g, m, v, clip);
        }
    }
}

/// Adam's decay of the first moment.
const ADAM_B1: f32 = 0.9;
/// Adam's decay of the second moment.
const ADAM_B2: f32 = 0.999;
/// Adam's epsilon.
const ADAM_EPS: f32 = 1e-8;

/// One Adam step's constants.
struct Update {
    lr: f32,
    scale: f32,
    c1: f32,
    c2: f32,
}

impl Update {
    /// Moves the weights `w` by their gradients `g`, clipped to `clip`.
    fn apply(&self, w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], clip: f32) {
        for (((w, g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
            let g = g * self.scale;
            *m = ADAM_B1 * *m + (1.0 - ADAM_B1) * g;
            *v = ADAM_B2 * *v + (1.0 - ADAM_B2) * g * g;
            *w -= self.lr * (*m / self.c1) / ((*v / self.c2).sqrt() + ADAM_EPS);
            *w = w.clamp(-clip, clip);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rukav::rng::Rng;

    /// Three samples of a few random features each.
    fn samples(rows: usize) -> Samples {
        let mut rng = Rng(3);
        let mut s = Samples {
            features: Vec::new(),
            index: Vec::new(),
            targets: Vec::new(),
        };
        for (i, target) in [0.3f32, 0.8, 0.1].into_iter().enumerate() {
            let start = s.features.len() as u32;
            let (a, b) = (5 + i, 7 - i);
            for _ in 0..a + b {
                s.features.push(rng.below(rows) as u16);
            }
            s.index.push((start, a as u8, b as u8, i as u8 % 2));
            s.targets.push(target);
        }
        s
    }

    fn random(shape: Shape, seed: u64) -> Params {
        let mut rng = Rng(seed);
        let mut u = |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let mut p = Params::zeros(shape);
        p.w1.iter_mut().for_each(|w| *w = u(0.3));
        p.b1.iter_mut().for_each(|w| *w = 0.25 + u(0.3));
        p.w2.iter_mut().for_each(|w| *w = u(1.0));
        p.mid_w.iter_mut().for_each(|w| *w = u(0.2));
        p.mid_b.iter_mut().for_each(|w| *w = 0.3 + u(0.2));
        p
    }

    /// The straightforward model, unit by unit in the file's order.
    fn reference(p: &Params, shape: Shape, s: &Samples, i: usize) -> f32 {
        let w1 = p.w1_input_major(shape);
        let h = shape.hidden;
        let b = s.bucket(i);
        let readers = shape.readers();
        let (read_w, read_b) = shape.reader_params(p);
        let mut z: Vec<f32> = read_b[b * readers..(b + 1) * readers].to_vec();
        for (side, feats) in s.features(i).into_iter().enumerate() {
            for j in 0..h {
                let mut a = p.b1[j];
                for &f in feats {
                    a += w1[f as usize * h + j];
                }
                let c = a.clamp(0.0, 1.0);
                let c = if shape.squared() { c * c } else { c };
                for (r, z) in z.iter_mut().enumerate() {
                    *z += c * read_w[(b * readers + r) * 2 * h + side * h + j];
                }
            }
        }
        if shape.second == 0 {
            return z[0];
        }
        z.iter().enumerate().fold(p.b2[b], |o, (r, z)| {
            o + z.clamp(0.0, 1.0) * p.w2[b * readers + r]
        })
    }

    /// The sliced gradient agrees with a finite difference of the
    /// straightforward loss, for a feature weight, a bias, an output weight,
    /// with either activation.
    #[test]
    fn the_gradient_is_the_derivative_of_the_loss() {
        for (activation, second) in [
            (Activation::CReLU, 0),
            (Activation::SCReLU, 0),
            (Activation::CReLU, 4),
            (Activation::SCReLU, 3),
        ] {
            gradient_matches_finite_differences(Shape {
                rows: 40,
                hidden: 32,
                buckets: 2,
                activation,
                second,
            });
        }
    }

    fn gradient_matches_finite_differences(shape: Shape) {
        let s = samples(shape.rows);
        let p = random(shape, 7);
        let ids = [0, 1, 2];
        let loss_of = |p: &Params| -> f64 {
            ids.iter()
                .map(|&i| f64::from(sigmoid(reference(p, shape, &s, i)) - s.targets[i]).powi(2))
                .sum()
        };
        let mut g = Params::zeros(shape);
        let mut work = Work::default();
        let sliced = batch_gradient(&p, shape, &s, &ids, &mut g, &mut work);
        assert!(
            (sliced - loss_of(&p)).abs() < 1e-5,
            "{sliced} vs {}",
            loss_of(&p)
        );
        let eps = 1e-3f32;
        // In each group the weight with the largest gradient (many units
        // are clipped for every sample, and their gradient is rightly 0).
        let largest = |v: &[f32]| {
            (0..v.len())
                .max_by(|&a, &b| v[a].abs().total_cmp(&v[b].abs()))
                .unwrap()
        };
        let mut checks = vec![
            ("w1", largest(&g.w1_input_major(shape))),
            ("b1", largest(&g.b1)),
            ("w2", largest(&g.w2)),
            ("b2", largest(&g.b2)),
        ];
        if shape.second > 0 {
            checks.push(("mid_w", largest(&g.mid_w)));
            checks.push(("mid_b", largest(&g.mid_b)));
        }
        for (group, at) in checks {
            let nudge = |delta: f32| {
                let mut q = p.clone();
                match group {
                    "w1" => {
                        let mut w1 = q.w1_input_major(shape);
                        w1[at] += delta;
                        let (mid_w, mid_b) = (q.mid_w.clone(), q.mid_b.clone());
                        q = Params::from_input_major(shape, &w1, q.b1, q.w2, q.b2);
                        (q.mid_w, q.mid_b) = (mid_w, mid_b);
                    }
                    "b1" => q.b1[at] += delta,
                    "w2" => q.w2[at] += delta,
                    "b2" => q.b2[at] += delta,
                    "mid_w" => q.mid_w[at] += delta,
                    _ => q.mid_b[at] += delta,
                }
                loss_of(&q)
            };
            let numeric = (nudge(eps) - nudge(-eps)) / (2.0 * f64::from(eps));
            let analytic = match group {
                "w1" => g.w1_input_major(shape)[at],
                "b1" => g.b1[at],
                "w2" => g.w2[at],
                "b2" => g.b2[at],
                "mid_w" => g.mid_w[at],
                _ => g.mid_b[at],
            };
            assert!(
                (numeric - f64::from(analytic)).abs() < 1e-3,
                "{:?} {group}[{at}]: numeric {numeric}, analytic {analytic}",
                shape.activation
            );
            assert!(analytic != 0.0, "{group}[{at}] has no gradient");
        }
    }

    /// The dispatched kernels (AVX2 where the CPU has it) give the portable
    /// ones' numbers to the bit, and the thread count changes nothing.
    #[test]
    fn kernels_and_threads_do_not_change_a_bit() {
        let same = |x: &[f32], y: &[f32]| {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| a.to_bits() == b.to_bits())
        };
        for (hidden, activation, second) in [
            (128, Activation::CReLU, 0),
            (48, Activation::CReLU, 0),
            (80, Activation::SCReLU, 0),
            (128, Activation::CReLU, 5),
        ] {
            let shape = Shape {
                rows: 60,
                hidden,
                buckets: 2,
                activation,
                second,
            };
            let s = samples(shape.rows);
            let p = random(shape, 11);
            let ids = [2, 0, 1, 1];
            let n = ids.len();
            let (mut acc_a, mut acc_b) = (vec![0.0; n * 2 * hidden], vec![0.0; n * 2 * hidden]);
            let (mut out_a, mut out_b) = (vec![0.0; n], vec![0.0; n]);
            let readers = shape.readers();
            let (mut z_a, mut z_b) = (vec![0.0; n * readers], vec![0.0; n * readers]);
            forward_block(&p, shape, &s, &ids, &mut acc_a, &mut z_a, &mut out_a);
            forward_block_portable(&p, shape, &s, &ids, &mut acc_b, &mut z_b, &mut out_b);
            assert!(same(&acc_a, &acc_b) && same(&z_a, &z_b) && same(&out_a, &out_b));
            let d_z: Vec<f32> = (0..n * readers)
                .map(|k| [0.1, -0.2, 0.05, 0.3][k % 4])
                .collect();
            let width = shape.width();
            assert!(shape.slices() > 1);
            for slice in 0..shape.slices() {
                let mut g_a = vec![0.0; shape.rows * width];
                let mut g_b = vec![0.0; shape.rows * width];
                let a = backward_slice(&p, shape, &s, &ids, slice, &acc_a, &d_z, &mut g_a);
                let b = backward_slice_portable(&p, shape, &s, &ids, slice, &acc_b, &d_z, &mut g_b);
                assert!(same(&g_a, &g_b) && same(&a.0, &b.0) && same(&a.1, &b.1));
            }
            // More samples than a forward block, on one thread and on three.
            let many: Vec<usize> = (0..700).map(|k| k % 3).collect();
            let run = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| {
                    let mut g = Params::zeros(shape);
                    let loss = batch_gradient(&p, shape, &s, &many, &mut g, &mut Work::default());
                    (loss, g)
                })
            };
            let ((loss_1, g_1), (loss_3, g_3)) = (run(1), run(3));
            assert_eq!(loss_1.to_bits(), loss_3.to_bits());
            for (x, y) in g_1
                .w1
                .iter()
                .chain(&g_1.b1)
                .chain(&g_1.w2)
                .chain(&g_1.mid_w)
                .chain(&g_1.mid_b)
                .zip(
                    g_3.w1
                        .iter()
                        .chain(&g_3.b1)
                        .chain(&g_3.w2)
                        .chain(&g_3.mid_w)
                        .chain(&g_3.mid_b),
                )
            {
                assert_eq!(x.to_bits(), y.to_bits());
            }
        }
    }

    /// The sliced storage of the feature weights round-trips to the file's
    /// order.
    #[test]
    fn sliced_storage_round_trips() {
        let shape = Shape {
            rows: 7,
            hidden: 32,
            buckets: 1,
            activation: Activation::CReLU,
            second: 0,
        };
        let w1: Vec<f32> = (0..shape.rows * shape.hidden).map(|i| i as f32).collect();
        let p = Params::from_input_major(shape, &w1, vec![0.0; 32], vec![0.0; 64], vec![0.0]);
        assert_ne!(p.w1, w1);
        assert_eq!(p.w1_input_major(shape), w1);
    }
}
