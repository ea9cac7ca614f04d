//! Reading puzzles in every format people actually have, detected line by line.
//!
//! [`records`] turns any buffered reader into a stream of [`Record`]s, one per puzzle, each
//! with the line it starts on, the parsed [`Grid`] or a positioned [`ParseError`], and the
//! puzzle's trailing text. Formats may be mixed freely in one input:
//!
//! * **line**: 81 cells on one line, digits `1`–`9` and blanks `.` `0` `_` `-` `*`; whatever
//!   follows the 81st cell (a comment, a rating such as ` ED=11.0/11.0/2.6`) is the record's
//!   trailing text, kept byte for byte so that output can pass it through.
//! * **grid**: nine rows of nine cells, with any spaces, `|` column rules and `---+---+---`
//!   row rules, as printed by most tools (including [`format::grid`](crate::format::grid)).
//! * **Project Euler 96**: a `Grid 01` header followed by nine rows of digits, `0` blank; the
//!   header becomes the record's trailing text (` Grid 01`).
//!
//! Lines may end in `\n`, `\r\n` or a lone `\r` (old Mac files), mixed freely; a line longer
//! than [`MAX_LINE`] bytes is an error. Blank lines and lines starting with `#` are skipped.
//! A bad puzzle becomes one error record in its place and reading goes on, so a batch never
//! loses or reorders puzzles: a broken drawn grid is one record, and a bad line outside any
//! grid is one record of its own (it starts a grid only when a good row follows it). Only
//! I/O failures end the stream.
//!
//! ```
//! use sudokit::parse::records;
//!
//! let input = "\
//! ## a comment
//! ..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.. 2006
//! 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4x.
//! ";
//! let recs: Vec<_> = records(input.as_bytes()).collect::<Result<_, _>>().unwrap();
//! assert_eq!(recs.len(), 2);
//! assert_eq!(recs[0].line, 2);
//! assert_eq!(recs[0].trailing, " 2006");
//! let err = recs[1].puzzle.as_ref().unwrap_err();
//! assert_eq!((err.line, err.column), (3, 80));
//! ```

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::str::FromStr;

use memchr::memchr2;

use crate::error::{ParseError, ParseErrorKind};
use crate::grid::Grid;

/// The most bytes one line may hold, its line end not counted: far more than any puzzle
/// line with its trailing text. A longer line becomes one
/// [`LineTooLong`](ParseErrorKind::LineTooLong) error record and is read past in pieces, so
/// that an endless line costs no more memory than this.
pub const MAX_LINE: usize = 65_536;

/// The value of a cell character: `Some(1..=9)` for a digit, `Some(0)` for a blank.
pub fn cell_value(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '.' | '0' | '_' | '-' | '*' => Some(0),
        _ => None,
    }
}

/// One puzzle read from an input: where it starts, what it is, what followed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The 1-based line on which the puzzle starts (its header line for `Grid NN` blocks).
    pub line: usize,
    /// The puzzle, or what was wrong with it.
    pub puzzle: Result<Grid, ParseError>,
    /// Text that followed the cells on a line puzzle, verbatim (leading whitespace
    /// included); for a `Grid NN` block, a space and the header.
    pub trailing: String,
}

/// Reads the one puzzle in `text`, in any format [`records`] knows.
///
/// Trailing text is allowed and ignored; a second puzzle is not.
///
/// ```
/// use sudokit::parse::parse;
/// let grid = parse("
/// 8 . . | . . . | . . .
/// . . 3 | 6 . . | . . .
/// . 7 . | . 9 . | 2 . .
/// ------+-------+------
/// . 5 . | . . 7 | . . .
/// . . . | . 4 5 | 7 . .
/// . . . | 1 . . | . 3 .
/// ------+-------+------
/// . . 1 | . . . | . 6 8
/// . . 8 | 5 . . | . 1 .
/// . 9 . | . . . | 4 . .").unwrap();
/// assert_eq!(grid.filled(), 21);
/// ```
pub fn parse(text: &str) -> Result<Grid, ParseError> {
    // A lone 81-cell line, the form callers that take one puzzle at a time (the Python
    // batches) hand over most, needs no record reader and its buffers.
    if text.len() == 81 {
        if let Some(values) = plain_line(text.as_bytes()) {
            return checked(values, |i| (1, i + 1));
        }
    }
    // Reading from a byte slice cannot fail, so `Err` items never occur here.
    let mut recs = records(text.as_bytes()).filter_map(Result::ok);
    let first = recs.next().ok_or(ParseError {
        kind: ParseErrorKind::NoPuzzle,
        line: 1,
        column: 1,
    })?;
    if let Some(extra) = recs.next() {
        return Err(ParseError {
            kind: ParseErrorKind::MorePuzzles,
            line: extra.line,
            column: 1,
        });
    }
    first.puzzle
}

