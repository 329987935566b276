//! Antichess and giveaway endgame tables: the exact result and distance
//! (plies to the end of the game with best play: the winner hurries, the
//! loser delays) of every position with few pieces, built in memory by
//! retrograde analysis with the engine's own move generator and rules, so
//! that the tables agree with the search on what a legal move and a won
//! game are, house rules included.
//!
//! A table covers one material signature (how many pieces of each colour
//! and kind) with both sides on the board; the index of a position is the
//! side to move and the squares of its pieces in a fixed order (White
//! before Black, pawn to king, ascending squares among equal pieces, the
//! only order that is kept, so each position has one index). Tables are
//! built in order of piece count and, within a count, of pawns, so that a
//! capture (fewer pieces) or a promotion (one pawn fewer) always leads to a
//! table already built.
//!
//! The build, for one table: every position is made and its legal moves
//! tried once; a move into another table or to the end of the game gives a
//! known result, a move within the table gives an edge. Then the positions
//! are settled in order of distance (a bucket queue): a position is won in
//! `d + 1` when some move reaches a position lost for the opponent in `d`,
//! lost in `1 + ` the largest distance when every move reaches a position
//! the opponent wins; what is never settled is a draw (neither side can
//! force the end). The 50-move rule is not modelled.

use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Color, Piece, PieceType, Square};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Largest number of pieces (both sides) the built-in tables cover.
pub const MAX_PIECES: usize = 2;

/// The result of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableResult {
    /// The side to move wins in this many plies (0: it has already won).
    Win(u16),
    /// The side to move loses in this many plies.
    Loss(u16),
    /// Neither side can force the end of the game.
    Draw,
}

/// How many pieces of each colour and kind (index `color * 6 + kind`).
type Signature = [u8; 12];

/// One table: a result per index (see the module doc).
struct Table {
    /// Per index: 0 draw or not a position, `1 + 2d` win in `d`, `2 + 2d`
    /// loss in `d` (distances beyond [`MAX_DISTANCE`] stored as it: the
    /// result stays exact, the distance is then a lower bound).
    codes: Vec<u8>,
}

/// Every table up to a number of pieces, built under one set of rules.
pub struct Tables {
    rules: Rules,
    max_pieces: usize,
    tables: HashMap<Signature, Table>,
}

fn signature(pos: &Position) -> Signature {
    let mut sig = [0u8; 12];
    for c in Color::ALL {
        for k in PieceType::ALL {
            sig[c.index() * 6 + k.index()] = pos.pieces(c, k).count() as u8;
        }
    }
    sig
}

fn pieces_of(sig: &Signature) -> Vec<Piece> {
    let mut v = Vec::new();
    for c in Color::ALL {
        for k in PieceType::ALL {
            for _ in 0..sig[c.index() * 6 + k.index()] {
                v.push(Piece::new(c, k));
            }
        }
    }
    v
}

/// The index of `pos` in the table of its signature.
fn index_of(pos: &Position) -> usize {
    let mut index = 0usize;
    let mut shift = 1;
    for c in Color::ALL {
        for k in PieceType::ALL {
            for sq in pos.pieces(c, k) {
                index |= sq.index() << shift;
                shift += 6;
            }
        }
    }
    index | pos.side_to_move().index()
}

/// The position at `index` of a table of `pieces`, if the index is one
/// (squares ascending among equal pieces, no pawn on rank 1 or 8, no
/// square used twice).
fn position_at(rules: Rules, pieces: &[Piece], index: usize) -> Option<Position> {
    let side = if index & 1 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut placed: arrayvec::ArrayVec<(Square, Piece), 8> = arrayvec::ArrayVec::new();
    for (i, &p) in pieces.iter().enumerate() {
        let sq = Square(((index >> (1 + 6 * i)) & 63) as u8);
        if i > 0 && pieces[i - 1] == p && placed[i - 1].0 >= sq {
            return None;
        }
        placed.push((sq, p));
    }
    Position::from_pieces(rules, &placed, side)
}

