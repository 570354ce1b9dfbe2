//! Draws the game screen: a title, the board, a side panel (score, best, seed, the AI
//! and its hint), a message line and the keys; a game-over box over the board; or,
//! on a terminal too small for all that, a message saying so.

use ai2048_engine::Dir;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::ai::SearchDone;
use super::app::{App, Mode, Tone};
use super::board::{self, BoardWidget};
use super::keys;
use super::palette;
use super::stats::si;

/// The narrowest side panel that holds a 20-digit seed.
const PANEL_MIN_WIDTH: u16 = 30;
/// The widest the screen grows; the rest of a large terminal stays empty.
const MAX_WIDTH: u16 = 90;
/// The smallest terminal the screen fits: board, gap, panel.
pub const MIN_WIDTH: u16 = board::WIDTH + 2 + PANEL_MIN_WIDTH;
/// Title, blank, board, message, two lines of keys.
pub const MIN_HEIGHT: u16 = 1 + 1 + board::HEIGHT + 1 + 2;
// The whole screen fits the classic terminal.
const _: () = assert!(MIN_WIDTH <= 80 && MIN_HEIGHT <= 24);

/// Draws `app` over the whole frame.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(frame, area);
        return;
    }
    let width = area.width.min(MAX_WIDTH);
    let screen = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - MIN_HEIGHT) / 2,
        width,
        MIN_HEIGHT,
    );
    let [title, _, middle, message, help] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(board::HEIGHT),
        Constraint::Length(1),
        Constraint::Length(2),
    ])
    .areas(screen);
    let [board_area, _, panel] = Layout::horizontal([
        Constraint::Length(board::WIDTH),
        Constraint::Length(2),
        Constraint::Min(PANEL_MIN_WIDTH),
    ])
    .areas(middle);

    frame.render_widget(title_line(app), title);
    frame.render_widget(
        BoardWidget {
            board: app.game().board(),
        },
        board_area,
    );
    side_panel(frame, app, panel);
    if let Some(m) = app.message() {
        let style = match m.tone {
            Tone::Info => Style::new(),
            Tone::Good => Style::new().fg(palette::GOOD).bold(),
            Tone::Bad => Style::new().fg(palette::BAD).bold(),
        };
        frame.render_widget(
            Paragraph::new(Span::styled(m.text.as_str(), style)),
            message,
        );
    }
    frame.render_widget(Paragraph::new(help_lines(app.mode(), help.width)), help);
    if app.game().is_over() {
        game_over(frame, app, board_area);
    }
}

fn too_small(frame: &mut Frame, area: Rect) {
    let lines = vec![
        Line::from("terminal too small".bold()),
        Line::from(format!(
            "{}×{} here; ai2048 needs {MIN_WIDTH}×{MIN_HEIGHT}",
            area.width, area.height
        )),
        Line::from("enlarge the window, or press q to quit"),
    ];
    let height = (lines.len() as u16).min(area.height);
    let y = area.y + (area.height - height) / 2;
    frame.render_widget(
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true }),
        Rect::new(area.x, y, area.width, area.height - (y - area.y)),
    );
}

fn title_line(app: &App) -> Line<'static> {
    let what = match app.mode() {
        Mode::Play => "play",
        Mode::Watch => "watch",
    };
    Line::from(vec![
        Span::styled(
            " 2048 ",
            Style::new()
                .fg(palette::LIGHT_TEXT)
                .bg(palette::tile_background(2048))
                .bold(),
        ),
        Span::raw(format!(" ai2048 {what}")),
    ])
}

fn side_panel(frame: &mut Frame, app: &App, area: Rect) {
    let game = app.game();
    let [boxes, _, facts, _, ai, _, choice] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(1),
        Constraint::Length(2),
        Constraint::Length(1),
        Constraint::Length(4),
        Constraint::Length(1),
        // The pick, the table that made it (if one did), and the four directions.
        Constraint::Length(6),
    ])
    .areas(area);
    let [score_box, _, best_box] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(boxes);
    score_card(frame, "SCORE", game.score(), score_box);
    score_card(frame, "BEST", app.best(), best_box);

    let dim = Style::new().add_modifier(Modifier::DIM);
    let mut first = vec![
        Span::styled("moves ", dim),
        Span::raw(game.moves().to_string()),
        Span::styled("  max tile ", dim),
        Span::raw(game.max_tile().to_string()),
    ];
    if app.new_best() {
        first.push(Span::styled(
            "  new best!",
            Style::new().fg(palette::GOOD).bold(),
        ));
    }
    let facts_lines = vec![
        Line::from(first),
        Line::from(vec![
            Span::styled("seed ", dim),
            Span::raw(game.seed().to_string()),
        ]),
    ];
    frame.render_widget(Paragraph::new(facts_lines), facts);

    frame.render_widget(Paragraph::new(ai_lines(app)), ai);
    frame.render_widget(Paragraph::new(choice_lines(app)), choice);
}

