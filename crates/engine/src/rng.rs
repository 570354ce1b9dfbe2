//! The one source of randomness: a seeded xoshiro256** generator, pinned here.

/// A small, fast, seeded random generator: xoshiro256** seeded through SplitMix64.
///
/// The project owns this code so that the same seed gives the same game on every
/// machine, every build and every version of the dependencies: nothing else in the
/// project draws random numbers. Its output for a given seed never changes; a test
/// pins the first values.
///
/// ```
/// use ai2048_engine::Rng;
/// let mut a = Rng::new(7);
/// let mut b = Rng::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

/// One step of SplitMix64: a good 64-bit mixer, used to seed and to derive seeds.
///
/// ```
/// use ai2048_engine::rng::splitmix64;
/// let mut state = 1;
/// assert_ne!(splitmix64(&mut state), splitmix64(&mut state));
/// ```
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of the `index`-th game of a run started from `seed`. Games of a benchmark
/// use it, so that game `i` is the same game whatever the number of threads.
///
/// ```
/// use ai2048_engine::rng::derive_seed;
/// assert_eq!(derive_seed(1, 5), derive_seed(1, 5));
/// assert_ne!(derive_seed(1, 5), derive_seed(1, 6));
/// ```
#[must_use]
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    let mut state = seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
    splitmix64(&mut state)
}

impl Rng {
    /// A generator seeded with `seed`. Every seed, 0 included, gives a good stream.
    #[must_use]
    pub fn new(seed: u64) -> Rng {
        let mut state = seed;
        let s = [
            splitmix64(&mut state),
            splitmix64(&mut state),
            splitmix64(&mut state),
            splitmix64(&mut state),
        ];
        Rng { s }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (Lemire's method, without bias).
    ///
    /// # Panics
    ///
    /// Panics if `n` is 0.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        RandomSource::below(self, n)
    }

    /// A uniform float in `[0, 1)`, with 53 random bits.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        RandomSource::unit(self)
    }

    /// `true` with probability `p` (exactly 0 and 1 included).
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        RandomSource::chance(self, p)
    }
}

/// A source of random 64-bit words, and the draws a spawn is made of, the same for
/// every source: [`Rng`] for seeded games, [`KeyedRng`](crate::keyed::KeyedRng) for
/// keyed ones. A spawn drawn from either follows the same rules.
pub trait RandomSource {
    /// The next 64 random bits.
    fn next_u64(&mut self) -> u64;

    /// A uniform integer in `0..n` (Lemire's method, without bias).
    ///
    /// # Panics
    ///
    /// Panics if `n` is 0.
    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "Rng::below(0)");
        let n = u64::from(n);
        loop {
            let m = u64::from(self.next_u64() as u32) * n;
            let low = m as u32;
            if low >= n as u32 || u64::from(low) >= (1u64 << 32) % n {
                return (m >> 32) as u32;
            }
        }
    }

    /// A uniform float in `[0, 1)`, with 53 random bits.
    #[inline]
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `true` with probability `p` (exactly 0 and 1 included).
    #[inline]
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

impl RandomSource for Rng {
    #[inline]
    fn next_u64(&mut self) -> u64 {
        Rng::next_u64(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_is_pinned() {
        // These values must never change: replays and benchmarks depend on them.
        let mut rng = Rng::new(0);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            vec![
                0x99ec_5f36_cb75_f2b4,
                0xbf6e_1f78_4956_452a,
                0x1a5f_849d_4933_e6e0
            ]
        );
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = Rng::new(3);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
    }

    #[test]
    fn chance_extremes() {
        let mut rng = Rng::new(9);
        assert!((0..1000).all(|_| !rng.chance(0.0)));
        assert!((0..1000).all(|_| rng.chance(1.0)));
    }
}
