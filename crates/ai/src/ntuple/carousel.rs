//! Carousel shaping (Jaśkowski 2018): training games that start where earlier games
//! entered the late stages, so that every stage of the game gets games.
//!
//! A network trained on its own games from the start sees the late game only as
//! often as its games get there: a one-ply policy that reaches 16384 in half its
//! games makes a 32768 in almost none, and the tables of that phase stay at 0. The
//! carousel keeps, for each of a few stages (thresholds of the sum of a board's
//! distinct tiles, as [`Stages`]), a pool of the positions where training games
//! entered it, and starts the training games in turn from a new game, from the first
//! stage's pool, from the second's, and so on round the carousel.

use ai2048_engine::rng::Rng;
use ai2048_engine::Board;

use super::Stages;

/// The most positions a stage's pool keeps: past it, a new entry replaces a random
/// one, so the pool is a uniform sample of every entry seen (reservoir sampling).
pub const POOL_CAPACITY: usize = 1000;

/// The pools of stage-entry positions that training games start from.
///
/// ```
/// use ai2048_ai::ntuple::{Carousel, Stages};
/// use ai2048_engine::{rng::Rng, Board};
/// let mut carousel = Carousel::new("8192,16384".parse::<Stages>()?)?;
/// let mut rng = Rng::new(1);
/// // Game 0 of every turn of the carousel starts anew; the others from a pool, once
/// // the pool has a position (else from the deepest pool before it that has one).
/// assert_eq!(carousel.start(0, &mut rng), None);
/// assert_eq!(carousel.start(1, &mut rng), None);
/// let entry: Board = "8192 2 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse()?;
/// carousel.enter(1, entry, &mut rng);
/// assert_eq!(carousel.start(1, &mut rng), Some((1, entry)));
/// assert_eq!(carousel.start(2, &mut rng), Some((1, entry)));
/// assert_eq!(carousel.start(3, &mut rng), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Carousel {
    stages: Stages,
    pools: Vec<Pool>,
}

/// The positions where games entered one stage.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pool {
    /// At most [`POOL_CAPACITY`] positions, a uniform sample of those entered.
    pub boards: Vec<Board>,
    /// How many entries the pool has seen.
    pub entered: u64,
}

/// Stages a carousel cannot turn on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoCarouselStages;

impl core::fmt::Display for NoCarouselStages {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a carousel needs at least one stage threshold (such as 16384)")
    }
}

impl std::error::Error for NoCarouselStages {}

/// Why a network cannot go round a carousel ([`NTupleNetwork::go_round`]).
///
/// [`NTupleNetwork::go_round`]: super::NTupleNetwork::go_round
#[derive(Clone, Debug, PartialEq)]
pub enum GoRoundError {
    /// The stages asked for have no threshold.
    NoStages(NoCarouselStages),
    /// The network goes round these other stages already.
    OtherStages(Stages),
}

impl core::fmt::Display for GoRoundError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            GoRoundError::NoStages(e) => e.fmt(f),
            GoRoundError::OtherStages(kept) => {
                write!(f, "the network goes round the stages {kept} already")
            }
        }
    }
}

impl std::error::Error for GoRoundError {}

impl From<NoCarouselStages> for GoRoundError {
    fn from(e: NoCarouselStages) -> GoRoundError {
        GoRoundError::NoStages(e)
    }
}

impl Carousel {
    /// A carousel of empty pools, one per threshold of `stages`.
    ///
    /// # Errors
    ///
    /// [`NoCarouselStages`] when `stages` has no threshold.
    pub fn new(stages: Stages) -> Result<Carousel, NoCarouselStages> {
        Carousel::with_pools(stages.clone(), vec![Pool::default(); stages.count() - 1])
    }

    /// A carousel with these pools, one per threshold of `stages` (as a file holds them).
    ///
    /// # Errors
    ///
    /// [`NoCarouselStages`] when `stages` has no threshold.
    ///
    /// # Panics
    ///
    /// When the pools are not one per threshold.
    pub fn with_pools(stages: Stages, pools: Vec<Pool>) -> Result<Carousel, NoCarouselStages> {
        if stages.count() < 2 {
            return Err(NoCarouselStages);
        }
        assert_eq!(pools.len(), stages.count() - 1, "one pool per threshold");
        Ok(Carousel { stages, pools })
    }

