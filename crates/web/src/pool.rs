//! The search pool: a fixed number of threads running searches, with a bounded queue.

use std::collections::HashSet;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};

use ai2048_protocol::{Op, Response, Session};
use tokio::sync::oneshot;

/// One search to run, and where its answer goes.
struct Job {
    op: Op,
    reply: oneshot::Sender<Response>,
}

/// Every worker is busy and the queue is full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy;

/// A fixed pool of search threads fed by a bounded first-come, first-served queue.
///
/// The pool admits at most `workers + queue` searches at a time: one running on each
/// worker and `queue` more waiting. A search holds its place from [`submit`](Self::submit)
/// until its answer is sent, so whether the next one is admitted depends only on how
/// many are unanswered, never on how quickly a worker comes back for work.
///
/// Each worker keeps its own protocol [`Session`], and so its own players, so that
/// repeated requests for one player reuse it; when a search would make a worker keep
/// more than `players_per_worker` players, the worker drops them all first. The
/// workers end when the pool is dropped.
pub struct SearchPool {
    jobs: SyncSender<Job>,
    /// The searches submitted and not yet answered.
    admitted: Arc<AtomicUsize>,
    /// The most searches admitted at once: workers plus queue.
    capacity: usize,
}

impl SearchPool {
    /// Starts `workers` threads (at least one), with room for `queue` searches waiting.
    ///
    /// # Errors
    ///
    /// When a thread cannot be started.
    pub fn new(workers: usize, queue: usize, players_per_worker: usize) -> io::Result<SearchPool> {
        let workers = workers.max(1);
        let capacity = workers.saturating_add(queue);
        // Room for every admitted search, so that sending an admitted one never fails.
        let (jobs, receiver) = mpsc::sync_channel::<Job>(capacity);
        let receiver = Arc::new(Mutex::new(receiver));
        let admitted = Arc::new(AtomicUsize::new(0));
        for i in 0..workers {
            let receiver = Arc::clone(&receiver);
            let admitted = Arc::clone(&admitted);
            std::thread::Builder::new()
                .name(format!("ai2048-search-{i}"))
                .spawn(move || work(&receiver, &admitted, players_per_worker.max(1)))?;
        }
        Ok(SearchPool {
            jobs,
            admitted,
            capacity,
        })
    }

    /// Queues `op` (a `best` request), or answers [`Busy`] at once when every worker
    /// is busy and the queue is full. The answer comes on the returned channel.
    ///
    /// # Errors
    ///
    /// [`Busy`], as said; also when the workers are gone, which does not happen while
    /// the pool lives.
    pub fn submit(&self, op: Op) -> Result<oneshot::Receiver<Response>, Busy> {
        self.admitted
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.capacity).then_some(n + 1)
            })
            .map_err(|_| Busy)?;
        let (reply, answer) = oneshot::channel();
        match self.jobs.try_send(Job { op, reply }) {
            Ok(()) => Ok(answer),
            Err(_) => {
                self.admitted.fetch_sub(1, Ordering::AcqRel);
                Err(Busy)
            }
        }
    }
}

/// A worker: takes the next job, runs it on its session, sends the answer; ends when
/// the pool is dropped.
fn work(jobs: &Mutex<Receiver<Job>>, admitted: &AtomicUsize, players_per_worker: usize) {
    let mut session = Session::default();
    // The players the session may hold, by spec: it holds no other.
    let mut kept: HashSet<String> = HashSet::new();
    loop {
        let next = jobs.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(Job { op, reply }) = next else {
            return;
        };
        // The client gave up while the job waited: do not search for nobody.
        if reply.is_closed() {
            admitted.fetch_sub(1, Ordering::AcqRel);
            continue;
        }
        let key = match &op {
            Op::Best { ai: Some(spec), .. } => Some(spec.to_string()),
            _ => None,
        };
        let new_player = key.as_ref().is_some_and(|k| !kept.contains(k));
        if new_player && kept.len() >= players_per_worker {
            session = Session::default();
            kept.clear();
        }
        // The session turns a panicking player into an error answer; this is only a
        // guard for the worker itself, which must outlive any one request.
        let answer = catch_unwind(AssertUnwindSafe(|| session.handle(&op))).unwrap_or_else(|_| {
            session = Session::default();
            kept.clear();
            Response::Error("internal error: the search failed".to_owned())
        });
        if let Some(key) = key {
            if !matches!(answer, Response::Error(_)) {
                kept.insert(key);
            }
        }
        debug_assert!(session.cached_players() <= players_per_worker);
        // The place is free before the answer goes, so a client that submits again
        // as soon as it has its answer is admitted.
        admitted.fetch_sub(1, Ordering::AcqRel);
        // The client may have gone in the meantime: nobody to tell.
        let _ = reply.send(answer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ai2048_ai::{PlayerSpec, SearchLimits};
    use ai2048_engine::Board;
    use std::time::Duration;

    fn best(ai: &str, ms: u64) -> Op {
        Op::Best {
            board: "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse::<Board>().unwrap(),
            ai: Some(ai.parse::<PlayerSpec>().unwrap()),
            limits: SearchLimits::with_time(Duration::from_millis(ms)),
        }
    }

    #[test]
    fn answers_and_refuses_past_capacity() {
        let pool = SearchPool::new(1, 1, 2).unwrap();
        let answer = pool.submit(best("greedy", 0)).unwrap();
        assert!(matches!(
            answer.blocking_recv(),
            Ok(Response::Best(Some(_)))
        ));
        // Keep the worker busy with a slow search and fill the queue: the next is
        // refused, whether or not the worker has taken the slow one yet.
        let slow = pool.submit(best("mcts:playouts=1000000", 300)).unwrap();
        let queued = pool.submit(best("greedy", 0)).unwrap();
        assert_eq!(pool.submit(best("greedy", 0)).err(), Some(Busy));
        assert!(matches!(slow.blocking_recv(), Ok(Response::Best(Some(_)))));
        assert!(matches!(
            queued.blocking_recv(),
            Ok(Response::Best(Some(_)))
        ));
        assert!(pool.submit(best("greedy", 0)).is_ok());
    }

    #[test]
    fn workers_keep_few_players() {
        let pool = SearchPool::new(1, 4, 2).unwrap();
        // Debug builds check after every search that the worker keeps at most 2
        // players; a worker that failed the check would answer no more.
        for ai in [
            "greedy",
            "random",
            "greedy",
            "mcts:playouts=2",
            "random",
            "minimax:depth=1",
        ] {
            let answer = pool.submit(best(ai, 0)).unwrap();
            assert!(
                matches!(answer.blocking_recv(), Ok(Response::Best(Some(_)))),
                "{ai}"
            );
        }
    }
}
