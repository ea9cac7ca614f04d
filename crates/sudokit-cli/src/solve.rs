//! `sudokit solve`: solutions, solution counts and search statistics, as a line filter.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::{Args, ValueEnum};
use serde::Serialize;
use sudokit::solver::{self, Solutions, Stats};
use sudokit::{format, parse, Grid};

use crate::batch::{self, Input, Place, Sink, Worked};
use crate::output::{located, message, Outcome};
use crate::printer::{AsGrid, AsJson, AsLine, GridPrinter, JsonPrinter, LinePrinter, Printer};
use sudokit::wire::{solve_status, SearchStats, SolveEnd, SolveHead, SolveRecord};

/// Solve puzzles: one output record per input puzzle, in input order.
///
/// By default each record is the puzzle's solution followed by the puzzle's trailing text;
/// an unsolvable puzzle gives `no solution`, and a puzzle with several solutions gives its
/// first solution followed by `multiple solutions`.
///
/// `--all` streams: each solution is written as soon as it is found, in constant memory
/// however many there are. `--count` keeps no solution but the first, so it too runs in
/// constant memory; its time grows with the number counted.
///
/// Exit status: 0 when every puzzle was read (and, without --count or --all, has exactly one
/// solution); 1 when some puzzle has no solution (or, without --count or --all, several);
/// 2 when some input could not be read or parsed (its error record stands in its place).
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    input: Input,

    /// Print the number of solutions, counting up to LIMIT (default 2; shown as `LIMIT+`
    /// when reached). The limit is written `--count=LIMIT`, so `--count FILE` reads FILE.
    #[arg(long, value_name = "LIMIT", num_args = 0..=1, require_equals = true,
          default_missing_value = "2", value_parser = clap::value_parser!(u64).range(1..),
          conflicts_with = "all")]
    count: Option<u64>,

    /// Print every solution as it is found, one per line (in JSON, one record per puzzle
    /// whose `solutions` array grows as they are found).
    #[arg(long)]
    all: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Line)]
    format: Format,

    /// Show each puzzle's search statistics (guesses, propagations, time) and a summary on
    /// stderr at the end.
    #[arg(long)]
    stats: bool,
}

/// How records are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// 81-character lines, trailing text kept.
    Line,
    /// Drawn 9×9 grids with box rules; notes as `#` comment lines, so the output reads back in.
    Grid,
    /// JSON Lines: one object per puzzle.
    Json,
}

impl Format {
    fn printer(self) -> &'static dyn Printer<Answer> {
        match self {
            Format::Line => &LinePrinter,
            Format::Grid => &GridPrinter,
            Format::Json => &JsonPrinter,
        }
    }
}

/// Solutions `--all` finds on the worker threads before the writer goes on with the rest:
/// most puzzles have fewer, and are then enumerated in parallel; the rest stream.
const EAGER: usize = 32;

/// What solving one puzzle found.
struct Solved {
    /// Solutions found so far (for `--count`, at most the limit).
    count: usize,
    /// The first solution.
    first: Option<Grid>,
    /// With `--all`, the solutions found after the first on the worker thread (kept apart
    /// so that a plain solve, one solution, allocates nothing).
    eager: Vec<Grid>,
    /// With `--all`, the search that finds the solutions after those kept, if any remain.
    rest: Option<Solutions>,
    stats: Stats,
    /// With `--stats`, when the work started, and how long it took (until the last solution
    /// with `--all`).
    started: Option<Instant>,
    time: Duration,
}

/// One puzzle's record, without `--all`: its solution or count, and what the search cost.
struct Answer {
    puzzle: Grid,
    /// With `--count`, the record is the puzzle and its count.
    counting: bool,
    count: usize,
    /// Whether `count` is the whole count.
    exact: bool,
    status: &'static str,
    solution: Option<Grid>,
    /// With `--stats`, what the search cost.
    stats: Option<SearchStats>,
}

impl Answer {
    /// The count, with `+` when the search stopped at its limit.
    fn count(&self) -> String {
        let plus = if self.exact { "" } else { "+" };
        format!("{}{plus}", self.count)
    }

    /// ` guesses=… propagations=… time=…us` with `--stats`, else nothing.
    fn stats(&self) -> String {
        self.stats.as_ref().map_or_else(String::new, stats_text)
    }
}

impl AsLine for Answer {
    fn line(&self, out: &mut dyn Write) -> io::Result<()> {
        match self.solution {
            _ if self.counting => write!(out, "{} {}", self.puzzle, self.count())?,
            Some(first) if self.count > 1 => write!(out, "{first} multiple solutions")?,
            Some(first) => out.write_all(&first.line())?,
            None => write!(out, "no solution")?,
        }
        if self.stats.is_some() {
            write!(out, "{}", self.stats())?;
        }
        Ok(())
    }

