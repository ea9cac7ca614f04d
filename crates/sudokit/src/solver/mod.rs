//! The exact solver: finds, counts and enumerates the solutions of any grid, fast.
//!
//! The engine keeps, for each digit and each band of three rows, a 27-bit word of the cells
//! where the digit may still go, and propagates with table lookups: hidden singles and
//! box–line interactions in rows and boxes, pointing along columns, naked singles by bitwise
//! counting, and, while the grid is still open (45 or more empty cells; always once the
//! search has shown the puzzle hard), hidden singles of columns and the remaining
//! box–column interactions. When propagation stalls it branches on a cell with two
//! candidates when the search is young and there is one, else on the configuration of a
//! digit in a band or stack (which of its six permutations of minirows it takes), choosing
//! the band or stack with the fewest configurations left, as tdoku does; that takes about
//! a third fewer guesses on the hardest puzzles. The search is depth-first over a
//! fixed-size stack of states, so it never allocates.
//!
//! On x86-64 processors with BMI1/BMI2/POPCNT/AVX2, detected at run time, the search runs
//! in a copy compiled for those extensions, which also gathers minirows and stack matrices
//! with PEXT/PDEP; elsewhere a portable copy gives the same results (the tests check both).
//!
//! Grids whose givens clash (two equal digits in a house) simply have no solution.
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
//! [`reference`](mod@reference) holds a deliberately simple backtracking solver that the tests and the
//! benchmark use as an independent check.

mod bands;
pub mod reference;

use std::mem::MaybeUninit;
use std::ops::AddAssign;

use crate::grid::{Cell, Digit, Grid};
use bands::State;

/// Search statistics for one puzzle (or, added up, for many).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Branch points: how many times propagation stalled on an unsolved, not yet
    /// contradictory state and the search split it in two (place a candidate / remove it).
    /// Zero for a puzzle that propagation alone solves.
    pub guesses: u64,
    /// Propagation steps, over all branches explored: how many times the band logic ran
    /// on one digit's candidates in one band (three rows) after they had changed. Each run
    /// applies the row/box interactions of that digit in that band and places its hidden
    /// singles, so this measures propagation work rather than digits placed.
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
    count_excluding(puzzle, &[], limit)
}

/// Counts, up to `limit`, the solutions of `puzzle` in which no cell of `excluded` holds the
/// digit paired with it.
///
/// This is how a generator learns cheaply whether a clue can go: the puzzle without the clue
/// has a second solution exactly when it has one in which that cell differs from the known
/// solution, and that search is usually over as soon as propagation ends.
pub fn count_excluding(puzzle: &Grid, excluded: &[(Cell, Digit)], limit: usize) -> Outcome {
    let mut outcome = Outcome {
        count: 0,
        solution: None,
        stats: Stats::default(),
    };
    if limit == 0 {
        return outcome;
    }
    let mut search = Search::new(puzzle);
    search.exclude(excluded);
    outcome.count = search.find(limit, &mut outcome.solution);
    outcome.stats = search.stats;
    outcome
}

/// Whether `puzzle` has a solution in which no cell of `excluded` holds the digit paired with
/// it, looking first near `near`: each branch tries the digit `near` has in its cell.
///
/// A generator asks this with `near` the puzzle's known solution: a second solution, when
/// there is one, usually differs from it in a few cells, and a search that keeps to the
/// known solution wherever it can finds it with few wrong turns.
pub fn exists_excluding_near(puzzle: &Grid, excluded: &[(Cell, Digit)], near: &Near) -> bool {
    let mut search = Search::new(puzzle);
    search.exclude(excluded);
    search.near = Some(near.0);
    search.keep_first = false;
    search.find(1, &mut None) == 1
}

/// The first solution of `puzzle` when each branch tries the digit `near` has in its cell
/// first, or `None` when it has none. `near` need not be a valid grid: random digits make a
/// random solution, which is how the generator draws its grids.
pub fn solve_near(puzzle: &Grid, near: &Near) -> Option<Grid> {
    let mut search = Search::new(puzzle);
    search.near = Some(near.0);
    search.next_solution()
}

/// A grid whose digits a search tries first ([`solve_near`], [`exists_excluding_near`]),
/// read into the solver's layout once for the many searches that use it.
#[derive(Clone, Copy, Debug)]
pub struct Near([u32; 27]);

