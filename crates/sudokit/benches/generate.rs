//! Generation throughput, single-threaded: `cargo bench -p sudokit --bench generate`.
//!
//! Times [`sudokit::generate::Generator`] making minimal unique puzzles, without symmetry and with
//! each symmetry, beside the crates.io `sudoku` crate's generator making the same kind in
//! the same run (`Sudoku::generate_with_symmetry`), in puzzles per CPU-second of this
//! thread. Every puzzle of both is checked unique with sudokit's solver after the clock
//! stops, and ours also minimal, so a fast wrong generator cannot pass.
//!
//! `-- targets` (also run by default) times the targets that are not about shape: ER ranges
//! from scratch on both cores, and for every technique a puzzle whose solve uses it and a
//! practice position whose next step it is (median seconds per puzzle, 20 s at most each).
//! `-- speed` runs only the comparison; technique names (`-- targets remote-pair jellyfish`)
//! time only those techniques.
//!
//! `-- grids` (not run by default: a few minutes on both cores) measures how far the grid
//! draw is from uniform by counting completions of boxes on a diagonal of boxes.

#[path = "support/clock.rs"]
mod clock;
#[path = "../tests/suite/common.rs"]
#[allow(dead_code)] // each bench uses a subset of the helpers
mod common;

use clock::CpuClock;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use sudokit::generate::{Budget, Generator, Spec, Symmetry};
use sudokit::grid::{Cell, Grid};
use sudokit::logic::TechniqueSet;
use sudokit::rate::Tenths;
use sudokit::solver;
use sudokit::step::Technique;
use sudoku::board::Symmetry as CrateSymmetry;
use sudoku::Sudoku;

/// Puzzles of ours per round, and of the crate's (slower, so fewer); rounds alternate the
/// two, so that the machine's changes of speed fall on both alike.
const OURS: u64 = 4_000;
const THEIRS: usize = 1_000;
const ROUNDS: u64 = 5;

/// Our puzzles made in round `round`, and the CPU seconds they took.
fn ours(generator: &Generator, round: u64) -> (f64, Vec<Grid>) {
    let clock = CpuClock::start();
    let made: Vec<Grid> = (round * OURS..(round + 1) * OURS)
        .map(|i| {
            generator
                .generate(2026, i, &Budget::attempts(1))
                .expect("one attempt suffices without a target")
                .puzzle
        })
        .collect();
    (clock.seconds(), made)
}

/// The crate's puzzles of one round, and the CPU seconds they took.
fn theirs(symmetry: CrateSymmetry) -> (f64, Vec<Grid>) {
    let clock = CpuClock::start();
    let made: Vec<[u8; 81]> = (0..THEIRS)
        .map(|_| Sudoku::generate_with_symmetry(symmetry).to_bytes())
        .collect();
    let seconds = clock.seconds();
    let grids = made
        .into_iter()
        .map(|bytes| Grid::from_values(bytes).expect("the crate's puzzles are grids"))
        .collect();
    (seconds, grids)
}

/// Checks every puzzle unique (and, for ours, minimal) and returns the mean clue count.
fn check(puzzles: &[Grid], minimal: bool) -> f64 {
    let mut clues = 0;
    for p in puzzles {
        assert_eq!(solver::count(p, 2).count, 1, "not unique: {p}");
        clues += p.filled();
        if minimal {
            for cell in sudokit::Cell::all().filter(|&c| p.get(c).is_some()) {
                let mut less = *p;
                less.set(cell, None);
                assert_eq!(solver::count(&less, 2).count, 2, "not minimal: {p}");
            }
        }
    }
    clues as f64 / puzzles.len() as f64
}

fn main() {
    let (named, sections): (Vec<String>, Vec<String>) = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .partition(|a| Technique::from_name(a).is_some());
    let wants = |name: &str| sections.is_empty() || sections.iter().any(|s| s == name);
    if wants("speed") {
        speed();
    }
    if sections.iter().any(|s| s == "grids") {
        grids();
    }
    if wants("targets") {
        let named: Vec<Technique> = named
            .iter()
            .filter_map(|a| Technique::from_name(a))
            .collect();
        targets(&named);
    }
}

