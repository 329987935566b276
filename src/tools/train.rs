//! `rukav train`: trains an NNUE network (`src/eval/nnue/` architecture)
//! on `rukav datagen` records, on the CPU with rayon, deterministically for
//! a given seed and data: the work is split by fixed slices of the hidden
//! layer (see [`model`]), so the thread count does not change the result.
//!
//! Model (floating point while training): one accumulator per perspective
//! `a = b1 + sum of W1 rows of the active features`, `h = clamp(a, 0, 1)`
//! (squared with `--activation screlu`), optionally a second layer
//! (`--second-layer N`: per output bucket N neurons `z = W . [h_stm,
//! h_other] + b` read through `clamp(z, 0, 1)` by the output),
//! `out = W2 . [h_stm, h_other] + b2`, prediction `sigmoid(out)`, and the
//! network's evaluation is `out * SCALE` centipawns. Target: `lambda *
//! sigmoid(score / SCALE) + (1 - lambda) * result`, both from the side to
//! move's view; loss: mean squared error; optimiser: Adam. Weights are
//! clipped so that the quantised accumulators cannot overflow `i16`.

mod model;

use super::progress::Progress;
use super::record::read_records;
use model::{sigmoid, Adam, Params, Samples, Shape, Work, NARROW_SLICE_WIDTH};
use rukav::eval::nnue::{
    active_features, output_bucket, Activation, KingBuckets, Network, SecondLayer, BOARD_FEATURES,
    INPUTS, MAX_BUCKETS, MAX_HIDDEN, MAX_SECOND_LAYER, QA, QB, SCALE,
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
    /// pieces on the board (see `output_bucket` in src/eval/nnue/feature.rs).
    #[arg(long, default_value_t = 1)]
    pub buckets: usize,
    /// King buckets: feature-weight sets chosen by the square of the
    /// perspective's own king, by layout (`KingBuckets::layout` in
    /// src/eval/nnue/feature.rs): 1 (none), 4 or 8.
    #[arg(long, default_value_t = 1)]
    pub king_buckets: usize,
    /// How the output reads a hidden unit: `crelu` (`clamp(a, 0, 1)`) or
    /// `screlu` (its square; network format version 4). Default: crelu,
    /// or the `--init` network's.
    #[arg(long, value_parser = parse_activation)]
    pub activation: Option<Activation>,
    /// Units of a second hidden layer per output bucket (0: none, up to
    /// 32; network format version 5). Default: none, or the `--init`
    /// network's (another value is refused).
    #[arg(long)]
    pub second_layer: Option<usize>,
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
    /// Share of the positions held out for the validation loss (ignored
    /// with `--validation-data`).
    #[arg(long, default_value_t = 0.02)]
    pub validation: f64,
    /// Files of positions for the validation loss instead of a share of
    /// `--data`: positions of other games. A random share of `--data`
    /// shares games with the training positions (the same result, the
    /// neighbouring plies), so its loss rewards remembering games and
    /// favours the larger networks; another slice of the run does not.
    #[arg(long, num_args = 1..)]
    pub validation_data: Vec<PathBuf>,
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
    /// tuning, e.g. a crazyhouse network on bughouse data). Its hidden size,
    /// output buckets and activation are used (`--hidden` and `--buckets`
    /// are ignored, another `--activation` is refused);
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

/// `--activation`'s value.
fn parse_activation(s: &str) -> Result<Activation, String> {
    match s.to_ascii_lowercase().as_str() {
        "crelu" => Ok(Activation::CReLU),
        "screlu" => Ok(Activation::SCReLU),
        _ => Err(format!("{s}: crelu or screlu")),
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

/// Appends the positions of `args.variant` in the record files `paths` to `s`
/// and returns how many records were skipped (another variant, or a
/// record that does not unpack).
fn load(
    s: &mut Samples,
    paths: &[PathBuf],
    args: &TrainArgs,
    buckets: usize,
    king_buckets: KingBuckets,
) -> Result<usize, String> {
    let variant = args.variant;
    let rules = variant.rules();
    let mut scratch = Vec::with_capacity(96);
    let mut skipped = 0usize;
    for path in paths {
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
    Ok(skipped)
}

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
    let activation = inherited(
        init.as_ref().map(Network::activation),
        args.activation,
        Activation::default(),
        |theirs, asked| {
            format!(
                "--init has activation {}: --activation {} would change what its weights mean",
                theirs.name(),
                asked.name()
            )
        },
    )?;
    let second = inherited(
        init.as_ref().map(|net| net.second_layer().units),
        args.second_layer,
        0,
        |theirs, asked| {
            format!(
                "--init has a second layer of {theirs} units: --second-layer {asked} would not fit its weights"
            )
        },
    )?;
    if second > MAX_SECOND_LAYER {
        return Err(format!("--second-layer {second}: 0..={MAX_SECOND_LAYER}"));
    }
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
    if h == 0 || h > MAX_HIDDEN || !h.is_multiple_of(NARROW_SLICE_WIDTH) {
        return Err(format!("--hidden {h}: a multiple of 16 up to {MAX_HIDDEN}"));
    }
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        return Err(format!("--buckets {buckets}: 1..={MAX_BUCKETS}"));
    }
    // Samples per record: 2 with `--mirror` (the record, then its mirror
    // image), else 1.
    let copies = if args.mirror { 2 } else { 1 };
    let mut samples = Samples {
        features: Vec::new(),
        index: Vec::new(),
        targets: Vec::new(),
    };
    let skipped = load(&mut samples, &args.data, args, buckets, king_buckets)?;
    let data_records = samples.targets.len() / copies;
    eprintln!(
        "train: {data_records} positions of {} ({skipped} skipped)",
        variant.name()
    );
    if !args.validation_data.is_empty() {
        let skipped = load(
            &mut samples,
            &args.validation_data,
            args,
            buckets,
            king_buckets,
        )?;
        eprintln!(
            "train: {} validation positions ({skipped} skipped)",
            samples.targets.len() / copies - data_records
        );
    }
    if data_records == 0 {
        return Err("no training positions".into());
    }
    let mut rng = Rng(args.seed ^ 0x9e37_79b9_7f4a_7c15);
    // The split is by record, so that a position and its mirror image
    // fall on the same side of it.
    let mut order: Vec<usize> = (0..data_records).collect();
    shuffle(&mut order, &mut rng);
    let n_valid = if args.validation_data.is_empty() {
        ((order.len() as f64 * args.validation) as usize).min(order.len() / 2)
    } else {
        0
    };
    let samples_of = |records: &[usize]| -> Vec<usize> {
        records
            .iter()
            .flat_map(|&r| (0..copies).map(move |c| r * copies + c))
            .collect()
    };
    // The `--validation-data` samples follow those of `--data`.
    let valid: Vec<usize> = if args.validation_data.is_empty() {
        samples_of(&order[..n_valid])
    } else {
        (data_records * copies..samples.targets.len()).collect()
    };
    let mut train_ids: Vec<usize> = samples_of(&order[n_valid..]);

    let shape = Shape {
        rows,
        hidden: h,
        buckets,
        activation,
        second,
    };
    let mut p = match &init {
        Some(net) => dequantise(net, shape),
        None => random_params(shape, &mut rng),
    };
    let mut opt = Adam::new(shape);
    let mut gradient = Params::zeros(shape);
    let mut work = Work::default();
    let batch = args.batch.max(1);
    let validation_loss = |p: &Params, work: &mut Work| {
        model::loss(p, shape, &samples, &valid, batch, work) / valid.len().max(1) as f64
    };
    if !valid.is_empty() {
        // The starting point's loss: with `--init`, how well the network
        // fits this data before any step (`--epochs 0` compares networks).
        eprintln!(
            "before training: validation loss {:.6}",
            validation_loss(&p, &mut work)
        );
    }
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
            train_loss += model::batch_gradient(&p, shape, &samples, ids, &mut gradient, &mut work);
            opt.step(shape, &mut p, &gradient, lr, 1.0 / ids.len() as f32);
        }
        let v = validation_loss(&p, &mut work);
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
    quantise(&p, shape, king_buckets, variant, args, data_records)
}

/// A setting that an `--init` network fixes: the network's (`theirs`)
/// when there is one, refused with `conflict(theirs, asked)` when the
/// command line asks another; without a network, what is asked or
/// `default`.
fn inherited<T: Copy + PartialEq>(
    theirs: Option<T>,
    asked: Option<T>,
    default: T,
    conflict: impl FnOnce(T, T) -> String,
) -> Result<T, String> {
    match (theirs, asked) {
        (Some(theirs), Some(asked)) if asked != theirs => Err(conflict(theirs, asked)),
        (Some(theirs), _) => Ok(theirs),
        (None, asked) => Ok(asked.unwrap_or(default)),
    }
}

/// Random initial parameters.
fn random_params(shape: Shape, rng: &mut Rng) -> Params {
    let h = shape.hidden;
    let mut uniform = |a: f32| -> f32 {
        let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * u - 1.0) * a
    };
    let w1: Vec<f32> = (0..shape.rows * h).map(|_| uniform(0.1)).collect();
    let b1: Vec<f32> = (0..h).map(|_| 0.25 + uniform(0.05)).collect();
    let inputs = model::output_inputs(shape);
    // One over the square root of the hidden size (one side's inputs of the
    // output) without a second layer, as before it existed.
    let spread = 1.0 / (if shape.second > 0 { shape.second } else { h } as f32).sqrt();
    let w2: Vec<f32> = (0..shape.buckets * inputs)
        .map(|_| uniform(spread))
        .collect();
    let mut p = Params::from_input_major(shape, &w1, b1, w2, vec![0.0; shape.buckets]);
    for w in &mut p.mid_w {
        *w = uniform(1.0 / (2.0 * h as f32).sqrt());
    }
    for b in &mut p.mid_b {
        *b = 0.25 + uniform(0.05);
    }
    p
}

