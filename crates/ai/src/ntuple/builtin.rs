//! The network built into the library: `nets/default.np` when the build found it, read
//! once and shared by every player of the process.

use std::sync::{Arc, Once, PoisonError, RwLock};

use super::{packed_info, NTupleNetwork};

/// The packed bytes of the built-in network.
#[cfg(ai2048_builtin_network)]
static BYTES: Option<&[u8]> = Some(include_bytes!(env!("AI2048_BUILTIN_NETWORK")));
#[cfg(not(ai2048_builtin_network))]
static BYTES: Option<&[u8]> = None;

/// The built-in network, once read or installed.
static NET: RwLock<Option<Arc<NTupleNetwork>>> = RwLock::new(None);
/// Reads the embedded bytes into [`NET`] the first time the network is asked for.
static EMBEDDED: Once = Once::new();

/// The network built into this build, read the first time it is asked for and shared
/// from then on (a packed 4x6 network holds 128 MiB of weights: every player of the
/// process uses the one copy). `None` when the build has none and none was
/// [installed](install_builtin): it embeds `nets/default.np` when the file is there
/// as it builds.
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
    read_embedded();
    NET.read().unwrap_or_else(PoisonError::into_inner).clone()
}

/// Makes `net` the built-in network from now on, for the players created after: a
/// build without one (WebAssembly, which downloads the file when the visitor asks for
/// it) plays with it as `eval=network` and as the players' default, as a native build
/// plays with `nets/default.np`. Players created before keep what they had.
///
/// ```
/// use ai2048_ai::ntuple::{builtin, install_builtin, parse_tuples, NTupleNetwork};
///
/// let net = install_builtin(NTupleNetwork::new(parse_tuples("0,1,2,3").unwrap()));
/// assert!(std::sync::Arc::ptr_eq(&net, &builtin().expect("installed")));
/// ```
pub fn install_builtin(net: NTupleNetwork) -> Arc<NTupleNetwork> {
    read_embedded();
    let net = Arc::new(net);
    *NET.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::clone(&net));
    net
}

fn read_embedded() {
    EMBEDDED.call_once(|| {
        let Some(bytes) = BYTES else { return };
        match NTupleNetwork::read_packed(bytes) {
            Ok(net) => *NET.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(net)),
            Err(e) => {
                // A test checks the built-in network reads; this is a build gone wrong.
                eprintln!("warning: the built-in network cannot be read ({e}); playing without it");
            }
        }
    });
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
