//! The four directions of a move, and small sets of them.

use core::fmt;
use core::str::FromStr;

/// A direction to slide the tiles.
///
/// The discriminants follow the move codes of the UCSB CS 165A assignment:
/// 0 up, 1 down, 2 left, 3 right. [`Dir::ALL`] lists them in that order, which is
/// also the order in which every front end reports directions.
///
/// ```
/// use ai2048_engine::Dir;
/// assert_eq!("left".parse::<Dir>(), Ok(Dir::Left));
/// assert_eq!(Dir::Right as u8, 3);
/// assert_eq!(Dir::Up.to_string(), "up");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Dir {
    /// Slide toward the top row.
    Up = 0,
    /// Slide toward the bottom row.
    Down = 1,
    /// Slide toward the left column.
    Left = 2,
    /// Slide toward the right column.
    Right = 3,
}

impl Dir {
    /// All four directions: up, down, left, right.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The lowercase name: `"up"`, `"down"`, `"left"` or `"right"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }

    /// The direction whose [`Dir::name`] is `name`, exactly (lowercase, whole): what
    /// the JSON protocols take, where [`str::parse`] also takes initials and any case.
    ///
    /// ```
    /// use ai2048_engine::Dir;
    /// assert_eq!(Dir::from_name("left"), Some(Dir::Left));
    /// assert_eq!(Dir::from_name("Left"), None);
    /// assert_eq!(Dir::from_name("l"), None);
    /// ```
    #[must_use]
    pub fn from_name(name: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The direction with move code `code` (0 up, 1 down, 2 left, 3 right).
    ///
    /// ```
    /// use ai2048_engine::Dir;
    /// assert_eq!(Dir::from_index(1), Some(Dir::Down));
    /// assert_eq!(Dir::from_index(4), None);
    /// ```
    #[must_use]
    pub const fn from_index(code: usize) -> Option<Dir> {
        match code {
            0 => Some(Dir::Up),
            1 => Some(Dir::Down),
            2 => Some(Dir::Left),
            3 => Some(Dir::Right),
            _ => None,
        }
    }

    /// The move code: 0 up, 1 down, 2 left, 3 right.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// One letter, as replays store it: `U`, `D`, `L` or `R`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error returned when a string names no direction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseDirError(pub String);

impl fmt::Display for ParseDirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown direction {:?}: expected up, down, left or right",
            self.0
        )
    }
}

impl std::error::Error for ParseDirError {}

impl FromStr for Dir {
    type Err = ParseDirError;

    /// Accepts the names (`up`), their initials (`u`), in any case.
    fn from_str(s: &str) -> Result<Dir, ParseDirError> {
        match s.to_ascii_lowercase().as_str() {
            "up" | "u" => Ok(Dir::Up),
            "down" | "d" => Ok(Dir::Down),
            "left" | "l" => Ok(Dir::Left),
            "right" | "r" => Ok(Dir::Right),
            _ => Err(ParseDirError(s.to_owned())),
        }
    }
}

/// A set of directions, such as the legal moves of a board.
///
/// ```
/// use ai2048_engine::{Dir, DirSet};
/// let set = DirSet::EMPTY.with(Dir::Left).with(Dir::Up);
/// assert_eq!(set.len(), 2);
/// assert!(set.contains(Dir::Left));
/// assert_eq!(set.iter().collect::<Vec<_>>(), vec![Dir::Up, Dir::Left]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DirSet(u8);

impl DirSet {
    /// The empty set.
    pub const EMPTY: DirSet = DirSet(0);

    /// This set with `dir` added.
    #[must_use]
    pub const fn with(self, dir: Dir) -> DirSet {
        DirSet(self.0 | 1 << dir as u8)
    }

    /// Whether `dir` is in the set.
    #[must_use]
    pub const fn contains(self, dir: Dir) -> bool {
        self.0 & (1 << dir as u8) != 0
    }

    /// The number of directions in the set.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The directions in the set, in the order up, down, left, right.
    pub fn iter(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |&d| self.contains(d))
    }

    /// The `n`-th direction of the set (counting from 0 in the order of [`Dir::ALL`]).
    #[must_use]
    pub fn nth(self, n: usize) -> Option<Dir> {
        self.iter().nth(n)
    }
}
