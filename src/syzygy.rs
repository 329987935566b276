//! Syzygy endgame tablebases (UCI `SyzygyPath`), read by the
//! `shakmaty-syzygy` crate: the chess tables (`.rtbw` WDL, `.rtbz` DTZ) and
//! the antichess tables lichess publishes (`.gtbw`/`.gtbz`, and
//! `.stbw`/`.stbz` for pawnless endings), up to seven pieces.
//!
//! The tables serve chess and antichess; giveaway too where no castling
//! right is left (then its rules are antichess's: captures compulsory,
//! losing every piece or being stalemated wins). Never crazyhouse,
//! bughouse or King's chess.
//!
//! A [`Tablebases`] is loaded once, when the option is set, and shared
//! read-only (`Arc`) with the search threads. Table files are opened on
//! their first probe (a one-time cost per file); after that a probe
//! converts the position from bitboards (no FEN, no allocation), takes no
//! lock and reads the file with positioned reads.
//!
//! This file knows tables and positions, not scores: the search
//! (`search::tablebase`) turns what it returns into scores.

use crate::position::outcome::Outcome;
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::types::{Color, Move, PieceType};
use shakmaty::variant::Antichess;
use shakmaty::{
    Bitboard as ShBitboard, Board, ByColor, ByRole, CastlingMode, Chess, FromSetup, PositionError,
    Setup,
};
use shakmaty_syzygy::{ProbeError, Syzygy, SyzygyError, Tablebase};
use std::collections::BTreeSet;
use std::fmt;
use std::io::Read;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};

/// Separates the folders of `SyzygyPath`, as Stockfish does (`;` on
/// Windows, `:` elsewhere).
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// The value of a position for its side to move, after a capture or pawn
/// move (WDL with the 50-move rule in mind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    /// Lost, also under the 50-move rule.
    Loss = -2,
    /// Lost, but the 50-move rule saves the draw.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won, but the 50-move rule spoils the win.
    CursedWin = 1,
    /// Won, also under the 50-move rule.
    Win = 2,
}

impl Wdl {
    fn from_syzygy(w: shakmaty_syzygy::Wdl) -> Wdl {
        match w {
            shakmaty_syzygy::Wdl::Loss => Wdl::Loss,
            shakmaty_syzygy::Wdl::BlessedLoss => Wdl::BlessedLoss,
            shakmaty_syzygy::Wdl::Draw => Wdl::Draw,
            shakmaty_syzygy::Wdl::CursedWin => Wdl::CursedWin,
            shakmaty_syzygy::Wdl::Win => Wdl::Win,
        }
    }

    /// The value for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// -2 (loss) ..= 2 (win).
    pub fn value(self) -> i32 {
        self as i32
    }

    /// DTZ of a position right before a zeroing move reaching `self` for
    /// the mover (Stockfish's `dtz_before_zeroing`): 1, 101, 0, -101, -1.
    pub fn dtz_before_zeroing(self) -> i32 {
        match self {
            Wdl::Win => 1,
            Wdl::CursedWin => 101,
            Wdl::Draw => 0,
            Wdl::BlessedLoss => -101,
            Wdl::Loss => -1,
        }
    }
}

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

/// Which set of tables serves a position's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Chess,
    Antichess,
}

/// The family of tables for `rules`: chess for chess, antichess for
/// antichess and giveaway; none for the others.
fn family(rules: &Rules) -> Option<Family> {
    match rules.variant {
        Variant::Chess => Some(Family::Chess),
        Variant::Antichess | Variant::Giveaway => Some(Family::Antichess),
        Variant::Crazyhouse | Variant::Bughouse | Variant::KingsChess | Variant::Suicide => None,
    }
}

/// Counts of the files of one family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileCounts {
    /// WDL files (`.rtbw`, `.gtbw`, `.stbw`).
    pub wdl: usize,
    /// DTZ files (`.rtbz`, `.gtbz`, `.stbz`).
    pub dtz: usize,
}

/// The tables found in the folders of `SyzygyPath`.
pub struct Tablebases {
    chess: Tablebase<Chess>,
    antichess: Tablebase<Antichess>,
    chess_files: FileCounts,
    antichess_files: FileCounts,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebases")
            .field("chess_files", &self.chess_files)
            .field("chess_max_pieces", &self.chess.max_pieces())
            .field("antichess_files", &self.antichess_files)
            .field("antichess_max_pieces", &self.antichess.max_pieces())
            .finish()
    }
}

