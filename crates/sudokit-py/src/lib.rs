//! `import sudokit`: the library's answers as Python values.
//!
//! Each function reads a puzzle as the CLI does and answers with the record the CLI's
//! `--format json` writes ([`sudokit::wire`]), converted to a dict; the package's Python part
//! (`python/sudokit`) turns those into typed classes. A puzzle that cannot be read raises
//! `ValueError` with the CLI's positioned message. The `*_many` functions release the GIL,
//! work on every core (rayon), and keep order; a bad puzzle becomes `{"puzzle", "error"}` in
//! its place, so one bad line never loses the rest.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use pyo3::IntoPyObjectExt;
use pythonize::pythonize;
use rayon::prelude::*;
use serde::Serialize;
use sudokit::canon::{canonicalize, equivalent as equivalence};
use sudokit::generate::{Budget, Generator, Spec, Symmetry};
use sudokit::logic::tutor::{self, Hint};
use sudokit::logic::TechniqueSet;
use sudokit::parse::{parse, records};
use sudokit::rate::{Level, RateOptions, MAX_LEVEL};
use sudokit::wire::{
    CanonRecord, ExplainRecord, GeneratedRecord, HintRecord, RatingRecord, TransformRecord,
};
use sudokit::{solver, Grid};

/// The same allocator as the CLI's, for the same reason: rating allocates and frees millions
/// of small vectors across threads, and a batch's records are freed on another thread than
/// made them. It serves Rust's allocations only; Python's objects keep Python's allocator.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The puzzle `text` holds, or the CLI's message: `line 1, column 37: bad character 'x' ...`.
fn read(text: &str) -> Result<Grid, String> {
    parse(text).map_err(|e| format!("line {}, column {}: {}", e.line, e.column, e.kind))
}

fn grid_of(text: &str) -> PyResult<Grid> {
    read(text).map_err(PyValueError::new_err)
}

fn technique_set(list: &str) -> PyResult<TechniqueSet> {
    TechniqueSet::parse(list).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `value` as a Python object (a dict for a record).
fn python<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    Ok(pythonize(py, value)?)
}

/// The first solution, or None when there is none.
#[pyfunction]
fn solve(py: Python<'_>, puzzle: &str) -> PyResult<Option<String>> {
    let grid = grid_of(puzzle)?;
    Ok(py.detach(|| solver::solve(&grid)).map(|g| g.to_string()))
}

/// The number of solutions, counted up to `limit`.
#[pyfunction]
#[pyo3(signature = (puzzle, limit = 2))]
fn count(py: Python<'_>, puzzle: &str, limit: usize) -> PyResult<usize> {
    let grid = grid_of(puzzle)?;
    Ok(py.detach(|| solver::count(&grid, limit).count))
}

/// Up to `limit` solutions, in the solver's order.
#[pyfunction]
fn solutions(py: Python<'_>, puzzle: &str, limit: usize) -> PyResult<Vec<String>> {
    let grid = grid_of(puzzle)?;
    Ok(py.detach(|| {
        solver::solutions(&grid)
            .take(limit)
            .map(|g| g.to_string())
            .collect()
    }))
}

fn rating(grid: &Grid, max_level: u8) -> Result<RatingRecord, String> {
    let options = RateOptions {
        max_level,
        ..RateOptions::default()
    };
    sudokit::rate::rate(grid, &options)
        .map(|r| RatingRecord::new(grid, &r))
        .map_err(|e| e.to_string())
}

/// Sudoku Explainer's ER/EP/ED, assumptions, guesses and level, as `sudokit rate` writes
/// them; ValueError for a puzzle without exactly one solution.
#[pyfunction]
#[pyo3(signature = (puzzle, max_level = MAX_LEVEL))]
fn rate<'py>(py: Python<'py>, puzzle: &str, max_level: u8) -> PyResult<Bound<'py, PyAny>> {
    let grid = grid_of(puzzle)?;
    let record = py
        .detach(|| rating(&grid, max_level))
        .map_err(PyValueError::new_err)?;
    python(py, &record)
}

