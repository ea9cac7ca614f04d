//! A deliberately simple backtracking solver, the independent check for the fast one.
//!
//! It shares no code with the fast engine: it tracks the digits used in each row, column and
//! box as three arrays of 9-bit masks, fills the empty cell with the fewest candidates, and
//! tries its candidates in increasing order. It is slow on the hardest puzzles, fine for the
//! tests and the benchmark's optional verification pass.

use crate::grid::Grid;

/// Counts the solutions of `puzzle`, stopping at `limit` (0 for a grid whose givens clash).
pub fn count(puzzle: &Grid, limit: usize) -> usize {
    let mut found = 0;
    run(puzzle, limit, &mut |_| found += 1);
    found
}

/// The first `limit` solutions of `puzzle`, in the order the search meets them.
pub fn solutions(puzzle: &Grid, limit: usize) -> Vec<Grid> {
    let mut out = Vec::new();
    run(puzzle, limit, &mut |g| out.push(g));
    out
}

/// Digits used per row, column and box (bit `d - 1`).
struct Board {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

fn box_of(i: usize) -> usize {
    i / 27 * 3 + i % 9 / 3
}

fn run(puzzle: &Grid, limit: usize, report: &mut dyn FnMut(Grid)) {
    if limit == 0 {
        return;
    }
    let mut board = Board {
        cells: [0; 81],
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
    };
    for (i, &v) in puzzle.values().iter().enumerate() {
        if v != 0 {
            let bit = 1 << (v - 1);
            if board.used(i) & bit != 0 {
                return;
            }
            board.set(i, v);
        }
    }
    let mut left = limit;
    board.search(&mut left, report);
}

impl Board {
    fn used(&self, i: usize) -> u16 {
        self.rows[i / 9] | self.cols[i % 9] | self.boxes[box_of(i)]
    }

    fn set(&mut self, i: usize, v: u8) {
        let bit = 1 << (v - 1);
        self.cells[i] = v;
        self.rows[i / 9] |= bit;
        self.cols[i % 9] |= bit;
        self.boxes[box_of(i)] |= bit;
    }

    fn clear(&mut self, i: usize) {
        let bit = !(1u16 << (self.cells[i] - 1));
        self.cells[i] = 0;
        self.rows[i / 9] &= bit;
        self.cols[i % 9] &= bit;
        self.boxes[box_of(i)] &= bit;
    }

    /// Depth-first search; `left` solutions may still be reported. Returns `true` to stop.
    fn search(&mut self, left: &mut usize, report: &mut dyn FnMut(Grid)) -> bool {
        let mut best: Option<(usize, u16)> = None;
        for i in 0..81 {
            if self.cells[i] == 0 {
                let free = !self.used(i) & 0x1ff;
                if best.map_or(true, |(_, f)| free.count_ones() < f.count_ones()) {
                    best = Some((i, free));
                }
            }
        }
        let Some((i, free)) = best else {
            if let Some(g) = Grid::from_values(self.cells) {
                report(g);
            }
            *left -= 1;
            return *left == 0;
        };
        for v in 1..=9u8 {
            if free & (1 << (v - 1)) != 0 {
                self.set(i, v);
                let stop = self.search(left, report);
                self.clear(i);
                if stop {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_grid_has_many_solutions_and_clashing_givens_none() {
        assert_eq!(count(&Grid::EMPTY, 3), 3);
        let mut values = [0u8; 81];
        values[0] = 4;
        values[80] = 4;
        values[8] = 4;
        let clash = Grid::from_values(values).unwrap();
        assert_eq!(count(&clash, 2), 0);
        assert!(solutions(&clash, 2).is_empty());
        assert_eq!(count(&Grid::EMPTY, 0), 0);
    }

    #[test]
    fn solutions_are_distinct_and_valid() {
        let sols = solutions(&Grid::EMPTY, 4);
        assert_eq!(sols.len(), 4);
        for (k, s) in sols.iter().enumerate() {
            assert!(s.is_solution_of(&Grid::EMPTY));
            assert!(sols[..k].iter().all(|t| t != s));
        }
    }
}
