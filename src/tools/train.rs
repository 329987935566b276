//! `rukav train`: trains an NNUE network (`src/nnue.rs` architecture) on
//! `rukav datagen` records, on the CPU with rayon, deterministically for a
//! given seed and data (the batch is cut into a fixed number of chunks whose
//! gradients are summed in order, so the thread count does not change the
//! result).
//!
//! Model (floating point while training): one accumulator per perspective
//! `a = b1 + sum of W1 rows of the active features`, `h = clamp(a, 0, 1)`,
//! `out = W2 . [h_stm, h_other] + b2`, prediction `sigmoid(out)`, and the
//! network's evaluation is `out * SCALE` centipawns. Target: `lambda *
//! sigmoid(score / SCALE) + (1 - lambda) * result`, both from the side to
//! move's view; loss: mean squared error; optimiser: Adam. Weights are
//! clipped so that the quantised accumulators cannot overflow `i16`.

use super::progress::Progress;
use super::record::read_records;
use rayon::prelude::*;
use rukav::eval::nnue::{
    active_features, output_bucket, KingBuckets, Network, BOARD_FEATURES, INPUTS, MAX_BUCKETS,
    MAX_HIDDEN, QA, QB, SCALE,
};
use rukav::rng::Rng;
use rukav::{Color, Variant};
use std::path::PathBuf;

/// Command-line arguments of `rukav train`.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Training data files written by `rukav datagen`.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Output network file.
    #[arg(long)]
    pub out: PathBuf,
    /// Variant of the positions to train on (others are skipped).
    #[arg(long, default_value = "crazyhouse", value_parser = super::variant_parser())]
    pub variant: Variant,
    /// Hidden layer size (a multiple of 16, at most 1024).
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// Output buckets (1..=8): one output neuron per range of the number of
    /// pieces on the board (see `output_bucket` in src/eval/nnue.rs).
    #[arg(long, default_value_t = 1)]
    pub buckets: usize,
    /// King buckets: feature-weight sets chosen by the square of the
    /// perspective's own king, by layout (`KingBuckets::layout` in
    /// src/eval/nnue.rs): 1 (none), 4 or 8.
    #[arg(long, default_value_t = 1)]
    pub king_buckets: usize,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Adam learning rate (divided by 10 for the last 30% of the epochs).
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Weight of the search score in the target (the rest is the game result).
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Share of the positions held out for the validation loss.
    #[arg(long, default_value_t = 0.02)]
    pub validation: f64,
    /// Random seed (initial weights, shuffling, validation split).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also train on each position mirrored left to right (files a-h
    /// swapped), which the rules of the drop variants leave equal in value
    /// apart from castling, which the network does not see. A position and
    /// its mirror image are on the same side of the validation split.
    #[arg(long)]
    pub mirror: bool,
    /// Start from this network's weights instead of random ones (fine
    /// tuning, e.g. a crazyhouse network on bughouse data). Its hidden size
    /// and output buckets are used (`--hidden` and `--buckets` are ignored);
    /// a network of one king bucket may start one of more
    /// (`--king-buckets`), each bucket a copy of its weights.
    /// `--epochs 0` re-labels the network for `--variant`
    /// without changing a weight.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Further variants the network is labelled to serve besides
    /// `--variant` (the engine evaluates a variant with the first embedded
    /// network that serves it): e.g. `giveaway` for a network trained on
    /// antichess positions, a game the network cannot tell apart (it does
    /// not see castling rights).
    #[arg(long, num_args = 1.., value_parser = super::variant_parser())]
    pub also_serves: Vec<Variant>,
}

/// Training positions as feature lists (side to move's and the other
/// side's view) and targets.
struct Samples {
    /// Samples per record: 2 with `--mirror` (the record, then its mirror
    /// image), else 1.
    copies: usize,
    features: Vec<u16>,
    /// Per sample: start in `features`, number of side-to-move features,
    /// number of other-side features, output bucket.
    index: Vec<(u32, u8, u8, u8)>,
    targets: Vec<f32>,
}

impl Samples {
    fn features(&self, i: usize) -> (&[u16], &[u16]) {
        let (start, a, b, _) = self.index[i];
        let s = start as usize;
        let (a, b) = (a as usize, b as usize);
        (&self.features[s..s + a], &self.features[s + a..s + a + b])
    }

    fn bucket(&self, i: usize) -> usize {
        self.index[i].3 as usize
    }
}

