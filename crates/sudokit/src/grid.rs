//! The board: digits, cells, houses, bitsets of digits and of cells, and the [`Grid`] itself.
//!
//! Everything here is small and `Copy`. Cells are numbered 0..81 row by row and shown the way
//! the sudoku community writes them, `r1c1` … `r9c9` (1-based). Houses are the 27 rows,
//! columns and boxes; boxes are numbered left to right, top to bottom. The static tables
//! ([`Cell::peers`], [`House::cells`], [`Cell::houses`]) are computed at compile time, so
//! every feature of the crate shares one definition of the sudoku geometry.
//!
//! ```
//! use sudokit::grid::{Cell, Digit, DigitSet, House};
//!
//! let cell = Cell::from_row_col(4, 6).unwrap();
//! assert_eq!(cell.to_string(), "r5c7");
//! assert_eq!(cell.houses(), [House::Row(4), House::Column(6), House::Box(5)]);
//! assert_eq!(House::Box(5).to_string(), "box 6");
//!
//! let set: DigitSet = [1, 5, 9].into_iter().filter_map(Digit::new).collect();
//! assert_eq!(set.to_string(), "159");
//! ```

use std::fmt;

/// A digit 1–9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digit(u8);

impl Digit {
    /// The digit `d`, or `None` unless `1 <= d <= 9`.
    pub const fn new(d: u8) -> Option<Digit> {
        if d >= 1 && d <= 9 {
            Some(Digit(d))
        } else {
            None
        }
    }

    /// The digit whose zero-based index is `i` (0 → 1, …, 8 → 9).
    ///
    /// # Panics
    /// If `i >= 9`: indices come from the crate's own loops, never from user data.
    pub const fn from_index(i: usize) -> Digit {
        assert!(i < 9, "digit index out of range");
        Digit(i as u8 + 1)
    }

    /// The digit's value, 1–9.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The digit's zero-based index, 0–8, for indexing tables and bitsets.
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// The nine digits in order.
    pub fn all() -> impl Iterator<Item = Digit> {
        (1..=9).map(Digit)
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One of the 81 cells, numbered 0..81 row by row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The cell with index `i` (row-major), or `None` unless `i < 81`.
    pub const fn new(i: usize) -> Option<Cell> {
        if i < 81 {
            Some(Cell(i as u8))
        } else {
            None
        }
    }

    /// The cell at zero-based `row` and `col`, or `None` if either is out of range.
    pub const fn from_row_col(row: usize, col: usize) -> Option<Cell> {
        if row < 9 && col < 9 {
            Some(Cell((row * 9 + col) as u8))
        } else {
            None
        }
    }

    /// The cell's row-major index, 0..81.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Zero-based row, 0–8.
    pub const fn row(self) -> usize {
        self.0 as usize / 9
    }

    /// Zero-based column, 0–8.
    pub const fn col(self) -> usize {
        self.0 as usize % 9
    }

    /// Zero-based box, 0–8, numbered left to right, top to bottom.
    pub const fn box_index(self) -> usize {
        self.row() / 3 * 3 + self.col() / 3
    }

    /// The row, column and box the cell lies in, in that order.
    pub const fn houses(self) -> [House; 3] {
        [
            House::Row(self.row() as u8),
            House::Column(self.col() as u8),
            House::Box(self.box_index() as u8),
        ]
    }

    /// The 20 other cells that share a house with this one, in increasing order.
    pub fn peers(self) -> &'static [Cell; 20] {
        &PEERS[self.index()]
    }

    /// Whether the two cells are distinct and share a house.
    pub fn sees(self, other: Cell) -> bool {
        self != other
            && (self.row() == other.row()
                || self.col() == other.col()
                || self.box_index() == other.box_index())
    }

    /// All 81 cells in order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..81).map(Cell)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// A house: one of the 27 rows, columns and boxes, each holding every digit once.
///
/// The payload is zero-based (0–8); [`Display`](fmt::Display) shows it 1-based, as `row 3`,
/// `column 7`, `box 5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum House {
    /// A row, 0–8 from the top.
    Row(u8),
    /// A column, 0–8 from the left.
    Column(u8),
    /// A box, 0–8 left to right, top to bottom.
    Box(u8),
}

impl House {
    /// The house with index `i`: rows are 0–8, columns 9–17, boxes 18–26.
    pub const fn from_index(i: usize) -> Option<House> {
        match i {
            0..=8 => Some(House::Row(i as u8)),
            9..=17 => Some(House::Column(i as u8 - 9)),
            18..=26 => Some(House::Box(i as u8 - 18)),
            _ => None,
        }
    }