/// What loading `SyzygyPath` found: the tables (none when no table file
/// was found) and the lines to tell the user (`info string ...`; a line
/// starting with `error: ` reports a folder or file that could not be
/// used, without failing the option).
pub struct Loaded {
    /// The tables, `None` when none were found.
    pub tables: Option<Tablebases>,
    /// Lines for the user, the summary last.
    pub lines: Vec<String>,
}

/// What kind of file a name is, by its extension: the family and whether
/// it is a WDL (`true`) or DTZ file.
fn file_kind(path: &Path) -> Option<(Family, bool)> {
    match path.extension()?.to_str()? {
        "rtbw" => Some((Family::Chess, true)),
        "rtbz" => Some((Family::Chess, false)),
        "gtbw" | "stbw" => Some((Family::Antichess, true)),
        "gtbz" | "stbz" => Some((Family::Antichess, false)),
        _ => None,
    }
}

/// The magic bytes a table file of this extension starts with.
fn magic(ext: &str) -> Option<[u8; 4]> {
    let t = match ext {
        "rtbw" => Chess::TBW,
        "rtbz" => Chess::TBZ,
        "gtbw" => Antichess::TBW,
        "gtbz" => Antichess::TBZ,
        "stbw" => Antichess::PAWNLESS_TBW?,
        "stbz" => Antichess::PAWNLESS_TBZ?,
        _ => return None,
    };
    Some(t.magic)
}

/// Checks the first four bytes of a table file against its extension's
/// magic (the crate checks them only on the first probe).
fn check_header(path: &Path, ext: &str) -> Result<(), String> {
    let want = magic(ext).ok_or_else(|| "unknown extension".to_string())?;
    let mut got = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut got))
        .map_err(|e| e.to_string())?;
    if got == want {
        Ok(())
    } else {
        Err("not a Syzygy table of its kind (bad header)".to_string())
    }
}

