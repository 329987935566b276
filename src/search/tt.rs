//! The shared transposition table: lock-free, one entry per slot stored as
//! two atomics (`key ^ data`, `data`) so that a torn write is detected as a
//! key mismatch (Hyatt's lockless hashing). The memory is asked for in
//! huge pages and first written by several threads.

use super::score::TB_WIN_BOUND;
use crate::types::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// A store does not replace an entry of the current search that is this
/// many plies deeper (unless it is exact or for the same position).
const KEEP_DEEPER_BY: i32 = 3;
/// `hashfull` looks at this many slots.
const HASHFULL_SAMPLE: usize = 1000;
/// `hashfull` is in per-mille (the UCI definition).
const PER_MILLE: usize = 1000;
/// The page size the table is aligned to (bytes).
const PAGE_BYTES: usize = 4096;

/// Bound type of a stored score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No bound (empty).
    None = 0,
    /// Score is an upper bound (fail low).
    Upper = 1,
    /// Score is a lower bound (fail high).
    Lower = 2,
    /// Exact score.
    Exact = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// Best move found (may be null).
    pub mv: Move,
    /// Score (mate scores relative to this node).
    pub score: i32,
    /// Static evaluation.
    pub eval: i32,
    /// Search depth.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

impl TtEntry {
    /// The entry's score at `ply` when its bound decides the window
    /// (`alpha`, `beta`) by itself (a table cutoff), otherwise `None`.
    #[inline(always)]
    pub fn cutoff(&self, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let s = score_from_tt(self.score, ply);
        let cut = match self.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
            Bound::None => false,
        };
        cut.then_some(s)
    }
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The table. Shared by all search threads through `&`.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    age: AtomicU64,
}

fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    (mv.0 as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth.clamp(0, 255)) as u64) << 48)
        | ((bound as u64) << 56)
        | (((age & 63) as u64) << 58)
}

#[cfg(target_os = "linux")]
extern "C" {
    /// The C library's `madvise(2)` (std links the C library on Linux).
    fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
}

/// `MADV_HUGEPAGE` of Linux's `<sys/mman.h>` (the same on every
/// architecture).
#[cfg(target_os = "linux")]
const MADV_HUGEPAGE: i32 = 14;

