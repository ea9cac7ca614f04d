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
//!
//! `SUDOKIT_BENCH_BIN=target/release/sudokit` also times the whole `sudokit solve --threads 1`
//! process on the 17-clue and 11+ lists (reading, solving, writing to /dev/null, start-up
//! included), each run alternating with the crate solving the same file in-process, and
//! prints the ratio and the share of the process that the in-process solve accounts for.
//!
//! A last row, `hardest-for-search`, takes the 1,000 puzzles of all the files on which the
//! crate spends longest (the puzzles hardest for search; the crate counts no guesses, so its
//! time stands for them) and times them like a file.
//!
//! `SUDOKIT_PEER_TDOKU=path/to/libtdoku.so` adds tdoku, built outside the repository from its
//! public source (`g++ -O3 -march=native -shared -fpic src/solver_dpll_triad_simd.cc
//! src/util.cc`), as a third solver in the same alternation: its puzzles/s, our ratio to it
//! and its guesses per puzzle. Its counts are checked against ours before timing.

#[path = "../tests/suite/common.rs"]
#[allow(dead_code)] // each bench uses a subset of the helpers
mod common;

use std::hint::black_box;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use libloading::{Library, Symbol};
use rayon::prelude::*;
use sudokit::grid::Grid;
use sudokit::solver;

const FILES: [&str; 6] = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "p096_sudoku.txt",
];

/// The lists timed as whole processes, as the issue of record asks.
const PROCESS_FILES: [&str; 2] = ["puzzles2_17_clue", "puzzles5_forum_hardest_1905_11+"];

/// The fastest of `rounds` whole `sudokit solve --threads 1` runs on `path`, each followed
/// by the crate and by our solver solving the file in-process, timed the same way (the
/// whole file at once); returns the three minima.
fn time_process(
    bin: &Path,
    path: &Path,
    puzzles: &[Grid],
    theirs: &[sudoku::Sudoku],
    rounds: usize,
) -> [Duration; 3] {
    let (mut process, mut peer, mut ours) = (Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        let start = Instant::now();
        let status = Command::new(bin)
            .args(["solve", "--threads", "1"])
            .arg(path)
            .stdout(Stdio::null())
            .status()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
        process = process.min(start.elapsed());
        assert!(
            status.success(),
            "{} failed on {}",
            bin.display(),
            path.display()
        );
        let start = Instant::now();
        for t in theirs {
            black_box(black_box(*t).solutions_count_up_to(2));
        }
        peer = peer.min(start.elapsed());
        let start = Instant::now();
        for p in puzzles {
            black_box(solver::count(black_box(p), 2).count);
        }
        ours = ours.min(start.elapsed());
    }
    [process, peer, ours]
}

/// Puzzles per timed chunk.
const CHUNK: usize = 250;

/// tdoku's entry point: puzzle text, solution limit, configuration, solution out, guesses out.
type TdokuSolve = unsafe extern "C" fn(*const u8, usize, u32, *mut u8, *mut usize) -> usize;

/// tdoku, loaded from the shared library the environment names.
struct Tdoku {
    // Keeps the library mapped for as long as `solve` may be called.
    _library: Library,
    solve: TdokuSolve,
}

impl Tdoku {
    fn load(path: &std::ffi::OsStr) -> Tdoku {
        // SAFETY: loading runs the library's initialisers; tdoku's are the C++ runtime's.
        let library = unsafe { Library::new(path) }
            .unwrap_or_else(|e| panic!("cannot load tdoku from {path:?}: {e}"));
        // SAFETY: the symbol has the signature of tdoku.h's `TdokuSolverDpllTriadSimd`.
        let solve = unsafe {
            let symbol: Symbol<TdokuSolve> = library
                .get(b"TdokuSolverDpllTriadSimd")
                .expect("tdoku's library exports TdokuSolverDpllTriadSimd");
            *symbol
        };
        Tdoku {
            _library: library,
            solve,
        }
    }

