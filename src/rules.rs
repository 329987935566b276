//! Variants and house rules as plain data: a closed [`Variant`] enum, a
//! [`Rules`] struct of what the variants differ in, built by struct update,
//! and typed [`HouseRule`]s that modify a copy. Option names and values are
//! the protocol layer's business (`protocol::options`).

use std::fmt;
use std::str::FromStr;

/// The variants Rukav plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// FIDE chess.
    Chess,
    /// Crazyhouse: captures go to the capturer's pocket.
    Crazyhouse,
    /// One board of bughouse: captures go to the partner.
    Bughouse,
    /// Lichess antichess: forced captures, no castling, losing all pieces wins.
    Antichess,
    /// FICS giveaway: antichess with castling.
    Giveaway,
    /// King's chess: chess with a king-move duty per control period.
    KingsChess,
    /// FICS suicide: antichess, except that a side to move without a legal
    /// move wins with fewer pieces than the opponent, loses with more, and
    /// draws with as many.
    Suicide,
}

impl Variant {
    /// Every variant, in the order the UCI combo lists them.
    pub const ALL: [Variant; 7] = [
        Variant::Chess,
        Variant::Crazyhouse,
        Variant::Bughouse,
        Variant::Antichess,
        Variant::Giveaway,
        Variant::Suicide,
        Variant::KingsChess,
    ];

    /// The UCI name (`chess`, `crazyhouse`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Crazyhouse => "crazyhouse",
            Variant::Bughouse => "bughouse",
            Variant::Antichess => "antichess",
            Variant::Giveaway => "giveaway",
            Variant::KingsChess => "kingschess",
            Variant::Suicide => "suicide",
        }
    }

    /// The variant's fixed number in file formats (datagen records, network
    /// headers): chess 0, crazyhouse 1, bughouse 2, antichess 3, giveaway 4,
    /// King's chess 5, suicide 6. Never renumbered; a new variant takes the next free
    /// number, whatever its place in [`Variant::ALL`].
    pub const fn id(self) -> u8 {
        match self {
            Variant::Chess => 0,
            Variant::Crazyhouse => 1,
            Variant::Bughouse => 2,
            Variant::Antichess => 3,
            Variant::Giveaway => 4,
            Variant::KingsChess => 5,
            Variant::Suicide => 6,
        }
    }

    /// The variant with the file-format number `id` (see [`Variant::id`]).
    pub const fn from_id(id: u8) -> Option<Variant> {
        Some(match id {
            0 => Variant::Chess,
            1 => Variant::Crazyhouse,
            2 => Variant::Bughouse,
            3 => Variant::Antichess,
            4 => Variant::Giveaway,
            5 => Variant::KingsChess,
            6 => Variant::Suicide,
            _ => return None,
        })
    }

    /// The default rules of this variant.
    pub const fn rules(self) -> Rules {
        match self {
            Variant::Chess => CHESS,
            Variant::Crazyhouse => CRAZYHOUSE,
            Variant::Bughouse => BUGHOUSE,
            Variant::Antichess => ANTICHESS,
            Variant::Giveaway => GIVEAWAY,
            Variant::KingsChess => KINGSCHESS,
            Variant::Suicide => SUICIDE,
        }
    }

    /// Does this variant have pockets (drops)?
    pub const fn has_pockets(self) -> bool {
        self.rules().drops
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name [`Variant::from_str`] does not know (the text, trimmed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown variant '{}'", self.0)
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let l = s.trim().to_ascii_lowercase();
        Ok(match l.as_str() {
            "chess" | "standard" | "normal" => Variant::Chess,
            "crazyhouse" | "zh" => Variant::Crazyhouse,
            "bughouse" => Variant::Bughouse,
            "antichess" => Variant::Antichess,
            "suicide" => Variant::Suicide,
            "giveaway" => Variant::Giveaway,
            "kingschess" | "kings" => Variant::KingsChess,
            _ => return Err(UnknownVariant(s.trim().to_string())),
        })
    }
}

/// Where a pawn may be dropped on the dropping side's own 2nd rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PawnDrop2nd {
    /// Allowed (international rule).
    Allowed,
    /// Never.
    Forbidden,
    /// Only if the dropped pawn itself gives check.
    CheckOnly,
}

/// Bughouse promotion rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PromotionRule {
    /// Promote to any piece but a king.
    Standard,
    /// Gambler rule: the partner takes a piece from the other board (needs both boards).
    Gambler,
}

/// What a side to move that has no legal move (and is not mated: no
/// royal king, or not in check) gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StalemateRule {
    /// A draw (chess, crazyhouse, King's chess; a bughouse board waits for
    /// a piece instead, see [`Rules::two_boards`]).
    Draw,
    /// The stalemated side wins (lichess antichess, FICS giveaway).
    Wins,
    /// FICS suicide: the stalemated side wins with fewer pieces on the
    /// board than the opponent, loses with more, and draws with as many.
    FewerPiecesWin,
}

