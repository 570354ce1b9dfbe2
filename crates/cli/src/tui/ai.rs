//! The AI's searches, on a thread of their own, so that the screen keeps answering
//! keys while a long search runs.

use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

use ai2048_ai::{Player, SearchLimits, SearchResult};
use ai2048_engine::Board;
use anyhow::{bail, Context, Result};

/// A search the screen asks for: the position, and a number to match the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchRequest {
    /// Which request this is.
    pub id: u64,
    /// The position to search.
    pub board: Board,
}

/// A finished search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchDone {
    /// The request it answers.
    pub id: u64,
    /// The position searched.
    pub board: Board,
    /// What the player found.
    pub result: SearchResult,
    /// How long it took.
    pub elapsed: Duration,
    /// The endgame table that answered the position, as the player names it
    /// ([`Player::table_name`]): where its move was played, the values are its odds.
    pub table_name: Option<String>,
    /// Whether that table keeps its odds ([`Player::table_keeps_odds`]): a table of
    /// moves does not, and its values (1 for its move, 0 for the others) are none.
    pub table_odds: bool,
}

impl SearchDone {
    /// Runs `request` with `player` here and now: what the worker does, for tests.
    pub fn run(player: &mut dyn Player, limits: &SearchLimits, request: SearchRequest) -> Self {
        let started = Instant::now();
        let result = player.search(request.board, limits);
        SearchDone {
            id: request.id,
            board: request.board,
            result,
            elapsed: started.elapsed(),
            table_name: player.table_name().map(str::to_owned),
            table_odds: player.table_keeps_odds(),
        }
    }
}

enum Job {
    Search(SearchRequest),
    NewGame,
}

/// A player searching on its own thread. Requests queue up and are answered in order.
/// Dropping the worker lets the thread end after the search in progress; nothing
/// waits for it, so quitting never waits for a search.
pub struct AiWorker {
    jobs: Sender<Job>,
    done: Receiver<SearchDone>,
}

impl AiWorker {
    /// Starts the thread for `player`, searching within `limits`.
    ///
    /// # Errors
    ///
    /// When the thread cannot be started.
    pub fn spawn(mut player: Box<dyn Player>, limits: SearchLimits) -> Result<AiWorker> {
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let (done_tx, done) = mpsc::channel();
        std::thread::Builder::new()
            .name("ai2048-search".into())
            .spawn(move || {
                for job in job_rx {
                    match job {
                        Job::Search(request) => {
                            let answer = SearchDone::run(player.as_mut(), &limits, request);
                            if done_tx.send(answer).is_err() {
                                break;
                            }
                        }
                        Job::NewGame => player.new_game(),
                    }
                }
            })
            .context("cannot start the AI's thread")?;
        Ok(AiWorker { jobs, done })
    }

    /// Queues a search.
    ///
    /// # Errors
    ///
    /// When the AI's thread has stopped (its player panicked).
    pub fn search(&self, request: SearchRequest) -> Result<()> {
        self.send(Job::Search(request))
    }

    /// Tells the player a new game starts (after the searches already queued).
    ///
    /// # Errors
    ///
    /// When the AI's thread has stopped.
    pub fn new_game(&self) -> Result<()> {
        self.send(Job::NewGame)
    }

    fn send(&self, job: Job) -> Result<()> {
        if self.jobs.send(job).is_err() {
            bail!("the AI stopped unexpectedly");
        }
        Ok(())
    }

    /// A finished search, if one is ready.
    ///
    /// # Errors
    ///
    /// When the AI's thread has stopped.
    pub fn try_recv(&self) -> Result<Option<SearchDone>> {
        match self.done.try_recv() {
            Ok(done) => Ok(Some(done)),
            Err(TryRecvError::Empty) => Ok(None),
            Err(TryRecvError::Disconnected) => bail!("the AI stopped unexpectedly"),
        }
    }

    /// The next finished search, waiting at most `timeout` (the screen polls keys
    /// instead, with [`AiWorker::try_recv`]).
    ///
    /// # Errors
    ///
    /// When the AI's thread has stopped.
    #[cfg(test)]
    pub fn recv_timeout(&self, timeout: Duration) -> Result<Option<SearchDone>> {
        use std::sync::mpsc::RecvTimeoutError;
        match self.done.recv_timeout(timeout) {
            Ok(done) => Ok(Some(done)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => bail!("the AI stopped unexpectedly"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ai2048_ai::{create_player, PlayerSpec};

    #[test]
    fn the_worker_answers_in_order_and_matches_a_direct_search() {
        let spec: PlayerSpec = "greedy".parse().unwrap();
        let limits = SearchLimits::default();
        let worker = AiWorker::spawn(create_player(&spec, 1).unwrap(), limits).unwrap();
        let a: Board = "2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        let b: Board = "2 0 0 0/2 0 0 0/4 0 0 0/0 0 0 0".parse().unwrap();
        worker.search(SearchRequest { id: 1, board: a }).unwrap();
        worker.new_game().unwrap();
        worker.search(SearchRequest { id: 2, board: b }).unwrap();
        let first = worker
            .recv_timeout(Duration::from_secs(10))
            .unwrap()
            .unwrap();
        let second = worker
            .recv_timeout(Duration::from_secs(10))
            .unwrap()
            .unwrap();
        assert_eq!((first.id, first.board), (1, a));
        assert_eq!((second.id, second.board), (2, b));
        let mut direct = create_player(&spec, 1).unwrap();
        let expected = direct.search(a, &limits);
        assert_eq!(first.result.dir, expected.dir);
        assert_eq!(first.result.dir_values, expected.dir_values);
        assert!(worker.try_recv().unwrap().is_none());
    }
}
