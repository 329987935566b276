//! The settings of a data-generation run, the simulated clocks of bughouse
//! games, and the engine's judgement of an opening.

use rukav::engine::Engine;
use rukav::search::Limits;
use rukav::{Position, Rules};

/// Settings of a data-generation run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Rules to play.
    pub rules: Rules,
    /// Index of the first game to play (a resumed run starts where the last
    /// one stopped; a slice of a larger run starts at its first game).
    pub first_game: u64,
    /// End of the games to play: indices `first_game .. games` are played.
    pub games: u64,
    /// Node budget per move.
    pub nodes: u64,
    /// Worker threads (one game each at a time).
    pub threads: usize,
    /// Opening FENs to start from (empty: the start position).
    pub openings: Vec<String>,
    /// Random plies played before the engine takes over (one more in half
    /// of the games).
    pub random_plies: u32,
    /// Openings the engine judges beyond this many centipawns for either
    /// side after the random plies (a search of `opening_nodes` nodes) are
    /// drawn again; `None` keeps every opening.
    pub opening_limit: Option<i32>,
    /// Nodes of the search that judges an opening (default
    /// [`OPENING_CHECK_NODES`]).
    pub opening_nodes: u64,
    /// Seed of the random openings.
    pub seed: u64,
    /// Simulated clocks of two-board (bughouse) games; unused otherwise.
    pub sim: SimClock,
    /// What the run writes for each game.
    pub format: DataFormat,
}

/// What a data-generation run writes for each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DataFormat {
    /// Its training records, 64 bytes each ([`crate::tools::record`]).
    Records,
    /// Its compact game log ([`crate::tools::gamelog`]), from which
    /// `rukav unpack` rebuilds the same records.
    Games,
}

/// The simulated time of a two-board game ([`bughouse`]): every seat's
/// clock and what a move costs on it. Simulated, so that a game is the same
/// whatever the machine's speed and load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimClock {
    /// Starting time of every seat's clock (simulated ms).
    pub base_ms: u64,
    /// Added to the mover's clock after each move (simulated ms).
    pub inc_ms: u64,
    /// Simulated thinking time of a search that uses the whole node budget,
    /// before the random factor (0.5 to 1.5) of each move.
    pub move_ms: u64,
}

impl Default for SimClock {
    /// 30 s + 1 s per move, 1 s per full search: a seat that keeps moving
    /// keeps about its base time, a seat that waits for a piece loses on
    /// time after about 30 moves of the other board.
    fn default() -> SimClock {
        SimClock {
            base_ms: 30_000,
            inc_ms: 1_000,
            move_ms: 1_000,
        }
    }
}

/// Nodes of the search that judges a random opening
/// ([`DatagenConfig::opening_limit`]) unless `--opening-nodes` says otherwise.
pub const OPENING_CHECK_NODES: u64 = 20_000;
/// Tries to draw an opening within the limit before a game is given up
/// (it then writes no positions, and the run stays reproducible).
pub(super) const OPENING_TRIES: u32 = 32;

/// The engine's judgement of an opening: the score of a fresh search of
/// `nodes` nodes (side to move's view).
pub(super) fn opening_score(engine: &mut Engine, pos: Position, nodes: u64) -> i32 {
    engine.new_game();
    engine.set_position(pos, Vec::new());
    let limits = Limits {
        nodes: Some(nodes),
        multipv: 1,
        ..Limits::default()
    };
    engine.search_sync(limits, &|_| {}).score
}
