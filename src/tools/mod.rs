//! The developer tools behind the `rukav` command line: bughouse matches
//! (`arena`), self-play data (`datagen`) and its record format, evaluation
//! tuning (`tune`), network training (`train`), the fit of the WDL model
//! (`wdl`), perft from the shell, how a partner's tell is read (`ptell`), antichess endgame tables (`tables`), the
//! bench and the SPSA parameters. They write to stdout through `out`, and
//! end quietly when its reader has gone.
//!
//! They are part of the binary, not of the engine library: the engine knows
//! nothing of processes, files of games or command-line parsing.

pub mod arena;
pub mod bench;
pub mod bpgn;
pub mod datagen;
pub mod elo;
pub mod gamelog;
pub mod out;
pub mod perft;
pub mod progress;
pub mod ptell;
pub mod record;
pub mod spsa;
pub mod tables;
pub mod train;
pub mod tune;
pub mod wdl;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use rukav::Variant;

/// A clap parser for `--variant`: the closed list of variants, shown by `--help`.
pub fn variant_parser() -> impl TypedValueParser<Value = Variant> {
    PossibleValuesParser::new(Variant::ALL.map(Variant::name)).try_map(|s| s.parse::<Variant>())
}
