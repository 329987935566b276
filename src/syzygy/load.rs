//! Loading `SyzygyPath`: the folders it names, the table files found in
//! them (checked by name and header), and the lines that tell the user
//! what was found.

use super::tables::{Family, FileCounts, Tablebases};
use shakmaty::variant::Antichess;
use shakmaty::Chess;
use shakmaty_syzygy::{Syzygy, Tablebase};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Separates the folders of `SyzygyPath`, as Stockfish does (`;` on
/// Windows, `:` elsewhere).
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

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
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

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
}
