//! `sudokit explain`: the whole solve, one named deduction at a time.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use sudokit::candidates::Candidates;
use sudokit::logic::tutor::{explain, explain_se, hardest, summary, Explained};
use sudokit::logic::{self, Explanation, TechniqueSet};
use sudokit::step::Step;
use sudokit::{format, render, CellSet, Grid};

use crate::batch::{self, Input, Place};
use crate::output::Outcome;
use crate::printer::{
    escape_html, AsHtml, AsJson, AsParagraph, HtmlPrinter, JsonPrinter, ParagraphPrinter, Printer,
};
use sudokit::wire::ExplainRecord;

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

    /// Output format: numbered text, or JSON Lines with one object per puzzle (its steps in
    /// an array).
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

    /// Whose steps: `default`, the logic engine with `--techniques`; or `se`, the path
    /// Sudoku Explainer's rating takes, each step with SE's name and rating.
    #[arg(long, value_enum, default_value_t = Rules::Default, conflicts_with = "techniques")]
    rules: Rules,

    /// Start from this pencil-mark state instead of puzzles: 81 whitespace-separated cells
    /// listing their candidates, or 729 characters; `@FILE` reads it from a file.
    #[arg(long, value_name = "MARKS", conflicts_with = "files")]
    marks: Option<String>,

    /// Write one SVG picture per step into DIR (`<puzzle>-<step>.svg`).
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
}

/// The engines of `explain` and `hint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Rules {
    /// The logic engine, with the techniques of `--techniques`.
    Default,
    /// Sudoku Explainer's path: the steps of the SE rating, in its order.
    Se,
}

impl ExplainArgs {
    /// Explains from `start` with the engine the arguments choose.
    fn explain(&self, start: Candidates) -> Explained {
        match self.rules {
            Rules::Default => explain(start, &self.techniques),
            Rules::Se => explain_se(start),
        }
    }
}

/// `--techniques` as clap sees it.
pub fn parse_set(text: &str) -> Result<TechniqueSet, String> {
    TechniqueSet::parse(text).map_err(|e| e.to_string())
}

/// The printer for `--format`.
fn printer(format: Format) -> &'static dyn Printer<Walkthrough> {
    match format {
        Format::Text => &ParagraphPrinter,
        Format::Json => &JsonPrinter,
        Format::Html => &HtmlPrinter,
    }
}

/// Output formats of `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Numbered steps, the solution or where it stalled, a summary.
    Text,
    /// JSON Lines: one object per puzzle, its steps in an array.
    Json,
    /// One self-contained HTML page: each puzzle's steps with a picture of each (chains as
    /// arrows), to share or print (`-o walk.html`).
    Html,
}

/// One puzzle's record: its explanation from a start, or why there is none.
struct Walkthrough {
    puzzle: Grid,
    start: Candidates,
    result: Explained,
    /// The techniques in use, whose order ranks the hardest step.
    set: TechniqueSet,
    /// `--grid`, `--candidates`: what the text draws besides the steps.
    draw_grid: bool,
    draw_candidates: bool,
}

impl Walkthrough {
    fn new(args: &ExplainArgs, puzzle: Grid, start: Candidates, result: Explained) -> Self {
        Walkthrough {
            puzzle,
            start,
            result,
            set: args.techniques.clone(),
            draw_grid: args.grid,
            draw_candidates: args.candidates,
        }
    }

    /// Whether the logic reached the solution.
    fn solved(&self) -> bool {
        self.result.as_ref().is_ok_and(|e| e.solved)
    }

    /// Writes one SVG picture per step into `dir`, named by the puzzle's `index` among
    /// those read and the step's number.
    fn draw(&self, dir: &Path, index: usize) -> io::Result<()> {
        let Ok(explanation) = &self.result else {
            return Ok(());
        };
        let mut state = self.start.clone();
        for (n, step) in explanation.steps.iter().enumerate() {
            let path = dir.join(format!("{index:04}-{:04}.svg", n + 1));
            fs::write(&path, render::svg(&self.puzzle, &state, Some(step)))?;
            logic::apply(&mut state, step);
        }
        Ok(())
    }
}

impl AsParagraph for Walkthrough {
    fn heading(&self) -> String {
        format!("Puzzle {}", self.puzzle)
    }

