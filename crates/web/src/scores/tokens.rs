//! Random values from the operating system's generator: players' tokens, games' ids
//! and spawn keys. Tokens are stored only as their SHA-256, and for a day after a
//! registration with an idempotency key, sealed by that key.

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

/// How long a registration's idempotency key is kept: sent again within it, the
/// registration gets the same token.
pub const IDEMPOTENCY_WINDOW: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// The form an idempotency key is stored in: its SHA-256 under a label of its own (so
/// it is not the pad that seals the token), in hexadecimal.
#[must_use]
pub fn idempotency_key_hash(key: &str) -> String {
    hex(&Sha256::digest(format!("ai2048 idempotency key\n{key}")))
}

/// `token` (hexadecimal) sealed by an idempotency key: its bytes XOR the SHA-256 of
/// the key under a label, in hexadecimal. The same call unseals it. The database
/// keeps only the sealed token and the key's hash, so the token takes the key, which
/// only the client has. `None` for a token that is not 32 bytes of hexadecimal.
///
/// ```
/// use ai2048_web::scores::seal_token;
/// let token = "ab".repeat(32);
/// let sealed = seal_token(&token, "a key of the client").unwrap();
/// assert_ne!(sealed, token);
/// assert_eq!(seal_token(&sealed, "a key of the client"), Some(token.clone()));
/// assert_ne!(seal_token(&sealed, "another key").unwrap(), token);
/// ```
#[must_use]
pub fn seal_token(token: &str, key: &str) -> Option<String> {
    if token.len() != 64 || !token.is_ascii() {
        return None;
    }
    let pad = Sha256::digest(format!("ai2048 sealed token\n{key}"));
    let mut bytes = [0u8; 32];
    for (n, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&token[2 * n..2 * n + 2], 16).ok()? ^ pad[n];
    }
    Some(hex(&bytes))
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
        let sealed = seal_token(&a, "key").unwrap();
        assert_eq!(seal_token(&sealed, "key").as_deref(), Some(a.as_str()));
        assert_ne!(idempotency_key_hash("key"), token_hash("key"));
        for bad in ["", "ab", &"zz".repeat(32), &"é".repeat(32)] {
            assert_eq!(seal_token(bad, "key"), None, "{bad}");
        }
    }
}
