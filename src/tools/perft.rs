//! `rukav perft`: counts legal move sequences from the shell, one line per
//! root move (the format other engines' `divide` prints).

use super::out::{Out, ToolError};
use rukav::{Position, Variant};
use std::time::Instant;

/// Command-line arguments of `rukav perft`.
#[derive(clap::Args, Debug, Clone)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Variant.
    #[arg(long, default_value = "chess", value_parser = super::variant_parser())]
    pub variant: Variant,
    /// Position (default: the variant's start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Threads that split the root moves.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// House rule as NAME=VALUE (the UCI option names of uci-protocol.md), repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// `rukav perft`: prints the counts per root move, the total and the speed.
pub fn main(args: PerftArgs) -> Result<(), ToolError> {
    let mut rules = args.variant.rules();
    for opt in &args.options {
        let (name, value) = opt
            .split_once('=')
            .ok_or_else(|| format!("option '{opt}' is not NAME=VALUE"))?;
        rukav::protocol::options::apply_rules_option(&mut rules, name, value)
            .map_err(|e| e.to_string())?;
    }
    let pos = match &args.fen {
        Some(f) => Position::from_fen(f, rules).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::start_with(rules),
    };
    let start = Instant::now();
    let counts = rukav::perft::divide(&pos, args.depth, args.threads);
    let total: u64 = if args.depth == 0 {
        1
    } else {
        counts.iter().map(|c| c.1).sum()
    };
    let secs = start.elapsed().as_secs_f64();
    let mut out = Out::lock();
    for (m, n) in &counts {
        writeln!(out, "{}: {n}", pos.uci_move(*m))?;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(
        out,
        "Time: {:.3} s, {:.0} nodes per second",
        secs,
        total as f64 / secs.max(1e-9)
    )
}
