//! Explain benchmark: whole logic solves of every puzzle in the data folder.
//!
//! For each file it explains every puzzle with a unique solution using every technique (the
//! trial last resort included, as `sudokit explain` does), checks every placement and
//! elimination of every step against the exact solution, and prints puzzles, share solved,
//! share solved without a trial step, steps, wrong steps (must be 0), and mean and worst
//! milliseconds per puzzle. Timings are single-threaded; the verification pass over the big
//! files runs on every core.
//!
//! `cargo bench --bench explain` runs every file in full; `SUDOKIT_BENCH_EVERY=N` takes every
//! Nth puzzle of files over 10,000 puzzles, `SUDOKIT_BENCH_FILES=a,b` limits the files.

#[path = "../tests/suite/common.rs"]
#[allow(dead_code)] // each bench uses a subset of the helpers
mod common;

use std::time::Instant;

use rayon::prelude::*;
use sudokit::candidates::Candidates;
use sudokit::logic::{apply, Engine, TechniqueSet};
use sudokit::step::Technique;
use sudokit::{solver, Grid};

const FILES: &[&str] = &[
    "puzzles6_forum_hardest_1106",
    "puzzles3_magictour_top1465",
    "p096_sudoku.txt",
    "inkala_2006.txt",
    "inkala_2012.txt",
    "gosudoku_simple-01.txt",
    "gosudoku_simple-02.txt",
    "se_rated_calibration.tsv",
    "puzzles7_serg_benchmark",
    "puzzles2_17_clue",
    "puzzles5_forum_hardest_1905_11+",
];

/// What explaining one puzzle gave.
struct Run {
    solved: bool,
    trial: bool,
    steps: usize,
    wrong: Vec<String>,
    millis: f64,
}

fn explain(puzzle: &Grid, solution: &Grid) -> Run {
    let engine = Engine::new(TechniqueSet::all()).unique(true);
    let start = Instant::now();
    let mut cands = Candidates::new(puzzle);
    let mut steps = Vec::new();
    while !cands.is_solved() {
        let Some(step) = engine.next_step(&cands) else {
            break;
        };
        if !apply(&mut cands, &step) {
            break;
        }
        steps.push(step);
    }
    let millis = start.elapsed().as_secs_f64() * 1e3;
    let mut wrong = Vec::new();
    for step in &steps {
        let truth = |c| solution.get(c);
        let bad_place = step.placements.iter().any(|&(c, d)| truth(c) != Some(d));
        let bad_elim = step.eliminations.iter().any(|&(c, d)| truth(c) == Some(d));
        if bad_place || bad_elim {
            wrong.push(format!("{puzzle}: {step}"));
        }
    }
    Run {
        solved: cands.is_solved() && cands.grid() == solution,
        trial: steps.iter().any(|s| s.technique == Technique::Trial),
        steps: steps.len(),
        wrong,
        millis,
    }
}

fn main() {
    let every: usize = std::env::var("SUDOKIT_BENCH_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let only = std::env::var("SUDOKIT_BENCH_FILES").ok();
    println!(
        "{:<34} {:>7} {:>8} {:>9} {:>8} {:>6} {:>9} {:>9}",
        "file", "puzzles", "solved%", "no-trial%", "steps", "wrong", "mean ms", "worst ms"
    );
    let (mut all_wrong, mut all_unsolved) = (0, 0);
    for name in FILES {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|f| f == *name))
        {
            continue;
        }
        let mut puzzles = common::load(name);
        if puzzles.len() > 10_000 && every > 1 {
            puzzles = puzzles.into_iter().step_by(every).collect();
        }
        let unique: Vec<(Grid, Grid)> = puzzles
            .par_iter()
            .filter_map(|p| {
                let o = solver::count(p, 2);
                (o.count == 1).then_some((*p, o.solution?))
            })
            .collect();
        // The two sets the issue names are timed on one thread; the rest run on every core.
        let timed = matches!(
            *name,
            "puzzles6_forum_hardest_1106" | "puzzles3_magictour_top1465"
        );
        let runs: Vec<Run> = if timed {
            unique.iter().map(|(p, s)| explain(p, s)).collect()
        } else {
            unique.par_iter().map(|(p, s)| explain(p, s)).collect()
        };
        let solved = runs.iter().filter(|r| r.solved).count();
        let logic_only = runs.iter().filter(|r| r.solved && !r.trial).count();
        let share = |n: usize| 100.0 * n as f64 / unique.len().max(1) as f64;
        let steps: usize = runs.iter().map(|r| r.steps).sum();
        let wrong: Vec<&String> = runs.iter().flat_map(|r| &r.wrong).collect();
        let mean = runs.iter().map(|r| r.millis).sum::<f64>() / runs.len().max(1) as f64;
        let worst = runs.iter().map(|r| r.millis).fold(0.0, f64::max);
        println!(
            "{:<34} {:>7} {:>7.2}% {:>8.2}% {:>8} {:>6} {:>9} {:>9}",
            name,
            unique.len(),
            share(solved),
            share(logic_only),
            steps,
            wrong.len(),
            if timed {
                format!("{mean:.2}")
            } else {
                "-".into()
            },
            if timed {
                format!("{worst:.1}")
            } else {
                "-".into()
            },
        );
        for w in wrong.iter().take(5) {
            println!("  WRONG: {w}");
        }
        all_wrong += wrong.len();
        all_unsolved += unique.len() - solved;
    }
    assert_eq!(all_wrong, 0, "logic steps contradicted the solution");
    assert_eq!(
        all_unsolved, 0,
        "some unique puzzles were not explained to the end"
    );
}