/// Seconds per puzzle for the targets that are not about shape: rating ranges on both
/// cores, and every technique (or those `named`) as a required step and as a practice
/// position on one.
fn targets(named: &[Technique]) {
    println!("\ntargets: puzzles made, seconds per puzzle (median over {PER_TARGET}, {TARGET_SECONDS} s at most each)");
    let spec = |f: &dyn Fn(&mut Spec)| {
        let mut spec = Spec::default();
        f(&mut spec);
        Generator::new(spec).expect("a possible target")
    };
    let ratings: &[(&str, Tenths)] = if named.is_empty() {
        &[("ER >= 9.0", Tenths(90)), ("ER >= 10.0", Tenths(100))]
    } else {
        &[]
    };
    for &(name, er) in ratings {
        let generator = spec(&|s| s.er = Some((er, Tenths(u16::MAX))));
        let (made, median) = median_time(&generator, true);
        println!("{name:<44} {made:>3} {median}");
    }
    let all = TechniqueSet::all();
    let techniques = all
        .techniques()
        .iter()
        .copied()
        .filter(|t| named.is_empty() || named.contains(t));
    for technique in techniques {
        let Ok(uses) = Generator::new(Spec {
            techniques: vec![technique],
            ..Spec::default()
        }) else {
            println!("{:<44} never a step", technique.name());
            continue;
        };
        for (kind, generator) in [
            ("uses", uses),
            ("practice", spec(&|s| s.practice = Some(technique))),
        ] {
            let (made, median) = median_time(&generator, false);
            println!(
                "{:<44} {made:>3} {median}",
                format!("{kind} {}", technique.name())
            );
        }
    }
}

/// Puzzles wanted per target, and the time allowed for them.
const PER_TARGET: usize = 5;
const TARGET_SECONDS: u64 = 20;

/// How many puzzles `generator` made (up to [`PER_TARGET`] within [`TARGET_SECONDS`]) and
/// the median seconds each took, on both cores when `parallel`.
fn median_time(generator: &Generator, parallel: bool) -> (usize, String) {
    let deadline = Instant::now() + Duration::from_secs(TARGET_SECONDS);
    let budget = Budget {
        attempts: u64::MAX,
        deadline: Some(deadline),
    };
    let time = |i: u64| {
        let t = Instant::now();
        generator
            .generate(7, i, &budget)
            .ok()
            .map(|_| t.elapsed().as_secs_f64())
    };
    let mut times: Vec<f64> = if parallel {
        (0..PER_TARGET as u64)
            .into_par_iter()
            .filter_map(time)
            .collect()
    } else {
        (0..PER_TARGET as u64).map_while(time).collect()
    };
    times.sort_by(f64::total_cmp);
    let median = match times.len() {
        0 => "-".to_string(),
        n => format!("{:.3}", times[n / 2]),
    };
    (times.len(), median)
}

/// Minimal puzzles per CPU-second next to the crate's.
fn speed() {
    println!("minimal unique puzzles, one thread, puzzles per CPU-second");
    println!(
        "{:<14} {:>10} {:>8} {:>10} {:>8} {:>7}",
        "symmetry", "sudokit", "clues", "crate", "clues", "ratio"
    );
    let pairs = [
        (Symmetry::None, Some(CrateSymmetry::None)),
        (Symmetry::Rot180, Some(CrateSymmetry::HalfRotation)),
        (Symmetry::Rot90, Some(CrateSymmetry::QuarterRotation)),
        (Symmetry::Vertical, Some(CrateSymmetry::VerticalMirror)),
        (Symmetry::Diagonal, Some(CrateSymmetry::DiagonalMirror)),
        (
            Symmetry::Orthogonal,
            Some(CrateSymmetry::VerticalAndHorizontalMirror),
        ),
        (Symmetry::Bidiagonal, Some(CrateSymmetry::BidiagonalMirror)),
        (Symmetry::Dihedral, None),
    ];
    for (symmetry, crate_symmetry) in pairs {
        let generator = Generator::new(Spec {
            symmetry,
            ..Spec::default()
        })
        .expect("every symmetry can be generated");
        let (mut our_time, mut our_made) = (0.0, Vec::new());
        let (mut their_time, mut their_made) = (0.0, Vec::new());
        for round in 0..ROUNDS {
            let (seconds, made) = ours(&generator, round);
            our_time += seconds;
            our_made.extend(made);
            if let Some(s) = crate_symmetry {
                let (seconds, made) = theirs(s);
                their_time += seconds;
                their_made.extend(made);
            }
        }
        let rate = our_made.len() as f64 / our_time;
        let clues = check(&our_made, symmetry == Symmetry::None);
        if their_made.is_empty() {
            println!(
                "{:<14} {rate:>10.0} {clues:>8.2} {:>10} {:>8} {:>7}",
                symmetry.name(),
                "-",
                "-",
                "-"
            );
        } else {
            let their_rate = their_made.len() as f64 / their_time;
            let their_clues = check(&their_made, false);
            println!(
                "{:<14} {rate:>10.0} {clues:>8.2} {their_rate:>10.0} {their_clues:>8.2} {:>6.2}x",
                symmetry.name(),
                rate / their_rate
            );
        }
    }
}

/// Grids (and box triples) the uniformity measure counts completions of.
const GRID_SAMPLES: u64 = 300;

