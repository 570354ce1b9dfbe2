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
    /// ```
    /// use std::sync::Arc;
    /// use ai2048_ai::endgame::{EndgameTables, WithTables};
    /// use ai2048_ai::{create_player, Player, SearchLimits};
    /// use ai2048_tables::{Layout, Table};
    ///
    /// let table = Table::solve(Layout::new("xxxx/xxxx/t.../....".parse()?, 16)?);
    /// let tables = Arc::new(EndgameTables::new(vec![("snake8-16".to_owned(), table)]));
    /// let greedy = create_player(&"greedy:tables=off".parse()?, 0)?;
    /// let mut player = WithTables::new(greedy, tables, 0.0, 0.2);
    /// // Left merges the two 8s into the 16 that the chain's end asks for.
    /// player.search("8192 4096 2048 1024/16 32 64 128/8 8 0 0/0 0 0 0".parse()?, &SearchLimits::default());
    /// assert_eq!(player.table_name(), Some("snake8-16"));
    /// player.search("2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 2".parse()?, &SearchLimits::default());
    /// assert_eq!(player.table_name(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// [`TableUse::None`]: crate::TableUse::None
    fn table_name(&self) -> Option<&str> {
        None
    }

    /// Whether the table that answered this player's last search ([`Player::table_name`])
    /// keeps its odds, so that [`SearchResult::value`] and [`SearchResult::dir_values`]
    /// are its probabilities of making its target where its move was played. `false`
    /// for a table of moves (`ai2048_tables::Encoding::Moves`), which keeps each
    /// state's best move alone and answers with it valued 1 and every other move of
    /// its world 0: those numbers are no odds. `true` where no table answered (the
    /// default).
    ///
    /// ```
    /// use ai2048_ai::{create_player, Player};
    /// let greedy = create_player(&"greedy".parse()?, 0)?;
    /// assert!(greedy.table_keeps_odds());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn table_keeps_odds(&self) -> bool {
        true
    }
}
