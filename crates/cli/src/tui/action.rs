//! What a key asks the game screen to do.

use ai2048_engine::Dir;

/// One request from the person at the keys; [`crate::tui::app::App::handle`] carries it
/// out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Slide the tiles (play only).
    Move(Dir),
    /// Take back the last move (play only).
    Undo,
    /// Ask the AI for its move and the value of each direction (play only).
    Hint,
    /// Start or stop the AI playing: autoplay in play, pause and resume in watch.
    ToggleAuto,
    /// A shorter pause between the AI's moves.
    Faster,
    /// A longer pause between the AI's moves.
    Slower,
    /// Start a new game.
    New,
    /// Save the game as a replay.
    Save,
    /// Leave.
    Quit,
}
