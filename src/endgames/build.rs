//! The retrograde build of the tables (see the module documentation of
//! [`crate::endgames`]).

use super::encoding::{
    encode, flipped, is_stored, locate, position_at, signatures, table_size, Signature, Table,
    TableResult,
};
use super::tables::Tables;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::PieceType;
use rayon::prelude::*;
use std::collections::HashMap;

/// What one position's moves show before the positions of its own table
/// are settled.
#[derive(Default)]
pub(super) struct Moves {
    /// Moves that stay in the table: the indices they reach.
    inside: Vec<u32>,
    /// Fewest plies to a win through a move out of the table.
    win: Option<u16>,
    /// Most plies to a loss through moves out of the table.
    loss: u16,
    /// Some move out of the table reaches a position the opponent does not
    /// win (a draw, or its loss): then the side to move cannot lose.
    not_all_won: bool,
    /// The side to move has no legal move: it has won.
    no_moves: bool,
}

impl Tables {
    /// Builds every table of up to `max_pieces` pieces (at most
    /// [`MAX_PIECES`] is what the engine uses; tests may ask for more).
    pub fn build(rules: Rules, max_pieces: usize) -> Tables {
        let sigs = (2..=max_pieces).flat_map(signatures).collect();
        Tables::build_signatures(rules, sigs)
    }

    /// Builds the tables of `sigs` (a signature or its colour swap), which
    /// must hold every table a capture or promotion from one of them leads
    /// to.
    pub(super) fn build_signatures(rules: Rules, mut sigs: Vec<Signature>) -> Tables {
        let total = |s: &Signature| s.iter().map(|&n| n as usize).sum::<usize>();
        let pawns = |s: &Signature| s[PieceType::Pawn.index()] + s[6 + PieceType::Pawn.index()];
        for s in &mut sigs {
            if !is_stored(s) {
                *s = flipped(s);
            }
        }
        sigs.sort_by_key(|s| (total(s), pawns(s), *s));
        sigs.dedup();
        let mut t = Tables {
            rules,
            max_pieces: sigs.iter().map(total).max().unwrap_or(0),
            tables: HashMap::new(),
        };
        for sig in sigs {
            let table = t.build_one(&sig);
            t.tables.insert(sig, table);
        }
        t
    }

    fn build_one(&self, sig: &Signature) -> Table {
        let size = table_size(sig);
        let mut codes = vec![0u8; size];
        // Only the canonical entries are positions of the table: another
        // image of the same position is looked up at its canonical index.
        let moves: Vec<Option<Moves>> = (0..size)
            .into_par_iter()
            .map(|index| {
                position_at(self.rules, sig, index)
                    .filter(|pos| locate(pos) == (*sig, index))
                    .map(|pos| self.moves_of(&pos, sig))
            })
            .collect();
        // Reverse edges: for each index the indices with a move to it.
        let mut start = vec![0u32; size + 1];
        for m in moves.iter().flatten() {
            for &c in &m.inside {
                start[c as usize + 1] += 1;
            }
        }
        for i in 0..size {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut parents = vec![0u32; start[size] as usize];
        for (i, m) in moves.iter().enumerate() {
            for &c in m.iter().flat_map(|m| &m.inside) {
                parents[fill[c as usize] as usize] = i as u32;
                fill[c as usize] += 1;
            }
        }
        // Settling in order of distance: buckets[d] holds (index, won?).
        let mut buckets: Vec<Vec<(u32, bool)>> = Vec::new();
        let push = |buckets: &mut Vec<Vec<(u32, bool)>>, d: u16, i: usize, won: bool| {
            let d = d as usize;
            if buckets.len() <= d {
                buckets.resize_with(d + 1, Vec::new);
            }
            buckets[d].push((i as u32, won));
        };
        let mut remaining = vec![0u32; size];
        let mut loss = vec![0u16; size];
        let mut blocked = vec![false; size];
        for (i, m) in moves.iter().enumerate() {
            let Some(m) = m else { continue };
            if m.no_moves {
                push(&mut buckets, 0, i, true);
                continue;
            }
            if let Some(d) = m.win {
                push(&mut buckets, d, i, true);
            }
            remaining[i] = m.inside.len() as u32;
            loss[i] = m.loss;
            blocked[i] = m.not_all_won;
            if m.inside.is_empty() && !m.not_all_won && m.win.is_none() {
                push(&mut buckets, m.loss, i, false);
            }
        }
        let mut settled = vec![false; size];
        let mut d = 0usize;
        while d < buckets.len() {
            let bucket = std::mem::take(&mut buckets[d]);
            for (i, won) in bucket {
                let i = i as usize;
                if settled[i] {
                    continue;
                }
                settled[i] = true;
                let dist = d as u16;
                codes[i] = encode(if won {
                    TableResult::Win(dist)
                } else {
                    TableResult::Loss(dist)
                });
                for &q in &parents[start[i] as usize..start[i + 1] as usize] {
                    let q = q as usize;
                    if settled[q] {
                        continue;
                    }
                    if !won {
                        push(&mut buckets, dist + 1, q, true);
                    } else {
                        remaining[q] -= 1;
                        loss[q] = loss[q].max(dist + 1);
                        if remaining[q] == 0 && !blocked[q] {
                            let l = loss[q];
                            push(&mut buckets, l, q, false);
                        }
                    }
                }
            }
            d += 1;
        }
        Table { codes }
    }

    fn moves_of(&self, pos: &Position, sig: &Signature) -> Moves {
        let mut out = Moves::default();
        let list = pos.legal_moves();
        if list.is_empty() {
            out.no_moves = true;
            return out;
        }
        for &m in list.iter() {
            let mut child = *pos;
            child.make_move(m);
            // A double step that allows an en-passant capture leads out of
            // the table (its positions have no en-passant square): the
            // capture is compulsory (see `Tables::by_captures`).
            if child.ep_square().is_none() {
                let (child_sig, child_index) = locate(&child);
                if child_sig == *sig {
                    out.inside.push(child_index as u32);
                    continue;
                }
            }
            match self.known(&child) {
                TableResult::Loss(d) => {
                    out.win = Some(out.win.map_or(d + 1, |w| w.min(d + 1)));
                    out.not_all_won = true;
                }
                TableResult::Win(d) => out.loss = out.loss.max(d + 1),
                TableResult::Draw => out.not_all_won = true,
            }
        }
        out
    }
}