    fn ends_in_grid(&self) -> bool {
        !self.counting && self.count == 1 && self.stats.is_none()
    }
}

impl AsGrid for Answer {
    fn notes(&self) -> Vec<String> {
        let stats = self.stats();
        if self.counting {
            vec![format!("solutions: {}{stats}", self.count())]
        } else if self.count != 1 || self.stats.is_some() {
            vec![format!("{}{stats}", self.status)]
        } else {
            Vec::new()
        }
    }

    fn grid(&self) -> Option<&Grid> {
        if self.counting {
            Some(&self.puzzle)
        } else {
            self.solution.as_ref()
        }
    }
}

impl AsJson for Answer {
    fn json(&self) -> impl Serialize + '_ {
        SolveRecord {
            puzzle: self.puzzle.to_string(),
            status: self.status,
            count: self.count,
            count_exact: self.exact,
            solution: self.solution.as_ref().map(Grid::to_string),
            stats: self.stats.clone(),
        }
    }
}

/// Totals for the `--stats` summary and the exit status.
#[derive(Default)]
struct Tally {
    unique: u64,
    unsolvable: u64,
    multiple: u64,
    /// One solution found by a search that stopped there (`--count=1`): solvable, but
    /// whether uniquely was not checked.
    unchecked: u64,
    /// Puzzles with repeated givens, found unsolvable and reported as the parser would have
    /// (see [`Input::solver_finds_repeats`]).
    repeats: u64,
    guesses: u64,
}

impl SolveArgs {
    /// How many solutions to look for: enough to tell unique from several, or the count limit.
    fn limit(&self) -> usize {
        self.count
            .map_or(2, |l| usize::try_from(l).unwrap_or(usize::MAX))
    }

    /// Whether the count is the whole count: the search ended before reaching its limit.
    fn exact(&self, solved: &Solved) -> bool {
        self.all || solved.count < self.limit()
    }

    /// The status, claiming no more than was checked: `unique` only when the search went on
    /// past the first solution and found no other.
    fn status(&self, solved: &Solved) -> &'static str {
        let counting = self.all || self.count.is_some();
        solve_status(solved.count, self.exact(solved), counting)
    }

    fn work(&self, puzzle: &Grid) -> Solved {
        let started = self.stats.then(Instant::now);
        let mut solved = if self.all {
            let mut search = solver::solutions(puzzle);
            let first = search.next();
            let eager: Vec<Grid> = search.by_ref().take(EAGER - 1).collect();
            let count = usize::from(first.is_some()) + eager.len();
            Solved {
                count,
                stats: search.stats(),
                rest: (count == EAGER).then_some(search),
                first,
                eager,
                started,
                time: Duration::ZERO,
            }
        } else {
            let outcome = solver::count(puzzle, self.limit());
            Solved {
                count: outcome.count,
                first: outcome.solution,
                eager: Vec::new(),
                rest: None,
                stats: outcome.stats,
                started,
                time: Duration::ZERO,
            }
        };
        if let Some(started) = started {
            solved.time = started.elapsed();
        }
        solved
    }
}

/// Runs `sudokit solve`.
pub fn run(args: &SolveArgs) -> Result<Outcome> {
    let mut tally = Tally::default();
    let started = Instant::now();
    // A grid with repeated givens has no solution: the check is left to the few unsolvable.
    let input = Input {
        solver_finds_repeats: true,
        ..args.input.clone()
    };
    let summary = batch::run(
        &input,
        args.format.printer(),
        |puzzle| args.work(puzzle),
        |out, worked| {
            if worked.result.count == 0 {
                if let Some(e) = parse::plain_line_repeats(&worked.puzzle, worked.place.line) {
                    tally.repeats += 1;
                    return out.reject(&worked.place, None, &located(&worked.place.file, &e));
                }
            }
            let solved = write_record(args, out, worked)?;
            tally.guesses += solved.stats.guesses;
            match solved.count {
                0 => tally.unsolvable += 1,
                1 if args.exact(&solved) => tally.unique += 1,
                1 => tally.unchecked += 1,
                _ => tally.multiple += 1,
            }
            Ok(())
        },
    )?;
    let errors = summary.errors + tally.repeats;
    if args.stats {
        let secs = started.elapsed().as_secs_f64();
        let puzzles = summary.records - errors;
        let unchecked = if tally.unchecked > 0 {
            format!(", solvable (uniqueness not checked) {}", tally.unchecked)
        } else {
            String::new()
        };
        message(&format!(
            "puzzles {puzzles}, unique {}, unsolvable {}, multiple {}{unchecked}, errors {}, guesses {} ({:.1}/puzzle), {:.3} s, {:.0} puzzles/s",
            tally.unique,
            tally.unsolvable,
            tally.multiple,
            errors,
            tally.guesses,
            tally.guesses as f64 / puzzles.max(1) as f64,
            secs,
            puzzles as f64 / secs.max(1e-9),
        ))?;
    }
    let default_mode = args.count.is_none() && !args.all;
    Ok(Outcome {
        errors,
        failures: tally.unsolvable + if default_mode { tally.multiple } else { 0 },
    })
}

