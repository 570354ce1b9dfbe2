//! The helpers that read request fields and describe bad values, in the words of the
//! protocol's error messages: the protocol's own.

pub use ai2048_protocol::json::{kind, object, quote, MAX_SAFE_INTEGER};
