//! `sudokit explain`: the whole solve, one named deduction at a time.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use sudokit::candidates::Candidates;
use sudokit::logic::{self, Explanation, TechniqueSet};
use sudokit::step::Step;
use sudokit::{format, render, solver, CellSet, Grid};

use crate::batch::{self, ErrorStyle, Input, Source};
use crate::output::{json_line, Outcome, TextOrJson as Format};
use crate::wire::{ExplainRecord, LocatedStep, StepRecord};

/// Explain puzzles the way a person solves them: every step named as HoDoKu names it, with
/// its cells, placements and eliminations (chains in Eureka notation).
///
/// Puzzles without exactly one solution are reported before any logic is tried. Exit
/// status: 0 when every puzzle was explained to its solution, 1 when some puzzle has no
/// unique solution or the chosen techniques stall, 2 on unreadable input.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    #[command(flatten)]
    input: Input,

    /// Output format: numbered text, or JSON Lines with one object per step and a final
    /// object per puzzle.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Print the grid after each placement, the new digit in brackets.
    #[arg(long)]
    grid: bool,

    /// Print the pencil-mark grid before each step.
    #[arg(long)]
    candidates: bool,

    /// Techniques to use, in order: a preset (`singles`, `basic`, `standard`, or `all` =
    /// standard plus the trial last resort that finishes every puzzle) or a comma-separated
    /// list of names (`hidden-single,naked-single,x-wing`).
    #[arg(long, value_name = "LIST", default_value = "all", value_parser = parse_set)]
    techniques: TechniqueSet,

    /// Start from this pencil-mark state instead of puzzles: 81 whitespace-separated cells
    /// listing their candidates, or 729 characters; `@FILE` reads it from a file.
    #[arg(long, value_name = "MARKS", conflicts_with = "files")]
    marks: Option<String>,

    /// Write one SVG picture per step into DIR (`<puzzle>-<step>.svg`).
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
}

/// `--techniques` as clap sees it.
pub fn parse_set(text: &str) -> Result<TechniqueSet, String> {
    TechniqueSet::parse(text).map_err(|e| e.to_string())
}

/// Why the logic engine will not start from a position.
pub enum Refusal {
    /// The placed digits allow no solution (0) or several (2, meaning "2 or more").
    NotUnique(usize),
    /// A pencil mark state that has lost a digit of the only solution.
    WrongMarks(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotUnique(0) => f.write_str("no solution"),
            Refusal::NotUnique(_) => f.write_str("multiple solutions"),
            Refusal::WrongMarks(why) => write!(f, "the pencil marks are wrong: {why}"),
        }
    }
}

/// Checks, with the exact solver, that the placed digits have exactly one solution and that
/// every empty cell still has its solution digit among its candidates: only then are logic
/// steps (uniqueness techniques included) sound.
pub fn vouch(cands: &Candidates) -> Result<(), Refusal> {
    let outcome = solver::count(cands.grid(), 2);
    let solution = match (outcome.count, outcome.solution) {
        (1, Some(solution)) => solution,
        (count, _) => return Err(Refusal::NotUnique(count)),
    };
    for cell in sudokit::Cell::all() {
        if let Some(d) = solution.get(cell) {
            if cands.value(cell).is_none() && !cands.get(cell).contains(d) {
                return Err(Refusal::WrongMarks(format!(
                    "{cell} has lost its candidate {d}, the digit of the only solution"
                )));
            }
        }
    }
    Ok(())
}

/// What explaining one position found.
pub type Explained = Result<Box<Explanation>, Refusal>;

/// Vouches for the position, then runs the logic engine from it.
pub fn explain(cands: Candidates, set: &TechniqueSet) -> Explained {
    vouch(&cands)?;
    let engine = logic::Engine::new(set.clone()).unique(true);
    Ok(Box::new(engine.explain_from(cands)))
}

/// Steps per technique, and the hardest technique used (the latest in the set's order).
fn summary(
    steps: &[Step],
    set: &TechniqueSet,
) -> (BTreeMap<&'static str, usize>, Option<&'static str>) {
    let mut counts = BTreeMap::new();
    for s in steps {
        *counts.entry(s.technique.name()).or_insert(0) += 1;
    }
    let rank = |t| {
        set.techniques()
            .iter()
            .position(|&x| x == t)
            .unwrap_or(usize::MAX)
    };
    let hardest = steps.iter().map(|s| s.technique).max_by_key(|&t| rank(t));
    (counts, hardest.map(|t| t.name()))
}