    /// The house's index: rows 0–8, columns 9–17, boxes 18–26.
    pub const fn index(self) -> usize {
        match self {
            House::Row(r) => r as usize,
            House::Column(c) => 9 + c as usize,
            House::Box(b) => 18 + b as usize,
        }
    }

    /// The nine cells of the house, in row-major order.
    pub fn cells(self) -> &'static [Cell; 9] {
        &HOUSE_CELLS[self.index()]
    }

    /// All 27 houses: the rows, then the columns, then the boxes.
    pub fn all() -> impl Iterator<Item = House> {
        (0..27).filter_map(House::from_index)
    }
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            House::Row(r) => write!(f, "row {}", r + 1),
            House::Column(c) => write!(f, "column {}", c + 1),
            House::Box(b) => write!(f, "box {}", b + 1),
        }
    }
}

/// The cells of each house, by [`House::index`]; also the rating's tables, which number the
/// same houses in another order.
pub(crate) const fn house_cells() -> [[Cell; 9]; 27] {
    let mut table = [[Cell(0); 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            table[i][j] = Cell((i * 9 + j) as u8);
            table[9 + i][j] = Cell((j * 9 + i) as u8);
            let row = i / 3 * 3 + j / 3;
            let col = i % 3 * 3 + j % 3;
            table[18 + i][j] = Cell((row * 9 + col) as u8);
            j += 1;
        }
        i += 1;
    }
    table
}

/// The 20 peers of each cell, in row-major order.
pub(crate) const fn peers() -> [[Cell; 20]; 81] {
    let mut table = [[Cell(0); 20]; 81];
    let mut i = 0;
    while i < 81 {
        let (a, mut n, mut j) = (Cell(i as u8), 0, 0);
        while j < 81 {
            let b = Cell(j as u8);
            if i != j
                && (a.row() == b.row() || a.col() == b.col() || a.box_index() == b.box_index())
            {
                table[i][n] = b;
                n += 1;
            }
            j += 1;
        }
        i += 1;
    }
    table
}

/// The six orders of three things (rows in a band, bands in the grid, columns in a stack),
/// in lexicographic order: the building block of the sudoku symmetries.
pub(crate) const PERMUTATIONS_OF_3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

static HOUSE_CELLS: [[Cell; 9]; 27] = house_cells();
static PEERS: [[Cell; 20]; 81] = peers();

/// A set of digits as a 9-bit mask (bit `d - 1` for digit `d`): a cell's candidates, a house's
/// missing digits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DigitSet(u16);

impl DigitSet {
    /// No digits.
    pub const EMPTY: DigitSet = DigitSet(0);
    /// All nine digits.
    pub const ALL: DigitSet = DigitSet(0x1ff);

    /// The set with the given mask; bits above the ninth are dropped.
    pub const fn from_bits(bits: u16) -> DigitSet {
        DigitSet(bits & 0x1ff)
    }

    /// The set holding just `d`.
    pub const fn single(d: Digit) -> DigitSet {
        DigitSet(1 << d.index())
    }

    /// The mask, bit `d - 1` for digit `d`.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Whether `d` is in the set.
    pub const fn contains(self, d: Digit) -> bool {
        self.0 & (1 << d.index()) != 0
    }

    /// Adds `d`.
    pub fn insert(&mut self, d: Digit) {
        self.0 |= 1 << d.index();
    }

    /// Removes `d`.
    pub fn remove(&mut self, d: Digit) {
        self.0 &= !(1 << d.index());
    }

    /// The number of digits in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The only digit of a one-digit set; `None` for any other size.
    pub fn only(self) -> Option<Digit> {
        if self.0.is_power_of_two() {
            Some(Digit(self.0.trailing_zeros() as u8 + 1))
        } else {
            None
        }
    }

    /// The smallest digit in the set.
    pub fn first(self) -> Option<Digit> {
        if self.0 == 0 {
            None
        } else {
            Some(Digit(self.0.trailing_zeros() as u8 + 1))
        }
    }

    /// The digits in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Digit> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let d = Digit(bits.trailing_zeros() as u8 + 1);
            bits &= bits - 1;
            Some(d)
        })
    }
}

