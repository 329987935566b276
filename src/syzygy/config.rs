//! [`ProbeConfig`]: the options that say when the search probes.

/// How the search uses the tables: the UCI options `SyzygyProbeDepth`,
/// `SyzygyProbeLimit` and `Syzygy50MoveRule`, with Stockfish's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeConfig {
    /// Probe positions with exactly [`ProbeConfig::probe_limit`] pieces
    /// only at this remaining depth or deeper (fewer pieces: at any depth).
    pub probe_depth: i32,
    /// Probe positions of at most this many pieces (0: never).
    pub probe_limit: u32,
    /// Cursed wins and blessed losses count as draws (the 50-move rule).
    pub rule50: bool,
}

impl Default for ProbeConfig {
    fn default() -> Self {
        ProbeConfig {
            probe_depth: 1,
            probe_limit: 7,
            rule50: true,
        }
    }
}