impl FromStr for Grid {
    type Err = ParseError;

    /// Parses one puzzle in any supported format; see [`parse`].
    fn from_str(s: &str) -> Result<Grid, ParseError> {
        parse(s)
    }
}

/// The stream of puzzles in `reader`; see the [module docs](self).
pub fn records<R: BufRead>(reader: R) -> Records<R> {
    Records {
        reader,
        buf: Vec::new(),
        long: false,
        after_return: false,
        line: 0,
        bytes: 0,
        pending: None,
        lone: None,
        ready: VecDeque::new(),
        done: false,
        defer_repeats: false,
    }
}

/// The error [`Records`] reports for repeated givens in `grid`, read from a plain 81-cell
/// line numbered `line`, if there are any: the check [`Records::deferring_repeats`] leaves
/// to the caller.
pub fn plain_line_repeats(grid: &Grid, line: usize) -> Option<ParseError> {
    checked(*grid.values(), |i| (line, i + 1)).err()
}

/// Iterator over the [`Record`]s of a reader, made by [`records`].
pub struct Records<R> {
    reader: R,
    /// The current line, without its line end, cut at [`MAX_LINE`] bytes.
    buf: Vec<u8>,
    /// Whether the current line was longer than [`MAX_LINE`].
    long: bool,
    /// Whether the last line ended in `\r`: a `\n` right after it completes that line end.
    after_return: bool,
    line: usize,
    bytes: u64,
    pending: Option<GridBuilder>,
    /// A bad line outside any grid, and its line number: the first row of a drawn grid
    /// if a good row follows, else a record of its own (so it swallows no other line).
    lone: Option<(usize, ParseError)>,
    ready: VecDeque<Record>,
    done: bool,
    /// Whether plain lines skip the check for repeated givens (see
    /// [`Records::deferring_repeats`]).
    defer_repeats: bool,
}

impl<R> Records<R> {
    /// Leaves the check for repeated givens in plain 81-cell lines to the caller, who then
    /// gets their grids as read. The check costs about a twentieth of solving a 17-clue
    /// puzzle, and a solver finds such a grid unsolvable anyway, so a caller that solves
    /// every grid need only call [`plain_line_repeats`] on those without a solution. Every
    /// other kind of record is checked as before.
    pub fn deferring_repeats(mut self) -> Records<R> {
        self.defer_repeats = true;
        self
    }

    /// How many bytes of input have been consumed so far (for progress reporting).
    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    /// The underlying reader, e.g. to see whether its buffer is drained before the next,
    /// possibly blocking, read.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }
}

/// A drawn grid being read row by row.
struct GridBuilder {
    line: usize,
    trailing: String,
    values: [u8; 81],
    /// (line, column) of every cell, to place duplicate-given errors.
    positions: [(usize, usize); 81],
    rows: usize,
    error: Option<ParseError>,
}

impl GridBuilder {
    fn new(line: usize, trailing: String) -> Self {
        GridBuilder {
            line,
            trailing,
            values: [0; 81],
            positions: [(0, 0); 81],
            rows: 0,
            error: None,
        }
    }

    fn finish(self) -> Record {
        let puzzle = match self.error {
            Some(e) => Err(e),
            None => checked(self.values, |i| self.positions[i]),
        };
        Record {
            line: self.line,
            puzzle,
            trailing: self.trailing,
        }
    }

    /// The record of a grid cut short at `line`: its own first error if a row was bad
    /// (the cause), otherwise an incomplete-grid error.
    fn incomplete(self, line: usize) -> Record {
        if self.error.is_some() {
            return self.finish();
        }
        Record {
            line: self.line,
            puzzle: Err(ParseError {
                kind: ParseErrorKind::IncompleteGrid { rows: self.rows },
                line,
                column: 1,
            }),
            trailing: self.trailing,
        }
    }
}