impl FromIterator<Digit> for DigitSet {
    fn from_iter<I: IntoIterator<Item = Digit>>(iter: I) -> Self {
        let mut set = DigitSet::EMPTY;
        for d in iter {
            set.insert(d);
        }
        set
    }
}

impl fmt::Display for DigitSet {
    /// The digits run together, as in pencil marks: `159`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.iter().try_for_each(|d| write!(f, "{d}"))
    }
}

macro_rules! set_ops {
    ($t:ident, $mask:expr) => {
        impl std::ops::BitAnd for $t {
            type Output = $t;
            fn bitand(self, rhs: $t) -> $t {
                $t(self.0 & rhs.0)
            }
        }
        impl std::ops::BitOr for $t {
            type Output = $t;
            fn bitor(self, rhs: $t) -> $t {
                $t(self.0 | rhs.0)
            }
        }
        impl std::ops::BitXor for $t {
            type Output = $t;
            fn bitxor(self, rhs: $t) -> $t {
                $t(self.0 ^ rhs.0)
            }
        }
        impl std::ops::Sub for $t {
            type Output = $t;
            /// Set difference.
            fn sub(self, rhs: $t) -> $t {
                $t(self.0 & !rhs.0)
            }
        }
        impl std::ops::Not for $t {
            type Output = $t;
            /// Complement within the universe (nine digits, 81 cells).
            fn not(self) -> $t {
                $t(!self.0 & $mask)
            }
        }
        impl std::ops::BitAndAssign for $t {
            fn bitand_assign(&mut self, rhs: $t) {
                self.0 &= rhs.0;
            }
        }
        impl std::ops::BitOrAssign for $t {
            fn bitor_assign(&mut self, rhs: $t) {
                self.0 |= rhs.0;
            }
        }
        impl std::ops::SubAssign for $t {
            fn sub_assign(&mut self, rhs: $t) {
                self.0 &= !rhs.0;
            }
        }
    };
}

set_ops!(DigitSet, 0x1ff);
set_ops!(CellSet, (1u128 << 81) - 1);

/// A set of cells as an 81-bit mask (bit `i` for cell `i`): the cells of a pattern, the
/// peers a chain's ends both see.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet(u128);

impl CellSet {
    /// No cells.
    pub const EMPTY: CellSet = CellSet(0);
    /// All 81 cells.
    pub const ALL: CellSet = CellSet((1u128 << 81) - 1);

    /// The set with the given mask; bits above the 81st are dropped.
    pub const fn from_bits(bits: u128) -> CellSet {
        CellSet(bits & ((1u128 << 81) - 1))
    }

    /// The mask, bit `i` for cell `i`.
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set holding just `c`.
    pub const fn single(c: Cell) -> CellSet {
        CellSet(1 << c.0)
    }

    /// The nine cells of a house.
    pub fn house(h: House) -> CellSet {
        CellSet(HOUSE_MASKS[h.index()])
    }

    /// The 20 peers of a cell.
    pub fn peers(c: Cell) -> CellSet {
        CellSet(PEER_MASKS[c.index()])
    }

    /// Whether `c` is in the set.
    pub const fn contains(self, c: Cell) -> bool {
        self.0 & (1 << c.0) != 0
    }

    /// Adds `c`.
    pub fn insert(&mut self, c: Cell) {
        self.0 |= 1 << c.0;
    }

    /// Removes `c`.
    pub fn remove(&mut self, c: Cell) {
        self.0 &= !(1 << c.0);
    }

    /// The number of cells in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest-numbered cell.
    pub fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell(self.0.trailing_zeros() as u8))
        }
    }

    /// The cells in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Cell> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let c = Cell(bits.trailing_zeros() as u8);
            bits &= bits - 1;
            Some(c)
        })
    }

    /// The cells every member of the set sees (excluding the members themselves).
    pub fn common_peers(self) -> CellSet {
        let mut acc = CellSet::ALL;
        for c in self.iter() {
            acc &= CellSet::peers(c);
        }
        acc - self
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut set = CellSet::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

pub(crate) const fn house_masks() -> [u128; 27] {
    let cells = house_cells();
    let mut masks = [0u128; 27];
    let mut h = 0;
    while h < 27 {
        let mut j = 0;
        while j < 9 {
            masks[h] |= 1 << cells[h][j].0;
            j += 1;
        }
        h += 1;
    }
    masks
}

pub(crate) const fn peer_masks() -> [u128; 81] {
    let table = peers();
    let mut masks = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        let mut j = 0;
        while j < 20 {
            masks[i] |= 1 << table[i][j].0;
            j += 1;
        }
        i += 1;
    }
    masks
}

