//! Errors as data: what went wrong in the input, and exactly where.
//!
//! A [`ParseError`] carries its position (1-based line and column of the offending
//! character) and a [`ParseErrorKind`] saying what was found and what was expected, so a
//! caller can print a compiler-style message (`puzzles.txt:3:17: …`), turn it into a JSON
//! error record, or act on the kind. The library never knows the file name; the caller adds it.

use std::fmt;

use crate::grid::{Cell, Digit, House};

/// What was wrong with a piece of puzzle input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// A line puzzle with the wrong number of cells.
    WrongLength {
        /// How many cell characters were found.
        found: usize,
    },
    /// A character that is neither a digit nor a blank where a cell was expected.
    BadCharacter {
        /// The character found.
        found: char,
    },
    /// A row of a drawn grid that does not hold nine cells.
    BadRow {
        /// How many cell characters the row held.
        found: usize,
    },
    /// A drawn grid (or `Grid NN` block) that ended before its ninth row.
    IncompleteGrid {
        /// How many rows were read.
        rows: usize,
    },
    /// Two equal givens in one house: no solution can exist.
    DuplicateGiven {
        /// The repeated digit.
        digit: Digit,
        /// The house holding both.
        house: House,
        /// The first cell holding the digit.
        first: Cell,
        /// The second cell holding the digit (the error's position points at it).
        second: Cell,
    },
    /// The input holds no puzzle at all.
    NoPuzzle,
    /// The input holds more than the one puzzle expected.
    MorePuzzles,
    /// A line longer than [`MAX_LINE`](crate::parse::MAX_LINE) bytes, read past unparsed so
    /// that one endless line cannot exhaust memory; the error points at its column 1.
    LineTooLong {
        /// The limit, in bytes.
        limit: usize,
    },
    /// A bad pencil-mark grid: wrong token count, or a token that lists no candidate.
    BadPencilMarks {
        /// What is wrong, in words.
        reason: String,
    },
}

/// An input error with its 1-based position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What was wrong.
    pub kind: ParseErrorKind,
    /// The 1-based line of the offending text.
    pub line: usize,
    /// The 1-based column (in characters) of the offending text.
    pub column: usize,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::WrongLength { found } => write!(
                f,
                "expected 81 cells (digits 1-9, blanks . 0 _ - *), found {found}"
            ),
            ParseErrorKind::BadCharacter { found } => write!(
                f,
                "bad character {found:?}: expected a digit 1-9 or a blank (. 0 _ - *)"
            ),
            ParseErrorKind::BadRow { found } => {
                write!(f, "expected a grid row of 9 cells, found {found}")
            }
            ParseErrorKind::IncompleteGrid { rows } => {
                write!(f, "grid ends after {rows} rows; expected 9")
            }
            ParseErrorKind::DuplicateGiven {
                digit,
                house,
                first,
                second,
            } => write!(f, "digit {digit} twice in {house}: {first} and {second}"),
            ParseErrorKind::NoPuzzle => write!(f, "no puzzle found"),
            ParseErrorKind::MorePuzzles => write!(f, "more than one puzzle; expected one"),
            ParseErrorKind::LineTooLong { limit } => write!(f, "line longer than {limit} bytes"),
            ParseErrorKind::BadPencilMarks { reason } => {
                write!(f, "bad pencil marks: {reason}")
            }
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.kind
        )
    }
}

impl std::error::Error for ParseError {}
