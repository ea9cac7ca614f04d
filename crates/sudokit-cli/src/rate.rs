//! `sudokit rate`: difficulty on the Sudoku Explainer scale, assumptions, effort, a level word.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use sudokit::rate::{self, Level, RateError, RateOptions, Rating, Tenths};
use sudokit::{render, Grid};

use crate::batch::{self, json_line, Input, Item};

/// Rate puzzles: Sudoku Explainer's ER/EP/ED from an SE-equivalent search, the least number
/// of assumptions a singles-only solver needs, the exact solver's guesses, and a level word.
///
/// Line output is the puzzle followed by ` ER=10.7/10.7/9.7`, the form forum lists use, then
/// the puzzle's trailing text. Puzzles without exactly one solution become error records.
/// Exit status: 0 when every puzzle was rated, 1 when some puzzle has no unique solution,
/// 2 on unreadable input.
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
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=5))]
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
    /// Tab-separated: puzzle, ER, EP, ED, level, hardest technique, assumptions, guesses;
    /// a `#` header line first.
    Tsv,
    /// JSON Lines.
    Json,
}

#[derive(Serialize)]
struct JsonRating<'a> {
    file: &'a str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzle: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    er: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ep: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hardest: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    assumptions: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    guesses: Option<u64>,
    trailing: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// ER/EP/ED as forum lists write them, with `+` on a lower bound from a capped search.
fn triple(r: &Rating) -> String {
    let plus = if r.se.complete || r.se.er >= Tenths(200) {
        ""
    } else {
        "+"
    };
    format!("{}{plus}/{}/{}", r.se.er, r.se.ep, r.se.ed)
}

fn hardest(r: &Rating) -> String {
    r.se.hardest.map_or_else(|| "-".to_string(), |t| t.name())
}

/// Runs `sudokit rate`; returns the exit status.
pub fn run(args: &RateArgs) -> Result<u8> {
    let opts = RateOptions {
        max_level: args.max_level,
        assumptions_cap: args.assumptions_cap,
    };
    let mut unrated = 0u64;
    let mut levels: BTreeMap<Level, u64> = BTreeMap::new();
    let mut histogram: BTreeMap<Tenths, u64> = BTreeMap::new();
    let mut header = args.format == Format::Tsv;
    let summary = batch::run(
        &args.input,
        |puzzle: &Grid| rate::rate(puzzle, &opts),
        |out, item| {
            if std::mem::take(&mut header) {
                writeln!(
                    out,
                    "# puzzle\tER\tEP\tED\tlevel\thardest\tassumptions\tguesses"
                )?;
            }
            match &item.result {
                Some(Ok(r)) => {
                    *levels.entry(r.level).or_default() += 1;
                    *histogram.entry(r.se.er).or_default() += 1;
                }
                Some(Err(_)) => unrated += 1,
                None => {}
            }
            write_record(args, out, item)
        },
    )?;
    if args.summary {
        print_summary(&levels, &histogram, unrated, summary.errors);
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
    Ok(if summary.errors > 0 {
        2
    } else {
        u8::from(unrated > 0)
    })
}

fn print_summary(
    levels: &BTreeMap<Level, u64>,
    histogram: &BTreeMap<Tenths, u64>,
    unrated: u64,
    errors: u64,
) {
    let rated: u64 = levels.values().sum();
    let words: Vec<String> = levels
        .iter()
        .map(|(l, n)| format!("{} {n}", l.word()))
        .collect();
    eprintln!(
        "rated {rated} ({}), not unique {unrated}, errors {errors}",
        words.join(", ")
    );
    let max = histogram.values().copied().max().unwrap_or(1).max(1);
    for (er, n) in histogram {
        let bar = "#".repeat(((n * 50).div_ceil(max)) as usize);
        eprintln!("ER {:>4} {n:>8} {bar}", er.to_string());
    }
}

fn write_record(
    args: &RateArgs,
    out: &mut dyn Write,
    item: &Item<Result<Rating, RateError>>,
) -> io::Result<()> {
    let trailing = item.record.trailing.as_str();
    let (rating, puzzle) = match (&item.result, &item.record.puzzle) {
        (Some(Ok(r)), Ok(p)) => (r, p),
        (result, puzzle) => {
            let error = match (result, puzzle) {
                (Some(Err(e)), Ok(p)) => format!("{}:{}: {p}: {e}", item.file, item.record.line),
                _ => item.error().unwrap_or_default(),
            };
            return match args.format {
                Format::Json => json_line(
                    out,
                    &JsonRating {
                        file: &item.file,
                        line: item.record.line,
                        puzzle: puzzle.as_ref().ok().map(Grid::to_string),
                        er: None,
                        ep: None,
                        ed: None,
                        complete: None,
                        level: None,
                        hardest: None,
                        assumptions: None,
                        guesses: None,
                        trailing,
                        error: Some(error),
                    },
                ),
                Format::Line | Format::Tsv => writeln!(out, "error: {error}"),
            };
        }
    };
    match args.format {
        Format::Line => writeln!(out, "{puzzle} ER={}{trailing}", triple(rating)),
        Format::Tsv => writeln!(
            out,
            "{puzzle}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            rating.se.er,
            rating.se.ep,
            rating.se.ed,
            rating.level.word(),
            hardest(rating),
            rating.assumptions,
            rating.guesses
        ),
        Format::Json => json_line(
            out,
            &JsonRating {
                file: &item.file,
                line: item.record.line,
                puzzle: Some(puzzle.to_string()),
                er: Some(rating.se.er.to_string()),
                ep: Some(rating.se.ep.to_string()),
                ed: Some(rating.se.ed.to_string()),
                complete: Some(rating.se.complete),
                level: Some(rating.level.word()),
                hardest: rating.se.hardest.map(|t| t.name()),
                assumptions: Some(rating.assumptions.to_string()),
                guesses: Some(rating.guesses),
                trailing,
                error: None,
            },
        ),
    }
}
