//! Deterministic inputs for the benchmarks.

use strata_sink::rle::RleEncoder;

/// A small xorshift generator: deterministic, no dependency.
#[derive(Debug, Clone)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    /// The next pseudo-random `u64`.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

/// `count` values of `bit_width` bits packed LSB-first (plus 8 padding bytes).
pub fn packed_values(count: usize, bit_width: u32, seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed);
    let mut w = strata_sink::BitWriter::new();
    let mask = if bit_width == 64 {
        u64::MAX
    } else {
        (1u64 << bit_width) - 1
    };
    for _ in 0..count {
        w.put_value(rng.next_u64() & mask, bit_width);
    }
    let mut v = w.into_vec();
    v.extend_from_slice(&[0; 8]);
    v
}

/// An RLE/bit-packed hybrid stream of `count` values shaped like definition
/// levels or dictionary indices: runs of repeats mixed with random stretches.
pub fn rle_stream(count: usize, bit_width: u32, seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed);
    let mask = if bit_width >= 64 {
        u64::MAX
    } else {
        (1u64 << bit_width) - 1
    };
    let mut enc = RleEncoder::new(bit_width);
    let mut written = 0;
    while written < count {
        let len = (rng.next_u64() % 64 + 1) as usize;
        let len = len.min(count - written);
        if rng.next_u64() % 2 == 0 {
            enc.put_repeated(rng.next_u64() & mask, len);
        } else {
            for _ in 0..len {
                enc.put(rng.next_u64() & mask);
            }
        }
        written += len;
    }
    enc.finish()
}