/// The largest distance a table stores.
const MAX_DISTANCE: u16 = 126;

fn encode(r: TableResult) -> u8 {
    match r {
        TableResult::Draw => 0,
        TableResult::Win(d) => 1 + 2 * d.min(MAX_DISTANCE) as u8,
        TableResult::Loss(d) => 2 + 2 * d.min(MAX_DISTANCE) as u8,
    }
}

fn decode(code: u8) -> TableResult {
    let d = u16::from(code.saturating_sub(1) / 2);
    match code {
        0 => TableResult::Draw,
        c if c % 2 == 1 => TableResult::Win(d),
        _ => TableResult::Loss(d),
    }
}

/// What one position's moves show before the positions of its own table
/// are settled.
#[derive(Default)]
struct Moves {
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

    /// Builds the tables of `sigs`, which must hold every table a capture
    /// or promotion from one of them leads to.
    fn build_signatures(rules: Rules, mut sigs: Vec<Signature>) -> Tables {
        let total = |s: &Signature| s.iter().map(|&n| n as usize).sum::<usize>();
        let pawns = |s: &Signature| s[PieceType::Pawn.index()] + s[6 + PieceType::Pawn.index()];
        sigs.sort_by_key(|s| (total(s), pawns(s)));
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

    /// The result of `pos` for its side to move, where a table covers it:
    /// both sides on the board, few enough pieces, no castling right, and
    /// rules the tables cover (see [`covers`]).
    pub fn probe(&self, pos: &Position) -> Option<TableResult> {
        if pos.occupied().count() as usize > self.max_pieces
            || pos.castling_rights() != 0
            || !covers(pos.rules())
        {
            return None;
        }
        let table = self.tables.get(&signature(pos))?;
        if pos.ep_square().is_some() {
            return Some(self.by_captures(pos));
        }
        Some(decode(table.codes[index_of(pos)]))
    }

    /// Extends `line` (legal moves from `root`) while it ends in a won or
    /// lost position the tables cover, with the best move by the tables:
    /// the quickest win, the slowest loss. So a reported line that reaches
    /// the tables shows the rest of the game.
    pub fn extend_line(&self, root: &Position, line: &mut Vec<crate::types::Move>) {
        let mut pos = *root;
        for &m in line.iter() {
            pos.make_move(m);
        }
        while line.len() < 128 {
            match self.probe(&pos) {
                None | Some(TableResult::Draw) => return,
                Some(_) => {}
            }
            let mut best: Option<(TableResult, crate::types::Move, Position)> = None;
            for &m in pos.legal_moves().iter() {
                let mut child = pos;
                child.make_move(m);
                let r = self.for_mover(&child);
                if best.is_none_or(|(b, _, _)| better(b, r) != b) {
                    best = Some((r, m, child));
                }
            }
            let Some((_, m, child)) = best else { return };
            line.push(m);
            pos = child;
        }
    }

    /// The largest number of pieces covered.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The result of a position reached by a move out of the table being
    /// built: from its side to move's view.
    fn known(&self, child: &Position) -> TableResult {
        if child.color_bb(child.side_to_move()).is_empty() {
            return TableResult::Win(0);
        }
        if child.ep_square().is_some() {
            return self.by_captures(child);
        }
        match self.tables.get(&signature(child)) {
            Some(t) => decode(t.codes[index_of(child)]),
            // Cannot happen: a move keeps the mover's pieces, and smaller
            // tables and those with fewer pawns are built first.
            None => {
                debug_assert!(false, "no table for {}", child.fen());
                TableResult::Draw
            }
        }
    }

    /// The result of the move that reached `child`, for the side that
    /// made it: one ply more than the child's, the other way round.
    fn for_mover(&self, child: &Position) -> TableResult {
        match self.known(child) {
            TableResult::Win(d) => TableResult::Loss(d + 1),
            TableResult::Loss(d) => TableResult::Win(d + 1),
            TableResult::Draw => TableResult::Draw,
        }
    }

    /// The result of a position with an en-passant capture (not in the
    /// tables, whose positions have no en-passant square): captures are
    /// compulsory, so every move leads to a table with fewer pieces.
    fn by_captures(&self, pos: &Position) -> TableResult {
        let mut best: Option<TableResult> = None;
        for &m in pos.legal_moves().iter() {
            let mut child = *pos;
            child.make_move(m);
            let r = self.for_mover(&child);
            best = Some(match best {
                None => r,
                Some(b) => better(b, r),
            });
        }
        best.unwrap_or(TableResult::Win(0))
    }

    fn build_one(&self, sig: &Signature) -> Table {
        let pieces = pieces_of(sig);
        let size = 2usize << (6 * pieces.len());
        let mut codes = vec![0u8; size];
        let moves: Vec<Option<Moves>> = (0..size)
            .into_par_iter()
            .map(|index| {
                position_at(self.rules, &pieces, index).map(|pos| self.moves_of(&pos, sig))
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
            if signature(&child) == *sig {
                out.inside.push(index_of(&child) as u32);
                continue;
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

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tables({} tables, up to {} pieces)",
            self.tables.len(),
            self.max_pieces
        )
    }
}

/// The better of two results for the side to move: the quicker win, a
/// draw before a loss, the slower loss.
fn better(a: TableResult, b: TableResult) -> TableResult {
    let rank = |r: TableResult| match r {
        TableResult::Win(d) => 100_000 - i32::from(d),
        TableResult::Draw => 0,
        TableResult::Loss(d) => -100_000 + i32::from(d),
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// Every signature of `total` pieces with at least one piece per side.
fn signatures(total: usize) -> Vec<Signature> {
    let mut out = Vec::new();
    let mut sig = [0u8; 12];
    fn rec(slot: usize, left: usize, sig: &mut Signature, out: &mut Vec<Signature>) {
        if slot == 12 {
            let white: u8 = sig[..6].iter().sum();
            let black: u8 = sig[6..].iter().sum();
            if left == 0 && white > 0 && black > 0 {
                out.push(*sig);
            }
            return;
        }
        for n in 0..=left {
            sig[slot] = n as u8;
            rec(slot + 1, left - n, sig, out);
        }
        sig[slot] = 0;
    }
    rec(0, total, &mut sig, &mut out);
    out
}

/// Whether tables built under antichess rules give the results of
/// positions played under `rules`: losing wins, captures compulsory,
/// promotion to king, no royal king, no drops. Giveaway qualifies (it
/// differs in castling, and positions with castling rights are not
/// probed), and so do the house rules, which all concern drops.
pub fn covers(rules: &Rules) -> bool {
    rules.losers_win
        && rules.must_capture
        && rules.promote_to_king
        && !rules.royal_king
        && !rules.drops
        && !rules.king_duty
}

/// The engine's built-in tables (every position of up to [`MAX_PIECES`]
/// pieces), built on first use, about a quarter of a second.
pub fn builtin() -> Arc<Tables> {
    static TABLES: once_cell::sync::Lazy<Arc<Tables>> =
        once_cell::sync::Lazy::new(|| Arc::new(Tables::build(crate::rules::ANTICHESS, MAX_PIECES)));
    TABLES.clone()
}

/// File format of [`Tables::to_bytes`]: magic, then little-endian u32s.
const MAGIC: &[u8; 8] = b"RUKAVEG1";

/// FNV-1a, 64 bits.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Tables {
    /// The tables as a file: `RUKAVEG1`, the largest piece count (u32),
    /// the number of tables (u32), per table its signature (12 bytes:
    /// White's then Black's pawns to kings) and its codes (one byte per
    /// index, `2 * 64^n` of them), then an FNV-1a checksum (u64) of all
    /// that precedes it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(self.max_pieces as u32).to_le_bytes());
        out.extend_from_slice(&(self.tables.len() as u32).to_le_bytes());
        let mut sigs: Vec<&Signature> = self.tables.keys().collect();
        sigs.sort();
        for sig in sigs {
            out.extend_from_slice(sig);
            out.extend_from_slice(&self.tables[sig].codes);
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads tables written by [`Tables::to_bytes`] (antichess rules).
    /// Refuses a file that is not one, is cut short, fails its checksum,
    /// or lacks a table that a capture or promotion from another leads to.
    pub fn from_bytes(bytes: &[u8]) -> Result<Tables, TablesError> {
        if bytes.len() < 24 || &bytes[..8] != MAGIC {
            return Err(TablesError::BadMagic);
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if checksum(body) != u64::from_le_bytes(sum.try_into().unwrap_or_default()) {
            return Err(TablesError::ChecksumMismatch);
        }
        let u32_at = |at: usize| {
            body.get(at..at + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        };
        let max_pieces = u32_at(8).ok_or(TablesError::Truncated)?;
        let count = u32_at(12).ok_or(TablesError::Truncated)?;
        if !(2..=4).contains(&max_pieces) {
            return Err(TablesError::PieceCount(max_pieces));
        }
        let mut tables = HashMap::new();
        let mut at = 16;
        for _ in 0..count {
            let sig: Signature = body
                .get(at..at + 12)
                .and_then(|b| b.try_into().ok())
                .ok_or(TablesError::Truncated)?;
            let n: usize = sig.iter().map(|&k| k as usize).sum();
            let (white, black) = (sig[..6].iter().sum::<u8>(), sig[6..].iter().sum::<u8>());
            if !(2..=max_pieces).contains(&n) || white == 0 || black == 0 {
                return Err(TablesError::BadSignature(sig));
            }
            let size = 2usize << (6 * n);
            let codes = body
                .get(at + 12..at + 12 + size)
                .ok_or(TablesError::Truncated)?;
            tables.insert(
                sig,
                Table {
                    codes: codes.to_vec(),
                },
            );
            at += 12 + size;
        }
        if at != body.len() {
            return Err(TablesError::TrailingBytes);
        }
        let wanted: Vec<Signature> = (2..=max_pieces).flat_map(signatures).collect();
        if let Some(missing) = wanted.iter().find(|s| !tables.contains_key(*s)) {
            return Err(TablesError::MissingTable(*missing));
        }
        Ok(Tables {
            rules: crate::rules::ANTICHESS,
            max_pieces,
            tables,
        })
    }
}

/// Loads a table file (see [`Tables::to_bytes`]).
pub fn load_file(path: &str) -> Result<Tables, TablesFileError> {
    let bytes = std::fs::read(path).map_err(|source| TablesFileError::Unreadable {
        path: path.to_string(),
        source,
    })?;
    Tables::from_bytes(&bytes).map_err(|source| TablesFileError::Invalid {
        path: path.to_string(),
        source,
    })
}

/// Why [`Tables::from_bytes`] refused a table file's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesError {
    /// The bytes do not start with the table file magic.
    BadMagic,
    /// The checksum does not match the bytes.
    ChecksumMismatch,
    /// The bytes end inside a field or a table.
    Truncated,
    /// A largest piece count outside 2 to 4.
    PieceCount(usize),
    /// A table whose signature (piece counts, White's then Black's) is
    /// not one of these tables.
    BadSignature([u8; 12]),
    /// Bytes after the last table.
    TrailingBytes,
    /// A table that a capture or promotion from another leads to is missing.
    MissingTable([u8; 12]),
}

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesError::BadMagic => write!(f, "not a Rukav endgame table file (bad magic)"),
            TablesError::ChecksumMismatch => write!(f, "checksum mismatch (file damaged)"),
            TablesError::Truncated => write!(f, "cut short"),
            TablesError::PieceCount(n) => write!(f, "{n} pieces: 2 to 4 expected"),
            TablesError::BadSignature(sig) => write!(f, "bad table signature {sig:?}"),
            TablesError::TrailingBytes => write!(f, "trailing bytes after the tables"),
            TablesError::MissingTable(sig) => write!(f, "table {sig:?} missing"),
        }
    }
}

impl std::error::Error for TablesError {}

/// Why [`load_file`] loaded no tables.
#[derive(Debug)]
pub enum TablesFileError {
    /// The file could not be read.
    Unreadable {
        /// The path as given.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file was read; its contents are no tables this engine reads.
    Invalid {
        /// The path as given.
        path: String,
        /// What is wrong with the contents.
        source: TablesError,
    },
}

impl fmt::Display for TablesFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesFileError::Unreadable { path, source } => {
                write!(f, "cannot read '{path}': {source}")
            }
            TablesFileError::Invalid { path, source } => write!(f, "'{path}': {source}"),
        }
    }
}

impl std::error::Error for TablesFileError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// Exhaustive search to `depth` plies: `1000 - d` for a win in `d`,
    /// `d - 1000` for a loss in `d`, 0 when not decided within `depth`.
    fn brute(pos: &Position, depth: u32) -> i32 {
        let moves = pos.legal_moves();
        if pos.color_bb(pos.side_to_move()).is_empty() || moves.is_empty() {
            return 1000;
        }
        if depth == 0 {
            return 0;
        }
        let mut best = -1000;
        for &m in moves.iter() {
            let mut child = *pos;
            child.make_move(m);
            let v = -brute(&child, depth - 1);
            best = best.max(v - v.signum());
        }
        best
    }