impl Near {
    /// The digits of `grid` (which need not be valid; empty cells prefer nothing).
    pub fn new(grid: &Grid) -> Near {
        Near(bands::words(grid))
    }
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

/// Deepest possible stack. Each state above another took the first side of its branch,
/// which fixes a line of some digit that was open before: the one minirow it takes in a
/// row of a band, or the one minicolumn in a box column of a stack. (A placed cell fixes
/// both of its lines, and a cell branched on had at most one fixed, or propagation would
/// have placed it.) There are 81 of each kind of line, so 162 levels and the root.
const DEPTH: usize = 163;

/// A depth-first search over a fixed stack of pending states.
struct Search {
    /// Invariant: `stack[..len]` is initialised; those are the states still to explore, the
    /// top one next. Left uninitialised above `len` so that starting a search costs nothing
    /// for the many puzzles propagation solves without branching.
    stack: [MaybeUninit<State>; DEPTH],
    len: usize,
    /// The puzzle, read into the root state on the first call (inside the compiled copy of
    /// the engine the processor supports).
    puzzle: Option<Grid>,
    /// Candidates the root state loses before the search starts, in the state's layout
    /// (index `3 * digit + band`, bit `9 * row-in-band + column`), if any.
    excluded: Option<[u32; 27]>,
    /// The grid whose digits branches try first, as band words; none for the plain order.
    near: Option<[u32; 27]>,
    /// Whether the first solution is read back into a grid (not when only its existence
    /// matters).
    keep_first: bool,
    stats: Stats,
}

impl Search {
    fn new(puzzle: &Grid) -> Search {
        Search {
            stack: [const { MaybeUninit::uninit() }; DEPTH],
            len: 0,
            puzzle: Some(*puzzle),
            excluded: None,
            near: None,
            keep_first: true,
            stats: Stats::default(),
        }
    }

    /// Marks `excluded` for removal from the root state.
    fn exclude(&mut self, excluded: &[(Cell, Digit)]) {
        for &(cell, digit) in excluded {
            let (band, bit) = (cell.row() / 3, 1 << ((cell.row() % 3) * 9 + cell.col()));
            self.excluded.get_or_insert([0; 27])[3 * digit.index() + band] |= bit;
        }
    }

    /// The next solution in depth-first order, or `None` when the tree is exhausted.
    ///
    /// On x86-64 processors with BMI1/BMI2/POPCNT/AVX2 (detected at run time; std caches the
    /// answer) the search runs in a copy of the engine compiled for them, which turns the
    /// bit manipulation into single instructions; elsewhere in the portable copy.
    fn next_solution(&mut self) -> Option<Grid> {
        let mut grid = None;
        self.find(1, &mut grid);
        grid
    }

    /// Searches on until `want` more solutions are found or the tree is exhausted, and
    /// returns how many were found; `first` receives the first of them. Only that one is
    /// read back into a grid: counting the others costs nothing more.
    fn find(&mut self, want: usize, first: &mut Option<Grid>) -> usize {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("avx2")
        {
            // SAFETY: the features the function is compiled for were just detected.
            return unsafe { self.find_x86(want, first) };
        }
        self.run::<false>(want, first)
    }

    /// [`Search::run`] compiled for the instruction set extensions of recent x86-64 cores.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,avx2")]
    unsafe fn find_x86(&mut self, want: usize, first: &mut Option<Grid>) -> usize {
        self.run::<true>(want, first)
    }