/// The grid of `values`, unless two equal givens share a house; `position` places the error.
fn checked(
    values: [u8; 81],
    position: impl Fn(usize) -> (usize, usize),
) -> Result<Grid, ParseError> {
    // Every value comes from `cell_value`, so it is at most 9.
    let grid = Grid::from_values(values).unwrap_or_default();
    match grid.conflict() {
        None => Ok(grid),
        Some(c) => {
            let (line, column) = position(c.second.index());
            Err(ParseError {
                kind: ParseErrorKind::DuplicateGiven {
                    digit: c.digit,
                    house: c.house,
                    first: c.first,
                    second: c.second,
                },
                line,
                column,
            })
        }
    }
}

/// What one line of input is.
#[cfg_attr(test, derive(Debug, PartialEq))]
enum Line<'a> {
    Skip,
    Header,
    Puzzle(Result<Grid, ParseError>, &'a str),
    Row(Vec<(u8, usize)>),
    Rule,
    BadRow(ParseError),
    Blank,
}

fn classify(text: &str, line: usize, in_grid: bool) -> Line<'_> {
    match plain_line(text.as_bytes()) {
        Some(values) => Line::Puzzle(checked(values, |i| (line, i + 1)), &text[81..]),
        None => classify_any(text, line, in_grid),
    }
}

/// [`classify`] for every kind of line.
fn classify_any(text: &str, line: usize, in_grid: bool) -> Line<'_> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Line::Blank;
    }
    if trimmed.starts_with('#') {
        return Line::Skip;
    }
    if is_header(trimmed) {
        return Line::Header;
    }
    let leading = text
        .chars()
        .take_while(|&c| cell_value(c).is_some())
        .count();
    if leading >= 81 {
        return line_puzzle(text, leading, line);
    }
    // A drawn row: cells among spaces and `|`; a rule: only `-`, `+`, `=` and `|`. Only a
    // row's nine cells are kept; the rest are only counted.
    let mut cells = Vec::with_capacity(9);
    let mut count = 0;
    let mut bad = None;
    for (i, c) in text.chars().enumerate() {
        if c.is_whitespace() || c == '|' {
            continue;
        }
        match cell_value(c) {
            Some(v) => {
                count += 1;
                if count <= 9 {
                    cells.push((v, i + 1));
                }
            }
            None if bad.is_none() => bad = Some((c, i + 1)),
            None => {}
        }
    }
    let rule_chars = text
        .chars()
        .all(|c| c.is_whitespace() || matches!(c, '-' | '+' | '=' | '|'));
    if rule_chars && (text.contains(['+', '=']) || count != 9) {
        return Line::Rule;
    }
    if bad.is_none() && count == 9 {
        return Line::Row(cells);
    }
    // A long run of cells outside a grid is a line puzzle gone wrong; anything else, a bad row.
    if leading > 9 && !in_grid {
        let kind = match text.chars().nth(leading) {
            Some(found) if !found.is_whitespace() => ParseErrorKind::BadCharacter { found },
            _ => ParseErrorKind::WrongLength { found: leading },
        };
        let error = ParseError {
            kind,
            line,
            column: leading + 1,
        };
        return Line::Puzzle(Err(error), "");
    }
    let (kind, column) = match bad {
        Some((found, column)) => (ParseErrorKind::BadCharacter { found }, column),
        None => (ParseErrorKind::BadRow { found: count }, 1),
    };
    Line::BadRow(ParseError { kind, line, column })
}

/// The values of a line that starts with exactly 81 cells, read byte by byte: the common
/// case, which the general reader below would scan four times over.
fn plain_line(bytes: &[u8]) -> Option<[u8; 81]> {
    if bytes.len() < 81
        || bytes
            .get(81)
            .is_some_and(|&b| cell_value(b.into()).is_some())
    {
        return None;
    }
    // `cell_value` without branches, so that the loop vectorises: most inputs are such
    // lines, and reading them is a fair part of solving an easy puzzle.
    let cells: &[u8; 81] = bytes[..81].try_into().ok()?;
    let mut values = [0u8; 81];
    let mut bad = 0u8;
    for (value, &b) in values.iter_mut().zip(cells) {
        let digit = b.wrapping_sub(b'1') < 9;
        let empty = (b == b'.') | (b == b'0') | (b == b'_') | (b == b'-') | (b == b'*');
        bad |= u8::from(!(digit | empty));
        *value = if digit { b - b'0' } else { 0 };
    }
    (bad == 0).then_some(values)
}

