//! Zobrist keys, generated at compile time from a fixed seed.
//!
//! The key covers pieces, side to move, castling rights, the en-passant file,
//! pocket counts (one key per colour, piece and count), promoted flags,
//! the King's-chess duty flags and, for Chess960 setups only, where the
//! castling rooks and kings started.

/// Largest pocket count per colour and piece that a position may hold.
pub const MAX_POCKET: usize = 64;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// All key tables.
pub struct Keys {
    /// `[piece index 0..12][square]`.
    pub piece: [[u64; 64]; 12],
    /// `[colour][pocket piece 0..5][count]`; count 0 has key 0.
    pub pocket: [[[u64; MAX_POCKET + 1]; 5]; 2],
    /// A promoted piece stands on the square.
    pub promoted: [u64; 64],
    /// `[castling rights bits 0..16]`.
    pub castling: [u64; 16],
    /// En-passant file.
    pub ep_file: [u64; 8],
    /// Black to move.
    pub side: u64,
    /// King's chess: `[colour]` flag "king moved in this period".
    pub duty: [u64; 2],
    /// Chess960 castling setups: `[right bit index][rook's start square]`;
    /// only setups other than the standard one are keyed.
    pub castle_rook: [[u64; 64]; 4],
    /// Chess960 castling setups: `[colour][king's start square]`.
    pub castle_king: [[u64; 64]; 2],
}

const fn build() -> Keys {
    let mut st = 0x005E_ED0F_8B0C_4A5E_u64;
    let mut k = Keys {
        piece: [[0; 64]; 12],
        pocket: [[[0; MAX_POCKET + 1]; 5]; 2],
        promoted: [0; 64],
        castling: [0; 16],
        ep_file: [0; 8],
        side: 0,
        duty: [0; 2],
        castle_rook: [[0; 64]; 4],
        castle_king: [[0; 64]; 2],
    };
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            let (n, v) = splitmix(st);
            st = n;
            k.piece[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 5 {
            let mut n = 1;
            while n <= MAX_POCKET {
                let (s, v) = splitmix(st);
                st = s;
                k.pocket[c][p][n] = v;
                n += 1;
            }
            p += 1;
        }
        c += 1;
    }
    let mut s = 0;
    while s < 64 {
        let (n, v) = splitmix(st);
        st = n;
        k.promoted[s] = v;
        s += 1;
    }
    // Castling keys are the XOR of one key per right, so updates can XOR old and new.
    let mut right_keys = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (n, v) = splitmix(st);
        st = n;
        right_keys[i] = v;
        i += 1;
    }
    let mut r = 0;
    while r < 16 {
        let mut v = 0;
        let mut b = 0;
        while b < 4 {
            if r >> b & 1 != 0 {
                v ^= right_keys[b];
            }
            b += 1;
        }
        k.castling[r] = v;
        r += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (n, v) = splitmix(st);
        st = n;
        k.ep_file[f] = v;
        f += 1;
    }
    let (n, v) = splitmix(st);
    st = n;
    k.side = v;
    let (n, v) = splitmix(st);
    st = n;
    k.duty[0] = v;
    let (n, v) = splitmix(st);
    st = n;
    k.duty[1] = v;
    // Drawn after every older key, so that those keep their values.
    let mut r = 0;
    while r < 6 {
        let mut s = 0;
        while s < 64 {
            let (n, v) = splitmix(st);
            st = n;
            if r < 4 {
                k.castle_rook[r][s] = v;
            } else {
                k.castle_king[r - 4][s] = v;
            }
            s += 1;
        }
        r += 1;
    }
    k
}

/// The key tables.
pub static KEYS: Keys = build();