impl Tablebases {
    /// Loads the tables of every folder in `paths` (separated by
    /// [`PATH_SEPARATOR`]). Never fails: a folder that does not exist or
    /// holds no tables, and a file that is not a usable table, are
    /// reported in [`Loaded::lines`] and skipped.
    pub fn load(paths: &str) -> Loaded {
        let mut tb = Tablebases {
            chess: Tablebase::new(),
            antichess: Tablebase::new(),
            chess_files: FileCounts::default(),
            antichess_files: FileCounts::default(),
        };
        let mut lines = Vec::new();
        let mut seen = BTreeSet::new();
        let folders: Vec<&str> = paths
            .split(PATH_SEPARATOR)
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .collect();
        if folders.is_empty() {
            lines.push("Syzygy: no tables (SyzygyPath names no folder)".to_string());
            return Loaded {
                tables: None,
                lines,
            };
        }
        let mut missing = Vec::new();
        for folder in &folders {
            let entries = match std::fs::read_dir(folder) {
                Ok(e) => e,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    missing.push(*folder);
                    continue;
                }
                Err(e) => {
                    lines.push(format!("error: Syzygy: cannot read {folder}: {e}"));
                    continue;
                }
            };
            let mut files: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            for path in files {
                if let Err(e) = tb.add(&path, &mut seen) {
                    lines.push(format!("error: Syzygy: {}: {e}; skipped", path.display()));
                }
            }
        }
        let total = tb.chess_files.wdl
            + tb.chess_files.dtz
            + tb.antichess_files.wdl
            + tb.antichess_files.dtz;
        let missing_note = if missing.is_empty() {
            String::new()
        } else {
            format!(" (no such folder: {})", missing.join(", "))
        };
        if total == 0 {
            lines.push(format!(
                "Syzygy: no tables found in {}{missing_note}",
                folders.join(&PATH_SEPARATOR.to_string())
            ));
            return Loaded {
                tables: None,
                lines,
            };
        }
        lines.push(format!("Syzygy: {}{missing_note}", tb.summary()));
        Loaded {
            tables: Some(tb),
            lines,
        }
    }

    /// Adds one file of a folder: ignored when its name is no table's,
    /// an error when it is a table's but unusable.
    fn add(&mut self, path: &Path, seen: &mut BTreeSet<std::ffi::OsString>) -> Result<(), String> {
        let Some((family, wdl)) = file_kind(path) else {
            return Ok(());
        };
        let Some(name) = path.file_name() else {
            return Ok(());
        };
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !path.is_file() {
            return Ok(());
        }
        check_header(path, ext)?;
        let added = match family {
            Family::Chess => self.chess.add_file(path),
            Family::Antichess => self.antichess.add_file(path),
        };
        match added {
            Ok(()) => {}
            // A name that is no material signature the crate knows (or too
            // many pieces): not a table, as for any other file.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => return Ok(()),
            Err(e) => return Err(e.to_string()),
        }
        // The same table in two folders counts once (the later one is used).
        if seen.insert(name.to_os_string()) {
            let counts = match family {
                Family::Chess => &mut self.chess_files,
                Family::Antichess => &mut self.antichess_files,
            };
            if wdl {
                counts.wdl += 1;
            } else {
                counts.dtz += 1;
            }
        }
        Ok(())
    }

    /// `found 70 tables (up to 4 pieces): chess 35 WDL, 35 DTZ` (a family
    /// with fewer pieces than the largest says how many).
    pub fn summary(&self) -> String {
        let max = self.chess.max_pieces().max(self.antichess.max_pieces());
        let families = [
            ("chess", self.chess_files, self.chess.max_pieces()),
            (
                "antichess",
                self.antichess_files,
                self.antichess.max_pieces(),
            ),
        ];
        let mut parts = Vec::new();
        let mut total = 0;
        for (name, c, most) in families {
            if c.wdl + c.dtz > 0 {
                total += c.wdl + c.dtz;
                let up_to = if most < max {
                    format!(" (up to {most} pieces)")
                } else {
                    String::new()
                };
                parts.push(format!("{name} {} WDL, {} DTZ{up_to}", c.wdl, c.dtz));
            }
        }
        format!(
            "found {total} tables (up to {max} pieces): {}",
            parts.join("; ")
        )
    }

    /// The files found for chess.
    pub fn chess_files(&self) -> FileCounts {
        self.chess_files
    }

    /// The files found for antichess.
    pub fn antichess_files(&self) -> FileCounts {
        self.antichess_files
    }

    /// The most pieces of a table that serves `rules` (0: none serves them).
    pub fn max_pieces(&self, rules: &Rules) -> u32 {
        match family(rules) {
            Some(Family::Chess) => self.chess.max_pieces() as u32,
            Some(Family::Antichess) => self.antichess.max_pieces() as u32,
            None => 0,
        }
    }

    /// Whether the tables may know `pos`: its rules are served, no
    /// castling right is left, and it has few enough pieces.
    pub fn covers(&self, pos: &Position) -> bool {
        pos.castling_rights() == 0
            && pos.occupied().count() <= self.max_pieces(pos.rules())
            && family(pos.rules()).is_some()
    }

    /// The WDL of `pos`, taken as reached by a capture or pawn move (the
    /// halfmove clock is not looked at): WDL tables only. `None` where no
    /// table knows it (see [`Tablebases::covers`]) or a table could not
    /// be read.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        self.try_probe_wdl(pos).ok().flatten()
    }

    /// [`Tablebases::probe_wdl`], with the reason a table known to exist
    /// could not be read (`Err`, for the user); `Ok(None)` where no table
    /// knows the position.
    pub fn try_probe_wdl(&self, pos: &Position) -> Result<Option<Wdl>, String> {
        if !self.covers(pos) {
            return Ok(None);
        }
        let result = match family(pos.rules()) {
            Some(Family::Chess) => {
                convert::<Chess>(pos).map(|p| self.chess.probe_wdl_after_zeroing(&p))
            }
            Some(Family::Antichess) => {
                convert::<Antichess>(pos).map(|p| self.antichess.probe_wdl_after_zeroing(&p))
            }
            None => None,
        };
        match result {
            None => Ok(None),
            Some(Ok(w)) => Ok(Some(Wdl::from_syzygy(w))),
            Some(Err(e)) => unavailable(e),
        }
    }

    /// The DTZ of `pos` for its side to move (plies to the next capture or
    /// pawn move with best play, positive when winning; may be one ply
    /// too high where the tables round): needs the WDL and DTZ tables.
    /// `Ok(None)` where no table knows the position; `Err` where one
    /// could not be read.
    pub fn try_probe_dtz(&self, pos: &Position) -> Result<Option<i32>, String> {
        if !self.covers(pos) {
            return Ok(None);
        }
        let result = match family(pos.rules()) {
            Some(Family::Chess) => convert::<Chess>(pos).map(|p| self.chess.probe_dtz(&p)),
            Some(Family::Antichess) => {
                convert::<Antichess>(pos).map(|p| self.antichess.probe_dtz(&p))
            }
            None => None,
        };
        match result {
            None => Ok(None),
            Some(Ok(d)) => Ok(Some(d.ignore_rounding().0)),
            Some(Err(e)) => unavailable(e),
        }
    }

    /// Ranks the root moves `moves` of `root` by the tables, as Stockfish's
    /// `Tablebases::rank_root_moves` (with DTZ ranking): by DTZ where the
    /// DTZ tables have every move, otherwise by WDL. `history` holds the
    /// keys of the game's positions, the root last (for repetitions).
    /// `None` where the tables do not know the root (or a table is
    /// missing); `Err` where a table could not be read.
    pub fn rank_root_moves(
        &self,
        root: &Position,
        history: &[u64],
        moves: &[Move],
        rule50: bool,
    ) -> Result<Option<RootRanking>, String> {
        if moves.is_empty() || !self.covers(root) {
            return Ok(None);
        }
        let rule50 = rule50 && root.rules().fifty_move_rule;
        if let Some(r) = self.rank_by_dtz(root, history, moves, rule50)? {
            return Ok(Some(r));
        }
        self.rank_by_wdl(root, moves, rule50)
    }

    fn rank_by_dtz(
        &self,
        root: &Position,
        history: &[u64],
        moves: &[Move],
        rule50: bool,
    ) -> Result<Option<RootRanking>, String> {
        let cnt50 = root.halfmove_clock() as i32;
        let rep = repeated_since_zeroing(history, root.halfmove_clock());
        let mut ranked = Vec::with_capacity(moves.len());
        for &m in moves {
            let mut child = *root;
            child.make_move(m);
            let dtz = if let Some(outcome) = child.outcome() {
                // The move ends the game (mate, a variant's end, a draw).
                match winner(&outcome) {
                    Some(w) if w == root.side_to_move() => 1,
                    Some(_) => -1,
                    None => 0,
                }
            } else if child.halfmove_clock() == 0 {
                // A capture or pawn move: the WDL after it decides.
                match self.try_probe_wdl(&child)? {
                    Some(w) => w.flip().dtz_before_zeroing(),
                    None => return Ok(None),
                }
            } else if repeated(history, child.key(), child.halfmove_clock()) {
                0
            } else {
                match self.try_probe_dtz(&child)? {
                    Some(d) => {
                        let d = -d;
                        d.signum() * (d.abs() + 1)
                    }
                    None => return Ok(None),
                }
            };
            let rank = if dtz > 0 {
                if dtz + cnt50 <= 99 && !rep {
                    MAX_DTZ - dtz
                } else {
                    MAX_DTZ / 2 - (dtz + cnt50)
                }
            } else if dtz < 0 {
                if -dtz * 2 + cnt50 < 100 {
                    -MAX_DTZ - dtz
                } else {
                    -MAX_DTZ / 2 + (-dtz + cnt50)
                }
            } else {
                0
            };
            ranked.push(RankedMove {
                mv: m,
                rank,
                value: RootValue::from_rank(rank, rule50),
            });
        }
        Ok(Some(RootRanking::sorted(ranked, true)))
    }

    fn rank_by_wdl(
        &self,
        root: &Position,
        moves: &[Move],
        rule50: bool,
    ) -> Result<Option<RootRanking>, String> {
        let mut ranked = Vec::with_capacity(moves.len());
        for &m in moves {
            let mut child = *root;
            child.make_move(m);
            let wdl = match child.outcome() {
                Some(o) => match winner(&o) {
                    Some(w) if w == root.side_to_move() => Wdl::Win,
                    Some(_) => Wdl::Loss,
                    None => Wdl::Draw,
                },
                None => match self.try_probe_wdl(&child)? {
                    Some(w) => w.flip(),
                    None => return Ok(None),
                },
            };
            let wdl = match wdl {
                Wdl::CursedWin if !rule50 => Wdl::Win,
                Wdl::BlessedLoss if !rule50 => Wdl::Loss,
                w => w,
            };
            let (rank, value) = match wdl {
                Wdl::Loss => (-MAX_DTZ, RootValue::Loss),
                Wdl::BlessedLoss => (-MAX_DTZ + 101, RootValue::Cp(-2)),
                Wdl::Draw => (0, RootValue::Cp(0)),
                Wdl::CursedWin => (MAX_DTZ - 101, RootValue::Cp(2)),
                Wdl::Win => (MAX_DTZ, RootValue::Win),
            };
            ranked.push(RankedMove { mv: m, rank, value });
        }
        Ok(Some(RootRanking::sorted(ranked, false)))
    }
}

