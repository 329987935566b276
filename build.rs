//! Build script: `EVALFILE=<path>` embeds that network instead of the
//! default one (OpenBench's `make EVALFILE=...`). Writes nothing into the
//! source tree.

fn main() {
    println!("cargo::rerun-if-env-changed=EVALFILE");
    println!("cargo::rustc-check-cfg=cfg(rukav_evalfile)");
    let Some(path) = std::env::var_os("EVALFILE").filter(|p| !p.is_empty()) else {
        return;
    };
    let path = std::path::PathBuf::from(path);
    let abs = match std::fs::canonicalize(&path) {
        Ok(p) => p,
        Err(e) => {
            println!("cargo::error=EVALFILE {}: {e}", path.display());
            return;
        }
    };
    let name = abs
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    println!("cargo::rerun-if-changed={}", abs.display());
    println!("cargo::rustc-env=RUKAV_EVALFILE={}", abs.display());
    println!("cargo::rustc-env=RUKAV_EVALFILE_NAME={name}");
    println!("cargo::rustc-cfg=rukav_evalfile");
}
