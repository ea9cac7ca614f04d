//! `sudokit same A B`: whether two puzzles are the same puzzle up to the sudoku symmetries,
//! and the transform that turns one into the other.

use std::io::{self, Write};
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use sudokit::canon::canonicalize;
use sudokit::parse::records;
use sudokit::{format, Grid};

use crate::batch::open;
use crate::canon::Format;
use crate::output::{json_line, located, Outcome};
use sudokit::wire::SameRecord;

/// Tell whether two puzzles are equivalent and print the transform from A to B.
///
/// A and B are each a puzzle written out (an 81-character line), a path holding one puzzle
/// in any supported format (a file, a FIFO such as `<(cat f)`), or `-` for standard input.
/// Equivalent means B is A after some
/// transposition, band / stack / row / column permutation and digit relabelling; the
/// transform printed maps A onto B exactly (`rows`/`cols`: which line of A, after the
/// optional transposition, lands in each line of B; `digits`: the images of 1..9).
///
/// Exit status: 0 when equivalent, 1 when not, 2 when a puzzle could not be read.
#[derive(Args, Debug)]
pub struct SameArgs {
    /// The first puzzle: a line, a path, or `-`.
    a: String,
    /// The second puzzle: a line, a path, or `-`.
    b: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Line)]
    format: Format,
}

/// Reads the one puzzle of an argument: `-`, any existing path, or the puzzle text itself,
/// through the same reader as the batch commands (so a bad byte is reported at its place).
fn read_puzzle(arg: &str) -> Result<Grid> {
    let (name, reader) = open(Path::new(arg));
    let reader = reader.with_context(|| format!("cannot open {arg}"))?;
    let mut recs = records(reader);
    let Some(first) = recs.next() else {
        bail!("{name}: no puzzle found");
    };
    let first = first.with_context(|| format!("cannot read {name}"))?;
    let grid = first
        .puzzle
        .map_err(|e| anyhow!("{}", located(&name, &e)))?;
    if let Some(extra) = recs.next() {
        let extra = extra.with_context(|| format!("cannot read {name}"))?;
        bail!(
            "{name}:{}: a second puzzle, where one was expected",
            extra.line
        );
    }
    Ok(grid)
}

/// Runs `sudokit same`.
pub fn run(args: &SameArgs) -> Result<Outcome> {
    if args.a == "-" && args.b == "-" {
        bail!("only one of the two puzzles can come from standard input");
    }
    let a = read_puzzle(&args.a)?;
    let b = read_puzzle(&args.b)?;
    let (ca, cb) = (canonicalize(&a), canonicalize(&b));
    // The same as `canon::equivalent`, without canonicalising twice.
    let map = (ca.grid == cb.grid).then(|| ca.transform.then(&cb.transform.inverse()));
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if args.format == Format::Json {
        json_line(
            &mut out,
            &SameRecord {
                equivalent: map.is_some(),
                transform: map.as_ref().map(Into::into),
                canonical_a: format::line(&ca.grid, '.'),
                canonical_b: format::line(&cb.grid, '.'),
                automorphisms: ca.automorphisms,
            },
        )?;
    } else if let Some(t) = &map {
        writeln!(out, "equivalent: {t}")?;
        writeln!(out, "minlex: {}", ca.grid)?;
        if ca.automorphisms > 1 {
            writeln!(
                out,
                "automorphisms: {} (other transforms map A onto B too)",
                ca.automorphisms
            )?;
        }
    } else {
        writeln!(out, "different")?;
        writeln!(out, "minlex A: {}", ca.grid)?;
        writeln!(out, "minlex B: {}", cb.grid)?;
    }
    out.flush()?;
    Ok(Outcome::failed_if(map.is_none()))
}
