//! The pencil-mark grid every logic technique works on.
//!
//! A [`Candidates`] holds the placed digits (a [`Grid`]) and, for every empty cell, the digits
//! still possible there. It also keeps, per digit, the [`CellSet`] of cells where that digit is
//! still a candidate, so that single-digit techniques (fish, skyscrapers, chains) work on
//! 81-bit masks instead of scanning cells. Placed cells have no candidates.
//!
//! ```
//! use sudokit::candidates::Candidates;
//! use sudokit::grid::{Cell, Digit, Grid, House};
//!
//! let mut values = [0u8; 81];
//! values[0] = 5;
//! let c = Candidates::new(&Grid::from_values(values).unwrap());
//! let r1c2 = Cell::new(1).unwrap();
//! let five = Digit::new(5).unwrap();
//! assert!(!c.get(r1c2).contains(five));
//! assert_eq!(c.cells_with_in(House::Row(0), five).len(), 0);
//! assert_eq!(c.cells_with_in(House::Row(1), five).len(), 6);
//! ```

use std::fmt;

use crate::error::{ParseError, ParseErrorKind};
use crate::grid::{Cell, CellSet, Digit, DigitSet, Grid, House};

/// The pencil-mark state: placed digits plus the candidates of every empty cell.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Candidates {
    grid: Grid,
    cells: [DigitSet; 81],
    by_digit: [CellSet; 9],
}

impl Candidates {
    /// The candidates of a puzzle: every given placed, every empty cell holding the digits
    /// none of its peers holds. Conflicting givens are not rejected here (check
    /// [`Grid::conflict`] first); they simply leave some cells without candidates.
    pub fn new(grid: &Grid) -> Candidates {
        let mut c = Candidates {
            grid: Grid::EMPTY,
            cells: [DigitSet::ALL; 81],
            by_digit: [CellSet::ALL; 9],
        };
        for cell in Cell::all() {
            if let Some(d) = grid.get(cell) {
                c.place(cell, d);
            }
        }
        c
    }

    /// Parses a pencil-mark grid, in either of its two common forms:
    ///
    /// - 81 whitespace-separated tokens, one per cell in row-major order, each listing the
    ///   cell's candidates (`123 5 46 …`, `.` or `0` placeholders ignored); a token with a
    ///   single digit is a placed value. `|` separates tokens too and tokens without digits
    ///   are skipped, so drawn candidate grids (this type's `Display`, HoDoKu's and forum
    ///   posts' `.---+---.` frames) read back;
    /// - 729 characters (whitespace ignored) where position `row*81 + col*9 + d - 1` holds
    ///   digit `d` if it is a candidate and `.` or `0` otherwise; a cell with exactly one
    ///   candidate is a placed value.
    ///
    /// Placed values are removed from their peers' candidates (that removal is always sound).
    /// Errors carry the 1-based line and column of the offending character.
    pub fn from_pencil_marks(text: &str) -> Result<Candidates, PencilMarkError> {
        let tokens: Vec<(usize, usize, &str)> = tokens_with_positions(text);
        // Tokens without a digit are box rules (`------+------`, `.---.`) of drawn grids.
        let cells: Vec<(usize, usize, &str)> = tokens
            .iter()
            .copied()
            .filter(|(_, _, tok)| tok.chars().any(|ch| ('1'..='9').contains(&ch)))
            .collect();
        let mut marks = [DigitSet::EMPTY; 81];
        if cells.len() == 81 {
            for (i, &(line, col, tok)) in cells.iter().enumerate() {
                for (k, ch) in tok.chars().enumerate() {
                    if ch == '.' || ch == '0' {
                        // A placeholder, as in `1.3......`.
                        continue;
                    }
                    let err = |kind| PencilMarkError {
                        kind,
                        line,
                        column: col + k,
                    };
                    let d = ch
                        .to_digit(10)
                        .and_then(|v| Digit::new(v as u8))
                        .ok_or(err(PencilMarkErrorKind::BadCharacter(ch)))?;
                    if marks[i].contains(d) {
                        return Err(err(PencilMarkErrorKind::RepeatedDigit(d)));
                    }
                    marks[i].insert(d);
                }
            }
        } else {
            let chars: Vec<(usize, usize, char)> = tokens
                .iter()
                .flat_map(|&(line, col, tok)| {
                    tok.chars()
                        .enumerate()
                        .map(move |(k, ch)| (line, col + k, ch))
                })
                .collect();
            if chars.len() != 729 {
                let (line, column) = chars.last().map_or((1, 1), |&(l, c, _)| (l, c + 1));
                return Err(PencilMarkError {
                    kind: PencilMarkErrorKind::WrongLength {
                        tokens: cells.len(),
                        chars: chars.len(),
                    },
                    line,
                    column,
                });
            }
            for (pos, &(line, column, ch)) in chars.iter().enumerate() {
                let expected = Digit::from_index(pos % 9);
                match ch {
                    '.' | '0' => {}
                    _ if ch.to_digit(10) == Some(u32::from(expected.get())) => {
                        marks[pos / 9].insert(expected);
                    }
                    _ => {
                        return Err(PencilMarkError {
                            kind: PencilMarkErrorKind::MisplacedDigit {
                                found: ch,
                                expected,
                            },
                            line,
                            column,
                        })
                    }
                }
            }
        }
        Ok(Candidates::from_marks(&marks))
    }