/// The feature of the same piece on the square mirrored left to right
/// (board features are `block * 64 + square`, so the file is the low three
/// bits); pocket features have no square and stay.
fn mirror_feature(f: u16) -> u16 {
    if (f as usize) < BOARD_FEATURES {
        f ^ 7
    } else {
        f
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn load(
    args: &TrainArgs,
    variant: Variant,
    buckets: usize,
    king_buckets: KingBuckets,
) -> Result<Samples, String> {
    let rules = variant.rules();
    let mut s = Samples {
        copies: if args.mirror { 2 } else { 1 },
        features: Vec::new(),
        index: Vec::new(),
        targets: Vec::new(),
    };
    let mut scratch = Vec::with_capacity(96);
    let mut skipped = 0usize;
    for path in &args.data {
        let records = read_records(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for r in records {
            if r.variant() != Some(variant) {
                skipped += 1;
                continue;
            }
            let Ok(pos) = r.unpack(rules) else {
                skipped += 1;
                continue;
            };
            let stm = pos.side_to_move();
            let (score, result) = if stm == Color::White {
                (r.score_white(), r.result_white())
            } else {
                (-r.score_white(), 1.0 - r.result_white())
            };
            let target = args.lambda * sigmoid(score as f32 / SCALE as f32)
                + (1.0 - args.lambda) * result as f32;
            let start = s.features.len() as u32;
            let mut lengths = [0usize; 2];
            for (length, side) in lengths.iter_mut().zip([stm, stm.flip()]) {
                scratch.clear();
                active_features(&pos, side, &mut scratch);
                let base = king_buckets.of(&pos, side) * INPUTS;
                *length = scratch.len();
                s.features
                    .extend(scratch.iter().map(|&f| (base + f) as u16));
            }
            let [a, b] = lengths;
            let bucket = output_bucket(&pos, buckets) as u8;
            s.index.push((start, a as u8, b as u8, bucket));
            s.targets.push(target);
            if args.mirror {
                let mirrored_start = s.features.len() as u32;
                let end = start as usize + a + b;
                for i in start as usize..end {
                    let f = mirror_feature(s.features[i]);
                    s.features.push(f);
                }
                s.index.push((mirrored_start, a as u8, b as u8, bucket));
                s.targets.push(target);
            }
        }
    }
    eprintln!(
        "train: {} positions of {} ({skipped} skipped)",
        s.targets.len(),
        variant.name()
    );
    if s.targets.is_empty() {
        return Err("no training positions".into());
    }
    Ok(s)
}

/// Floating-point parameters (and, with the same layout, gradients and
/// Adam moments).
#[derive(Clone)]
struct Params {
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `2 * h` per output bucket.
    w2: Vec<f32>,
    /// One per output bucket.
    b2: Vec<f32>,
}

impl Params {
    /// Zeros for `rows` feature rows (king buckets times [`INPUTS`]), `h`
    /// hidden units and `buckets` output buckets.
    fn zeros(rows: usize, h: usize, buckets: usize) -> Params {
        Params {
            w1: vec![0.0; rows * h],
            b1: vec![0.0; h],
            w2: vec![0.0; buckets * 2 * h],
            b2: vec![0.0; buckets],
        }
    }

    /// The parameter groups with the bound each is clipped to.
    fn groups_mut(&mut self) -> [(&mut [f32], f32); 4] {
        [
            (&mut self.w1, FEATURE_CLIP),
            (&mut self.b1, FEATURE_CLIP),
            (&mut self.w2, OUTPUT_CLIP),
            (&mut self.b2, 1000.0),
        ]
    }

    fn groups(&self) -> [&[f32]; 4] {
        [&self.w1, &self.b1, &self.w2, &self.b2]
    }

    fn add(&mut self, o: &Params) {
        for ((mine, _), theirs) in self.groups_mut().into_iter().zip(o.groups()) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }
}

/// Forward pass for one sample; fills the accumulators and returns `out`.
#[inline(always)]
fn forward(
    p: &Params,
    h: usize,
    bucket: usize,
    stm: &[u16],
    other: &[u16],
    acc: &mut [f32],
) -> f32 {
    let (a_us, a_them) = acc.split_at_mut(h);
    for (side, feats) in [(&mut *a_us, stm), (&mut *a_them, other)] {
        side.copy_from_slice(&p.b1);
        for &f in feats {
            let row = &p.w1[f as usize * h..f as usize * h + h];
            for (a, w) in side.iter_mut().zip(row) {
                *a += w;
            }
        }
    }
    let mut out = p.b2[bucket];
    for (a, w) in acc.iter().zip(&p.w2[bucket * 2 * h..]) {
        out += a.clamp(0.0, 1.0) * w;
    }
    out
}

/// Loss and gradient of a slice of samples, added into `g`, with the
/// widest vectors the CPU has (see [`gradient_avx2`]).
fn gradient(p: &Params, h: usize, s: &Samples, ids: &[usize], g: &mut Params) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 (checked at run time by `has_avx2`).
        return unsafe { gradient_avx2(p, h, s, ids, g) };
    }
    gradient_portable(p, h, s, ids, g)
}

/// Whether this CPU has AVX2 (checked once).
#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    static AVX2: once_cell::sync::Lazy<bool> =
        once_cell::sync::Lazy::new(|| std::is_x86_feature_detected!("avx2"));
    *AVX2
}

