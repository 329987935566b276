//! `rukav tables`: builds the antichess and giveaway endgame tables of up
//! to N pieces and writes them to a file for the `AntichessTables` option.

use rukav::endgames::{load_file, Tables};
use std::path::PathBuf;
use std::time::Instant;

/// Command-line arguments of `rukav tables`.
#[derive(clap::Args, Debug, Clone)]
pub struct TablesArgs {
    /// Largest number of pieces (both sides together): 2 or 3 (the
    /// engine has every table of up to 3 built in).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..=3))]
    pub pieces: u32,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
    /// Write the file compressed (zlib), as the engine embeds its tables;
    /// `AntichessTables` reads both forms.
    #[arg(long)]
    pub compress: bool,
}

/// Builds the tables, writes them, and reads the file back as a check.
pub fn main(args: TablesArgs) -> Result<(), String> {
    let start = Instant::now();
    let tables = Tables::build(rukav::rules::ANTICHESS, args.pieces as usize);
    let bytes = if args.compress {
        tables.to_compressed_bytes()
    } else {
        tables.to_bytes()
    };
    let out = args.out.to_string_lossy().into_owned();
    std::fs::write(&args.out, &bytes).map_err(|e| format!("cannot write '{out}': {e}"))?;
    load_file(&out).map_err(|e| e.to_string())?;
    eprintln!(
        "rukav tables: {tables:?}, {} bytes written to {out} in {:.1} s",
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