fn is_header(trimmed: &str) -> bool {
    let mut words = trimmed.split_whitespace();
    words.next().is_some_and(|w| w.eq_ignore_ascii_case("grid"))
        && words
            .next()
            .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()))
}

fn line_puzzle(text: &str, leading: usize, line: usize) -> Line<'_> {
    if leading > 81 {
        let error = ParseError {
            kind: ParseErrorKind::WrongLength { found: leading },
            line,
            column: 82,
        };
        return Line::Puzzle(Err(error), "");
    }
    let mut values = [0u8; 81];
    let mut end = 0;
    for (i, (offset, c)) in text.char_indices().take(81).enumerate() {
        values[i] = cell_value(c).unwrap_or(0);
        end = offset + c.len_utf8();
    }
    Line::Puzzle(checked(values, |i| (line, i + 1)), &text[end..])
}

impl<R: BufRead> Records<R> {
    /// Reads one line into `self.buf`, at most [`MAX_LINE`] bytes of it (`self.long` tells
    /// whether there was more); `Ok(false)` at the end of input.
    ///
    /// The line is read piece by piece from the reader's buffer, so an endless line costs no
    /// more memory than the limit. A `\r` ends a line at once, without waiting for the byte
    /// after it, which could block on a pipe: a `\n` starting the next read is skipped instead.
    fn read_line(&mut self) -> io::Result<bool> {
        self.buf.clear();
        self.long = false;
        let mut any = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            let skip = usize::from(std::mem::take(&mut self.after_return) && available[0] == b'\n');
            let rest = &available[skip..];
            let end = memchr2(b'\n', b'\r', rest);
            let piece = &rest[..end.unwrap_or(rest.len())];
            let room = MAX_LINE - self.buf.len();
            self.long |= piece.len() > room;
            self.buf.extend_from_slice(&piece[..piece.len().min(room)]);
            any |= !piece.is_empty();
            if let Some(end) = end {
                self.after_return = rest[end] == b'\r';
            }
            let used = skip + piece.len() + usize::from(end.is_some());
            self.reader.consume(used);
            self.bytes += used as u64;
            if end.is_some() {
                any = true;
                break;
            }
        }
        if !any {
            return Ok(false);
        }
        self.line += 1;
        if self.line == 1 && self.buf.starts_with(b"\xef\xbb\xbf") {
            self.buf.drain(..3);
        }
        Ok(true)
    }

    /// Settles a held bad line (`lone`): the first row of a grid when `row` follows it,
    /// else an error record of its own.
    fn settle_lone(&mut self, row: bool) {
        if let Some((line, error)) = self.lone.take() {
            if row {
                self.push_row(line, Err(error));
            } else {
                self.ready.push_back(Record {
                    line,
                    puzzle: Err(error),
                    trailing: String::new(),
                });
            }
        }
    }

    fn flush_pending(&mut self, line: usize) {
        if let Some(pending) = self.pending.take() {
            self.ready.push_back(pending.incomplete(line));
        }
    }

    /// Reads lines until at least one record is ready or the input ends.
    fn fill(&mut self) -> io::Result<()> {
        while self.ready.is_empty() && !self.done {
            if !self.read_line()? {
                self.done = true;
                self.settle_lone(false);
                let line = self.line + 1;
                self.flush_pending(line);
                break;
            }
            let line = self.line;
            if self.long {
                self.settle_lone(false);
                self.flush_pending(line);
                let error = ParseError {
                    kind: ParseErrorKind::LineTooLong { limit: MAX_LINE },
                    line,
                    column: 1,
                };
                self.ready.push_back(Record {
                    line,
                    puzzle: Err(error),
                    trailing: String::new(),
                });
                continue;
            }
            let buf = std::mem::take(&mut self.buf);
            // Checked first as it is, which is fast on ASCII; only invalid text pays for the
            // lossy conversion's replacement characters.
            let text = match std::str::from_utf8(&buf) {
                Ok(text) => Cow::Borrowed(text),
                Err(_) => String::from_utf8_lossy(&buf),
            };
            let kind = classify(&text, line, self.pending.is_some());
            if !matches!(kind, Line::Skip | Line::Rule) {
                self.settle_lone(matches!(kind, Line::Row(_)));
            }
            match kind {
                Line::Skip => {}
                Line::Rule => {}
                Line::Blank => self.flush_pending(line),
                Line::Header => {
                    self.flush_pending(line);
                    self.pending = Some(GridBuilder::new(line, format!(" {}", text.trim())));
                }
                Line::Puzzle(puzzle, trailing) => {
                    self.flush_pending(line);
                    self.ready.push_back(Record {
                        line,
                        puzzle,
                        trailing: trailing.to_string(),
                    });
                }
                Line::Row(cells) => self.push_row(line, Ok(cells)),
                Line::BadRow(error) if self.pending.is_none() => self.lone = Some((line, error)),
                Line::BadRow(error) => self.push_row(line, Err(error)),
            }
            self.buf = buf;
        }
        Ok(())
    }

    fn push_row(&mut self, line: usize, row: Result<Vec<(u8, usize)>, ParseError>) {
        let pending = self
            .pending
            .get_or_insert_with(|| GridBuilder::new(line, String::new()));
        match row {
            Ok(cells) => {
                for (j, (value, column)) in cells.into_iter().enumerate() {
                    let i = pending.rows * 9 + j;
                    pending.values[i] = value;
                    pending.positions[i] = (line, column);
                }
            }
            Err(error) => {
                pending.error.get_or_insert(error);
            }
        }
        pending.rows += 1;
        if pending.rows == 9 {
            if let Some(done) = self.pending.take() {
                self.ready.push_back(done.finish());
            }
        }
    }
}

