//! Positions handed to `shakmaty-syzygy`: Rukav's [`Position`] as the
//! crate's position type, from the bitboards (no FEN, no allocation).

use crate::position::Position;
use crate::types::{Color, PieceType};
use shakmaty::{
    Bitboard as ShBitboard, Board, ByColor, ByRole, CastlingMode, FromSetup, PositionError, Setup,
};
use std::num::NonZeroU32;

/// `pos` as the crate's position type, from its bitboards; `None` where
/// shakmaty does not take the position (it should always take a position
/// the tables cover).
pub(super) fn convert<S: FromSetup>(pos: &Position) -> Option<S> {
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::rules::Variant;
    use shakmaty::variant::Antichess;
    use shakmaty::Chess;

    fn pos(fen: &str, variant: Variant) -> Position {
        Position::from_fen(fen, variant.rules()).unwrap()
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
}