/// Everything the variants differ in. Variants are `const`s built by struct update.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Which variant these rules belong to.
    pub variant: Variant,
    /// Pieces may be dropped from pockets.
    pub drops: bool,
    /// Captured pieces go to the capturer's pocket (false in bughouse: to the partner).
    pub captures_to_hand: bool,
    /// The game is played on two boards (bughouse).
    pub two_boards: bool,
    /// The king is royal: check, mate, no moving into check.
    pub royal_king: bool,
    /// Captures are compulsory (antichess, giveaway, suicide).
    pub must_capture: bool,
    /// Castling exists.
    pub castling: bool,
    /// Pawns may promote to a king.
    pub promote_to_king: bool,
    /// Losing all pieces wins, and the search plays to lose material
    /// (antichess, giveaway, suicide); what a stalemate gives is
    /// [`Rules::stalemate`].
    pub losers_win: bool,
    /// What a side to move without a legal move gets (mate aside).
    pub stalemate: StalemateRule,
    /// King's chess: a king move is due in every control period.
    pub king_duty: bool,
    /// Drops may give check.
    pub drop_check: bool,
    /// Drops may give mate (ignored when `drop_check` is false).
    pub drop_mate: bool,
    /// Pawns may be dropped on the dropping side's 7th rank.
    pub pawn_drop_7th: bool,
    /// Pawn drops on the dropping side's own 2nd rank.
    pub pawn_drop_2nd: PawnDrop2nd,
    /// A captured promoted piece goes to the pocket as a pawn.
    pub promoted_revert: bool,
    /// A rook dropped on its corner restores castling if the king is on e1/e8
    /// (only where that castling is the standard one: king from e1/e8, rook
    /// from the corner; never for other Chess960 setups).
    pub dropped_rook_castles: bool,
    /// Bughouse promotion rule.
    pub promotion_rule: PromotionRule,
    /// The 50-move rule applies.
    pub fifty_move_rule: bool,
    /// `UCI_Chess960`: FEN castling fields are read as X-FEN/Shredder-FEN
    /// (rooks and king on any files of the back rank) and castling is
    /// written king-takes-rook (`e1h1`). Castling itself always follows the
    /// position's own setup (where its king and castling rooks started).
    pub chess960: bool,
}

/// FIDE chess.
pub const CHESS: Rules = Rules {
    variant: Variant::Chess,
    drops: false,
    captures_to_hand: false,
    two_boards: false,
    royal_king: true,
    must_capture: false,
    castling: true,
    promote_to_king: false,
    losers_win: false,
    stalemate: StalemateRule::Draw,
    king_duty: false,
    drop_check: true,
    drop_mate: true,
    pawn_drop_7th: true,
    pawn_drop_2nd: PawnDrop2nd::Allowed,
    promoted_revert: true,
    dropped_rook_castles: false,
    promotion_rule: PromotionRule::Standard,
    fifty_move_rule: true,
    chess960: false,
};

/// Crazyhouse (lichess/FICS rules).
pub const CRAZYHOUSE: Rules = Rules {
    variant: Variant::Crazyhouse,
    drops: true,
    captures_to_hand: true,
    fifty_move_rule: false,
    ..CHESS
};

/// One bughouse board: captures go to the partner.
pub const BUGHOUSE: Rules = Rules {
    variant: Variant::Bughouse,
    captures_to_hand: false,
    two_boards: true,
    ..CRAZYHOUSE
};

/// Lichess antichess.
pub const ANTICHESS: Rules = Rules {
    variant: Variant::Antichess,
    royal_king: false,
    must_capture: true,
    castling: false,
    promote_to_king: true,
    losers_win: true,
    stalemate: StalemateRule::Wins,
    ..CHESS
};

/// FICS giveaway: antichess with castling.
pub const GIVEAWAY: Rules = Rules {
    variant: Variant::Giveaway,
    castling: true,
    ..ANTICHESS
};

/// FICS suicide: antichess (no castling) where a stalemate is decided by
/// the number of pieces (see [`StalemateRule::FewerPiecesWin`]).
pub const SUICIDE: Rules = Rules {
    variant: Variant::Suicide,
    stalemate: StalemateRule::FewerPiecesWin,
    ..ANTICHESS
};

/// King's chess.
pub const KINGSCHESS: Rules = Rules {
    variant: Variant::KingsChess,
    king_duty: true,
    ..CHESS
};

impl Default for Rules {
    fn default() -> Rules {
        CHESS
    }
}

/// One house rule of rules.md with its value: what a UCI option such as
/// `DropCheck` sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HouseRule {
    /// Drops may give check.
    DropCheck(bool),
    /// Drops may give mate.
    DropMate(bool),
    /// Pawns may be dropped on the dropping side's 7th rank.
    PawnDrop7th(bool),
    /// Pawn drops on the dropping side's own 2nd rank.
    PawnDrop2nd(PawnDrop2nd),
    /// A captured promoted piece goes to the pocket as a pawn.
    PromotedRevert(bool),
    /// A rook dropped on its corner restores castling.
    DroppedRookCastles(bool),
    /// Bughouse promotion rule.
    PromotionRule(PromotionRule),
    /// `UCI_Chess960`: Chess960 castling fields and notation (not a rule of
    /// rules.md, but set the same way: it belongs to the rules of a game
    /// and keeps its value across variant changes).
    Chess960(bool),
}

