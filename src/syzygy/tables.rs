//! [`Tablebases`]: the chess and antichess tables, which rules they
//! serve, and the WDL and DTZ probes of a position (a missing table is no
//! error; an unreadable one is, in one line for the user).

use super::convert::convert;
use super::wdl::Wdl;
use crate::position::Position;
use crate::rules::{Rules, Variant};
use shakmaty::variant::Antichess;
use shakmaty::Chess;
use shakmaty_syzygy::{ProbeError, SyzygyError, Tablebase};
use std::fmt;

/// Which set of tables serves a position's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Family {
    /// `.rtbw`/`.rtbz`.
    Chess,
    /// `.gtbw`/`.gtbz`, `.stbw`/`.stbz`.
    Antichess,
}

/// The family of tables for `rules`: chess for chess, antichess for
/// antichess and giveaway; none for the others.
pub(super) fn family(rules: &Rules) -> Option<Family> {
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
    /// The chess tables (`load` adds their files).
    pub(super) chess: Tablebase<Chess>,
    /// The antichess tables.
    pub(super) antichess: Tablebase<Antichess>,
    /// How many chess files were found.
    pub(super) chess_files: FileCounts,
    /// How many antichess files were found.
    pub(super) antichess_files: FileCounts,
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

impl Tablebases {
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::syzygy::RootValue;
    use shakmaty_syzygy::Syzygy;

    fn pos(fen: &str, variant: Variant) -> Position {
        Position::from_fen(fen, variant.rules()).unwrap()
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
