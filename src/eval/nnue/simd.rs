//! The vector kernels: plain loops over 16-wide chunks that the compiler
//! vectorises, compiled twice on x86-64: for the baseline target (SSE2, runs
//! on any x86-64) and with AVX2 enabled, chosen once at run time by CPU
//! detection. Other architectures get the portable loops only.

use super::network::QA;

#[inline(always)]
fn add_portable(acc: &mut [i16], w: &[i16]) {
    for (a, &x) in acc.iter_mut().zip(w) {
        *a = a.wrapping_add(x);
    }
}

#[inline(always)]
fn sub_portable(acc: &mut [i16], w: &[i16]) {
    for (a, &x) in acc.iter_mut().zip(w) {
        *a = a.wrapping_sub(x);
    }
}

/// Sums wrap in 32 bits, as the AVX2 kernel's lanes do (addition
/// modulo 2^32 does not depend on the order), so the two agree on any
/// network, and a file whose weights overflow the sum gives a wrong
/// evaluation, not a panic; the trainer's networks never come near it.
#[inline(always)]
fn dot_portable(acc: &[i16], weights: &[i16]) -> i32 {
    let mut total = 0i32;
    for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
        let mut lane = [0i32; 16];
        for i in 0..16 {
            lane[i] = i32::from(a[i].clamp(0, QA as i16)) * i32::from(w[i]);
        }
        total = lane.iter().fold(total, |t, &x| t.wrapping_add(x));
    }
    total
}

/// `sum(clamp(a, 0, QA)^2 * w)`, exactly, in 64 bits.
#[inline(always)]
fn screlu_dot_portable(acc: &[i16], weights: &[i16]) -> i64 {
    let mut total = 0i64;
    for (&a, &w) in acc.iter().zip(weights) {
        let c = i64::from(a.clamp(0, QA as i16));
        total += c * c * i64::from(w);
    }
    total
}

