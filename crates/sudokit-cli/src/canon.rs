//! `sudokit canon`: the minlex canonical form of every puzzle, as a line filter; optionally
//! dropping puzzles equivalent to an earlier one.

use std::collections::HashSet;
use std::io::{self, Write};

use anyhow::Result;
use clap::{Args, ValueEnum};
use serde::Serialize;
use sudokit::canon::{canonicalize, Canonical};
use sudokit::{format, Grid};

use crate::batch::{self, Input};
use crate::output::{message, Outcome};
use crate::printer::{AsJson, AsLine, JsonPrinter, LinePrinter, Printer};
use sudokit::wire::CanonRecord;

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

impl Format {
    fn printer(self) -> &'static dyn Printer<Canonised> {
        match self {
            Format::Line => &LinePrinter,
            Format::Json => &JsonPrinter,
        }
    }
}

/// One puzzle's record: the puzzle, and its canonical form with the transform to it.
struct Canonised {
    puzzle: Grid,
    canonical: Canonical,
    /// How blanks are written.
    blank: char,
}

impl AsLine for Canonised {
    fn line(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(format::line(&self.canonical.grid, self.blank).as_bytes())
    }

    fn ends_in_grid(&self) -> bool {
        true
    }
}

impl AsJson for Canonised {
    fn json(&self) -> impl Serialize + '_ {
        CanonRecord::new(&self.puzzle, &self.canonical, self.blank)
    }
}

/// Runs `sudokit canon`.
pub fn run(args: &CanonArgs) -> Result<Outcome> {
    let blank = if args.zeros { '0' } else { '.' };
    let mut seen: HashSet<Grid> = HashSet::new();
    let mut dropped = 0u64;
    let printer = args.format.printer();
    let summary = batch::run(&args.input, printer, canonicalize, |out, worked| {
        if args.dedupe && !seen.insert(worked.result.grid) {
            dropped += 1;
            return Ok(());
        }
        let record = Canonised {
            puzzle: worked.puzzle,
            canonical: worked.result,
            blank,
        };
        out.print(&worked.place, &record)
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