/// Stockfish's `MAX_DTZ`: ranks of won moves are near it, lost near minus it.
const MAX_DTZ: i32 = 1 << 18;

/// What a root move is worth by the tables, for the score to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootValue {
    /// Won (also under the 50-move rule, when it counts).
    Win,
    /// Lost.
    Loss,
    /// Neither: a draw, or a win or loss the 50-move rule takes away,
    /// given as a few centipawns towards the side that would win without it.
    Cp(i32),
}

impl RootValue {
    /// Stockfish's `tbScore` of a DTZ rank.
    fn from_rank(rank: i32, rule50: bool) -> RootValue {
        const PAWN: i32 = 100;
        let bound = if rule50 { MAX_DTZ / 2 - 100 } else { 1 };
        if rank >= bound {
            RootValue::Win
        } else if rank > 0 {
            RootValue::Cp((3.max(rank - (MAX_DTZ / 2 - 200)) * PAWN) / 200)
        } else if rank == 0 {
            RootValue::Cp(0)
        } else if rank > -bound {
            RootValue::Cp(((-3).min(rank + (MAX_DTZ / 2 - 200)) * PAWN) / 200)
        } else {
            RootValue::Loss
        }
    }
}

/// A root move with its rank (higher: better) and value by the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// Its rank: moves of equal rank are equally good by the tables.
    pub rank: i32,
    /// Its value.
    pub value: RootValue,
}