fn score_card(frame: &mut Frame, label: &str, value: u64, area: Rect) {
    let style = Style::new().bg(palette::SCORE_BOX);
    let lines = vec![
        Line::styled(
            label.to_string(),
            Style::new().fg(palette::SCORE_LABEL).bold(),
        ),
        Line::styled(
            value.to_string(),
            Style::new().fg(palette::LIGHT_TEXT).bold(),
        ),
    ];
    frame.render_widget(
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .style(style),
        area,
    );
}

fn ai_lines(app: &App) -> Vec<Line<'static>> {
    let dim = Style::new().add_modifier(Modifier::DIM);
    let state = match (app.mode(), app.auto(), app.game().is_over()) {
        (_, _, true) => Span::styled("game over", dim),
        (Mode::Play, true, _) => Span::styled("autoplay on", Style::new().fg(palette::GOOD)),
        (Mode::Play, false, _) => Span::styled("autoplay off", dim),
        (Mode::Watch, true, _) => Span::styled("playing", Style::new().fg(palette::GOOD)),
        (Mode::Watch, false, _) => Span::styled("paused", Style::new().fg(palette::BAD).bold()),
    };
    let mut lines = vec![
        Line::from(vec![
            Span::styled("AI ", dim),
            Span::raw(app.ai().to_string()),
        ]),
        Line::from(vec![
            state,
            Span::styled("  pause ", dim),
            Span::raw(app.speed().label()),
        ]),
    ];
    let stats = app.stats();
    if stats.searches == 0 {
        lines.push(Line::styled("no search yet", dim));
    } else {
        // A table's move, numbered among the game's table moves, or the search's depth.
        let last = if stats.last_from_table {
            vec![
                Span::styled("table move ", dim),
                Span::raw(stats.table_moves.to_string()),
            ]
        } else {
            vec![
                Span::styled("depth ", dim),
                Span::raw(stats.depth.to_string()),
            ]
        };
        lines.push(Line::from(
            [
                last,
                vec![
                    Span::raw(format!("  {}", si(stats.nodes_per_second()))),
                    Span::styled(" nodes/s", dim),
                ],
            ]
            .concat(),
        ));
        lines.push(Line::from(vec![
            Span::raw(milliseconds(stats.ms_per_move())),
            Span::styled(" ms/move  last ", dim),
            Span::raw(milliseconds(stats.last.as_secs_f64() * 1e3)),
            Span::styled(" ms", dim),
        ]));
    }
    lines
}

/// Three significant digits or so: `0.042`, `4.21`, `42.1`, `421`.
fn milliseconds(ms: f64) -> String {
    match ms {
        ms if ms < 1.0 => format!("{ms:.3}"),
        ms if ms < 10.0 => format!("{ms:.2}"),
        ms if ms < 100.0 => format!("{ms:.1}"),
        ms => format!("{ms:.0}"),
    }
}

/// The AI's pick and the value of each direction: the hint asked for, or the AI's
/// last search while it plays.
fn choice_lines(app: &App) -> Vec<Line<'static>> {
    let dim = Style::new().add_modifier(Modifier::DIM);
    let heading = |text: &str| Span::styled(text.to_string(), Style::new().bold());
    let thinking = Span::styled(" thinking…", Style::new().fg(palette::ACCENT));
    if app.mode() == Mode::Play && app.hint_wanted() {
        return match app.analysis() {
            Some(done) => values(heading("Hint:"), done),
            None => vec![Line::from(vec![heading("Hint:"), thinking])],
        };
    }
    if app.mode() == Mode::Play && !app.auto() && !app.game().is_over() {
        return vec![Line::from(vec![
            Span::styled("press ", dim),
            Span::styled("i", Style::new().fg(palette::ACCENT).bold()),
            Span::styled(" for the AI's hint", dim),
        ])];
    }
    match app.last_search() {
        Some(done) => values(heading("AI's last pick:"), done),
        None if app.searching() => vec![Line::from(vec![heading("AI:"), thinking])],
        None => Vec::new(),
    }
}

