//! `sudokit generate`: unique puzzles to order, reproducibly, in parallel.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use sudokit::canon::canonicalize;
use sudokit::generate::{self, Budget, GaveUp, Generated, Generator, Spec, Symmetry};
use sudokit::parse::records;
use sudokit::rate::{self, Level, SeRating, Tenths};
use sudokit::step::Technique;
use sudokit::{format, Grid};

use crate::batch::{self, MAX_THREADS};
use crate::output::{located, message, Outcome};
use crate::printer::{AsJson, AsLine, JsonPrinter, LinePrinter, Printer};
use sudokit::wire::GeneratedRecord;

/// Generate puzzles with exactly one solution, minimal unless told otherwise, no two of
/// them equivalent: by symmetry, clue count, pattern, rating and technique; or practice
/// positions for a technique.
///
/// Each puzzle is drawn from the seed and its number alone, so the same seed and options
/// give the same output on any number of threads. With `--er`, `--level` or `--rate` each
/// line carries its Sudoku Explainer rating (`puzzle ER=9.1/9.1/2.6`), which `sudokit rate`
/// confirms.
///
/// Exit status: 0 when every puzzle was made; 1 when the attempt or time limit stopped the
/// run (what was made is written, and a message says how far it got); 2 when the target is
/// impossible (the reason is given at once) or the command line is wrong.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// How many puzzles to make.
    #[arg(short = 'n', long, value_name = "COUNT", default_value_t = 1)]
    count: u64,

    /// The seed (default: drawn from the clock, and shown on stderr so the run can be
    /// repeated).
    #[arg(long, value_name = "SEED")]
    seed: Option<u64>,

    /// Cells given together: none, rot180, rot90, vertical, horizontal, diagonal,
    /// antidiagonal, bidiagonal, orthogonal, dihedral.
    #[arg(long, value_name = "NAME", default_value = "none", value_parser = parse_symmetry)]
    symmetry: Symmetry,

    /// Clue count: `N`, `MIN..MAX`, `MIN..` or `..MAX`.
    #[arg(long, value_name = "RANGE", value_parser = parse_clues)]
    clues: Option<(usize, usize)>,

    /// Sudoku Explainer rating: `7.2`, `MIN..MAX`, `MIN..` or `..MAX`.
    #[arg(long, value_name = "RANGE", value_parser = parse_er, conflicts_with = "level")]
    er: Option<(Tenths, Tenths)>,

    /// Difficulty word, as `rate` prints it: easy, medium, hard, expert, extreme,
    /// diabolical (ER ranges in the guide).
    #[arg(long, value_name = "WORD", value_parser = parse_level)]
    level: Option<Level>,

    /// A technique the simplest-first solve must use (repeatable; names as `explain
    /// --techniques` takes them).
    #[arg(long = "technique", value_name = "NAME", value_parser = parse_technique)]
    techniques: Vec<Technique>,

    /// The technique that must be the hardest step of the simplest-first solve: clean
    /// training puzzles.
    #[arg(long, value_name = "NAME", value_parser = parse_technique)]
    first_hard: Option<Technique>,

    /// Write practice positions instead of puzzles: pencil-mark states (the form `explain
    /// --marks` and `hint --marks` read) whose next step, simplest first, is NAME.
    #[arg(long, value_name = "NAME", value_parser = parse_technique)]
    practice: Option<Technique>,

    /// Give exactly the cells marked in FILE: 81 cells, `.` or `0` empty, a digit, `x` or
    /// `*` given (a line, a drawn grid or a puzzle).
    #[arg(long, value_name = "FILE", conflicts_with = "symmetry")]
    pattern: Option<PathBuf>,

    /// Vicinity search: derive each puzzle from a seed puzzle of FILE (one or two clues
    /// moved, then made minimal), never equivalent to a seed. Takes no symmetry or pattern.
    #[arg(long, value_name = "FILE", conflicts_with = "pattern")]
    from: Option<PathBuf>,

    /// Stop taking clues away once the clue count is in range, instead of going on until
    /// none can go.
    #[arg(long)]
    no_minimal: bool,

    /// Rate every puzzle, and write its rating.
    #[arg(long)]
    rate: bool,

    /// Attempts allowed for each puzzle before the run stops.
    #[arg(long, value_name = "N", default_value_t = 1_000_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_tries: u64,

    /// Stop the run after SECONDS.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<Duration>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Line)]
    format: Format,

    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: Option<u16>,
}

