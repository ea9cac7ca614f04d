//! `sudokit rate`: difficulty on the Sudoku Explainer scale, assumptions, effort, a level word.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use sudokit::rate::{self, Level, RateOptions, Rating, Tenths, MAX_LEVEL};
use sudokit::{render, Grid};

use crate::batch::{self, Input, Worked};
use crate::output::{message, Outcome};
use crate::printer::{AsColumns, AsJson, AsLine, JsonPrinter, LinePrinter, Printer, TsvPrinter};
use sudokit::wire::RatingRecord;

/// Rate puzzles: Sudoku Explainer's ER/EP/ED from an SE-equivalent search, the least number
/// of assumptions a singles-only solver needs, the exact solver's guesses, and a level word.
///
/// Line output is the puzzle followed by ` ER=10.7/10.7/9.7`, the form forum lists use, then
/// the puzzle's trailing text. Puzzles without exactly one solution become error records
/// (in TSV, lines starting `# error:`, so that the columns still parse). Exit status: 0 when
/// every puzzle was rated, 1 when some puzzle has no unique solution, 2 on unreadable input.
#[derive(Args, Debug)]
pub struct RateArgs {
    #[command(flatten)]
    input: Input,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Line)]
    format: Format,

    /// At the end, print counts per level and a histogram of ER values on stderr.
    #[arg(long)]
    summary: bool,

    /// Write the ER histogram as an SVG bar chart to FILE.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,

    /// Deepest nesting of forcing chains searched (0-5; 5 is all of Sudoku Explainer's
    /// rules). Lower caps rate the hardest puzzles faster, as lower bounds marked `+`.
    #[arg(long, default_value_t = MAX_LEVEL,
          value_parser = clap::value_parser!(u8).range(0..=i64::from(MAX_LEVEL)))]
    max_level: u8,

    /// Largest number of assumptions searched; beyond it the count is reported as `>=N`.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=6))]
    assumptions_cap: u8,
}

/// Output formats of `rate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `puzzle ER=er/ep/ed` and the trailing text.
    Line,
    /// Tab-separated: puzzle, ER (with the `+` of a lower bound), EP, ED, level, hardest
    /// technique, assumptions, guesses; a `#` header line first, `# error:` lines in place
    /// of puzzles that could not be rated.
    Tsv,
    /// JSON Lines.
    Json,
}

impl Format {
    fn printer(self) -> &'static dyn Printer<Rated> {
        match self {
            Format::Line => &LinePrinter,
            Format::Tsv => &TsvPrinter,
            Format::Json => &JsonPrinter,
        }
    }
}

/// One puzzle's record: the puzzle and its rating.
struct Rated {
    puzzle: Grid,
    rating: Rating,
}

impl Rated {
    /// ER, with `+` when it is a lower bound from a capped search.
    fn er(&self) -> String {
        let se = &self.rating.se;
        let plus = if se.complete || se.er >= Tenths(200) {
            ""
        } else {
            "+"
        };
        format!("{}{plus}", se.er)
    }
}

impl AsLine for Rated {
    /// The puzzle and ` ER=er/ep/ed`, as forum lists write them.
    fn line(&self, out: &mut dyn Write) -> io::Result<()> {
        let se = &self.rating.se;
        write!(out, "{} ER={}/{}/{}", self.puzzle, self.er(), se.ep, se.ed)
    }
}

impl AsColumns for Rated {
    const HEADER: &'static [&'static str] = &[
        "puzzle",
        "ER",
        "EP",
        "ED",
        "level",
        "hardest",
        "assumptions",
        "guesses",
    ];

    fn columns(&self) -> Vec<String> {
        let r = &self.rating;
        vec![
            self.puzzle.to_string(),
            self.er(),
            r.se.ep.to_string(),
            r.se.ed.to_string(),
            r.level.word().to_string(),
            r.se.hardest.map_or_else(|| "-".to_string(), |t| t.name()),
            r.assumptions.to_string(),
            r.guesses.to_string(),
        ]
    }
}

impl AsJson for Rated {
    fn json(&self) -> impl Serialize + '_ {
        RatingRecord::new(&self.puzzle, &self.rating)
    }
}

/// Runs `sudokit rate`.
pub fn run(args: &RateArgs) -> Result<Outcome> {
    let opts = RateOptions {
        max_level: args.max_level,
        assumptions_cap: args.assumptions_cap,
    };
    let mut unrated = 0u64;
    let mut levels: BTreeMap<Level, u64> = BTreeMap::new();
    let mut histogram: BTreeMap<Tenths, u64> = BTreeMap::new();
    let summary = batch::run(
        &args.input,
        args.format.printer(),
        |puzzle: &Grid| rate::rate(puzzle, &opts),
        |out, worked| {
            let Worked {
                place,
                puzzle,
                result,
            } = worked;
            match result {
                Ok(rating) => {
                    *levels.entry(rating.level).or_default() += 1;
                    *histogram.entry(rating.se.er).or_default() += 1;
                    out.print(&place, &Rated { puzzle, rating })
                }
                Err(e) => {
                    unrated += 1;
                    let error = format!("{}:{}:1: {puzzle}: {e}", place.file, place.line);
                    out.reject(&place, Some(&puzzle), &error)
                }
            }
        },
    )?;
    if args.summary {
        print_summary(&levels, &histogram, unrated, summary.errors)?;
    }
    if let Some(path) = &args.plot {
        let bars: Vec<(String, u64)> = histogram
            .iter()
            .map(|(er, n)| (er.to_string(), *n))
            .collect();
        let total: u64 = histogram.values().sum();
        let title = format!("ER of {total} rated puzzles");
        std::fs::write(path, render::bar_chart(&title, &bars))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(Outcome {
        errors: summary.errors,
        failures: unrated,
    })
}

fn print_summary(
    levels: &BTreeMap<Level, u64>,
    histogram: &BTreeMap<Tenths, u64>,
    unrated: u64,
    errors: u64,
) -> io::Result<()> {
    let rated: u64 = levels.values().sum();
    let words: Vec<String> = levels
        .iter()
        .map(|(l, n)| format!("{} {n}", l.word()))
        .collect();
    message(&format!(
        "rated {rated} ({}), not unique {unrated}, errors {errors}",
        words.join(", ")
    ))?;
    let max = histogram.values().copied().max().unwrap_or(1).max(1);
    for (er, n) in histogram {
        let bar = "#".repeat(((n * 50).div_ceil(max)) as usize);
        message(&format!("ER {:>4} {n:>8} {bar}", er.to_string()))?;
    }
    Ok(())
}
