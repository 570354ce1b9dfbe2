//! Ctrl-C for the long runs (`bench`, `sweep`, `tune`, `train`): the first press asks
//! the run to stop cleanly, and the command reports, saves what finished and returns
//! [`Outcome::Interrupted`], which exits with [`INTERRUPTED_EXIT_CODE`]. A second press
//! quits at once.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// The exit code of a run stopped by Ctrl-C, after its partial results were reported:
/// 128 + SIGINT, as shells report it.
pub const INTERRUPTED_EXIT_CODE: u8 = 130;

/// Set by the Ctrl-C handler: the run stops at the next move of every game.
static STOP: AtomicBool = AtomicBool::new(false);
/// How many times Ctrl-C was pressed during this run.
static PRESSES: AtomicUsize = AtomicUsize::new(0);

/// How a command that can be interrupted ended, when it ended without an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It did all it was asked.
    Done,
    /// Ctrl-C stopped it; what finished was reported and saved.
    Interrupted,
}

impl Outcome {
    /// [`Outcome::Interrupted`] when `interrupted`, else [`Outcome::Done`].
    #[must_use]
    pub fn from_interrupted(interrupted: bool) -> Outcome {
        if interrupted {
            Outcome::Interrupted
        } else {
            Outcome::Done
        }
    }

    /// The process's exit code: success, or [`INTERRUPTED_EXIT_CODE`].
    #[must_use]
    pub fn exit_code(self) -> ExitCode {
        match self {
            Outcome::Done => ExitCode::SUCCESS,
            Outcome::Interrupted => ExitCode::from(INTERRUPTED_EXIT_CODE),
        }
    }
}

/// Installs the Ctrl-C handler (once per process) and returns the stop flag, cleared
/// for a new run. The first Ctrl-C sets the flag; the next one exits at once.
pub(crate) fn catch_ctrl_c() -> &'static AtomicBool {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    STOP.store(false, Ordering::SeqCst);
    PRESSES.store(0, Ordering::SeqCst);
    INSTALLED.get_or_init(|| {
        let installed = ctrlc::set_handler(|| {
            if PRESSES.fetch_add(1, Ordering::SeqCst) > 0 {
                std::process::exit(i32::from(INTERRUPTED_EXIT_CODE));
            }
            STOP.store(true, Ordering::SeqCst);
        });
        if let Err(e) = installed {
            eprintln!("warning: cannot catch Ctrl-C ({e}): interrupting will lose the run");
        }
    });
    &STOP
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_map_to_exit_codes() {
        assert_eq!(Outcome::from_interrupted(false), Outcome::Done);
        assert_eq!(Outcome::from_interrupted(true), Outcome::Interrupted);
        assert_eq!(Outcome::Done.exit_code(), ExitCode::SUCCESS);
        assert_eq!(Outcome::Interrupted.exit_code(), ExitCode::from(130));
    }
}