static HOUSE_MASKS: [u128; 27] = house_masks();
static PEER_MASKS: [u128; 81] = peer_masks();

/// A sudoku grid: 81 cells, each empty or holding a digit.
///
/// A `Grid` is a puzzle (its givens), a partly filled board, or a solution; it enforces no
/// rule by itself. [`Grid::conflict`] finds two equal digits in a house and
/// [`Grid::is_solution_of`] checks a solution against its puzzle. Text in and out lives in
/// [`parse`](crate::parse) and [`format`](crate::format); [`Display`](fmt::Display) writes
/// the 81-character line with `.` for empty cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid(pub(crate) [u8; 81]);

/// Two equal digits in one house: why a set of givens cannot be a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The repeated digit.
    pub digit: Digit,
    /// The house in which it repeats.
    pub house: House,
    /// The first cell holding it (in row-major order).
    pub first: Cell,
    /// The second cell holding it.
    pub second: Cell,
}

impl Grid {
    /// The grid with every cell empty.
    pub const EMPTY: Grid = Grid([0; 81]);

    /// The grid from 81 values, 0 for an empty cell and 1–9 for a digit; `None` if any
    /// value is above 9.
    pub fn from_values(values: [u8; 81]) -> Option<Grid> {
        // A fold without early exit, which vectorises.
        let valid = values.iter().fold(true, |valid, &v| valid & (v <= 9));
        valid.then_some(Grid(values))
    }

    /// The 81 values, 0 for an empty cell.
    pub const fn values(&self) -> &[u8; 81] {
        &self.0
    }

    /// The digit in `cell`, if any.
    pub fn get(&self, cell: Cell) -> Option<Digit> {
        Digit::new(self.0[cell.index()])
    }

    /// Puts `digit` into `cell`, or empties it with `None`.
    pub fn set(&mut self, cell: Cell, digit: Option<Digit>) {
        self.0[cell.index()] = digit.map_or(0, Digit::get);
    }

    /// The number of filled cells.
    pub fn filled(&self) -> usize {
        self.0.iter().filter(|&&v| v != 0).count()
    }

    /// The 81-character line as ASCII bytes, `.` for an empty cell: what [`Display`](fmt::Display)
    /// writes, for writers of bytes that need no formatter.
    pub fn line(&self) -> [u8; 81] {
        // A select, not a conditional store, so that the loop vectorises.
        let mut line = [0; 81];
        for (out, &v) in line.iter_mut().zip(&self.0) {
            *out = if v == 0 { b'.' } else { b'0' + v };
        }
        line
    }

    /// Whether every cell holds a digit.
    pub fn is_full(&self) -> bool {
        self.0.iter().all(|&v| v != 0)
    }

    /// The first pair of equal digits sharing a house, looking at houses in order (rows,
    /// columns, boxes) and at cells in row-major order within a house.
    pub fn conflict(&self) -> Option<Conflict> {
        if !self.repeats() {
            return None;
        }
        for house in House::all() {
            let mut seen: [Option<Cell>; 9] = [None; 9];
            for &cell in house.cells() {
                if let Some(digit) = self.get(cell) {
                    match seen[digit.index()] {
                        Some(first) => {
                            return Some(Conflict {
                                digit,
                                house,
                                first,
                                second: cell,
                            })
                        }
                        None => seen[digit.index()] = Some(cell),
                    }
                }
            }
        }
        None
    }

    /// Whether a digit repeats in some house. A house's digits, as a set, are as many as its
    /// filled cells exactly when none repeats, so one pass builds the 27 sets and one sum of
    /// their sizes settles every house: several times cheaper than finding the first repeat,
    /// which every puzzle read and every solution checked would otherwise pay for.
    fn repeats(&self) -> bool {
        let (mut rows, mut columns, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        let mut filled = 0;
        for (r, line) in self.0.chunks_exact(9).enumerate() {
            for (c, &v) in line.iter().enumerate() {
                // Bit `v - 1`, or none for an empty cell (values are at most 9).
                let bit = (1u16 << v) >> 1;
                rows[r] |= bit;
                columns[c] |= bit;
                boxes[r / 3 * 3 + c / 3] |= bit;
                filled += u32::from(v != 0);
            }
        }
        let sizes: u32 = [rows, columns, boxes]
            .iter()
            .flatten()
            .map(|set| set.count_ones())
            .sum();
        sizes != 3 * filled
    }

    /// Whether `self` is a full, conflict-free grid that keeps every given of `puzzle`:
    /// the independent check applied to every solution the crate reports.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.is_full()
            && self.conflict().is_none()
            && puzzle
                .0
                .iter()
                .zip(&self.0)
                .all(|(&p, &s)| p == 0 || p == s)
    }
}

