//! The pause between the AI's moves, stepped through a few presets with + and -.

use std::time::Duration;

/// The presets, fastest first, in milliseconds.
pub const PRESETS_MS: [u64; 7] = [0, 30, 100, 250, 500, 1000, 2000];

/// The pause between two moves of the AI. It starts anywhere (`--delay-ms`), and
/// [`Speed::faster`] and [`Speed::slower`] step to the next preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speed {
    delay_ms: u64,
}

impl Speed {
    /// A pause of `delay_ms` milliseconds between moves.
    pub fn new(delay_ms: u64) -> Speed {
        Speed { delay_ms }
    }

    /// The pause.
    pub fn delay(self) -> Duration {
        Duration::from_millis(self.delay_ms)
    }

    /// The next shorter preset; `false` when already at the fastest.
    pub fn faster(&mut self) -> bool {
        match PRESETS_MS.iter().rev().find(|&&ms| ms < self.delay_ms) {
            Some(&ms) => {
                self.delay_ms = ms;
                true
            }
            None => false,
        }
    }

    /// The next longer preset; `false` when already at the slowest.
    pub fn slower(&mut self) -> bool {
        match PRESETS_MS.iter().find(|&&ms| ms > self.delay_ms) {
            Some(&ms) => {
                self.delay_ms = ms;
                true
            }
            None => false,
        }
    }

    /// For the screen: `0 ms`, `250 ms`, `1 s`.
    pub fn label(self) -> String {
        match self.delay_ms {
            ms if ms >= 1000 && ms % 1000 == 0 => format!("{} s", ms / 1000),
            ms => format!("{ms} ms"),
        }
    }
}

impl Default for Speed {
    /// 250 ms: fast, yet a person can follow.
    fn default() -> Speed {
        Speed::new(250)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_through_the_presets_and_stops_at_the_ends() {
        let mut speed = Speed::new(250);
        assert!(speed.faster());
        assert_eq!(speed.delay(), Duration::from_millis(100));
        assert!(speed.faster() && speed.faster());
        assert_eq!(speed.delay(), Duration::ZERO);
        assert!(!speed.faster(), "0 is the fastest");
        assert_eq!(speed.label(), "0 ms");
        for _ in 0..PRESETS_MS.len() - 1 {
            assert!(speed.slower());
        }
        assert_eq!(speed.delay(), Duration::from_secs(2));
        assert!(!speed.slower(), "2 s is the slowest");
        assert_eq!(speed.label(), "2 s");
    }

    #[test]
    fn a_delay_between_presets_steps_to_its_neighbours() {
        let mut speed = Speed::new(70);
        assert_eq!(speed.label(), "70 ms");
        assert!(speed.slower());
        assert_eq!(speed.delay(), Duration::from_millis(100));
        let mut speed = Speed::new(70);
        assert!(speed.faster());
        assert_eq!(speed.delay(), Duration::from_millis(30));
        let mut huge = Speed::new(60_000);
        assert!(!huge.slower());
        assert!(huge.faster());
        assert_eq!(huge.delay(), Duration::from_secs(2));
    }
}
