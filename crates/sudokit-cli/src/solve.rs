//! `sudokit solve`: solutions, solution counts and search statistics, as a line filter.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::{Args, ValueEnum};
use serde::Serialize;
use sudokit::solver::{self, Stats};
use sudokit::{format, Grid};

use crate::batch::{self, json_line, Input, Item};

/// Solve puzzles: one output record per input puzzle, in input order.
///
/// By default each record is the puzzle's solution followed by the puzzle's trailing text;
/// an unsolvable puzzle gives `no solution`, and a puzzle with several solutions gives its
/// first solution followed by `multiple solutions`.
///
/// Exit status: 0 when every puzzle was read (and, without --count or --all, has exactly one
/// solution); 1 when some puzzle has no solution (or, without --count or --all, several);
/// 2 when some input could not be read or parsed (its error record stands in its place).
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    input: Input,

    /// Print the number of solutions, counting up to LIMIT (shown as `LIMIT+` when reached).
    #[arg(long, value_name = "LIMIT", num_args = 0..=1, default_missing_value = "2",
          value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "all")]
    count: Option<u64>,

    /// Print every solution, one per line (or all in one JSON record).
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

/// What solving one puzzle found.
struct Solved {
    count: usize,
    solutions: Vec<Grid>,
    stats: Stats,
    time: Duration,
}

#[derive(Serialize)]
struct JsonRecord<'a> {
    file: &'a str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzle: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count_exact: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<JsonStats>,
    trailing: &'a str,
}

#[derive(Serialize)]
struct JsonStats {
    guesses: u64,
    propagations: u64,
    microseconds: f64,
}

/// Totals for the `--stats` summary and the exit status.
#[derive(Default)]
struct Tally {
    unique: u64,
    unsolvable: u64,
    multiple: u64,
    guesses: u64,
}

impl SolveArgs {
    /// How many solutions to look for: enough to tell unique from several, or the count limit.
    fn limit(&self) -> Option<usize> {
        if self.all {
            None
        } else {
            Some(
                self.count
                    .map_or(2, |l| usize::try_from(l).unwrap_or(usize::MAX)),
            )
        }
    }

    fn status(&self, solved: &Solved) -> &'static str {
        match solved.count {
            0 => "no solution",
            1 => "unique",
            _ if self.all || self.count.is_some() => "solved",
            _ => "multiple solutions",
        }
    }
}

/// Runs `sudokit solve`; returns the exit status.
pub fn run(args: &SolveArgs) -> Result<u8> {
    let limit = args.limit();
    let timed = args.stats;
    let work = |puzzle: &Grid| {
        let start = timed.then(Instant::now);
        let (count, solutions, stats) = match limit {
            Some(limit) => {
                let outcome = solver::count(puzzle, limit);
                (
                    outcome.count,
                    outcome.solution.into_iter().collect(),
                    outcome.stats,
                )
            }
            None => {
                let all: Vec<Grid> = solver::solutions(puzzle).collect();
                (all.len(), all, Stats::default())
            }
        };
        let time = start.map_or(Duration::ZERO, |s| s.elapsed());
        Solved {
            count,
            solutions,
            stats,
            time,
        }
    };
    let mut tally = Tally::default();
    let started = Instant::now();
    let summary = batch::run(&args.input, work, |out, item| {
        if let Some(solved) = &item.result {
            tally.guesses += solved.stats.guesses;
            match solved.count {
                0 => tally.unsolvable += 1,
                1 => tally.unique += 1,
                _ => tally.multiple += 1,
            }
        }
        write_record(args, out, item)
    })?;
    if args.stats {
        let secs = started.elapsed().as_secs_f64();
        let puzzles = summary.records - summary.errors;
        eprintln!(
            "puzzles {puzzles}, unique {}, unsolvable {}, multiple {}, errors {}, guesses {} ({:.1}/puzzle), {:.3} s, {:.0} puzzles/s",
            tally.unique,
            tally.unsolvable,
            tally.multiple,
            summary.errors,
            tally.guesses,
            tally.guesses as f64 / puzzles.max(1) as f64,
            secs,
            puzzles as f64 / secs.max(1e-9),
        );
    }
    Ok(if summary.errors > 0 {
        2
    } else if tally.unsolvable > 0
        || (limit == Some(2) && args.count.is_none() && tally.multiple > 0)
    {
        1
    } else {
        0
    })
}

fn stats_text(solved: &Solved) -> String {
    format!(
        " guesses={} propagations={} time={:.1}us",
        solved.stats.guesses,
        solved.stats.propagations,
        solved.time.as_secs_f64() * 1e6
    )
}

fn write_record(args: &SolveArgs, out: &mut dyn Write, item: &Item<Solved>) -> io::Result<()> {
    let trailing = item.record.trailing.as_str();
    let (Some(solved), Ok(puzzle)) = (&item.result, &item.record.puzzle) else {
        let error = item.error().unwrap_or_default();
        return match args.format {
            Format::Json => json_line(out, &item.error_record()),
            Format::Line => writeln!(out, "error: {error}"),
            Format::Grid => writeln!(out, "# error: {error}\n"),
        };
    };
    let stats = if args.stats {
        stats_text(solved)
    } else {
        String::new()
    };
    let status = args.status(solved);
    match args.format {
        Format::Json => json_line(
            out,
            &JsonRecord {
                file: &item.file,
                line: item.record.line,
                puzzle: Some(puzzle.to_string()),
                status: Some(status),
                count: Some(solved.count),
                count_exact: Some(args.limit().map_or(true, |l| solved.count < l)),
                solution: (!args.all)
                    .then(|| solved.solutions.first().map(Grid::to_string))
                    .flatten(),
                solutions: args
                    .all
                    .then(|| solved.solutions.iter().map(Grid::to_string).collect()),
                stats: args.stats.then_some(JsonStats {
                    guesses: solved.stats.guesses,
                    propagations: solved.stats.propagations,
                    microseconds: solved.time.as_secs_f64() * 1e6,
                }),
                trailing,
            },
        ),
        Format::Line => {
            if let Some(limit) = args.count {
                let plus = if solved.count as u64 >= limit {
                    "+"
                } else {
                    ""
                };
                writeln!(out, "{puzzle} {}{plus}{stats}{trailing}", solved.count)
            } else if solved.solutions.is_empty() {
                writeln!(out, "no solution{stats}{trailing}")
            } else if args.all {
                solved
                    .solutions
                    .iter()
                    .try_for_each(|s| writeln!(out, "{s}{stats}{trailing}"))
            } else if solved.count > 1 {
                writeln!(
                    out,
                    "{} multiple solutions{stats}{trailing}",
                    solved.solutions[0]
                )
            } else {
                writeln!(out, "{}{stats}{trailing}", solved.solutions[0])
            }
        }
        Format::Grid => {
            if !trailing.trim().is_empty() {
                writeln!(out, "# {}", trailing.trim())?;
            }
            if let Some(limit) = args.count {
                let plus = if solved.count as u64 >= limit {
                    "+"
                } else {
                    ""
                };
                writeln!(out, "# solutions: {}{plus}{stats}", solved.count)?;
                return writeln!(out, "{}", format::grid(puzzle));
            }
            if solved.solutions.is_empty() || solved.count > 1 || args.stats {
                writeln!(out, "# {status}{stats}")?;
            }
            solved
                .solutions
                .iter()
                .try_for_each(|s| writeln!(out, "{}", format::grid(s)))?;
            if solved.solutions.is_empty() {
                writeln!(out)?;
            }
            Ok(())
        }
    }
}