/// The root moves ranked by the tables, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// Every root move, best rank first (equal ranks in the given order).
    pub moves: Vec<RankedMove>,
    /// Ranked by DTZ (`false`: by WDL only, the DTZ tables missing).
    pub by_dtz: bool,
}

impl RootRanking {
    fn sorted(mut moves: Vec<RankedMove>, by_dtz: bool) -> RootRanking {
        moves.sort_by_key(|m| std::cmp::Reverse(m.rank));
        RootRanking { moves, by_dtz }
    }

    /// The moves worth searching: those of the best rank, and as many of
    /// the next ones as it takes to have `at_least` (MultiPV).
    pub fn best_moves(&self, at_least: usize) -> Vec<Move> {
        let best = self.moves.first().map_or(0, |m| m.rank);
        let n = self.moves.iter().take_while(|m| m.rank == best).count();
        self.moves
            .iter()
            .take(n.max(at_least))
            .map(|m| m.mv)
            .collect()
    }

    /// The value of root move `m` (`None`: not a root move).
    pub fn value_of(&self, m: Move) -> Option<RootValue> {
        self.moves.iter().find(|r| r.mv == m).map(|r| r.value)
    }

    /// The value of the best root move.
    pub fn best_value(&self) -> Option<RootValue> {
        self.moves.first().map(|m| m.value)
    }
}

/// The winner of a finished game (`None`: a draw).
fn winner(o: &Outcome) -> Option<Color> {
    match o {
        Outcome::Win { winner, .. } => Some(*winner),
        Outcome::Draw { .. } => None,
    }
}

/// A missing table is no error (the position is just unknown); any other
/// failure is, for the user to hear (see [`describe`]).
fn unavailable<T>(e: SyzygyError) -> Result<Option<T>, String> {
    match e {
        SyzygyError::MissingTable { .. } | SyzygyError::Castling | SyzygyError::TooManyPieces => {
            Ok(None)
        }
        other => Err(describe(&other)),
    }
}

