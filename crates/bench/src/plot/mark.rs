//! The marks of a scatter plot: a shape in a colour, filled or hollow, the same size
//! on any scale.

use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters_backend::{BackendCoord, DrawingErrorKind};

/// The shape of a mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Circle,
    Square,
    Triangle,
    Diamond,
}

impl Shape {
    /// Every shape, in the order series take them.
    pub(crate) const ALL: [Shape; 4] = [
        Shape::Circle,
        Shape::Square,
        Shape::Triangle,
        Shape::Diamond,
    ];
}

/// A mark at a point: its shape, its colour and whether it is filled; a hollow mark
/// is white inside its outline.
#[derive(Clone, Debug)]
pub(crate) struct Mark<Coord> {
    at: Coord,
    shape: Shape,
    colour: RGBColor,
    filled: bool,
    /// Half its width, in pixels.
    radius: i32,
}

impl<Coord> Mark<Coord> {
    /// A mark of `shape` at `at`, `radius` pixels from its centre to its side.
    pub(crate) fn new(
        at: Coord,
        shape: Shape,
        colour: RGBColor,
        filled: bool,
        radius: i32,
    ) -> Self {
        Mark {
            at,
            shape,
            colour,
            filled,
            radius,
        }
    }
}

impl<'a, Coord: 'a> PointCollection<'a, Coord> for &'a Mark<Coord> {
    type Point = &'a Coord;
    type IntoIter = std::iter::Once<&'a Coord>;

    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl<Coord, DB: DrawingBackend> Drawable<DB> for Mark<Coord> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut points: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let Some((x, y)) = points.next() else {
            return Ok(());
        };
        let r = self.radius;
        let fill = if self.filled { self.colour } else { WHITE };
        let fill = ShapeStyle::from(fill).filled();
        let line = self.colour.stroke_width(2);
        match self.shape {
            Shape::Circle => {
                backend.draw_circle((x, y), r as u32, &fill, true)?;
                backend.draw_circle((x, y), r as u32, &line, false)
            }
            Shape::Square => {
                // A square looks larger than a circle of its width: a little smaller.
                let s = r - 1;
                let corners = [
                    (x - s, y - s),
                    (x + s, y - s),
                    (x + s, y + s),
                    (x - s, y + s),
                ];
                polygon(backend, &corners, &fill, &line)
            }
            Shape::Triangle => {
                let corners = [(x, y - r - 1), (x + r, y + r - 1), (x - r, y + r - 1)];
                polygon(backend, &corners, &fill, &line)
            }
            Shape::Diamond => {
                let r = r + 1;
                let corners = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)];
                polygon(backend, &corners, &fill, &line)
            }
        }
    }
}

/// Fills a polygon and draws its outline, closed (as a path, since SVG rectangles
/// would have outlines of one pixel).
fn polygon<DB: DrawingBackend>(
    backend: &mut DB,
    corners: &[BackendCoord],
    fill: &ShapeStyle,
    line: &ShapeStyle,
) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
    backend.fill_polygon(corners.iter().copied(), fill)?;
    let closed = corners.iter().chain(corners.first()).copied();
    backend.draw_path(closed, line)
}
