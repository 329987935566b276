//! `rukav spsa-params`: every tuning parameter (search, evaluation weights,
//! bughouse brain) as SPSA input, one per line
//! (OpenBench's format; `scripts/spsa.py` reads it).

use super::out::{Out, ToolError};

/// `rukav spsa-params`: prints `name, int, default, min, max, step, 0.002`
/// for every parameter.
pub fn main() -> Result<(), ToolError> {
    let mut out = Out::lock();
    for line in rukav::engine::tuning::spsa_lines() {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
