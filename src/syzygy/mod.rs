//! Syzygy endgame tablebases (UCI `SyzygyPath`), read by the
//! `shakmaty-syzygy` crate: the chess tables (`.rtbw` WDL, `.rtbz` DTZ) and
//! the antichess tables lichess publishes (`.gtbw`/`.gtbz`, and
//! `.stbw`/`.stbz` for pawnless endings), up to seven pieces.
//!
//! The tables serve chess and antichess; giveaway too where no castling
//! right is left (then its rules are antichess's: captures compulsory,
//! losing every piece or being stalemated wins). Never crazyhouse,
//! bughouse or King's chess.
//!
//! A [`Tablebases`] is loaded once, when the option is set, and shared
//! read-only (`Arc`) with the search threads. Table files are opened on
//! their first probe (a one-time cost per file); after that a probe
//! converts the position from bitboards (no FEN, no allocation), takes no
//! lock and reads the file with positioned reads.
//!
//! This module knows tables and positions, not scores: the search
//! (`search::tablebase`) turns what it returns into scores.
//!
//! | file | what |
//! |---|---|
//! | `wdl` | [`Wdl`], the value a WDL table gives |
//! | `config` | [`ProbeConfig`], when the search probes |
//! | `convert` | a [`Position`](crate::position::Position) as the crate's position type |
//! | `tables` | [`Tablebases`]: which rules they serve, the WDL and DTZ probes |
//! | `load` | [`Tablebases::load`]: the folders of `SyzygyPath` and their files |
//! | `root` | [`Tablebases::rank_root_moves`]: the root moves ranked, [`RootValue`] |
//!
//! This file only declares the parts and re-exports what the rest of the
//! engine uses (the parts import one another, never this file).

mod config;
mod convert;
mod load;
mod root;
mod tables;
mod wdl;

pub use config::ProbeConfig;
#[doc(hidden)]
pub use load::test_path;
pub use load::{Loaded, PATH_SEPARATOR};
pub use root::{RankedMove, RootRanking, RootValue};
pub use tables::{FileCounts, Tablebases};
pub use wdl::Wdl;
