//! Legal move generation for every variant, with drops and house rules.
//!
//! The generator writes into a [`MoveSink`]: a [`MoveList`] collects moves,
//! a [`MoveCounter`] only counts them (bulk counting at the last perft ply:
//! a set of drop targets costs one popcount).

use super::board::Position;
use super::castling::{color_rights, targets};
use crate::attacks;
use crate::rules::PawnDrop2nd;
use crate::types::{Bitboard, Color, Move, PieceType, Square};
use arrayvec::ArrayVec;

/// Capacity of a move list. Real crazyhouse positions exceed 256 legal moves
/// (301 in the perft suite); 1024 is far above anything a position can have.
pub const MAX_MOVES: usize = 1024;

/// Where generated moves go.
pub trait MoveSink {
    /// One move.
    fn push(&mut self, m: Move);
    /// Number of moves received so far.
    fn len(&self) -> usize;
    /// Is it still empty?
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Plain moves from `from` to every square of `targets`.
    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }
    /// Plain pawn moves to every square of `targets`, each from `to - delta`.
    #[inline(always)]
    fn push_pawns(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.push(Move::normal(to.offset(-delta), to));
        }
    }
    /// Promotions to every square of `targets`, from `to - delta`.
    #[inline(always)]
    fn push_promotions(&mut self, targets: Bitboard, delta: i8, to_king: bool) {
        for to in targets {
            let from = to.offset(-delta);
            for k in [
                PieceType::Queen,
                PieceType::Knight,
                PieceType::Rook,
                PieceType::Bishop,
            ] {
                self.push(Move::promotion(from, to, k));
            }
            if to_king {
                self.push(Move::promotion(from, to, PieceType::King));
            }
        }
    }
    /// Drops of `piece` on every square of `targets`.
    #[inline(always)]
    fn push_drops(&mut self, piece: PieceType, targets: Bitboard) {
        for to in targets {
            self.push(Move::drop(piece, to));
        }
    }
}

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        // The capacity is far above any position's move count; a move beyond it
        // is dropped rather than aborting the engine.
        let _ = self.try_push(m);
    }
    #[inline(always)]
    fn len(&self) -> usize {
        ArrayVec::len(self)
    }
}