    /// The search itself, inlined into each compiled copy; `X86` only in the copy compiled
    /// for BMI1/BMI2/POPCNT/AVX2.
    #[inline(always)]
    fn run<const X86: bool>(&mut self, want: usize, first: &mut Option<Grid>) -> usize {
        let mut found = 0;
        if let Some(puzzle) = self.puzzle.take() {
            if let Some(mut root) = State::new::<X86>(&puzzle) {
                if let Some(excluded) = &self.excluded {
                    root.exclude(excluded);
                }
                self.stack[0].write(root);
                self.len = 1;
            }
        }
        while self.len > 0 && found < want {
            let top = self.len - 1;
            // SAFETY: `top < len`, and `stack[..len]` is initialised (struct invariant).
            let state = unsafe { self.stack[top].assume_init_mut() };
            if !state.propagate::<X86>(&mut self.stats) {
                self.len -= 1;
                continue;
            }
            if state.is_solved() {
                self.len -= 1;
                if found == 0 && self.keep_first {
                    *first = Some(state.grid::<X86>());
                }
                found += 1;
                continue;
            }
            self.stats.guesses += 1;
            let choice = state.branch::<X86>(self.near.as_ref(), &self.stats);
            // Each state above another has one more line fixed (see `DEPTH`), so
            // `top + 1 < DEPTH`.
            // The child is copied straight into its slot, then both are adjusted.
            let (below, above) = self.stack.split_at_mut(top + 1);
            // SAFETY: as above, `below[top]` is initialised.
            let state = unsafe { below[top].assume_init_mut() };
            let child = above[0].write(*state);
            state.split(choice, child);
            self.len += 1;
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(line: &str) -> Grid {
        let mut values = [0u8; 81];
        for (v, ch) in values.iter_mut().zip(line.bytes()) {
            *v = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
        }
        Grid::from_values(values).unwrap()
    }

    /// Two solutions: r2c7, r2c8, r9c7, r9c8 hold 3 and 9 in either order (a deadly
    /// rectangle), every other cell is given.
    const TWO: &str = "365897241\
                       784261..5\
                       129534786\
                       692713854\
                       473658129\
                       518429673\
                       837946512\
                       951372468\
                       246185..7";

    #[test]
    fn counts_respect_the_limit() {
        let p = grid(TWO);
        assert_eq!(count(&p, 1).count, 1);
        assert_eq!(count(&p, 2).count, 2);
        assert_eq!(count(&p, 10).count, 2);
        let none = count(&p, 0);
        assert_eq!(
            (none.count, none.solution, none.stats),
            (0, None, Stats::default())
        );
        let all: Vec<Grid> = solutions(&p).collect();
        assert_eq!(all.len(), 2);
        assert_ne!(all[0], all[1]);
        assert!(all.iter().all(|s| s.is_solution_of(&p)));
        assert_eq!(count(&p, 2).solution, Some(all[0]));
        assert_eq!(solve(&p), Some(all[0]));
    }

    /// Runs the portable copy of the engine, whatever the processor.
    fn portable(p: &Grid, limit: usize) -> (usize, Option<Grid>, Stats) {
        let mut search = Search::new(p);
        let mut first = None;
        let n = search.run::<false>(limit, &mut first);
        (n, first, search.stats)
    }

    #[test]
    fn both_compiled_copies_agree_with_the_reference() {
        let puzzles = [
            // Inkala 2012, a 17-clue puzzle, the crate example, two solutions, the empty grid.
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            "...7.....1...........43.2..........6...5.9.........418....81.....2....5..4....3..",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            TWO,
            "",
        ];
        for line in puzzles {
            let p = grid(&line.replace(char::is_whitespace, ""));
            for limit in [1, 2, 3] {
                let (n, first, stats) = portable(&p, limit);
                assert_eq!(n, reference::count(&p, limit), "{p}");
                assert!(first.is_some_and(|s| s.is_solution_of(&p)));
                // The detected copy (the x86-64 one on most machines) finds the same
                // solutions the same way.
                let fast = count(&p, limit);
                assert_eq!((fast.count, fast.solution, fast.stats), (n, first, stats));
            }
        }
    }

    #[test]
    fn exclusions_count_only_the_solutions_they_allow() {
        let p = grid(&TWO.replace(char::is_whitespace, ""));
        let all: Vec<Grid> = solutions(&p).collect();
        let r2c7 = Cell::from_row_col(1, 6).unwrap();
        let first = all[0].get(r2c7).unwrap();
        // Excluding the first solution's digit at r2c7 leaves exactly the other solution.
        let other = count_excluding(&p, &[(r2c7, first)], 2);
        assert_eq!((other.count, other.solution), (1, Some(all[1])));
        // Excluding both solutions' digits there leaves none; excluding a given's own digit
        // leaves none either.
        let second = all[1].get(r2c7).unwrap();
        assert_eq!(
            count_excluding(&p, &[(r2c7, first), (r2c7, second)], 2).count,
            0
        );
        let r1c1 = Cell::from_row_col(0, 0).unwrap();
        assert_eq!(
            count_excluding(&p, &[(r1c1, Digit::new(3).unwrap())], 2).count,
            0
        );
        // Nothing excluded: a plain count.
        assert_eq!(count_excluding(&p, &[], 3), count(&p, 3));
        // Searching near a solution finds the same answers.
        let near = [Near::new(&all[0]), Near::new(&all[1])];
        assert!(exists_excluding_near(&p, &[(r2c7, first)], &near[0]));
        assert!(!exists_excluding_near(
            &p,
            &[(r2c7, first), (r2c7, second)],
            &near[0]
        ));
        // Near either solution, the first solution found is that one.
        assert_eq!(solve_near(&p, &near[1]), Some(all[1]));
        assert_eq!(solve_near(&p, &near[0]), Some(all[0]));
    }

    #[test]
    fn clashing_givens_have_no_solution() {
        let p = grid("11");
        assert_eq!(count(&p, 3).count, 0);
        assert_eq!(solve(&p), None);
        let mut it = solutions(&p);
        assert_eq!(it.next(), None);
        assert_eq!(it.stats(), Stats::default());
    }

    proptest::proptest! {
        /// Any repeated given leaves no solution, in both compiled copies: the CLI's `solve`
        /// relies on it to find repeated givens without the parser's check.
        #[test]
        fn repeated_givens_leave_no_solution(
            kept in proptest::collection::vec(proptest::bool::ANY, 81),
            at in 0usize..81,
            peer in 0usize..20,
        ) {
            let inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
            let solution = solve(&grid(inkala)).unwrap();
            let mut values = *solution.values();
            for (v, &keep) in values.iter_mut().zip(&kept) {
                if !keep {
                    *v = 0;
                }
            }
            let cell = Cell::new(at).unwrap();
            values[at] = solution.values()[at];
            values[cell.peers()[peer].index()] = values[at];
            let p = Grid::from_values(values).unwrap();
            proptest::prop_assert!(p.conflict().is_some());
            proptest::prop_assert_eq!(portable(&p, 2).0, 0);
            proptest::prop_assert_eq!(count(&p, 2).count, 0);
        }
    }

    #[test]
    fn stats_add_up() {
        let mut a = Stats {
            guesses: 2,
            propagations: 5,
        };
        a += Stats {
            guesses: 1,
            propagations: 7,
        };
        assert_eq!(
            a,
            Stats {
                guesses: 3,
                propagations: 12
            }
        );
    }
}