impl Default for Grid {
    fn default() -> Self {
        Grid::EMPTY
    }
}

impl fmt::Display for Grid {
    /// The 81-character line, `.` for an empty cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.line()).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_has_twenty_distinct_peers_that_see_it() {
        for cell in Cell::all() {
            let peers = cell.peers();
            assert!(peers.windows(2).all(|w| w[0] < w[1]));
            assert!(peers.iter().all(|&p| p.sees(cell) && cell.sees(p)));
            assert_eq!(CellSet::peers(cell).len(), 20);
            assert!(!CellSet::peers(cell).contains(cell));
        }
    }

    #[test]
    fn houses_partition_the_grid_three_ways() {
        for kind in 0..3 {
            let mut union = CellSet::EMPTY;
            for h in kind * 9..kind * 9 + 9 {
                let house = House::from_index(h).unwrap();
                let set = CellSet::house(house);
                assert_eq!(set.len(), 9);
                assert!((union & set).is_empty());
                union |= set;
                assert!(house.cells().iter().all(|c| c.houses().contains(&house)));
            }
            assert_eq!(union, CellSet::ALL);
        }
    }

    #[test]
    fn names_follow_the_community_conventions() {
        assert_eq!(Cell::new(0).unwrap().to_string(), "r1c1");
        assert_eq!(Cell::new(80).unwrap().to_string(), "r9c9");
        assert_eq!(House::Row(2).to_string(), "row 3");
        assert_eq!(House::Column(6).to_string(), "column 7");
        assert_eq!(House::Box(4).to_string(), "box 5");
        assert_eq!(Cell::from_row_col(3, 5).unwrap().box_index(), 4);
    }

    #[test]
    fn digit_set_algebra() {
        let a: DigitSet = [1, 2, 3].into_iter().filter_map(Digit::new).collect();
        let b: DigitSet = [3, 4].into_iter().filter_map(Digit::new).collect();
        assert_eq!((a & b).only(), Digit::new(3));
        assert_eq!((a | b).len(), 4);
        assert_eq!((a - b).to_string(), "12");
        assert_eq!((!a).len(), 6);
        assert_eq!(a.only(), None);
        assert_eq!(DigitSet::EMPTY.first(), None);
    }

    proptest::proptest! {
        /// The quick test for repeats against every pair of cells that see each other, on
        /// grids from empty to full, with and without repeats.
        #[test]
        fn repeats_are_found_exactly(values in proptest::collection::vec(0u8..=9, 81), blank in 0u32..100) {
            let mut grid = Grid::EMPTY;
            for (i, &v) in values.iter().enumerate() {
                // Blank out about `blank`% of the cells, by a hash of the cell.
                let keep = (i as u32).wrapping_mul(2_654_435_761) % 100 >= blank;
                grid.0[i] = if keep { v } else { 0 };
            }
            let cells = || (0..81).map(|i| Cell::new(i).unwrap());
            let repeated = cells().any(|a| {
                cells().any(|b| a != b && a.sees(b) && grid.get(a).is_some() && grid.get(a) == grid.get(b))
            });
            proptest::prop_assert_eq!(grid.repeats(), repeated);
            match grid.conflict() {
                Some(c) => {
                    proptest::prop_assert!(repeated);
                    proptest::prop_assert_eq!(grid.get(c.first), Some(c.digit));
                    proptest::prop_assert_eq!(grid.get(c.second), Some(c.digit));
                    proptest::prop_assert!(c.first.sees(c.second));
                }
                None => proptest::prop_assert!(!repeated),
            }
        }
    }

    #[test]
    fn conflicts_name_house_and_both_cells() {
        let mut g = Grid::EMPTY;
        g.set(Cell::new(0).unwrap(), Digit::new(5));
        g.set(Cell::new(20).unwrap(), Digit::new(5));
        let c = g.conflict().unwrap();
        assert_eq!(c.house, House::Box(0));
        assert_eq!((c.first.index(), c.second.index()), (0, 20));
        assert!(!g.is_solution_of(&Grid::EMPTY));
    }
}