/// The minlex form and the transform onto it, as `sudokit canon --format json` writes them.
#[pyfunction]
fn canon<'py>(py: Python<'py>, puzzle: &str) -> PyResult<Bound<'py, PyAny>> {
    let grid = grid_of(puzzle)?;
    let record = py.detach(|| CanonRecord::new(&grid, &canonicalize(&grid), '.'));
    python(py, &record)
}

/// The transform that maps `a` onto `b`, or None when they are not the same puzzle.
#[pyfunction]
fn equivalent<'py>(py: Python<'py>, a: &str, b: &str) -> PyResult<Bound<'py, PyAny>> {
    let (a, b) = (grid_of(a)?, grid_of(b)?);
    let map = py.detach(|| equivalence(&a, &b));
    python(py, &map.as_ref().map(TransformRecord::from))
}

/// The whole solve, step by step, as `sudokit explain --format json` writes it;
/// ValueError for a puzzle without exactly one solution.
#[pyfunction]
#[pyo3(signature = (puzzle, techniques = "all"))]
fn explain<'py>(py: Python<'py>, puzzle: &str, techniques: &str) -> PyResult<Bound<'py, PyAny>> {
    let grid = grid_of(puzzle)?;
    let set = technique_set(techniques)?;
    let record = py
        .detach(|| explained(&grid, &set))
        .map_err(PyValueError::new_err)?;
    python(py, &record)
}

/// The `explain` record, or why logic cannot start (no solution, several): the CLI writes
/// that as the record's `error`, Python as an exception or a batch's error value.
fn explained(grid: &Grid, set: &TechniqueSet) -> Result<ExplainRecord, String> {
    let result = tutor::explain(sudokit::candidates::Candidates::new(grid), set);
    match &result {
        Err(refusal) => Err(refusal.to_string()),
        Ok(_) => Ok(ExplainRecord::new(grid, &result, set)),
    }
}

/// The next step at `level` (1 names the technique, 2 says where, 3 gives the step);
/// ValueError for a puzzle without exactly one solution.
#[pyfunction]
#[pyo3(signature = (puzzle, level = 1, techniques = "all"))]
fn hint<'py>(
    py: Python<'py>,
    puzzle: &str,
    level: u8,
    techniques: &str,
) -> PyResult<Bound<'py, PyAny>> {
    if !(1..=3).contains(&level) {
        return Err(PyValueError::new_err("level: 1, 2 or 3"));
    }
    let cands = sudokit::candidates::Candidates::new(&grid_of(puzzle)?);
    let set = technique_set(techniques)?;
    let found = py.detach(|| tutor::hint(&cands, &set));
    if let Hint::Refused(refusal) = &found {
        return Err(PyValueError::new_err(refusal.to_string()));
    }
    python(py, &HintRecord::new(&found, level))
}

/// Puzzle number `index` of the run seeded `seed`: unique and minimal, with `symmetry` and,
/// when asked, a level word; the same arguments give the same puzzle.
#[pyfunction]
#[pyo3(signature = (seed = 0, index = 0, symmetry = "none", level = None))]
fn generate<'py>(
    py: Python<'py>,
    seed: u64,
    index: u64,
    symmetry: &str,
    level: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let symmetry: Symmetry = symmetry.parse().map_err(PyValueError::new_err)?;
    let er = match level {
        Some(word) => Some(
            Level::from_word(word)
                .ok_or_else(|| PyValueError::new_err(format!("unknown level {word:?}")))?
                .ers(),
        ),
        None => None,
    };
    let generator = Generator::new(Spec {
        symmetry,
        er,
        ..Spec::default()
    })
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let made = py
        .detach(|| generator.generate(seed, index, &Budget::attempts(1_000_000)))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let record = GeneratedRecord::new(&made, made.rating.as_ref(), symmetry, seed, index);
    python(py, &record)
}

