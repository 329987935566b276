//! Antichess and giveaway endgame tables: the exact result and distance
//! (plies to the end of the game with best play: the winner hurries, the
//! loser delays) of every position with few pieces, built in memory by
//! retrograde analysis with the engine's own move generator and rules, so
//! that the tables agree with the search on what a legal move and a won
//! game are, house rules included.
//!
//! A table covers one material signature (how many pieces of each colour
//! and kind) with both sides on the board; the index of a position is the
//! side to move and the squares of its pieces in a fixed order (White
//! before Black, pawn to king, ascending squares among equal pieces, the
//! only order that is kept, so each position has one index). Tables are
//! built in order of piece count and, within a count, of pawns, so that a
//! capture (fewer pieces) or a promotion (one pawn fewer) always leads to a
//! table already built.
//!
//! The build, for one table: every position is made and its legal moves
//! tried once; a move into another table or to the end of the game gives a
//! known result, a move within the table gives an edge. Then the positions
//! are settled in order of distance (a bucket queue): a position is won in
//! `d + 1` when some move reaches a position lost for the opponent in `d`,
//! lost in `1 + ` the largest distance when every move reaches a position
//! the opponent wins; what is never settled is a draw (neither side can
//! force the end). The 50-move rule is not modelled.
//!
//! | file | what |
//! |---|---|
//! | [`encoding`] | signatures, indices, result codes |
//! | [`tables`] | probing, lines to the end, the built-in set |
//! | [`build`] | the retrograde build |
//! | [`file`] | the table file |

mod build;
pub mod encoding;
pub mod file;
pub mod tables;
#[cfg(test)]
mod tests;

pub use encoding::TableResult;
pub use file::{load_file, TablesError, TablesFileError};
pub use tables::{builtin, covers, Tables, MAX_PIECES};
