//! The table file: writing, reading with every check, loading from disk.

use super::encoding::{is_stored, signatures, table_size, Signature, Table};
use super::tables::Tables;
use std::collections::HashMap;
use std::fmt;

/// File format of [`Tables::to_bytes`]: magic, then little-endian u32s.
const MAGIC: &[u8; 8] = b"RUKAVEG2";

/// The most bytes a compressed table file may expand to: far more than
/// every table of up to three pieces (about 20 MB), and a bound, so that a
/// damaged or hostile file cannot make the engine allocate without end.
const MAX_EXPANDED_BYTES: usize = 1 << 30;

/// The compression level of [`Tables::to_compressed_bytes`] (zlib, the
/// highest level).
const COMPRESSION_LEVEL: u8 = 10;

/// FNV-1a, 64 bits.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Tables {
    /// The tables as a file: `RUKAVEG2`, the largest piece count (u32),
    /// the number of tables (u32), per table its signature (12 bytes:
    /// White's then Black's pawns to kings; only stored signatures, see
    /// `encoding::is_stored`) and its codes (one byte per index,
    /// `encoding::table_size` of them), then an FNV-1a checksum (u64) of all
    /// that precedes it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(self.max_pieces as u32).to_le_bytes());
        out.extend_from_slice(&(self.tables.len() as u32).to_le_bytes());
        let mut sigs: Vec<&Signature> = self.tables.keys().collect();
        sigs.sort();
        for sig in sigs {
            out.extend_from_slice(sig);
            out.extend_from_slice(&self.tables[sig].codes);
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The table file of [`Tables::to_bytes`], compressed (zlib): the form
    /// the engine embeds (see [`crate::endgames::builtin`]).
    pub fn to_compressed_bytes(&self) -> Vec<u8> {
        miniz_oxide::deflate::compress_to_vec_zlib(&self.to_bytes(), COMPRESSION_LEVEL)
    }

    /// Reads a table file, plain ([`Tables::to_bytes`]) or compressed
    /// ([`Tables::to_compressed_bytes`]).
    pub fn from_file_bytes(bytes: &[u8]) -> Result<Tables, TablesError> {
        if bytes.starts_with(MAGIC) {
            return Tables::from_bytes(bytes);
        }
        let plain =
            miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(bytes, MAX_EXPANDED_BYTES)
                .map_err(|_| TablesError::BadMagic)?;
        Tables::from_bytes(&plain)
    }

    /// Reads tables written by [`Tables::to_bytes`] (antichess rules).
    /// Refuses a file that is not one, is cut short, fails its checksum,
    /// or lacks a table that a capture or promotion from another leads to.
    pub fn from_bytes(bytes: &[u8]) -> Result<Tables, TablesError> {
        if bytes.len() < 24 || &bytes[..8] != MAGIC {
            return Err(TablesError::BadMagic);
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if checksum(body) != u64::from_le_bytes(sum.try_into().unwrap_or_default()) {
            return Err(TablesError::ChecksumMismatch);
        }
        let u32_at = |at: usize| {
            body.get(at..at + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        };
        let max_pieces = u32_at(8).ok_or(TablesError::Truncated)?;
        let count = u32_at(12).ok_or(TablesError::Truncated)?;
        if !(2..=4).contains(&max_pieces) {
            return Err(TablesError::PieceCount(max_pieces));
        }
        let mut tables = HashMap::new();
        let mut at = 16;
        for _ in 0..count {
            let sig: Signature = body
                .get(at..at + 12)
                .and_then(|b| b.try_into().ok())
                .ok_or(TablesError::Truncated)?;
            let n: usize = sig.iter().map(|&k| k as usize).sum();
            let (white, black) = (sig[..6].iter().sum::<u8>(), sig[6..].iter().sum::<u8>());
            if !(2..=max_pieces).contains(&n) || white == 0 || black == 0 || !is_stored(&sig) {
                return Err(TablesError::BadSignature(sig));
            }
            let size = table_size(&sig);
            let codes = body
                .get(at + 12..at + 12 + size)
                .ok_or(TablesError::Truncated)?;
            tables.insert(
                sig,
                Table {
                    codes: codes.to_vec(),
                },
            );
            at += 12 + size;
        }
        if at != body.len() {
            return Err(TablesError::TrailingBytes);
        }
        let wanted: Vec<Signature> = (2..=max_pieces).flat_map(signatures).collect();
        if let Some(missing) = wanted.iter().find(|s| !tables.contains_key(*s)) {
            return Err(TablesError::MissingTable(*missing));
        }
        Ok(Tables {
            rules: crate::rules::ANTICHESS,
            max_pieces,
            tables,
        })
    }
}

/// Loads a table file, plain or compressed (see [`Tables::from_file_bytes`]).
pub fn load_file(path: &str) -> Result<Tables, TablesFileError> {
    crate::data_file::load(path, Tables::from_file_bytes)
}

/// Why [`Tables::from_bytes`] refused a table file's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesError {
    /// The bytes do not start with the table file magic.
    BadMagic,
    /// The checksum does not match the bytes.
    ChecksumMismatch,
    /// The bytes end inside a field or a table.
    Truncated,
    /// A largest piece count outside 2 to 4.
    PieceCount(usize),
    /// A table whose signature (piece counts, White's then Black's) is
    /// not one of these tables.
    BadSignature([u8; 12]),
    /// Bytes after the last table.
    TrailingBytes,
    /// A table that a capture or promotion from another leads to is missing.
    MissingTable([u8; 12]),
}

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesError::BadMagic => write!(
                f,
                "not a Rukav endgame table file (bad magic, or not one compressed)"
            ),
            TablesError::ChecksumMismatch => write!(f, "checksum mismatch (file damaged)"),
            TablesError::Truncated => write!(f, "cut short"),
            TablesError::PieceCount(n) => write!(f, "{n} pieces: 2 to 4 expected"),
            TablesError::BadSignature(sig) => write!(f, "bad table signature {sig:?}"),
            TablesError::TrailingBytes => write!(f, "trailing bytes after the tables"),
            TablesError::MissingTable(sig) => write!(f, "table {sig:?} missing"),
        }
    }
}

impl std::error::Error for TablesError {}

/// Why [`load_file`] loaded no tables.
pub type TablesFileError = crate::data_file::FileError<TablesError>;