    /// The puzzle as tdoku reads it: 81 characters, `.` for empty, then a NUL (which tells
    /// it the input is not a 729-character pencil-mark grid).
    fn text(puzzle: &Grid) -> [u8; 82] {
        let mut text = [0u8; 82];
        for (t, &v) in text.iter_mut().zip(puzzle.values()) {
            *t = if v == 0 { b'.' } else { b'0' + v };
        }
        text
    }

    /// Solutions up to `limit`, and the guesses it took.
    fn count(&self, text: &[u8; 82], limit: usize) -> (usize, usize) {
        let mut solution = [0u8; 81];
        let mut guesses = 0usize;
        // SAFETY: `text` is NUL-terminated after 81 characters and `solution` has room for
        // the 81 characters tdoku writes; it keeps neither pointer.
        let count =
            unsafe { (self.solve)(text.as_ptr(), limit, 0, solution.as_mut_ptr(), &mut guesses) };
        (count, guesses)
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What every measured set shares: rounds, whether to check against the reference, tdoku.
struct Options {
    reps: usize,
    verify: bool,
    tdoku: Option<Tdoku>,
}

/// A puzzle as the crate takes it.
fn crate_form(puzzle: &Grid) -> sudoku::Sudoku {
    sudoku::Sudoku::from_bytes(*puzzle.values()).expect("valid bytes")
}

/// Checks, times and prints one set of puzzles (`theirs`: the same in the crate's form).
fn measure(label: &str, puzzles: &[Grid], theirs: &[sudoku::Sudoku], options: &Options) {
    let Options {
        reps,
        verify,
        ref tdoku,
    } = *options;

    // Correctness first, untimed.
    let mut stats = solver::Stats::default();
    for (p, t) in puzzles.iter().zip(theirs) {
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
    let texts: Vec<[u8; 82]> = puzzles.iter().map(Tdoku::text).collect();
    let mut tdoku_guesses = 0;
    if let Some(tdoku) = tdoku {
        for (p, text) in puzzles.iter().zip(&texts) {
            let (count, guesses) = tdoku.count(text, 2);
            assert_eq!(count, solver::count(p, 2).count, "tdoku's count on {p}");
            tdoku_guesses += guesses;
        }
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

    // Timing: the set is cut into chunks; in every round each chunk is solved by us and
    // then by the crate (and tdoku), and each chunk keeps its fastest time per solver.
    // Summing the per-chunk minima rejects the bursts of load of a shared machine far
    // better than a minimum over whole passes.
    let chunk = CHUNK.min(puzzles.len()).max(1);
    let chunks = puzzles.len().div_ceil(chunk);
    let mut best = vec![(Duration::MAX, Duration::MAX, Duration::MAX); chunks];
    // Small sets get proportionally more rounds, so every timing covers enough work.
    let rounds = reps * (2000 / puzzles.len().max(1)).max(1);
    for _ in 0..rounds {
        let chunked = puzzles.chunks(chunk).zip(theirs.chunks(chunk));
        for (k, ((ps, ts), xs)) in chunked.zip(texts.chunks(chunk)).enumerate() {
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
            if let Some(tdoku) = tdoku {
                let start = Instant::now();
                for x in xs {
                    black_box(tdoku.count(black_box(x), 2));
                }
                best[k].2 = best[k].2.min(start.elapsed());
            }
        }
    }
    let ours: Duration = best.iter().map(|b| b.0).sum();
    let peer: Duration = best.iter().map(|b| b.1).sum();
    let n = puzzles.len() as f64;
    let rate = |d: Duration| n / d.as_secs_f64();
    print!(
        "{:<34} {:>8} {:>12.0} {:>12.0} {:>7.3} {:>10.2} {:>10.1}",
        label,
        puzzles.len(),
        rate(ours),
        rate(peer),
        rate(ours) / rate(peer),
        stats.guesses as f64 / n,
        stats.propagations as f64 / n,
    );
    if tdoku.is_some() {
        let theirs: Duration = best.iter().map(|b| b.2).sum();
        print!(
            " {:>12.0} {:>7.3} {:>10.2}",
            rate(theirs),
            rate(ours) / rate(theirs),
            tdoku_guesses as f64 / n
        );
    }
    println!();
}

/// The puzzles hardest for search, as the issue of record defines them: those of all the
/// files on which the crate spends longest (the crate reports no guess count; its time per
/// puzzle, the fastest of three, stands for it). Duplicates are kept once.
fn hardest_for_search(sets: &[Vec<Grid>], count: usize) -> Vec<Grid> {
    let mut timed: Vec<(Duration, Grid)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for p in sets.iter().flatten() {
        if !seen.insert(*p) {
            continue;
        }
        let theirs = crate_form(p);
        let time = (0..3)
            .map(|_| {
                let start = Instant::now();
                black_box(black_box(theirs).solutions_count_up_to(2));
                start.elapsed()
            })
            .min()
            .unwrap_or_default();
        timed.push((time, *p));
    }
    timed.sort_by_key(|t| std::cmp::Reverse(t.0));
    timed.into_iter().take(count).map(|(_, p)| p).collect()
}

/// The size of the hardest-for-search set.
const HARDEST: usize = 1000;

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted =
        |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()));
    let limit = env_usize("SUDOKIT_BENCH_LIMIT", usize::MAX);
    let options = Options {
        reps: env_usize("SUDOKIT_BENCH_REPS", 5).max(1),
        verify: std::env::var_os("SUDOKIT_BENCH_VERIFY").is_some_and(|v| v != "0"),
        tdoku: std::env::var_os("SUDOKIT_PEER_TDOKU").map(|path| Tdoku::load(&path)),
    };
    let bin = std::env::var_os("SUDOKIT_BENCH_BIN").map(std::path::PathBuf::from);
    let mut processes = Vec::new();
    print!(
        "{:<34} {:>8} {:>12} {:>12} {:>7} {:>10} {:>10}",
        "file", "puzzles", "sudokit/s", "crate/s", "ratio", "guesses/p", "props/p"
    );
    if options.tdoku.is_some() {
        print!(" {:>12} {:>7} {:>10}", "tdoku/s", "/tdoku", "its g/p");
    }
    println!();
    let search = "hardest-for-search";
    let mut all = Vec::new();
    for name in FILES {
        if !wanted(name) && !wanted(search) {
            continue;
        }
        let mut puzzles = common::load(name);
        puzzles.truncate(limit);
        if wanted(name) {
            let theirs: Vec<sudoku::Sudoku> = puzzles.iter().map(crate_form).collect();
            measure(name, &puzzles, &theirs, &options);
            if let Some(bin) = bin.as_deref().filter(|_| PROCESS_FILES.contains(&name)) {
                if limit == usize::MAX {
                    let path = common::data_dir().join(name);
                    let [process, peer, ours] =
                        time_process(bin, &path, &puzzles, &theirs, options.reps);
                    processes.push((name, process, peer, ours));
                }
            }
        }
        all.push(puzzles);
    }
    if wanted(search) {
        let hardest = hardest_for_search(&all, HARDEST);
        let theirs: Vec<sudoku::Sudoku> = hardest.iter().map(crate_form).collect();
        measure(search, &hardest, &theirs, &options);
    }
    for (name, process, peer, ours) in processes {
        println!(
            "whole process {name}: sudokit solve --threads 1 {:.1} ms, crate in-process {:.1} ms, ratio {:.3}, solving {:.0}% of the process",
            process.as_secs_f64() * 1e3,
            peer.as_secs_f64() * 1e3,
            peer.as_secs_f64() / process.as_secs_f64(),
            100.0 * ours.as_secs_f64() / process.as_secs_f64(),
        );
    }
    if options.verify {
        println!("(verified against the reference solver)");
    }
}
