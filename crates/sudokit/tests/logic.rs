//! Every logic step checked against the true solution, over the shared puzzle collections.
//!
//! For each sampled puzzle the engine runs step by step with every available technique; each
//! placement must be the solution's digit and each elimination must spare it. Puzzles the
//! techniques cannot finish simply stall; the test prints, per file, how many were solved.
//!
//! Data comes from `SUDOKIT_DATA` (default `../shared/data` next to the workspace). The big
//! files are sampled so the test stays quick; `SUDOKIT_LOGIC_FULL=1` checks every puzzle.

use std::path::PathBuf;

use sudokit::candidates::Candidates;
use sudokit::grid::{Cell, Grid};
use sudokit::logic::{apply, Solver, TechniqueSet};

fn data_dir() -> PathBuf {
    let dir = std::env::var_os("SUDOKIT_DATA").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")),
        PathBuf::from,
    );
    assert!(
        dir.is_dir(),
        "puzzle data folder {} not found: set SUDOKIT_DATA to the folder holding puzzles2_17_clue etc.",
        dir.display()
    );
    dir
}

fn grid_from(cells: &str) -> Option<Grid> {
    let mut values = [0u8; 81];
    let mut n = 0;
    for ch in cells.chars() {
        let v = match ch {
            '1'..='9' => ch as u8 - b'0',
            '.' | '0' | '_' | '-' | '*' => 0,
            _ => continue,
        };
        if n == 81 {
            return None;
        }
        values[n] = v;
        n += 1;
    }
    if n == 81 {
        Grid::from_values(values)
    } else {
        None
    }
}

/// Puzzles of a data file, in whichever of the collection's layouts it uses.
fn puzzles(name: &str) -> Vec<Grid> {
    let text = std::fs::read_to_string(data_dir().join(name)).expect("readable data file");
    if text.starts_with("Grid") {
        text.split("Grid")
            .filter_map(|block| grid_from(&block.lines().skip(1).collect::<String>()))
            .collect()
    } else if text.lines().next().is_some_and(|l| l.trim().len() == 9) {
        grid_from(&text).into_iter().collect()
    } else {
        text.lines()
            .filter_map(|l| l.get(..81).and_then(grid_from))
            .collect()
    }
}

/// Counts solutions up to 2 by plain backtracking on the most constrained cell; returns the
/// first solution found. Deliberately independent of the engine under test.
fn solve(grid: &Grid) -> (usize, Option<Grid>) {
    struct S {
        v: [u8; 81],
        used: [u16; 27],
        count: usize,
        first: Option<[u8; 81]>,
    }
    fn houses(i: usize) -> [usize; 3] {
        [i / 9, 9 + i % 9, 18 + i / 27 * 3 + i % 9 / 3]
    }
    fn go(s: &mut S) {
        let mut best: Option<(usize, u16)> = None;
        for i in 0..81 {
            if s.v[i] != 0 {
                continue;
            }
            let [a, b, c] = houses(i);
            let free = !(s.used[a] | s.used[b] | s.used[c]) & 0x3fe;
            if best.map_or(true, |(_, m)| free.count_ones() < m.count_ones()) {
                best = Some((i, free));
                if free.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((i, free)) = best else {
            s.count += 1;
            s.first.get_or_insert(s.v);
            return;
        };
        let [a, b, c] = houses(i);
        for d in 1..=9u8 {
            if free & (1 << d) != 0 {
                s.v[i] = d;
                s.used[a] |= 1 << d;
                s.used[b] |= 1 << d;
                s.used[c] |= 1 << d;
                go(s);
                s.v[i] = 0;
                s.used[a] &= !(1 << d);
                s.used[b] &= !(1 << d);
                s.used[c] &= !(1 << d);
                if s.count >= 2 {
                    return;
                }
            }
        }
    }
    let mut s = S {
        v: *grid.values(),
        used: [0; 27],
        count: 0,
        first: None,
    };
    for i in 0..81 {
        if s.v[i] != 0 {
            for h in houses(i) {
                if s.used[h] & (1 << s.v[i]) != 0 {
                    return (0, None);
                }
                s.used[h] |= 1 << s.v[i];
            }
        }
    }
    go(&mut s);
    (s.count, s.first.and_then(Grid::from_values))
}

struct Outcome {
    puzzles: usize,
    solved: usize,
    steps: usize,
}

/// Runs the engine over every `every`-th puzzle of `name`, asserting each step is true.
fn check_file(name: &str, every: usize) -> Outcome {
    let full = std::env::var_os("SUDOKIT_LOGIC_FULL").is_some();
    let every = if full { 1 } else { every };
    let all = puzzles(name);
    assert!(!all.is_empty(), "{name}: no puzzles read");
    let mut out = Outcome {
        puzzles: 0,
        solved: 0,
        steps: 0,
    };
    for (index, grid) in all.iter().enumerate().step_by(every) {
        let (count, solution) = solve(grid);
        let Some(solution) = solution else { continue };
        let solver = Solver::new(TechniqueSet::all()).unique(count == 1);
        let mut cands = Candidates::new(grid);
        out.puzzles += 1;
        while !cands.is_solved() {
            let Some(step) = solver.next_step(&cands) else {
                break;
            };
            let truth = |c: Cell| solution.get(c).expect("full solution");
            for &(c, d) in &step.placements {
                assert_eq!(
                    truth(c),
                    d,
                    "{name} #{index} {grid}: wrong placement in {step}"
                );
            }
            for &(c, d) in &step.eliminations {
                assert_ne!(
                    truth(c),
                    d,
                    "{name} #{index} {grid}: true digit eliminated by {step}"
                );
            }
            assert!(
                apply(&mut cands, &step),
                "{name} #{index}: step without effect: {step}"
            );
            out.steps += 1;
        }
        if cands.is_solved() {
            assert!(cands.grid().is_solution_of(grid));
            out.solved += 1;
        }
    }
    println!(
        "{name}: {}/{} solved ({:.1}%), {} steps checked",
        out.solved,
        out.puzzles,
        100.0 * out.solved as f64 / out.puzzles.max(1) as f64,
        out.steps
    );
    out
}

#[test]
fn small_collections_every_puzzle() {
    for name in [
        "p096_sudoku.txt",
        "inkala_2006.txt",
        "inkala_2012.txt",
        "gosudoku_simple-01.txt",
        "gosudoku_simple-02.txt",
        "se_rated_calibration.tsv",
    ] {
        let o = check_file(name, 1);
        assert!(o.puzzles > 0, "{name}: no puzzle checked");
    }
}

#[test]
fn project_euler_puzzles_all_fall_to_basic_techniques() {
    let o = check_file("p096_sudoku.txt", 1);
    assert_eq!(o.puzzles, 50);
    assert!(o.solved >= 45, "only {} of 50 solved", o.solved);
}

#[test]
fn seventeen_clue_sample() {
    check_file("puzzles2_17_clue", 2000);
}

#[test]
fn hard_collections_sample() {
    check_file("puzzles3_magictour_top1465", 50);
    check_file("puzzles5_forum_hardest_1905_11+", 2000);
    check_file("puzzles6_forum_hardest_1106", 15);
}

#[test]
fn multi_solution_sample_never_contradicts_a_solution() {
    check_file("puzzles7_serg_benchmark", 400);
}
