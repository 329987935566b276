//! Perft and move-generation benchmarks (criterion, small sample sizes).
//!
//! `cargo bench --bench perft` runs everything in a few minutes;
//! `cargo bench --bench perft -- movegen` runs one group.

#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rukav::perft::perft;
use rukav::{Position, Variant};
use std::time::Duration;

const ZH_MIDDLEGAME: &str =
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[PNBRQpnbrq] w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn position(fen: &str, variant: Variant) -> Position {
    Position::from_fen(fen, variant.rules()).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn bench_perft(c: &mut Criterion) {
    let cases = [
        (
            "crazyhouse-start-d4",
            Position::startpos(Variant::Crazyhouse),
            4,
        ),
        (
            "crazyhouse-middlegame-d3",
            position(ZH_MIDDLEGAME, Variant::Crazyhouse),
            3,
        ),
        ("kiwipete-d4", position(KIWIPETE, Variant::Chess), 4),
    ];
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for (name, pos, depth) in cases {
        let nodes = perft(&pos, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::from_parameter(name), &pos, |b, p| {
            b.iter(|| perft(black_box(p), depth))
        });
    }
    group.finish();
}

/// About ten positions across the variants; one iteration generates the
/// full move list of each.
fn movegen_positions() -> Vec<Position> {
    [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Variant::Chess,
        ),
        (KIWIPETE, Variant::Chess),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            Variant::Chess,
        ),
        (ZH_MIDDLEGAME, Variant::Crazyhouse),
        (
            "r2q1rk1/ppp2pp1/1bnp3p/3B4/3PP1b1/4PN2/PP4PP/R2Q1RK1[BNPnp] b - - 0 13",
            Variant::Crazyhouse,
        ),
        (
            "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
            Variant::Crazyhouse,
        ),
        (
            "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Qn] b KQkq - 0 1",
            Variant::Bughouse,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            Variant::Antichess,
        ),
        (
            "rnbqkbnr/p1pppppp/8/1p6/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 2",
            Variant::Antichess,
        ),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", Variant::Giveaway),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 10 -+",
            Variant::KingsChess,
        ),
    ]
    .iter()
    .map(|&(fen, v)| position(fen, v))
    .collect()
}

fn bench_movegen(c: &mut Criterion) {
    let positions = movegen_positions();
    let moves: usize = positions.iter().map(|p| p.legal_moves().len()).sum();
    let mut group = c.benchmark_group("movegen");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements(moves as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                n += black_box(p).legal_moves().len();
            }
            n
        })
    });
    group.bench_function("count_legal", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                n += black_box(p).count_legal();
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, bench_perft, bench_movegen);
criterion_main!(benches);