    /// The state from raw per-cell marks: a one-digit cell is placed, the rest keep their
    /// marks minus the digits placed in their peers.
    fn from_marks(marks: &[DigitSet; 81]) -> Candidates {
        let mut c = Candidates {
            grid: Grid::EMPTY,
            cells: *marks,
            by_digit: [CellSet::EMPTY; 9],
        };
        for cell in Cell::all() {
            for d in marks[cell.index()].iter() {
                c.by_digit[d.index()].insert(cell);
            }
        }
        for cell in Cell::all() {
            if let Some(d) = marks[cell.index()].only() {
                c.place(cell, d);
            }
        }
        c
    }

    /// The candidates of `cell`; empty when the cell is placed (or broken).
    pub fn get(&self, cell: Cell) -> DigitSet {
        self.cells[cell.index()]
    }

    /// The digit placed in `cell`, if any.
    pub fn value(&self, cell: Cell) -> Option<Digit> {
        self.grid.get(cell)
    }

    /// Places `digit` in `cell`: the cell loses all candidates and every peer loses `digit`.
    pub fn place(&mut self, cell: Cell, digit: Digit) {
        self.grid.set(cell, Some(digit));
        for d in self.cells[cell.index()].iter() {
            self.by_digit[d.index()].remove(cell);
        }
        self.cells[cell.index()] = DigitSet::EMPTY;
        let peers = CellSet::peers(cell) & self.by_digit[digit.index()];
        for p in peers.iter() {
            self.cells[p.index()].remove(digit);
        }
        self.by_digit[digit.index()] -= peers;
    }

    /// Removes candidate `digit` from `cell`; returns whether it was there.
    pub fn eliminate(&mut self, cell: Cell, digit: Digit) -> bool {
        let had = self.cells[cell.index()].contains(digit);
        self.cells[cell.index()].remove(digit);
        self.by_digit[digit.index()].remove(cell);
        had
    }

    /// The cells where `digit` is still a candidate.
    pub fn cells_with(&self, digit: Digit) -> CellSet {
        self.by_digit[digit.index()]
    }

    /// The cells of `house` where `digit` is still a candidate.
    pub fn cells_with_in(&self, house: House, digit: Digit) -> CellSet {
        self.by_digit[digit.index()] & CellSet::house(house)
    }

    /// The placed digits.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The cells with no digit placed.
    pub fn empty_cells(&self) -> CellSet {
        Cell::all()
            .filter(|&c| self.grid.get(c).is_none())
            .collect()
    }

