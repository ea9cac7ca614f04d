//! `import sudokit`: the library's answers as Python values.
//!
//! Each function reads a puzzle as the CLI does and answers with the record the CLI's
//! `--format json` writes ([`sudokit::wire`]), converted to a dict, so a notebook sees the
//! same fields as a pipeline. A puzzle that cannot be read raises `ValueError` with the
//! CLI's positioned message. The `*_many` functions release the GIL, work on every core
//! (rayon), and keep order; a bad puzzle becomes `{"error": ...}` in its place, so one bad
//! line never loses the rest.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pythonize::pythonize;
use rayon::prelude::*;
use serde::Serialize;
use sudokit::canon::{canonicalize, equivalent as equivalence};
use sudokit::generate::{Budget, Generator, Spec, Symmetry};
use sudokit::logic::tutor;
use sudokit::logic::TechniqueSet;
use sudokit::parse::parse;
use sudokit::rate::{Level, RateOptions, MAX_LEVEL};
use sudokit::wire::{
    CanonRecord, ExplainRecord, GeneratedRecord, HintRecord, RatingRecord, SolveRecord,
    TransformRecord,
};
use sudokit::{solver, Grid};

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

/// A record, or `{"error": message}` in its place.
#[derive(Serialize)]
#[serde(untagged)]
enum Either<T> {
    Record(T),
    Error { error: String },
}

impl<T> From<Result<T, String>> for Either<T> {
    fn from(result: Result<T, String>) -> Either<T> {
        match result {
            Ok(record) => Either::Record(record),
            Err(error) => Either::Error { error },
        }
    }
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

/// The whole solve, step by step, as `sudokit explain --format json` writes it.
#[pyfunction]
#[pyo3(signature = (puzzle, techniques = "all"))]
fn explain<'py>(py: Python<'py>, puzzle: &str, techniques: &str) -> PyResult<Bound<'py, PyAny>> {
    let grid = grid_of(puzzle)?;
    let set = technique_set(techniques)?;
    let record = py.detach(|| explained(&grid, &set));
    python(py, &record)
}

fn explained(grid: &Grid, set: &TechniqueSet) -> ExplainRecord {
    let result = tutor::explain(sudokit::candidates::Candidates::new(grid), set);
    ExplainRecord::new(grid, &result, set)
}

/// The next step at `level` (1 names the technique, 2 says where, 3 gives the step).
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

/// Works `each` on every puzzle on all cores, without the GIL, in order.
fn many<'py, T: Serialize + Send>(
    py: Python<'py>,
    puzzles: Vec<String>,
    each: impl Fn(&Grid) -> Result<T, String> + Sync,
) -> PyResult<Bound<'py, PyAny>> {
    let records: Vec<Either<T>> = py.detach(|| {
        puzzles
            .par_iter()
            .map(|text| Either::from(read(text).and_then(|grid| each(&grid))))
            .collect()
    });
    python(py, &records)
}

/// `solve`'s records for many puzzles: `{"puzzle", "status", "count", "solution", ...}`.
#[pyfunction]
fn solve_many(py: Python<'_>, puzzles: Vec<String>) -> PyResult<Bound<'_, PyAny>> {
    many(py, puzzles, |grid| {
        Ok(SolveRecord::new(
            grid,
            &solver::count(grid, 2),
            2,
            false,
            None,
        ))
    })
}

/// `rate`'s records for many puzzles, rated on every core.
#[pyfunction]
#[pyo3(signature = (puzzles, max_level = MAX_LEVEL))]
fn rate_many(py: Python<'_>, puzzles: Vec<String>, max_level: u8) -> PyResult<Bound<'_, PyAny>> {
    many(py, puzzles, |grid| rating(grid, max_level))
}

/// `canon`'s records for many puzzles.
#[pyfunction]
fn canon_many(py: Python<'_>, puzzles: Vec<String>) -> PyResult<Bound<'_, PyAny>> {
    many(py, puzzles, |grid| {
        Ok(CanonRecord::new(grid, &canonicalize(grid), '.'))
    })
}

/// `explain`'s records for many puzzles.
#[pyfunction]
#[pyo3(signature = (puzzles, techniques = "all"))]
fn explain_many<'py>(
    py: Python<'py>,
    puzzles: Vec<String>,
    techniques: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let set = technique_set(techniques)?;
    many(py, puzzles, |grid| Ok(explained(grid, &set)))
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
    Ok(())
}
