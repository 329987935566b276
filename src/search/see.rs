//! Static exchange evaluation.

use crate::attacks;
use crate::eval::PIECE_VALUE;
use crate::position::Position;
use crate::types::{Move, PieceType, Square};

/// The longest exchange followed (captures on one square, both sides);
/// longer ones are cut two short of it.
const MAX_EXCHANGES: usize = 40;

/// Static exchange evaluation: the material balance of the capture sequence
/// on `m`'s target square, best play for both sides (drops included as moves
/// that capture nothing).
pub fn see(pos: &Position, m: Move) -> i32 {
    if m.is_castle() {
        return 0;
    }
    let to = m.to();
    let us = pos.side_to_move();
    let mut occ = pos.occupied();
    let mut gain = [0i32; MAX_EXCHANGES];
    let mut moving_value;
    let mut d = 0;
    gain[0] = match pos.captured_kind(m) {
        Some(k) => PIECE_VALUE[k.index()],
        None => 0,
    };
    if m.is_drop() {
        moving_value = PIECE_VALUE[m.drop_piece().index()];
    } else {
        let kind = pos.moved_kind(m);
        moving_value = PIECE_VALUE[kind.index()];
        occ ^= m.from().bb();
        if m.is_en_passant() {
            occ ^= Square::new(to.file(), m.from().rank()).bb();
        }
    }
    if m.is_promotion() {
        let p = PIECE_VALUE[m.promotion_piece().index()];
        gain[0] += p - PIECE_VALUE[0];
        moving_value = p;
    }
    let mut side = us.flip();
    let mut attackers = pos.attackers_to(to, occ) & occ;
    let rq = pos.kind_bb(PieceType::Rook) | pos.kind_bb(PieceType::Queen);
    let bq = pos.kind_bb(PieceType::Bishop) | pos.kind_bb(PieceType::Queen);
    loop {
        let mine = attackers & pos.color_bb(side);
        if mine.is_empty() || d >= MAX_EXCHANGES - 2 {
            break;
        }
        // Least valuable attacker.
        let mut found = None;
        for kind in PieceType::ALL {
            let b = mine & pos.kind_bb(kind);
            if b.nonempty() {
                found = Some((kind, b.lsb()));
                break;
            }
        }
        let Some((kind, sq)) = found else { break };
        d += 1;
        gain[d] = moving_value - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        moving_value = PIECE_VALUE[kind.index()];
        occ ^= sq.bb();
        attackers |= (attacks::rook(to, occ) & rq) | (attacks::bishop(to, occ) & bq);
        attackers &= occ;
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
        d -= 1;
    }
    gain[0]
}
