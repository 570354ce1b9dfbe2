//! One module per subcommand.

pub mod bench;
pub mod engine;
pub mod play;
pub mod replay;
pub mod sweep;
pub mod watch;
