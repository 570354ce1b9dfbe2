//! The network built into the library: `nets/default.np` when the build found it, read
//! once and shared by every player of the process.

use std::sync::{Arc, OnceLock};

use super::{packed_info, NTupleNetwork};

/// The packed bytes of the built-in network.
#[cfg(ai2048_builtin_network)]
static BYTES: Option<&[u8]> = Some(include_bytes!(env!("AI2048_BUILTIN_NETWORK")));
#[cfg(not(ai2048_builtin_network))]
static BYTES: Option<&[u8]> = None;

/// The network built into this build, read the first time it is asked for and shared
/// from then on (a packed 4x6 network holds 128 MiB of weights: every player of the
/// process uses the one copy). `None` when the build has none: it embeds
/// `nets/default.np` when the file is there as it builds.
///
/// ```
/// use ai2048_ai::ntuple::builtin;
/// if let Some(net) = builtin() {
///     assert!(net.is_quantized());
///     assert!(std::sync::Arc::ptr_eq(&net, &builtin().expect("the same")));
/// }
/// ```
#[must_use]
pub fn builtin() -> Option<Arc<NTupleNetwork>> {
    static NET: OnceLock<Option<Arc<NTupleNetwork>>> = OnceLock::new();
    NET.get_or_init(|| {
        let bytes = BYTES?;
        match NTupleNetwork::read_packed(bytes) {
            Ok(net) => Some(Arc::new(net)),
            Err(e) => {
                // A test checks the built-in network reads; this is a build gone wrong.
                eprintln!("warning: the built-in network cannot be read ({e}); playing without it");
                None
            }
        }
    })
    .clone()
}

/// The size and checksum of the built-in network's file, when the build has one.
#[must_use]
pub fn builtin_file() -> Option<super::PackedInfo> {
    BYTES.and_then(|b| packed_info(b).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_network_reads_when_there_is_one() {
        assert_eq!(builtin().is_some(), BYTES.is_some());
        assert_eq!(builtin_file().is_some(), BYTES.is_some());
        if let Some(net) = builtin() {
            assert!(net.games() > 0 && net.is_quantized());
        }
    }
}
