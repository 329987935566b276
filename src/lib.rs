//! Rukav: a chess engine for crazyhouse, bughouse, antichess, giveaway, suicide,
//! King's chess and chess.
//!
//! Layers, each depending only on those before it (checked by
//! `scripts/architecture.py`; `tools` is the binary's):
//! `types -> rng -> attacks -> rules -> position -> perft -> data_file -> eval -> endgames -> syzygy -> bughouse -> search -> wdl -> engine -> bench -> protocol -> tools`.

pub mod attacks;
pub mod bench;
pub mod bughouse;
pub mod data_file;
pub mod endgames;
pub mod engine;
pub mod eval;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod search;
pub mod syzygy;
pub mod types;
pub mod wdl;

pub use position::movegen::{MoveList, MoveSink};
pub use position::outcome::{EndReason, Outcome};
pub use position::{FenError, Position};
pub use rules::{Rules, Variant};
pub use types::{Bitboard, Color, Move, MoveKind, Piece, PieceType, Square};
