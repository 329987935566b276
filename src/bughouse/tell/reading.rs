//! The meanings a partner's tell is read as, and how they print.

use crate::types::PieceType;
use std::fmt;

/// How much the partner wants a piece, or wants it kept from the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// 1: would like it (`+n`, `n would be nice`): worth an even trade.
    Like = 1,
    /// 2: needs it (`n`, `need n`, `++n`, `no q`): worth a small sacrifice.
    Need = 2,
    /// 3: it mates (`n mates`, `+++n`, `q mates me`): worth anything short
    /// of losing.
    Mates = 3,
}

impl Level {
    /// The level's number, 1 to 3.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The level of a request written with `signs` signs (`+n` 1, `++n` 2,
    /// `+++n` and more 3), as Sjeng counts them.
    pub fn from_signs(signs: usize) -> Level {
        match signs {
            0 | 1 => Level::Like,
            2 => Level::Need,
            _ => Level::Mates,
        }
    }
}

/// One meaning read from a partner's tell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reading {
    /// Wait: do not move until `go`.
    Sit,
    /// Move again (end a sit).
    Go,
    /// Play faster.
    Fast,
    /// Time may be used normally again.
    Slow,
    /// Capture a piece of this kind for the partner.
    Need(PieceType, Level),
    /// Do not let a piece of this kind be captured (it would reach the
    /// partner's opponent).
    Ban(PieceType, Level),
    /// Trades are good (every ban is lifted).
    TradesGood,
    /// Trades are bad: give nothing.
    TradesBad,
    /// Forget the requests (`nvm`, `never mind`, `forget it`).
    Cancel,
    /// The partner is no longer lost on his board (`x`).
    Alive,
    /// The partner is lost on his board (`dead`, `i'm mated`).
    Dead,
    /// No piece is coming from the partner's board (`sitting`, `hard to get`).
    Unavailable,
    /// A move the partner dictates, in UCI notation (`e2e4`, `N@f7`).
    Move(String),
    /// The partner's clock, in centiseconds.
    Time(u64),
    /// The partner's opponent's clock, in centiseconds.
    Otim(u64),
    /// The partner is ahead of his opponent on the clock (`up`, `i'm up
    /// 20`), by so many centiseconds when he said.
    Up(Option<u64>),
    /// The partner is behind his opponent on the clock (`down`, `low on
    /// time`), by so many centiseconds when he said.
    Down(Option<u64>),
    /// Talk that asks for nothing and changes nothing: greetings, thanks, `gg`.
    Chat,
    /// The partner asks what the engine understands.
    Help,
    /// A clause that was not understood.
    Unknown,
}

impl fmt::Display for Reading {
    /// The reading in the vocabulary of `rukav ptell` (`need n 3`, `trades bad`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reading::Sit => f.write_str("sit"),
            Reading::Go => f.write_str("go"),
            Reading::Fast => f.write_str("fast"),
            Reading::Slow => f.write_str("slow"),
            Reading::Need(k, l) => write!(f, "need {} {}", k.char(), l.number()),
            Reading::Ban(k, l) => write!(f, "ban {} {}", k.char(), l.number()),
            Reading::TradesGood => f.write_str("trades good"),
            Reading::TradesBad => f.write_str("trades bad"),
            Reading::Cancel => f.write_str("cancel"),
            Reading::Alive => f.write_str("alive"),
            Reading::Dead => f.write_str("dead"),
            Reading::Unavailable => f.write_str("unavailable"),
            Reading::Move(m) => write!(f, "move {m}"),
            Reading::Time(cs) => write!(f, "time {cs}"),
            Reading::Otim(cs) => write!(f, "otim {cs}"),
            Reading::Up(None) => f.write_str("up"),
            Reading::Up(Some(cs)) => write!(f, "up {cs}"),
            Reading::Down(None) => f.write_str("down"),
            Reading::Down(Some(cs)) => write!(f, "down {cs}"),
            Reading::Chat => f.write_str("chat"),
            Reading::Help => f.write_str("help"),
            Reading::Unknown => f.write_str("unknown"),
        }
    }
}