/// Asks the kernel to back `v`'s spare capacity with 2 MB pages: a large
/// table in 4 KB pages costs a TLB miss on nearly every probe (it searched
/// at half the speed of a small one). Nothing happens where the system has
/// no such pages.
fn advise_huge_pages<T>(v: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        let spare = v.spare_capacity_mut();
        let start = spare.as_mut_ptr() as usize;
        let end = start + std::mem::size_of_val(spare);
        let page = PAGE_BYTES;
        let aligned = (start + page - 1) & !(page - 1);
        if end > aligned {
            // SAFETY: the range lies inside this vector's own allocation
            // (its spare capacity, page-aligned inwards); madvise only gives
            // the kernel a hint about that memory and changes no contents.
            // Its result is ignored: without huge pages the table works.
            unsafe {
                madvise(
                    aligned as *mut std::ffi::c_void,
                    end - aligned,
                    MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// Bytes of memory the system can still give without swapping, where it
/// says (`MemAvailable` of Linux's /proc/meminfo).
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    meminfo_available(&text)
}

/// `MemAvailable` of a /proc/meminfo text, in bytes.
fn meminfo_available(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// Threads that write the table's memory the first time and clear it: one
/// per core, and one per 64 KB at most.
fn touch_threads(len: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.min(len / 4096 + 1).max(1)
}

/// A hash table size the machine cannot give
/// ([`TranspositionTable::try_new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashSizeError {
    /// The size asked for, in MB.
    pub mb: usize,
}

impl std::fmt::Display for HashSizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate {} MB for the hash table", self.mb)
    }
}

impl std::error::Error for HashSizeError {}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one slot). For sizes a
    /// user chooses, use [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        match TranspositionTable::try_new(mb) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `mb` megabytes, or an error when the memory cannot
    /// be had (the allocation is tried, not assumed: the process never
    /// aborts for a table larger than the machine).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, HashSizeError> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let count = (bytes / std::mem::size_of::<Slot>()).max(1);
        let refused = || HashSizeError { mb };
        // The system may promise more than it has (overcommit) and kill the
        // process when the table is written: a table larger than the memory
        // still available is refused before it is tried.
        if available_memory().is_some_and(|free| bytes as u64 > free) {
            return Err(refused());
        }
        let mut slots: Vec<Slot> = Vec::new();
        slots.try_reserve_exact(count).map_err(|_| refused())?;
        advise_huge_pages(&mut slots);
        let spare = &mut slots.spare_capacity_mut()[..count];
        let per = count.div_ceil(touch_threads(count));
        std::thread::scope(|scope| {
            for part in spare.chunks_mut(per) {
                scope.spawn(move || {
                    for s in part {
                        s.write(Slot {
                            check: AtomicU64::new(0),
                            data: AtomicU64::new(0),
                        });
                    }
                });
            }
        });
        // SAFETY: the first `count` elements were all written just above
        // (the chunks cover the whole `spare[..count]` slice).
        unsafe { slots.set_len(count) };
        Ok(TranspositionTable {
            slots,
            age: AtomicU64::new(0),
        })
    }

    /// The table's size in MB (rounded down).
    pub fn size_mb(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>() / (1024 * 1024)
    }

    /// Empties the table (several threads for a large one).
    pub fn clear(&self) {
        let per = self.slots.len().div_ceil(touch_threads(self.slots.len()));
        std::thread::scope(|scope| {
            for part in self.slots.chunks(per) {
                scope.spawn(move || {
                    for s in part {
                        s.check.store(0, Ordering::Relaxed);
                        s.data.store(0, Ordering::Relaxed);
                    }
                });
            }
        });
    }

    /// Starts a new search (entries of older searches are replaced first).
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let slot = &self.slots[self.index(key)];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data != key || data == 0 {
            return None;
        }
        let bound = match (data >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        };
        Some(TtEntry {
            mv: Move(data as u16),
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 255) as i32,
            bound,
        })
    }

    /// Stores a result; replaces entries of other positions when they are
    /// shallower or from an older search.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let slot = &self.slots[self.index(key)];
        let age = (self.age.load(Ordering::Relaxed) & 63) as u8;
        let old = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old;
        let old_depth = ((old >> 48) & 255) as i32;
        let old_age = ((old >> 58) & 63) as u8;
        let same = old_key == key;
        if !same && old_age == age && old_depth > depth + KEEP_DEEPER_BY && bound != Bound::Exact {
            return;
        }
        // Keep the old move when this store has none for the same position.
        let mv = if mv.is_null() && same {
            Move(old as u16)
        } else {
            mv
        };
        let data = pack(mv, score, eval, depth, bound, age);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Per-mille of slots used by the current search (sampled).
    pub fn hashfull(&self) -> usize {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let n = self.slots.len().min(HASHFULL_SAMPLE);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 58) & 63 == age
            })
            .count();
        used * PER_MILLE / n.max(1)
    }

    /// Hints the CPU to fetch the slot of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.slots[self.index(key)] as *const Slot as *const i8;
            // SAFETY: `p` points into the live slot vector; prefetching has no
            // observable effect besides caching.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

/// A score as the table stores it: mate and tablebase scores relative to
/// this node.
pub fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= TB_WIN_BOUND {
        s + ply as i32
    } else if s <= -TB_WIN_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// A score from the table, mate and tablebase scores made relative to the
/// root again.
pub fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= TB_WIN_BOUND {
        s - ply as i32
    } else if s <= -TB_WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{PieceType, Square};

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2000000 kB\n";
        assert_eq!(meminfo_available(text), Some(2_048_000_000));
        assert_eq!(meminfo_available("MemTotal: 5 kB\n"), None);
        assert_eq!(meminfo_available("MemAvailable: lots kB\n"), None);
    }

    #[test]
    fn a_table_larger_than_the_available_memory_is_refused() {
        let Some(free) = available_memory() else {
            return; // no /proc/meminfo here: only the allocation decides
        };
        // A gigabyte more than is free (what other processes free meanwhile
        // cannot make it fit).
        let mb = (free / (1024 * 1024)) as usize + 1024;
        let err = TranspositionTable::try_new(mb).err();
        assert_eq!(err, Some(HashSizeError { mb }));
        assert_eq!(
            HashSizeError { mb }.to_string(),
            format!("cannot allocate {mb} MB for the hash table")
        );
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = Move::drop(PieceType::Knight, Square(21));
        tt.store(0xDEAD_BEEF_1234_5678, m, -31990, 42, 17, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).unwrap();
        assert_eq!(e.mv, m);
        assert_eq!(e.score, -31990);
        assert_eq!(e.eval, 42);
        assert_eq!(e.depth, 17);
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(0x1234).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_1234_5678).is_none());
    }
}
