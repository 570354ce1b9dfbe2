//! `ai2048 engine`: the JSON-lines protocol of [`ai2048_protocol`] on stdin and stdout.
//!
//! One request per line on stdin, one answer per line on stdout, flushed at once;
//! blank lines get no answer, bad lines get `{"error":"..."}` and the engine goes on.
//! It exits 0 at the end of its input, or when whoever reads its answers goes away.

use std::io::{self, ErrorKind};

use ai2048_protocol::{serve, Session};
use anyhow::{Context, Result};

use crate::args::EngineArgs;

/// Serves requests from stdin until its end.
pub fn run(args: &EngineArgs) -> Result<()> {
    let mut session =
        Session::new(&args.ai).with_context(|| format!("invalid --ai {:?}", args.ai))?;
    match serve(&mut session, io::stdin().lock(), io::stdout().lock()) {
        // The client closed its end: nobody is left to answer.
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        result => result.context("the engine's input or output failed"),
    }
}
