//! # sudokit
//!
//! A sudoku engine: an exact solver built for speed, parsing of every common puzzle format,
//! and (in later modules) human-style logic, difficulty rating and canonical forms.
//!
//! The crate is library-first: the `sudokit` command-line tool is a thin layer over it, and
//! nothing here knows about terminals or argument parsing, so it embeds anywhere.
//!
//! The core types live in [`grid`]: [`Cell`](grid::Cell), [`Digit`](grid::Digit),
//! [`House`](grid::House), the bitsets [`DigitSet`](grid::DigitSet) and
//! [`CellSet`](grid::CellSet), and the [`Grid`](grid::Grid) itself.
#![deny(missing_docs)]

pub mod candidates;
pub mod canon;
pub mod error;
pub mod format;
pub mod grid;
pub mod logic;
pub mod parse;
pub mod rate;
pub mod render;
pub mod solver;
pub mod step;
pub mod transform;

pub use error::{ParseError, ParseErrorKind};
pub use grid::{Cell, CellSet, Digit, DigitSet, Grid, House};