    fn as_brute(r: TableResult, depth: u32) -> i32 {
        match r {
            TableResult::Win(d) if u32::from(d) <= depth => 1000 - i32::from(d),
            TableResult::Loss(d) if u32::from(d) <= depth => i32::from(d) - 1000,
            _ => 0,
        }
    }

    /// Every position of every table: its result follows from its moves'
    /// results in one step (the definition the build settles), and the
    /// index of the position is the one it is stored at.
    #[test]
    fn every_result_follows_from_the_moves() {
        for variant in [Variant::Antichess, Variant::Giveaway] {
            let tables = Tables::build(variant.rules(), 2);
            let mut counts = [0usize; 3];
            for sig in tables.tables.keys() {
                let pieces = pieces_of(sig);
                for index in 0..2usize << (6 * pieces.len()) {
                    let Some(pos) = position_at(variant.rules(), &pieces, index) else {
                        continue;
                    };
                    assert_eq!(index_of(&pos), index);
                    let r = tables.probe(&pos).unwrap();
                    let moves = pos.legal_moves();
                    let mut win: Option<u16> = None;
                    let mut all_won = true;
                    let mut longest = 0;
                    for &m in moves.iter() {
                        let mut child = pos;
                        child.make_move(m);
                        let c = if child.color_bb(child.side_to_move()).is_empty() {
                            TableResult::Win(0)
                        } else {
                            tables.probe(&child).unwrap()
                        };
                        match c {
                            TableResult::Loss(d) => {
                                win = Some(win.map_or(d + 1, |w| w.min(d + 1)));
                                all_won = false;
                            }
                            TableResult::Win(d) => longest = longest.max(d + 1),
                            TableResult::Draw => all_won = false,
                        }
                    }
                    let expected = if moves.is_empty() {
                        TableResult::Win(0)
                    } else if let Some(d) = win {
                        TableResult::Win(d)
                    } else if all_won {
                        TableResult::Loss(longest)
                    } else {
                        TableResult::Draw
                    };
                    assert_eq!(r, expected, "{variant} {}", pos.fen());
                    counts[match r {
                        TableResult::Win(_) => 0,
                        TableResult::Loss(_) => 1,
                        TableResult::Draw => 2,
                    }] += 1;
                }
            }
            // Each kind of result occurs (the check above is not vacuous).
            assert!(counts.iter().all(|&n| n > 1000), "{counts:?}");
        }
    }

