//! Writing grids back out: the 81-character line and the drawn 9×9 grid.
//!
//! Both forms read back through [`parse`](crate::parse) to the same grid, so output of one
//! `sudokit` command is input to the next.
//!
//! ```
//! use sudokit::{format, parse::parse};
//!
//! let puzzle = parse("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..").unwrap();
//! let drawn = format::grid(&puzzle);
//! assert!(drawn.starts_with("8 . . | . . . | . . .\n. . 3 | 6 . . | . . .\n"));
//! assert_eq!(parse(&drawn).unwrap(), puzzle);
//! assert_eq!(format::line(&puzzle, '0')[..10], *"8000000000");
//! ```

use std::fmt::Write;

use crate::candidates::Candidates;
use crate::grid::{Cell, Grid};

/// The 81-character line with `blank` for empty cells (`.` is the field's usual choice,
/// `0` the one Project Euler and most C solvers use).
pub fn line(grid: &Grid, blank: char) -> String {
    grid.values()
        .iter()
        .map(|&v| if v == 0 { blank } else { char::from(b'0' + v) })
        .collect()
}

/// A pencil-mark state on one line: 81 space-separated cells, each its placed digit or its
/// candidates (`5 1249 37 …`), the form `explain --marks` and
/// [`Candidates::from_pencil_marks`] read. A cell with one candidate left reads back as
/// placed.
pub fn marks_line(cands: &Candidates) -> String {
    let cells: Vec<String> = Cell::all()
        .map(|cell| match cands.value(cell) {
            Some(d) => d.to_string(),
            None => cands.get(cell).to_string(),
        })
        .collect();
    cells.join(" ")
}

/// The grid drawn in nine rows with `|` between stacks and `------+-------+------` between
/// bands, `.` for empty cells; rows end with `\n`.
pub fn grid(grid: &Grid) -> String {
    let mut out = String::with_capacity(11 * 22);
    for (r, row) in grid.values().chunks(9).enumerate() {
        if r == 3 || r == 6 {
            out.push_str("------+-------+------\n");
        }
        for (c, &v) in row.iter().enumerate() {
            if c == 3 || c == 6 {
                out.push_str(" |");
            }
            if c > 0 {
                out.push(' ');
            }
            out.push(if v == 0 { '.' } else { char::from(b'0' + v) });
        }
        out.push('\n');
    }
    out
}

/// The grid drawn like [`grid`], with the cells of `mark` shown in brackets (`[7]`), as
/// step-by-step output shows the digit just placed.
pub fn grid_marked(grid: &Grid, mark: crate::grid::CellSet) -> String {
    let mut out = String::with_capacity(11 * 32);
    for (r, row) in grid.values().chunks(9).enumerate() {
        if r == 3 || r == 6 {
            out.push_str("---------+---------+---------\n");
        }
        for (c, &v) in row.iter().enumerate() {
            if c == 3 || c == 6 {
                out.push('|');
            }
            let ch = if v == 0 { '.' } else { char::from(b'0' + v) };
            let marked =
                crate::grid::Cell::from_row_col(r, c).is_some_and(|cell| mark.contains(cell));
            // Writing to a String cannot fail.
            let _ = if marked {
                write!(out, "[{ch}]")
            } else {
                write!(out, " {ch} ")
            };
        }
        out.push('\n');
    }
    out
}
