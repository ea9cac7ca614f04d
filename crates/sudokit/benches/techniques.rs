//! Per-technique cost: how long each finder takes per call along whole solves.
//!
//! Every puzzle of the chosen files is solved step by step with the full technique set in the
//! standard order (the solver's own walk: the first technique that fires wins). Every finder
//! call is timed, so the table shows, per technique, the calls, how many found a step, total
//! milliseconds and microseconds per call — the numbers to watch when a finder is changed.
//!
//! `cargo bench --bench techniques` runs `puzzles6_forum_hardest_1106` and
//! `puzzles3_magictour_top1465`; `SUDOKIT_BENCH_FILES=a,b` picks other files and
//! `SUDOKIT_BENCH_EVERY=N` takes every Nth puzzle.

#[path = "../tests/suite/common.rs"]
#[allow(dead_code)] // each bench uses a subset of the helpers
mod common;

use std::time::Instant;

use sudokit::candidates::Candidates;
use sudokit::logic::{apply, finder, TechniqueSet};
use sudokit::solver;

fn main() {
    let every: usize = std::env::var("SUDOKIT_BENCH_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let files = std::env::var("SUDOKIT_BENCH_FILES")
        .unwrap_or_else(|_| "puzzles6_forum_hardest_1106,puzzles3_magictour_top1465".to_string());
    let set = TechniqueSet::all();
    for name in files.split(',') {
        let puzzles = common::load_every(name, every);
        let n = set.techniques().len();
        let (mut calls, mut found, mut nanos) = (vec![0u64; n], vec![0u64; n], vec![0u128; n]);
        let mut explained = 0;
        let start = Instant::now();
        for puzzle in &puzzles {
            let unique = solver::count(puzzle, 2).count == 1;
            if !unique {
                continue;
            }
            explained += 1;
            let mut cands = Candidates::new(puzzle);
            'solve: while !cands.is_solved() {
                for (i, &t) in set.techniques().iter().enumerate() {
                    let f = finder(t);
                    let t0 = Instant::now();
                    let step = f(&cands);
                    nanos[i] += t0.elapsed().as_nanos();
                    calls[i] += 1;
                    if let Some(step) = step {
                        found[i] += 1;
                        if apply(&mut cands, &step) {
                            continue 'solve;
                        }
                    }
                }
                break;
            }
        }
        println!(
            "{name}: {explained} unique puzzles explained in {:.2} s",
            start.elapsed().as_secs_f64()
        );
        println!(
            "  {:<36} {:>9} {:>7} {:>10} {:>10}",
            "technique", "calls", "found", "total ms", "us/call"
        );
        for (i, t) in set.techniques().iter().enumerate() {
            if calls[i] == 0 {
                continue;
            }
            println!(
                "  {:<36} {:>9} {:>7} {:>10.1} {:>10.2}",
                t.name(),
                calls[i],
                found[i],
                nanos[i] as f64 / 1e6,
                nanos[i] as f64 / 1e3 / calls[i] as f64
            );
        }
    }
}
