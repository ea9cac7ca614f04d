//! The sudoku symmetries: transposition, band / stack / row / column permutations and digit
//! relabelling, as one [`Transform`] value.
//!
//! A transform maps a puzzle to an equivalent one. Because it is a value (not just the
//! transformed grid), the same transform also maps everything attached to the puzzle: its
//! solution ([`Transform::apply`]), the cells, houses and digits of a step list
//! ([`Transform::map_cell`], [`Transform::map_house`], [`Transform::map_digit`]) and a
//! pencil-mark state ([`Transform::apply_candidates`]). Transforms compose
//! ([`Transform::then`]) and invert ([`Transform::inverse`]).
//!
//! Meaning, to the letter: the input is first transposed if [`Transform::transposes`]; then
//! output row `i` is row `rows[i]` of that grid, output column `j` is its column `cols[j]`,
//! and every digit `d` is replaced by `digits[d - 1]` (all indices zero-based, digits 1–9).
//!
//! ```
//! use sudokit::transform::Transform;
//! use sudokit::grid::{Cell, Grid};
//!
//! // Swap the first two rows, swap the last two stacks, relabel 1 <-> 2.
//! let t = Transform::new(
//!     false,
//!     [1, 0, 2, 3, 4, 5, 6, 7, 8],
//!     [0, 1, 2, 6, 7, 8, 3, 4, 5],
//!     [2, 1, 3, 4, 5, 6, 7, 8, 9],
//! )
//! .unwrap();
//! let mut values = [0; 81];
//! values[0] = 1; // r1c1 = 1
//! let g = Grid::from_values(values).unwrap();
//! let h = t.apply(&g);
//! assert_eq!(h.values()[9], 2); // now r2c1 = 2
//! assert_eq!(t.map_cell(Cell::new(0).unwrap()).to_string(), "r2c1");
//! assert_eq!(t.inverse().apply(&h), g);
//! ```

use std::fmt;

use crate::grid::{Cell, Digit, DigitSet, Grid, House};

/// One sudoku symmetry: optional transposition, then a band-preserving row permutation, a
/// stack-preserving column permutation and a digit relabelling.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Transform {
    transpose: bool,
    rows: [u8; 9],
    cols: [u8; 9],
    /// `digits[d]` is the image of digit `d`; `digits[0] == 0` so blanks stay blank.
    digits: [u8; 10],
}

/// Why the parts given to [`Transform::new`] are not a sudoku symmetry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransformError {
    /// The row permutation is not a permutation of 0..9 that keeps each band's rows together.
    Rows,
    /// The column permutation is not a permutation of 0..9 that keeps each stack's columns
    /// together.
    Cols,
    /// The digit map is not a permutation of 1..=9.
    Digits,
}

impl fmt::Display for TransformError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TransformError::Rows => "the rows are not permuted band by band",
            TransformError::Cols => "the columns are not permuted stack by stack",
            TransformError::Digits => "the digit map is not a permutation of 1-9",
        })
    }
}

impl std::error::Error for TransformError {}

/// Whether `p` permutes 0..9 and sends each group of three output lines to one group of
/// three input lines (a band or a stack), which is what makes it a sudoku symmetry.
fn is_line_permutation(p: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    for (i, &v) in p.iter().enumerate() {
        if v >= 9 || seen & (1 << v) != 0 || v / 3 != p[i / 3 * 3] / 3 {
            return false;
        }
        seen |= 1 << v;
    }
    true
}

fn invert9(p: &[u8; 9]) -> [u8; 9] {
    let mut inv = [0u8; 9];
    for (i, &v) in p.iter().enumerate() {
        inv[v as usize] = i as u8;
    }
    inv
}

impl Transform {
    /// The transform that changes nothing.
    pub const IDENTITY: Transform = Transform {
        transpose: false,
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    };

