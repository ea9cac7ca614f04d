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
///
/// Kept as raw masks (a digit's bit `d - 1` per cell, a cell's bit per digit) so that the
/// rating's engine, whose hot loops index them directly, stands on this same type
/// (`rate::se::SeGrid` is a `Candidates` plus per-house counts); everything outside this
/// module and the rating reads them through [`DigitSet`] and [`CellSet`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Candidates {
    pub(crate) grid: Grid,
    /// Each cell's candidates; empty for a placed cell.
    pub(crate) masks: [u16; 81],
    /// Each digit's candidate cells.
    pub(crate) digit_cells: [u128; 9],
    /// The cells counted as givens: see [`Candidates::givens`].
    pub(crate) givens: u128,
}

impl Candidates {
    /// The candidates of a puzzle: every given placed, every empty cell holding the digits
    /// none of its peers holds. Conflicting givens are not rejected here (check
    /// [`Grid::conflict`] first); they simply leave some cells without candidates. The
    /// placed cells are the [givens](Candidates::givens); digits placed later are not.
    pub fn new(grid: &Grid) -> Candidates {
        let mut c = Candidates {
            grid: Grid::EMPTY,
            masks: [DigitSet::ALL.bits(); 81],
            digit_cells: [CellSet::ALL.bits(); 9],
            givens: 0,
        };
        for cell in Cell::all() {
            if let Some(d) = grid.get(cell) {
                c.place(cell, d);
            }
        }
        c.givens = c.placed_cells().bits();
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
    /// Pencil marks do not say which placed cells were given, so every placed cell counts as
    /// a given ([`Candidates::givens`]): techniques that need to know, such as avoidable
    /// rectangles, find nothing rather than guess.
    /// Errors carry the 1-based line and column of the offending character; lines end in
    /// `\n`, `\r\n` or a lone `\r`. Text with more than 81 cells and more than 729 characters
    /// is rejected at the character where that became certain, so a huge input costs no
    /// memory and little time.
    pub fn from_pencil_marks(text: &str) -> Result<Candidates, PencilMarkError> {
        // Which form the text is in shows only at its end, so one pass reads it as both,
        // keeping each form's first error; it stops once the text is too long for either.
        let mut listed = Listed::new();
        let mut spread = Spread::new();
        let (mut line, mut column) = (1, 0);
        let mut after_return = false;
        let mut last = None;
        for ch in text.chars() {
            // Lines end in `\n`, `\r\n` or a lone `\r`, as in `parse::records`.
            if std::mem::take(&mut after_return) && ch == '\n' {
                continue;
            }
            if ch == '\n' || ch == '\r' {
                (line, column) = (line + 1, 0);
                after_return = ch == '\r';
                listed.token = None;
                continue;
            }
            column += 1;
            if ch.is_whitespace() || ch == '|' {
                listed.token = None;
                continue;
            }
            last = Some((line, column));
            let at = |kind| PencilMarkError { kind, line, column };
            listed.read(ch, at);
            spread.read(ch, at);
            if listed.cells > 81 && spread.chars > 729 {
                return Err(at(PencilMarkErrorKind::TooLong));
            }
        }
        let (marks, error) = if listed.cells == 81 {
            (listed.marks, listed.error)
        } else if spread.chars == 729 {
            (spread.marks, spread.error)
        } else {
            let (line, column) = last.map_or((1, 1), |(line, column)| (line, column + 1));
            let kind = PencilMarkErrorKind::WrongLength {
                tokens: listed.cells,
                chars: spread.chars,
            };
            return Err(PencilMarkError { kind, line, column });
        };
        match error {
            Some(e) => Err(e),
            None => Ok(Candidates::from_marks(&marks)),
        }
    }

    /// The state from raw per-cell marks: a one-digit cell is placed, the rest keep their
    /// marks minus the digits placed in their peers.
    fn from_marks(marks: &[DigitSet; 81]) -> Candidates {
        let mut c = Candidates {
            grid: Grid::EMPTY,
            masks: marks.map(DigitSet::bits),
            digit_cells: [0; 9],
            givens: 0,
        };
        for cell in Cell::all() {
            for d in marks[cell.index()].iter() {
                c.digit_cells[d.index()] |= CellSet::single(cell).bits();
            }
        }
        for cell in Cell::all() {
            if let Some(d) = marks[cell.index()].only() {
                c.place(cell, d);
            }
        }
        c.givens = c.placed_cells().bits();
        c
    }

    /// The candidates of `cell`; empty when the cell is placed (or broken).
    pub fn get(&self, cell: Cell) -> DigitSet {
        DigitSet::from_bits(self.masks[cell.index()])
    }

    /// The digit placed in `cell`, if any.
    pub fn value(&self, cell: Cell) -> Option<Digit> {
        self.grid.get(cell)
    }

    /// Places `digit` in `cell`: the cell loses all candidates and every peer loses `digit`.
    pub fn place(&mut self, cell: Cell, digit: Digit) {
        self.grid.set(cell, Some(digit));
        let here = CellSet::single(cell).bits();
        for d in self.get(cell).iter() {
            self.digit_cells[d.index()] &= !here;
        }
        self.masks[cell.index()] = 0;
        let peers = CellSet::peers(cell) & self.cells_with(digit);
        for p in peers.iter() {
            self.masks[p.index()] &= !DigitSet::single(digit).bits();
        }
        self.digit_cells[digit.index()] &= !peers.bits();
    }

    /// Removes candidate `digit` from `cell`; returns whether it was there.
    pub fn eliminate(&mut self, cell: Cell, digit: Digit) -> bool {
        let had = self.get(cell).contains(digit);
        self.masks[cell.index()] &= !DigitSet::single(digit).bits();
        self.digit_cells[digit.index()] &= !CellSet::single(cell).bits();
        had
    }

    /// The cells where `digit` is still a candidate.
    pub fn cells_with(&self, digit: Digit) -> CellSet {
        CellSet::from_bits(self.digit_cells[digit.index()])
    }

    /// The cells of `house` where `digit` is still a candidate.
    pub fn cells_with_in(&self, house: House, digit: Digit) -> CellSet {
        self.cells_with(digit) & CellSet::house(house)
    }

    /// The placed digits.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The placed cells that may be givens: the puzzle's givens for a state built by
    /// [`Candidates::new`] (digits placed since are not), every placed cell for one read from
    /// pencil marks, which do not tell. Techniques resting on a cell *not* being a given (a
    /// deadly pattern of solved cells could then be swapped) use only placed cells outside
    /// this set, so an unknown cell errs on the safe side.
    pub fn givens(&self) -> CellSet {
        CellSet::from_bits(self.givens)
    }

    /// The cells with a digit placed.
    fn placed_cells(&self) -> CellSet {
        Cell::all()
            .filter(|&c| self.grid.get(c).is_some())
            .collect()
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

/// The 81-token form read so far: tokens are separated by whitespace and `|`, and only those
/// holding a digit are cells (the others are the box rules of drawn grids).
struct Listed {
    marks: [DigitSet; 81],
    /// Cells seen so far, counted past 81.
    cells: usize,
    /// The token being read, if any.
    token: Option<Token>,
    error: Option<PencilMarkError>,
}

/// A token of the 81-token form: a cell once it has shown a digit; before that, drawing with
/// perhaps a bad character, an error only if a digit follows.
enum Token {
    Cell,
    Drawing(Option<PencilMarkError>),
}

impl Listed {
    fn new() -> Listed {
        Listed {
            marks: [DigitSet::EMPTY; 81],
            cells: 0,
            token: None,
            error: None,
        }
    }

    fn read(&mut self, ch: char, at: impl Fn(PencilMarkErrorKind) -> PencilMarkError) {
        let digit = ch.to_digit(10).and_then(|v| Digit::new(v as u8));
        // `.` and `0` are placeholders, as in `1.3......`.
        let placeholder = ch == '.' || ch == '0';
        match self.token.get_or_insert(Token::Drawing(None)) {
            Token::Drawing(bad) if digit.is_none() => {
                if !placeholder && bad.is_none() {
                    *bad = Some(at(PencilMarkErrorKind::BadCharacter(ch)));
                }
                return;
            }
            Token::Drawing(bad) => {
                let bad = bad.take();
                self.token = Some(Token::Cell);
                self.cells += 1;
                if self.cells <= 81 && self.error.is_none() {
                    self.error = bad;
                }
            }
            Token::Cell => {}
        }
        if self.cells > 81 || placeholder {
            return;
        }
        let cell = &mut self.marks[self.cells - 1];
        let error = match digit {
            Some(d) if cell.contains(d) => PencilMarkErrorKind::RepeatedDigit(d),
            Some(d) => {
                cell.insert(d);
                return;
            }
            None => PencilMarkErrorKind::BadCharacter(ch),
        };
        self.error.get_or_insert_with(|| at(error));
    }
}

/// The 729-character form read so far: every character outside whitespace and `|` in turn.
struct Spread {
    marks: [DigitSet; 81],
    /// Characters seen so far, counted past 729.
    chars: usize,
    error: Option<PencilMarkError>,
}

impl Spread {
    fn new() -> Spread {
        Spread {
            marks: [DigitSet::EMPTY; 81],
            chars: 0,
            error: None,
        }
    }

    fn read(&mut self, ch: char, at: impl Fn(PencilMarkErrorKind) -> PencilMarkError) {
        let position = self.chars;
        self.chars += 1;
        if position >= 729 || ch == '.' || ch == '0' {
            return;
        }
        let expected = Digit::from_index(position % 9);
        if ch.to_digit(10) == Some(u32::from(expected.get())) {
            self.marks[position / 9].insert(expected);
        } else if self.error.is_none() {
            self.error = Some(at(PencilMarkErrorKind::MisplacedDigit {
                found: ch,
                expected,
            }));
        }
    }
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
        /// Cells found: tokens (separated by whitespace and `|`) holding a digit.
        tokens: usize,
        /// Characters found outside whitespace and `|`.
        chars: usize,
    },
    /// More than 81 cells and more than 729 characters: neither form can fit, so reading
    /// stopped at the character that made this certain (the error points at it).
    TooLong,
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
            PencilMarkErrorKind::TooLong => write!(
                f,
                "more than 81 cells and more than 729 characters of pencil marks"
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
    fn givens_are_the_puzzle_s_and_every_placed_cell_of_pencil_marks() {
        let mut values = [0u8; 81];
        values[0] = 1;
        let mut c = Candidates::new(&Grid::from_values(values).unwrap());
        c.place(cell(5, 5), d(9));
        assert_eq!(c.givens(), CellSet::single(cell(1, 1)));
        let tokens: Vec<String> = Cell::all()
            .map(|cl| match c.value(cl) {
                Some(v) => v.to_string(),
                None => c.get(cl).to_string(),
            })
            .collect();
        let read = Candidates::from_pencil_marks(&tokens.join(" ")).unwrap();
        assert_eq!(
            read.givens(),
            CellSet::single(cell(1, 1)) | CellSet::single(cell(5, 5))
        );
        assert_eq!((read.grid(), read.masks), (c.grid(), c.masks));
        assert_ne!(read, c);
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
    fn a_huge_pencil_mark_text_is_rejected_where_neither_form_can_fit() {
        // Ten million one-digit tokens: past 81 cells and 729 characters at the 730th token.
        let e = Candidates::from_pencil_marks(&"1 ".repeat(10_000_000)).unwrap_err();
        assert_eq!(e.kind, PencilMarkErrorKind::TooLong);
        assert_eq!((e.line, e.column), (1, 2 * 730 - 1));
        assert_eq!(
            e.to_string(),
            "line 1, column 1459: more than 81 cells and more than 729 characters of pencil marks"
        );
        // One ten-million-character token could still be a cell: read to its end, counted.
        let e = Candidates::from_pencil_marks(&".".repeat(10_000_000)).unwrap_err();
        assert_eq!(
            e.kind,
            PencilMarkErrorKind::WrongLength {
                tokens: 0,
                chars: 10_000_000
            }
        );
        assert_eq!((e.line, e.column), (1, 10_000_001));
        // However long the placeholders of a cell, 81 cells are a grid.
        let mut tokens = vec!["123456789".to_string(); 81];
        tokens[80] = format!("{}9", ".".repeat(10_000_000));
        let c = Candidates::from_pencil_marks(&tokens.join(" ")).unwrap();
        assert_eq!(c.value(cell(9, 9)), Some(d(9)));
    }

    #[test]
    fn the_729_character_form_may_space_out_every_character() {
        let mut values = [0u8; 81];
        values[30] = 6;
        let c = Candidates::new(&Grid::from_values(values).unwrap());
        let spaced: Vec<String> = Cell::all()
            .flat_map(|cl| {
                let set = c.value(cl).map_or(c.get(cl), DigitSet::single);
                Digit::all().map(move |dg| {
                    if set.contains(dg) {
                        dg.to_string()
                    } else {
                        ".".to_string()
                    }
                })
            })
            .collect();
        assert_eq!(Candidates::from_pencil_marks(&spaced.join(" ")).unwrap(), c);
        assert_eq!(
            Candidates::from_pencil_marks(&spaced.join("\r")).unwrap(),
            c
        );
    }

    #[test]
    fn pencil_mark_errors_count_every_line_end() {
        let mut tokens = vec!["123456789"; 81];
        tokens[3 * 9 + 4] = "12x";
        let rows: Vec<String> = tokens.chunks(9).map(|row| row.join(" ")).collect();
        for end in ["\n", "\r\n", "\r"] {
            let e = Candidates::from_pencil_marks(&rows.join(end)).unwrap_err();
            assert_eq!(e.kind, PencilMarkErrorKind::BadCharacter('x'));
            assert_eq!((e.line, e.column), (4, 4 * 10 + 3), "{end:?}");
        }
        // A bad character before a cell's first digit is still that cell's error; a token
        // without any digit is drawing, skipped.
        tokens[3 * 9 + 4] = "x1";
        let e = Candidates::from_pencil_marks(&tokens.join(" ")).unwrap_err();
        assert_eq!(e.kind, PencilMarkErrorKind::BadCharacter('x'));
        assert_eq!((e.line, e.column), (1, 31 * 10 + 1));
        tokens[3 * 9 + 4] = "x1 xyz";
        let e = Candidates::from_pencil_marks(&tokens.join(" ")).unwrap_err();
        assert_eq!((e.line, e.column), (1, 31 * 10 + 1));
        tokens[3 * 9 + 4] = "1 xyz";
        assert!(Candidates::from_pencil_marks(&tokens.join(" ")).is_ok());
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
