//! `ai2048 hint`: the AI's move for one board, with the value of every move.

use std::io::{Read, Write};

use anyhow::{anyhow, bail, Context, Result};

use ai2048_ai::TableUse;
use ai2048_engine::{Board, Dir};
use ai2048_protocol::{BestMove, Op, Response, Session};

use crate::args::HintArgs;

/// Reads the board, asks the player for its move as the engine protocol's `best`
/// request does (the same player, limits and checks), and prints the answer.
pub fn run(args: &HintArgs) -> Result<()> {
    let board = read_board(args.board.as_deref())?;
    let spec = args.ai.spec()?;
    let limits = args.ai.limits()?;
    let mut session = Session::new(&spec.to_string()).map_err(|e| anyhow!("{e}"))?;
    let answer = session.handle(&Op::Best {
        board,
        ai: None,
        limits,
    });
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", answer.to_line(None))?;
        return match answer {
            Response::Error(e) => Err(anyhow!(e)),
            _ => Ok(()),
        };
    }
    match answer {
        Response::Best(best) => {
            write!(out, "{board}")?;
            writeln!(out, "{}", describe(best, &spec.to_string()))?;
            Ok(())
        }
        Response::Error(e) => Err(anyhow!(e)),
        other => bail!("unexpected answer {}", other.to_line(None)),
    }
}

/// The board given to `option` (as `--from`), named in the error when it is not one.
pub(crate) fn board_option(option: &str, text: &str) -> Result<Board> {
    text.parse()
        .with_context(|| format!("{option} {text:?} is not a 2048 board"))
}

/// The board from the argument, or from standard input when it is `-` or left out.
pub(crate) fn read_board(arg: Option<&str>) -> Result<Board> {
    let (text, from) = match arg {
        Some(text) if text != "-" => (text.to_owned(), "the board"),
        _ => (standard_input()?, "the board on standard input"),
    };
    text.parse()
        .with_context(|| format!("{from} is not a 2048 board"))
}

/// All of standard input, as text (a board, or several for `tables query`).
pub(crate) fn standard_input() -> Result<String> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .context("cannot read the board from standard input")?;
    Ok(text)
}

/// The answer as text: the move and its search, then each move's value. (No time: the
/// first request of a session also makes the player, which may read a network.) Where
/// an endgame table's move is played, its values are the table's probabilities of
/// making its target, written as percentages; a table of moves keeps none, and the
/// text says which moves stay in its world.
fn describe(best: Option<BestMove>, player: &str) -> String {
    let Some(best) = best else {
        return "no move is legal: the game is over".to_owned();
    };
    let from_table = best.table.played();
    let table = best.table_name.as_deref().map_or_else(
        || "an endgame table".to_owned(),
        |n| format!("the endgame table {n}"),
    );
    // A table of moves keeps no odds: its values (1 for its move, 0 for every other
    // move that stays in its world) are no probabilities, so none is written.
    let moves_only = from_table && !best.table_odds;
    let mut text = match best.table {
        TableUse::Decided if moves_only => format!(
            "{}: the move of {table} ({player} did not search)",
            best.dir
        ),
        TableUse::Played if moves_only => format!(
            "{}: the move of {table}, over the move of {player} (depth {}, {} nodes)",
            best.dir, best.depth, best.nodes
        ),
        TableUse::Decided => format!(
            "{}: the move of {table}, {:.2}% to make its target (ahead of every other move by more than the slack of {player}, which did not search)",
            best.dir,
            100.0 * best.value
        ),
        TableUse::Played => format!(
            "{}: the move of {table}, {:.2}% to make its target, over the move of {player} (depth {}, {} nodes)",
            best.dir,
            100.0 * best.value,
            best.depth,
            best.nodes
        ),
        TableUse::None | TableUse::Kept => format!(
            "{}: the move of {player} (depth {}, {} nodes)",
            best.dir, best.depth, best.nodes
        ),
    };
    if moves_only {
        text += "; the table keeps each board's best move, not its odds";
    }
    if best.table == TableUse::Kept {
        text += &format!("; {table} matched the board and let it stand");
    }
    for (dir, value) in Dir::ALL.iter().zip(best.values) {
        let value = match value {
            _ if moves_only && *dir == best.dir => "its move".to_owned(),
            Some(_) if moves_only => "in its world".to_owned(),
            Some(p) if from_table => format!("{:.2}%", 100.0 * p),
            Some(v) => format!("{v:.1}"),
            None if from_table => "illegal or out".to_owned(),
            None => "illegal".to_owned(),
        };
        let mark = if *dir == best.dir { "  best" } else { "" };
        text += &format!("\n  {:<6}{value:>14}{mark}", dir.name());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_marks_the_best_move_and_the_illegal_ones() {
        let best = BestMove {
            dir: Dir::Left,
            value: 12.5,
            depth: 2,
            nodes: 340,
            values: [Some(3.0), None, Some(12.5), Some(-1.3)],
            table: TableUse::None,
            table_name: None,
            table_odds: true,
        };
        let text = describe(Some(best), "expectimax");
        assert_eq!(
            text,
            "left: the move of expectimax (depth 2, 340 nodes)\n  \
             up               3.0\n  \
             down         illegal\n  \
             left            12.5  best\n  \
             right           -1.3"
        );
        let decided = BestMove {
            dir: Dir::Down,
            value: 0.9812,
            depth: 0,
            nodes: 0,
            values: [None, Some(0.9812), Some(0.5), None],
            table: TableUse::Decided,
            table_name: Some("block10-512".to_owned()),
            table_odds: true,
        };
        assert_eq!(
            describe(Some(decided.clone()), "expectimax"),
            "down: the move of the endgame table block10-512, 98.12% to make its target (ahead of every other move by more than the slack of expectimax, which did not search)\n  \
             up    illegal or out\n  \
             down          98.12%  best\n  \
             left          50.00%\n  \
             right illegal or out"
        );
        let moves = BestMove {
            value: 1.0,
            values: [None, Some(1.0), Some(0.0), None],
            table_name: Some("open10-512".to_owned()),
            table_odds: false,
            ..decided.clone()
        };
        assert_eq!(
            describe(Some(moves), "expectimax"),
            "down: the move of the endgame table open10-512 (expectimax did not search); the table keeps each board's best move, not its odds\n  \
             up    illegal or out\n  \
             down        its move  best\n  \
             left    in its world\n  \
             right illegal or out"
        );
        let played = BestMove {
            table: TableUse::Played,
            depth: 3,
            nodes: 120,
            table_name: Some("open10-512".to_owned()),
            table_odds: false,
            ..decided
        };
        assert!(describe(Some(played), "expectimax").starts_with(
            "down: the move of the endgame table open10-512, over the move of expectimax (depth 3, 120 nodes); the table keeps"
        ));
        assert_eq!(
            describe(None, "greedy"),
            "no move is legal: the game is over"
        );
    }
}