/// A network's weights as training parameters (`quantise` gives the same
/// network back). With more king buckets in `shape` than the network has
/// (one), each bucket starts as a copy of its feature weights.
fn dequantise(net: &Network, shape: Shape) -> Params {
    let (fw, fb, ow, ob) = net.parts();
    let copies = (shape.rows * shape.hidden / fw.len().max(1)).max(1);
    let w1: Vec<f32> = std::iter::repeat_n(fw, copies)
        .flatten()
        .map(|&w| f32::from(w) / QA as f32)
        .collect();
    let output_bias_scale = output_bias_scale(shape);
    let mut p = Params::from_input_major(
        shape,
        &w1,
        fb.iter().map(|&b| f32::from(b) / QA as f32).collect(),
        ow.iter().map(|&w| f32::from(w) / QB as f32).collect(),
        ob.iter().map(|&b| b as f32 / output_bias_scale).collect(),
    );
    let second = net.second_layer();
    p.mid_w = second
        .weights
        .iter()
        .map(|&w| f32::from(w) / QB as f32)
        .collect();
    p.mid_b = second
        .bias
        .iter()
        .map(|&b| b as f32 / (QA * QB) as f32)
        .collect();
    p
}

/// The quantisation of the output biases: `QA * QB`, times `QB` more
/// behind a second layer (whose outputs are on the scale `QA * QB`).
fn output_bias_scale(shape: Shape) -> f32 {
    if shape.second > 0 {
        (QA * QB * QB) as f32
    } else {
        (QA * QB) as f32
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
    shape: Shape,
    king_buckets: KingBuckets,
    variant: Variant,
    args: &TrainArgs,
    positions: usize,
) -> Result<Network, String> {
    let q = |x: f32, s: i32| -> i16 { (x * s as f32).round().clamp(-32767.0, 32767.0) as i16 };
    let h = shape.hidden;
    let fw: Vec<i16> = p.w1_input_major(shape).iter().map(|&w| q(w, QA)).collect();
    let fb: Vec<i16> = p.b1.iter().map(|&b| q(b, QA)).collect();
    let ow: Vec<i16> = p.w2.iter().map(|&w| q(w, QB)).collect();
    let scale = output_bias_scale(shape);
    let ob: Vec<i32> = p.b2.iter().map(|b| (b * scale).round() as i32).collect();
    let mut variants = vec![variant];
    for &v in &args.also_serves {
        if !variants.contains(&v) {
            variants.push(v);
        }
    }
    let description = format!(
        "{INPUTS}(768 board + 60 pocket){} -> {h}x2 {}{} -> 1 ({} output buckets); QA {QA} QB {QB} scale {SCALE}; \
         trained by rukav train on {positions} {} positions: epochs {} batch {} lr {} lambda {} seed {}",
        if king_buckets.count() > 1 {
            format!(" x {} king buckets", king_buckets.count())
        } else {
            String::new()
        },
        shape.activation.name(),
        if shape.second > 0 {
            format!(" -> {} CReLU", shape.second)
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
    let second = SecondLayer {
        units: shape.second,
        weights: p.mid_w.iter().map(|&w| q(w, QB)).collect(),
        bias: p
            .mid_b
            .iter()
            .map(|&b| (b * (QA * QB) as f32).round() as i32)
            .collect(),
    };
    Network::from_parts_layered(
        h,
        king_buckets,
        fw,
        fb,
        second,
        ow,
        ob,
        variants,
        description,
    )
    .and_then(|net| net.with_activation(shape.activation))
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
    use clap::Parser;
    use rukav::position::Position;

    /// `rukav train`'s arguments as the command line gives them.
    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: TrainArgs,
    }

    /// The float model's evaluation (centipawns, side to move's view) of
    /// `pos`, unit by unit in the file's order.
    fn float_eval(p: &Params, shape: Shape, pos: &Position) -> f32 {
        let h = shape.hidden;
        let w1 = p.w1_input_major(shape);
        let bucket = output_bucket(pos, shape.buckets);
        let readers = shape.readers();
        let (read_w, read_b) = if shape.second > 0 {
            (&p.mid_w, &p.mid_b)
        } else {
            (&p.w2, &p.b2)
        };
        let mut z = read_b[bucket * readers..(bucket + 1) * readers].to_vec();
        let stm = pos.side_to_move();
        for (side, perspective) in [stm, stm.flip()].into_iter().enumerate() {
            let mut features = Vec::new();
            active_features(pos, perspective, &mut features);
            for j in 0..h {
                let a = features
                    .iter()
                    .fold(p.b1[j], |a, &f| a + w1[f * h + j])
                    .clamp(0.0, 1.0);
                let a = if shape.activation == Activation::SCReLU {
                    a * a
                } else {
                    a
                };
                for (r, z) in z.iter_mut().enumerate() {
                    *z += a * read_w[(bucket * readers + r) * 2 * h + side * h + j];
                }
            }
        }
        let out = if shape.second > 0 {
            z.iter().enumerate().fold(p.b2[bucket], |o, (r, z)| {
                o + z.clamp(0.0, 1.0) * p.w2[bucket * readers + r]
            })
        } else {
            z[0]
        };
        out * SCALE as f32
    }

    /// The network that `quantise` writes evaluates positions as the float
    /// model of its own (rounded) weights does, to the centipawn, with
    /// either activation and with or without a second layer: the engine's
    /// integer arithmetic (and its vector kernels) is the trainer's model;
    /// the file says which activation and second layer.
    #[test]
    fn the_quantised_network_evaluates_as_the_float_model() {
        let rules = Variant::Crazyhouse.rules();
        let args = Command::parse_from(["train", "--data", "x", "--out", "y"]).args;
        for (activation, second) in [
            (Activation::CReLU, 0),
            (Activation::SCReLU, 0),
            (Activation::CReLU, 8),
            (Activation::SCReLU, 16),
        ] {
            let shape = Shape {
                rows: INPUTS,
                hidden: 64,
                buckets: 2,
                activation,
                second,
            };
            let p = random_params(shape, &mut Rng(5));
            let net =
                quantise(&p, shape, KingBuckets::NONE, Variant::Crazyhouse, &args, 0).unwrap();
            let net = Network::from_bytes(&net.to_bytes()).unwrap();
            assert_eq!(net.activation(), activation);
            assert_eq!(net.second_layer().units, second);
            let p = dequantise(&net, shape);
            for fen in [
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "2kr3r/pbp2pp1/1p2p2p/8/3PN3/5N2/PPP2PPP/2KR3R[QBbpp] b - - 2 14",
                "8/8/3k4/8/8/4K3/8/8[QRBNPqrbnp] w - - 0 40",
            ] {
                let pos = Position::from_fen(fen, rules).unwrap();
                let (engine, float) = (net.evaluate_position(&pos), float_eval(&p, shape, &pos));
                assert!(
                    (engine as f32 - float).abs() <= 1.5,
                    "{activation:?} {fen}: engine {engine}, float {float}"
                );
            }
        }
    }

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