    /// The empty cells with exactly two candidates, the raw material of wings and chains.
    pub fn bivalue_cells(&self) -> CellSet {
        Cell::all().filter(|&c| self.get(c).len() == 2).collect()
    }

    /// The digits already placed somewhere in `house`.
    pub fn placed_in(&self, house: House) -> DigitSet {
        house
            .cells()
            .iter()
            .filter_map(|&c| self.value(c))
            .collect()
    }

    /// Whether every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.grid.is_full()
    }

    /// Whether the state is visibly broken: an empty cell without candidates, a digit that
    /// can no longer go anywhere in a house that lacks it, or two equal placed digits in a
    /// house. Forcing chains and trials use this to refute an assumption.
    pub fn is_broken(&self) -> bool {
        if self.grid.conflict().is_some() {
            return true;
        }
        if Cell::all().any(|c| self.value(c).is_none() && self.get(c).is_empty()) {
            return true;
        }
        House::all().any(|h| {
            let missing = !self.placed_in(h);
            missing.iter().any(|d| self.cells_with_in(h, d).is_empty())
        })
    }
}

impl fmt::Display for Candidates {
    /// A pencil-mark grid: nine rows of nine cells, each cell its candidates (or its placed
    /// digit) padded to the widest cell of its column, with `|` and `-+-` box rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = |cell: Cell| match self.value(cell) {
            Some(d) => d.to_string(),
            None if self.get(cell).is_empty() => "-".to_string(),
            None => self.get(cell).to_string(),
        };
        let widths: Vec<usize> = (0..9)
            .map(|col| {
                (0..9)
                    .filter_map(|row| Cell::from_row_col(row, col))
                    .map(|c| text(c).len())
                    .max()
                    .unwrap_or(1)
            })
            .collect();
        let rule: String = (0..3)
            .map(|b| {
                let w: usize = widths[b * 3..b * 3 + 3].iter().sum::<usize>() + 4;
                "-".repeat(w)
            })
            .collect::<Vec<_>>()
            .join("+");
        for row in 0..9 {
            if row > 0 && row % 3 == 0 {
                writeln!(f, "{rule}")?;
            }
            let mut line = String::new();
            for (col, &w) in widths.iter().enumerate() {
                if col > 0 && col % 3 == 0 {
                    line.push('|');
                }
                if col % 3 == 0 {
                    line.push(' ');
                }
                if let Some(cell) = Cell::from_row_col(row, col) {
                    line.push_str(&format!("{:<w$} ", text(cell)));
                }
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Candidates(\n{self})")
    }
}

/// Tokens separated by whitespace or `|` (the box rule of drawn grids), with the 1-based line
/// and column of their first character.
fn tokens_with_positions(text: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    for (l, line) in text.lines().enumerate() {
        let mut start: Option<usize> = None;
        let mut col = 0;
        for (byte, ch) in line.char_indices() {
            col += 1;
            if ch.is_whitespace() || ch == '|' {
                if let Some(s) = start.take() {
                    out.push((l + 1, s, &line[byte_of(line, s)..byte]));
                }
            } else if start.is_none() {
                start = Some(col);
            }
        }
        if let Some(s) = start {
            out.push((l + 1, s, &line[byte_of(line, s)..]));
        }
    }
    out
}

/// The byte offset of the 1-based character column `col` in `line`.
fn byte_of(line: &str, col: usize) -> usize {
    line.char_indices()
        .nth(col - 1)
        .map_or(line.len(), |(b, _)| b)
}

/// Why a pencil-mark grid could not be read, and where (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PencilMarkError {
    /// What is wrong.
    pub kind: PencilMarkErrorKind,
    /// The 1-based line of the offending character.
    pub line: usize,
    /// The 1-based column (in characters) of the offending character.
    pub column: usize,
}

