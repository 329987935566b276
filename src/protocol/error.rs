//! Why a command line was refused. Both protocols read the same arguments
//! ([`super::parse`]) and options ([`super::options`]); UCI writes a
//! refusal as `info string error: <text>`, xboard as `Error (...): <text>`,
//! the text being the error's `Display`. The library's own errors are
//! wrapped as they are, so that `?` carries them up unchanged.

use crate::endgames::TablesFileError;
use crate::engine::HashResizeError;
use crate::eval::nnue::NetworkFileError;
use crate::position::{FenError, MoveParseError, PocketError};
use crate::rules::UnknownVariant;
use crate::search::params::ParamError;
use std::fmt;

/// A value that could not be read: a number, a check value, an option's
/// value out of its bounds or not among its choices. `what` names the
/// value as the client wrote it (`depth`, `Hash`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// A keyword without its value (`go depth`).
    Missing {
        /// The keyword.
        what: &'static str,
    },
    /// Not a number of the type wanted.
    NotANumber {
        /// The keyword or option.
        what: &'static str,
        /// The text given.
        text: String,
    },
    /// A check option's value that is not true or false.
    NotABoolean {
        /// The option.
        what: &'static str,
        /// The text given, trimmed and in lower case.
        text: String,
    },
    /// A spin option's value outside its bounds.
    OutOfRange {
        /// The option.
        what: &'static str,
        /// Its smallest value.
        min: i64,
        /// Its largest value.
        max: i64,
        /// The value given.
        value: i128,
    },
    /// A combo option's value that is not one of its choices.
    NotAChoice {
        /// The option.
        what: &'static str,
        /// The text given, trimmed.
        text: String,
        /// The choices.
        choices: Vec<&'static str>,
    },
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::Missing { what } => write!(f, "{what} needs a value"),
            ValueError::NotANumber { what, text } => {
                write!(f, "{what}: '{text}' is not a valid number")
            }
            ValueError::NotABoolean { what, text } => {
                write!(f, "{what}: expected true or false, not '{text}'")
            }
            ValueError::OutOfRange {
                what,
                min,
                max,
                value,
            } => write!(f, "{what} must be {min}..{max}, not {value}"),
            ValueError::NotAChoice {
                what,
                text,
                choices,
            } => write!(f, "{what}: '{text}' is not one of {}", choices.join(", ")),
        }
    }
}

impl std::error::Error for ValueError {}

/// Pockets that could not be read ([`super::parse::holding`]); `text` is
/// the whole holdings argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HoldingError {
    /// A letter that is no piece a pocket can hold.
    BadLetter(char),
    /// Something other than CECP's arrived piece after the two brackets.
    TextAfterHoldings(String),
    /// A third `[`.
    TooManyBrackets(String),
    /// A `]` without its `[`.
    UnmatchedClose(String),
    /// A `[` without its `]`.
    Unclosed(String),
    /// A letter outside the brackets.
    OutsideBrackets {
        /// The letter.
        letter: char,
        /// The holdings argument.
        text: String,
    },
}

impl fmt::Display for HoldingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HoldingError::BadLetter(c) => write!(f, "bad holding letter '{c}'"),
            HoldingError::TextAfterHoldings(rest) => {
                write!(f, "unexpected '{rest}' after the holdings")
            }
            HoldingError::TooManyBrackets(text) => write!(f, "too many brackets in '{text}'"),
            HoldingError::UnmatchedClose(text) => write!(f, "unmatched ']' in '{text}'"),
            HoldingError::Unclosed(text) => write!(f, "unclosed '[' in '{text}'"),
            HoldingError::OutsideBrackets { letter, text } => {
                write!(f, "'{letter}' outside the brackets in '{text}'")
            }
        }
    }
}

impl std::error::Error for HoldingError {}

