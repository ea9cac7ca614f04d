//! The assumptions count: the least number of cells whose solution digit must be assumed
//! before naked and hidden singles alone finish the puzzle.
//!
//! An assumption that is false never lets singles finish a puzzle with a unique solution
//! (a finished grid would be a second solution), so only true digits are assumed. Singles
//! are monotone — more placed digits never block a deduction — so what a set of
//! assumptions achieves does not depend on their order, and the search enumerates sets,
//! not sequences: iterative deepening over the cells left empty by singles, each new
//! assumption on a later cell than the one before, each level starting from the grid the
//! previous assumptions and singles reached (cells filled on the way drop out).

use crate::grid::{house_cells, peers, Cell, Grid};

/// Candidate masks (bit `d - 1`) and values of a grid while singles run. Not a
/// [`Candidates`](crate::candidates::Candidates): the search clones this state at every
/// assumption it tries, thousands of times a puzzle, and never asks which cells hold a
/// digit, so it keeps the 243 bytes it reads and not the 144 of per-digit cells.
#[derive(Clone)]
pub(crate) struct Singles {
    val: [u8; 81],
    cand: [u16; 81],
}

/// A table of `grid`'s cells as cell indices, the form the singles loop reads.
const fn indices<const N: usize, const M: usize>(table: [[Cell; N]; M]) -> [[u8; N]; M] {
    let mut t = [[0u8; N]; M];
    let mut row = 0;
    while row < M {
        let mut i = 0;
        while i < N {
            t[row][i] = table[row][i].index() as u8;
            i += 1;
        }
        row += 1;
    }
    t
}

/// Each cell's 20 peers.
static PEERS: [[u8; 20]; 81] = indices(peers());

/// Each house's nine cells.
static HOUSES: [[u8; 9]; 27] = indices(house_cells());

impl Singles {
    /// The grid of `values` (0 = empty) with singles applied; `None` on a contradiction.
    pub fn new(values: &[u8; 81]) -> Option<Singles> {
        let mut s = Singles {
            val: [0; 81],
            cand: [0x1ff; 81],
        };
        for (c, &v) in values.iter().enumerate() {
            if v != 0 && !s.set(c, v) {
                return None;
            }
        }
        s.propagate().then_some(s)
    }

    fn set(&mut self, c: usize, v: u8) -> bool {
        let b = 1u16 << (v - 1);
        if self.cand[c] & b == 0 {
            return false;
        }
        self.val[c] = v;
        self.cand[c] = 0;
        for &o in &PEERS[c] {
            self.cand[o as usize] &= !b;
        }
        true
    }

    /// Naked and hidden singles to a fixed point; false on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            let mut progress = false;
            for c in 0..81 {
                if self.val[c] == 0 {
                    let m = self.cand[c];
                    if m == 0 {
                        return false;
                    }
                    if m.count_ones() == 1 {
                        self.set(c, m.trailing_zeros() as u8 + 1);
                        progress = true;
                    }
                }
            }
            for h in &HOUSES {
                let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
                for &c in h {
                    let c = c as usize;
                    if self.val[c] != 0 {
                        placed |= 1 << (self.val[c] - 1);
                    }
                    twice |= once & self.cand[c];
                    once |= self.cand[c];
                }
                if (once | placed) != 0x1ff {
                    return false;
                }
                let mut single = once & !twice & !placed;
                while single != 0 {
                    let b = single & single.wrapping_neg();
                    single &= single - 1;
                    let v = b.trailing_zeros() as u8 + 1;
                    if let Some(&c) = h.iter().find(|&&c| self.cand[c as usize] & b != 0) {
                        if !self.set(c as usize, v) {
                            return false;
                        }
                        progress = true;
                    }
                }
            }
            if !progress {
                return true;
            }
        }
    }

    pub fn solved(&self) -> bool {
        self.val.iter().all(|&v| v != 0)
    }
}

/// Result of the assumptions search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assumptions {
    /// Exactly this many assumptions are needed (0: singles solve the puzzle).
    Exact(u8),
    /// More than the search cap: at least this many.
    AtLeast(u8),
}

impl std::fmt::Display for Assumptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Assumptions::Exact(k) => write!(f, "{k}"),
            Assumptions::AtLeast(k) => write!(f, ">={k}"),
        }
    }
}

