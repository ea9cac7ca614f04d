//! The fast solver against the reference solver and the published facts about the data files.
//!
//! The data folder is the repository's `data/` (`SUDOKIT_DATA` overrides). Big
//! files are sampled (every `STRIDE`th puzzle) so that the suite stays fast; the benchmark
//! (`cargo bench --bench solve`) checks every puzzle.

use crate::common::{grid, load};
use std::collections::HashSet;
use std::sync::OnceLock;

use proptest::prelude::*;
use sudokit::solver::{self, reference};
use sudokit::Grid;

/// Sampling step for the files with thousands of puzzles.
const STRIDE: usize = 97;

/// Checks the fast solver against the reference on one puzzle; returns the count.
fn check_against_reference(p: &Grid, limit: usize) -> usize {
    let fast = solver::count(p, limit);
    let slow = reference::count(p, limit);
    assert_eq!(fast.count, slow, "count up to {limit} of {p}");
    assert_eq!(fast.solution.is_some(), fast.count > 0);
    if let Some(s) = fast.solution {
        assert!(s.is_solution_of(p), "{s} does not solve {p}");
        assert_eq!(solver::solve(p), Some(s), "solve and count disagree on {p}");
    }
    if slow == 1 {
        assert_eq!(fast.solution, reference::solutions(p, 1).first().copied());
    }
    fast.count
}

#[test]
fn project_euler_96() {
    let puzzles = load("p096_sudoku.txt");
    assert_eq!(puzzles.len(), 50);
    let mut sum = 0;
    for p in &puzzles {
        let outcome = solver::count(p, 2);
        assert_eq!(outcome.count, 1, "{p} is not unique");
        let s = outcome.solution.unwrap();
        assert!(s.is_solution_of(p));
        let v = s.values();
        sum += 100 * v[0] as u32 + 10 * v[1] as u32 + v[2] as u32;
    }
    assert_eq!(sum, 24702);
}

#[test]
fn sampled_files_agree_with_the_reference() {
    // (file, step between puzzles checked against the reference): the reference is slow on
    // 17-clue puzzles, so those are sampled more thinly; the fast solver alone checks every
    // STRIDE-th puzzle of each file besides.
    for (name, reference_step) in [
        ("puzzles2_17_clue", 991),
        ("puzzles3_magictour_top1465", 13),
        ("puzzles5_forum_hardest_1905_11+", 499),
        ("puzzles6_forum_hardest_1106", 5),
        ("puzzles7_serg_benchmark", STRIDE),
    ] {
        let puzzles = load(name);
        assert!(
            puzzles.len() > 300,
            "{name}: only {} puzzles",
            puzzles.len()
        );
        let multi = name == "puzzles7_serg_benchmark";
        let mut checked = 0;
        for p in puzzles.iter().step_by(reference_step) {
            let n = check_against_reference(p, 2);
            assert_eq!(n, if multi { 2 } else { 1 }, "{name}: count of {p}");
            checked += 1;
        }
        assert!(checked >= 40, "{name}: sampled only {checked}");
        for p in puzzles.iter().step_by(STRIDE) {
            let outcome = solver::count(p, 2);
            assert_eq!(
                outcome.count,
                if multi { 2 } else { 1 },
                "{name}: count of {p}"
            );
            assert!(outcome.solution.is_some_and(|s| s.is_solution_of(p)));
        }
    }
}

#[test]
fn euler_and_single_puzzles_agree_with_the_reference() {
    for p in load("p096_sudoku.txt") {
        check_against_reference(&p, 3);
    }
    for name in [
        "inkala_2006.txt",
        "inkala_2012.txt",
        "gosudoku_simple-01.txt",
        "gosudoku_simple-02.txt",
    ] {
        assert_eq!(check_against_reference(&load(name)[0], 2), 1, "{name}");
    }
}

#[test]
fn known_solutions_of_the_famous_puzzles() {
    // Verified with the reference solver (which the test above also checks against).
    for (name, solution) in [
        (
            "inkala_2006.txt",
            "145327698839654127672918543496185372218473956753296481367542819984761235521839764",
        ),
        (
            "inkala_2012.txt",
            "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
        ),
    ] {
        let p = load(name)[0];
        let s = grid(solution);
        assert_eq!(reference::solutions(&p, 2), vec![s], "{name}");
        assert_eq!(solver::solve(&p), Some(s), "{name}");
    }
}

