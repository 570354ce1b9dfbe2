//! The [`Player`] trait: what every player implements.

use std::time::Duration;

use ai2048_engine::Board;

use crate::{SearchLimits, SearchResult};

/// Something that picks moves.
///
/// Players may keep state between moves (a transposition table, a random generator),
/// so [`Player::search`] takes `&mut self`; they must be [`Send`] so a benchmark can
/// run one per thread. All their randomness comes from a seed given at creation.
pub trait Player: Send {
    /// The player's name, as [`create_player`](crate::create_player) knows it.
    fn name(&self) -> &str;

    /// Picks a move for `board` within `limits`. `dir` is `None` only when no move
    /// is legal.
    fn search(&mut self, board: Board, limits: &SearchLimits) -> SearchResult;

    /// Forgets what was learned in the game so far, before a new game.
    fn new_game(&mut self) {}

    /// A move of this player's game was chosen without its search, in `spent` (an
    /// endgame table decided it, see [`crate::endgame::WithTables`]). A player that
    /// banks the time a move leaves unused banks this move's too, so that the moves
    /// it does search get the time the table saved. Nothing by default.
    fn unsearched(&mut self, limits: &SearchLimits, spent: Duration) {
        let _ = (limits, spent);
    }

    /// The endgame table that answered this player's last search (it matched the
    /// board: [`SearchResult::table`] is not [`TableUse::None`]), by name, as
    /// `block10-512`; a distilled table's answer is named by its file and the table it
    /// kept, as `distilled:block10-512`. `None` where no table answered, or the player
    /// consults none (the default).
    ///
    /// [`TableUse::None`]: crate::TableUse::None
    fn table_name(&self) -> Option<&str> {
        None
    }
}