fn search_stats(solved: &Solved) -> SearchStats {
    SearchStats {
        guesses: solved.stats.guesses,
        propagations: solved.stats.propagations,
        microseconds: solved.time.as_secs_f64() * 1e6,
    }
}

/// ` guesses=… propagations=… time=…us`, as text records end.
fn stats_text(stats: &SearchStats) -> String {
    format!(
        " guesses={} propagations={} time={:.1}us",
        stats.guesses, stats.propagations, stats.microseconds
    )
}

/// Writes one record (with `--all`, finding the rest of its solutions as it goes); returns
/// what was solved, for the tally.
fn write_record(
    args: &SolveArgs,
    out: &mut Sink<'_, Answer>,
    worked: Worked<Solved>,
) -> io::Result<Solved> {
    let Worked {
        place,
        puzzle,
        result: mut solved,
    } = worked;
    if args.all {
        write_all(args, out, &place, &puzzle, &mut solved)?;
        return Ok(solved);
    }
    let answer = Answer {
        puzzle,
        counting: args.count.is_some(),
        count: solved.count,
        exact: args.exact(&solved),
        status: args.status(&solved),
        solution: solved.first,
        stats: args.stats.then(|| search_stats(&solved)),
    };
    out.print(&place, &answer)?;
    Ok(solved)
}

/// Writes every solution of an `--all` record: those found on the worker thread, then the
/// rest as the search finds them, so the output streams in constant memory. Such a record
/// is written while it is being found, so no printer can be handed it whole: its three
/// formats are laid out here.
fn write_all(
    args: &SolveArgs,
    out: &mut Sink<'_, Answer>,
    place: &Place,
    puzzle: &Grid,
    solved: &mut Solved,
) -> io::Result<()> {
    let trailing = place.trailing.as_str();
    let kept = solved
        .first
        .take()
        .into_iter()
        .chain(std::mem::take(&mut solved.eager));
    let mut rest = solved.rest.take();
    let mut found = kept.chain(std::iter::from_fn(|| rest.as_mut()?.next()));
    let mut count = 0;
    match args.format {
        Format::Json => {
            // The record's opening fields, then its `solutions` array as it grows.
            let head = serde_json::to_string(&SolveHead {
                file: &place.file,
                line: place.line,
                puzzle: puzzle.to_string(),
            })
            .map_err(io::Error::other)?;
            write!(out, "{},\"solutions\":[", &head[..head.len() - 1])?;
            for solution in found.by_ref() {
                let comma = if count > 0 { "," } else { "" };
                write!(out, "{comma}\"{solution}\"")?;
                count += 1;
            }
            drop(found);
            finish(solved, count, &rest);
            let end = serde_json::to_string(&SolveEnd {
                count,
                count_exact: true,
                status: args.status(solved),
                stats: args.stats.then(|| search_stats(solved)),
                trailing,
            })
            .map_err(io::Error::other)?;
            writeln!(out, "],{}", &end[1..])
        }
        Format::Line => {
            for solution in found.by_ref() {
                writeln!(out, "{solution}{trailing}")?;
                count += 1;
            }
            drop(found);
            finish(solved, count, &rest);
            if count == 0 {
                writeln!(out, "no solution{trailing}")?;
            }
            if args.stats {
                writeln!(
                    out,
                    "# solutions: {count}{}",
                    stats_text(&search_stats(solved))
                )?;
            }
            Ok(())
        }
        Format::Grid => {
            if !trailing.trim().is_empty() {
                writeln!(out, "# {}", trailing.trim())?;
            }
            for solution in found.by_ref() {
                writeln!(out, "{}", format::grid(&solution))?;
                count += 1;
            }
            drop(found);
            finish(solved, count, &rest);
            let stats = if args.stats {
                stats_text(&search_stats(solved))
            } else {
                String::new()
            };
            writeln!(out, "# solutions: {count}{stats}\n")
        }
    }
}

/// Records what an `--all` enumeration came to, once it has ended.
fn finish(solved: &mut Solved, count: usize, rest: &Option<Solutions>) {
    solved.count = count;
    if let Some(search) = rest {
        solved.stats = search.stats();
    }
    if let Some(started) = solved.started {
        solved.time = started.elapsed();
    }
}