#[test]
fn multi_solution_counts_and_enumeration_match_the_reference() {
    let puzzles = load("puzzles7_serg_benchmark");
    let mut enumerated = 0;
    for (k, p) in puzzles.iter().step_by(STRIDE).enumerate() {
        if k % 3 == 0 {
            for limit in [2, 3, 10] {
                check_against_reference(p, limit);
            }
        }
        let all = reference::solutions(p, 50);
        if all.len() < 50 {
            let fast: Vec<Grid> = solver::solutions(p).collect();
            assert_eq!(fast.len(), all.len(), "{p}");
            let fast_set: HashSet<Grid> = fast.iter().copied().collect();
            assert_eq!(fast_set.len(), fast.len(), "repeated solution for {p}");
            assert!(fast.iter().all(|s| s.is_solution_of(p)));
            assert_eq!(fast_set, all.iter().copied().collect::<HashSet<_>>(), "{p}");
            enumerated += 1;
        }
    }
    assert!(enumerated >= 10, "only {enumerated} puzzles enumerated");
}

#[test]
fn edge_cases() {
    // Empty grid: more than enough solutions, each valid, the iterator lazy.
    assert_eq!(solver::count(&Grid::EMPTY, 5).count, 5);
    let first: Vec<Grid> = solver::solutions(&Grid::EMPTY).take(20).collect();
    assert_eq!(first.iter().collect::<HashSet<_>>().len(), 20);
    assert!(first.iter().all(|s| s.is_solution_of(&Grid::EMPTY)));

    // A full valid grid has exactly itself as solution.
    let full = first[7];
    let outcome = solver::count(&full, 5);
    assert_eq!((outcome.count, outcome.solution), (1, Some(full)));
    assert_eq!(outcome.stats.guesses, 0);

    // limit 0: nothing searched.
    let p = load("p096_sudoku.txt")[0];
    let zero = solver::count(&p, 0);
    assert_eq!((zero.count, zero.solution), (0, None));

    // Clashing givens, in a row, a column, a box.
    for (a, b) in [(0, 8), (4, 76), (30, 50)] {
        let mut v = [0u8; 81];
        v[a] = 7;
        v[b] = 7;
        let g = Grid::from_values(v).unwrap();
        assert!(g.conflict().is_some());
        assert_eq!(solver::count(&g, 2).count, 0);
        assert_eq!(solver::solve(&g), None);
        assert_eq!(solver::solutions(&g).count(), 0);
        assert_eq!(reference::count(&g, 2), 0);
    }

    // No clash, yet r1c9 has no candidate: 1-8 in row 1, 9 in column 9.
    let mut v = [0u8; 81];
    v[..8].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    v[80] = 9;
    let g = Grid::from_values(v).unwrap();
    assert!(g.conflict().is_none());
    assert_eq!(solver::count(&g, 2).count, 0);
    assert_eq!(reference::count(&g, 2), 0);

    // A full grid with one pair of cells swapped is not a solution of anything.
    let mut broken = *full.values();
    broken.swap(0, 1);
    let g = Grid::from_values(broken).unwrap();
    assert_eq!(solver::count(&g, 2).count, 0);
}

#[test]
fn stats_count_guesses_only_when_propagation_stalls() {
    // Euler grid 01 falls to singles alone; the hardest puzzles do not.
    let easy = solver::count(&load("p096_sudoku.txt")[0], 2);
    assert_eq!(easy.stats.guesses, 0);
    assert!(easy.stats.propagations > 0);
    let hard = solver::count(&load("inkala_2012.txt")[0], 2);
    assert!(hard.stats.guesses > 0);
    let mut total = easy.stats;
    total += hard.stats;
    assert_eq!(total.guesses, hard.stats.guesses);
    assert_eq!(
        total.propagations,
        easy.stats.propagations + hard.stats.propagations
    );
}

// ---- invariance under the symmetries of sudoku ----