    /// Where the pools' stages begin.
    #[must_use]
    pub fn stages(&self) -> &Stages {
        &self.stages
    }

    /// The pools, the first stage's first.
    #[must_use]
    pub fn pools(&self) -> &[Pool] {
        &self.pools
    }

    /// Where game `game` of the network's life starts: `None` for a new game, or the
    /// stage (from 1) and the position of a pool. Games take turns: a new game, then
    /// one from each pool in order; a turn whose pool is empty takes the deepest pool
    /// before it that has a position, or a new game.
    pub fn start(&self, game: u64, rng: &mut Rng) -> Option<(usize, Board)> {
        let turn = (game % self.stages.count() as u64) as usize;
        let (stage, pool) = self.pools[..turn]
            .iter()
            .enumerate()
            .rev()
            .find(|(_, p)| !p.boards.is_empty())?;
        let i = rng.below(pool.boards.len() as u32) as usize;
        Some((stage + 1, pool.boards[i]))
    }

    /// Adds `board`, where a game entered `stage` (from 1), to that stage's pool.
    ///
    /// # Panics
    ///
    /// When `stage` is not one of the carousel's.
    pub fn enter(&mut self, stage: usize, board: Board, rng: &mut Rng) {
        let pool = &mut self.pools[stage - 1];
        pool.entered += 1;
        if pool.boards.len() < POOL_CAPACITY {
            pool.boards.push(board);
        } else {
            let j = rng.next_u64() % pool.entered;
            if let Some(slot) = pool.boards.get_mut(j as usize) {
                *slot = board;
            }
        }
    }
}

/// The pools, stage by stage: `8192: 1000 of 5230 entries; 16384: 12 of 12 entries`.
impl core::fmt::Display for Carousel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for (i, (t, pool)) in self.stages.thresholds().iter().zip(&self.pools).enumerate() {
            let sep = if i == 0 { "" } else { "; " };
            write!(
                f,
                "{sep}{t}: {} of {} entries",
                pool.boards.len(),
                pool.entered
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(tile: u32) -> Board {
        format!("{tile} 2 0 0/0 0 0 0/0 0 0 0/0 0 0 2")
            .parse()
            .expect("a board")
    }

    #[test]
    fn no_thresholds_no_carousel() {
        assert_eq!(Carousel::new(Stages::one()), Err(NoCarouselStages));
    }

    #[test]
    fn a_full_pool_samples_every_entry_alike() {
        let mut c = Carousel::new("4096".parse().expect("stages")).expect("a stage");
        let mut rng = Rng::new(3);
        // 4 * capacity entries: each of the first capacity kept with chance 1/4.
        for i in 0..4 * POOL_CAPACITY as u32 {
            let b = Board::from_u64(u64::from(i) + 1);
            c.enter(1, b, &mut rng);
        }
        let pool = &c.pools()[0];
        assert_eq!(pool.boards.len(), POOL_CAPACITY);
        assert_eq!(pool.entered, 4 * POOL_CAPACITY as u64);
        let early = pool
            .boards
            .iter()
            .filter(|b| b.low_bits() <= POOL_CAPACITY as u64)
            .count();
        assert!(
            (150..350).contains(&early),
            "{early} of the first quarter kept"
        );
    }

    #[test]
    fn turns_go_round_every_stage() {
        let mut c = Carousel::new("4096,8192,16384".parse().expect("stages")).expect("stages");
        let mut rng = Rng::new(1);
        c.enter(1, board(4096), &mut rng);
        c.enter(3, board(16384), &mut rng);
        let starts: Vec<_> = (0..8)
            .map(|g| c.start(g, &mut rng).map(|(s, _)| s))
            .collect();
        assert_eq!(
            starts,
            [
                None,
                Some(1),
                Some(1),
                Some(3),
                None,
                Some(1),
                Some(1),
                Some(3)
            ]
        );
        assert_eq!(c.stages().of(board(8192)), 2);
        assert_eq!(
            c.to_string(),
            "4096: 1 of 1 entries; 8192: 0 of 0 entries; 16384: 1 of 1 entries"
        );
    }
}
