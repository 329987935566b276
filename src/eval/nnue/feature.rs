//! The inputs: board and pocket features seen from one side, the king
//! buckets that pick a set of feature weights, and the output buckets that
//! pick an output neuron.

use crate::position::Position;
use crate::types::{Color, Piece, PieceType, Square};

/// Board features per perspective.
pub const BOARD_FEATURES: usize = 768;
/// Pocket slots per side: P 16, N 4, B 4, R 4, Q 2.
pub const POCKET_CAPS: [usize; 5] = [16, 4, 4, 4, 2];
/// First slot of each pocket piece kind within one side's 30 slots.
const POCKET_OFFSETS: [usize; 5] = [0, 16, 20, 24, 28];
/// Pocket slots of one side.
pub const POCKET_SLOTS: usize = 30;
/// All inputs of one perspective.
pub const INPUTS: usize = BOARD_FEATURES + 2 * POCKET_SLOTS;
/// Most output buckets.
pub const MAX_BUCKETS: usize = 8;
/// Most king buckets.
pub const MAX_KING_BUCKETS: usize = 16;

/// Which set of feature weights a perspective uses: a bucket for each
/// square of its own king, seen from its side (Black's view mirrored
/// vertically, as the board features are). A side without a king (an
/// antichess position) uses the bucket of a1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    /// Bucket of each own-king square, a1..h8 from the perspective's side.
    map: [u8; 64],
    /// Number of buckets (every entry of `map` is below it).
    count: usize,
}

impl KingBuckets {
    /// One bucket: the king is weighed like any piece.
    pub const NONE: KingBuckets = KingBuckets {
        map: [0; 64],
        count: 1,
    };

    /// A map of the 64 squares to buckets; `None` unless the buckets used
    /// are exactly `0..count` for some count up to [`MAX_KING_BUCKETS`].
    pub fn from_map(map: [u8; 64]) -> Option<KingBuckets> {
        let count = *map.iter().max()? as usize + 1;
        let all_used = (0..count).all(|b| map.contains(&(b as u8)));
        (count <= MAX_KING_BUCKETS && all_used).then_some(KingBuckets { map, count })
    }

    /// The layouts `rukav train --king-buckets N` offers, by number of
    /// buckets: 1; 4 (own back rank a-c, d-e, f-h; the king off its back
    /// rank); 8 (back rank a-b, c, d-e, f, g-h; second rank a-d, e-h; the
    /// king further out). A drop-variant king that leaves its first two
    /// ranks is usually being hunted; where it sits on them says which
    /// pieces defend it.
    pub fn layout(count: usize) -> Option<KingBuckets> {
        let rank_file = |f: &dyn Fn(usize, usize) -> u8| {
            let mut map = [0u8; 64];
            for (sq, b) in map.iter_mut().enumerate() {
                *b = f(sq / 8, sq % 8);
            }
            KingBuckets::from_map(map)
        };
        match count {
            1 => Some(KingBuckets::NONE),
            4 => rank_file(&|rank, file| match (rank, file) {
                (0, 0..=2) => 0,
                (0, 3..=4) => 1,
                (0, _) => 2,
                _ => 3,
            }),
            8 => rank_file(&|rank, file| match (rank, file) {
                (0, 0..=1) => 0,
                (0, 2) => 1,
                (0, 3..=4) => 2,
                (0, 5) => 3,
                (0, _) => 4,
                (1, 0..=3) => 5,
                (1, _) => 6,
                _ => 7,
            }),
            _ => None,
        }
    }

    /// Number of buckets.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The map, a1..h8 from the perspective's side.
    pub fn map(&self) -> &[u8; 64] {
        &self.map
    }

    /// The bucket of `perspective` in `pos`.
    #[inline]
    pub fn of(&self, pos: &Position, perspective: Color) -> usize {
        if self.count == 1 {
            return 0;
        }
        let king = pos.pieces(perspective, PieceType::King);
        if king.is_empty() {
            return usize::from(self.map[0]);
        }
        let sq = king.lsb().0 as usize;
        let seen = if perspective == Color::White {
            sq
        } else {
            sq ^ 56
        };
        usize::from(self.map[seen])
    }
}

/// Index of a board feature: `piece` on `sq` seen from `perspective`.
#[inline]
pub fn board_feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = usize::from(piece.color != perspective);
    let sq = if perspective == Color::White {
        sq.0 as usize
    } else {
        (sq.0 ^ 56) as usize
    };
    (theirs * 6 + piece.kind.index()) * 64 + sq
}

/// Index of a pocket feature: the `slot`-th (0-based) piece of kind `kind`
/// in `owner`'s pocket, seen from `perspective`; `None` above the cap.
#[inline]
pub fn pocket_feature(
    perspective: Color,
    owner: Color,
    kind: PieceType,
    slot: usize,
) -> Option<usize> {
    let k = kind.index();
    if k >= 5 || slot >= POCKET_CAPS[k] {
        return None;
    }
    let theirs = usize::from(owner != perspective);
    Some(BOARD_FEATURES + theirs * POCKET_SLOTS + POCKET_OFFSETS[k] + slot)
}

/// The output bucket of `pos` for a network with `buckets` of them: the
/// number of pieces on the board other than kings, in ranges that split a
/// game's phases (in drop variants the pieces not on the board are in hand,
/// so this is also how full the pockets are).
#[inline]
pub fn output_bucket(pos: &Position, buckets: usize) -> usize {
    if buckets <= 1 {
        return 0;
    }
    let pieces = (pos.occupied() & !pos.kind_bb(PieceType::King)).count() as usize;
    // 0-10, 11-14, 15-17, 18-20, 21-23, 24-26, 27-28, 29+ for eight buckets.
    const EIGHT: [usize; 33] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 7,
        7, 7, 7,
    ];
    EIGHT[pieces.min(32)] * buckets / MAX_BUCKETS
}

/// Every active feature of `pos` from `perspective`, appended to `out`
/// (without a king bucket's offset).
pub fn active_features(pos: &Position, perspective: Color, out: &mut Vec<usize>) {
    for_each_feature(pos, perspective, |f| out.push(f));
}

/// Calls `visit` with every active feature of `pos` from `perspective`:
/// board pieces, then pocket slots (drop variants only).
#[inline]
pub(super) fn for_each_feature(pos: &Position, perspective: Color, mut visit: impl FnMut(usize)) {
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_on(sq) {
            visit(board_feature(perspective, p, sq));
        }
    }
    if pos.rules().drops {
        for owner in Color::ALL {
            for kind in PieceType::POCKET {
                for slot in 0..pos.pocket(owner, kind) as usize {
                    if let Some(f) = pocket_feature(perspective, owner, kind, slot) {
                        visit(f);
                    }
                }
            }
        }
    }
}
