//! The df-pn solver itself: proof and disproof numbers, the table of
//! positions, and the depth-first search with its thresholds (see the
//! module documentation of [`super`]).

use super::budget::{Budget, BUCKET, CHECK_EVERY, INF, MAX_CHAIN, MAX_DEPTH, NO_TAINT};
use crate::position::outcome::SideResult;
use crate::position::Position;
use crate::types::{Color, Move};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
// ------------------------------------------------------------------ values

/// Proof and disproof numbers of a node for the current attacker, the
/// length of its proof (when proved) and, for a disproof, the path index of
/// the repeated ancestor it depends on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Val {
    pub(super) pn: u32,
    pub(super) dn: u32,
    pub(super) len: u32,
    taint: u32,
}

impl Val {
    const PROVED: Val = Val {
        pn: 0,
        dn: INF,
        len: 0,
        taint: NO_TAINT,
    };
    const fn disproved(taint: u32) -> Val {
        Val {
            pn: INF,
            dn: 0,
            len: 0,
            taint,
        }
    }
    const fn open(pn: u32, dn: u32) -> Val {
        Val {
            pn,
            dn,
            len: 0,
            taint: NO_TAINT,
        }
    }
}

/// Saturating sum of proof numbers: `INF` stays `INF`, other sums stop
/// below it.
pub(super) fn add(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(INF - 1)
    }
}

/// What a position is, before the search looks at it.
pub(super) enum Class {
    /// The side to move has won (no pieces, or no legal move where the
    /// stalemate rule gives it the game).
    Won,
    /// The side to move has lost (suicide: no legal move and more pieces
    /// than the opponent).
    Lost,
    /// Drawn by the 50-move rule, or (suicide) by a stalemate with as many
    /// pieces on both sides.
    Draw,
    /// Play goes on: the number of legal moves, and the move when there is
    /// only one.
    Moves(u32, Move),
}

/// Ends of an antichess/giveaway/suicide game by the rules (as
/// [`Position::outcome`]) and the 50-move rule (as the alpha-beta search);
/// an end by the rules comes first.
#[inline(never)]
pub(super) fn classify(q: &Position) -> Class {
    if q.color_bb(q.side_to_move()).is_empty() {
        return Class::Won;
    }
    let n = q.count_legal();
    if n == 0 {
        return match q.stalemate_result() {
            SideResult::Win => Class::Won,
            SideResult::Draw => Class::Draw,
            SideResult::Loss => Class::Lost,
        };
    }
    if q.rules().fifty_move_rule && q.halfmove_clock() >= 100 {
        return Class::Draw;
    }
    let only = if n == 1 {
        q.legal_moves().first().copied().unwrap_or(Move::NULL)
    } else {
        Move::NULL
    };
    Class::Moves(n.min(INF as usize - 1) as u32, only)
}

// ------------------------------------------------------------------ table

/// One table entry (32 bytes).
#[derive(Clone, Copy, Default)]
struct Entry {
    /// Salted key; 0 marks an empty slot.
    key: u64,
    /// The repeated ancestor a disproof depends on (with `TAINTED`).
    taint_key: u64,
    pn: u32,
    dn: u32,
    /// Nodes spent below this entry (saturating): the replacement priority.
    work: u32,
    /// Proof length in plies (proved entries).
    len: u16,
    /// Half-move clock at which the entry was resolved.
    clock: u8,
    flags: u8,
}

const TAINTED: u8 = 1;

pub(super) struct Table {
    entries: Vec<Entry>,
    buckets: usize,
}

