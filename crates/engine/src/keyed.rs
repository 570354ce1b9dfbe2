//! Keyed spawns: a game's random draws from HMAC-SHA-256 under a secret key, so that
//! nobody without the key can predict them or tell them from random, and anybody
//! with the key (published once the game is over) can replay them.
//!
//! The draws of one spawn (the start tiles count as one) come from the blocks
//! `HMAC-SHA-256(key, "ai2048 keyed spawns 1" ‖ draw ‖ block)`, `draw` and `block`
//! as 8 bytes big-endian: `draw` is 0 for the start tiles and `n + 1` for the spawn
//! after the turn numbered `n` (from 0), `block` counts from 0. Each block gives four
//! 64-bit words (little-endian), taken in order; the spawn is drawn from them as
//! from [`Rng`](crate::Rng): the cell uniformly among the empty ones (Lemire's
//! method, rejecting rather than reducing modulo), then a 4 when 53 bits of the next
//! word, as a fraction of 1, fall below the four probability.

use core::fmt;
use core::str::FromStr;

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::rng::RandomSource;

/// The label every keyed draw starts with, so that the key gives nothing else.
const LABEL: &[u8] = b"ai2048 keyed spawns 1";

/// The secret key of a game of keyed spawns: 256 bits.
///
/// Its [`fmt::Debug`] form hides it; [`SpawnKey::to_hex`] and [`FromStr`] write and
/// read it as 64 hexadecimal digits.
///
/// ```
/// use ai2048_engine::keyed::SpawnKey;
/// let key = SpawnKey::from_bytes([7; 32]);
/// assert_eq!(key.to_hex().parse::<SpawnKey>(), Ok(key));
/// assert_eq!(format!("{key:?}"), "SpawnKey(..)");
/// assert!("07".parse::<SpawnKey>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpawnKey([u8; 32]);

impl SpawnKey {
    /// The key of these bytes.
    #[must_use]
    pub const fn from_bytes(bytes: [u8; 32]) -> SpawnKey {
        SpawnKey(bytes)
    }

    /// Its bytes.
    #[must_use]
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The key as 64 lowercase hexadecimal digits.
    #[must_use]
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Debug for SpawnKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SpawnKey(..)")
    }
}

/// Why a text is not a [`SpawnKey`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSpawnKeyError;

impl fmt::Display for ParseSpawnKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a spawn key is 64 hexadecimal digits")
    }
}

impl std::error::Error for ParseSpawnKeyError {}

impl FromStr for SpawnKey {
    type Err = ParseSpawnKeyError;

    fn from_str(text: &str) -> Result<SpawnKey, ParseSpawnKeyError> {
        let digits = text.as_bytes();
        if digits.len() != 64 || !digits.iter().all(u8::is_ascii_hexdigit) {
            return Err(ParseSpawnKeyError);
        }
        let value = |digit: u8| match digit {
            b'0'..=b'9' => digit - b'0',
            _ => (digit | 0x20) - b'a' + 10,
        };
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(digits.chunks_exact(2)) {
            *byte = value(pair[0]) << 4 | value(pair[1]);
        }
        Ok(SpawnKey(bytes))
    }
}

/// The generator of one keyed draw: the start tiles, or the spawn after one turn.
///
/// ```
/// use ai2048_engine::keyed::{KeyedRng, SpawnKey};
/// use ai2048_engine::rng::RandomSource;
/// let key = SpawnKey::from_bytes([1; 32]);
/// let mut a = KeyedRng::after_turn(&key, 5);
/// let mut b = KeyedRng::after_turn(&key, 5);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert_ne!(KeyedRng::after_turn(&key, 6).next_u64(), KeyedRng::after_turn(&key, 5).next_u64());
/// assert!(a.below(16) < 16);
/// ```
#[derive(Clone)]
pub struct KeyedRng {
    mac: Hmac<Sha256>,
    draw: u64,
    block: u64,
    words: [u64; 4],
    used: usize,
}

impl fmt::Debug for KeyedRng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyedRng")
            .field("draw", &self.draw)
            .field("block", &self.block)
            .finish_non_exhaustive()
    }
}

impl KeyedRng {
    fn new(key: &SpawnKey, draw: u64) -> KeyedRng {
        let mac =
            <Hmac<Sha256> as Mac>::new_from_slice(&key.0).expect("HMAC takes a key of any length");
        KeyedRng {
            mac,
            draw,
            block: 0,
            words: [0; 4],
            used: 4,
        }
    }

    /// The draws of the start tiles.
    #[must_use]
    pub fn start(key: &SpawnKey) -> KeyedRng {
        KeyedRng::new(key, 0)
    }

    /// The draws of the spawn after the turn numbered `turn` (from 0).
    #[must_use]
    pub fn after_turn(key: &SpawnKey, turn: u64) -> KeyedRng {
        KeyedRng::new(key, turn.wrapping_add(1))
    }
}

impl RandomSource for KeyedRng {
    fn next_u64(&mut self) -> u64 {
        if self.used == self.words.len() {
            let mut mac = self.mac.clone();
            mac.update(LABEL);
            mac.update(&self.draw.to_be_bytes());
            mac.update(&self.block.to_be_bytes());
            let bytes = mac.finalize().into_bytes();
            for (word, chunk) in self.words.iter_mut().zip(bytes.chunks_exact(8)) {
                let mut eight = [0u8; 8];
                eight.copy_from_slice(chunk);
                *word = u64::from_le_bytes(eight);
            }
            self.block += 1;
            self.used = 0;
        }
        self.used += 1;
        self.words[self.used - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_pinned_and_is_hmac_sha256() {
        // These values must never change: keyed games' replays depend on them.
        let key = SpawnKey::from_bytes(core::array::from_fn(|i| i as u8));
        let mut rng = KeyedRng::after_turn(&key, 0);
        let words: Vec<u64> = (0..5).map(|_| rng.next_u64()).collect();
        // The first block by hand: HMAC-SHA-256 of the label, draw 1 and block 0 (as
        // Python's hmac.new(bytes(range(32)), label + pack(">QQ", 1, 0), sha256) gives).
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key.as_bytes()).unwrap();
        mac.update(b"ai2048 keyed spawns 1\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0\0");
        let block = mac.finalize().into_bytes();
        let first = u64::from_le_bytes(block[..8].try_into().unwrap());
        assert_eq!(words[0], first);
        assert_eq!(words[0], 0x481d_d99e_ab5c_6eec, "{:#x}", words[0]);
        // The fifth word opens the second block.
        assert_ne!(words[4], words[0]);
    }

    #[test]
    fn keys_parse_only_as_64_hex_digits() {
        let key = SpawnKey::from_bytes(core::array::from_fn(|i| (i * 9) as u8));
        assert_eq!(key.to_hex().len(), 64);
        assert_eq!(key.to_hex().to_uppercase().parse(), Ok(key));
        for bad in [
            "",
            "xy",
            &format!("+{}", "0".repeat(63)),
            &"0".repeat(63),
            &"0".repeat(65),
            &"g".repeat(64),
            &"é".repeat(32),
        ] {
            assert_eq!(bad.parse::<SpawnKey>(), Err(ParseSpawnKeyError), "{bad:?}");
        }
    }
}
