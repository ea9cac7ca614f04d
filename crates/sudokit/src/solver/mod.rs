//! The exact solver: finds, counts and enumerates the solutions of any grid, fast.
//!
//! The engine keeps, for each digit and each band of three rows, a 27-bit word of the cells
//! where the digit may still go, and propagates with table lookups: hidden singles and
//! box–line interactions in rows, columns and boxes, naked singles by bitwise counting. When
//! propagation stalls it branches on a cell with the fewest candidates (almost always two):
//! one branch places the cell's smallest candidate, the other removes it. The search is
//! depth-first over a fixed-size stack of states, so it never allocates.
//!
//! ```
//! use sudokit::{solver, Grid};
//!
//! let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let mut values = [0u8; 81];
//! for (v, ch) in values.iter_mut().zip(line.bytes()) {
//!     *v = if ch == b'.' { 0 } else { ch - b'0' };
//! }
//! let puzzle = Grid::from_values(values).unwrap();
//! let outcome = solver::count(&puzzle, 2);
//! assert_eq!(outcome.count, 1);
//! assert!(outcome.solution.unwrap().is_solution_of(&puzzle));
//! assert_eq!(solver::solve(&puzzle), outcome.solution);
//! ```
//!
//! [`reference`] holds a deliberately simple backtracking solver that the tests and the
//! benchmark use as an independent check.

mod bands;
pub mod reference;

use std::mem::MaybeUninit;
use std::ops::AddAssign;

use crate::grid::Grid;
use bands::State;

/// Search statistics for one puzzle (or, added up, for many).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Branch points: how many times propagation stalled on an unsolved, not yet
    /// contradictory state and the search split it in two (place a candidate / remove it).
    /// Zero for a puzzle that propagation alone solves.
    pub guesses: u64,
    /// Digits placed by propagation (naked and hidden singles), over all branches explored;
    /// givens and the digits placed by a branch are not counted.
    pub propagations: u64,
}

impl AddAssign for Stats {
    fn add_assign(&mut self, rhs: Stats) {
        self.guesses += rhs.guesses;
        self.propagations += rhs.propagations;
    }
}

/// The result of [`count`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found, at most the `limit` given to [`count`].
    pub count: usize,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// What the search cost.
    pub stats: Stats,
}

/// The first solution of `puzzle`, or `None` when it has none (including when two givens
/// clash). Which solution comes first is deterministic but otherwise unspecified.
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    Search::new(puzzle).next_solution()
}

/// Counts the solutions of `puzzle`, stopping as soon as `limit` are found, so
/// `count <= limit`; `count(p, 2)` tells none / unique / several. With `limit == 0` nothing
/// is searched and the outcome is empty (count 0, no solution, zero stats).
pub fn count(puzzle: &Grid, limit: usize) -> Outcome {
    let mut outcome = Outcome {
        count: 0,
        solution: None,
        stats: Stats::default(),
    };
    if limit == 0 {
        return outcome;
    }
    let mut search = Search::new(puzzle);
    while let Some(grid) = search.next_solution() {
        outcome.solution.get_or_insert(grid);
        outcome.count += 1;
        if outcome.count == limit {
            break;
        }
    }
    outcome.stats = search.stats;
    outcome
}

/// Every solution of `puzzle`, found lazily one at a time, each exactly once.
///
/// The empty grid has about 6.7 × 10²¹ solutions: take what you need.
pub fn solutions(puzzle: &Grid) -> Solutions {
    Solutions(Box::new(Search::new(puzzle)))
}

/// The iterator returned by [`solutions`].
pub struct Solutions(Box<Search>);

impl Solutions {
    /// What the search has cost so far.
    pub fn stats(&self) -> Stats {
        self.0.stats
    }
}

impl Iterator for Solutions {
    type Item = Grid;

    fn next(&mut self) -> Option<Grid> {
        self.0.next_solution()
    }
}

impl std::fmt::Debug for Solutions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solutions")
            .field("stats", &self.0.stats)
            .finish_non_exhaustive()
    }
}

/// Deepest possible stack: every level below the top placed one more cell.
const DEPTH: usize = 82;

/// A depth-first search over a fixed stack of pending states.
struct Search {
    /// Invariant: `stack[..len]` is initialised; those are the states still to explore, the
    /// top one next. Left uninitialised above `len` so that starting a search costs nothing
    /// for the many puzzles propagation solves without branching.
    stack: [MaybeUninit<State>; DEPTH],
    len: usize,
    stats: Stats,
}

impl Search {
    fn new(puzzle: &Grid) -> Search {
        let mut search = Search {
            stack: [const { MaybeUninit::uninit() }; DEPTH],
            len: 0,
            stats: Stats::default(),
        };
        if let Some(start) = State::new(puzzle) {
            search.stack[0].write(start);
            search.len = 1;
        }
        search
    }

    /// The next solution in depth-first order, or `None` when the tree is exhausted.
    fn next_solution(&mut self) -> Option<Grid> {
        while self.len > 0 {
            let top = self.len - 1;
            // SAFETY: `top < len`, and `stack[..len]` is initialised (struct invariant).
            let state = unsafe { self.stack[top].assume_init_mut() };
            if !state.propagate(&mut self.stats) {
                self.len -= 1;
                continue;
            }
            if state.is_solved() {
                self.len -= 1;
                return Some(state.grid());
            }
            self.stats.guesses += 1;
            let choice = state.branch();
            if let Some(child) = state.split(choice) {
                // Each state below the top has had one more cell placed than the one under
                // it, so at most 81 levels plus the root exist: `top + 1 < DEPTH`.
                self.stack[top + 1].write(child);
                self.len += 1;
            }
        }
        None
    }
}