/// [`gradient_portable`] compiled with AVX2 (8 floats a vector instead of
/// SSE2's 4). Only element-wise loops are vectorised (the compiler does not
/// reorder a float sum, and FMA is not enabled), so the result is the same
/// to the bit, and training stays deterministic across CPUs; a unit test
/// checks it.
///
/// # Safety
///
/// Only on a CPU with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn gradient_avx2(p: &Params, h: usize, s: &Samples, ids: &[usize], g: &mut Params) -> f64 {
    gradient_portable(p, h, s, ids, g)
}

/// Mean loss over `ids` of one chunk (no gradient), vectorised like
/// [`gradient`].
fn chunk_loss(p: &Params, h: usize, s: &Samples, ids: &[usize]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 (checked at run time by `has_avx2`).
        return unsafe { chunk_loss_avx2(p, h, s, ids) };
    }
    chunk_loss_portable(p, h, s, ids)
}

/// [`chunk_loss_portable`] compiled with AVX2 (same result, as for
/// [`gradient_avx2`]).
///
/// # Safety
///
/// Only on a CPU with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn chunk_loss_avx2(p: &Params, h: usize, s: &Samples, ids: &[usize]) -> f64 {
    chunk_loss_portable(p, h, s, ids)
}

/// Sum of the squared errors of `ids` (no gradient).
#[inline(always)]
fn chunk_loss_portable(p: &Params, h: usize, s: &Samples, ids: &[usize]) -> f64 {
    let mut acc = vec![0.0f32; 2 * h];
    ids.iter()
        .map(|&i| {
            let (stm, other) = s.features(i);
            let e = sigmoid(forward(p, h, s.bucket(i), stm, other, &mut acc)) - s.targets[i];
            f64::from(e * e)
        })
        .sum::<f64>()
}

/// Loss and gradient of a slice of samples, added into `g` (the loops
/// [`gradient`] compiles for the CPU).
#[inline(always)]
fn gradient_portable(p: &Params, h: usize, s: &Samples, ids: &[usize], g: &mut Params) -> f64 {
    let mut acc = vec![0.0f32; 2 * h];
    let mut loss = 0.0f64;
    for &i in ids {
        let (stm, other) = s.features(i);
        let bucket = s.bucket(i);
        let w2 = &p.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        let out = forward(p, h, bucket, stm, other, &mut acc);
        let pred = sigmoid(out);
        let err = pred - s.targets[i];
        loss += f64::from(err * err);
        let d_out = 2.0 * err * pred * (1.0 - pred);
        g.b2[bucket] += d_out;
        let g_w2 = &mut g.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        for (j, &a) in acc.iter().enumerate() {
            g_w2[j] += d_out * a.clamp(0.0, 1.0);
        }
        for (half, feats) in [(0usize, stm), (1, other)] {
            for j in 0..h {
                let a = acc[half * h + j];
                if a <= 0.0 || a >= 1.0 {
                    acc[half * h + j] = 0.0;
                } else {
                    acc[half * h + j] = d_out * w2[half * h + j];
                }
            }
            let da = &acc[half * h..half * h + h];
            for (gb, d) in g.b1.iter_mut().zip(da) {
                *gb += d;
            }
            for &f in feats {
                let row = &mut g.w1[f as usize * h..f as usize * h + h];
                for (gw, d) in row.iter_mut().zip(da) {
                    *gw += d;
                }
            }
        }
    }
    loss
}

/// Mean loss over `ids` (no gradient).
fn loss_of(p: &Params, h: usize, s: &Samples, ids: &[usize]) -> f64 {
    ids.par_chunks(4096)
        .map(|chunk| chunk_loss(p, h, s, chunk))
        .sum::<f64>()
        / ids.len().max(1) as f64
}

