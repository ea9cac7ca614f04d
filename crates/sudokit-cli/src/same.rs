//! `sudokit same A B`: whether two puzzles are the same puzzle up to the sudoku symmetries,
//! and the transform that turns one into the other.

use std::io::{self, Read, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;
use sudokit::canon::canonicalize;
use sudokit::{format, Grid};

use crate::batch::{json_line, located};
use crate::canon::{Format, JsonTransform};

/// Tell whether two puzzles are equivalent and print the transform from A to B.
///
/// A and B are each a puzzle written out (an 81-character line), a file holding one puzzle
/// in any supported format, or `-` for standard input. Equivalent means B is A after some
/// transposition, band / stack / row / column permutation and digit relabelling; the
/// transform printed maps A onto B exactly (`rows`/`cols`: which line of A, after the
/// optional transposition, lands in each line of B; `digits`: the images of 1..9).
///
/// Exit status: 0 when equivalent, 1 when not, 2 when a puzzle could not be read.
#[derive(Args, Debug)]
pub struct SameArgs {
    /// The first puzzle: a line, a file, or `-`.
    a: String,
    /// The second puzzle: a line, a file, or `-`.
    b: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Line)]
    format: Format,
}

#[derive(Serialize)]
struct JsonSame {
    equivalent: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    transform: Option<JsonTransform>,
    canonical_a: String,
    canonical_b: String,
    automorphisms: u64,
}

/// Reads one puzzle from an argument: `-`, an existing file, or the puzzle text itself.
fn read_puzzle(arg: &str) -> Result<Grid> {
    let (name, text) = if arg == "-" {
        let mut text = String::new();
        io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        ("<stdin>", text)
    } else if Path::new(arg).is_file() {
        let text = std::fs::read_to_string(arg).with_context(|| format!("cannot read {arg}"))?;
        (arg, text)
    } else {
        ("<argument>", arg.to_string())
    };
    match text.parse::<Grid>() {
        Ok(grid) => Ok(grid),
        Err(e) => bail!("{}", located(name, &e)),
    }
}

/// Runs `sudokit same`; returns the exit status.
pub fn run(args: &SameArgs) -> Result<u8> {
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
            &JsonSame {
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
    Ok(if map.is_some() { 0 } else { 1 })
}