impl Rules {
    /// These rules with one house rule changed.
    pub const fn with(self, rule: HouseRule) -> Rules {
        let mut r = self;
        match rule {
            HouseRule::DropCheck(v) => r.drop_check = v,
            HouseRule::DropMate(v) => r.drop_mate = v,
            HouseRule::PawnDrop7th(v) => r.pawn_drop_7th = v,
            HouseRule::PawnDrop2nd(v) => r.pawn_drop_2nd = v,
            HouseRule::PromotedRevert(v) => r.promoted_revert = v,
            HouseRule::DroppedRookCastles(v) => r.dropped_rook_castles = v,
            HouseRule::PromotionRule(v) => r.promotion_rule = v,
            HouseRule::Chess960(v) => r.chess960 = v,
        }
        r
    }

    /// The rules of `variant` with the house rules of these rules kept.
    pub const fn with_variant(self, variant: Variant) -> Rules {
        Rules {
            drop_check: self.drop_check,
            drop_mate: self.drop_mate,
            pawn_drop_7th: self.pawn_drop_7th,
            pawn_drop_2nd: self.pawn_drop_2nd,
            promoted_revert: self.promoted_revert,
            dropped_rook_castles: self.dropped_rook_castles,
            promotion_rule: self.promotion_rule,
            chess960: self.chess960,
            ..variant.rules()
        }
    }
}

/// The control period (first and last move number) that contains `color`'s
/// move number `n` in King's chess, if any.
///
/// White: 1-10, 11-15, 21-25, 31-35, ...; Black: 1-10, 16-20, 26-30, ...
pub const fn duty_period(white: bool, n: u32) -> Option<(u32, u32)> {
    if n == 0 {
        return None;
    }
    if n <= 10 {
        return Some((1, 10));
    }
    let first = if white { 11 } else { 16 };
    if n < first {
        return None;
    }
    let start = first + (n - first) / 10 * 10;
    if n <= start + 4 {
        Some((start, start + 4))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_follow_rules_md() {
        assert_eq!(duty_period(true, 1), Some((1, 10)));
        assert_eq!(duty_period(true, 10), Some((1, 10)));
        assert_eq!(duty_period(true, 11), Some((11, 15)));
        assert_eq!(duty_period(true, 16), None);
        assert_eq!(duty_period(true, 21), Some((21, 25)));
        assert_eq!(duty_period(true, 35), Some((31, 35)));
        assert_eq!(duty_period(false, 11), None);
        assert_eq!(duty_period(false, 15), None);
        assert_eq!(duty_period(false, 16), Some((16, 20)));
        assert_eq!(duty_period(false, 20), Some((16, 20)));
        assert_eq!(duty_period(false, 21), None);
        assert_eq!(duty_period(false, 46), Some((46, 50)));
    }

    #[test]
    fn variants_inherit() {
        const { assert!(BUGHOUSE.drops && !BUGHOUSE.captures_to_hand) };
        const { assert!(GIVEAWAY.castling && !ANTICHESS.castling) };
        const { assert!(KINGSCHESS.king_duty && KINGSCHESS.royal_king) };
        const { assert!(SUICIDE.losers_win && SUICIDE.must_capture && !SUICIDE.castling) };
        assert_eq!(
            SUICIDE,
            Rules {
                variant: Variant::Suicide,
                stalemate: StalemateRule::FewerPiecesWin,
                ..ANTICHESS
            }
        );
        assert_eq!(ANTICHESS.stalemate, StalemateRule::Wins);
        assert_eq!(GIVEAWAY.stalemate, StalemateRule::Wins);
        assert_eq!(CHESS.stalemate, StalemateRule::Draw);
        assert_eq!("suicide".parse::<Variant>(), Ok(Variant::Suicide));
        assert_eq!("antichess".parse::<Variant>(), Ok(Variant::Antichess));
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
            assert_eq!(v.rules().variant, v);
        }
    }

    /// The numbers written into datagen records and network headers: data
    /// and nets made earlier depend on them, so they never change.
    #[test]
    fn file_format_ids_are_pinned() {
        let pinned = [
            (Variant::Chess, 0),
            (Variant::Crazyhouse, 1),
            (Variant::Bughouse, 2),
            (Variant::Antichess, 3),
            (Variant::Giveaway, 4),
            (Variant::KingsChess, 5),
            (Variant::Suicide, 6),
        ];
        for (v, id) in pinned {
            assert_eq!(v.id(), id);
            assert_eq!(Variant::from_id(id), Some(v));
        }
        assert_eq!(Variant::from_id(7), None);
        assert_eq!(pinned.len(), Variant::ALL.len());
    }
}
