//! `bench`: a fixed set of positions searched to a fixed depth with one
//! thread and a fresh hash table each; the node count is deterministic and
//! goes into commit messages (`Bench: N`).

use crate::engine::Engine;
use crate::position::Position;
use crate::rules::Variant;
use crate::search::Limits;
use std::time::Instant;

/// Default bench depth.
pub const BENCH_DEPTH: i32 = 12;

/// The bench positions: (variant, FEN). Mostly crazyhouse.
pub const POSITIONS: &[(Variant, &str)] = &[
    (
        Variant::Crazyhouse,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    ),
    (
        Variant::Crazyhouse,
        "rnbqkbnr/1pp1pppp/p7/3p4/3P4/2P2N2/PP2PPPP/RNBQKB1R[] b KQkq - 1 3",
    ),
    (
        Variant::Crazyhouse,
        "rnbqkb1r/pppp1ppp/4pn2/8/3PP3/3B4/PPP2PPP/RNBQK1NR[] b KQkq - 2 3",
    ),
    (
        Variant::Crazyhouse,
        "rn1qkbnr/ppp1pppp/8/3p4/3P2b1/4PN2/PPP2PPP/RNBQKB1R[] b KQkq - 2 3",
    ),
    (
        Variant::Crazyhouse,
        "rnbqkbnr/ppp2ppp/4p3/3p4/3P4/2N5/PPPBPPPP/R2QKBNR[] b KQkq - 1 3",
    ),
    (
        Variant::Crazyhouse,
        "rnbqk1nr/ppppbppp/4p3/8/6Q1/2N1P3/PPPP1PPP/R1B1KBNR[] b KQkq - 3 3",
    ),
    (
        Variant::Crazyhouse,
        "rnb1kbnr/pppp1ppp/8/4p3/3PP2q/2N5/PPP2PPP/R1BQKBNR[] b KQkq - 2 3",
    ),
    (
        Variant::Crazyhouse,
        "rnbqkbnr/pppp1ppp/8/8/3pP3/5N2/PPP2PPP/RNBQKB1R[p] b KQkq - 1 3",
    ),
    (
        Variant::Crazyhouse,
        "r1bqkb1r/pppppppp/2n2n2/3P4/4P3/8/PPP2PPP/RNBQKBNR[] b KQkq - 0 3",
    ),
    (
        Variant::Crazyhouse,
        "rnbqkbnr/pp1p1ppp/4p3/2p5/4P3/2P5/PP1PQPPP/RNB1KBNR[] b KQkq - 1 3",
    ),
    (
        Variant::Crazyhouse,
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[Pp] w KQkq - 0 1",
    ),
    (
        Variant::Crazyhouse,
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[PNBRQpnbrq] w KQkq - 0 1",
    ),
    (
        Variant::Crazyhouse,
        "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1[] w - - 0 8",
    ),
    (
        Variant::Crazyhouse,
        "r1b1k2r/ppppnppp/2n5/2b1p3/2B1P2q/2N2N2/PPPP1PPP/R1BQK2R[Pp] w KQkq - 0 6",
    ),
    (
        Variant::Crazyhouse,
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[] w KQkq - 4 4",
    ),
    (
        Variant::Crazyhouse,
        "r1bq1rk1/pppp1ppp/2n2n2/2b1p1N1/2B1P3/3P4/PPP2PPP/RNBQK2R[] w KQ - 1 6",
    ),
    (
        Variant::Crazyhouse,
        "r4rk1/pbpq1ppp/1p1p1n2/4p3/2P1P1b1/2NPBN2/PP3PPP/R2QK2R[BNp] w KQ - 0 11",
    ),
    (
        Variant::Crazyhouse,
        "r1b2rk1/ppp2ppp/2n5/3qp3/1b6/2NP1N2/PPPB1PPP/R2QKB1R[Pn] w KQ - 0 9",
    ),
    (
        Variant::Crazyhouse,
        "2kr3r/ppp2ppp/2n5/4P3/2Bq2b1/2N5/PPP2PPP/R2Q1RK1[NBPbnp] b - - 1 13",
    ),
    (
        Variant::Crazyhouse,
        "r3k2r/ppp2ppp/2n1bn2/3pp3/1bPP4/2N1PN2/PP1B1PPP/R2QKB1R[Qq] w KQkq - 0 9",
    ),
    (
        Variant::Crazyhouse,
        "rn2k2r/ppp2ppp/3b1n2/3p4/3P4/3B1N2/PPP2PPP/RN1QK2R[BPbp] w KQkq - 0 8",
    ),
    (
        Variant::Crazyhouse,
        "r1bq1rk1/ppp2ppp/2n2P2/3p4/1b1P4/2N5/PPP2PPP/R1BQKBNR[Np] b KQ - 0 7",
    ),
    (
        Variant::Crazyhouse,
        "2kr1b1r/ppp1pppp/2n2n2/3q4/3P2b1/2P2N2/PP2BPPP/RNBQ1RK1[Pp] w - - 3 8",
    ),
    (
        Variant::Crazyhouse,
        "r1b1k1nr/pppp1ppp/2n5/4P3/1b1N4/2N5/PPP1QPPP/R1B1KB1R[QPp] b KQkq - 0 8",
    ),
    (
        Variant::Crazyhouse,
        "6k1/5ppp/8/8/8/8/5PPP/6K1[QRNrnb] w - - 0 30",
    ),
    (
        Variant::Crazyhouse,
        "r2qk2r/ppp2ppp/2n1bn2/2bpp3/4P3/2PP1N2/PP1NBPPP/R1BQK2R[] w KQkq - 0 7",
    ),
    (
        Variant::Bughouse,
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[NPbp] w KQkq - 0 1",
    ),
    (
        Variant::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        Variant::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (Variant::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        Variant::Antichess,
        "r3kbnr/pp2pppp/n1p5/3p4/6b1/1P1PP3/P1PNBPPP/R1B3NR b - - 1 7",
    ),
    (
        Variant::Antichess,
        "r2qkb1r/p1pnpp1p/1p1p2pn/8/6P1/2PP3N/PPQ1PP1P/RN2KB1R b - - 0 7",
    ),
    (
        Variant::Giveaway,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        Variant::KingsChess,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 8 --",
    ),
];

/// The totals of a bench run.
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
}

/// Runs the bench at `depth`; `line` receives one line per position.
pub fn run(depth: i32, hash_mb: usize, line: &mut dyn FnMut(String)) -> BenchResult {
    let start = Instant::now();
    let mut nodes = 0;
    for (i, (variant, fen)) in POSITIONS.iter().enumerate() {
        let mut engine = Engine::new();
        if let Err(e) = engine.set_hash(hash_mb) {
            line(format!("hash: {e}"));
        }
        engine.set_rules(variant.rules());
        let pos = match Position::from_fen(fen, variant.rules()) {
            Ok(p) => p,
            Err(e) => {
                line(format!("position {} skipped: {e}", i + 1));
                continue;
            }
        };
        engine.set_position(pos, Vec::new());
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        let r = engine.search_sync(limits, &|_| {});
        nodes += r.nodes;
        line(format!(
            "position {:2} {:10} {:>10} nodes  bestmove {}",
            i + 1,
            variant.name(),
            r.nodes,
            r.best
        ));
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    BenchResult {
        nodes,
        nps: (nodes as f64 / secs) as u64,
    }
}