impl Table {
    /// A table of at most `mb` MB, and not much larger than `nodes` entries.
    fn new(mb: usize, nodes: u64) -> Table {
        let bytes = mb.clamp(1, 1 << 20).saturating_mul(1 << 20);
        let by_memory = (bytes / std::mem::size_of::<Entry>() / BUCKET).max(1);
        let by_nodes = usize::try_from(nodes / BUCKET as u64 + 1).unwrap_or(usize::MAX);
        let wanted = by_memory.min(by_nodes.max(1024));
        // A power of two, not above the memory bound.
        let mut buckets = 1usize;
        while buckets * 2 <= wanted {
            buckets *= 2;
        }
        // Smaller when the memory cannot be had (never aborts).
        let mut entries = Vec::new();
        while entries.try_reserve_exact(buckets * BUCKET).is_err() && buckets > 1 {
            buckets /= 2;
        }
        entries.resize(buckets * BUCKET, Entry::default());
        Table { entries, buckets }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 32) as usize & (self.buckets - 1)) * BUCKET
    }

    #[inline]
    fn get(&self, key: u64) -> Option<&Entry> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET].iter().find(|e| e.key == key)
    }

    fn put(&mut self, new: Entry) {
        let b = self.bucket(new.key);
        let slots = &mut self.entries[b..b + BUCKET];
        let priority = |e: &Entry| -> u64 {
            let class = if e.key == 0 {
                0
            } else if e.pn == 0 {
                3
            } else if e.dn == 0 {
                2
            } else {
                1
            };
            (class << 32) | u64::from(e.work)
        };
        let slot = match slots.iter().position(|e| e.key == new.key) {
            Some(i) => i,
            None => {
                let mut i = 0;
                for j in 1..BUCKET {
                    if priority(&slots[j]) < priority(&slots[i]) {
                        i = j;
                    }
                }
                i
            }
        };
        slots[slot] = new;
    }

    pub(super) fn hashfull(&self) -> usize {
        let n = self.entries.len().min(1000);
        if n == 0 {
            return 0;
        }
        self.entries[..n].iter().filter(|e| e.key != 0).count() * 1000 / n
    }
}

// ------------------------------------------------------------------ search

/// A move of a node being expanded, with the forced moves that follow it.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    /// Forced single moves after `mv` up to the position this child stands for.
    chain: u16,
    /// Unsalted key of that position.
    key: u64,
    /// Its half-move clock.
    clock: u8,
    val: Val,
    /// Terminal, repeated or too deep: the value never changes.
    fixed: bool,
}

pub(super) struct Solver<'a> {
    pub(super) table: Table,
    /// Keys of the game's positions since the last irreversible move, then
    /// the search path (chains included), the current node last.
    path: Vec<u64>,
    /// Index of the root in `path`.
    root_index: usize,
    attacker: Color,
    salt: u64,
    pub(super) nodes: u64,
    /// End of the current search's share.
    share_limit: u64,
    total_limit: u64,
    next_check: u64,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    /// The share, the budget, the clock or the stop flag ended the search.
    aborted: bool,
    /// The budget, the clock or the stop flag ended everything.
    exhausted: bool,
}

/// Salts of the two attackers' keys (one table serves both searches).
const SALT: [u64; 2] = [0x2545_F491_4F6C_DD1D, 0x9E6C_63D0_676A_9A99];

