//! Attack tables: leapers by `const fn`, sliders by fancy magic bitboards
//! whose magics are searched once at start-up with a fixed seed.

use crate::types::{Bitboard, Color, PieceType, Square};
use once_cell::sync::Lazy;

const fn leaper_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i8;
        let r = (sq / 8) as i8;
        let mut i = 0;
        let mut bb = 0u64;
        while i < deltas.len() {
            let (df, dr) = deltas[i];
            let nf = f + df;
            let nr = r + dr;
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bb |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        table[sq] = bb;
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn ray_attacks(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut bb = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i8 + df;
        let mut r = (sq / 8) as i8 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let b = 1u64 << (r * 8 + f);
            bb |= b;
            if occ & b != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    bb
}

/// Squares strictly between two aligned squares, and the full line through them.
const fn line_tables() -> (PairTable, PairTable) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if a != b {
                let bb_b = 1u64 << b;
                let mut k = 0;
                while k < 2 {
                    let dirs = if k == 0 { &ROOK_DIRS } else { &BISHOP_DIRS };
                    if ray_attacks(a, 0, dirs) & bb_b != 0 {
                        between[a][b] =
                            ray_attacks(a, bb_b, dirs) & ray_attacks(b, 1u64 << a, dirs);
                        line[a][b] = (ray_attacks(a, 0, dirs) & ray_attacks(b, 0, dirs))
                            | (1u64 << a)
                            | bb_b;
                    }
                    k += 1;
                }
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

/// Square-pair tables: `[from][to]`.
type PairTable = [[u64; 64]; 64];

static LINES: Lazy<Box<(PairTable, PairTable)>> = Lazy::new(|| Box::new(line_tables()));

/// Magic multipliers found by `find_magic` with the fixed seed below; kept as
/// constants so that start-up takes a millisecond instead of half a second.
/// `build_sliders` checks every one and searches again should one not fit.
const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000a00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040a00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xc100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000a0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
];

/// Bishop magics, found like the rook magics.
const BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100,
    0x006082020a002900,
    0x6810010619200000,
    0x08281a0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040a0210245280,
    0x000200210808a402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202c0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208b0542109008a2,
    0x0080084a08040204,
    0x0040e2a80811244c,
    0x2505022008008108,
    0x0430220100420040,
    0x010a040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000a62048043004,
    0x280120048a015004,
    0x006090002a020814,
    0x44042000240800d0,
    0x01102800040a4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500c05021,
    0x0088611002080200,
    0x0116080a00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002e00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221c0400,
    0x0422014022009020,
    0x0210046102100c00,
    0xc004008082029102,
    0x00aa461801101200,
    0x0404080080201108,
    0x020542108c205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400c0,
    0x0200100410a42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800c262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012a02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct Sliders {
    rook: Vec<Magic>,
    bishop: Vec<Magic>,
    table: Vec<Bitboard>,
}

/// xorshift64* generator for the magic search (deterministic seed).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0u64;
    for &(df, dr) in dirs {
        let mut f = (sq % 8) as i8 + df;
        let mut r = (sq / 8) as i8 + dr;
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

/// Does `magic` map every occupancy subset to a slot without a harmful collision?
fn fits(magic: u64, occs: &[u64], atts: &[u64], shift: u32) -> bool {
    let mut used = vec![None; occs.len()];
    for (o, a) in occs.iter().zip(atts) {
        let idx = (o.wrapping_mul(magic) >> shift) as usize;
        match used[idx] {
            None => used[idx] = Some(*a),
            Some(x) if x == *a => {}
            Some(_) => return false,
        }
    }
    true
}

/// Searches a magic multiplier by trial of sparse random numbers.
fn find_magic(rng: &mut Rng, mask: u64, occs: &[u64], atts: &[u64], shift: u32) -> u64 {
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() >= 6 && fits(magic, occs, atts, shift) {
            return magic;
        }
    }
}

fn build_sliders() -> Sliders {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::with_capacity(107_648);
    let mut build =
        |dirs: &[(i8, i8); 4], known: &[u64; 64], table: &mut Vec<Bitboard>| -> Vec<Magic> {
            let mut out = Vec::with_capacity(64);
            for (sq, &known_magic) in known.iter().enumerate() {
                let mask = relevant_mask(sq, dirs);
                let bits = mask.count_ones();
                let size = 1usize << bits;
                let mut occs = Vec::with_capacity(size);
                let mut atts = Vec::with_capacity(size);
                // Enumerate all subsets of the mask (Carry-Rippler).
                let mut sub = 0u64;
                loop {
                    occs.push(sub);
                    atts.push(ray_attacks(sq, sub, dirs));
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        break;
                    }
                }
                let shift = 64 - bits;
                let magic = if fits(known_magic, &occs, &atts, shift) {
                    known_magic
                } else {
                    find_magic(&mut rng, mask, &occs, &atts, shift)
                };
                let offset = table.len();
                table.resize(offset + size, Bitboard::EMPTY);
                for i in 0..size {
                    let idx = (occs[i].wrapping_mul(magic) >> shift) as usize;
                    table[offset + idx] = Bitboard(atts[i]);
                }
                out.push(Magic {
                    mask,
                    magic,
                    shift,
                    offset,
                });
            }
            out
        };
    let rook = build(&ROOK_DIRS, &ROOK_MAGICS, &mut table);
    let bishop = build(&BISHOP_DIRS, &BISHOP_MAGICS, &mut table);
    Sliders {
        rook,
        bishop,
        table,
    }
}

