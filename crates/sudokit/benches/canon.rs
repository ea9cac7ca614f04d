//! Canonical-form throughput, single-threaded: `cargo bench -p sudokit --bench canon`.
//!
//! Prints forms per CPU-second of [`sudokit::canon::canonicalize`] on the 17-clue and
//! forum-hardest collections, on dense partial grids (50–80 clues) and on full grids, the
//! slowest single input of each set, and the exhaustive reference (brute force over all
//! 3,359,232 transformations) on a sample for scale. Full grids are the solutions of the
//! 17-clue puzzles (found by the crate's solver before timing starts) and grids filled at
//! random by a small backtracking filler; dense grids are random clue subsets of the latter.
//! The puzzles are the repository's `data/` (`SUDOKIT_DATA` overrides).

#[path = "support/clock.rs"]
mod clock;
#[path = "../tests/suite/common.rs"]
#[allow(dead_code)] // each bench uses a subset of the helpers
mod common;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use clock::CpuClock;
use common::{load, random_full, random_puzzle, Rng};
use sudokit::canon::{canonicalize, minlex_reference};
use sudokit::grid::Grid;
use sudokit::solver;

/// Forms per CPU-second and per wall-clock second, the slowest input's time (best of five
/// reruns, to drop preemptions), and the number of distinct forms.
fn measure(grids: &[Grid]) -> (f64, f64, Duration, usize) {
    let mut forms = HashSet::with_capacity(grids.len());
    let (mut slowest, mut slowest_at) = (Duration::ZERO, 0);
    let clock = CpuClock::start();
    for (i, g) in grids.iter().enumerate() {
        let t = Instant::now();
        let form = canonicalize(g).grid;
        let took = t.elapsed();
        if took > slowest {
            (slowest, slowest_at) = (took, i);
        }
        forms.insert(form);
    }
    let per_sec = grids.len() as f64 / clock.seconds();
    let per_wall_sec = grids.len() as f64 / clock.wall.elapsed().as_secs_f64();
    let rerun = (0..5)
        .map(|_| {
            let t = Instant::now();
            canonicalize(&grids[slowest_at]);
            t.elapsed()
        })
        .min()
        .unwrap_or(slowest);
    (per_sec, per_wall_sec, rerun, forms.len())
}

fn main() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let full: Vec<Grid> = (0..5000).map(|_| random_full(&mut rng)).collect();
    let dense: Vec<Grid> = full
        .iter()
        .map(|g| {
            let clues = 50 + rng.below(31);
            random_puzzle(&mut rng, g, clues)
        })
        .collect();
    let seventeen = load("puzzles2_17_clue");
    let solutions: Vec<Grid> = seventeen.iter().filter_map(solver::solve).collect();
    assert_eq!(
        solutions.len(),
        seventeen.len(),
        "every 17-clue puzzle solves"
    );
    let sets = [
        ("puzzles2_17_clue", seventeen.clone()),
        (
            "puzzles5_forum_hardest_1905_11+",
            load("puzzles5_forum_hardest_1905_11+"),
        ),
        ("random dense grids, 50-80 clues", dense),
        ("solutions of puzzles2_17_clue", solutions),
        ("random full grids", full),
    ];
    println!("| input | count | distinct forms | forms per CPU-second (1 thread) | per wall second | slowest input |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut fast_17 = 0.0;
    for (name, grids) in &sets {
        let (per_sec, per_wall_sec, slowest, distinct) = measure(grids);
        if *name == "puzzles2_17_clue" {
            fast_17 = per_sec;
        }
        println!(
            "| {name} | {} | {distinct} | {per_sec:.0} | {per_wall_sec:.0} | {:.1} µs |",
            grids.len(),
            slowest.as_secs_f64() * 1e6
        );
    }
    let sample: Vec<Grid> = seventeen.into_iter().step_by(2500).collect();
    let clock = CpuClock::start();
    for g in &sample {
        minlex_reference(g);
    }
    let per_sec = sample.len() as f64 / clock.seconds();
    println!(
        "| puzzles2_17_clue sample, exhaustive reference | {} | | {per_sec:.1} | | |",
        sample.len()
    );
    println!(
        "\nfast / exhaustive on 17-clue puzzles: {:.0}x",
        fast_17 / per_sec
    );
}
