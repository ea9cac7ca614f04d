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
//!
//! `SUDOKIT_BENCH_FIRING=1` prints instead how often each technique fires on each file with
//! the default set (the tables of docs/techniques.md): every puzzle, but every 100th of the
//! 11+ list (`SUDOKIT_BENCH_EVERY=N`: every Nth of each file over 10,000 puzzles), explained
//! one at a time and every step checked as above; steps count under the technique whose
//! finder took them.

#[path = "../tests/suite/common.rs"]
#[allow(dead_code)] // each bench uses a subset of the helpers
mod common;

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use rayon::prelude::*;
use sudokit::candidates::Candidates;
use sudokit::logic::{Engine, Explanation, TechniqueSet, STANDARD_ORDER};
use sudokit::rate::{se_path, MAX_LEVEL};
use sudokit::step::{Step, Technique};
use sudokit::{solver, Grid};

/// The firing table's samples: the 11+ list's 48,766 puzzles take about half a second each,
/// so every 100th of them (488) keeps the whole table to about a quarter of an hour on one
/// core; every other file is taken whole.
const FIRING_SAMPLES: &[(&str, usize)] = &[("puzzles5_forum_hardest_1905_11+", 100)];

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

/// The engine `sudokit explain` runs: every technique, the puzzle known to have one solution.
fn default_engine() -> Engine {
    Engine::new(TechniqueSet::all()).unique(true)
}

fn explain(rules: Rules, puzzle: &Grid, solution: &Grid) -> Run {
    let start = Instant::now();
    let explanation: Explanation = match rules {
        Rules::Default => default_engine().explain(puzzle),
        Rules::Se => se_path(&Candidates::new(puzzle), MAX_LEVEL).explanation,
    };
    let millis = start.elapsed().as_secs_f64() * 1e3;
    let steps = &explanation.steps;
    Run {
        solved: reaches(&explanation, solution),
        trial: steps.iter().any(|s| s.technique == Technique::Trial),
        steps: steps.len(),
        wrong: wrong_steps(puzzle, solution, steps),
        millis,
    }
}

/// The steps that place a digit other than the solution's or remove the solution's digit.
fn wrong_steps(puzzle: &Grid, solution: &Grid, steps: &[Step]) -> Vec<String> {
    let truth = |c| solution.get(c);
    steps
        .iter()
        .filter(|step| {
            step.placements.iter().any(|&(c, d)| truth(c) != Some(d))
                || step.eliminations.iter().any(|&(c, d)| truth(c) == Some(d))
        })
        .map(|step| format!("{puzzle}: {step}"))
        .collect()
}

/// Whether the explanation filled the grid with the solution.
fn reaches(explanation: &Explanation, solution: &Grid) -> bool {
    explanation.solved && explanation.final_state.grid() == solution
}