/// A probe failure in one line: the crate's text of a corrupted table
/// carries a backtrace (with `RUST_BACKTRACE` set, over many lines), which
/// an `info string` cannot.
fn describe(e: &SyzygyError) -> String {
    let text = match e {
        SyzygyError::ProbeFailed {
            metric,
            material,
            error,
        } => {
            let what = match error.as_ref() {
                ProbeError::CorruptedTable { .. } => "corrupted table".to_string(),
                other => other.to_string(),
            };
            format!("failed to probe {metric} table {material}: {what}")
        }
        other => other.to_string(),
    };
    text.lines()
        .next()
        .unwrap_or_default()
        .trim_end()
        .to_string()
}

/// Has the position with `key` (side to move the other than the last
/// entry's) occurred in `history` within the last `halfmove` plies?
fn repeated(history: &[u64], key: u64, halfmove: u32) -> bool {
    let n = history.len();
    let window = (halfmove as usize).min(n);
    (2..=window).step_by(2).any(|i| history[n - i] == key)
}

/// Has any position of `history` since the last capture or pawn move (the
/// last `halfmove` plies) occurred twice (Stockfish's `has_repeated`)?
fn repeated_since_zeroing(history: &[u64], halfmove: u32) -> bool {
    let n = history.len();
    let recent = &history[n - (halfmove as usize + 1).min(n)..];
    recent
        .iter()
        .enumerate()
        .any(|(i, k)| recent[i + 1..].contains(k))
}

/// `pos` as the crate's position type, from its bitboards; `None` where
/// shakmaty does not take the position (it should always take a position
/// the tables cover).
fn convert<S: FromSetup>(pos: &Position) -> Option<S> {
    let bb = |k: PieceType| ShBitboard(pos.kind_bb(k).0);
    let by_role = ByRole {
        pawn: bb(PieceType::Pawn),
        knight: bb(PieceType::Knight),
        bishop: bb(PieceType::Bishop),
        rook: bb(PieceType::Rook),
        queen: bb(PieceType::Queen),
        king: bb(PieceType::King),
    };
    let by_color = ByColor {
        black: ShBitboard(pos.color_bb(Color::Black).0),
        white: ShBitboard(pos.color_bb(Color::White).0),
    };
    let mut setup = Setup::empty();
    setup.board = Board::try_from_bitboards(by_role, by_color).ok()?;
    setup.turn = match pos.side_to_move() {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    };
    setup.ep_square = pos
        .ep_square()
        .and_then(|s| shakmaty::Square::try_from(s.0).ok());
    setup.halfmoves = pos.halfmove_clock();
    setup.fullmoves = NonZeroU32::new(pos.fullmove_number()).unwrap_or(NonZeroU32::MIN);
    S::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .ok()
}