/// A validity-preserving transformation: a digit relabelling, a permutation of the rows
/// within each band, a permutation of the bands, and an optional transposition.
#[derive(Clone, Debug)]
struct Transform {
    digits: [u8; 9],
    rows_in_band: [[usize; 3]; 3],
    bands: [usize; 3],
    transpose: bool,
}

impl Transform {
    fn apply(&self, g: &Grid) -> Grid {
        let v = g.values();
        let mut moved = [0u8; 81];
        for r in 0..9 {
            let src = self.bands[r / 3] * 3 + self.rows_in_band[r / 3][r % 3];
            for c in 0..9 {
                let x = v[src * 9 + c];
                moved[r * 9 + c] = if x == 0 {
                    0
                } else {
                    self.digits[x as usize - 1]
                };
            }
        }
        let out = if self.transpose {
            std::array::from_fn(|i| moved[(i % 9) * 9 + i / 9])
        } else {
            moved
        };
        Grid::from_values(out).unwrap()
    }
}

fn perm3() -> impl Strategy<Value = [usize; 3]> {
    Just([0, 1, 2]).prop_shuffle()
}

fn transform() -> impl Strategy<Value = Transform> {
    (
        Just([0usize, 1, 2, 3, 4, 5, 6, 7, 8]).prop_shuffle(),
        [perm3(), perm3(), perm3()],
        perm3(),
        any::<bool>(),
    )
        .prop_map(|(d, rows_in_band, bands, transpose)| Transform {
            digits: d.map(|x| x as u8 + 1),
            rows_in_band,
            bands,
            transpose,
        })
}

/// Unique and multi-solution puzzles to transform.
fn sample_puzzles() -> &'static [Grid] {
    static SAMPLE: OnceLock<Vec<Grid>> = OnceLock::new();
    SAMPLE.get_or_init(|| {
        let mut v: Vec<Grid> = load("puzzles3_magictour_top1465")
            .into_iter()
            .step_by(97)
            .collect();
        v.extend(load("puzzles7_serg_benchmark").into_iter().step_by(997));
        v.extend(load("p096_sudoku.txt").into_iter().step_by(10));
        v
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn symmetries_preserve_counts_and_map_solutions(t in transform(), k in 0usize..1000) {
        let puzzles = sample_puzzles();
        let p = puzzles[k % puzzles.len()];
        let q = t.apply(&p);
        let (a, b) = (solver::count(&p, 3), solver::count(&q, 3));
        prop_assert_eq!(a.count, b.count);
        if a.count == 1 {
            prop_assert_eq!(b.solution, a.solution.map(|s| t.apply(&s)));
        }
        if let Some(s) = b.solution {
            prop_assert!(s.is_solution_of(&q));
        }
    }
}

/// Sparse grids, where branching on configurations could wander (see the solver's
/// `CONFIG_TOTAL`): random clues of a random solution, from none to 30, counted and
/// enumerated against the reference.
#[test]
fn sparse_grids_agree_with_the_reference() {
    let solutions: Vec<Grid> = solver::solutions(&Grid::EMPTY)
        .step_by(97)
        .take(8)
        .collect();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for (k, full) in solutions.iter().enumerate() {
        for clues in [0, 3, 8, 12, 16, 20, 25, 30] {
            let mut values = [0u8; 81];
            let mut order: Vec<usize> = (0..81).collect();
            for i in (1..81).rev() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                order.swap(i, (seed % (i as u64 + 1)) as usize);
            }
            for &i in &order[..clues] {
                values[i] = full.values()[i];
            }
            let p = Grid::from_values(values).unwrap();
            // (From 2 up: with a limit of 1 a count of 1 does not mean unique, and the two
            // solvers may then find different solutions first.)
            for limit in [2, 10] {
                check_against_reference(&p, limit);
            }
            if k % 4 == 0 {
                let fast: HashSet<Grid> = solver::solutions(&p).take(200).collect();
                let all = reference::solutions(&p, 200);
                assert_eq!(fast.len(), all.len(), "{p}");
                assert!(fast.iter().all(|s| s.is_solution_of(&p)));
                if all.len() < 200 {
                    assert_eq!(fast, all.into_iter().collect::<HashSet<_>>(), "{p}");
                }
            }
        }
    }
}
