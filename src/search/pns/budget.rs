//! What one call of the solver may spend, what it is asked to prove, and
//! the solver's size constants.

use std::time::Duration;

/// "Infinite" proof or disproof number: the node is resolved.
pub(super) const INF: u32 = 1 << 30;
/// No dependency on a repeated ancestor.
pub(super) const NO_TAINT: u32 = u32::MAX;
/// The longest chain of forced moves followed as one edge.
pub const MAX_CHAIN: u16 = 64;
/// The deepest path (plies from the root) the solver goes; deeper
/// positions count as unproven.
pub const MAX_DEPTH: usize = 600;
/// Table entries per bucket.
pub(super) const BUCKET: usize = 4;
/// Nodes between two looks at the stop flag, the clock and the budget.
pub(super) const CHECK_EVERY: u64 = 1024;
/// The first node share of each search; doubled every round.
pub(super) const FIRST_SHARE: u64 = 4096;

/// What the solver is asked to prove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Target {
    /// Both: that the side to move wins, and that it loses.
    #[default]
    Both,
    /// Only that the side to move wins.
    Win,
    /// Only that the side to move loses.
    Loss,
}

/// The limits of one call to [`prove`].
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Most positions to visit (both searches together).
    pub nodes: u64,
    /// Most time to spend.
    pub time: Option<Duration>,
    /// Upper bound of the table's memory in MB (the table is smaller when
    /// the node budget cannot fill it).
    pub memory_mb: usize,
    /// What to prove.
    pub target: Target,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            nodes: 1_000_000,
            time: None,
            memory_mb: 16,
            target: Target::Both,
        }
    }
}