/// A puzzle of a batch that gave no record: `{"puzzle", "error"}` as the CLI's error records
/// are, `puzzle` only when it was read.
#[derive(Serialize)]
struct Failed {
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzle: Option<String>,
    error: String,
}

/// A record, or a [`Failed`] in its place.
enum Either<T> {
    Record(T),
    Failed(Failed),
}

/// A batch's answer: its records in order, and the positions of the failed ones.
type Batch<'py> = (Bound<'py, PyAny>, Vec<usize>);

/// How often a batch takes the GIL back while it works: to move the progress bar and to
/// notice Ctrl-C, which Python sees only while it holds the GIL.
const TICK: Duration = Duration::from_millis(100);

/// The batch's items as text, or why an item is not a puzzle (a pandas NaN is a float): that
/// one item fails in its place rather than the whole call.
fn texts(puzzles: &[Bound<'_, PyAny>]) -> Vec<Result<String, String>> {
    puzzles
        .iter()
        .map(|item| {
            item.extract::<String>().map_err(|_| {
                let kind = item
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string());
                format!("expected a puzzle as str, got {kind}")
            })
        })
        .collect()
}

/// Works `each` on every puzzle on all cores, without the GIL, in order: the records, and
/// where the failed ones are, so that Python touches only those. The work runs on
/// its own thread while this one wakes every [`TICK`] to report to `progress` and check for
/// signals; an exception from either stops the rest of the batch and is raised.
fn many<'py, T: Send>(
    py: Python<'py>,
    puzzles: Vec<Bound<'py, PyAny>>,
    progress: Option<Py<PyAny>>,
    each: impl Fn(&Grid) -> Result<T, String> + Sync,
    answer: impl Fn(Python<'py>, T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Batch<'py>> {
    let texts = texts(&puzzles);
    let done = AtomicUsize::new(0);
    // Only a bar reads the count: the threads otherwise share no cache line per puzzle.
    let counting = progress.is_some();
    let stop = AtomicBool::new(false);
    let work = || -> Vec<Either<T>> {
        texts
            .par_iter()
            .map(|text| {
                if stop.load(Ordering::Relaxed) {
                    return Either::Failed(Failed {
                        puzzle: None,
                        error: "interrupted".to_string(),
                    });
                }
                let worked = worked(text, &each);
                if counting {
                    done.fetch_add(1, Ordering::Relaxed);
                }
                worked
            })
            .collect()
    };
    let records = py.detach(|| {
        thread::scope(|scope| {
            let (sender, receiver) = mpsc::channel();
            scope.spawn(move || sender.send(work()));
            watch(&receiver, progress.as_ref(), &done, &stop)
        })
    })?;
    let mut failed = Vec::new();
    let mut answers = Vec::with_capacity(records.len());
    for (at, record) in records.into_iter().enumerate() {
        answers.push(match record {
            Either::Record(record) => answer(py, record)?,
            Either::Failed(failure) => {
                failed.push(at);
                python(py, &failure)?
            }
        });
    }
    Ok((PyList::new(py, answers)?.into_any(), failed))
}

/// A record as a dict.
fn dict<'py>(py: Python<'py>, record: impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    python(py, &record)
}

/// One puzzle's record, or why there is none.
fn worked<T>(
    text: &Result<String, String>,
    each: impl Fn(&Grid) -> Result<T, String>,
) -> Either<T> {
    let grid = match text.as_deref().map_err(Clone::clone).and_then(read) {
        Ok(grid) => grid,
        Err(error) => {
            return Either::Failed(Failed {
                puzzle: None,
                error,
            })
        }
    };
    match each(&grid) {
        Ok(record) => Either::Record(record),
        Err(error) => Either::Failed(Failed {
            puzzle: Some(grid.to_string()),
            error,
        }),
    }
}

