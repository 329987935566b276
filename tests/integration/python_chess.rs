//! python-chess drives the engine as lichess-bot does
//! (`tests/python/lichess_bot_like.py`): the strength options and
//! `UCI_ShowWDL` through `engine.configure`, `engine.analyse` with
//! `INFO_ALL` (WDL, currmove), `engine.play` in crazyhouse, chess and
//! antichess. Needs python3 with python-chess (`.ci/run` installs it); the
//! test fails, saying so, when either is missing.

use std::process::Command;

#[test]
fn python_chess_drives_the_engine_like_lichess_bot() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/python/lichess_bot_like.py"
    );
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_rukav"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}); .ci/run installs it"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{script} failed ({}):\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
        out.status
    );
    assert!(stdout.contains("python-chess session ok"), "{stdout}");
}