/// Counts moves without storing them.
#[derive(Default)]
pub struct MoveCounter(pub usize);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.0
    }
    #[inline(always)]
    fn push_targets(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
    #[inline(always)]
    fn push_pawns(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += targets.count() as usize;
    }
    #[inline(always)]
    fn push_promotions(&mut self, targets: Bitboard, _delta: i8, to_king: bool) {
        self.0 += targets.count() as usize * if to_king { 5 } else { 4 };
    }
    #[inline(always)]
    fn push_drops(&mut self, _piece: PieceType, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
}

/// Pawn move deltas for a colour: (push, capture towards file+1, towards file-1).
#[inline(always)]
const fn pawn_deltas(us: Color) -> (i8, i8, i8) {
    match us {
        Color::White => (8, 9, 7),
        Color::Black => (-8, -7, -9),
    }
}

#[inline(always)]
fn shift(b: Bitboard, delta: i8) -> Bitboard {
    if delta > 0 {
        Bitboard(b.0 << delta)
    } else {
        Bitboard(b.0 >> -delta)
    }
}

/// The squares from file `a` to file `b` of rank 1, both included.
const fn rank1_span(a: u8, b: u8) -> u64 {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    (2u64 << hi) - (1u64 << lo)
}

/// `[colour][king file][rook file]` on the colour's back rank: the squares
/// castling needs empty (those between king and target and between rook and
/// target, the two pieces' own squares excepted) and those the king must not
/// find attacked (the ones it passes and its target, its own square excepted
/// unless it is the target: it is not in check there).
const CASTLING_PATHS: [[[(Bitboard, Bitboard); 8]; 8]; 2] = {
    let mut t = [[[(Bitboard::EMPTY, Bitboard::EMPTY); 8]; 8]; 2];
    let mut k = 0;
    while k < 8 {
        let mut r = 0;
        while r < 8 {
            if r != k {
                let (king_to, rook_to) = if r > k { (6, 5) } else { (2, 3) };
                let lifted = (1u64 << k) | (1u64 << r);
                let empty = (rank1_span(k, king_to) | rank1_span(r, rook_to)) & !lifted;
                let path = (rank1_span(k, king_to) & !(1u64 << k)) | (1u64 << king_to);
                t[0][k as usize][r as usize] = (Bitboard(empty), Bitboard(path));
                t[1][k as usize][r as usize] = (Bitboard(empty << 56), Bitboard(path << 56));
            }
            r += 1;
        }
        k += 1;
    }
    t
};

/// Pawns shifted one step diagonally towards file+1 (`east`) or file-1.
#[inline(always)]
fn pawn_capture_shift(b: Bitboard, us: Color, east: bool) -> Bitboard {
    let (_, de, dw) = pawn_deltas(us);
    if east {
        shift(b & !Bitboard::FILE_H, de)
    } else {
        shift(b & !Bitboard::FILE_A, dw)
    }
}

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// Number of legal moves (bulk counted).
    pub fn count_legal(&self) -> usize {
        let mut c = MoveCounter::default();
        self.generate(&mut c);
        c.0
    }

    /// Is there at least one legal move?
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Is `m` legal here?
    pub fn is_legal(&self, m: Move) -> bool {
        !m.is_null() && self.legal_moves().contains(&m)
    }

    /// Generates every legal move into `sink`.
    #[inline]
    pub fn generate<S: MoveSink>(&self, sink: &mut S) {
        if self.rules().royal_king {
            self.generate_royal::<S, false>(sink, self.duty_pending());
        } else {
            self.generate_antichess(sink);
        }
    }

    /// Legal captures and promotions (all evasions when in check; every legal
    /// move in antichess/giveaway/suicide when a capture is forced) for quiescence.
    pub fn generate_tactical<S: MoveSink>(&self, sink: &mut S) {
        if self.rules().royal_king {
            if self.in_check() {
                self.generate_royal::<S, false>(sink, self.duty_pending());
            } else {
                self.generate_royal::<S, true>(sink, self.duty_pending());
            }
        } else {
            self.generate_antichess(sink);
        }
    }

    /// Legal moves ignoring the King's-chess duty (all chess-legal moves).
    pub fn generate_ignoring_duty<S: MoveSink>(&self, sink: &mut S) {
        if self.rules().royal_king {
            self.generate_royal::<S, false>(sink, false);
        } else {
            self.generate_antichess(sink);
        }
    }

    /// Our pieces pinned to our king.
    #[inline]
    pub fn pinned(&self, us: Color) -> Bitboard {
        self.blockers(us, us.flip()) & self.color_bb(us)
    }

    /// Pieces (of either colour) that stand alone between `king_of`'s king
    /// and a slider of `sliders_of`: pins when they are the king's own
    /// pieces, discovered-check candidates when they are the slider's.
    #[inline]
    pub fn blockers(&self, king_of: Color, sliders_of: Color) -> Bitboard {
        let ksq = self.king_sq(king_of);
        let occ = self.occupied();
        let rq =
            self.pieces(sliders_of, PieceType::Rook) | self.pieces(sliders_of, PieceType::Queen);
        let bq =
            self.pieces(sliders_of, PieceType::Bishop) | self.pieces(sliders_of, PieceType::Queen);
        let snipers = (attacks::rook(ksq, Bitboard::EMPTY) & rq)
            | (attacks::bishop(ksq, Bitboard::EMPTY) & bq);
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(ksq, s) & occ;
            if !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// Squares where a piece of `kind` of the side to move would attack the enemy king.
    #[inline]
    pub fn check_squares(&self, kind: PieceType) -> Bitboard {
        let them = self.side_to_move().flip();
        let k = self.pieces(them, PieceType::King);
        if k.is_empty() {
            return Bitboard::EMPTY;
        }
        let ksq = k.lsb();
        let occ = self.occupied();
        match kind {
            PieceType::Pawn => attacks::pawn(them, ksq),
            PieceType::Knight => attacks::knight(ksq),
            PieceType::Bishop => attacks::bishop(ksq, occ),
            PieceType::Rook => attacks::rook(ksq, occ),
            PieceType::Queen => attacks::queen(ksq, occ),
            PieceType::King => Bitboard::EMPTY,
        }
    }

    /// DropMate=false: would dropping `kind` on `to` checkmate?
    fn drop_mates(&self, kind: PieceType, to: Square) -> bool {
        let mut child = *self;
        child.make_move(Move::drop(kind, to));
        if !child.in_check() {
            return false;
        }
        // Replies are judged under the ordinary rules: a mating drop reply counts.
        let mut rules = *child.rules();
        rules.drop_mate = true;
        child.set_rules(rules);
        !child.has_legal_move()
    }

    /// Legal moves with a royal king; `TACTICAL` (only when not in check)
    /// keeps captures and promotions.
    fn generate_royal<S: MoveSink, const TACTICAL: bool>(&self, sink: &mut S, duty_only: bool) {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        let ours = self.color_bb(us);
        let theirs = self.color_bb(them);
        let ksq = self.king_sq(us);
        let checkers = self.checkers();

        // King moves.
        let occ_without_king = occ ^ ksq.bb();
        let king_target = if TACTICAL { theirs } else { !ours };
        for to in attacks::king(ksq) & king_target {
            if !self.attacked_by(to, them, occ_without_king) {
                sink.push(Move::normal(ksq, to));
            }
        }
        if checkers.more_than_one() {
            return;
        }
        if !TACTICAL && checkers.is_empty() && self.rules().castling {
            self.generate_castling(sink, true);
        }
        if duty_only {
            return;
        }
        let (target, drop_target) = if checkers.nonempty() {
            let b = attacks::between(ksq, checkers.lsb());
            (b | checkers, b)
        } else if TACTICAL {
            (theirs, Bitboard::EMPTY)
        } else {
            (!ours, !occ)
        };
        // Pawn pushes: in tactical mode only promotions.
        let push_target = if TACTICAL {
            Bitboard::RANK_1 | Bitboard::RANK_8
        } else {
            target
        };
        let pinned = self.pinned(us);

        for from in self.pieces(us, PieceType::Knight) & !pinned {
            sink.push_targets(from, attacks::knight(from) & target);
        }
        let diag = self.pieces(us, PieceType::Bishop) | self.pieces(us, PieceType::Queen);
        for from in diag {
            let mut t = attacks::bishop(from, occ) & target;
            if pinned.has(from) {
                t &= attacks::line(ksq, from);
            }
            sink.push_targets(from, t);
        }
        let ortho = self.pieces(us, PieceType::Rook) | self.pieces(us, PieceType::Queen);
        for from in ortho {
            let mut t = attacks::rook(from, occ) & target;
            if pinned.has(from) {
                t &= attacks::line(ksq, from);
            }
            sink.push_targets(from, t);
        }

        self.generate_pawns(sink, push_target, theirs & target, pinned, ksq, false);

        if let Some(ep) = self.ep_square() {
            let cap_sq = Square::new(ep.file(), us.flip().relative_rank(3));
            for from in attacks::pawn(them, ep) & self.pieces(us, PieceType::Pawn) {
                let after = (occ ^ from.bb() ^ cap_sq.bb()) | ep.bb();
                let attackers = self.attackers_to(ksq, after) & theirs & !cap_sq.bb();
                if attackers.is_empty() {
                    sink.push(Move::en_passant(from, ep));
                }
            }
        }

        if self.rules().drops && drop_target.nonempty() {
            self.generate_drops(sink, drop_target);
        }
    }

    /// Pawn moves: pushes to `push_target`, captures to `caps`; pinned
    /// pawns move only along their pin line.
    #[inline(always)]
    fn generate_pawns<S: MoveSink>(
        &self,
        sink: &mut S,
        push_target: Bitboard,
        caps: Bitboard,
        pinned: Bitboard,
        ksq: Square,
        quiet_only: bool,
    ) {
        let us = self.side_to_move();
        let (up, de, dw) = pawn_deltas(us);
        let empty = !self.occupied();
        let pawns = self.pieces(us, PieceType::Pawn);
        let rank7 = Bitboard::relative_rank(us, 6);
        let rank3 = Bitboard::relative_rank(us, 2);
        let to_king = self.rules().promote_to_king;

        let free = pawns & !pinned;
        // Non-promoting.
        let p = free & !rank7;
        let single = shift(p, up) & empty;
        let double = shift(single & rank3, up) & empty & push_target;
        sink.push_pawns(single & push_target, up);
        sink.push_pawns(double, up + up);
        if !quiet_only {
            sink.push_pawns(pawn_capture_shift(p, us, true) & caps, de);
            sink.push_pawns(pawn_capture_shift(p, us, false) & caps, dw);
        }
        // Promoting.
        let p = free & rank7;
        if p.nonempty() {
            sink.push_promotions(shift(p, up) & empty & push_target, up, to_king);
            if !quiet_only {
                sink.push_promotions(pawn_capture_shift(p, us, true) & caps, de, to_king);
                sink.push_promotions(pawn_capture_shift(p, us, false) & caps, dw, to_king);
            }
        }
        // Pinned pawns, one by one, along the pin line.
        for from in pawns & pinned {
            let line = attacks::line(ksq, from);
            let b = from.bb();
            let promo = rank7.has(from);
            let single = shift(b, up) & empty;
            let double = shift(single & rank3, up) & empty;
            let pushes = (single | double) & push_target & line;
            let captures = attacks::pawn(us, from) & caps & line;
            for to in pushes | captures {
                if promo {
                    for k in [
                        PieceType::Queen,
                        PieceType::Knight,
                        PieceType::Rook,
                        PieceType::Bishop,
                    ] {
                        sink.push(Move::promotion(from, to, k));
                    }
                    if to_king {
                        sink.push(Move::promotion(from, to, PieceType::King));
                    }
                } else {
                    sink.push(Move::normal(from, to));
                }
            }
        }
    }

    /// Castling (standard and Chess960): the king and its rook go to g/f or
    /// c/d; every square between the king and its target and between the
    /// rook and its target is empty (but for these two pieces); with
    /// `check_attacks`, no square the king stands on, passes or lands on is
    /// attacked once both pieces are lifted (so a castling rook that shields
    /// its king on the back rank does not count). The caller checks that
    /// the king is not in check.
    fn generate_castling<S: MoveSink>(&self, sink: &mut S, check_attacks: bool) {
        let us = self.side_to_move();
        let rights = self.castling_rights() & color_rights(us);
        if rights == 0 {
            return;
        }
        let setup = self.castle_setup();
        let ksq = setup.king(us);
        if !self.pieces(us, PieceType::King).has(ksq) {
            return;
        }
        let them = us.flip();
        let occ = self.occupied();
        // Right bit indices: 0/1 White short/long, 2/3 Black.
        let first = 2 * us.index();
        for (index, short) in [(first, true), (first + 1, false)] {
            if rights & (1 << index) == 0 {
                continue;
            }
            let rook_sq = setup.rook_of(index);
            if !self.pieces(us, PieceType::Rook).has(rook_sq) {
                continue;
            }
            let (must_be_empty, king_path) =
                CASTLING_PATHS[us.index()][ksq.file() as usize][rook_sq.file() as usize];
            if (must_be_empty & occ).nonempty() {
                continue;
            }
            if check_attacks {
                let occ = occ ^ ksq.bb() ^ rook_sq.bb();
                if king_path
                    .into_iter()
                    .any(|s| self.attacked_by(s, them, occ))
                {
                    continue;
                }
            }
            let (king_to, _) = targets(us, short);
            sink.push(Move::castle(ksq, king_to));
        }
    }

    fn generate_drops<S: MoveSink>(&self, sink: &mut S, drop_target: Bitboard) {
        let us = self.side_to_move();
        let rules = *self.rules();
        for kind in PieceType::POCKET {
            if self.pocket(us, kind) == 0 {
                continue;
            }
            let mut t = drop_target;
            if kind == PieceType::Pawn {
                t &= !(Bitboard::RANK_1 | Bitboard::RANK_8);
                if !rules.pawn_drop_7th {
                    t &= !Bitboard::relative_rank(us, 6);
                }
                match rules.pawn_drop_2nd {
                    PawnDrop2nd::Allowed => {}
                    PawnDrop2nd::Forbidden => t &= !Bitboard::relative_rank(us, 1),
                    PawnDrop2nd::CheckOnly => {
                        t &= !(Bitboard::relative_rank(us, 1) & !self.check_squares(kind))
                    }
                }
            }
            if !rules.drop_check {
                t &= !self.check_squares(kind);
            } else if !rules.drop_mate {
                let checking = t & self.check_squares(kind);
                t &= !checking;
                for to in checking {
                    if !self.drop_mates(kind, to) {
                        sink.push(Move::drop(kind, to));
                    }
                }
            }
            sink.push_drops(kind, t);
        }
    }

    fn generate_antichess<S: MoveSink>(&self, sink: &mut S) {
        let us = self.side_to_move();
        let them = us.flip();
        let occ = self.occupied();
        let ours = self.color_bb(us);
        let theirs = self.color_bb(them);
        let start = sink.len();
        let none = Bitboard::EMPTY;

        // Captures first: if there is one, only captures are legal.
        self.generate_piece_moves(sink, theirs, occ, ours);
        self.generate_pawns(sink, theirs, theirs, none, Square(0), false);
        // Quiet pawn pushes are excluded above by target = theirs (pushes go to empty squares).
        if let Some(ep) = self.ep_square() {
            for from in attacks::pawn(them, ep) & self.pieces(us, PieceType::Pawn) {
                sink.push(Move::en_passant(from, ep));
            }
        }
        if sink.len() > start {
            return;
        }
        let empty = !occ;
        self.generate_piece_moves(sink, empty, occ, ours);
        self.generate_pawns(sink, empty, none, none, Square(0), true);
        if self.rules().castling {
            self.generate_castling(sink, false);
        }
    }

    /// Non-pawn moves of the side to move to squares in `target` (pseudo-legal).
    #[inline(always)]
    fn generate_piece_moves<S: MoveSink>(
        &self,
        sink: &mut S,
        target: Bitboard,
        occ: Bitboard,
        ours: Bitboard,
    ) {
        let us = self.side_to_move();
        for from in self.pieces(us, PieceType::Knight) {
            sink.push_targets(from, attacks::knight(from) & target);
        }
        for from in self.pieces(us, PieceType::Bishop) | self.pieces(us, PieceType::Queen) {
            sink.push_targets(from, attacks::bishop(from, occ) & target);
        }
        for from in self.pieces(us, PieceType::Rook) | self.pieces(us, PieceType::Queen) {
            sink.push_targets(from, attacks::rook(from, occ) & target);
        }
        for from in self.pieces(us, PieceType::King) {
            sink.push_targets(from, attacks::king(from) & target & !ours);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Position, Variant};

    /// Tactical generation equals the legal moves filtered to captures and promotions.
    #[test]
    fn tactical_moves_are_the_captures_and_promotions() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[Qp] w KQkq - 0 1",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[Pp] w KQkq - 0 1",
            "4k3/1P6/8/3pP3/8/8/6p1/4K2R[NB] w K d6 0 1",
            "8/PPPPPPPP/8/2k5/8/8/8/4K3[] w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen, Variant::Crazyhouse.rules()).unwrap();
            let mut expected: Vec<String> = pos
                .legal_moves()
                .iter()
                .filter(|m| pos.is_capture(**m) || m.is_promotion())
                .map(|m| m.to_string())
                .collect();
            let mut list = super::MoveList::new();
            pos.generate_tactical(&mut list);
            let mut got: Vec<String> = list.iter().map(|m| m.to_string()).collect();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "{fen}");
        }
    }
}
