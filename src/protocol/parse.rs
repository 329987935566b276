//! The argument forms both protocols read. Every number may be anything a
//! careless or hostile client sends: it is parsed, never assumed.

use super::error::{CommandError, HoldingError, ValueError};
use crate::engine::Engine;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Color, Move, PieceType};

/// Parses the value of `what` (`text` is `None` when it is missing).
pub fn number<T: std::str::FromStr>(
    what: &'static str,
    text: Option<&str>,
) -> Result<T, ValueError> {
    let t = text.ok_or(ValueError::Missing { what })?;
    t.parse::<T>().map_err(|_| ValueError::NotANumber {
        what,
        text: t.to_string(),
    })
}

/// Parses a time in milliseconds: any integer, negative ones count as 0,
/// ones beyond `u64` as `u64::MAX`.
pub fn millis(what: &'static str, text: Option<&str>) -> Result<u64, ValueError> {
    let t = text.ok_or(ValueError::Missing { what })?;
    match t.parse::<i128>() {
        Ok(v) => Ok(v.clamp(0, i128::from(u64::MAX)) as u64),
        Err(_)
            if !t.is_empty()
                && t.trim_start_matches(['-', '+'])
                    .bytes()
                    .all(|b| b.is_ascii_digit()) =>
        {
            Ok(if t.starts_with('-') { 0 } else { u64::MAX })
        }
        Err(_) => Err(ValueError::NotANumber {
            what,
            text: t.to_string(),
        }),
    }
}

/// Parses the check value of `what` (`true`/`false`, also `1`/`0`,
/// `on`/`off`).
pub fn boolean(what: &'static str, value: &str) -> Result<bool, ValueError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "on" => Ok(true),
        "false" | "0" | "off" => Ok(false),
        other => Err(ValueError::NotABoolean {
            what,
            text: other.to_string(),
        }),
    }
}

/// Parses `startpos|fen <fen> [moves m1 m2 ...]` (the arguments of UCI
/// `position` and `bughouse partner`): the start position and the moves,
/// all checked legal. `command` and `fen_label` name them in errors.
pub fn setup(
    args: &[&str],
    rules: Rules,
    command: &'static str,
    fen_label: &'static str,
) -> Result<(Position, Vec<Move>), CommandError> {
    let moves_at = args.iter().position(|w| *w == "moves");
    let setup = &args[..moves_at.unwrap_or(args.len())];
    let start = match setup.first() {
        Some(&"startpos") => {
            if setup.len() > 1 {
                return Err(CommandError::TextAfterStartpos(setup[1..].join(" ")));
            }
            Position::start_with(rules)
        }
        Some(&"fen") => {
            let fen = setup[1..].join(" ");
            Position::from_fen(&fen, rules).map_err(move |error| CommandError::BadFen {
                label: fen_label,
                fen,
                error,
            })?
        }
        _ => return Err(CommandError::MissingSetup(command)),
    };
    let texts: Vec<&str> = moves_at.map(|i| args[i + 1..].to_vec()).unwrap_or_default();
    let moves = Engine::replay(&start, &texts)?;
    Ok((start, moves))
}

/// Parses pockets into counts `[colour][piece]`, in the two forms clients
/// send:
/// - bracketed, as CECP's `holding [WHITE] [BLACK]` and FICS write them:
///   the bracket decides the colour, not the letter case (xboard forwards
///   FICS holdings in upper case in both brackets: `[PN] [R]` is White
///   holding a pawn and a knight, Black a rook); our own `[QR] [bn]` reads
///   the same;
/// - bare letters, as UCI's `bughouse holding QRbn`: upper case White,
///   lower case Black (`-` or nothing: both empty).
pub fn holding(text: &str) -> Result<[[u8; 5]; 2], HoldingError> {
    cecp_holding(text).map(|h| h.counts)
}

/// A `holding` line as CECP and xboard's zippy mode send it: both pockets
/// as the sender counts them, and the piece that has just arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holding {
    /// Both pockets `[colour][piece]`, as [`holding`] reads them.
    pub counts: [[u8; 5]; 2],
    /// CECP's optional third field (`BR`: Black got a rook): the piece the
    /// partner's capture has just sent. The brackets already count it.
    pub arrival: Option<(Color, PieceType)>,
}