    /// The tables agree with an exhaustive search on a sample of positions
    /// of two and three pieces (a sample: the search is slow).
    #[test]
    fn tables_agree_with_exhaustive_search() {
        let rules = Variant::Antichess.rules();
        // Every two-piece table and a few three-piece ones without pawns
        // (a promotion would need the tables of the promoted piece).
        let mut sigs = signatures(2);
        let three = |white: &[PieceType], black: &[PieceType]| {
            let mut s = [0u8; 12];
            for k in white {
                s[k.index()] += 1;
            }
            for k in black {
                s[6 + k.index()] += 1;
            }
            s
        };
        use PieceType::*;
        sigs.push(three(&[Rook], &[King, Knight]));
        sigs.push(three(&[Queen, Bishop], &[King]));
        sigs.push(three(&[Knight], &[Bishop, Bishop]));
        let tables = Tables::build_signatures(rules, sigs);
        let mut decided = 0;
        let mut rng = crate::rng::Rng(7);
        let sigs: Vec<&Signature> = tables.tables.keys().collect();
        let mut tried = 0;
        let sample = if cfg!(debug_assertions) { 600 } else { 3000 };
        while tried < sample {
            let sig = sigs[rng.below(sigs.len())];
            let pieces = pieces_of(sig);
            let index = rng.below(2usize << (6 * pieces.len()));
            let Some(pos) = position_at(rules, &pieces, index) else {
                continue;
            };
            tried += 1;
            let depth = if pieces.len() == 2 { 5 } else { 3 };
            let r = tables.probe(&pos).unwrap();
            assert_eq!(
                as_brute(r, depth),
                brute(&pos, depth),
                "{}: {r:?}",
                pos.fen()
            );
            decided += usize::from(as_brute(r, depth) != 0);
        }
        assert!(decided > sample / 10, "{decided}");
    }

