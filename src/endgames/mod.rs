//! Antichess and giveaway endgame tables: the exact result and distance
//! (plies to the end of the game with best play: the winner hurries, the
//! loser delays) of every position with few pieces, built in memory by
//! retrograde analysis with the engine's own move generator and rules, so
//! that the tables agree with the search on what a legal move and a won
//! game are, house rules included.
//!
//! A table covers one material signature (how many pieces of each colour
//! and kind) with both sides on the board. Of a signature and its colour
//! swap only one table is kept (the other's positions are looked up with
//! the colours swapped and the board upside down), and each position is
//! stored once for all its images under the board's symmetries (eight
//! without pawns, the left-right mirror with pawns): the index is the side
//! to move, the square of the first piece among the ten (no pawns) or 32
//! (files a to d) it can be mapped to, and the squares of the others, in a
//! fixed order (White before Black, pawn to king, ascending squares among
//! equal pieces); of the images, the one with the smallest squares in that
//! order is the stored one. Tables are built in order of piece count and,
//! within a count, of pawns, so that a capture (fewer pieces) or a
//! promotion (one pawn fewer) always leads to a table already built.
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
