//! `rukav bench`: the bench positions searched to a fixed depth, one line
//! per position; the last line is `N nodes M nps`.

use super::out::{Out, ToolError};

/// `rukav bench [DEPTH]`. Once stdout is closed the lines are no longer
/// written (the bench runs to its end, then the tool ends quietly).
pub fn main(depth: i32) -> Result<(), ToolError> {
    let mut out = Out::lock();
    let mut failed = None;
    let r = rukav::bench::run(depth.clamp(1, 30), 16, &mut |l| {
        if failed.is_none() {
            failed = writeln!(out, "{l}").err();
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    writeln!(out, "{} nodes {} nps", r.nodes, r.nps)
}
