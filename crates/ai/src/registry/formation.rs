//! The formation player: what the default player becomes where the tables it consults
//! hold a formation's block (tables with goals, as `block11-256`).
//!
//! The network does not keep the block such tables answer for; the evaluation `lines`
//! does, and with the tables consulted from the first move and trusted over the
//! search, it is the strongest player built here (docs/tables-measured.md). So an expectimax
//! player that names no evaluation takes these options when its tables have goals,
//! before its own, which override them.

use std::borrow::Cow;

use super::evaluator::names_evaluation;
use super::{tables_in_use, PlayerError, PlayerSpec, DEFAULT_PLAYER};

/// The options the formation player adds before a spec's own: the evaluation that
/// keeps a block in the corner, the cut of lines of play that broke it (from the first
/// 1024: in the opening it cut nearly every line and lost games as early as at 256),
/// macroxue's prune at each depth (as strong in the lab at two thirds of the time a
/// move, stronger at 1 ms a move), under a time a move the time the tables' moves leave
/// unused banked for the searched ones (they decide two moves in five without a
/// search) and planned to be spent by the time the game makes 32768, its tiles summing
/// to about 34,000, the moves before the first 2048 at half their budget (32768 in 72%
/// at 1 ms a move, not 64%, in their first runs; as often as without the plan in a
/// later one), from the first 16384 the plan allowing for the half of its time a move
/// spends (the rebuild lost 36 of 343 games, not 51, at 1 ms a move), and under a time
/// a move below 0.75 ms, from the first 2048, a floor of depth 4 that the bank pays
/// for (32768 in 42% and 61% of 100 games at 0.158 and 0.544 ms a move, not 36% and
/// 56%; at 1 ms it lost 16384 in 8 games more than it won), under a game's clock a
/// layer past the adaptive depth where the move's share pays for it (the lab's games
/// left half their clock; with it 32768 in 72% and 67% of the lab's 100 in two labs,
/// 139 of 200, against 69% and 65% without, 134: inside a lab's spread, at no timeout,
/// a move 5.0 ms, the longest game 139 s of 180), the tables consulted from
/// the first move, trusted over any move they find worse, and only those with goals (a
/// folder may hold others, as a snake's).
pub const FORMATION_OPTIONS: [(&str, &str); 14] = [
    ("eval", "lines"),
    ("cut", "true"),
    ("cut-from", "1024"),
    ("prune", "depth"),
    ("time-bank", "true"),
    ("bank-by-sum", "34000"),
    ("bank-early", "2048"),
    ("bank-feedback", "16384"),
    ("min-depth", "4"),
    ("min-depth-below", "0.75"),
    ("plan-depth", "1"),
    ("tables-from", "2"),
    ("tables-slack", "0"),
    ("tables-goals", "true"),
];

/// The spec a player is built from: `spec` itself, or for an expectimax player that
/// names no evaluation (no `eval`, `weights`, `symmetric`, `w.NAME`, `network` or
/// `ceiling`) and consults tables with goals, `spec` after [`FORMATION_OPTIONS`].
///
/// ```
/// use ai2048_ai::resolve_player;
/// // Without tables, a spec is what it says.
/// let spec = "expectimax:tables=off,depth=2".parse()?;
/// assert_eq!(*resolve_player(&spec)?, spec);
/// # Ok::<(), ai2048_ai::PlayerError>(())
/// ```
///
/// # Errors
///
/// As [`crate::create_player`] for the `tables` options.
pub fn resolve_player(spec: &PlayerSpec) -> Result<Cow<'_, PlayerSpec>, PlayerError> {
    if spec.name != DEFAULT_PLAYER || names_evaluation(spec) {
        return Ok(Cow::Borrowed(spec));
    }
    let has_goals = tables_in_use(spec)?.is_some_and(|t| t.has_goals());
    if !has_goals {
        return Ok(Cow::Borrowed(spec));
    }
    let mut resolved = PlayerSpec::new(&spec.name);
    resolved.options = FORMATION_OPTIONS
        .iter()
        .map(|&(k, v)| (k.to_owned(), v.to_owned()))
        .chain(spec.options.iter().cloned())
        .collect();
    Ok(Cow::Owned(resolved))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use ai2048_tables::{build, Encoding, Layout};

    use super::*;

    /// A folder holding one table of `pattern` to 8, and the folder's path.
    fn folder_with(pattern: &str) -> (tempfile::TempDir, String) {
        let dir = tempfile::tempdir().unwrap();
        let layout = Layout::new(pattern.parse().unwrap(), 8).unwrap();
        let path = dir.path().join("t.table");
        build(
            &layout,
            &path,
            Encoding::F32,
            Duration::from_secs(60),
            |_| true,
        )
        .unwrap();
        let name = dir.path().display().to_string();
        (dir, name)
    }

    fn resolved(text: &str) -> String {
        resolve_player(&text.parse().unwrap()).unwrap().to_string()
    }

    #[test]
    fn tables_with_goals_make_the_formation_player_unless_an_evaluation_is_named() {
        let (_block, block) = folder_with("xxx./xx1./1.../.... ..../..1./.11./....");
        assert_eq!(
            resolved(&format!("expectimax:tables={block}")),
            format!("expectimax:eval=lines,cut=true,cut-from=1024,prune=depth,time-bank=true,bank-by-sum=34000,bank-early=2048,bank-feedback=16384,min-depth=4,min-depth-below=0.75,plan-depth=1,tables-from=2,tables-slack=0,tables-goals=true,tables={block}")
        );
        // The spec's own options come after, and so override the formation's.
        let spec: PlayerSpec = format!("expectimax:tables={block},tables-slack=0.1,depth=2")
            .parse()
            .unwrap();
        let player = resolve_player(&spec).unwrap();
        assert_eq!(player.option("tables-slack"), Some("0.1"));
        assert_eq!(player.option("eval"), Some("lines"));
        assert!(crate::create_player(&spec, 0).is_ok());
        for named in [
            "eval=heuristic",
            "network=x.np",
            "w.empty=1",
            "ceiling=16384",
        ] {
            let text = format!("expectimax:tables={block},{named}");
            assert_eq!(resolved(&text), text, "{named}");
        }
        // Other players, and tables without goals (a chain's), are left as they are.
        let text = format!("greedy:tables={block}");
        assert_eq!(resolved(&text), text);
        let (_chain, chain) = folder_with("xxxx/xxxx/xxxx/x.tt");
        let text = format!("expectimax:tables={chain}");
        assert_eq!(resolved(&text), text);
    }

    #[test]
    fn a_bad_tables_option_is_the_error_it_was() {
        let err = resolve_player(&"expectimax:tables=/no/such/folder".parse().unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains("is not a folder"), "{err}");
    }
}