impl<R: BufRead> Records<R> {
    /// The next record when it is a line of exactly 81 cells ended by `\n`, with no grid or
    /// bad line pending: taken straight from the reader's buffer, without the copy, the UTF-8
    /// check and the queue of the general reader. Such lines are most of most inputs.
    fn plain_record(&mut self) -> Option<Record> {
        let idle = self.ready.is_empty() && self.pending.is_none() && self.lone.is_none();
        if !idle || self.after_return || self.done {
            return None;
        }
        // A failed read is left to the general reader, which reports it.
        let available = self.reader.fill_buf().ok()?;
        if available.get(81) != Some(&b'\n') {
            return None;
        }
        let values = plain_line(&available[..81])?;
        self.reader.consume(82);
        self.bytes += 82;
        self.line += 1;
        let line = self.line;
        let puzzle = if self.defer_repeats {
            // Every value comes from `cell_value`, so it is at most 9.
            Ok(Grid::from_values(values).unwrap_or_default())
        } else {
            checked(values, |i| (line, i + 1))
        };
        Some(Record {
            line,
            puzzle,
            trailing: String::new(),
        })
    }
}

impl<R: BufRead> Iterator for Records<R> {
    type Item = io::Result<Record>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(record) = self.plain_record() {
            return Some(Ok(record));
        }
        if let Err(e) = self.fill() {
            self.done = true;
            return Some(Err(e));
        }
        self.ready.pop_front().map(Ok)
    }
}

#[cfg(test)]
mod tests {
    use std::io::{self, BufReader, Read};

    use super::{classify, classify_any, plain_line, records, MAX_LINE};
    use crate::error::ParseErrorKind;

    #[test]
    fn plain_lines_read_as_the_general_reader_reads_them() {
        let puzzle =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let clash = format!("44{}", &puzzle[2..]);
        let lines = [
            puzzle.to_string(),
            format!("{puzzle} ;trailing"),
            format!("{puzzle}\tx"),
            format!("{puzzle}é"),
            format!("{puzzle}1"),
            format!("{}x{}", &puzzle[..36], &puzzle[37..]),
            format!(" {puzzle}"),
            puzzle[..80].to_string(),
            clash,
            puzzle.replace('.', "0"),
        ];
        for text in &lines {
            assert_eq!(
                classify(text, 3, false),
                classify_any(text, 3, false),
                "{text}"
            );
        }
        assert!(plain_line(puzzle.as_bytes()).is_some());
        // `parse` takes the same shortcut for a lone line, with the reader's answer.
        for text in [puzzle, &lines[5], &lines[8]] {
            let read = records(text.as_bytes()).next().unwrap().unwrap().puzzle;
            assert_eq!(super::parse(text), read, "{text}");
        }
        assert!(plain_line(format!("{puzzle}1").as_bytes()).is_none());
    }

