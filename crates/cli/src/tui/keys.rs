//! Which key does what, in play and in watch.

use ai2048_engine::Dir;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::action::Action;
use super::app::Mode;

/// The action of `key` in `mode`, or `None` for a key that does nothing there (key
/// releases and repeats of a non-move key included).
pub fn action_of_key(mode: Mode, key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c' | 'd')).then_some(Action::Quit);
    }
    let common = match key.code {
        KeyCode::Char('+' | '=') => Some(Action::Faster),
        KeyCode::Char('-' | '_') => Some(Action::Slower),
        KeyCode::Char('n') => Some(Action::New),
        KeyCode::Char('r') => Some(Action::Save),
        KeyCode::Char('q') | KeyCode::Esc => Some(Action::Quit),
        KeyCode::Char(' ' | 'p') => Some(Action::ToggleAuto),
        _ => None,
    };
    if common.is_some() {
        // Held keys repeat; only moves make sense repeated.
        return common.filter(|_| key.kind == KeyEventKind::Press);
    }
    match mode {
        Mode::Watch => None,
        Mode::Play => Some(match key.code {
            KeyCode::Up | KeyCode::Char('w' | 'k' | 'W' | 'K') => Action::Move(Dir::Up),
            KeyCode::Down | KeyCode::Char('s' | 'j' | 'S' | 'J') => Action::Move(Dir::Down),
            KeyCode::Left | KeyCode::Char('a' | 'h' | 'A' | 'H') => Action::Move(Dir::Left),
            KeyCode::Right | KeyCode::Char('d' | 'l' | 'D' | 'L') => Action::Move(Dir::Right),
            KeyCode::Char('u' | 'z') | KeyCode::Backspace if key.kind == KeyEventKind::Press => {
                Action::Undo
            }
            KeyCode::Char('i' | '?') if key.kind == KeyEventKind::Press => Action::Hint,
            _ => return None,
        }),
    }
}

/// The keys of `mode`, as (keys, what they do), for the help line.
pub fn help(mode: Mode) -> &'static [(&'static str, &'static str)] {
    match mode {
        Mode::Play => &[
            ("←↑↓→ wasd hjkl", "move"),
            ("u", "undo"),
            ("i", "hint"),
            ("space", "autoplay"),
            ("+/-", "speed"),
            ("n", "new game"),
            ("r", "save replay"),
            ("q", "quit"),
        ],
        Mode::Watch => &[
            ("space", "pause/resume"),
            ("+/-", "speed"),
            ("n", "new game"),
            ("r", "save replay"),
            ("q", "quit"),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn arrows_wasd_and_hjkl_move_in_play() {
        for (codes, dir) in [
            (
                [KeyCode::Up, KeyCode::Char('w'), KeyCode::Char('k')],
                Dir::Up,
            ),
            (
                [KeyCode::Down, KeyCode::Char('s'), KeyCode::Char('j')],
                Dir::Down,
            ),
            (
                [KeyCode::Left, KeyCode::Char('a'), KeyCode::Char('h')],
                Dir::Left,
            ),
            (
                [KeyCode::Right, KeyCode::Char('d'), KeyCode::Char('l')],
                Dir::Right,
            ),
        ] {
            for code in codes {
                assert_eq!(
                    action_of_key(Mode::Play, key(code)),
                    Some(Action::Move(dir)),
                    "{code:?}"
                );
                assert_eq!(action_of_key(Mode::Watch, key(code)), None, "{code:?}");
            }
        }
    }

    #[test]
    fn the_other_keys() {
        let play = |c| action_of_key(Mode::Play, key(KeyCode::Char(c)));
        assert_eq!(play('u'), Some(Action::Undo));
        assert_eq!(play('i'), Some(Action::Hint));
        assert_eq!(play(' '), Some(Action::ToggleAuto));
        assert_eq!(play('+'), Some(Action::Faster));
        assert_eq!(play('-'), Some(Action::Slower));
        assert_eq!(play('n'), Some(Action::New));
        assert_eq!(play('r'), Some(Action::Save));
        assert_eq!(play('q'), Some(Action::Quit));
        assert_eq!(play('x'), None);
        let watch = |c| action_of_key(Mode::Watch, key(KeyCode::Char(c)));
        assert_eq!(watch(' '), Some(Action::ToggleAuto));
        assert_eq!(watch('u'), None);
        assert_eq!(watch('i'), None);
        assert_eq!(watch('='), Some(Action::Faster));
        assert_eq!(
            action_of_key(Mode::Watch, key(KeyCode::Esc)),
            Some(Action::Quit)
        );
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(action_of_key(Mode::Play, ctrl_c), Some(Action::Quit));
    }

    #[test]
    fn releases_do_nothing_and_only_moves_repeat() {
        let mut release = key(KeyCode::Left);
        release.kind = KeyEventKind::Release;
        assert_eq!(action_of_key(Mode::Play, release), None);
        let mut repeat = key(KeyCode::Left);
        repeat.kind = KeyEventKind::Repeat;
        assert_eq!(
            action_of_key(Mode::Play, repeat),
            Some(Action::Move(Dir::Left))
        );
        repeat.code = KeyCode::Char('n');
        assert_eq!(action_of_key(Mode::Play, repeat), None);
        repeat.code = KeyCode::Char('u');
        assert_eq!(action_of_key(Mode::Play, repeat), None);
    }
}