/// Output formats of `generate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// The puzzle, then ` ER=er/ep/ed` when rated.
    Line,
    /// JSON Lines: puzzle, solution, clues, symmetry, seed, index, rating.
    Json,
}

impl Format {
    fn printer(self) -> &'static dyn Printer<Made> {
        match self {
            Format::Line => &LinePrinter,
            Format::Json => &JsonPrinter,
        }
    }
}

fn parse_symmetry(text: &str) -> Result<Symmetry, String> {
    text.parse()
}

fn parse_level(text: &str) -> Result<Level, String> {
    Level::from_word(text).ok_or_else(|| {
        let words: Vec<&str> = Level::ALL.iter().map(|l| l.word()).collect();
        format!("unknown level '{text}' (known: {})", words.join(", "))
    })
}

fn parse_technique(text: &str) -> Result<Technique, String> {
    Technique::parse(text)
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("'{text}' is not a number of seconds"))
}

/// `N`, `MIN..MAX`, `MIN..` or `..MAX`, the open ends filled with `low` and `high`.
fn parse_range<T: std::str::FromStr<Err = E> + Copy, E: ToString>(
    text: &str,
    low: T,
    high: T,
) -> Result<(T, T), String> {
    let value = |s: &str, default: T| match s.trim() {
        "" => Ok(default),
        s => s.parse::<T>().map_err(|e| e.to_string()),
    };
    match text.split_once("..") {
        Some((a, b)) => Ok((value(a, low)?, value(b.trim_start_matches('='), high)?)),
        None => {
            let n = value(text, low)?;
            Ok((n, n))
        }
    }
}

fn parse_clues(text: &str) -> Result<(usize, usize), String> {
    parse_range(text, 0, 81)
}

fn parse_er(text: &str) -> Result<(Tenths, Tenths), String> {
    parse_range(text, Tenths(0), Tenths(u16::MAX))
}

/// One puzzle's record.
struct Made {
    generated: Generated,
    rating: Option<SeRating>,
    symmetry: Symmetry,
    seed: u64,
    index: u64,
}

impl AsLine for Made {
    fn line(&self, out: &mut dyn Write) -> io::Result<()> {
        match &self.generated.practice {
            Some(practice) => write!(out, "{}", format::marks_line(&practice.marks))?,
            None => write!(out, "{}", self.generated.puzzle)?,
        }
        if let Some(r) = &self.rating {
            write!(out, " ER={}/{}/{}", r.er, r.ep, r.ed)?;
        }
        Ok(())
    }

    fn ends_in_grid(&self) -> bool {
        self.rating.is_none() && self.generated.practice.is_none()
    }
}

impl AsJson for Made {
    fn json(&self) -> impl Serialize + '_ {
        let rating = self.rating.as_ref();
        GeneratedRecord::new(
            &self.generated,
            rating,
            self.symmetry,
            self.seed,
            self.index,
        )
    }
}

/// A puzzle made by a worker: what was made, its rating when asked for, and a digest of
/// its canonical form, by which the writer drops equivalent ones.
type Work = Result<(Generated, Option<SeRating>, u64), GaveUp>;