/// The least number of true digits to assume before singles finish `puzzle`, searched up
/// to `cap` assumptions. `solution` is the puzzle's unique solution.
pub(crate) fn assumptions(puzzle: &Grid, solution: &Grid, cap: u8) -> Assumptions {
    let (puzzle, solution) = (puzzle.values(), solution.values());
    let Some(start) = Singles::new(puzzle) else {
        return Assumptions::AtLeast(0);
    };
    if start.solved() {
        return Assumptions::Exact(0);
    }
    for k in 1..=cap {
        if search(&start, solution, 0, k) {
            return Assumptions::Exact(k);
        }
    }
    Assumptions::AtLeast(cap + 1)
}

/// Whether `left` more assumptions on cells from `from` on can let singles finish.
fn search(s: &Singles, solution: &[u8; 81], from: usize, left: u8) -> bool {
    for c in from..81 {
        if s.val[c] != 0 {
            continue;
        }
        let mut t = s.clone();
        if !t.set(c, solution[c]) || !t.propagate() {
            continue;
        }
        if t.solved() || (left > 1 && search(&t, solution, c + 1, left - 1)) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Grid, House};

    /// Singles as the definition says, slowly: place every cell with one candidate left and
    /// every digit with one place left in a house, until nothing changes. Whether that
    /// solves the grid.
    fn singles_solve(mut values: [u8; 81]) -> bool {
        fn candidates(values: &[u8; 81], c: Cell) -> Vec<u8> {
            (1..=9u8)
                .filter(|&d| c.peers().iter().all(|p| values[p.index()] != d))
                .collect()
        }
        loop {
            let mut placed = false;
            for c in Cell::all() {
                if values[c.index()] == 0 {
                    if let [d] = candidates(&values, c)[..] {
                        values[c.index()] = d;
                        placed = true;
                    }
                }
            }
            for house in House::all() {
                for d in 1..=9u8 {
                    if house.cells().iter().any(|c| values[c.index()] == d) {
                        continue;
                    }
                    let places: Vec<Cell> = house
                        .cells()
                        .iter()
                        .copied()
                        .filter(|&c| values[c.index()] == 0 && candidates(&values, c).contains(&d))
                        .collect();
                    if let [c] = places[..] {
                        values[c.index()] = d;
                        placed = true;
                    }
                }
            }
            if !placed {
                return values.iter().all(|&v| v != 0);
            }
        }
    }

    /// The least number of assumptions, up to two, by trying every set of that many empty
    /// cells of the puzzle with their solution digits: assumptions are placements, and
    /// singles reach the same grid whatever order they and the placements come in.
    fn least_up_to_two(puzzle: &[u8; 81], solution: &[u8; 81]) -> Option<u8> {
        let empty: Vec<usize> = (0..81).filter(|&c| puzzle[c] == 0).collect();
        let with = |cells: &[usize]| {
            let mut values = *puzzle;
            for &c in cells {
                values[c] = solution[c];
            }
            singles_solve(values)
        };
        if with(&[]) {
            return Some(0);
        }
        if empty.iter().any(|&c| with(&[c])) {
            return Some(1);
        }
        for (i, &a) in empty.iter().enumerate() {
            if empty[i + 1..].iter().any(|&b| with(&[a, b])) {
                return Some(2);
            }
        }
        None
    }

    #[test]
    fn the_count_is_the_least_set_of_true_placements_singles_finish_from() {
        let puzzles = [
            // Singles alone (0), and puzzles of the calibration set and harder.
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
            "...7.....1...........43.2..........6...5.9.........418....81.....2....5..4....3..",
        ];
        let mut seen = [false; 3];
        for text in puzzles {
            let puzzle: Grid = text.parse().expect("test puzzle");
            let solution = crate::solver::solve(&puzzle).expect("unique solution");
            let (p, s) = (puzzle.values(), solution.values());
            let want = least_up_to_two(p, s);
            let got = assumptions(&puzzle, &solution, 2);
            match want {
                Some(k) => {
                    assert_eq!(got, Assumptions::Exact(k), "{text}");
                    seen[k as usize] = true;
                }
                None => assert_eq!(got, Assumptions::AtLeast(3), "{text}"),
            }
        }
        assert!(seen[0], "some puzzle needs no assumption");
    }
}
