//! A hash that is stable across platforms, Rust releases and runs (unlike `std`'s
//! `DefaultHasher`, which is explicitly unstable): job seeds, plan and dataset fingerprints and
//! summary bookkeeping all depend on its values staying put. A leaf module: it imports nothing.

/// FNV-1a over bytes, finished with SplitMix64 so nearby inputs give unrelated seeds.
#[derive(Clone, Debug)]
pub struct StableHasher {
    state: u64,
}

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher {
            state: 0xcbf2_9ce4_8422_2325,
        }
    }
}

impl StableHasher {
    /// Feed raw bytes.
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.state ^= u64::from(b);
            self.state = self.state.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Feed a string, length-prefixed so ("ab","c") and ("a","bc") differ.
    pub fn write_str(&mut self, s: &str) {
        self.write_u64(s.len() as u64);
        self.write_bytes(s.as_bytes());
    }

    /// Feed an integer (little-endian bytes).
    pub fn write_u64(&mut self, v: u64) {
        self.write_bytes(&v.to_le_bytes());
    }

    /// The hash value.
    pub fn finish(&self) -> u64 {
        splitmix64(self.state)
    }
}

/// SplitMix64 finaliser (Steele, Lea, Flood 2014).
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_length_prefixed() {
        let mut a = StableHasher::default();
        a.write_str("ab");
        a.write_str("c");
        let mut b = StableHasher::default();
        b.write_str("a");
        b.write_str("bc");
        assert_ne!(a.finish(), b.finish());
    }
}