struct Adam {
    m: Params,
    v: Params,
    t: i32,
}

/// Largest feature weight and bias (quantised: 1.98 * QA = 504; forty
/// features stay far below i16's range).
const FEATURE_CLIP: f32 = 1.98;
/// Largest output weight (quantised: 1.98 * QB = 126).
const OUTPUT_CLIP: f32 = 1.98;

fn adam_step(p: &mut Params, g: &Params, opt: &mut Adam, lr: f32, scale: f32) {
    opt.t += 1;
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let c1 = 1.0 - b1.powi(opt.t);
    let c2 = 1.0 - b2.powi(opt.t);
    let groups = p
        .groups_mut()
        .into_iter()
        .zip(g.groups())
        .zip(opt.m.groups_mut())
        .zip(opt.v.groups_mut());
    for ((((w, clip), g), (m, _)), (v, _)) in groups {
        for (((w, g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
            let g = g * scale;
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
            *w = w.clamp(-clip, clip);
        }
    }
}

/// Chunks a batch is cut into (fixed, so that results do not depend on the
/// number of threads).
const CHUNKS: usize = 16;

/// Trains a network and returns it quantised.
pub fn train(args: &TrainArgs) -> Result<Network, String> {
    let variant = args.variant;
    let init = match &args.init {
        Some(path) => {
            Some(rukav::eval::nnue::load_file(&path.to_string_lossy()).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    let (h, buckets) = match &init {
        Some(net) => (net.hidden(), net.buckets()),
        None => (args.hidden, args.buckets),
    };
    let king_buckets = KingBuckets::layout(args.king_buckets)
        .ok_or_else(|| format!("--king-buckets {}: 1, 4 or 8", args.king_buckets))?;
    if let Some(net) = &init {
        let theirs = net.king_buckets();
        if theirs.count() > 1 && theirs != king_buckets {
            return Err(format!(
                "--init has {} king buckets: train it with --king-buckets {} (its layout)",
                theirs.count(),
                theirs.count()
            ));
        }
    }
    if args.mirror && king_buckets.count() > 1 {
        return Err(
            "--mirror works with one king bucket only (the layouts are not symmetric)".into(),
        );
    }
    let rows = king_buckets.count() * INPUTS;
    if h == 0 || h > MAX_HIDDEN || !h.is_multiple_of(16) {
        return Err(format!("--hidden {h}: a multiple of 16 up to {MAX_HIDDEN}"));
    }
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        return Err(format!("--buckets {buckets}: 1..={MAX_BUCKETS}"));
    }
    let samples = load(args, variant, buckets, king_buckets)?;
    let mut rng = Rng(args.seed ^ 0x9e37_79b9_7f4a_7c15);
    // The split is by record, so that a position and its mirror image
    // fall on the same side of it.
    let copies = samples.copies;
    let mut order: Vec<usize> = (0..samples.targets.len() / copies).collect();
    shuffle(&mut order, &mut rng);
    let n_valid = ((order.len() as f64 * args.validation) as usize).min(order.len() / 2);
    let samples_of = |records: &[usize]| -> Vec<usize> {
        records
            .iter()
            .flat_map(|&r| (0..copies).map(move |c| r * copies + c))
            .collect()
    };
    let valid: Vec<usize> = samples_of(&order[..n_valid]);
    let mut train_ids: Vec<usize> = samples_of(&order[n_valid..]);

    let mut p = match &init {
        Some(net) => dequantise(net, king_buckets.count()),
        None => random_params(rows, h, buckets, &mut rng),
    };
    let mut opt = Adam {
        m: Params::zeros(rows, h, buckets),
        v: Params::zeros(rows, h, buckets),
        t: 0,
    };
    let batch = args.batch.max(CHUNKS);
    let mut progress = Progress::new("epochs", 0, args.epochs as u64);
    for epoch in 0..args.epochs {
        shuffle(&mut train_ids, &mut rng);
        let lr = if epoch * 10 >= args.epochs * 7 {
            args.lr / 10.0
        } else {
            args.lr
        };
        let mut train_loss = 0.0f64;
        for ids in train_ids.chunks(batch) {
            let per = ids.len().div_ceil(CHUNKS);
            let parts: Vec<(Params, f64)> = ids
                .par_chunks(per)
                .map(|chunk| {
                    let mut g = Params::zeros(rows, h, buckets);
                    let l = gradient(&p, h, &samples, chunk, &mut g);
                    (g, l)
                })
                .collect();
            let mut total = Params::zeros(rows, h, buckets);
            for (g, l) in &parts {
                total.add(g);
                train_loss += l;
            }
            adam_step(&mut p, &total, &mut opt, lr, 1.0 / ids.len() as f32);
        }
        let v = loss_of(&p, h, &samples, &valid);
        let line = format!(
            "epoch {:>3}/{}: train loss {:.6}  validation loss {:.6}  lr {lr}",
            epoch + 1,
            args.epochs,
            train_loss / train_ids.len().max(1) as f64,
            v
        );
        progress.println(&line);
        progress.update(epoch as u64 + 1, &format!("validation loss {v:.6}"));
    }
    progress.finish();
    quantise(
        &p,
        h,
        king_buckets,
        variant,
        args,
        samples.targets.len() / samples.copies,
    )
}

/// Random initial parameters.
fn random_params(rows: usize, h: usize, buckets: usize, rng: &mut Rng) -> Params {
    let mut p = Params::zeros(rows, h, buckets);
    let mut uniform = |a: f32| -> f32 {
        let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * u - 1.0) * a
    };
    for w in &mut p.w1 {
        *w = uniform(0.1);
    }
    for b in &mut p.b1 {
        *b = 0.25 + uniform(0.05);
    }
    for w in &mut p.w2 {
        *w = uniform(1.0 / (h as f32).sqrt());
    }
    p
}

/// A network's weights as training parameters (`quantise` gives the same
/// network back).
/// With `king_buckets` above the network's one, each bucket starts as a
/// copy of its feature weights.
fn dequantise(net: &Network, king_buckets: usize) -> Params {
    let (fw, fb, ow, ob) = net.parts();
    let copies = king_buckets / net.king_buckets().count();
    Params {
        w1: std::iter::repeat_n(fw, copies)
            .flatten()
            .map(|&w| f32::from(w) / QA as f32)
            .collect(),
        b1: fb.iter().map(|&b| f32::from(b) / QA as f32).collect(),
        w2: ow.iter().map(|&w| f32::from(w) / QB as f32).collect(),
        b2: ob.iter().map(|&b| b as f32 / (QA * QB) as f32).collect(),
    }
}

fn shuffle(v: &mut [usize], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i + 1);
        v.swap(i, j);
    }
}

fn quantise(
    p: &Params,
    h: usize,
    king_buckets: KingBuckets,
    variant: Variant,
    args: &TrainArgs,
    positions: usize,
) -> Result<Network, String> {
    let q = |x: f32, s: i32| -> i16 { (x * s as f32).round().clamp(-32767.0, 32767.0) as i16 };
    let fw: Vec<i16> = p.w1.iter().map(|&w| q(w, QA)).collect();
    let fb: Vec<i16> = p.b1.iter().map(|&b| q(b, QA)).collect();
    let ow: Vec<i16> = p.w2.iter().map(|&w| q(w, QB)).collect();
    let ob: Vec<i32> =
        p.b2.iter()
            .map(|b| (b * (QA * QB) as f32).round() as i32)
            .collect();
    let mut variants = vec![variant];
    for &v in &args.also_serves {
        if !variants.contains(&v) {
            variants.push(v);
        }
    }
    let description = format!(
        "{INPUTS}(768 board + 60 pocket){} -> {h}x2 CReLU -> 1 ({} output buckets); QA {QA} QB {QB} scale {SCALE}; \
         trained by rukav train on {positions} {} positions: epochs {} batch {} lr {} lambda {} seed {}",
        if king_buckets.count() > 1 {
            format!(" x {} king buckets", king_buckets.count())
        } else {
            String::new()
        },
        p.b2.len(),
        variant.name(),
        args.epochs,
        args.batch,
        args.lr,
        args.lambda,
        args.seed
    ) + if args.mirror {
        " mirror (each position also mirrored left to right)"
    } else {
        ""
    } + &match &args.init {
        Some(path) => format!(
            " init {}",
            path.file_name().unwrap_or_default().to_string_lossy()
        ),
        None => String::new(),
    };
    Network::from_parts_bucketed(h, king_buckets, fw, fb, ow, ob, variants, description)
        .map_err(|e| e.to_string())
}

/// `rukav train`: trains and writes the network file.
pub fn main(args: TrainArgs) -> Result<(), String> {
    let net = train(&args)?;
    let bytes = net.to_bytes();
    std::fs::write(&args.out, &bytes).map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!(
        "train: wrote {} ({} bytes)",
        args.out.display(),
        bytes.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rukav::position::Position;

    /// The FEN of `fen`'s position mirrored left to right (board ranks
    /// reversed; the test positions have no castling rights or en passant
    /// square).
    fn mirrored_fen(fen: &str) -> String {
        let (board, rest) = fen.split_once(' ').unwrap();
        let (board, pockets) = board.split_at(board.find('[').unwrap_or(board.len()));
        let ranks: Vec<String> = board
            .split('/')
            .map(|r| r.chars().rev().collect())
            .collect();
        format!("{}{pockets} {rest}", ranks.join("/"))
    }

    fn sorted_features(pos: &Position, perspective: Color) -> Vec<u16> {
        let mut v = Vec::new();
        active_features(pos, perspective, &mut v);
        let mut v: Vec<u16> = v.into_iter().map(|f| f as u16).collect();
        v.sort_unstable();
        v
    }

    /// The gradient compiled for the CPU (AVX2 where it has it) is the
    /// portable one to the bit, so a network trained on one machine is the
    /// network trained on any other.
    #[test]
    fn the_dispatched_gradient_is_the_portable_one() {
        let rules = Variant::Crazyhouse.rules();
        let mut s = Samples {
            copies: 1,
            features: Vec::new(),
            index: Vec::new(),
            targets: Vec::new(),
        };
        for (fen, target) in [
            (
                "r1b1k2r/ppp2ppp/2n5/3qp3/1b1P4/2N2N2/PP3PPP/R2QKB1R[Pn] w - - 0 9",
                0.3,
            ),
            (
                "2kr3r/pbp2pp1/1p2p2p/8/3PN3/5N2/PPP2PPP/2KR3R[QBbpp] b - - 2 14",
                0.8,
            ),
            ("8/5k2/8/3K4/8/8/8/8[RNPPqbb] w - - 0 60", 0.1),
        ] {
            let pos = Position::from_fen(fen, rules).unwrap();
            let start = s.features.len() as u32;
            let stm = sorted_features(&pos, pos.side_to_move());
            let other = sorted_features(&pos, pos.side_to_move().flip());
            s.index.push((
                start,
                stm.len() as u8,
                other.len() as u8,
                output_bucket(&pos, 8) as u8,
            ));
            s.features.extend(stm.iter().chain(&other));
            s.targets.push(target);
        }
        let h = 64;
        let p = random_params(INPUTS, h, 8, &mut Rng(5));
        let ids = [0, 1, 2, 1];
        let (mut fast, mut plain) = (Params::zeros(INPUTS, h, 8), Params::zeros(INPUTS, h, 8));
        let fast_loss = gradient(&p, h, &s, &ids, &mut fast);
        let plain_loss = gradient_portable(&p, h, &s, &ids, &mut plain);
        assert_eq!(fast_loss.to_bits(), plain_loss.to_bits());
        for (a, b) in fast.groups().into_iter().zip(plain.groups()) {
            assert!(a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits()));
        }
        assert!(fast.w1.iter().any(|&x| x != 0.0));
        assert_eq!(
            chunk_loss(&p, h, &s, &ids).to_bits(),
            chunk_loss_portable(&p, h, &s, &ids).to_bits()
        );
    }

    #[test]
    fn mirrored_features_are_the_mirrored_position_features() {
        let rules = Variant::Crazyhouse.rules();
        for fen in [
            "r1b1k2r/ppp2ppp/2n5/3qp3/1b1P4/2N2N2/PP3PPP/R2QKB1R[Pn] w - - 0 9",
            "2kr3r/pbp2pp1/1p2p2p/8/3PN3/5N2/PPP2PPP/2KR3R[QBbpp] b - - 2 14",
            "8/5k2/8/3K4/8/8/8/8[RNPPqbb] w - - 0 60",
        ] {
            let pos = Position::from_fen(fen, rules).unwrap();
            let mirror = Position::from_fen(&mirrored_fen(fen), rules).unwrap();
            for perspective in Color::ALL {
                let mut ours: Vec<u16> = sorted_features(&pos, perspective)
                    .into_iter()
                    .map(mirror_feature)
                    .collect();
                ours.sort_unstable();
                assert_eq!(ours, sorted_features(&mirror, perspective), "{fen}");
                assert_ne!(
                    ours,
                    sorted_features(&pos, perspective),
                    "{fen}: mirroring must move pieces"
                );
            }
        }
    }
}