    fn body(&self) -> String {
        let explanation = match &self.result {
            Err(refusal) => return format!("{refusal}: nothing to explain\n"),
            Ok(explanation) => explanation,
        };
        let mut text = String::new();
        let mut state = self.start.clone();
        let width = explanation.steps.len().to_string().len();
        for (n, step) in explanation.steps.iter().enumerate() {
            if self.draw_candidates {
                text += &format!("{state}\n");
            }
            text += &format!("{:>width$}. {step}\n", n + 1);
            logic::apply(&mut state, step);
            if self.draw_grid && !step.placements.is_empty() {
                let marked: CellSet = step.placements.iter().map(|&(c, _)| c).collect();
                text += &format!("{}\n", format::grid_marked(state.grid(), marked));
            }
        }
        let [outcome, summary] = self.closing(explanation);
        text += &format!("{outcome}\n");
        if !explanation.solved {
            text += &format!("{}\n", explanation.final_state);
        }
        text += &format!("{summary}\n");
        text
    }
}

impl Walkthrough {
    /// The closing lines of an explanation: the solution or where it stalled, and the
    /// summary.
    fn closing(&self, explanation: &Explanation) -> [String; 2] {
        let reached = explanation.final_state.grid();
        let outcome = if explanation.solved {
            format!("Solution {reached}")
        } else {
            let empty = 81 - self.puzzle.filled();
            let filled = reached.filled() - self.puzzle.filled();
            format!(
                "Stalled: the techniques in use find nothing more after filling {filled} of \
                 {empty} empty cells. Reached {reached}"
            )
        };
        let (counts, _) = summary(&explanation.steps, &self.set);
        let list: Vec<String> = counts.iter().map(|(t, n)| format!("{n} {t}")).collect();
        let summary = match hardest(&explanation.steps, &self.set).map(Step::label) {
            Some(hardest) => format!(
                "Summary: {} steps ({}); hardest: {hardest}",
                explanation.steps.len(),
                list.join(", ")
            ),
            None => "Summary: no step found".to_string(),
        };
        [outcome, summary]
    }
}

impl AsHtml for Walkthrough {
    /// The start's picture, then each step's text and picture, then the outcome and summary.
    fn body_html(&self) -> String {
        let explanation = match &self.result {
            Err(refusal) => {
                return format!(
                    "<p>{}: nothing to explain</p>\n",
                    escape_html(&refusal.to_string())
                )
            }
            Ok(explanation) => explanation,
        };
        let mut html = render::svg(&self.puzzle, &self.start, None);
        html.push_str("<ol>\n");
        let mut state = self.start.clone();
        for step in &explanation.steps {
            html += &format!(
                "<li><p>{}</p>\n{}</li>\n",
                escape_html(&step.to_string()),
                render::svg(&self.puzzle, &state, Some(step))
            );
            logic::apply(&mut state, step);
        }
        html.push_str("</ol>\n");
        for line in self.closing(explanation) {
            html += &format!("<p>{}</p>\n", escape_html(&line));
        }
        html
    }
}

impl AsJson for Walkthrough {
    fn json(&self) -> impl Serialize + '_ {
        ExplainRecord::new(&self.puzzle, &self.result, &self.set)
    }
}

/// Runs `sudokit explain`.
pub fn run(args: &ExplainArgs) -> Result<Outcome> {
    if let Some(dir) = &args.svg {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let printer = printer(args.format);
    if let Some(marks) = &args.marks {
        let start = read_marks(marks)?;
        let result = args.explain(start.clone());
        let record = Walkthrough::new(args, *start.grid(), start, result);
        if let Some(dir) = &args.svg {
            record.draw(dir, 1)?;
        }
        let mut out = args.input.writer()?;
        printer.begin(&mut out)?;
        printer.print(&mut out, Some(&Place::marks()), &record)?;
        printer.end(&mut out)?;
        out.flush()?;
        return Ok(Outcome::failed_if(!record.solved()));
    }
    let mut failed = 0u64;
    let mut index = 0usize;
    let summary = batch::run(
        &args.input,
        printer,
        |puzzle| args.explain(Candidates::new(puzzle)),
        |out, worked| {
            index += 1;
            let start = Candidates::new(&worked.puzzle);
            let record = Walkthrough::new(args, worked.puzzle, start, worked.result);
            if let Some(dir) = &args.svg {
                record.draw(dir, index)?;
            }
            failed += u64::from(!record.solved());
            out.print(&worked.place, &record)
        },
    )?;
    Ok(Outcome {
        errors: summary.errors,
        failures: failed,
    })
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