/// Waits for the batch's records, telling `progress` how many more puzzles are done at every
/// tick and at the end. The first exception (Ctrl-C, a failing progress bar) sets `stop` and
/// is returned once the workers have let go.
fn watch<R>(
    receiver: &mpsc::Receiver<R>,
    progress: Option<&Py<PyAny>>,
    done: &AtomicUsize,
    stop: &AtomicBool,
) -> PyResult<R> {
    let mut told = 0;
    let mut failure = None;
    let mut tell = |py: Python<'_>| -> PyResult<()> {
        let now = done.load(Ordering::Relaxed);
        if let Some(bar) = progress.filter(|_| now > told) {
            bar.call1(py, (now - told,))?;
            told = now;
        }
        Ok(())
    };
    loop {
        match receiver.recv_timeout(TICK) {
            Ok(records) => {
                return match failure {
                    Some(error) => Err(error),
                    None => Python::attach(&mut tell).map(|()| records),
                };
            }
            Err(mpsc::RecvTimeoutError::Timeout) if failure.is_none() => {
                if let Err(error) = Python::attach(|py| py.check_signals().and_then(|()| tell(py)))
                {
                    stop.store(true, Ordering::Relaxed);
                    failure = Some(error);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("a batch worker panicked"));
            }
        }
    }
}

/// `solve` for many puzzles: each one's first solution or None.
#[pyfunction]
#[pyo3(signature = (puzzles, progress = None))]
fn solve_many<'py>(
    py: Python<'py>,
    puzzles: Vec<Bound<'py, PyAny>>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Batch<'py>> {
    many(
        py,
        puzzles,
        progress,
        |grid| Ok(solver::solve(grid).map(|g| g.to_string())),
        |py, solution| solution.into_bound_py_any(py),
    )
}

/// `rate` for many puzzles, rated on every core.
#[pyfunction]
#[pyo3(signature = (puzzles, progress = None, max_level = MAX_LEVEL))]
fn rate_many<'py>(
    py: Python<'py>,
    puzzles: Vec<Bound<'py, PyAny>>,
    progress: Option<Py<PyAny>>,
    max_level: u8,
) -> PyResult<Batch<'py>> {
    many(py, puzzles, progress, |grid| rating(grid, max_level), dict)
}

/// `canon` for many puzzles.
#[pyfunction]
#[pyo3(signature = (puzzles, progress = None))]
fn canon_many<'py>(
    py: Python<'py>,
    puzzles: Vec<Bound<'py, PyAny>>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Batch<'py>> {
    let canon = |grid: &Grid| Ok(CanonRecord::new(grid, &canonicalize(grid), '.'));
    many(py, puzzles, progress, canon, dict)
}

/// `explain` for many puzzles; a puzzle without one solution fails in its place.
#[pyfunction]
#[pyo3(signature = (puzzles, progress = None, techniques = "all"))]
fn explain_many<'py>(
    py: Python<'py>,
    puzzles: Vec<Bound<'py, PyAny>>,
    progress: Option<Py<PyAny>>,
    techniques: &str,
) -> PyResult<Batch<'py>> {
    let set = technique_set(techniques)?;
    many(py, puzzles, progress, |grid| explained(grid, &set), dict)
}

/// The trailing text of each input line, as the CLI passes it through, or None for a line
/// the CLI skips (blank, or a `#` comment): what `rate_lines` needs to write the CLI's lines.
#[pyfunction]
fn trailing(lines: Vec<String>) -> Vec<Option<String>> {
    lines
        .iter()
        .map(|line| {
            records(line.as_bytes())
                .next()
                .and_then(Result::ok)
                .map(|record| record.trailing)
        })
        .collect()
}

/// The module `sudokit._sudokit`, which `sudokit` re-exports.
#[pymodule]
fn _sudokit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(solutions, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(canon, m)?)?;
    m.add_function(wrap_pyfunction!(equivalent, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(hint, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(rate_many, m)?)?;
    m.add_function(wrap_pyfunction!(canon_many, m)?)?;
    m.add_function(wrap_pyfunction!(explain_many, m)?)?;
    m.add_function(wrap_pyfunction!(trailing, m)?)?;
    Ok(())
}