/// Runs `sudokit generate`.
pub fn run(args: &GenerateArgs) -> Result<Outcome> {
    let pattern = match &args.pattern {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let cells =
                generate::pattern(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            Some(cells)
        }
        None => None,
    };
    let from = match &args.from {
        Some(path) => read_seeds(path)?,
        None => Vec::new(),
    };
    let (low, high) = args.clues.unwrap_or((17, 81));
    let spec = Spec {
        symmetry: args.symmetry,
        clues: (low, high),
        minimal: !args.no_minimal,
        pattern,
        er: args.er.or(args.level.map(Level::ers)),
        techniques: args.techniques.clone(),
        hardest: args.first_hard,
        practice: args.practice,
        from,
    };
    let generator = Generator::new(spec).map_err(|e| anyhow::anyhow!("impossible target: {e}"))?;
    let seed = match args.seed {
        Some(seed) => seed,
        None => {
            let seed = generate::seed_from_clock();
            message(&format!(
                "sudokit: seed {seed} (--seed {seed} makes these puzzles again)"
            ))?;
            seed
        }
    };
    let budget = Budget {
        attempts: args.max_tries,
        deadline: args.timeout.map(|t| Instant::now() + t),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.map_or(0, usize::from))
        .build()
        .context("starting worker threads")?;
    let make = |index: u64, first: u64| -> Work {
        let generated = generator.generate_from(seed, index, first, &budget)?;
        let rating = match generated.rating.clone() {
            Some(rating) => Some(rating),
            None if args.rate => Some(rate::se_rating(&generated.puzzle)),
            None => None,
        };
        let mut digest = DefaultHasher::new();
        canonicalize(&generated.puzzle).grid.hash(&mut digest);
        Ok((generated, rating, digest.finish()))
    };
    let printer = args.format.printer();
    let stdout = io::stdout();
    let progress = progress_bar(args.count, stdout.is_terminal());
    let mut out = BufWriter::new(stdout.lock());
    let mut seen: HashSet<u64> = HashSet::new();
    let mut made = 0u64;
    // Work in rounds of a few puzzles per thread, written in order after each round.
    let round = 4 * pool.current_num_threads() as u64;
    while made < args.count {
        let indices: Vec<u64> = (made..args.count.min(made + round)).collect();
        let works: Vec<Work> = pool.install(|| indices.par_iter().map(|&i| make(i, 0)).collect());
        for (index, mut work) in indices.into_iter().zip(works) {
            // An equivalent of an earlier puzzle: the same index tries on from its next
            // attempt, here, so that the output does not depend on the threads.
            while let Ok((generated, _, digest)) = &work {
                if seen.insert(*digest) {
                    break;
                }
                work = make(index, generated.attempt + 1);
            }
            let (generated, rating, _) = match work {
                Ok(done) => done,
                Err(gave_up) => {
                    out.flush()?;
                    progress.finish_and_clear();
                    message(&format!(
                        "sudokit: puzzle {}: {gave_up}; {made} of {} made",
                        index + 1,
                        args.count
                    ))?;
                    return Ok(Outcome::failed_if(true));
                }
            };
            let record = Made {
                generated,
                rating,
                symmetry: args.symmetry,
                seed,
                index,
            };
            printer.print(&mut out, None, &record)?;
            made += 1;
        }
        out.flush()?;
        progress.set_position(made);
    }
    progress.finish_and_clear();
    Ok(Outcome::default())
}

/// The seed puzzles of `--from`: every puzzle of the file, or the first unreadable record's
/// position and reason.
fn read_seeds(path: &Path) -> Result<Vec<Grid>> {
    let (name, reader) = batch::open(path);
    let reader = reader.with_context(|| format!("cannot open {name}"))?;
    let mut seeds = Vec::new();
    for record in records(reader) {
        let record = record.with_context(|| format!("cannot read {name}"))?;
        let puzzle = record
            .puzzle
            .map_err(|e| anyhow::anyhow!("{}", located(&name, &e)))?;
        seeds.push(puzzle);
    }
    if seeds.is_empty() {
        anyhow::bail!("{name}: no puzzle found");
    }
    Ok(seeds)
}

/// A bar counting puzzles on stderr, when stderr is a terminal and the puzzles go
/// elsewhere.
fn progress_bar(count: u64, stdout_is_terminal: bool) -> ProgressBar {
    if !io::stderr().is_terminal() || stdout_is_terminal {
        return ProgressBar::hidden();
    }
    ProgressBar::new(count).with_style(
        ProgressStyle::with_template("{bar:40.cyan/blue} {pos}/{len} puzzles {elapsed} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    )
}