/// The six transversals of the 3 × 3 array of boxes: for each band, the stack of its box;
/// the main diagonal first.
fn transversals() -> [[usize; 3]; 6] {
    let mut all = [[0; 3]; 6];
    let orders = (0..3).flat_map(|a| {
        (0..3)
            .filter(move |&b| b != a)
            .map(move |b| [a, b, 3 - a - b])
    });
    for (slot, order) in all.iter_mut().zip(orders) {
        *slot = order;
    }
    all
}

/// How many grids agree with `grid` on its boxes of the transversal `stacks`.
fn completions(grid: &Grid, stacks: [usize; 3]) -> f64 {
    let mut boxes = Grid::default();
    for cell in Cell::all().filter(|c| stacks[c.row() / 3] == c.col() / 3) {
        boxes.set(cell, grid.get(cell));
    }
    solver::count(&boxes, usize::MAX).count as f64
}

/// Boxes 1, 5 and 9 filled with independent uniform permutations (SplitMix64 from `i`).
fn uniform_triple(i: u64) -> Grid {
    let mut state = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5eed;
    let mut next = |n: usize| {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (((z ^ (z >> 31)) as u128 * n as u128) >> 64) as usize
    };
    let mut values = [0u8; 81];
    for b in [0, 4, 8] {
        let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        for k in (1..9).rev() {
            digits.swap(k, next(k + 1));
        }
        for (k, &d) in digits.iter().enumerate() {
            values[9 * (b / 3 * 3 + k / 3) + b % 3 * 3 + k % 3] = d;
        }
    }
    Grid::from_values(values).expect("digits 1-9")
}

/// Mean, and standard deviation over the mean.
fn spread(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let variance = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, variance.sqrt() / mean)
}

/// How far the grid draw is from uniform, in total variation (TV), assuming the solver's
/// completion of the drawn boxes is uniform among their completions (a unit test checks
/// the bottom band given the rest).
///
/// A uniform grid's boxes 1, 5 and 9 are a triple drawn in proportion to its completions
/// `c`; drawing triples uniformly gives each grid a probability proportional to `1 / c`,
/// TV `E|c / mean - 1| / 2` over uniform triples. Our draw then maps the grid by a random
/// band and stack order, which puts any of the six transversals of boxes on the diagonal:
/// a grid's probability is proportional to `h`, the mean of `1 / c` over its transversals,
/// and over grids of our draw TV is `E|1 - H / h| / 2`, with `H = 1 / E[1 / h]`.
fn grids() {
    println!("\ngrid draw against uniform: completions of a transversal of boxes, {GRID_SAMPLES} samples");
    let clock = Instant::now();
    let triples: Vec<f64> = (0..GRID_SAMPLES)
        .into_par_iter()
        .map(|i| completions(&uniform_triple(i), [0, 1, 2]))
        .collect();
    let (mean, cv) = spread(&triples);
    let (low, high) = triples
        .iter()
        .fold((f64::MAX, 0.0f64), |(l, h), &c| (l.min(c), h.max(c)));
    let second = triples.iter().map(|c| c * c).sum::<f64>() / triples.len() as f64 / mean;
    let raw_tv =
        triples.iter().map(|c| (c / mean - 1.0).abs()).sum::<f64>() / triples.len() as f64 / 2.0;
    println!(
        "uniform triples: mean {mean:.0} completions, sd/mean {cv:.3}, min {low:.0}, max {high:.0}"
    );
    println!(
        "a uniform grid's diagonal triple: {second:.0} on average; TV of drawing triples uniformly {raw_tv:.4}"
    );
    let generator = Generator::new(Spec::default()).expect("the default spec");
    let per_grid: Vec<[f64; 6]> = (0..GRID_SAMPLES)
        .into_par_iter()
        .map(|i| {
            let grid = generator
                .generate(2026, i, &Budget::attempts(1))
                .expect("one attempt suffices without a target")
                .solution;
            transversals().map(|t| completions(&grid, t))
        })
        .collect();
    let diagonal: Vec<f64> = per_grid.iter().map(|c| c[0]).collect();
    let all: Vec<f64> = per_grid.iter().flatten().copied().collect();
    let h: Vec<f64> = per_grid
        .iter()
        .map(|c| c.iter().map(|x| 1.0 / x).sum::<f64>() / 6.0)
        .collect();
    let big_h = h.len() as f64 / h.iter().map(|x| 1.0 / x).sum::<f64>();
    let tv = h.iter().map(|x| (1.0 - big_h / x).abs()).sum::<f64>() / h.len() as f64 / 2.0;
    println!(
        "our grids: diagonal triple {:.0} completions on average (all transversals {:.0}); TV {tv:.4}; {:.0} s",
        spread(&diagonal).0,
        spread(&all).0,
        clock.elapsed().as_secs_f64()
    );
}