/// Reads a `holding` argument ([`holding`]'s two forms) with CECP's
/// optional third field, the piece that arrived.
pub fn cecp_holding(text: &str) -> Result<Holding, HoldingError> {
    let mut arrived = None;
    let mut counts = [[0u8; 5]; 2];
    let mut add = |color: Color, c: char| -> Result<(), HoldingError> {
        match PieceType::from_char(c) {
            Some(kind) if kind != PieceType::King => {
                let slot = &mut counts[color.index()][kind.index()];
                *slot = slot.saturating_add(1).min(64);
                Ok(())
            }
            _ => Err(HoldingError::BadLetter(c)),
        }
    };
    if text.contains('[') {
        // Which bracket we are in: None outside, Some(0) White, Some(1) Black.
        let mut inside: Option<usize> = None;
        let mut brackets = 0;
        for (at, c) in text.char_indices() {
            if brackets == 2 && inside.is_none() {
                // CECP's optional third field names the piece that just
                // arrived (`BR`: Black got a rook); the brackets already
                // count it.
                let rest = text[at..].trim();
                if rest.is_empty() {
                    break;
                }
                arrived = arrival(rest);
                if arrived.is_some() {
                    break;
                }
                return Err(HoldingError::TextAfterHoldings(rest.to_string()));
            }
            match (c, inside) {
                ('[', None) if brackets < 2 => {
                    inside = Some(brackets);
                    brackets += 1;
                }
                ('[', _) => return Err(HoldingError::TooManyBrackets(text.to_string())),
                (']', Some(_)) => inside = None,
                (']', None) => return Err(HoldingError::UnmatchedClose(text.to_string())),
                (c, None) if c.is_whitespace() => {}
                (_, None) => {
                    return Err(HoldingError::OutsideBrackets {
                        letter: c,
                        text: text.to_string(),
                    })
                }
                ('-', Some(_)) => {}
                (c, Some(side)) => {
                    let color = if side == 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    add(color, c)?;
                }
            }
        }
        if inside.is_some() {
            return Err(HoldingError::Unclosed(text.to_string()));
        }
    } else {
        for c in text.chars() {
            if matches!(c, '-' | ' ') {
                continue;
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            add(color, c)?;
        }
    }
    Ok(Holding {
        counts,
        arrival: arrived,
    })
}

/// CECP's arrived piece: `W` or `B` (either case) and a piece letter that
/// a pocket can hold (`BR`, `wp`).
fn arrival(text: &str) -> Option<(Color, PieceType)> {
    let mut chars = text.chars();
    let (side, piece, None) = (chars.next()?, chars.next()?, chars.next()) else {
        return None;
    };
    let color = match side.to_ascii_uppercase() {
        'W' => Color::White,
        'B' => Color::Black,
        _ => return None,
    };
    PieceType::from_char(piece)
        .filter(|&k| k != PieceType::King)
        .map(|k| (color, k))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn numbers_of_any_size_are_read_safely() {
        assert_eq!(millis("wtime", Some("1500")), Ok(1500));
        assert_eq!(millis("wtime", Some("-20")), Ok(0));
        assert_eq!(
            millis("wtime", Some("9223372036854775807")),
            Ok(i64::MAX as u64)
        );
        assert_eq!(
            millis("wtime", Some("99999999999999999999999999999999999999999")),
            Ok(u64::MAX)
        );
        assert_eq!(
            millis("wtime", Some("-99999999999999999999999999999999999999999")),
            Ok(0)
        );
        assert!(millis("wtime", Some("12abc")).is_err());
        assert!(millis("wtime", Some("")).is_err());
        assert!(millis("wtime", None).is_err());
        assert_eq!(number::<u32>("depth", Some("7")), Ok(7));
        assert!(number::<u32>("depth", Some("-7")).is_err());
    }

    #[test]
    fn holdings() {
        let c = holding("[QR] [bn]").unwrap_or_default();
        assert_eq!(c[0][PieceType::Queen.index()], 1);
        assert_eq!(c[1][PieceType::Knight.index()], 1);
        assert_eq!(holding("-"), Ok([[0; 5]; 2]));
        assert!(holding("K").is_err());
        assert!(holding("x").is_err());
    }

    /// xboard zippy forwards FICS holdings with upper-case letters in both
    /// brackets (`holding [B] [N]` after a knight reached Black): the
    /// bracket, not the case, names the owner.
    #[test]
    fn bracketed_holdings_read_the_bracket_not_the_case() {
        let pawn = PieceType::Pawn.index();
        let knight = PieceType::Knight.index();
        let bishop = PieceType::Bishop.index();
        let rook = PieceType::Rook.index();
        let c = holding("[B] [N]").unwrap();
        assert_eq!((c[0][bishop], c[0][knight]), (1, 0));
        assert_eq!((c[1][bishop], c[1][knight]), (0, 1));
        // The CECP specification's own example, trailing move left off.
        let c = holding("[PPPRQ] [R]").unwrap();
        assert_eq!((c[0][pawn], c[0][rook], c[1][rook]), (3, 1, 1));
        // Lower case inside the brackets reads the same.
        assert_eq!(holding("[b] [n]"), holding("[B] [N]"));
        assert_eq!(holding("[] [NN]").unwrap()[1][knight], 2);
        assert_eq!(holding("[] []"), Ok([[0; 5]; 2]));
        assert_eq!(holding("[-] [-]"), Ok([[0; 5]; 2]));
        assert!(holding("[P] [N] [R]").is_err());
        // CECP's third field, the piece that just arrived, is allowed.
        let c = holding("[PPPRQ] [R] BR").unwrap();
        assert_eq!((c[0][pawn], c[1][rook]), (3, 1));
        assert_eq!(holding("[] [N] BN"), holding("[] [N]"));
        assert!(holding("[] [N] XN").is_err());
        assert!(holding("[] [N] BK").is_err());
        assert!(holding("[P").is_err());
        assert!(holding("P] [N]").is_err());
        assert!(holding("[K] []").is_err());
        assert!(holding("[P] x [N]").is_err());
    }
}