    /// The transform with the given parts: transpose first if asked, then output row `i` is
    /// input row `rows[i]`, output column `j` is input column `cols[j]` (zero-based), and
    /// digit `d` becomes `digits[d - 1]`.
    ///
    /// # Errors
    /// [`TransformError`] unless `rows` and `cols` permute lines within and between bands /
    /// stacks and `digits` is a permutation of 1..=9.
    pub fn new(
        transpose: bool,
        rows: [u8; 9],
        cols: [u8; 9],
        digits: [u8; 9],
    ) -> Result<Transform, TransformError> {
        if !is_line_permutation(&rows) {
            return Err(TransformError::Rows);
        }
        if !is_line_permutation(&cols) {
            return Err(TransformError::Cols);
        }
        let mut map = [0u8; 10];
        let mut seen = 0u16;
        for (i, &d) in digits.iter().enumerate() {
            if !(1..=9).contains(&d) || seen & (1 << d) != 0 {
                return Err(TransformError::Digits);
            }
            seen |= 1 << d;
            map[i + 1] = d;
        }
        Ok(Transform {
            transpose,
            rows,
            cols,
            digits: map,
        })
    }

    /// Builds a transform from parts the caller has already checked (the canonicaliser).
    pub(crate) fn from_checked(
        transpose: bool,
        rows: [u8; 9],
        cols: [u8; 9],
        digits: [u8; 10],
    ) -> Transform {
        debug_assert!(is_line_permutation(&rows) && is_line_permutation(&cols));
        Transform {
            transpose,
            rows,
            cols,
            digits,
        }
    }

    /// Whether the grid is transposed before the lines are permuted.
    pub const fn transposes(&self) -> bool {
        self.transpose
    }

    /// `rows()[i]` is the (transposed, if so) input row that becomes output row `i`.
    pub const fn rows(&self) -> [u8; 9] {
        self.rows
    }

    /// `cols()[j]` is the (transposed, if so) input column that becomes output column `j`.
    pub const fn cols(&self) -> [u8; 9] {
        self.cols
    }

    /// `digit_map()[d - 1]` is what digit `d` becomes.
    pub fn digit_map(&self) -> [u8; 9] {
        let mut out = [0u8; 9];
        out.copy_from_slice(&self.digits[1..]);
        out
    }

    /// The transformed grid.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let v = grid.values();
        let mut out = [0u8; 81];
        for (i, &r) in self.rows.iter().enumerate() {
            for (j, &c) in self.cols.iter().enumerate() {
                let (r, c) = (r as usize, c as usize);
                let src = if self.transpose { c * 9 + r } else { r * 9 + c };
                out[i * 9 + j] = self.digits[v[src] as usize];
            }
        }
        Grid::from_values(out).unwrap_or(*grid)
    }

    /// Where the content of input cell `cell` ends up.
    pub fn map_cell(&self, cell: Cell) -> Cell {
        let (r, c) = if self.transpose {
            (cell.col(), cell.row())
        } else {
            (cell.row(), cell.col())
        };
        let i = self.rows.iter().position(|&x| x as usize == r).unwrap_or(0);
        let j = self.cols.iter().position(|&x| x as usize == c).unwrap_or(0);
        Cell::from_row_col(i, j).unwrap_or(cell)
    }

    /// What digit `d` becomes.
    pub fn map_digit(&self, d: Digit) -> Digit {
        Digit::new(self.digits[d.get() as usize]).unwrap_or(d)
    }

    /// The house the cells of input house `house` end up in (a row may become a column).
    pub fn map_house(&self, house: House) -> House {
        let first = self.map_cell(house.cells()[0]);
        let second = self.map_cell(house.cells()[8]);
        match house {
            House::Box(_) => House::Box(first.box_index() as u8),
            _ if first.row() == second.row() => House::Row(first.row() as u8),
            _ => House::Column(first.col() as u8),
        }
    }

    /// The transformed pencil-mark state: cell `c`'s candidates move to `map_cell(c)`, each
    /// digit relabelled.
    pub fn apply_candidates(&self, candidates: &[DigitSet; 81]) -> [DigitSet; 81] {
        let mut out = [DigitSet::EMPTY; 81];
        for cell in Cell::all() {
            let set = candidates[cell.index()];
            out[self.map_cell(cell).index()] = set.iter().map(|d| self.map_digit(d)).collect();
        }
        out
    }

    /// The transform that applies `self` first and then `next`.
    pub fn then(&self, next: &Transform) -> Transform {
        let mut digits = [0u8; 10];
        for (d, out) in digits.iter_mut().enumerate() {
            *out = next.digits[self.digits[d] as usize];
        }
        let (transpose, first, second) = if next.transpose {
            (!self.transpose, &self.cols, &self.rows)
        } else {
            (self.transpose, &self.rows, &self.cols)
        };
        Transform {
            transpose,
            rows: next.rows.map(|i| first[i as usize]),
            cols: next.cols.map(|j| second[j as usize]),
            digits,
        }
    }

    /// The transform that undoes `self`.
    pub fn inverse(&self) -> Transform {
        let mut digits = [0u8; 10];
        for (d, &image) in self.digits.iter().enumerate() {
            digits[image as usize] = d as u8;
        }
        let (rows, cols) = if self.transpose {
            (invert9(&self.cols), invert9(&self.rows))
        } else {
            (invert9(&self.rows), invert9(&self.cols))
        };
        Transform {
            transpose: self.transpose,
            rows,
            cols,
            digits,
        }
    }
}

