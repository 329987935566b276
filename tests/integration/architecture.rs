//! The layout rules of issue 34, checked by `scripts/architecture.py`: no
//! import cycle among the files of `src/`, no function in `src/search/`
//! over 200 lines.

use std::process::Command;

#[test]
fn no_import_cycle_and_no_long_search_function() {
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