/// The same loops compiled for AVX2.
///
/// # Safety
///
/// Every function here may only be called on a CPU with AVX2.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    // Paths from the crate root, not `super::`, which scripts/architecture.py
    // (the import-cycle check) reads as the parent of this file.
    use crate::eval::nnue::network::QA;
    use crate::eval::nnue::simd::{add_portable, sub_portable};

    /// `acc += w`. Safety: needs AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn add(acc: &mut [i16], w: &[i16]) {
        add_portable(acc, w)
    }

    /// `acc -= w`. Safety: needs AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn sub(acc: &mut [i16], w: &[i16]) {
        sub_portable(acc, w)
    }

    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256,
        _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16,
        _mm256_mullo_epi16, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256,
        _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32,
    };

    /// The 16 values of `chunk` (exactly 16) in one register.
    /// Safety: needs AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn load16(chunk: &[i16]) -> __m256i {
        assert_eq!(chunk.len(), 16);
        // SAFETY: 16 i16 values, 32 bytes, the size of one unaligned
        // load.
        unsafe { _mm256_loadu_si256(chunk.as_ptr().cast::<__m256i>()) }
    }

    /// Accumulator values clipped to the activation's range `0..=QA`.
    /// Safety: needs AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn clip(v: __m256i) -> __m256i {
        let ceiling = _mm256_set1_epi16(QA as i16);
        _mm256_min_epi16(_mm256_max_epi16(v, _mm256_setzero_si256()), ceiling)
    }

    /// The CReLU dot product, written with intrinsics: the compiler
    /// does not find the multiply-add (`vpmaddwd`, adjacent products
    /// summed in 32 bits) in the plain loop (with it, this kernel took
    /// 19% of crazyhouse datagen's time; now 2.5%, by perf). A clamped activation (at most 255) times
    /// a weight fits 32 bits, and so does a hidden layer's sum, so the
    /// result equals [`super::dot_portable`]'s (a unit test checks it).
    /// Safety: needs AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot(acc: &[i16], weights: &[i16]) -> i32 {
        let mut sum = _mm256_setzero_si256();
        for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
            // SAFETY: AVX2 is enabled for this function's caller's CPU.
            let (clamped, w) = unsafe { (clip(load16(a)), load16(w)) };
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clamped, w));
        }
        // SAFETY: AVX2 is enabled for this function's caller's CPU.
        unsafe { horizontal_sum(sum) }
    }

    /// The sum of the eight 32-bit lanes of `v` (wrapping).
    /// Safety: needs AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn horizontal_sum(v: __m256i) -> i32 {
        let half = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let last = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(last)
    }

    /// Eight neurons' CReLU readings of both accumulators at once:
    /// `out[k] = sum(clamp(us) * row_k[..h]) + sum(clamp(them) *
    /// row_k[h..])`, `rows` holding the eight rows of `2 * h` weights
    /// one after the other. Each chunk of 16 inputs is loaded and
    /// clamped once for all eight (eight accumulators stay in
    /// registers); sums wrap in 32 bits, as [`dot`]'s do. Safety: needs
    /// AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn crelu_dot8(us: &[i16], them: &[i16], rows: &[i16], out: &mut [i32]) {
        let h = us.len();
        assert!(
            them.len() == h && h.is_multiple_of(16) && rows.len() >= 8 * 2 * h && out.len() >= 8
        );
        let mut sums = [_mm256_setzero_si256(); 8];
        for (half, input) in [us, them].into_iter().enumerate() {
            let starts: [*const i16; 8] =
                std::array::from_fn(|k| rows[k * 2 * h + half * h..][..h].as_ptr());
            for (c, a) in (0..h).step_by(16).zip(input.chunks_exact(16)) {
                // SAFETY: AVX2 is enabled for this function's caller's CPU.
                let clamped = unsafe { clip(load16(a)) };
                for (sum, start) in sums.iter_mut().zip(starts) {
                    // SAFETY: each start begins a row of `h` weights
                    // (sliced above) and `c + 16 <= h`: one unaligned
                    // load inside it.
                    let w = unsafe { _mm256_loadu_si256(start.add(c).cast::<__m256i>()) };
                    *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(clamped, w));
                }
            }
        }
        for (o, sum) in out.iter_mut().zip(sums) {
            // SAFETY: AVX2 is enabled for this function's caller's CPU.
            *o = unsafe { horizontal_sum(sum) };
        }
    }

    /// The SCReLU dot product: `(c * w) * c` with `c` the clamped
    /// activation, the first product in 16 bits (it fits: `c <= 255`
    /// and `|w| <= MAX_SCRELU_OUTPUT_WEIGHT`, which loading checks),
    /// the second by `vpmaddwd` into 32-bit lanes. A lane adds one pair
    /// per 16 units, at most `2 * 255 * 32385` each, 64 pairs for the
    /// largest layer: below 2^31. The lanes are added in 64 bits, so
    /// the result equals [`super::screlu_dot_portable`]'s (a unit test
    /// checks it). Safety: needs AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
        let mut sum = _mm256_setzero_si256();
        for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
            // SAFETY: AVX2 is enabled for this function's caller's CPU.
            let (clamped, w) = unsafe { (clip(load16(a)), load16(w)) };
            let weighted = _mm256_mullo_epi16(clamped, w);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(weighted, clamped));
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 8 i32 values, 32 bytes, the size of one
        // unaligned store.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sum) };
        lanes.iter().map(|&x| i64::from(x)).sum()
    }
}

#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    static AVX2: once_cell::sync::Lazy<bool> =
        once_cell::sync::Lazy::new(|| std::is_x86_feature_detected!("avx2"));
    *AVX2
}

/// Runs the AVX2 kernel where the CPU has AVX2, the portable one elsewhere.
macro_rules! dispatch {
    ($fast:expr, $portable:expr) => {{
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the CPU supports AVX2 (checked at run time above).
            return unsafe { $fast };
        }
        $portable
    }};
}

/// `acc += w`, lane by lane (wrapping).
#[inline]
pub fn add(acc: &mut [i16], w: &[i16]) {
    dispatch!(avx2::add(acc, w), add_portable(acc, w))
}

/// `acc -= w`, lane by lane (wrapping).
#[inline]
pub fn sub(acc: &mut [i16], w: &[i16]) {
    dispatch!(avx2::sub(acc, w), sub_portable(acc, w))
}

/// `sum(clamp(a, 0, QA) * w)`.
#[inline]
pub fn crelu_dot(acc: &[i16], weights: &[i16]) -> i32 {
    dispatch!(avx2::dot(acc, weights), dot_portable(acc, weights))
}

