//! Every logic step checked against the true solution, over the shared puzzle collections.
//!
//! For each sampled puzzle the engine runs step by step with every available technique; each
//! placement must be the solution's digit and each elimination must spare it. Only the pattern
//! families run here (singles to finned fish, wings and uniqueness; chains have their own
//! test), so many hard puzzles stall; the test prints, per file, how many were solved.
//!
//! Data comes from the repository's `data/` (`SUDOKIT_DATA` overrides). The big
//! files are sampled so the test stays quick; `SUDOKIT_LOGIC_FULL=1` checks every puzzle.

use crate::common::load_every;
use std::collections::BTreeMap;

use sudokit::candidates::Candidates;
use sudokit::grid::Cell;
use sudokit::logic::{apply, finder, Engine, TechniqueSet, STANDARD_ORDER};
use sudokit::solver;
use sudokit::step::Technique;

/// The techniques of the pattern families (singles through finned fish and uniqueness):
/// everything before coloring and chains in the standard order.
fn pattern_techniques() -> TechniqueSet {
    TechniqueSet::new(
        STANDARD_ORDER
            .iter()
            .copied()
            .take_while(|&t| t != Technique::SimpleColorsTrap),
    )
}

struct Outcome {
    puzzles: usize,
    solved: usize,
    steps: usize,
    used: BTreeMap<Technique, usize>,
}

/// Runs the engine over every `every`-th puzzle of `name`, asserting each step is true.
fn check_file(name: &str, every: usize) -> Outcome {
    let full = std::env::var_os("SUDOKIT_LOGIC_FULL").is_some();
    let every = if full { 1 } else { every };
    let all = load_every(name, every);
    assert!(!all.is_empty(), "{name}: no puzzles read");
    let mut out = Outcome {
        puzzles: 0,
        solved: 0,
        steps: 0,
        used: BTreeMap::new(),
    };
    let set = pattern_techniques();
    for (index, grid) in all.iter().enumerate() {
        let index = index * every;
        let outcome = solver::count(grid, 2);
        let Some(solution) = outcome.solution else {
            continue;
        };
        let engine = Engine::new(set.clone()).unique(outcome.count == 1);
        let mut cands = Candidates::new(grid);
        out.puzzles += 1;
        while !cands.is_solved() {
            let Some(step) = engine.next_step(&cands) else {
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
            *out.used.entry(step.technique).or_insert(0) += 1;
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
    let used: Vec<String> = out.used.iter().map(|(t, n)| format!("{t} {n}")).collect();
    println!("  techniques used: {}", used.join(", "));
    out
}

#[test]
fn small_collections_every_puzzle() {
    for name in crate::common::SMALL_FILES {
        let o = check_file(name, 1);
        assert!(o.puzzles > 0, "{name}: no puzzle checked");
    }
}

#[test]
fn project_euler_puzzles_all_fall_to_basic_techniques() {
    let o = check_file("p096_sudoku.txt", 1);
    assert_eq!((o.puzzles, o.solved), (50, 50));
}

#[test]
fn seventeen_clue_sample() {
    let o = check_file("puzzles2_17_clue", 200);
    // Measured over all 49,158: 97.0% fall to the pattern families.
    assert!(
        o.solved * 10 >= o.puzzles * 9,
        "{} of {}",
        o.solved,
        o.puzzles
    );
}

#[test]
fn hard_collections_sample() {
    check_file("puzzles3_magictour_top1465", 5);
    check_file("puzzles5_forum_hardest_1905_11+", 200);
    check_file("puzzles6_forum_hardest_1106", 3);
}

#[test]
fn multi_solution_sample_never_contradicts_a_solution() {
    check_file("puzzles7_serg_benchmark", 40);
}

/// Along each sampled solve, runs every pattern finder on every intermediate state (not just
/// the first that fires, as the solver does), so techniques late in the order are checked on
/// states where simpler steps also exist. Uniqueness finders run only on unique puzzles.
fn check_every_finder(name: &str, every: usize) -> usize {
    let full = std::env::var_os("SUDOKIT_LOGIC_FULL").is_some();
    let set = pattern_techniques();
    let mut checked = 0;
    for grid in load_every(name, if full { 1 } else { every }) {
        let outcome = solver::count(&grid, 2);
        let Some(solution) = outcome.solution else {
            continue;
        };
        let unique = outcome.count == 1;
        let engine = Engine::new(set.clone()).unique(unique);
        let mut cands = Candidates::new(&grid);
        while !cands.is_solved() {
            for &t in set.techniques() {
                if t.needs_uniqueness() && !unique {
                    continue;
                }
                let Some(step) = finder(t)(&cands) else {
                    continue;
                };
                assert_eq!(step.technique, t, "{grid}: finder for {t} returned {step}");
                assert!(!step.is_empty(), "{grid}: empty step {step}");
                for &(c, d) in &step.placements {
                    assert_eq!(
                        solution.get(c),
                        Some(d),
                        "{grid}: wrong placement in {step}"
                    );
                }
                for &(c, d) in &step.eliminations {
                    assert!(
                        cands.get(c).contains(d),
                        "{grid}: {step} removes absent {c}<>{d}"
                    );
                    assert_ne!(
                        solution.get(c),
                        Some(d),
                        "{grid}: true digit removed by {step}"
                    );
                }
                checked += 1;
            }
            let Some(step) = engine.next_step(&cands) else {
                break;
            };
            apply(&mut cands, &step);
        }
    }
    println!("{name}: {checked} finder results checked");
    checked
}

#[test]
fn every_finder_on_every_state() {
    let mut checked = 0;
    checked += check_every_finder("se_rated_calibration.tsv", 4);
    checked += check_every_finder("puzzles3_magictour_top1465", 40);
    checked += check_every_finder("puzzles2_17_clue", 2000);
    checked += check_every_finder("puzzles6_forum_hardest_1106", 25);
    checked += check_every_finder("puzzles7_serg_benchmark", 1000);
    assert!(checked > 1000, "only {checked} finder results checked");
}
