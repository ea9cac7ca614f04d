//! `sudokit rate`: difficulty ratings, one line per puzzle, as a line filter.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use sudokit::rate::{rate, Assumptions, Level, RateError, RateOptions, Rating};

use crate::batch::{self, Input, Item};

/// Rate puzzles: Sudoku Explainer's ER/EP/ED, assumptions count, solver effort and level.
///
/// ER is the hardest step of the whole solve on Sudoku Explainer 1.2.1's scale, EP the
/// hardest up to the first placement, ED the first step, from a search that applies SE's
/// techniques in SE's order. Assumptions: the least number of cells whose digit must be
/// assumed before naked and hidden singles finish (`>=k` when the cap is reached).
/// Guesses: branch points of the exact solver. Level: easy (ER ≤ 1.5), medium (≤ 2.5),
/// hard (≤ 4.4), expert (≤ 6.5), extreme (≤ 8.9), diabolical.
///
/// Exit status: 0 when every puzzle was rated; 1 when some puzzle has no or several
/// solutions (an error record stands in its place); 2 when some input could not be read.
#[derive(Args, Debug)]
pub struct RateArgs {
    #[command(flatten)]
    input: Input,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Line)]
    format: Format,

    /// Print counts per level and a histogram of ER on stderr at the end.
    #[arg(long)]
    summary: bool,

    /// Write the ER histogram as an SVG picture.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,

    /// Deepest nesting of dynamic forcing chains (5 = all of SE's rules; lower is faster on
    /// the hardest puzzles, and a puzzle that needs more is shown with ER as a lower bound
    /// and `incomplete`).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=5))]
    max_level: u8,

    /// Largest number of assumptions searched.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=6))]
    assumptions_cap: u8,
}

/// How records are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `puzzle ER=10.7/10.7/9.7 …`, the form forum lists use, then the extras.
    Line,
    /// Tab-separated columns with a header line.
    Tsv,
    /// JSON Lines: one object per puzzle.
    Json,
}

#[derive(Serialize)]
struct JsonRecord<'a> {
    file: &'a str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzle: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    er: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ep: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ed: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hardest: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    assumptions: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    assumptions_exact: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    guesses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<&'static str>,
    trailing: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Counts for `--summary` and `--plot`.
#[derive(Default)]
struct Tally {
    levels: BTreeMap<Level, u64>,
    /// Puzzles per whole ER (1 for 1.0–1.9, …).
    histogram: BTreeMap<u16, u64>,
    rated: u64,
    unrated: u64,
}

/// Runs `sudokit rate`; returns the exit status.
pub fn run(args: &RateArgs) -> Result<u8> {
    let opts = RateOptions {
        max_level: args.max_level,
        assumptions_cap: args.assumptions_cap,
    };
    let work = |puzzle: &sudokit::Grid| rate(puzzle, &opts);
    let mut tally = Tally::default();
    let mut header = args.format == Format::Tsv;
    let summary = batch::run(&args.input, work, |out, item| {
        if header {
            writeln!(
                out,
                "puzzle\tER\tEP\tED\tcomplete\thardest\tassumptions\tguesses\tlevel"
            )?;
            header = false;
        }
        match &item.result {
            Some(Ok(r)) => {
                tally.rated += 1;
                *tally.levels.entry(r.level).or_insert(0) += 1;
                *tally.histogram.entry(r.se.er.0 / 10).or_insert(0) += 1;
            }
            Some(Err(_)) => tally.unrated += 1,
            None => {}
        }
        write_record(args, out, item)
    })?;
    if args.summary {
        eprint!("{}", summary_text(&tally, summary.errors));
    }
    if let Some(path) = &args.plot {
        std::fs::write(path, svg(&tally.histogram))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(if summary.errors > 0 {
        2
    } else if tally.unrated > 0 {
        1
    } else {
        0
    })
}

fn summary_text(tally: &Tally, errors: u64) -> String {
    let mut s = format!(
        "rated {}, not rated (no or several solutions) {}, unreadable {}\n",
        tally.rated, tally.unrated, errors
    );
    for (level, n) in &tally.levels {
        s += &format!("  {:<10} {n}\n", level.word());
    }
    let max = tally.histogram.values().copied().max().unwrap_or(1).max(1);
    s += "ER histogram:\n";
    for (er, n) in &tally.histogram {
        let bar = "#".repeat(((n * 50).div_ceil(max)) as usize);
        s += &format!("  {er:>2}.x {n:>8} {bar}\n");
    }
    s
}

/// A bar chart of the ER histogram, one bar per whole ER.
fn svg(histogram: &BTreeMap<u16, u64>) -> String {
    let (w, h, bar) = (640.0, 320.0, 40.0);
    let max = histogram.values().copied().max().unwrap_or(1).max(1) as f64;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <text x=\"10\" y=\"18\">puzzles per ER (Sudoku Explainer scale)</text>\n"
    );
    let base = h - 30.0;
    for (i, er) in (1..=12u16).enumerate() {
        let n = histogram.get(&er).copied().unwrap_or(0);
        let height = (base - 40.0) * n as f64 / max;
        let x = 20.0 + i as f64 * (bar + 10.0);
        s += &format!(
            "<rect x=\"{x}\" y=\"{:.1}\" width=\"{bar}\" height=\"{height:.1}\" fill=\"#4a7ab5\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{n}</text>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{er}.x</text>\n",
            base - height,
            x + bar / 2.0,
            base - height - 4.0,
            x + bar / 2.0,
            base + 16.0
        );
    }
    s + "</svg>\n"
}

