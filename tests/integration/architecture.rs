//! The layout rules, checked by `scripts/architecture.py`: no import cycle
//! among the files of `src/`, the layer order that `src/lib.rs` states, no
//! function in `src/` over 200 lines, no file over 700 lines before its tests.

use std::process::Command;

#[test]
fn layout_rules_hold() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{root}/scripts/architecture.py"))
        .arg(format!("{root}/src"))
        .output()
        .expect("python3 runs scripts/architecture.py");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