impl Default for Transform {
    fn default() -> Self {
        Transform::IDENTITY
    }
}

impl fmt::Display for Transform {
    /// One-based and compact: `transpose=no rows=213456789 cols=123456789 digits=213456789`,
    /// where `digits` lists the images of 1, 2, …, 9.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let yes = if self.transpose { "yes" } else { "no" };
        write!(f, "transpose={yes} rows=")?;
        self.rows.iter().try_for_each(|r| write!(f, "{}", r + 1))?;
        f.write_str(" cols=")?;
        self.cols.iter().try_for_each(|c| write!(f, "{}", c + 1))?;
        f.write_str(" digits=")?;
        self.digits[1..].iter().try_for_each(|d| write!(f, "{d}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Grid {
        let mut v = [0u8; 81];
        for (i, x) in v.iter_mut().enumerate() {
            *x = ((i * 7 + i / 9) % 10) as u8;
        }
        Grid::from_values(v).unwrap()
    }

    fn t1() -> Transform {
        Transform::new(
            true,
            [4, 3, 5, 0, 2, 1, 8, 6, 7],
            [6, 8, 7, 1, 0, 2, 3, 5, 4],
            [3, 1, 2, 9, 8, 7, 4, 6, 5],
        )
        .unwrap()
    }

    fn t2() -> Transform {
        Transform::new(
            false,
            [2, 1, 0, 6, 7, 8, 3, 5, 4],
            [0, 2, 1, 3, 5, 4, 8, 6, 7],
            [9, 8, 7, 6, 5, 4, 3, 2, 1],
        )
        .unwrap()
    }

    #[test]
    fn rejects_parts_that_are_not_symmetries() {
        let id = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        let across = [0, 1, 3, 2, 4, 5, 6, 7, 8];
        assert_eq!(
            Transform::new(false, across, id, digits),
            Err(TransformError::Rows)
        );
        assert_eq!(
            Transform::new(false, id, across, digits),
            Err(TransformError::Cols)
        );
        let repeat = [1, 1, 3, 4, 5, 6, 7, 8, 9];
        assert_eq!(
            Transform::new(false, id, id, repeat),
            Err(TransformError::Digits)
        );
        assert!(Transform::new(false, id, [9, 1, 2, 3, 4, 5, 6, 7, 8], digits).is_err());
    }

    #[test]
    fn composition_and_inverse_agree_with_application() {
        let g = sample();
        for a in [t1(), t2(), Transform::IDENTITY] {
            assert_eq!(a.inverse().apply(&a.apply(&g)), g);
            assert_eq!(a.then(&a.inverse()), Transform::IDENTITY);
            for b in [t1(), t2()] {
                assert_eq!(a.then(&b).apply(&g), b.apply(&a.apply(&g)));
            }
        }
    }

    #[test]
    fn cells_houses_and_candidates_follow_the_grid() {
        let g = sample();
        let t = t1();
        let h = t.apply(&g);
        for cell in Cell::all() {
            let moved = t.map_cell(cell);
            let d = g.get(cell).map(|d| t.map_digit(d));
            assert_eq!(h.get(moved), d);
        }
        for house in House::all() {
            let image = t.map_house(house);
            assert!(house
                .cells()
                .iter()
                .all(|&c| image.cells().contains(&t.map_cell(c))));
        }
        let mut cands = [DigitSet::EMPTY; 81];
        cands[5] = DigitSet::from_bits(0b101);
        let out = t.apply_candidates(&cands);
        let target = t.map_cell(Cell::new(5).unwrap()).index();
        assert_eq!(out[target].to_string(), "23");
        assert_eq!(
            t.to_string(),
            "transpose=yes rows=546132978 cols=798213465 digits=312987465"
        );
    }
}