/// The pick and each direction's value: the search's, or where an endgame table's
/// move was played, the table's name and each move's odds to make its target (for a
/// table of moves, which keeps no odds, which moves stay in its world).
fn values(heading: Span<'static>, done: &SearchDone) -> Vec<Line<'static>> {
    let dim = Style::new().add_modifier(Modifier::DIM);
    let pick = done.result.dir;
    let from_table = done.result.table.played();
    let mut lines = vec![Line::from(vec![
        heading,
        Span::raw(match pick {
            Some(dir) => format!(" {} {dir}", arrow(dir)),
            None => " no legal move".to_string(),
        }),
    ])];
    if from_table {
        lines.push(Line::from(vec![
            Span::styled("  endgame table ", dim),
            Span::raw(done.table_name.clone().unwrap_or_default()),
        ]));
    }
    for dir in Dir::ALL {
        let value = match (done.result.dir_values[dir.index()], from_table) {
            (Some(_), true) if !done.table_odds && Some(dir) == pick => {
                format!("{:>12}", "its move")
            }
            (Some(_), true) if !done.table_odds => format!("{:>12}", "in its world"),
            (Some(p), true) => format!("{:>11.2}%", p * 100.0),
            (Some(v), false) => format!("{v:>12.1}"),
            // Illegal, or out of the table's world: the table has no odds for it.
            (None, true) => format!("{:>12}", "–"),
            (None, false) => format!("{:>12}", "illegal"),
        };
        let text = format!("  {} {:<6}{value}", arrow(dir), dir.name());
        lines.push(if Some(dir) == pick {
            Line::from(vec![
                Span::styled(text, Style::new().fg(palette::ACCENT).bold()),
                Span::styled(" ◀", Style::new().fg(palette::ACCENT)),
            ])
        } else {
            Line::styled(text, dim)
        });
    }
    lines
}

fn arrow(dir: Dir) -> &'static str {
    match dir {
        Dir::Up => "↑",
        Dir::Down => "↓",
        Dir::Left => "←",
        Dir::Right => "→",
    }
}

/// The keys of `mode`, wrapped to `width` between keys, never inside one.
fn help_lines(mode: Mode, width: u16) -> Vec<Line<'static>> {
    let mut lines = vec![Line::default()];
    for (key, what) in keys::help(mode) {
        let item_width = key.chars().count() + 1 + what.chars().count();
        let line = lines.last_mut().expect("one line at least");
        let used = line.width();
        if used > 0 && used + 2 + item_width > usize::from(width) {
            lines.push(Line::default());
        } else if used > 0 {
            line.push_span(Span::raw("  "));
        }
        let line = lines.last_mut().expect("one line at least");
        line.push_span(Span::styled(*key, Style::new().fg(palette::ACCENT).bold()));
        line.push_span(Span::raw(format!(" {what}")));
    }
    lines
}

