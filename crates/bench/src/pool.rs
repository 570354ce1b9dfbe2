//! The one runner of games on threads: [`run_tasks`], used by benchmarks, sweeps and
//! tuning.

use core::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::BenchError;

/// Runs the tasks of `tasks` on up to `threads` threads, each thread taking the next
/// task, and returns what each task made, with its index, in no set order.
///
/// `task(i, stopped)` runs task `i`: it returns `Ok(Some(r))` when it made `r`, and
/// `Ok(None)` when it made nothing (it was stopped, or had nothing to do); it asks
/// `stopped()` to learn when to stop early. Once `stop` is set, or a task fails or
/// panics, `stopped()` turns true for the tasks in progress and no task starts; the
/// run then returns the error of the failed task with the lowest index (a panic as
/// [`BenchError::Panicked`] with the task's index).
///
/// # Errors
///
/// A task's error, or [`BenchError::Thread`] when no thread can be started.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use ai2048_bench::run_tasks;
/// let squares = run_tasks(2, 0..10, &AtomicBool::new(false), |i, _| Ok(Some(i * i)))?;
/// let mut squares: Vec<u64> = squares.into_iter().map(|(_, s)| s).collect();
/// squares.sort_unstable();
/// assert_eq!(squares, [0, 1, 4, 9, 16, 25, 36, 49, 64, 81]);
/// # Ok::<(), ai2048_bench::BenchError>(())
/// ```
pub fn run_tasks<R, F>(
    threads: usize,
    tasks: Range<u64>,
    stop: &AtomicBool,
    task: F,
) -> Result<Vec<(u64, R)>, BenchError>
where
    R: Send,
    F: Fn(u64, &dyn Fn() -> bool) -> Result<Option<R>, BenchError> + Sync,
{
    let count = tasks.end.saturating_sub(tasks.start);
    let threads = usize::try_from(count).map_or(threads, |c| threads.min(c));
    if threads == 0 {
        return Ok(Vec::new());
    }
    let next = AtomicU64::new(tasks.start);
    let failed = AtomicBool::new(false);
    let stopped = || stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed);
    let worker = || {
        let mut made = Vec::new();
        loop {
            if stopped() {
                return Ok(made);
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= tasks.end {
                return Ok(made);
            }
            let outcome =
                catch_unwind(AssertUnwindSafe(|| task(index, &stopped))).unwrap_or_else(|panic| {
                    Err(BenchError::Panicked {
                        index,
                        message: panic_message(panic.as_ref()),
                    })
                });
            match outcome {
                Ok(Some(r)) => made.push((index, r)),
                Ok(None) => {}
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    return Err((index, e));
                }
            }
        }
    };
    let results: Vec<WorkerResult<R>> = std::thread::scope(|s| {
        let mut handles = Vec::with_capacity(threads);
        let mut results = Vec::new();
        for _ in 0..threads {
            match std::thread::Builder::new().spawn_scoped(s, worker) {
                Ok(handle) => handles.push(handle),
                // The threads started run every task; with none, the run fails.
                Err(e) => {
                    if handles.is_empty() {
                        results.push(Err((u64::MAX, BenchError::Thread(e.to_string()))));
                    }
                    break;
                }
            }
        }
        results.extend(handles.into_iter().map(|h| {
            h.join().unwrap_or_else(|panic| {
                Err((
                    u64::MAX,
                    BenchError::Panicked {
                        index: u64::MAX,
                        message: panic_message(panic.as_ref()),
                    },
                ))
            })
        }));
        results
    });
    let mut made = Vec::new();
    let mut first_error: Option<(u64, BenchError)> = None;
    for result in results {
        match result {
            Ok(mut r) => made.append(&mut r),
            Err((index, e)) => {
                if first_error.as_ref().is_none_or(|(i, _)| index < *i) {
                    first_error = Some((index, e));
                }
            }
        }
    }
    match first_error {
        Some((_, e)) => Err(e),
        None => Ok(made),
    }
}

/// What one thread of [`run_tasks`] made, or the index of the task that failed and
/// its error.
type WorkerResult<R> = Result<Vec<(u64, R)>, (u64, BenchError)>;

/// The text of a panic's payload, when it has one: what a runner of games reports
/// when a player panics.
///
/// ```
/// let payload = std::panic::catch_unwind(|| panic!("lost")).unwrap_err();
/// assert_eq!(ai2048_bench::panic_message(&*payload), "lost");
/// ```
#[must_use]
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_stops_the_tasks_in_progress_and_the_lowest_error_wins() {
        let stop = AtomicBool::new(false);
        let result: Result<Vec<(u64, ())>, _> = run_tasks(2, 0..1000, &stop, |i, stopped| {
            if i == 3 || i == 5 {
                return Err(BenchError::Config(format!("task {i}")));
            }
            // A long task runs until the failure stops it.
            while i == 0 && !stopped() {
                std::thread::yield_now();
            }
            Ok(None)
        });
        assert_eq!(result, Err(BenchError::Config("task 3".to_owned())));
    }

    #[test]
    fn a_panic_is_an_error_with_its_index_and_stop_runs_nothing() {
        let stop = AtomicBool::new(false);
        let result: Result<Vec<(u64, u64)>, _> = run_tasks(3, 10..20, &stop, |i, _| {
            if i == 12 {
                panic!("boom")
            } else {
                Ok(Some(i))
            }
        });
        assert_eq!(
            result,
            Err(BenchError::Panicked {
                index: 12,
                message: "boom".to_owned()
            })
        );
        stop.store(true, Ordering::Relaxed);
        let none = run_tasks(3, 0..10, &stop, |i, _| Ok(Some(i))).expect("stopped");
        assert!(none.is_empty());
    }
}
