//! Random values from the operating system's generator: players' tokens, games' ids
//! and spawn keys. Tokens are stored only as their SHA-256.

use ai2048_engine::keyed::SpawnKey;
use sha2::{Digest, Sha256};

/// `N` random bytes from the operating system's generator.
///
/// # Errors
///
/// When the system has no generator to give them (which a server cannot do without).
fn os_random<const N: usize>() -> Result<[u8; N], String> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)
        .map_err(|e| format!("the operating system's random generator failed: {e}"))?;
    Ok(bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new player's token: 256 random bits, as 64 hexadecimal digits.
///
/// # Errors
///
/// When the system's generator fails.
pub fn new_token() -> Result<String, String> {
    Ok(hex(&os_random::<32>()?))
}

/// A new game's id: 80 random bits, as 20 hexadecimal digits.
///
/// # Errors
///
/// When the system's generator fails.
pub fn new_game_id() -> Result<String, String> {
    Ok(hex(&os_random::<10>()?))
}

/// A new game's spawn key: 256 random bits.
///
/// # Errors
///
/// When the system's generator fails.
pub fn new_spawn_key() -> Result<SpawnKey, String> {
    Ok(SpawnKey::from_bytes(os_random::<32>()?))
}

/// The form a token is stored in: its SHA-256, in hexadecimal.
///
/// ```
/// use ai2048_web::scores::token_hash;
/// assert_eq!(
///     token_hash("abc"),
///     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// );
/// ```
#[must_use]
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_values_differ_and_have_their_size() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(new_game_id().unwrap().len(), 20);
        assert_ne!(new_spawn_key().unwrap(), new_spawn_key().unwrap());
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
    }
}
