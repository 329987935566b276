//! The position: bitboards, mailbox, pockets, promoted flags, state, Zobrist
//! key ([`board`]). Beside it: castling ([`castling`]), FEN in and out
//! ([`fen`]), making moves ([`make`], copy-make: callers keep the parent),
//! legal moves ([`movegen`]), game ends ([`outcome`]), UCI and SAN move text
//! ([`notation`]), the keys ([`zobrist`]). This file only declares the
//! modules and names what callers see; no file of `position/` imports it.

pub mod board;
mod castling;
pub mod fen;
mod make;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod zobrist;

pub use board::{BoardEditError, PocketError, Position, START_FEN};
pub use castling::{
    chess960_back_rank, chess960_fen, CastleSetup, BLACK_OO, BLACK_OOO, WHITE_OO, WHITE_OOO,
};
pub use fen::{placement_fen, FenError};
pub use make::Delta;
pub use notation::MoveParseError;