fn main() {
    let every: Option<usize> = std::env::var("SUDOKIT_BENCH_EVERY")
        .ok()
        .and_then(|v| v.parse().ok());
    let se_every: Option<usize> = std::env::var("SUDOKIT_BENCH_SE_EVERY")
        .ok()
        .and_then(|v| v.parse().ok());
    let only = std::env::var("SUDOKIT_BENCH_FILES").ok();
    let selected = |name: &str| {
        only.as_deref()
            .map_or(true, |o| o.split(',').any(|f| f == name))
    };
    if std::env::var_os("SUDOKIT_BENCH_FIRING").is_some() {
        let files: Vec<(&str, usize)> = FILES
            .iter()
            .copied()
            .filter(|n| selected(n))
            .map(|name| {
                let sample = FIRING_SAMPLES.iter().find(|(n, _)| *n == name);
                (name, every.or(sample.map(|s| s.1)).unwrap_or(1))
            })
            .collect();
        firing(&files);
        return;
    }
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
        if !selected(name) {
            continue;
        }
        let (unique, _) = unique_puzzles(name, every.unwrap_or(1));
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

/// The puzzles of a data file with exactly one solution, with it, and whether they are a
/// sample: files over 10,000 puzzles keep every `every`th from the first.
fn unique_puzzles(name: &str, every: usize) -> (Vec<(Grid, Grid)>, bool) {
    let mut puzzles = common::load(name);
    let sampled = puzzles.len() > 10_000 && every > 1;
    if sampled {
        puzzles = puzzles.into_iter().step_by(every).collect();
    }
    let unique = puzzles
        .par_iter()
        .filter_map(|p| {
            let o = solver::count(p, 2);
            (o.count == 1).then_some((*p, o.solution?))
        })
        .collect();
    (unique, sampled)
}

/// What one technique did over a collection's explanations.
#[derive(Clone, Copy, Default)]
struct Firing {
    steps: usize,
    puzzles: usize,
    eliminations: usize,
    placements: usize,
}

impl Firing {
    /// The first table's cell: `steps (puzzles)`.
    fn steps(&self) -> String {
        format!("{} ({})", self.steps, self.puzzles)
    }

    /// The second table's cell: `eliminations / placements`.
    fn changes(&self) -> String {
        format!("{} / {}", self.eliminations, self.placements)
    }
}

/// The technique whose finder took a step of the default engine. Nested Forcing Chains names
/// its steps by HoDoKu's closest technique (Forcing Chain or Net, Contradiction or Verity)
/// and is the one finder of that engine that keeps Sudoku Explainer's label on them, so a
/// labelled step is counted as its: otherwise the finder would seem never to fire, and the
/// forcing chains and nets after Trial to fire where they never run.
fn finder_of(step: &Step) -> Technique {
    if step.se.is_some() {
        Technique::NestedForcingChains
    } else {
        step.technique
    }
}

/// Per technique, what it did over one collection.
type Counts = HashMap<Technique, Firing>;

/// The firing table: explains every puzzle of each file (every `every`th of files over
/// 10,000 puzzles) with the default set, one puzzle at a time, checks every step against the
/// solution, and prints per technique, in the standard order, its steps and the puzzles it
/// fired in, then the candidates it removed and the cells it placed, one column per file.
fn firing(files: &[(&str, usize)]) {
    let mut columns: Vec<(String, Counts)> = Vec::new();
    let (mut all_wrong, mut all_unsolved) = (0, 0);
    for &(name, every) in files {
        let start = Instant::now();
        let (unique, sampled) = unique_puzzles(name, every);
        let mut counts = Counts::new();
        let mut steps = 0;
        for (puzzle, solution) in &unique {
            let explanation = default_engine().explain(puzzle);
            let wrong = wrong_steps(puzzle, solution, &explanation.steps);
            for w in wrong.iter().take(5) {
                println!("  WRONG: {w}");
            }
            all_wrong += wrong.len();
            all_unsolved += usize::from(!reaches(&explanation, solution));
            steps += explanation.steps.len();
            let mut fired = HashSet::new();
            for step in &explanation.steps {
                let rule = finder_of(step);
                let count = counts.entry(rule).or_default();
                count.steps += 1;
                count.eliminations += step.eliminations.len();
                count.placements += step.placements.len();
                if fired.insert(rule) {
                    count.puzzles += 1;
                }
            }
        }
        let sample = if sampled {
            format!(", every {every}th")
        } else {
            String::new()
        };
        println!(
            "{name}{sample}: {} puzzles, {steps} steps, {:.1} s",
            unique.len(),
            start.elapsed().as_secs_f64()
        );
        columns.push((format!("{name}{sample} ({})", unique.len()), counts));
    }
    let tables = [
        (
            "technique: steps (puzzles)",
            Firing::steps as fn(&Firing) -> String,
        ),
        ("technique: eliminations / placements", Firing::changes),
    ];
    let names: Vec<&str> = columns.iter().map(|(n, _)| n.as_str()).collect();
    for (title, text) in tables {
        println!("\n| {title} | {} |", names.join(" | "));
        println!("|---|{}", "---:|".repeat(names.len()));
        for technique in STANDARD_ORDER {
            let cells: Vec<String> = columns
                .iter()
                .map(|(_, c)| c.get(technique).map_or_else(|| "0".to_string(), text))
                .collect();
            println!("| {} | {} |", technique.name(), cells.join(" | "));
        }
    }
    assert_eq!(all_wrong, 0, "logic steps contradicted the solution");
    assert_eq!(
        all_unsolved, 0,
        "some unique puzzles were not explained to the end"
    );
}
