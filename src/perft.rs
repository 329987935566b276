//! Perft: counts legal move sequences, bulk counting at the last ply.

use crate::position::movegen::MoveList;
use crate::position::Position;
use crate::types::Move;
use rayon::prelude::*;

/// Number of legal move sequences of length `depth`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let mut list = MoveList::new();
            pos.generate(&mut list);
            let mut total = 0;
            for &m in list.iter() {
                let mut child = *pos;
                child.make_move(m);
                total += perft(&child, depth - 1);
            }
            total
        }
    }
}

/// Per-root-move counts, in generation order; `threads > 1` splits the root
/// moves over a rayon pool of that size.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = pos.legal_moves().to_vec();
    let count = |m: &Move| {
        let mut child = *pos;
        child.make_move(*m);
        (*m, perft(&child, depth - 1))
    };
    if threads <= 1 {
        return moves.iter().map(count).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
        Err(_) => moves.iter().map(count).collect(),
    }
}