static SLIDERS: Lazy<Sliders> = Lazy::new(build_sliders);

/// Builds every table now (otherwise they are built on first use).
pub fn init() {
    Lazy::force(&SLIDERS);
    Lazy::force(&LINES);
}

#[inline(always)]
fn magic_lookup(sliders: &Sliders, m: &Magic, occ: Bitboard) -> Bitboard {
    let idx = ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // SAFETY: `idx < 1 << (64 - shift)` by construction of the shift, and the
    // table holds exactly that many entries from `offset` for this square.
    unsafe { *sliders.table.get_unchecked(m.offset + idx) }
}

/// Knight attacks from `sq`.
#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// King attacks from `sq`.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Rook attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    let s = &*SLIDERS;
    magic_lookup(s, &s.rook[sq.index()], occ)
}

/// Bishop attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    let s = &*SLIDERS;
    magic_lookup(s, &s.bishop[sq.index()], occ)
}

/// Queen attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn queen(sq: Square, occ: Bitboard) -> Bitboard {
    rook(sq, occ) | bishop(sq, occ)
}

/// Attacks of a piece of the given kind and colour from `sq`.
#[inline(always)]
pub fn piece(kind: PieceType, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceType::Pawn => pawn(color, sq),
        PieceType::Knight => knight(sq),
        PieceType::Bishop => bishop(sq, occ),
        PieceType::Rook => rook(sq, occ),
        PieceType::Queen => queen(sq, occ),
        PieceType::King => king(sq),
    }
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The whole line through `a` and `b` (both included) when aligned, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_sliders_match_ray_walk() {
        let mut rng = Rng(12345);
        for sq in 0..64u8 {
            for _ in 0..200 {
                let occ = rng.next() & rng.next();
                assert_eq!(
                    rook(Square(sq), Bitboard(occ)).0,
                    ray_attacks(sq as usize, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop(Square(sq), Bitboard(occ)).0,
                    ray_attacks(sq as usize, occ, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn magic_search_finds_valid_magics() {
        let mut rng = Rng(7);
        for sq in [0usize, 27, 63] {
            let mask = relevant_mask(sq, &ROOK_DIRS);
            let mut occs = Vec::new();
            let mut atts = Vec::new();
            let mut sub = 0u64;
            loop {
                occs.push(sub);
                atts.push(ray_attacks(sq, sub, &ROOK_DIRS));
                sub = sub.wrapping_sub(mask) & mask;
                if sub == 0 {
                    break;
                }
            }
            let shift = 64 - mask.count_ones();
            let m = find_magic(&mut rng, mask, &occs, &atts, shift);
            assert!(fits(m, &occs, &atts, shift));
            assert!(fits(ROOK_MAGICS[sq], &occs, &atts, shift));
        }
    }

    #[test]
    fn lines_and_between() {
        let a1 = Square(0);
        let h8 = Square(63);
        assert_eq!(between(a1, h8).count(), 6);
        assert_eq!(line(a1, h8).count(), 8);
        assert!(between(a1, Square(10)).is_empty()); // a1-c2 not aligned
        assert_eq!(knight(a1).count(), 2);
        assert_eq!(king(Square(27)).count(), 8);
    }
}
