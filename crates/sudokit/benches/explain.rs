//! Explain benchmark: whole logic solves of every puzzle in the data folder.
//!
//! For each file it explains every puzzle with a unique solution using every technique (the
//! trial last resort included, as `sudokit explain` does), checks every placement and
//! elimination of every step against the exact solution, and prints puzzles, share solved,
//! share solved without a trial step, steps, wrong steps (must be 0), and mean, median and
//! worst milliseconds per puzzle. Timings take one puzzle at a time (SE's chains, which the
//! default set runs where its other rules stall, build their top-level chains on every core);
//! the verification pass over the big files runs puzzles on every core.
//!
//! Each file gets a second row for Sudoku Explainer's path (`explain --rules se`, rules `se`),
//! checked the same way: SE's nested chains cost up to seconds a puzzle on the hardest lists,
//! so that row takes every puzzle of files up to 2,000 puzzles and about 500 evenly spread of
//! larger ones (`SUDOKIT_BENCH_SE_EVERY=N`: every Nth of those instead). Its times include
//! the threads SE's rating itself builds its top-level chains on.
//!
//! `cargo bench --bench explain` runs every file in full; `SUDOKIT_BENCH_EVERY=N` takes every
//! Nth puzzle of files over 10,000 puzzles, `SUDOKIT_BENCH_FILES=a,b` limits the files,
//! `SUDOKIT_BENCH_RULES=default` or `se` the engines.

#[path = "../tests/suite/common.rs"]
#[allow(dead_code)] // each bench uses a subset of the helpers
mod common;

use std::time::Instant;

use rayon::prelude::*;
use sudokit::candidates::Candidates;
use sudokit::logic::{Engine, Explanation, TechniqueSet};
use sudokit::rate::{se_path, MAX_LEVEL};
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

/// The engines compared.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    /// The logic engine with every technique, as `sudokit explain` runs it.
    Default,
    /// Sudoku Explainer's path, as `sudokit explain --rules se` runs it.
    Se,
}

impl Rules {
    fn name(self) -> &'static str {
        match self {
            Rules::Default => "default",
            Rules::Se => "se",
        }
    }
}

fn explain(rules: Rules, puzzle: &Grid, solution: &Grid) -> Run {
    let start = Instant::now();
    let explanation: Explanation = match rules {
        Rules::Default => Engine::new(TechniqueSet::all())
            .unique(true)
            .explain(puzzle),
        Rules::Se => se_path(&Candidates::new(puzzle), MAX_LEVEL).explanation,
    };
    let millis = start.elapsed().as_secs_f64() * 1e3;
    let steps = &explanation.steps;
    let mut wrong = Vec::new();
    for step in steps {
        let truth = |c| solution.get(c);
        let bad_place = step.placements.iter().any(|&(c, d)| truth(c) != Some(d));
        let bad_elim = step.eliminations.iter().any(|&(c, d)| truth(c) == Some(d));
        if bad_place || bad_elim {
            wrong.push(format!("{puzzle}: {step}"));
        }
    }
    let reached = explanation.final_state.grid();
    Run {
        solved: explanation.solved && reached == solution,
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
    let se_every: Option<usize> = std::env::var("SUDOKIT_BENCH_SE_EVERY")
        .ok()
        .and_then(|v| v.parse().ok());
    let only = std::env::var("SUDOKIT_BENCH_FILES").ok();
    let rules_only = std::env::var("SUDOKIT_BENCH_RULES").ok();
    println!(
        "{:<34} {:<7} {:>7} {:>8} {:>9} {:>8} {:>6} {:>9} {:>9} {:>9}",
        "file",
        "rules",
        "puzzles",
        "solved%",
        "no-trial%",
        "steps",
        "wrong",
        "mean ms",
        "median ms",
        "worst ms"
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
        for rules in [Rules::Default, Rules::Se] {
            if rules_only.as_deref().is_some_and(|r| r != rules.name()) {
                continue;
            }
            let sample: Vec<&(Grid, Grid)> = match rules {
                Rules::Default => unique.iter().collect(),
                Rules::Se => {
                    let step = se_every.unwrap_or(if unique.len() > 2_000 {
                        unique.len() / 500
                    } else {
                        1
                    });
                    unique.iter().step_by(step.max(1)).collect()
                }
            };
            let runs: Vec<Run> = if timed {
                sample.iter().map(|(p, s)| explain(rules, p, s)).collect()
            } else {
                sample
                    .par_iter()
                    .map(|(p, s)| explain(rules, p, s))
                    .collect()
            };
            let wrong = report(name, rules, &runs, timed);
            all_wrong += wrong;
            all_unsolved += runs.iter().filter(|r| !r.solved).count();
        }
    }
    assert_eq!(all_wrong, 0, "logic steps contradicted the solution");
    assert_eq!(
        all_unsolved, 0,
        "some unique puzzles were not explained to the end"
    );
}

/// Prints the row of one file and engine; returns the number of wrong steps.
fn report(name: &str, rules: Rules, runs: &[Run], timed: bool) -> usize {
    let solved = runs.iter().filter(|r| r.solved).count();
    let logic_only = runs.iter().filter(|r| r.solved && !r.trial).count();
    let share = |n: usize| 100.0 * n as f64 / runs.len().max(1) as f64;
    let steps: usize = runs.iter().map(|r| r.steps).sum();
    let wrong: Vec<&String> = runs.iter().flat_map(|r| &r.wrong).collect();
    let mean = runs.iter().map(|r| r.millis).sum::<f64>() / runs.len().max(1) as f64;
    let mut times: Vec<f64> = runs.iter().map(|r| r.millis).collect();
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let worst = times.last().copied().unwrap_or(0.0);
    let time = |t: f64, digits: usize| {
        if timed {
            format!("{t:.digits$}")
        } else {
            "-".into()
        }
    };
    println!(
        "{:<34} {:<7} {:>7} {:>7.2}% {:>8.2}% {:>8} {:>6} {:>9} {:>9} {:>9}",
        name,
        rules.name(),
        runs.len(),
        share(solved),
        share(logic_only),
        steps,
        wrong.len(),
        time(mean, 2),
        time(median, 2),
        time(worst, 1),
    );
    for w in wrong.iter().take(5) {
        println!("  WRONG: {w}");
    }
    wrong.len()
}
