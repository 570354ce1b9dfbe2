//! Long work (games, pools' games) on a thread of its own, while the caller's thread,
//! the GIL released, looks at Ctrl-C and at a stop callback.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How long the waiting thread sleeps between looks at the work and at Ctrl-C.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a thread of its own with a stop flag it should read, the GIL
/// released, and about ten times a second looks at Ctrl-C and calls `should_stop`:
/// Ctrl-C, an exception of `should_stop`, or its returning true sets the flag.
///
/// Returns what `work` returned (after a `should_stop` that returned true too), or,
/// once `work` has stopped, the exception of Ctrl-C (KeyboardInterrupt) or of
/// `should_stop`; a RuntimeError if `work` panicked.
pub(crate) fn run_stoppable<R: Send>(
    py: Python<'_>,
    should_stop: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(&AtomicBool) -> R + Send,
) -> PyResult<R> {
    let stop = AtomicBool::new(false);
    let (made, interrupt) = std::thread::scope(|scope| {
        let worker = scope.spawn(|| work(&stop));
        let mut interrupt = None;
        while !worker.is_finished() {
            py.detach(|| {
                let start = Instant::now();
                while !worker.is_finished() && start.elapsed() < POLL * 5 {
                    std::thread::sleep(POLL / 4);
                }
            });
            if interrupt.is_none() {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupt = Some(e);
                }
            }
            if let (None, Some(f)) = (&interrupt, should_stop) {
                if !stop.load(Ordering::Relaxed) {
                    match f.call0().and_then(|v| v.is_truthy()) {
                        Ok(asked) => stop.store(asked, Ordering::Relaxed),
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            interrupt = Some(e);
                        }
                    }
                }
            }
        }
        (worker.join(), interrupt)
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    made.map_err(|_| PyRuntimeError::new_err("the worker thread panicked"))
}
