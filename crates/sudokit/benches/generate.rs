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

#[path = "support/clock.rs"]
mod clock;
#[path = "../tests/suite/common.rs"]
#[allow(dead_code)] // each bench uses a subset of the helpers
mod common;

use clock::CpuClock;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use sudokit::generate::{Budget, Generator, Spec, Symmetry};
use sudokit::grid::Grid;
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
