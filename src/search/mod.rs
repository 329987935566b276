//! Parallel alpha-beta search (Lazy SMP), one concern per file. This file
//! only declares the modules and names what callers see; no file of the
//! search imports it.
//!
//! | file | what |
//! |---|---|
//! | [`limits`] | what a search is asked to do |
//! | [`report`] | what it tells its caller: iterations, the current root move, the result |
//! | [`score`] | mate scores, window bounds, the deepest ply |
//! | [`shared`] | the state shared by the threads of one search |
//! | [`smp`] | the threads of a search and whose result counts |
//! | [`iterate`] | iterative deepening, aspiration windows, MultiPV, reports |
//! | [`alphabeta`] | the PVS search with its pruning, reductions and extensions |
//! | [`qsearch`] | quiescence |
//! | [`movepick`] | the move picker: ordering bands, moves in band order |
//! | [`history`] | the history, counter-move and correction tables |
//! | [`stack`] | the search stack: one entry per ply |
//! | [`checks`] | telling quiet checks before making them |
//! | [`see`] | static exchange evaluation |
//! | [`timeman`] | time limits from the clock |
//! | [`params`] | every tuning constant, with its range |
//! | [`strength`] | the strength levels (`Skill Level`, `UCI_Elo`) and the weakened move choice |
//! | [`worker`] | the state of one search thread |
//! | [`tt`] | the shared transposition table |
//! | [`pns`] | the proof-number solver for antichess, giveaway and suicide (df-pn) |
//! | `tablebase` | the Syzygy tables at the root and in the search |

//!
//! The search never prints: it reports typed results through a callback.

mod alphabeta;
mod checks;
pub mod evaluation;
mod history;
mod iterate;
pub mod limits;
mod movepick;
pub mod params;
pub mod pns;
mod qsearch;
pub mod report;
pub mod score;
pub mod see;
pub mod shared;
mod smp;
mod stack;
pub mod strength;
mod tablebase;
pub mod timeman;
pub mod tt;
mod worker;

pub use evaluation::{EvalTrace, Evaluator};
pub use limits::{Limits, SearchSetup};
pub use report::{Info, Report, Reporter, SearchResult, CURRMOVE_AFTER};
pub use score::{Score, INF, MATE, MATE_BOUND, MAX_PLY, TB_WIN, TB_WIN_BOUND};
pub use see::see;
pub use shared::{RootProgress, Shared, ThreadHistories};
pub use smp::search;
pub use tt::{Bound, TranspositionTable};
pub use worker::Worker;
