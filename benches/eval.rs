//! NNUE output benchmarks (criterion): the evaluation from ready
//! accumulators, for each network shape the trainer can make, so that the
//! speed cost of a shape is known before a match weighs it.
//!
//! `cargo bench --bench eval`.

#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rukav::eval::nnue::{Accumulator, Activation, Network, SecondLayer, INPUTS};
use rukav::rng::Rng;
use rukav::{Position, Variant};
use std::time::Duration;

const HIDDEN: usize = 256;
const BUCKETS: usize = 8;

/// A network of random weights (within the trainer's clips) of the given
/// shape.
fn network(activation: Activation, second: usize) -> Network {
    let mut rng = Rng(7);
    let mut small = |range: u64| (rng.next_u64() % (2 * range + 1)) as i16 - range as i16;
    let fw: Vec<i16> = (0..INPUTS * HIDDEN).map(|_| small(60)).collect();
    let fb: Vec<i16> = (0..HIDDEN).map(|_| small(100)).collect();
    let ow: Vec<i16> = (0..BUCKETS * 2 * HIDDEN).map(|_| small(120)).collect();
    let net = Network::from_parts(
        HIDDEN,
        fw,
        fb,
        ow,
        vec![0; BUCKETS],
        vec![Variant::Crazyhouse],
        "bench".into(),
    )
    .expect("valid parts");
    let net = if second > 0 {
        let layer = SecondLayer {
            units: second,
            weights: (0..BUCKETS * second * 2 * HIDDEN)
                .map(|_| small(120))
                .collect(),
            bias: (0..BUCKETS * second)
                .map(|_| i32::from(small(8000)))
                .collect(),
        };
        let output = (0..BUCKETS * second).map(|_| small(120)).collect();
        net.with_second_layer(layer, output).expect("valid layer")
    } else {
        net
    };
    net.with_activation(activation)
        .expect("weights within range")
}

fn bench_output(c: &mut Criterion) {
    let rules = Variant::Crazyhouse.rules();
    let pos = Position::from_fen(
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[PNBRQpnbrq] w KQkq - 0 1",
        rules,
    )
    .expect("valid FEN");
    let mut group = c.benchmark_group("nnue output, 256 hidden, 8 buckets");
    group.measurement_time(Duration::from_secs(3));
    for (name, activation, second) in [
        ("CReLU", Activation::CReLU, 0),
        ("SCReLU", Activation::SCReLU, 0),
        ("CReLU + 8", Activation::CReLU, 8),
        ("CReLU + 16", Activation::CReLU, 16),
        ("CReLU + 32", Activation::CReLU, 32),
        ("SCReLU + 16", Activation::SCReLU, 16),
    ] {
        let net = network(activation, second);
        let mut acc = Accumulator::default();
        net.refresh(&pos, &mut acc);
        group.bench_function(name, |b| {
            b.iter(|| net.evaluate(black_box(&acc), black_box(&pos)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_output);
criterion_main!(benches);