    /// A reader deferring the check for repeated givens differs only on plain lines with
    /// repeats, whose grid comes as read and whose error `plain_line_repeats` gives.
    #[test]
    fn deferred_repeats_are_the_checking_readers_errors() {
        let puzzle =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let clash = format!("44{}", &puzzle[2..]);
        let drawn: String = clash
            .as_bytes()
            .chunks(9)
            .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
            .collect();
        let text = format!("{puzzle}\n{clash}\n{clash} x\n{drawn}{clash}\n");
        let checked = read_all(text.as_bytes()).0;
        let deferred: Vec<super::Record> = records(text.as_bytes())
            .deferring_repeats()
            .map(|r| r.unwrap())
            .collect();
        assert_eq!(checked.len(), deferred.len());
        let mut unchecked = 0;
        for (c, d) in checked.iter().zip(&deferred) {
            assert_eq!((c.line, &c.trailing), (d.line, &d.trailing));
            match (&c.puzzle, &d.puzzle) {
                (Err(e), Ok(grid)) => {
                    unchecked += 1;
                    assert!(grid.conflict().is_some());
                    assert_eq!(super::plain_line_repeats(grid, d.line).as_ref(), Some(e));
                }
                (c, d) => assert_eq!(c, d),
            }
        }
        // The two plain lines with repeats; the others were checked as ever.
        assert_eq!(unchecked, 2);
        assert!(checked.iter().filter(|r| r.puzzle.is_err()).count() == 4);
    }

    /// `plain_line` spells out `cell_value`'s alphabet without branches; both must read
    /// every character alike (all of them ASCII: `cell_value` takes no other).
    #[test]
    fn plain_lines_take_the_cells_cell_value_takes() {
        for b in 0u8..0x80 {
            let line = String::from(b as char).repeat(81);
            let expected = super::cell_value(b as char).map(|v| [v; 81]);
            assert_eq!(plain_line(line.as_bytes()), expected, "byte {b:#04x}");
        }
    }

    /// Every record and byte count, read through `reader`.
    fn read_all(reader: impl io::BufRead) -> (Vec<super::Record>, u64) {
        let mut recs = records(reader);
        let all = recs.by_ref().map(|r| r.unwrap()).collect();
        (all, recs.bytes_read())
    }

    proptest::proptest! {
        /// The shortcut for plain lines reads as the general reader: a reader handing out one
        /// byte at a time never offers the 82 bytes the shortcut needs.
        #[test]
        fn plain_records_read_as_the_general_reader_reads_them(
            pieces in proptest::collection::vec(0usize..12, 0..40),
        ) {
            let puzzle =
                "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
            let grid = "4.....8.5\n.3.......\n...7.....\n.2.....6.\n....8.4..\n....1....\n...6.3.7.\n5..2.....\n1.4......\n";
            let clash = format!("44{}", &puzzle[2..]);
            let piece = |k: usize| -> String {
                match k {
                    0 => format!("{puzzle}\n"),
                    1 => format!("{puzzle}\r\n"),
                    2 => format!("{puzzle}\r"),
                    3 => format!("{puzzle} trailing\n"),
                    4 => format!("{clash}\n"),
                    5 => "\n".to_string(),
                    6 => "# comment\n".to_string(),
                    7 => "Grid 01\n".to_string(),
                    8 => grid.to_string(),
                    9 => "bad line\n".to_string(),
                    10 => format!("\u{feff}{puzzle}\n"),
                    _ => puzzle.replace('.', "0"),
                }
            };
            let text: String = pieces.into_iter().map(piece).collect();
            let general = read_all(io::BufReader::with_capacity(1, text.as_bytes()));
            proptest::prop_assert_eq!(read_all(text.as_bytes()), general);
        }
    }

    #[test]
    fn an_endless_line_is_read_in_bounded_memory() {
        let endless = io::repeat(b'7').take(20 * MAX_LINE as u64);
        let mut recs = records(BufReader::new(endless.chain(&b"\n"[..])));
        let rec = recs.next().unwrap().unwrap();
        let kind = rec.puzzle.unwrap_err().kind;
        assert_eq!(kind, ParseErrorKind::LineTooLong { limit: MAX_LINE });
        assert!(
            recs.buf.capacity() <= 2 * MAX_LINE,
            "{}",
            recs.buf.capacity()
        );
        assert!(recs.next().is_none());
        assert_eq!(recs.bytes_read(), 20 * MAX_LINE as u64 + 1);
    }
}
