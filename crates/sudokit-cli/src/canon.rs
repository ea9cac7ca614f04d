//! `sudokit canon`: the minlex canonical form of every puzzle, as a line filter; optionally
//! dropping puzzles equivalent to an earlier one.

use std::collections::HashSet;
use std::io::{self, Write};

use anyhow::Result;
use clap::{Args, ValueEnum};
use serde::Serialize;
use sudokit::canon::{canonicalize, Canonical};
use sudokit::{format, Grid};

use crate::batch::{self, Input, Item, Sink};
use crate::output::{json_line, message, Outcome};

/// Canonicalise puzzles: one minlex line per input puzzle, in input order.
///
/// The minlex form is the lexicographically smallest 81-character string (blank = 0) over
/// all transpositions, band / stack / row / column permutations and digit relabellings:
/// two puzzles are the same puzzle exactly when their forms are equal. Each record is the
/// form followed by the puzzle's trailing text.
///
/// Exit status: 0 when every input was read; 2 when some input could not be read or parsed
/// (its error record stands in its place).
#[derive(Args, Debug)]
pub struct CanonArgs {
    #[command(flatten)]
    input: Input,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Line)]
    format: Format,

    /// Keep only the first puzzle of each equivalence class; say on stderr how many
    /// duplicates were dropped.
    #[arg(long)]
    dedupe: bool,

    /// Write blanks as `0` (as minlex lists are usually published) instead of `.`.
    #[arg(long)]
    zeros: bool,
}

/// How records are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// 81-character lines, trailing text kept.
    Line,
    /// JSON Lines: one object per puzzle, with the transform and automorphism count.
    Json,
}

#[derive(Serialize)]
struct JsonRecord<'a> {
    file: &'a str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    puzzle: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    canonical: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    transform: Option<JsonTransform>,
    #[serde(skip_serializing_if = "Option::is_none")]
    automorphisms: Option<u64>,
    trailing: &'a str,
}

/// A transform as JSON: one-based lines, `digits` the images of 1..9.
#[derive(Serialize)]
pub struct JsonTransform {
    transpose: bool,
    rows: String,
    cols: String,
    digits: String,
}

impl From<&sudokit::transform::Transform> for JsonTransform {
    fn from(t: &sudokit::transform::Transform) -> Self {
        let one_based = |p: [u8; 9]| p.iter().map(|x| char::from(b'1' + x)).collect();
        JsonTransform {
            transpose: t.transposes(),
            rows: one_based(t.rows()),
            cols: one_based(t.cols()),
            digits: t.digit_map().iter().map(|d| char::from(b'0' + d)).collect(),
        }
    }
}

/// Runs `sudokit canon`.
pub fn run(args: &CanonArgs) -> Result<Outcome> {
    let blank = if args.zeros { '0' } else { '.' };
    let mut seen: HashSet<Grid> = HashSet::new();
    let mut dropped = 0u64;
    let summary = batch::run(&args.input, canonicalize, |out, item: Item<Canonical>| {
        if let Some(c) = &item.result {
            if args.dedupe && !seen.insert(c.grid) {
                dropped += 1;
                return Ok(());
            }
        }
        write_record(args, blank, out, &item)
    })?;
    // Only a run that read its whole input gets here: after `| head` there is no count.
    if args.dedupe {
        message(&format!(
            "kept {} puzzles, dropped {dropped} duplicates",
            summary.records - summary.errors - dropped
        ))?;
    }
    Ok(Outcome {
        errors: summary.errors,
        failures: 0,
    })
}

fn write_record(
    args: &CanonArgs,
    blank: char,
    out: &mut Sink<'_>,
    item: &Item<Canonical>,
) -> io::Result<()> {
    let trailing = item.record.trailing.as_str();
    let (Some(c), Ok(puzzle)) = (&item.result, &item.record.puzzle) else {
        let error = item.error().unwrap_or_default();
        return match args.format {
            Format::Json => json_line(out, &item.error_record(error)),
            Format::Line => writeln!(out, "error: {error}"),
        };
    };
    let form = format::line(&c.grid, blank);
    match args.format {
        Format::Line => writeln!(out, "{form}{trailing}"),
        Format::Json => json_line(
            out,
            &JsonRecord {
                file: &item.file,
                line: item.record.line,
                puzzle: Some(format::line(puzzle, blank)),
                canonical: Some(form),
                transform: Some((&c.transform).into()),
                automorphisms: Some(c.automorphisms),
                trailing,
            },
        ),
    }
}
