//! Speed of the logic engine: explaining whole solves, technique set `all` (standard plus
//! the trial last resort), single-threaded.
//!
//! `cargo bench --bench explain [-- FILTER…]` explains every unique puzzle of each data file
//! (`SUDOKIT_DATA`, default `../shared/data`), or every `SUDOKIT_BENCH_EVERY`-th one, and
//! prints the mean and worst milliseconds per puzzle, the share of puzzles finished without
//! a trial step, and how often each technique was used. Every step is checked against the
//! exact solver's solution first, so a wrong step stops the run.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::time::Instant;

use sudokit::logic::{Solver, TechniqueSet};
use sudokit::parse::records;
use sudokit::solver;
use sudokit::step::Technique;

const FILES: [&str; 7] = [
    "puzzles6_forum_hardest_1106",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles2_17_clue",
    "p096_sudoku.txt",
    "inkala_2012.txt",
    "inkala_2006.txt",
];

fn data_dir() -> PathBuf {
    std::env::var_os("SUDOKIT_DATA").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")),
        PathBuf::from,
    )
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let every: usize = std::env::var("SUDOKIT_BENCH_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
        .max(1);
    let dir = data_dir();
    assert!(
        dir.is_dir(),
        "data folder {} not found: set SUDOKIT_DATA",
        dir.display()
    );
    let solver = Solver::new(TechniqueSet::all()).unique(true);
    for name in FILES {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let file = File::open(dir.join(name)).expect("data file");
        let puzzles: Vec<_> = records(BufReader::new(file))
            .filter_map(|r| r.ok()?.puzzle.ok())
            .step_by(every)
            .collect();
        let mut times = Vec::new();
        let mut without_trial = 0;
        let mut used: BTreeMap<Technique, usize> = BTreeMap::new();
        let mut worst = (0.0, String::new());
        for p in &puzzles {
            let outcome = solver::count(p, 2);
            if outcome.count != 1 {
                continue;
            }
            let solution = outcome.solution.expect("unique");
            let start = Instant::now();
            let e = solver.explain(p);
            let ms = start.elapsed().as_secs_f64() * 1e3;
            assert!(e.solved, "{p}: not solved");
            for s in &e.steps {
                for &(c, d) in &s.placements {
                    assert_eq!(solution.get(c), Some(d), "{p}: {s}");
                }
                for &(c, d) in &s.eliminations {
                    assert_ne!(solution.get(c), Some(d), "{p}: {s}");
                }
                *used.entry(s.technique).or_insert(0) += 1;
            }
            if e.steps.iter().all(|s| s.technique != Technique::Trial) {
                without_trial += 1;
            }
            if ms > worst.0 {
                worst = (ms, p.to_string());
            }
            times.push(ms);
        }
        let n = times.len().max(1) as f64;
        let mean = times.iter().sum::<f64>() / n;
        println!(
            "{name}: {} puzzles, mean {mean:.2} ms, worst {:.1} ms ({}), solved without trial {:.1}%",
            times.len(),
            worst.0,
            worst.1,
            100.0 * without_trial as f64 / n
        );
        let mut list: Vec<_> = used.into_iter().collect();
        list.sort_by_key(|&(t, _)| t);
        let text: Vec<String> = list.iter().map(|(t, k)| format!("{t} {k}")).collect();
        println!("  steps: {}", text.join(", "));
    }
}
