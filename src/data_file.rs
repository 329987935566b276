//! Reading a data file the engine loads on request (a network, endgame
//! tables): the file is read whole and its bytes parsed, and a refusal
//! names the file.

use std::fmt;

/// Why a data file was not loaded; `E` is what the parser found wrong.
#[derive(Debug)]
pub enum FileError<E> {
    /// The file could not be read.
    Unreadable {
        /// The path as given.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file was read; its contents are not what this engine reads.
    Invalid {
        /// The path as given.
        path: String,
        /// What is wrong with the contents.
        source: E,
    },
}

impl<E: fmt::Display> fmt::Display for FileError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Unreadable { path, source } => write!(f, "cannot read '{path}': {source}"),
            FileError::Invalid { path, source } => write!(f, "'{path}': {source}"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for FileError<E> {}

/// Reads the file at `path` and parses its bytes with `parse`.
pub fn load<T, E>(
    path: &str,
    parse: impl FnOnce(&[u8]) -> Result<T, E>,
) -> Result<T, FileError<E>> {
    let bytes = std::fs::read(path).map_err(|source| FileError::Unreadable {
        path: path.to_string(),
        source,
    })?;
    parse(&bytes).map_err(|source| FileError::Invalid {
        path: path.to_string(),
        source,
    })
}