impl<'a> Solver<'a> {
    pub(super) fn new(
        pos: &Position,
        history: &[u64],
        budget: &Budget,
        stop: Option<&'a AtomicBool>,
        start: Instant,
    ) -> Solver<'a> {
        let window = (pos.halfmove_clock() as usize).min(MAX_DEPTH);
        let mut path: Vec<u64> = match history.split_last() {
            Some((&last, before)) if last == pos.key() => {
                let from = before.len().saturating_sub(window);
                before[from..].to_vec()
            }
            _ => Vec::new(),
        };
        let root_index = path.len();
        path.push(pos.key());
        Solver {
            table: Table::new(budget.memory_mb, budget.nodes),
            path,
            root_index,
            attacker: pos.side_to_move(),
            salt: SALT[0],
            nodes: 0,
            share_limit: 0,
            total_limit: budget.nodes,
            next_check: 0,
            deadline: budget.time.and_then(|t| start.checked_add(t)),
            stop,
            aborted: false,
            exhausted: false,
        }
    }

    pub(super) fn out_of_budget(&self) -> bool {
        self.exhausted
    }

    fn set_attacker(&mut self, attacker: Color) {
        self.attacker = attacker;
        self.salt = SALT[attacker.index()];
    }

    /// Runs the search for `attacker` from the root for about `share` more
    /// nodes; returns the root's value.
    pub(super) fn run_root(&mut self, root: &Position, attacker: Color, share: u64) -> Val {
        self.set_attacker(attacker);
        self.aborted = false;
        self.share_limit = self.nodes.saturating_add(share).min(self.total_limit);
        self.next_check = self.nodes;
        self.check();
        if self.aborted {
            return Val::open(1, 1);
        }
        self.path.truncate(self.root_index + 1);
        self.mid(root, self.root_index, INF - 1, INF - 1)
    }

    #[inline]
    fn count(&mut self, n: u64) {
        self.nodes += n;
        if self.nodes >= self.next_check {
            self.check();
        }
    }

    fn check(&mut self) {
        self.next_check = self.nodes + CHECK_EVERY;
        let stopped = self.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        if stopped || late || self.nodes >= self.total_limit {
            self.exhausted = true;
            self.aborted = true;
        }
        if self.nodes >= self.share_limit {
            self.aborted = true;
        }
    }

    /// The path index of an earlier occurrence of the position `key` (the
    /// next one on the path), if it repeats one since the last irreversible
    /// move.
    fn repeated(&self, key: u64, halfmove: u32) -> Option<usize> {
        let n = self.path.len();
        let lowest = n.saturating_sub(halfmove as usize);
        let mut j = n.checked_sub(2)?;
        loop {
            if j < lowest {
                return None;
            }
            if self.path[j] == key {
                return Some(j);
            }
            j = j.checked_sub(2)?;
        }
    }

    /// The value of the position `key` (unsalted) with half-move clock
    /// `clock` from the table, when it holds a usable one.
    fn probe(&self, key: u64, clock: u8) -> Option<Val> {
        let e = self.table.get(key ^ self.salt)?;
        if e.pn == 0 {
            return (clock <= e.clock).then_some(Val {
                len: u32::from(e.len),
                ..Val::PROVED
            });
        }
        if e.dn == 0 {
            if e.flags & TAINTED == 0 {
                return (clock >= e.clock).then_some(Val::disproved(NO_TAINT));
            }
            // Believed only while the repeated ancestor is on the path.
            let at = self.path.iter().rposition(|&k| k == e.taint_key)?;
            return (clock >= e.clock).then_some(Val::disproved(at as u32));
        }
        Some(Val::open(e.pn, e.dn))
    }

    fn store(&mut self, key: u64, clock: u8, v: Val, work: u64) {
        let salted = key ^ self.salt;
        let old_work = self.table.get(salted).map_or(0, |e| e.work);
        let tainted = v.dn == 0 && v.taint != NO_TAINT;
        let taint_key = if tainted {
            self.path.get(v.taint as usize).copied().unwrap_or(0)
        } else {
            0
        };
        self.table.put(Entry {
            key: salted,
            taint_key,
            pn: v.pn,
            dn: v.dn,
            work: old_work.saturating_add(u32::try_from(work).unwrap_or(u32::MAX)),
            len: v.len.min(u32::from(u16::MAX)) as u16,
            clock,
            flags: if tainted { TAINTED } else { 0 },
        });
    }

    /// The initial value of a position where `side` moves with `moves`
    /// legal moves (mobility: the fewer the defender's moves, the closer
    /// the proof).
    fn initial(&self, side: Color, moves: u32) -> Val {
        if side == self.attacker {
            Val::open(1, moves)
        } else {
            Val::open(moves, 1)
        }
    }

    /// The child reached by `m` from `pos` (the current node, last on the
    /// path), followed through forced single moves.
    #[inline(never)]
    fn child(&mut self, pos: &Position, m: Move) -> Child {
        let base = self.path.len();
        let mut q = *pos;
        q.make_move(m);
        self.count(1);
        let mut chain = 0u16;
        let (val, fixed) = loop {
            match classify(&q) {
                Class::Won => {
                    break if q.side_to_move() == self.attacker {
                        (Val::PROVED, true)
                    } else {
                        (Val::disproved(NO_TAINT), true)
                    };
                }
                Class::Lost => {
                    break if q.side_to_move() == self.attacker {
                        (Val::disproved(NO_TAINT), true)
                    } else {
                        (Val::PROVED, true)
                    };
                }
                Class::Draw => break (Val::disproved(NO_TAINT), true),
                Class::Moves(n, only) => {
                    if let Some(at) = self.repeated(q.key(), q.halfmove_clock()) {
                        break (Val::disproved(at as u32), true);
                    }
                    if self.path.len() - self.root_index >= MAX_DEPTH {
                        // Too deep: unproven here (believed on this root's paths only).
                        break (Val::disproved(self.root_index as u32), true);
                    }
                    if n == 1 && chain < MAX_CHAIN && !only.is_null() {
                        self.path.push(q.key());
                        q.make_move(only);
                        self.count(1);
                        chain += 1;
                        continue;
                    }
                    break (self.initial(q.side_to_move(), n), false);
                }
            }
        };
        self.path.truncate(base);
        Child {
            mv: m,
            chain,
            key: q.key(),
            clock: q.halfmove_clock().min(255) as u8,
            val,
            fixed,
        }
    }

    /// Every child of `pos` (the current node).
    #[inline(never)]
    fn expand(&mut self, pos: &Position) -> Vec<Child> {
        let moves = pos.legal_moves();
        let mut children = Vec::with_capacity(moves.len());
        // Always whole: a node must never be resolved from part of its moves.
        for &m in moves.iter() {
            children.push(self.child(pos, m));
        }
        children
    }

    /// Plays `c`'s move and forced moves on `q`, pushing the keys.
    #[inline(never)]
    fn enter(&mut self, q: &mut Position, c: &Child) {
        q.make_move(c.mv);
        self.path.push(q.key());
        self.count(1);
        for _ in 0..c.chain {
            let Some(&only) = q.legal_moves().first() else {
                break;
            };
            q.make_move(only);
            self.path.push(q.key());
            self.count(1);
        }
    }

    /// Refreshes the children from the table and combines them into the
    /// node's value.
    fn combine(&self, or: bool, children: &mut [Child], index: usize) -> Val {
        for c in children.iter_mut().filter(|c| !c.fixed) {
            if let Some(v) = self.probe(c.key, c.clock) {
                c.val = v;
            }
        }
        let mut v = if or {
            Val::open(INF, 0)
        } else {
            Val::open(0, INF)
        };
        let mut len: Option<u32> = None;
        let mut taint = if or { NO_TAINT } else { 0 };
        let mut any_disproved = false;
        let mut open = 0u32;
        for c in children.iter() {
            let total = c.val.len.saturating_add(1 + u32::from(c.chain));
            if or {
                v.pn = v.pn.min(c.val.pn);
                if c.val.dn != 0 {
                    open += 1;
                    v.dn = v.dn.max(c.val.dn);
                }
                if c.val.pn == 0 {
                    len = Some(len.map_or(total, |l| l.min(total)));
                }
                taint = taint.min(c.val.taint);
            } else {
                if c.val.pn != 0 {
                    open += 1;
                    v.pn = v.pn.max(c.val.pn);
                }
                v.dn = v.dn.min(c.val.dn);
                len = Some(len.map_or(total, |l| l.max(total)));
                if c.val.dn == 0 {
                    taint = if any_disproved {
                        taint.max(c.val.taint)
                    } else {
                        c.val.taint
                    };
                    any_disproved = true;
                }
            }
        }
        // Weak proof numbers: the largest child's number plus one for each
        // other open child.
        if open > 1 {
            if or {
                v.dn = add(v.dn, open - 1);
            } else {
                v.pn = add(v.pn, open - 1);
            }
        }
        if v.pn == 0 {
            v.len = len.unwrap_or(0);
            v.dn = INF;
        }
        if v.dn == 0 {
            v.pn = INF;
            // A repetition of this node (or of a forced move after it) does
            // not help its attacker: the dependency ends here.
            v.taint = if taint != NO_TAINT && (taint as usize) < index {
                taint
            } else {
                NO_TAINT
            };
        }
        v
    }

    /// df-pn's multiple iterative deepening at `pos`, the last position on
    /// the path (index `index`), with thresholds `thpn` and `thdn`.
    fn mid(&mut self, pos: &Position, index: usize, thpn: u32, thdn: u32) -> Val {
        let first = self.nodes;
        let or = pos.side_to_move() == self.attacker;
        let mut children = self.expand(pos);
        let mut v;
        loop {
            v = self.combine(or, &mut children, index);
            if v.pn >= thpn || v.dn >= thdn || self.aborted || children.is_empty() {
                break;
            }
            // The most proving child and the second-best number.
            let number = |c: &Child| if or { c.val.pn } else { c.val.dn };
            let mut best = 0;
            let mut second = INF;
            for i in 1..children.len() {
                let n = number(&children[i]);
                if n < number(&children[best]) {
                    second = number(&children[best]);
                    best = i;
                } else if n < second {
                    second = n;
                }
            }
            let c = children[best];
            // 1+ε trick with ε = 1/4.
            let loose = second.saturating_add((second / 4).max(1)).min(INF - 1);
            // The others' share of the node's weak number.
            let rest = children
                .iter()
                .filter(|c| if or { c.val.dn != 0 } else { c.val.pn != 0 })
                .count()
                .saturating_sub(1) as u32;
            let (cpn, cdn) = if or {
                (thpn.min(loose), thdn.saturating_sub(rest))
            } else {
                (thpn.saturating_sub(rest), thdn.min(loose))
            };
            let mut q = *pos;
            self.enter(&mut q, &c);
            let r = self.mid(&q, index + 1 + usize::from(c.chain), cpn, cdn);
            self.path.truncate(index + 1);
            children[best].val = r;
        }
        let key = self.path[index];
        let clock = pos.halfmove_clock().min(255) as u8;
        self.store(key, clock, v, self.nodes - first);
        v
    }

    /// The proved line from `root` for `attacker` (after a proof): the
    /// attacker's shortest proved move, the defender's longest resistance.
    /// A part of the proof the table lost is proved again (within the
    /// budget left); the line stops where that fails.
    pub(super) fn line(&mut self, root: &Position, attacker: Color) -> Vec<Move> {
        self.set_attacker(attacker);
        self.path.truncate(self.root_index + 1);
        let mut line = Vec::new();
        let mut q = *root;
        let mut retried = false;
        while line.len() < 2 * MAX_DEPTH {
            let index = self.path.len() - 1;
            if !matches!(classify(&q), Class::Moves(..)) {
                break;
            }
            let or = q.side_to_move() == attacker;
            let mut children = self.expand(&q);
            let v = self.combine(or, &mut children, index);
            let total = |c: &Child| c.val.len.saturating_add(1 + u32::from(c.chain));
            let pick = if v.pn != 0 {
                None
            } else if or {
                children
                    .iter()
                    .filter(|c| c.val.pn == 0)
                    .min_by_key(|c| total(c))
            } else {
                children.iter().max_by_key(|c| total(c))
            };
            let Some(&c) = pick else {
                if retried || self.exhausted {
                    break;
                }
                // Prove this position again with what is left of the budget.
                retried = true;
                self.aborted = false;
                self.share_limit = self.total_limit;
                self.mid(&q, index, INF - 1, INF - 1);
                self.path.truncate(index + 1);
                continue;
            };
            retried = false;
            line.push(c.mv);
            q.make_move(c.mv);
            self.path.push(q.key());
            for _ in 0..c.chain {
                let Some(&only) = q.legal_moves().first() else {
                    break;
                };
                line.push(only);
                q.make_move(only);
                self.path.push(q.key());
            }
        }
        self.path.truncate(self.root_index + 1);
        line
    }

    /// Without a proof: the root move that looks best for the side to move
    /// `us` (the least proof number towards a win while that search is
    /// open, otherwise the hardest move to prove a loss after).
    pub(super) fn promising(
        &mut self,
        root: &Position,
        us: Color,
        open: [bool; 2],
    ) -> Option<Move> {
        self.path.truncate(self.root_index + 1);
        let attacker = if open[0] { us } else { us.flip() };
        self.set_attacker(attacker);
        let mut children = self.expand(root);
        self.combine(attacker == us, &mut children, self.root_index);
        let pick = if attacker == us {
            children
                .iter()
                .min_by_key(|c| (c.val.pn, u32::MAX - c.val.dn))
        } else {
            children
                .iter()
                .max_by_key(|c| (c.val.pn, u32::MAX - c.val.dn))
        };
        pick.map(|c| c.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_saturate_below_infinity() {
        assert_eq!(add(1, 2), 3);
        assert_eq!(add(INF - 1, INF - 1), INF - 1);
        assert_eq!(add(INF, 0), INF);
        assert_eq!(add(5, INF), INF);
    }

    /// A full bucket keeps proofs over open entries and more work over less.
    #[test]
    fn replacement_keeps_proofs_and_work() {
        let mut t = Table::new(1, 0);
        let b = t.bucket(1 << 40);
        let keys: Vec<u64> = (1..=BUCKET as u64 + 1).map(|i| (1 << 40) | i).collect();
        for (i, &key) in keys[..BUCKET].iter().enumerate() {
            t.put(Entry {
                key,
                pn: if i == 0 { 0 } else { 5 },
                dn: if i == 0 { INF } else { 5 },
                work: 10 * i as u32,
                ..Entry::default()
            });
        }
        assert_eq!(t.bucket(keys[BUCKET]), b);
        t.put(Entry {
            key: keys[BUCKET],
            pn: 3,
            dn: 3,
            work: 1,
            ..Entry::default()
        });
        // The open entry with the least work (the second) went.
        assert!(t.get(keys[0]).is_some());
        assert!(t.get(keys[1]).is_none());
        assert!(t.get(keys[BUCKET]).is_some());
    }
}