/// The kinds of [`PencilMarkError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PencilMarkErrorKind {
    /// Neither 81 tokens nor 729 characters.
    WrongLength {
        /// Whitespace-separated tokens found.
        tokens: usize,
        /// Non-whitespace characters found.
        chars: usize,
    },
    /// A character that is not a digit 1–9 in the 81-token form.
    BadCharacter(char),
    /// A digit listed twice in one cell of the 81-token form.
    RepeatedDigit(Digit),
    /// In the 729-character form, a character other than `.`, `0` or the digit its
    /// position stands for.
    MisplacedDigit {
        /// The character found.
        found: char,
        /// The digit that position stands for.
        expected: Digit,
    },
}

impl fmt::Display for PencilMarkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            PencilMarkErrorKind::WrongLength { tokens, chars } => write!(
                f,
                "expected 81 cells or 729 characters of pencil marks, found {tokens} cells and {chars} characters"
            ),
            PencilMarkErrorKind::BadCharacter(c) => {
                write!(f, "unexpected character {c:?} in a cell's candidates")
            }
            PencilMarkErrorKind::RepeatedDigit(d) => {
                write!(f, "digit {d} listed twice in one cell")
            }
            PencilMarkErrorKind::MisplacedDigit { found, expected } => write!(
                f,
                "found {found:?} where only {expected} or '.' may stand"
            ),
        }
    }
}

impl std::error::Error for PencilMarkError {}