/// The folder of test tables (`RUKAV_SYZYGY_TEST_PATH`), or `None` (with
/// the reason printed) when it is unset or missing: the tests that need
/// table files skip then.
#[doc(hidden)]
pub fn test_path() -> Option<String> {
    match std::env::var("RUKAV_SYZYGY_TEST_PATH") {
        Ok(p) if Path::new(p.split(PATH_SEPARATOR).next().unwrap_or("")).is_dir() => Some(p),
        Ok(p) => {
            println!("skipped: RUKAV_SYZYGY_TEST_PATH={p} is not a folder");
            None
        }
        Err(_) => {
            println!("skipped: RUKAV_SYZYGY_TEST_PATH is not set (a folder of Syzygy tables)");
            None
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn pos(fen: &str, variant: Variant) -> Position {
        Position::from_fen(fen, variant.rules()).unwrap()
    }

    #[test]
    fn a_path_of_separators_names_no_folder() {
        let sep = PATH_SEPARATOR.to_string();
        let loaded = Tablebases::load(&format!(" {sep}{sep} "));
        assert!(loaded.tables.is_none());
        assert_eq!(
            loaded.lines,
            vec!["Syzygy: no tables (SyzygyPath names no folder)".to_string()]
        );
    }

    #[test]
    fn a_missing_folder_loads_nothing_and_says_so() {
        let loaded = Tablebases::load("/nonexistent/syzygy-rukav");
        assert!(loaded.tables.is_none());
        assert_eq!(
            loaded.lines,
            vec!["Syzygy: no tables found in /nonexistent/syzygy-rukav \
                  (no such folder: /nonexistent/syzygy-rukav)"
                .to_string()]
        );
    }

    #[test]
    fn files_that_are_not_tables_are_skipped_or_reported() {
        let dir = std::env::temp_dir().join(format!("rukav-syzygy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Not a table name: ignored. A table name with a wrong header: reported.
        std::fs::write(dir.join("README.txt"), b"hello").unwrap();
        std::fs::write(dir.join("KQvK.rtbw"), [0u8; 80]).unwrap();
        let loaded = Tablebases::load(&format!("{}", dir.display()));
        assert!(loaded.tables.is_none());
        assert_eq!(loaded.lines.len(), 2, "{:?}", loaded.lines);
        assert!(loaded.lines[0].starts_with("error: Syzygy: "));
        assert!(loaded.lines[0].contains("bad header"));
        assert!(loaded.lines[1].starts_with("Syzygy: no tables found in "));
        // Right header, wrong size (a truncated file): reported as well.
        let mut bytes = Chess::TBW.magic.to_vec();
        bytes.resize(81, 0);
        std::fs::write(dir.join("KQvK.rtbw"), &bytes).unwrap();
        let loaded = Tablebases::load(&format!("{}", dir.display()));
        assert!(loaded.tables.is_none());
        assert!(
            loaded.lines[0].contains("unexpected file size"),
            "{:?}",
            loaded.lines
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A table with the right header and size but garbage inside: probes
    /// fail with a one-line error (no panic), and nothing is known.
    #[test]
    fn a_corrupted_table_fails_probes_with_one_line() {
        let dir = std::env::temp_dir().join(format!("rukav-syzygy-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut bytes = Chess::TBW.magic.to_vec();
        let mut x = 0x2545_f491_u32;
        while bytes.len() < 64 * 40 + 16 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            bytes.push(x as u8);
        }
        std::fs::write(dir.join("KQvK.rtbw"), &bytes).unwrap();
        let loaded = Tablebases::load(&format!("{}", dir.display()));
        let tb = loaded.tables.unwrap();
        let p = pos("8/8/8/3k4/8/8/8/Q1K5 w - - 0 1", Variant::Chess);
        let err = tb.try_probe_wdl(&p).unwrap_err();
        assert!(err.starts_with("failed to probe wdl table KQvK: "), "{err}");
        assert!(!err.contains('\n'), "{err}");
        assert_eq!(tb.probe_wdl(&p), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn positions_convert_from_bitboards() {
        for (fen, variant) in [
            ("8/8/8/8/8/2k5/8/2K1R3 w - - 0 1", Variant::Chess),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", Variant::Chess),
            ("8/8/8/8/8/2k5/8/2K1R3 b - - 12 40", Variant::Chess),
            ("8/8/8/8/8/8/1p6/2R5 w - - 0 1", Variant::Antichess),
        ] {
            let p = pos(fen, variant);
            let fen_of = |s: &dyn Fn() -> Option<String>| s();
            let converted = match variant {
                Variant::Chess => fen_of(&|| {
                    convert::<Chess>(&p).map(|c| {
                        shakmaty::fen::Fen::from_position(&c, shakmaty::EnPassantMode::Always)
                            .to_string()
                    })
                }),
                _ => fen_of(&|| {
                    convert::<Antichess>(&p).map(|c| {
                        shakmaty::fen::Fen::from_position(&c, shakmaty::EnPassantMode::Always)
                            .to_string()
                    })
                }),
            };
            assert_eq!(converted.as_deref(), Some(fen), "{variant:?}");
        }
    }

    #[test]
    fn only_chess_antichess_and_giveaway_without_castling_are_covered() {
        let tb = Tablebases {
            chess: Tablebase::new(),
            antichess: Tablebase::new(),
            chess_files: FileCounts::default(),
            antichess_files: FileCounts::default(),
        };
        for v in Variant::ALL {
            let expected = matches!(v, Variant::Chess | Variant::Antichess | Variant::Giveaway);
            assert_eq!(family(&v.rules()).is_some(), expected, "{v:?}");
        }
        // No table at all: nothing is covered (max pieces 0).
        let p = pos("8/8/8/8/8/2k5/8/2K1R3 w - - 0 1", Variant::Chess);
        assert!(!tb.covers(&p));
        assert_eq!(tb.probe_wdl(&p), None);
    }

    #[test]
    fn repetitions_are_found_in_the_window() {
        // a b a b a: the last `a` repeats; a child `b` repeats too.
        let h = [1, 2, 1, 2, 1];
        assert!(repeated_since_zeroing(&h, 4));
        assert!(!repeated_since_zeroing(&h, 1));
        assert!(repeated(&h, 2, 4));
        assert!(!repeated(&h, 2, 0));
        assert!(!repeated(&h, 3, 4));
    }

    #[test]
    fn root_values_follow_stockfish() {
        assert_eq!(RootValue::from_rank(MAX_DTZ - 5, true), RootValue::Win);
        assert_eq!(RootValue::from_rank(0, true), RootValue::Cp(0));
        assert_eq!(RootValue::from_rank(-MAX_DTZ + 5, true), RootValue::Loss);
        // A cursed win: a few centipawns, a win without the 50-move rule.
        let cursed = MAX_DTZ / 2 - 120;
        assert!(matches!(RootValue::from_rank(cursed, true), RootValue::Cp(c) if c > 0));
        assert_eq!(RootValue::from_rank(cursed, false), RootValue::Win);
    }

    /// With the tables of `RUKAV_SYZYGY_TEST_PATH` (chess tables up to
    /// four pieces at least), probes agree with known results.
    #[test]
    fn probes_agree_with_known_results_when_tables_are_given() {
        let Some(path) = crate::syzygy::test_path() else {
            return;
        };
        let tb = Tablebases::load(&path).tables.unwrap();
        assert!(tb.chess_files().wdl > 0);
        // KQ v K: won for the side with the queen, lost for the other.
        let p = pos("8/8/8/3k4/8/8/8/Q1K5 w - - 0 1", Variant::Chess);
        assert_eq!(tb.probe_wdl(&p), Some(Wdl::Win));
        let p = pos("8/8/8/3k4/8/8/8/Q1K5 b - - 0 1", Variant::Chess);
        assert_eq!(tb.probe_wdl(&p), Some(Wdl::Loss));
        // KR v KR: drawn. With castling rights nothing is known.
        let p = pos("7r/3k4/8/8/8/8/3K4/R7 w - - 0 1", Variant::Chess);
        assert_eq!(tb.probe_wdl(&p), Some(Wdl::Draw));
        let p = pos("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1", Variant::Chess);
        assert_eq!(tb.probe_wdl(&p), None);
        // The crate's README example: KBN v K, lost in 59 plies to zeroing.
        let p = pos("8/8/8/8/B7/N7/K2k4/8 b - - 0 1", Variant::Chess);
        assert_eq!(tb.probe_wdl(&p), Some(Wdl::Loss));
        if tb.chess_files().dtz > 0 {
            assert_eq!(tb.try_probe_dtz(&p), Ok(Some(-59)));
            // At the root of a won KQ v KR every kept move keeps the win.
            let root = pos("8/8/8/3k4/8/8/6r1/Q1K5 w - - 0 1", Variant::Chess);
            assert_eq!(tb.probe_wdl(&root), Some(Wdl::Win));
            let moves = root.legal_moves().to_vec();
            let r = tb
                .rank_root_moves(&root, &[root.key()], &moves, true)
                .unwrap()
                .unwrap();
            assert!(r.by_dtz);
            for m in r.best_moves(1) {
                let mut child = root;
                child.make_move(m);
                assert_eq!(r.value_of(m), Some(RootValue::Win));
                let w =
                    if child.halfmove_clock() == 0 {
                        tb.probe_wdl(&child)
                    } else {
                        tb.try_probe_dtz(&child).unwrap().map(|d| {
                            if d < 0 {
                                Wdl::Loss
                            } else {
                                Wdl::Draw
                            }
                        })
                    };
                assert_eq!(w, Some(Wdl::Loss), "{}", root.uci_move(m));
            }
        }
        // Crazyhouse: never.
        let p = pos("8/8/8/3k4/8/8/8/Q1K5[] w - - 0 1", Variant::Crazyhouse);
        assert_eq!(tb.probe_wdl(&p), None);
    }
}
