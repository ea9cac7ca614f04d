//! `sudokit hint`: the next step only, in rising detail, for a player who is stuck.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use sudokit::candidates::Candidates;
use sudokit::logic::tutor::{hint, hint_se, words, Hint};
use sudokit::logic::TechniqueSet;
use sudokit::step::Step;
use sudokit::{render, Grid};

use crate::batch::{self, Input, Place};
use crate::explain::{parse_set, read_marks, Rules};
use crate::output::{Outcome, TextOrJson as Format};
use crate::printer::{AsJson, AsLine, JsonPrinter, LinePrinter, Printer};
use sudokit::wire::{hint_text, HintRecord};

/// Show the next step of the solve without giving the answer away: `--level 1` names the
/// technique, `2` adds where to look, `3` gives the whole step.
///
/// Reads puzzles like every batch command (one hint per puzzle), or one pencil-mark state
/// with `--marks`. Exit status: 0 when every puzzle got a hint, 1 when some puzzle has no
/// unique solution or no technique applies, 2 on unreadable input.
#[derive(Args, Debug)]
pub struct HintArgs {
    #[command(flatten)]
    input: Input,

    /// How much to tell: 1 the technique, 2 also where to look, 3 the whole step.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    level: u8,

    /// Start from this pencil-mark state instead of a puzzle: 81 whitespace-separated cells
    /// listing their candidates (`123 5 46 …`), or 729 characters (`row*81+col*9+d-1` holds
    /// digit d or `.`). `@FILE` reads it from a file.
    #[arg(long, value_name = "MARKS", conflicts_with = "files")]
    marks: Option<String>,

    /// Techniques to use, as for `explain`.
    #[arg(long, value_name = "LIST", default_value = "all", value_parser = parse_set)]
    techniques: TechniqueSet,

    /// Whose step, as for `explain`: `default` or `se` (Sudoku Explainer's next step).
    #[arg(long, value_enum, default_value_t = Rules::Default, conflicts_with = "techniques")]
    rules: Rules,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Also draw each hint (at its level of detail) as an SVG picture into DIR, one file
    /// per puzzle, numbered among the puzzles read: `DIR/0001.svg`, `DIR/0002.svg`, ...
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
}

impl HintArgs {
    /// The hint from `cands` of the engine the arguments choose.
    fn hint(&self, cands: &Candidates) -> Hint {
        match self.rules {
            Rules::Default => hint(cands, &self.techniques),
            Rules::Se => hint_se(cands),
        }
    }
}

/// The printer for `--format`.
fn printer(format: Format) -> &'static dyn Printer<Told> {
    match format {
        Format::Text => &LinePrinter,
        Format::Json => &JsonPrinter,
    }
}

/// One puzzle's record: its hint at a level of detail.
struct Told {
    hint: Hint,
    level: u8,
}

impl Told {
    /// The hint's words, or why there is none.
    fn text(&self) -> String {
        hint_text(&self.hint, self.level)
    }

    /// Whether the record tells what the command promises: a hint, or that none is needed.
    fn told(&self) -> bool {
        matches!(self.hint, Hint::Step(_) | Hint::Solved)
    }

    /// Draws the hint as a picture into `dir`, named by the puzzle's `index` among those
    /// read, showing only what its level reveals.
    fn draw(&self, dir: &Path, index: usize, puzzle: &Grid, cands: &Candidates) -> io::Result<()> {
        let Hint::Step(step) = &self.hint else {
            return Ok(());
        };
        let mut shown = Step::new(step.technique);
        shown.se.clone_from(&step.se);
        if self.level >= 2 {
            shown.cells.clone_from(&step.cells);
            shown.fins.clone_from(&step.fins);
            shown.houses.clone_from(&step.houses);
            shown.digits = step.digits;
        }
        if self.level >= 3 {
            shown = (**step).clone();
        } else {
            shown.detail = words(step, self.level);
        }
        let path = dir.join(format!("{index:04}.svg"));
        std::fs::write(path, render::svg(puzzle, cands, Some(&shown)))
    }
}

impl AsLine for Told {
    fn line(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(self.text().as_bytes())
    }
}

impl AsJson for Told {
    fn json(&self) -> impl Serialize + '_ {
        HintRecord::new(&self.hint, self.level)
    }
}

/// Runs `sudokit hint`.
pub fn run(args: &HintArgs) -> Result<Outcome> {
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let printer = printer(args.format);
    if let Some(marks) = &args.marks {
        let cands = read_marks(marks)?;
        let record = Told {
            hint: args.hint(&cands),
            level: args.level,
        };
        let mut out = args.input.writer()?;
        printer.print(&mut out, Some(&Place::marks()), &record)?;
        out.flush()?;
        if let Some(dir) = &args.svg {
            record.draw(dir, 1, cands.grid(), &cands)?;
        }
        return Ok(Outcome::failed_if(!record.told()));
    }
    let mut failed = 0u64;
    let mut index = 0;
    let summary = batch::run(
        &args.input,
        printer,
        |puzzle: &Grid| args.hint(&Candidates::new(puzzle)),
        |out, worked| {
            index += 1;
            let record = Told {
                hint: worked.result,
                level: args.level,
            };
            out.print(&worked.place, &record)?;
            failed += u64::from(!record.told());
            match &args.svg {
                Some(dir) => {
                    record.draw(dir, index, &worked.puzzle, &Candidates::new(&worked.puzzle))
                }
                None => Ok(()),
            }
        },
    )?;
    Ok(Outcome {
        errors: summary.errors,
        failures: failed,
    })
}
