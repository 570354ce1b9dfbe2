//! Spreading a game's clock over its moves.

use std::time::Duration;

use ai2048_engine::Board;

/// How a player shares out the time a game has left ([`SearchLimits::clock`]) among
/// the moves still to come, as a chess engine plans its clock.
///
/// A 2048 game grows by one spawned tile a move, so its tile sum counts the moves
/// played: about 2.2 a move under the original rules. The plan expects the game to go
/// on until the tiles sum to [`TimePlan::horizon_sum`] and gives this move the clock
/// divided by the moves left until then, but never plans for fewer than
/// [`TimePlan::min_moves`] moves. A game that has passed the horizon is expected to
/// make the tile twice its largest (a game past 32768 aims at 65536, another 15,000
/// moves or so), so that its clock is spent evenly on the way there rather than mostly
/// in the first few thousand moves; near that tile, too, the floor takes over, and
/// moves get ever shorter. (The search, for its part, plays greedy moves of a few
/// microseconds when its share is too short for even one chance layer, so a game
/// does not run out of time.)
///
/// Moves that finish early leave their time on the clock, so later moves, which the
/// plan would starve if it had overspent, get more. The late game is where games are
/// lost, so spending more there is the point.
///
/// ```
/// use ai2048_ai::TimePlan;
/// use ai2048_engine::Board;
/// use std::time::Duration;
/// let plan = TimePlan::default();
/// let clock = Duration::from_secs(180);
/// let opening: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse()?;
/// let late: Board = "16384 8192 2048 512/256 64 16 4/2 0 0 0/0 0 0 0".parse()?;
/// assert!(plan.move_time(late, clock, 0.1) > plan.move_time(opening, clock, 0.1));
/// // However late, the plan keeps time for `min_moves` more moves.
/// assert!(plan.move_time(late, clock, 0.1) <= clock / plan.min_moves);
/// // Past the horizon with a 32768, the game is expected to go on to 65536.
/// let past: Board = "32768 4096 2048 512/256 64 16 4/2 0 0 0/0 0 0 0".parse()?;
/// assert_eq!(plan.moves_left(past, 0.0), (65536 - past.tile_sum()) / 2);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
///
/// [`SearchLimits::clock`]: crate::SearchLimits::clock
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// The tile sum up to which the plan expects a game may last (0 turns the plan
    /// off: the clock is then only a ceiling).
    pub horizon_sum: u64,
    /// The fewest moves the plan keeps time for.
    pub min_moves: u32,
}

impl Default for TimePlan {
    /// A horizon of 30,000 (about 13,600 moves, where a game that has made 16384 is
    /// building the next 8192) and at least 2,500 moves. Of the horizons 20,000,
    /// 30,000, 40,000 and 50,000, 30,000 did best in 60 games with an 18 s clock.
    fn default() -> TimePlan {
        TimePlan {
            horizon_sum: 30_000,
            min_moves: 2_500,
        }
    }
}

impl TimePlan {
    /// Whether the plan is on.
    #[must_use]
    pub fn is_on(self) -> bool {
        self.horizon_sum > 0
    }

    /// The moves the plan expects after `board`, when a 4 spawns with probability
    /// `four_probability`.
    #[must_use]
    pub fn moves_left(self, board: Board, four_probability: f32) -> u64 {
        let sum = board.tile_sum();
        let horizon = if sum > self.horizon_sum {
            self.horizon_sum.max(2 * u64::from(board.max_tile()))
        } else {
            self.horizon_sum
        };
        let left = moves_for_sum(horizon.saturating_sub(sum), four_probability);
        (left as u64).max(u64::from(self.min_moves.max(1)))
    }

    /// This move's share of `clock`, the time the game has left.
    #[must_use]
    pub fn move_time(self, board: Board, clock: Duration, four_probability: f32) -> Duration {
        clock.div_f64(self.moves_left(board, four_probability) as f64)
    }
}

/// About how many moves add `sum` to the tiles, when a 4 spawns with probability
/// `four_probability`: each move spawns a 2 or a 4.
pub(crate) fn moves_for_sum(sum: u64, four_probability: f32) -> f64 {
    let per_move = 2.0 + 2.0 * f64::from(four_probability.clamp(0.0, 1.0));
    sum as f64 / per_move
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time_plan(horizon_sum: u64, min_moves: u32) -> TimePlan {
        TimePlan {
            horizon_sum,
            min_moves,
        }
    }

    #[test]
    fn the_opening_expects_the_whole_horizon() {
        let plan = TimePlan::default();
        let board: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse().unwrap();
        assert_eq!(plan.moves_left(board, 0.1), (29_996.0 / 2.2) as u64);
        // Only 2s: more moves to the same sum.
        assert_eq!(plan.moves_left(board, 0.0), 29_996 / 2);
        let t = plan.move_time(board, Duration::from_secs(180), 0.1);
        assert!((13.1..13.3).contains(&(t.as_secs_f64() * 1e3)), "{t:?}");
    }

    #[test]
    fn past_the_horizon_the_floor_holds() {
        let plan = time_plan(1000, 100);
        // Past the horizon, on the way to 2048: (2048 - 1808) / 2 = 120 moves.
        let board: Board = "1024 512 256 16/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(plan.moves_left(board, 0.0), 120);
        // Nearer to it, the floor.
        let board: Board = "1024 512 256 128/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(plan.moves_left(board, 0.1), 100);
        assert_eq!(
            plan.move_time(board, Duration::from_secs(1), 0.1),
            Duration::from_millis(10)
        );
        let zero = time_plan(1000, 0);
        let at_2048: Board = "1024 1024 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(zero.moves_left(at_2048, 0.1), 1, "never divides by zero");
    }

    #[test]
    fn before_the_horizon_the_largest_tile_does_not_count() {
        let plan = time_plan(5000, 1);
        let board: Board = "2048 512 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(plan.moves_left(board, 0.0), (5000 - 2560) / 2);
        // The default's 16384 phase: at 30,001, a 16384 aims at 32768, within the floor.
        let plan = TimePlan::default();
        let board: Board = "16384 8192 4096 1024/256 128 32 0/0 0 0 0/0 0 0 2"
            .parse()
            .unwrap();
        assert!(board.tile_sum() > plan.horizon_sum);
        assert_eq!(plan.moves_left(board, 0.1), u64::from(plan.min_moves));
    }

    #[test]
    fn off_when_the_horizon_is_zero() {
        assert!(TimePlan::default().is_on());
        assert!(!TimePlan {
            horizon_sum: 0,
            ..TimePlan::default()
        }
        .is_on());
    }
}
