//! The integration tests, one module per concern, in one test crate. Each
//! test crate links the whole engine (with the release profile's LTO), so
//! two crates instead of twenty save most of the test build; the other is
//! `tests/untrusted_numbers.rs`, which CI also runs in a debug build.

#[path = "../common/mod.rs"]
mod common;

mod architecture;
mod bestmove_once;
mod broken_pipe;
mod bughouse_model;
mod chess960;
mod datagen;
mod differential;
mod house_rules;
mod nnue;
mod partner_tells;
mod perft_suites;
mod playouts;
mod pns;
mod protocol_bughouse;
mod pv_legality;
mod python_chess;
mod robustness;
mod search;
mod suicide;
mod syzygy;
mod uci_features;
mod uci_session;
mod xboard_analysis;