    /// Positions the tables do not cover are not probed.
    #[test]
    fn only_covered_positions_are_probed() {
        let rules = Variant::Antichess.rules();
        let tables = Tables::build(rules, 2);
        let probe = |fen: &str, r: Rules| tables.probe(&Position::from_fen(fen, r).unwrap());
        assert!(probe("8/8/8/8/8/8/8/R6r w - - 0 1", rules).is_some());
        assert!(probe("8/8/8/8/8/8/8/RR5r w - - 0 1", rules).is_none());
        // An en-passant capture, compulsory, takes White's last piece.
        let ep = "8/8/8/8/3pP3/8/8/8 b - e3 0 1";
        assert_eq!(probe(ep, rules), Some(TableResult::Loss(1)));
        let giveaway = Variant::Giveaway.rules();
        assert_eq!(
            probe("8/8/8/8/8/8/8/R6r w - - 0 1", giveaway),
            probe("8/8/8/8/8/8/8/R6r w - - 0 1", rules)
        );
        assert!(probe("8/8/8/8/8/8/8/R3K3 w Q - 0 1", giveaway).is_none());
        assert!(!covers(&Variant::Chess.rules()) && !covers(&Variant::Crazyhouse.rules()));
    }

    /// A table file reads back to the same tables; damaged or cut files
    /// are refused.
    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let tables = Tables::build(crate::rules::ANTICHESS, 2);
        let bytes = tables.to_bytes();
        let back = Tables::from_bytes(&bytes).unwrap();
        assert_eq!(back.max_pieces(), 2);
        assert_eq!(back.to_bytes(), bytes);
        let mut damaged = bytes.clone();
        damaged[100] ^= 1;
        assert_eq!(
            Tables::from_bytes(&damaged).err(),
            Some(TablesError::ChecksumMismatch)
        );
        assert!(Tables::from_bytes(&bytes[..bytes.len() / 2]).is_err());
        assert!(Tables::from_bytes(b"RUKAVNN1 something else entirely").is_err());
        assert!(Tables::from_bytes(&[]).is_err());
    }
}