fn game_over(frame: &mut Frame, app: &App, board_area: Rect) {
    let game = app.game();
    let (width, height) = (34, 11);
    let area = Rect::new(
        board_area.x + (board_area.width.saturating_sub(width)) / 2,
        board_area.y + (board_area.height.saturating_sub(height)) / 2,
        width.min(board_area.width),
        height.min(board_area.height),
    );
    let text = Style::new().fg(palette::DARK_TEXT);
    let key = Style::new().fg(palette::ACCENT).bold();
    let row = |label: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{label:>10}  "), text),
            Span::styled(format!("{value:<10}"), text.bold()),
        ])
    };
    let mut lines = vec![
        row("max tile", game.max_tile().to_string()),
        row("score", game.score().to_string()),
        row("moves", game.moves().to_string()),
    ];
    if app.new_best() {
        lines.push(Line::styled(
            "a new best score!",
            Style::new().fg(palette::tile_background(64)).bold(),
        ));
    } else {
        lines.push(Line::styled(format!("best {}", app.best()), text));
    }
    lines.push(Line::raw(""));
    let mut keys_line = vec![Span::styled("r", key), Span::styled(" save replay", text)];
    if app.mode() == Mode::Play {
        keys_line.extend([Span::styled("  u", key), Span::styled(" undo", text)]);
    }
    lines.push(Line::from(keys_line));
    lines.push(Line::from(vec![
        Span::styled("n", key),
        Span::styled(" new game  ", text),
        Span::styled("q", key),
        Span::styled(" quit", text),
    ]));
    if let Some(path) = app.saved_to() {
        lines.push(Line::styled(
            format!("saved: {}", path.display()),
            Style::new().fg(palette::DARK_TEXT).italic(),
        ));
    }
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(Line::from(" Game over! ".bold()).centered())
        .style(
            Style::new()
                .bg(palette::tile_background(2))
                .fg(palette::DARK_TEXT),
        );
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true })
            .block(block),
        area,
    );
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use ratatui::backend::TestBackend;
    use ratatui::buffer::Buffer;
    use ratatui::Terminal;

    use super::*;
    use crate::tui::action::Action;
    use crate::tui::app::tests::{config, greedy, play_out, serve};
    use crate::tui::app::Config;
    use crate::tui::best::BestScore;

    fn render(app: &App, width: u16, height: u16) -> Buffer {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| draw(frame, app)).unwrap();
        terminal.backend().buffer().clone()
    }

    fn lines(buf: &Buffer) -> Vec<String> {
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect()
    }

    fn text(buf: &Buffer) -> String {
        lines(buf).join("\n")
    }

    /// The cell where the board's top-left corner landed.
    fn board_origin(buf: &Buffer) -> (u16, u16) {
        for y in 0..buf.area.height {
            for x in 0..buf.area.width {
                if buf[(x, y)].bg == palette::BOARD {
                    return (x, y);
                }
            }
        }
        panic!("no board on the screen:\n{}", text(buf));
    }

    /// Greedy's moves, reported as an endgame table's. With odds (`TableMoves(p,
    /// true)`, the table `block10-512`): the move greedy picks at 0.7924, every other
    /// legal one at 0.5. As a table of moves (`false`, the table `open10-512`): its
    /// move valued 1, every other legal move 0, and no odds kept.
    struct TableMoves(Box<dyn ai2048_ai::Player>, bool);

    impl ai2048_ai::Player for TableMoves {
        fn name(&self) -> &str {
            "tables"
        }

        fn search(
            &mut self,
            board: ai2048_engine::Board,
            limits: &ai2048_ai::SearchLimits,
        ) -> ai2048_ai::SearchResult {
            let searched = self.0.search(board, limits);
            let (best, other) = if self.1 { (0.7924, 0.5) } else { (1.0, 0.0) };
            let odds = |dir: Dir| {
                let legal = board.legal_dirs().iter().any(|d| d == dir);
                legal.then_some(if Some(dir) == searched.dir {
                    best
                } else {
                    other
                })
            };
            ai2048_ai::SearchResult {
                table: ai2048_ai::TableUse::Decided,
                value: best,
                dir_values: Dir::ALL.map(odds),
                ..searched
            }
        }

        fn table_name(&self) -> Option<&str> {
            Some(if self.1 { "block10-512" } else { "open10-512" })
        }

        fn table_keeps_odds(&self) -> bool {
            self.1
        }
    }

    /// The panel's line of `dir`'s value (not the line of the pick).
    fn value_line(app: &App, dir: Dir) -> String {
        let screen = render(app, 80, 24);
        lines(&screen)
            .into_iter()
            .find(|l| l.contains(&format!("{} {}", arrow(dir), dir.name())) && !l.contains("pick"))
            .unwrap_or_else(|| panic!("no line for {dir}\n{}", text(&screen)))
    }

    #[test]
    fn a_table_of_moves_shows_its_move_and_no_odds() {
        let mut app = App::new(config(Mode::Watch, 3)).unwrap();
        let mut moves = TableMoves(greedy(), false);
        assert!(serve(&mut app, &mut moves));
        let screen = text(&render(&app, 80, 24));
        assert!(screen.contains("endgame table open10-512"), "{screen}");
        assert!(!screen.contains('%'), "{screen}");
        let done = app.last_search().unwrap();
        assert!(!done.table_odds);
        let pick = done.result.dir.unwrap();
        for dir in Dir::ALL {
            let shown = match done.result.dir_values[dir.index()] {
                Some(_) if dir == pick => "its move",
                Some(_) => "in its world",
                None => "–",
            };
            let line = value_line(&app, dir);
            assert!(line.contains(shown), "{line:?} lacks {shown}");
        }
    }

    #[test]
    fn the_panel_says_when_an_endgame_table_moved() {
        let mut app = App::new(config(Mode::Watch, 3)).unwrap();
        let mut player = greedy();
        assert!(serve(&mut app, player.as_mut()));
        let searched = text(&render(&app, 80, 24));
        assert!(searched.contains("depth "), "{searched}");
        assert!(!searched.contains("table move"), "{searched}");
        let mut tables = TableMoves(greedy(), true);
        let start = Instant::now();
        for n in 1..=2 {
            // Past the 100 ms pause between moves.
            app.tick(start + std::time::Duration::from_secs(n));
            assert!(serve(&mut app, &mut tables));
            let from_table = text(&render(&app, 80, 24));
            assert!(
                from_table.contains(&format!("table move {n} ")),
                "{from_table}"
            );
            assert!(!from_table.contains("depth "), "{from_table}");
        }
    }

    #[test]
    fn a_table_move_names_its_table_and_shows_odds() {
        let mut app = App::new(config(Mode::Watch, 3)).unwrap();
        let mut tables = TableMoves(greedy(), true);
        assert!(serve(&mut app, &mut tables));
        let screen = text(&render(&app, 80, 24));
        assert!(screen.contains("endgame table block10-512"), "{screen}");
        let done = app.last_search().unwrap();
        let pick = done.result.dir.unwrap();
        for dir in Dir::ALL {
            let shown = match done.result.dir_values[dir.index()] {
                Some(p) if dir == pick => {
                    assert!((p - 0.7924).abs() < 1e-12);
                    "79.24%"
                }
                Some(_) => "50.00%",
                None => "–",
            };
            let line = value_line(&app, dir);
            assert!(line.contains(shown), "{line:?} lacks {shown}");
            assert!(!line.contains("illegal"), "{line:?}");
        }
        // A searched move shows the search's values, and no table.
        let start = Instant::now();
        app.tick(start + std::time::Duration::from_secs(1));
        assert!(serve(&mut app, greedy().as_mut()));
        let searched = text(&render(&app, 80, 24));
        assert!(!searched.contains("endgame table"), "{searched}");
        assert!(!searched.contains('%'), "{searched}");
    }

    #[test]
    fn the_board_shows_every_tile_in_its_cell_and_colour() {
        let mut app = App::new(config(Mode::Play, 9)).unwrap();
        let now = Instant::now();
        for _ in 0..30 {
            if let Some(dir) = app.game().board().legal_dirs().iter().next() {
                app.handle(Action::Move(dir), now);
            }
        }
        let buf = render(&app, 80, 24);
        let (x0, y0) = board_origin(&buf);
        let rows = app.game().board().to_rows();
        for (r, row) in rows.iter().enumerate() {
            for (c, &tile) in row.iter().enumerate() {
                let x = x0 + board::GAP_X + c as u16 * (board::TILE_WIDTH + board::GAP_X);
                let y = y0 + board::GAP_Y + r as u16 * (board::TILE_HEIGHT + board::GAP_Y) + 1;
                let shown: String = (x..x + board::TILE_WIDTH)
                    .map(|x| buf[(x, y)].symbol())
                    .collect();
                let expected = if tile == 0 {
                    String::new()
                } else {
                    tile.to_string()
                };
                assert_eq!(shown.trim(), expected, "row {r} column {c}");
                assert_eq!(buf[(x, y)].bg, palette::tile_background(tile));
            }
        }
    }

    #[test]
    fn score_best_seed_and_keys_fit_80_by_24() {
        let now = Instant::now();
        let mut app = App::new(Config {
            best: BestScore::in_memory(),
            ..config(Mode::Play, 123_456_789)
        })
        .unwrap();
        while app.game().score() == 0 {
            let dir = app.game().board().legal_dirs().iter().next().unwrap();
            app.handle(Action::Move(dir), now);
        }
        let buf = render(&app, 80, 24);
        let screen = text(&buf);
        assert!(!screen.contains("too small"), "{screen}");
        for needle in [
            "SCORE",
            "BEST",
            "seed 123456789",
            &format!("moves {}", app.game().moves()),
            "AI greedy",
            "autoplay off",
            "u undo",
            "i hint",
            "space autoplay",
            "+/- speed",
            "n new game",
            "r save replay",
            "q quit",
        ] {
            assert!(screen.contains(needle), "{needle:?} missing from\n{screen}");
        }
        let score = app.game().score().to_string();
        let score_lines = lines(&buf).iter().filter(|l| l.contains(&score)).count();
        assert!(score_lines >= 1, "the score {score} is shown\n{screen}");
    }

    #[test]
    fn a_hint_shows_the_pick_and_every_directions_value() {
        let mut app = App::new(config(Mode::Play, 5)).unwrap();
        app.handle(Action::Hint, Instant::now());
        let waiting = text(&render(&app, 80, 24));
        assert!(waiting.contains("Hint: thinking"), "{waiting}");
        assert!(serve(&mut app, greedy().as_mut()));
        let screen = text(&render(&app, 80, 24));
        let result = app.analysis().unwrap().result;
        let pick = result.dir.unwrap();
        assert!(
            screen.contains(&format!("Hint: {} {pick}", arrow(pick))),
            "{screen}"
        );
        for dir in Dir::ALL {
            let shown = match result.dir_values[dir.index()] {
                Some(v) => format!("{v:.1}"),
                None => "illegal".to_string(),
            };
            let line = lines(&render(&app, 80, 24))
                .into_iter()
                .find(|l| {
                    l.contains(&format!("{} {}", arrow(dir), dir.name())) && !l.contains("Hint")
                })
                .unwrap_or_else(|| panic!("no line for {dir}\n{screen}"));
            assert!(line.contains(&shown), "{line:?} lacks {shown}");
        }
    }

    #[test]
    fn watch_shows_the_ai_and_what_its_search_costs() {
        let mut app = App::new(config(Mode::Watch, 5)).unwrap();
        let before = text(&render(&app, 80, 24));
        assert!(before.contains("ai2048 watch"), "{before}");
        assert!(
            before.contains("AI greedy") && before.contains("playing"),
            "{before}"
        );
        assert!(before.contains("space pause/resume"), "{before}");
        assert!(!before.contains("u undo"), "{before}");
        assert!(serve(&mut app, greedy().as_mut()));
        app.tick(Instant::now());
        let after = text(&render(&app, 80, 24));
        let depth = format!("depth {}", app.stats().depth);
        for needle in [
            &depth,
            "nodes/s",
            "ms/move",
            "AI's last pick:",
            "pause 100 ms",
        ] {
            assert!(after.contains(needle), "{needle:?} missing from\n{after}");
        }
        app.handle(Action::ToggleAuto, Instant::now());
        let paused = text(&render(&app, 80, 24));
        assert!(paused.contains("paused"), "{paused}");
    }

    #[test]
    fn the_game_over_screen_shows_max_tile_score_moves_and_keys() {
        let now = Instant::now();
        let mut app = App::new(config(Mode::Play, 17)).unwrap();
        play_out(&mut app, now);
        let game = app.game();
        let screen = text(&render(&app, 80, 24));
        assert!(screen.contains("Game over!"), "{screen}");
        for (label, value) in [
            ("max tile", game.max_tile().to_string()),
            ("score", game.score().to_string()),
            ("moves", game.moves().to_string()),
        ] {
            let line = lines(&render(&app, 80, 24))
                .into_iter()
                .find(|l| l.contains(&format!("{label:>10}  {value}")))
                .unwrap_or_else(|| panic!("no {label} {value}\n{screen}"));
            assert!(line.contains('│'), "inside the box: {line:?}");
        }
        for needle in ["r save replay", "u undo", "n new game", "q quit"] {
            assert!(screen.contains(needle), "{needle:?} missing from\n{screen}");
        }
    }

    #[test]
    fn a_tiny_terminal_gets_a_clear_message() {
        let app = App::new(config(Mode::Play, 1)).unwrap();
        for (w, h) in [
            (40, 10),
            (MIN_WIDTH - 1, 30),
            (120, MIN_HEIGHT - 1),
            (20, 3),
        ] {
            let screen = text(&render(&app, w, h));
            assert!(screen.contains("too small"), "{w}×{h}:\n{screen}");
            assert!(!screen.contains("SCORE"), "{w}×{h}:\n{screen}");
        }
        let screen = text(&render(&app, 40, 10));
        assert!(screen.contains("40×10"), "{screen}");
        // Tinier still: no panic, whatever fits.
        for (w, h) in [(1, 1), (5, 2), (0, 0)] {
            render(&app, w, h);
        }
        let fits = text(&render(&app, MIN_WIDTH, MIN_HEIGHT));
        assert!(
            !fits.contains("too small") && fits.contains("SCORE"),
            "{fits}"
        );
    }

    #[test]
    fn the_help_line_is_not_cut_at_the_smallest_size() {
        let app = App::new(config(Mode::Play, 1)).unwrap();
        let screen = text(&render(&app, MIN_WIDTH, MIN_HEIGHT));
        for (key, what) in keys::help(Mode::Play) {
            let shown = format!("{key} {what}");
            assert!(screen.contains(&shown), "{shown:?} missing from\n{screen}");
        }
    }
}
