//! The networks shipped in the binary (`nets/`), parsed once.

use super::network::Network;
use crate::rules::Variant;
use std::sync::Arc;

/// Whether `Use NNUE` is on by default (set by measurement; nets/README.md).
pub const USE_NNUE_DEFAULT: bool = true;

/// The networks shipped in the binary (see `nets/README.md`): file name
/// and contents; for each variant the first one that serves it evaluates.
/// A build with `EVALFILE` puts that network first.
static EMBEDDED_FILES: &[(&str, &[u8])] = &[
    #[cfg(rukav_evalfile)]
    (
        env!("RUKAV_EVALFILE_NAME"),
        include_bytes!(env!("RUKAV_EVALFILE")),
    ),
    (
        "rukav-zh-1b831f8ffad7.nnue",
        include_bytes!("../../../nets/rukav-zh-1b831f8ffad7.nnue"),
    ),
    (
        "rukav-bug-d4a20cde1fda.nnue",
        include_bytes!("../../../nets/rukav-bug-d4a20cde1fda.nnue"),
    ),
    (
        "rukav-anti-62febfca8d24.nnue",
        include_bytes!("../../../nets/rukav-anti-62febfca8d24.nnue"),
    ),
];

/// The name of the first embedded network (the default of `EvalFile`).
pub const DEFAULT_NET_NAME: &str = EMBEDDED_FILES[0].0;

/// The embedded networks, parsed once: (file name, network).
pub fn embedded() -> &'static [(&'static str, Arc<Network>)] {
    static NETS: once_cell::sync::Lazy<Vec<(&'static str, Arc<Network>)>> =
        once_cell::sync::Lazy::new(|| {
            EMBEDDED_FILES
                .iter()
                .filter_map(|(name, bytes)| {
                    Network::from_bytes(bytes)
                        .ok()
                        .map(|n| (*name, Arc::new(n)))
                })
                .collect()
        });
    &NETS
}

/// The embedded network that evaluates `variant`, with its file name.
pub fn embedded_for(variant: Variant) -> Option<(&'static str, Arc<Network>)> {
    embedded()
        .iter()
        .find(|(_, n)| n.serves(variant))
        .map(|(name, n)| (*name, n.clone()))
}

/// The first embedded network (the one `EvalFile` names by default).
pub fn default_network() -> Option<Arc<Network>> {
    embedded().first().map(|(_, n)| n.clone())
}
