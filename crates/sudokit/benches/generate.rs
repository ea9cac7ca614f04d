//! Generation throughput, single-threaded: `cargo bench -p sudokit --bench generate`.
//!
//! Times [`sudokit::generate::Generator`] making minimal unique puzzles, without symmetry and with
//! each symmetry, beside the crates.io `sudoku` crate's generator making the same kind in
//! the same run (`Sudoku::generate_with_symmetry`), in puzzles per CPU-second of this
//! thread. Every puzzle of both is checked unique with sudokit's solver after the clock
//! stops, and ours also minimal, so a fast wrong generator cannot pass.

#[path = "support/clock.rs"]
mod clock;
#[path = "../tests/suite/common.rs"]
#[allow(dead_code)] // each bench uses a subset of the helpers
mod common;

use clock::CpuClock;
use sudokit::generate::{Budget, Generator, Spec, Symmetry};
use sudokit::grid::Grid;
use sudokit::solver;
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