fn write_record(
    args: &RateArgs,
    out: &mut dyn Write,
    item: &Item<Result<Rating, RateError>>,
) -> io::Result<()> {
    let trailing = item.record.trailing.as_str();
    let empty = |error: String, puzzle: Option<String>| JsonRecord {
        file: &item.file,
        line: item.record.line,
        puzzle,
        er: None,
        ep: None,
        ed: None,
        complete: None,
        hardest: None,
        assumptions: None,
        assumptions_exact: None,
        guesses: None,
        level: None,
        trailing,
        error: Some(error),
    };
    let (Some(result), Ok(puzzle)) = (&item.result, &item.record.puzzle) else {
        let error = item.error().unwrap_or_default();
        return match args.format {
            Format::Json => json_line(out, &empty(error, None)),
            Format::Line => writeln!(out, "error: {error}"),
            Format::Tsv => writeln!(out, "error: {error}"),
        };
    };
    let r = match result {
        Ok(r) => r,
        Err(e) => {
            return match args.format {
                Format::Json => json_line(out, &empty(e.to_string(), Some(puzzle.to_string()))),
                Format::Line => writeln!(out, "{puzzle} error: {e}{trailing}"),
                Format::Tsv => writeln!(out, "{puzzle}\terror: {e}"),
            }
        }
    };
    let hardest = r.se.hardest.map(|t| t.name()).unwrap_or_default();
    let (assumptions, exact) = match r.assumptions {
        Assumptions::Exact(k) => (k, true),
        Assumptions::AtLeast(k) => (k, false),
    };
    match args.format {
        Format::Line => {
            let incomplete = if r.se.complete { "" } else { " incomplete" };
            writeln!(
                out,
                "{puzzle} ER={}/{}/{}{incomplete} assumptions={} guesses={} level={} hardest=\"{hardest}\"{trailing}",
                r.se.er,
                r.se.ep,
                r.se.ed,
                r.assumptions,
                r.guesses,
                r.level.word()
            )
        }
        Format::Tsv => writeln!(
            out,
            "{puzzle}\t{}\t{}\t{}\t{}\t{hardest}\t{}\t{}\t{}",
            r.se.er,
            r.se.ep,
            r.se.ed,
            r.se.complete,
            r.assumptions,
            r.guesses,
            r.level.word()
        ),
        Format::Json => json_line(
            out,
            &JsonRecord {
                file: &item.file,
                line: item.record.line,
                puzzle: Some(puzzle.to_string()),
                er: Some(f64::from(r.se.er.0) / 10.0),
                ep: Some(f64::from(r.se.ep.0) / 10.0),
                ed: Some(f64::from(r.se.ed.0) / 10.0),
                complete: Some(r.se.complete),
                hardest: Some(hardest),
                assumptions: Some(assumptions),
                assumptions_exact: Some(exact),
                guesses: Some(r.guesses),
                level: Some(r.level.word()),
                trailing,
                error: None,
            },
        ),
    }
}

fn json_line(out: &mut dyn Write, record: &JsonRecord<'_>) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record)?;
    writeln!(out)
}