/// The CReLU readings of both accumulators by `out.len()` neurons whose
/// weights are `rows` (`2 * us.len()` per neuron: the side to move's,
/// then the other side's): eight at a time with AVX2, each the same
/// (wrapping) number as [`crelu_dot`] of its two halves added.
#[inline]
pub fn crelu_dots(us: &[i16], them: &[i16], rows: &[i16], out: &mut [i32]) {
    let h = us.len();
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        for (group, row_block) in out.chunks_exact_mut(8).zip(rows.chunks_exact(8 * 2 * h)) {
            // SAFETY: the CPU supports AVX2 (checked at run time).
            unsafe { avx2::crelu_dot8(us, them, row_block, group) };
            done += 8;
        }
    }
    for (o, row) in out[done..]
        .iter_mut()
        .zip(rows[done * 2 * h..].chunks_exact(2 * h))
    {
        let (w_us, w_them) = row.split_at(h);
        *o = crelu_dot(us, w_us).wrapping_add(crelu_dot(them, w_them));
    }
}

/// `sum(clamp(a, 0, QA)^2 * w)`, for weights within
/// ±`MAX_SCRELU_OUTPUT_WEIGHT` and at most `MAX_HIDDEN` units.
#[inline]
pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
    dispatch!(
        avx2::screlu_dot(acc, weights),
        screlu_dot_portable(acc, weights)
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn dispatched_kernels_equal_the_portable_ones() {
        let a: Vec<i16> = (0..256).map(|i| (i * 37 % 700) as i16 - 200).collect();
        let w: Vec<i16> = (0..256).map(|i| (i * 53 % 255) as i16 - 127).collect();
        assert_eq!(super::crelu_dot(&a, &w), super::dot_portable(&a, &w));
        // Extreme values: activations past both ends of the clamp,
        // weights at both ends of i16 (partial sums stay in range, so
        // the portable loop does not overflow), a layer of 1024.
        let big_a: Vec<i16> = (0..1024)
            .map(|i| [i16::MIN, -1, 0, 1, 254, 255, 256, i16::MAX][i % 8])
            .collect();
        let big_w: Vec<i16> = (0..1024)
            .map(|i| [i16::MAX, i16::MIN, 7, -7][i % 4])
            .collect();
        assert_eq!(
            super::crelu_dot(&big_a, &big_w),
            super::dot_portable(&big_a, &big_w)
        );
        // SCReLU: weights at both ends of the allowed range, every
        // activation at the clamp's top, the largest layer (the lanes'
        // worst case), and the mixed values.
        let top_a = vec![i16::MAX; 1024];
        for w in [127i16, -127] {
            let top_w = vec![w; 1024];
            let exact = 1024 * 255 * 255 * i64::from(w);
            assert_eq!(super::screlu_dot(&top_a, &top_w), exact);
            assert_eq!(super::screlu_dot_portable(&top_a, &top_w), exact);
        }
        let small_w: Vec<i16> = w.iter().map(|&x| x.clamp(-127, 127)).collect();
        assert_eq!(
            super::screlu_dot(&a, &small_w),
            super::screlu_dot_portable(&a, &small_w)
        );
        let mixed_w: Vec<i16> = (0..1024).map(|i| [127, -127, 3, 0][i % 4]).collect();
        assert_eq!(
            super::screlu_dot(&big_a, &mixed_w),
            super::screlu_dot_portable(&big_a, &mixed_w)
        );
        // Weights that overflow a 32-bit sum (only a hand-made file has
        // them): both kernels wrap alike.
        let top_a = vec![255i16; 1024];
        let huge_w = vec![i16::MAX; 1024];
        assert_eq!(
            super::crelu_dot(&top_a, &huge_w),
            super::dot_portable(&top_a, &huge_w)
        );
        // Several neurons at once equal one at a time: 19 rows (two
        // groups of eight and three alone), 256 units a side.
        let (us, them) = (&big_a[..256], &big_a[256..512]);
        let rows: Vec<i16> = (0..19 * 512)
            .map(|i| (i * 7919 % 511) as i16 - 255)
            .collect();
        let mut many = [0i32; 19];
        super::crelu_dots(us, them, &rows, &mut many);
        for (k, row) in rows.chunks_exact(512).enumerate() {
            let one = super::dot_portable(us, &row[..256])
                .wrapping_add(super::dot_portable(them, &row[256..]));
            assert_eq!(many[k], one, "neuron {k}");
        }
        let (mut x, mut y) = (a.clone(), a.clone());
        super::add(&mut x, &w);
        super::add_portable(&mut y, &w);
        assert_eq!(x, y);
        super::sub(&mut x, &w);
        super::sub_portable(&mut y, &w);
        assert_eq!(x, y);
        assert_eq!(x, a);
    }
}