impl From<PencilMarkError> for ParseError {
    /// The crate-wide parse error, for callers that handle every input error alike.
    fn from(e: PencilMarkError) -> ParseError {
        let full = e.to_string();
        let reason = full
            .split_once(": ")
            .map_or(full.as_str(), |(_, why)| why)
            .to_string();
        ParseError {
            kind: ParseErrorKind::BadPencilMarks { reason },
            line: e.line,
            column: e.column,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(r: usize, c: usize) -> Cell {
        Cell::from_row_col(r - 1, c - 1).unwrap()
    }

    fn d(v: u8) -> Digit {
        Digit::new(v).unwrap()
    }

    #[test]
    fn new_removes_givens_from_peers_and_keeps_masks_in_step() {
        let mut values = [0u8; 81];
        values[0] = 1;
        values[40] = 9;
        let c = Candidates::new(&Grid::from_values(values).unwrap());
        assert_eq!(c.value(cell(1, 1)), Some(d(1)));
        assert!(c.get(cell(1, 1)).is_empty());
        assert!(!c.get(cell(1, 9)).contains(d(1)));
        assert!(c.get(cell(9, 9)).contains(d(1)));
        assert!(!c.get(cell(5, 1)).contains(d(9)));
        // r5c5 holds 9, so it lost its candidates too.
        assert_eq!(c.cells_with(d(1)).len(), 81 - 1 - 20 - 1);
        for cl in Cell::all() {
            for dg in Digit::all() {
                assert_eq!(c.get(cl).contains(dg), c.cells_with(dg).contains(cl));
            }
        }
    }

    #[test]
    fn eliminate_reports_change() {
        let mut c = Candidates::new(&Grid::EMPTY);
        assert!(c.eliminate(cell(3, 3), d(4)));
        assert!(!c.eliminate(cell(3, 3), d(4)));
        assert!(!c.cells_with(d(4)).contains(cell(3, 3)));
        assert_eq!(c.cells_with_in(House::Box(0), d(4)).len(), 8);
    }

    #[test]
    fn both_pencil_mark_forms_round_trip() {
        let mut values = [0u8; 81];
        values[10] = 7;
        let c = Candidates::new(&Grid::from_values(values).unwrap());
        let tokens: Vec<String> = Cell::all()
            .map(|cl| match c.value(cl) {
                Some(v) => v.to_string(),
                None => c.get(cl).to_string(),
            })
            .collect();
        assert_eq!(Candidates::from_pencil_marks(&tokens.join(" ")).unwrap(), c);
        let long: String = Cell::all()
            .flat_map(|cl| {
                let set = c.value(cl).map_or(c.get(cl), DigitSet::single);
                Digit::all().map(move |dg| {
                    if set.contains(dg) {
                        (b'0' + dg.get()) as char
                    } else {
                        '.'
                    }
                })
            })
            .collect();
        assert_eq!(long.len(), 729);
        assert_eq!(Candidates::from_pencil_marks(&long).unwrap(), c);
    }

    #[test]
    fn drawn_candidate_grids_read_back() {
        let mut values = [0u8; 81];
        values[0] = 4;
        values[40] = 8;
        values[80] = 2;
        let c = Candidates::new(&Grid::from_values(values).unwrap());
        assert_eq!(Candidates::from_pencil_marks(&c.to_string()).unwrap(), c);
        let framed = format!(".---.\n{}'---'", c.to_string().replace('\n', " |\n| "));
        assert_eq!(Candidates::from_pencil_marks(&framed).unwrap(), c);
        let dotted: Vec<String> = Cell::all()
            .map(|cl| {
                let set = c.value(cl).map_or(c.get(cl), DigitSet::single);
                Digit::all()
                    .map(|dg| {
                        if set.contains(dg) {
                            (b'0' + dg.get()) as char
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        assert_eq!(Candidates::from_pencil_marks(&dotted.join(" ")).unwrap(), c);
    }

    #[test]
    fn pencil_mark_errors_point_at_the_character() {
        let mut tokens = vec!["123456789"; 81];
        tokens[3] = "12x";
        let e = Candidates::from_pencil_marks(&tokens.join(" ")).unwrap_err();
        assert_eq!(e.kind, PencilMarkErrorKind::BadCharacter('x'));
        assert_eq!((e.line, e.column), (1, 3 * 10 + 3));
        tokens[3] = "131";
        let e = Candidates::from_pencil_marks(&tokens.join(" ")).unwrap_err();
        assert_eq!(e.kind, PencilMarkErrorKind::RepeatedDigit(d(1)));
        let e = Candidates::from_pencil_marks("1 2 3").unwrap_err();
        assert!(matches!(
            e.kind,
            PencilMarkErrorKind::WrongLength { tokens: 3, .. }
        ));
        let mut long = "123456789".repeat(81);
        long.replace_range(9..10, "2");
        let e = Candidates::from_pencil_marks(&long).unwrap_err();
        assert_eq!(
            e.kind,
            PencilMarkErrorKind::MisplacedDigit {
                found: '2',
                expected: d(1)
            }
        );
        assert_eq!(e.column, 10);
        assert!(e.to_string().starts_with("line 1, column 10:"));
        let general = ParseError::from(e);
        assert_eq!((general.line, general.column), (1, 10));
        assert!(matches!(
            general.kind,
            ParseErrorKind::BadPencilMarks { ref reason } if reason.starts_with("found '2'")
        ));
    }

    #[test]
    fn broken_states_are_detected() {
        let mut c = Candidates::new(&Grid::EMPTY);
        assert!(!c.is_broken());
        for dg in 2..=9 {
            c.eliminate(cell(1, 1), d(dg));
        }
        assert!(!c.is_broken());
        c.eliminate(cell(1, 1), d(1));
        assert!(c.is_broken());
        let mut c = Candidates::new(&Grid::EMPTY);
        for col in 1..=9 {
            c.eliminate(cell(4, col), d(6));
        }
        assert!(c.is_broken());
    }

    #[test]
    fn display_shows_marks_and_values() {
        let mut values = [0u8; 81];
        values[0] = 3;
        let c = Candidates::new(&Grid::from_values(values).unwrap());
        let text = c.to_string();
        assert_eq!(text.lines().count(), 11);
        assert!(text.starts_with(" 3 "));
        assert!(text.lines().nth(1).unwrap().contains("12456789"));
    }
}
