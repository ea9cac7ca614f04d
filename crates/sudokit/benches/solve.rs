//! Solver speed against the `sudoku` crate (a JCZSolve port), single-threaded, every data file.
//!
//! `cargo bench --bench solve [-- FILTER…]` solves each puzzle file of the data folder
//! (the repository's `data/`; `SUDOKIT_DATA` overrides) with solution count up
//! to 2, as a uniqueness check, with both solvers in the same run, and prints puzzles/s, the
//! ratio and our guesses per puzzle. Each timing is the minimum over `SUDOKIT_BENCH_REPS`
//! rounds (default 5; files under 2000 puzzles get proportionally more), taken per chunk of
//! 250 puzzles, with the two solvers alternating chunk by chunk so that both see the same
//! load. Before timing, every solution is checked with `is_solution_of` and every count against
//! the crate's; `SUDOKIT_BENCH_VERIFY=1` also checks counts and unique solutions against
//! `sudokit::solver::reference` (slow on the hardest files). `SUDOKIT_BENCH_LIMIT=N` keeps
//! only the first N puzzles of each file (for profiling under valgrind).

#[path = "../tests/suite/common.rs"]
#[allow(dead_code)] // each bench uses a subset of the helpers
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use sudokit::solver;

const FILES: [&str; 6] = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "p096_sudoku.txt",
];

/// Puzzles per timed chunk.
const CHUNK: usize = 250;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let reps = env_usize("SUDOKIT_BENCH_REPS", 5).max(1);
    let limit = env_usize("SUDOKIT_BENCH_LIMIT", usize::MAX);
    let verify = std::env::var_os("SUDOKIT_BENCH_VERIFY").is_some_and(|v| v != "0");
    println!(
        "{:<34} {:>8} {:>12} {:>12} {:>7} {:>10} {:>10}",
        "file", "puzzles", "sudokit/s", "crate/s", "ratio", "guesses/p", "props/p"
    );
    for name in FILES {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let mut puzzles = common::load(name);
        puzzles.truncate(limit);
        let theirs: Vec<sudoku::Sudoku> = puzzles
            .iter()
            .map(|p| sudoku::Sudoku::from_bytes(*p.values()).expect("valid bytes"))
            .collect();

        // Correctness first, untimed.
        let mut stats = solver::Stats::default();
        for (p, t) in puzzles.iter().zip(&theirs) {
            let outcome = solver::count(p, 2);
            stats += outcome.stats;
            let expected = t.solutions_count_up_to(2);
            assert_eq!(
                outcome.count, expected,
                "count differs from the crate's on {p}"
            );
            if let Some(s) = outcome.solution {
                assert!(s.is_solution_of(p), "invalid solution {s} of {p}");
            }
            assert_eq!(outcome.solution.is_some(), outcome.count > 0);
        }
        if verify {
            // The independent reference, on every puzzle: the same count up to 2, and the
            // same solution where it is unique. On every core: the reference is slow.
            puzzles.par_iter().for_each(|p| {
                let outcome = solver::count(p, 2);
                let theirs = solver::reference::solutions(p, 2);
                assert_eq!(theirs.len(), outcome.count, "reference count on {p}");
                if outcome.count == 1 {
                    assert_eq!(
                        Some(theirs[0]),
                        outcome.solution,
                        "reference solution of {p}"
                    );
                }
            });
        }

        // Timing: the file is cut into chunks; in every round each chunk is solved by us and
        // then by the crate, and each chunk keeps its fastest time per solver. Summing the
        // per-chunk minima rejects the bursts of load of a shared machine far better than a
        // minimum over whole passes.
        let chunk = CHUNK.min(puzzles.len()).max(1);
        let chunks = puzzles.len().div_ceil(chunk);
        let mut best = vec![(Duration::MAX, Duration::MAX); chunks];
        // Small files get proportionally more rounds, so every timing covers enough work.
        let rounds = reps * (2000 / puzzles.len().max(1)).max(1);
        for _ in 0..rounds {
            for (k, (ps, ts)) in puzzles.chunks(chunk).zip(theirs.chunks(chunk)).enumerate() {
                let start = Instant::now();
                for p in ps {
                    black_box(solver::count(black_box(p), 2).count);
                }
                let ours = start.elapsed();
                let start = Instant::now();
                for t in ts {
                    black_box(black_box(*t).solutions_count_up_to(2));
                }
                let peer = start.elapsed();
                best[k].0 = best[k].0.min(ours);
                best[k].1 = best[k].1.min(peer);
            }
        }
        let ours: Duration = best.iter().map(|b| b.0).sum();
        let peer: Duration = best.iter().map(|b| b.1).sum();
        let n = puzzles.len() as f64;
        let rate = |d: Duration| n / d.as_secs_f64();
        println!(
            "{:<34} {:>8} {:>12.0} {:>12.0} {:>7.3} {:>10.2} {:>10.1}",
            name,
            puzzles.len(),
            rate(ours),
            rate(peer),
            rate(ours) / rate(peer),
            stats.guesses as f64 / n,
            stats.propagations as f64 / n,
        );
    }
    if verify {
        println!("(verified against the reference solver)");
    }
}