/// Why a command line was refused; nothing in the engine changed.
#[derive(Debug)]
pub enum CommandError {
    /// A command neither protocol knows.
    UnknownCommand(String),
    /// An argument or option value that could not be read.
    Value(ValueError),
    /// Pockets that could not be read.
    Holding(HoldingError),
    /// A FEN that was refused.
    BadFen {
        /// What the FEN was for: `FEN`, `partner FEN`, `gambler FEN`.
        label: &'static str,
        /// The FEN as given.
        fen: String,
        /// Why it was refused.
        error: FenError,
    },
    /// A move that is not legal in its position.
    Move(MoveParseError),
    /// Pockets the position cannot hold.
    Pocket(PocketError),
    /// A variant name that is not known.
    Variant(UnknownVariant),
    /// A partner tell of which nothing was understood (the text, trimmed).
    UnknownTell(String),
    /// `EvalFile`: the network file was not loaded.
    EvalFile(NetworkFileError),
    /// `AntichessTables`: the table file was not loaded.
    AntichessTables(TablesFileError),
    /// `Hash`: the size asked for could not be had.
    Hash(HashResizeError),
    /// A search parameter (tuning builds) that was refused.
    SearchParam(ParamError),
    /// An option name that is not in the table.
    UnknownOption(String),
    /// An option given as a rule (a tool's `--option`, BPGN's
    /// `HouseRules`) that does not change the rules.
    NotARule(&'static str),
    /// An option that this build cannot set.
    CannotSet(&'static str),
    /// `setoption` without `name`.
    SetoptionWithoutName,
    /// A setup that is neither `startpos` nor `fen ...`; the command.
    MissingSetup(&'static str),
    /// Words after `startpos` other than `moves ...`.
    TextAfterStartpos(String),
    /// A `go` parameter that is not known.
    UnknownGoParameter(String),
    /// `go searchmoves` without a legal move after it.
    NoLegalSearchmove,
    /// A bughouse command before `UCI_Bughouse` was switched on.
    BughouseDisabled,
    /// `bughouse` without a subcommand.
    MissingBughouseSubcommand,
    /// A `bughouse` subcommand that is not known.
    UnknownBughouseCommand(String),
    /// `bughouse clocks` without exactly four times.
    BughouseClockCount,
    /// `bughouse gambler` without a colour.
    GamblerWithoutColor,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::UnknownCommand(c) => write!(f, "unknown command '{c}'"),
            CommandError::Value(e) => e.fmt(f),
            CommandError::Holding(e) => e.fmt(f),
            CommandError::BadFen { label, fen, error } => {
                write!(f, "bad {label} '{fen}': {error}")
            }
            CommandError::Move(e) => e.fmt(f),
            CommandError::Pocket(e) => e.fmt(f),
            CommandError::Variant(e) => e.fmt(f),
            CommandError::UnknownTell(text) => write!(f, "unknown partner message '{text}'"),
            CommandError::EvalFile(e) => write!(f, "EvalFile: {e}"),
            CommandError::AntichessTables(e) => write!(f, "AntichessTables: {e}"),
            CommandError::Hash(e) => e.fmt(f),
            CommandError::SearchParam(e) => e.fmt(f),
            CommandError::UnknownOption(name) => write!(f, "unknown option '{name}'"),
            CommandError::NotARule(name) => write!(f, "{name} does not change the rules"),
            CommandError::CannotSet(name) => write!(f, "option '{name}' cannot be set"),
            CommandError::SetoptionWithoutName => f.write_str("setoption needs 'name'"),
            CommandError::MissingSetup(command) => {
                write!(f, "{command} needs 'startpos' or 'fen'")
            }
            CommandError::TextAfterStartpos(text) => {
                write!(f, "unexpected '{text}' after startpos")
            }
            CommandError::UnknownGoParameter(p) => write!(f, "unknown go parameter '{p}'"),
            CommandError::NoLegalSearchmove => f.write_str("searchmoves lists no legal move"),
            CommandError::BughouseDisabled => {
                f.write_str("bughouse commands need 'setoption name UCI_Bughouse value true'")
            }
            CommandError::MissingBughouseSubcommand => f.write_str("bughouse needs a subcommand"),
            CommandError::UnknownBughouseCommand(c) => {
                write!(f, "unknown bughouse command '{c}'")
            }
            CommandError::BughouseClockCount => {
                f.write_str("bughouse clocks needs four times in ms")
            }
            CommandError::GamblerWithoutColor => {
                f.write_str("bughouse gambler needs white|black and a FEN")
            }
        }
    }
}

impl std::error::Error for CommandError {}

/// `From` impls, so that `?` wraps a lower error in its variant.
macro_rules! wrap {
    ($($from:ty => $variant:ident,)*) => {
        $(
            impl From<$from> for CommandError {
                fn from(e: $from) -> CommandError {
                    CommandError::$variant(e)
                }
            }
        )*
    };
}

wrap! {
    ValueError => Value,
    HoldingError => Holding,
    MoveParseError => Move,
    PocketError => Pocket,
    UnknownVariant => Variant,
    NetworkFileError => EvalFile,
    TablesFileError => AntichessTables,
    HashResizeError => Hash,
    ParamError => SearchParam,
}
