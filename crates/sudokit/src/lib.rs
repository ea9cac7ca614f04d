//! # sudokit
//!
//! A sudoku engine: every common puzzle format in, an exact solver built for speed, a logic
//! engine that solves the way a person does and names each step as HoDoKu does, Sudoku
//! Explainer ratings, and exact minlex canonical forms.
//!
//! The crate is library-first: the `sudokit` command-line tool is a thin layer over it, and
//! nothing here knows about terminals or argument parsing, so it embeds anywhere.
//!
//! ```
//! use sudokit::{canon, logic, parse::parse, rate, solver};
//!
//! // Arto Inkala's 2012 puzzle, in any format `parse` knows.
//! let puzzle = parse("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..")?;
//!
//! // The exact solver: count up to 2 to tell none / unique / several.
//! let outcome = solver::count(&puzzle, 2);
//! assert_eq!(outcome.count, 1);
//! let solution = outcome.solution.expect("one solution");
//! assert!(solution.is_solution_of(&puzzle));
//!
//! // The logic engine: named steps, each checked here against the solution.
//! let engine = logic::Engine::new(logic::TechniqueSet::all()).unique(true);
//! let explanation = engine.explain(&puzzle);
//! assert!(explanation.solved);
//! for step in &explanation.steps {
//!     assert!(step.placements.iter().all(|&(cell, digit)| solution.get(cell) == Some(digit)));
//!     assert!(step.eliminations.iter().all(|&(cell, digit)| solution.get(cell) != Some(digit)));
//! }
//!
//! // Canonical form: the same puzzle however it is turned.
//! let (form, transform) = canon::minlex(&puzzle);
//! assert_eq!(transform.apply(&puzzle), form);
//! # let _ = rate::Level::of(rate::Tenths(107));
//! # Ok::<(), sudokit::ParseError>(())
//! ```
//!
//! ## Map
//!
//! | module | what it holds |
//! |---|---|
//! | [`grid`] | [`Cell`], [`Digit`], [`House`], the bitsets [`DigitSet`] and [`CellSet`], and [`Grid`]: the vocabulary every feature shares |
//! | [`parse`], [`format`](mod@format), [`error`] | records in every input format, with positioned [`ParseError`]s; line and grid output |
//! | [`solver`] | the exact solver: first solution, counts up to a limit, every solution, statistics; a plain reference backtracker |
//! | [`candidates`], [`step`], [`logic`] | the pencil-mark grid, the [`Step`](step::Step) every technique returns, and the techniques, one module per family |
//! | [`rate`] | Sudoku Explainer ER/EP/ED, assumptions, solver effort, level words |
//! | [`generate`] | unique puzzles to order: minimal, symmetric, by clue count, pattern, rating or technique |
//! | [`canon`], [`transform`] | exact minlex forms, automorphisms, equivalence; the symmetries as values |
//! | [`links`] | a step's chain read into links between candidates, strong or weak, for pictures |
//! | [`render`] | SVG pictures of a position and a step, and histograms |
//! | `wire` (feature `serde`) | the JSON records every front end writes, one schema for the CLI, a server and bindings |
#![deny(missing_docs)]

pub mod candidates;
pub mod canon;
pub mod error;
pub mod format;
pub mod generate;
pub mod grid;
pub mod links;
pub mod logic;
pub mod parse;
pub mod rate;
pub mod render;
pub mod solver;
pub mod step;
pub mod transform;
#[cfg(feature = "serde")]
pub mod wire;

pub use error::{ParseError, ParseErrorKind};
pub use grid::{Cell, CellSet, Digit, DigitSet, Grid, House};
