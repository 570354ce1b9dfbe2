//! One module per subcommand.

pub mod bench;
pub mod distill;
pub mod engine;
pub mod hint;
pub mod net;
pub mod play;
pub mod players;
pub mod plot;
pub mod replay;
pub mod serve;
pub mod setup;
pub mod signature;
pub mod solve;
pub mod sweep;
pub mod tables;
pub mod train;
pub mod tune;
pub mod watch;