/// Runs `sudokit explain`.
pub fn run(args: &ExplainArgs) -> Result<Outcome> {
    if let Some(dir) = &args.svg {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    if let Some(marks) = &args.marks {
        let cands = read_marks(marks)?;
        let result = explain(cands.clone(), &args.techniques);
        let src = Source::MARKS;
        let mut out = io::BufWriter::new(io::stdout().lock());
        let solved = write_explained(args, &mut out, &src, &cands.grid().clone(), cands, &result)?;
        out.flush()?;
        return Ok(Outcome::failed_if(!solved));
    }
    let mut failed = 0u64;
    let mut index = 0usize;
    let style = match args.format {
        Format::Text => ErrorStyle::Paragraph,
        Format::Json => ErrorStyle::Json,
    };
    let summary = batch::run(
        &args.input,
        style,
        |puzzle| explain(Candidates::new(puzzle), &args.techniques),
        |out, worked| {
            index += 1;
            let (puzzle, src) = (&worked.puzzle, worked.place.numbered(index));
            let start = Candidates::new(puzzle);
            let solved = write_explained(args, out, &src, puzzle, start, &worked.result)?;
            failed += u64::from(!solved);
            Ok(())
        },
    )?;
    Ok(Outcome {
        errors: summary.errors,
        failures: failed,
    })
}

/// Writes the record of a position logic cannot start from.
fn write_refusal(
    args: &ExplainArgs,
    out: &mut dyn Write,
    src: &Source<'_>,
    puzzle: &Grid,
    error: String,
) -> io::Result<()> {
    match args.format {
        Format::Text => writeln!(
            out,
            "Puzzle {puzzle}{}\n{error}: nothing to explain\n",
            src.trailing
        ),
        Format::Json => json_line(
            out,
            &ExplainRecord {
                file: src.file,
                line: src.line,
                puzzle: puzzle.to_string(),
                solved: false,
                solution: None,
                remaining: None,
                steps: 0,
                hardest: None,
                techniques: BTreeMap::new(),
                trailing: src.trailing,
                error: Some(error),
            },
        ),
    }
}

/// Writes the explanation of `puzzle` from `start` (its candidates, or a pencil-mark state);
/// `Ok(false)` when the logic did not reach the solution.
fn write_explained(
    args: &ExplainArgs,
    out: &mut dyn Write,
    src: &Source<'_>,
    puzzle: &Grid,
    start: Candidates,
    result: &Explained,
) -> io::Result<bool> {
    let explanation = match result {
        Err(refusal) => {
            write_refusal(args, out, src, puzzle, refusal.to_string())?;
            return Ok(false);
        }
        Ok(explanation) => explanation,
    };
    let (trailing, index) = (src.trailing, src.index);
    if args.format == Format::Text {
        writeln!(out, "Puzzle {puzzle}{trailing}")?;
    }
    let mut state = start;
    let width = explanation.steps.len().to_string().len();
    for (n, step) in explanation.steps.iter().enumerate() {
        if let Some(dir) = &args.svg {
            let path = dir.join(format!("{index:04}-{:04}.svg", n + 1));
            fs::write(&path, render::svg(puzzle, &state, Some(step)))?;
        }
        match args.format {
            Format::Text => {
                if args.candidates {
                    writeln!(out, "{state}")?;
                }
                writeln!(out, "{:>width$}. {step}", n + 1)?;
            }
            Format::Json => json_line(
                out,
                &LocatedStep {
                    file: src.file,
                    line: src.line,
                    step: StepRecord::new(n + 1, step),
                },
            )?,
        }
        logic::apply(&mut state, step);
        if args.grid && args.format == Format::Text && !step.placements.is_empty() {
            let marked: CellSet = step.placements.iter().map(|&(c, _)| c).collect();
            writeln!(out, "{}", format::grid_marked(state.grid(), marked))?;
        }
    }
    let (counts, hardest) = summary(&explanation.steps, &args.techniques);
    let final_grid = *explanation.final_state.grid();
    match args.format {
        Format::Text => {
            if explanation.solved {
                writeln!(out, "Solution {final_grid}")?;
            } else {
                let empty = 81 - puzzle.filled();
                let filled = final_grid.filled() - puzzle.filled();
                writeln!(
                    out,
                    "Stalled: the techniques in use find nothing more after filling {filled} of \
                     {empty} empty cells. Reached {final_grid}"
                )?;
                writeln!(out, "{}", explanation.final_state)?;
            }
            let list: Vec<String> = counts.iter().map(|(t, n)| format!("{n} {t}")).collect();
            match hardest {
                Some(hardest) => writeln!(
                    out,
                    "Summary: {} steps ({}); hardest: {hardest}\n",
                    explanation.steps.len(),
                    list.join(", "),
                )?,
                None => writeln!(out, "Summary: no step found\n")?,
            }
        }
        Format::Json => json_line(
            out,
            &ExplainRecord {
                file: src.file,
                line: src.line,
                puzzle: puzzle.to_string(),
                solved: explanation.solved,
                solution: explanation.solved.then(|| final_grid.to_string()),
                remaining: (!explanation.solved).then(|| final_grid.to_string()),
                steps: explanation.steps.len(),
                hardest,
                techniques: counts,
                trailing,
                error: None,
            },
        )?,
    }
    Ok(explanation.solved)
}

/// The most a `--marks` file may hold: a pencil-mark grid, even drawn with rules and
/// generous spacing, takes a few kilobytes; a larger file is not one, and is not read whole.
const MARKS_LIMIT: u64 = 1 << 16;

/// The pencil-mark state of `--marks`: the text itself, or `@FILE`.
pub fn read_marks(marks: &str) -> Result<Candidates> {
    let text = match marks.strip_prefix('@') {
        Some(path) => {
            let file = fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
            let mut bytes = Vec::new();
            file.take(MARKS_LIMIT + 1)
                .read_to_end(&mut bytes)
                .with_context(|| format!("cannot read {path}"))?;
            if bytes.len() as u64 > MARKS_LIMIT {
                anyhow::bail!(
                    "--marks: {path} is larger than {MARKS_LIMIT} bytes, too large for a pencil-mark grid"
                );
            }
            String::from_utf8(bytes)
                .with_context(|| format!("--marks: {path} is not UTF-8 text"))?
        }
        None => marks.to_string(),
    };
    Candidates::from_pencil_marks(&text).map_err(|e| anyhow::anyhow!("--marks: {e}"))
}
