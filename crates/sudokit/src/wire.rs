//! The JSON records of every front end, in one place (with the `serde` feature): each
//! record type is the schema the guide documents for one command (`--format json`), field
//! for field and in the order written, and the same record is what a server or a binding
//! answers for the same work.
//!
//! Records that stand for an input puzzle are written [`Placed`]: they begin with `file` and
//! `line` (where the puzzle starts) and end with the puzzle's `trailing` text, around the
//! command's own fields; a puzzle that could not be read or worked on is an [`ErrorRecord`]
//! in its place, the one shape of error for every command. Optional fields are left out
//! rather than written as `null`.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::canon::Canonical;
use crate::format;
use crate::generate::{Generated, Symmetry};
use crate::grid::{Cell, Digit, Grid};
use crate::links;
use crate::logic::tutor::{self, Explained, Hint};
use crate::logic::TechniqueSet;
use crate::rate::{Level, Rating, SeRating};
use crate::solver;
use crate::step::Step;
use crate::transform::Transform;

/// A record of the puzzle at a place: `file`, `line`, the record's own fields, `trailing`.
#[derive(Serialize)]
pub struct Placed<'a, R> {
    /// The input's name (`<stdin>`, `<argument>`, or the path).
    pub file: &'a str,
    /// The 1-based line the puzzle starts on.
    pub line: usize,
    /// The record's own fields.
    #[serde(flatten)]
    pub record: R,
    /// The text after the puzzle on its line, passed through.
    pub trailing: &'a str,
}

/// In place of a puzzle that could not be read, or was read but not worked on (not unique).
#[derive(Serialize)]
pub struct ErrorRecord<'a> {
    /// The puzzle, when it was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<String>,
    /// The positioned message, `file:line:column: what`.
    pub error: &'a str,
}

/// `solve`: one record per puzzle.
#[derive(Serialize)]
pub struct SolveRecord {
    /// The puzzle, as an 81-character line.
    pub puzzle: String,
    /// `unique`, `multiple solutions`, `no solution`, or `solved` (found, uniqueness not claimed).
    pub status: &'static str,
    /// Solutions found, at most the limit.
    pub count: usize,
    /// Whether `count` is the whole count (the search ended below its limit).
    pub count_exact: bool,
    /// The (first) solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// What the search cost, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<SearchStats>,
}

/// `solve --all`: the opening of a record, before its `solutions` array, which is written as
/// the solutions are found and followed by a [`SolveEnd`].
#[derive(Serialize)]
pub struct SolveHead<'a> {
    /// The input's name (`<stdin>`, `<argument>`, or the path).
    pub file: &'a str,
    /// The 1-based line the puzzle starts on.
    pub line: usize,
    /// The puzzle, as an 81-character line.
    pub puzzle: String,
}

/// `solve --all`: the rest of a record, after its `solutions` array.
#[derive(Serialize)]
pub struct SolveEnd<'a> {
    /// Solutions found, at most the limit.
    pub count: usize,
    /// Whether `count` is the whole count.
    pub count_exact: bool,
    /// `unique`, `multiple solutions`, `no solution`, or `solved` (found, uniqueness not claimed).
    pub status: &'static str,
    /// What the search cost, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<SearchStats>,
    /// The text after the puzzle on its line, passed through.
    pub trailing: &'a str,
}

/// `solve --stats`: what the search cost.
#[derive(Clone, Serialize)]
pub struct SearchStats {
    /// Branch points of the exact search.
    pub guesses: u64,
    /// Propagation steps of the exact search.
    pub propagations: u64,
    /// Time taken.
    pub microseconds: f64,
}

/// `rate`: one record per puzzle.
#[derive(Serialize)]
pub struct RatingRecord {
    /// The puzzle, as an 81-character line.
    pub puzzle: String,
    /// ER, with one decimal.
    pub er: String,
    /// EP, with one decimal.
    pub ep: String,
    /// ED, with one decimal.
    pub ed: String,
    /// False when `--max-level` capped the search: `er` is then a lower bound.
    pub complete: bool,
    /// The level word.
    pub level: &'static str,
    /// The hardest technique used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardest: Option<String>,
    /// Assumptions a singles solver needs (`2`, or `>=4` beyond the cap).
    pub assumptions: String,
    /// Branch points of the exact search.
    pub guesses: u64,
}

/// `generate`: one record per puzzle made (no input, so no place and no trailing text).
#[derive(Serialize)]
pub struct GeneratedRecord {
    /// The puzzle, as an 81-character line.
    pub puzzle: String,
    /// The (first) solution.
    pub solution: String,
    /// Givens.
    pub clues: usize,
    /// The symmetry asked for.
    pub symmetry: &'static str,
    /// The run's seed and the puzzle's 0-based number in it: together they make it again.
    pub seed: u64,
    /// The puzzle's 0-based number in the run.
    pub index: u64,
    /// ER, with one decimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub er: Option<String>,
    /// EP, with one decimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ep: Option<String>,
    /// ED, with one decimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ed: Option<String>,
    /// The level word.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
    /// The hardest technique used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardest: Option<String>,
    /// With `--practice`: the position, as `explain --marks` reads it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marks: Option<String>,
    /// With `--practice`: the position's next step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_step: Option<StepRecord>,
}

/// `canon`: one record per puzzle.
#[derive(Serialize)]
pub struct CanonRecord {
    /// The puzzle, as an 81-character line.
    pub puzzle: String,
    /// The minlex form.
    pub canonical: String,
    /// The transform that maps the puzzle onto its canonical form.
    pub transform: TransformRecord,
    /// Transformations that map the puzzle onto itself.
    pub automorphisms: u64,
}

/// `same`: the one record.
#[derive(Serialize)]
pub struct SameRecord {
    /// Whether A and B are the same puzzle.
    pub equivalent: bool,
    /// The transform that maps A onto B, when they are equivalent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transform: Option<TransformRecord>,
    /// A's minlex form.
    pub canonical_a: String,
    /// B's minlex form.
    pub canonical_b: String,
    /// Transformations that map the puzzle onto itself.
    pub automorphisms: u64,
}

/// A transform: whether it transposes, which line of the source (after the transposition)
/// lands in each line of the image, one-based, and `digits` the images of 1..9.
#[derive(Serialize)]
pub struct TransformRecord {
    /// Whether the transform transposes first.
    pub transpose: bool,
    /// Which source row lands in each row, one-based.
    pub rows: String,
    /// Which source column lands in each column, one-based.
    pub cols: String,
    /// Digits, as the record names them.
    pub digits: String,
}

impl From<&Transform> for TransformRecord {
    fn from(t: &Transform) -> Self {
        let one_based = |p: [u8; 9]| p.iter().map(|x| char::from(b'1' + x)).collect();
        TransformRecord {
            transpose: t.transposes(),
            rows: one_based(t.rows()),
            cols: one_based(t.cols()),
            digits: t.digit_map().iter().map(|d| char::from(b'0' + d)).collect(),
        }
    }
}

/// A chain's node: a digit in one cell, or in a group of cells.
#[derive(Serialize)]
pub struct NodeRecord {
    /// The digit.
    pub digit: u8,
    /// Its cells, `r1c1`.
    pub cells: Vec<String>,
}

/// A chain's link, as [`links::Link`] holds it.
#[derive(Serialize)]
pub struct LinkRecord {
    /// Where the arrow starts.
    pub from: NodeRecord,
    /// Where it points.
    pub to: NodeRecord,
    /// A strong link (drawn solid), else weak (dashed).
    pub strong: bool,
}

impl From<&links::Link> for LinkRecord {
    fn from(link: &links::Link) -> LinkRecord {
        let node = |n: &links::Node| NodeRecord {
            digit: n.digit.get(),
            cells: n.cells.iter().map(|c| c.to_string()).collect(),
        };
        LinkRecord {
            from: node(&link.from),
            to: node(&link.to),
            strong: link.strong,
        }
    }
}

/// A placement or an elimination.
#[derive(Serialize)]
pub struct Mark {
    /// The cell, `r1c1`.
    pub cell: String,
    /// The digit.
    pub digit: u8,
}

/// One step of a solve: the record `explain` writes per step, and `hint --level 3` inside
/// its record.
#[derive(Serialize)]
pub struct StepRecord {
    /// 1-based number of the step in its solve.
    pub step: usize,
    /// HoDoKu's name of the technique.
    pub technique: &'static str,
    /// Sudoku Explainer's name of the technique, on SE's path (`--rules se`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub se_technique: Option<String>,
    /// Sudoku Explainer's rating of the step, on SE's path: `9.3`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// Digits placed.
    pub placements: Vec<Mark>,
    /// Candidates removed.
    pub eliminations: Vec<Mark>,
    /// The cells the step looks at.
    pub cells: Vec<String>,
    /// Cells with a special role: a fish's fins, a rectangle's roof, BUG+1's cell, X-Colors'
    /// exception cells, 3D Medusa's cells of the second color.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fins: Vec<String>,
    /// The houses the step looks at.
    pub houses: Vec<String>,
    /// Digits, as the record names them.
    pub digits: Vec<u8>,
    /// The chain in Eureka notation, for chain techniques.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain: Option<String>,
    /// The chain's links, for drawing as arrows.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkRecord>,
    /// On SE's path, a nested chain's premises: what rules inside its chains removed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub premises: Vec<PremiseRecord>,
    /// The step as the text output writes it.
    pub text: String,
}

/// A candidate a rule removed inside a nested chain, and why ([`crate::step::SePremise`]).
#[derive(Serialize)]
pub struct PremiseRecord {
    /// The candidate removed.
    pub removed: Mark,
    /// The candidates the chain had removed that the rule rests on.
    pub given: Vec<Mark>,
    /// The rule's step (numbered by the premise's place in the list), when found again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<Box<StepRecord>>,
}

impl StepRecord {
    /// Step number `n` (1-based).
    pub fn new(n: usize, step: &Step) -> StepRecord {
        let mark = |&(c, d): &(Cell, Digit)| Mark {
            cell: c.to_string(),
            digit: d.get(),
        };
        let marks = |list: &[(Cell, Digit)]| list.iter().map(mark).collect();
        let premises = step.se.as_ref().map_or(&[][..], |label| &label.premises);
        StepRecord {
            step: n,
            technique: step.technique.name(),
            se_technique: step.se.as_ref().map(|label| label.technique.name()),
            rating: step
                .se
                .as_ref()
                .map(|label| f64::from(label.rating.0) / 10.0),
            placements: marks(&step.placements),
            eliminations: marks(&step.eliminations),
            cells: step.cells.iter().map(ToString::to_string).collect(),
            fins: step.fins.iter().map(ToString::to_string).collect(),
            houses: step.houses.iter().map(ToString::to_string).collect(),
            digits: step.digits.iter().map(|d| d.get()).collect(),
            chain: step.chain.clone(),
            links: step
                .chain
                .as_deref()
                .map_or_else(Vec::new, links::links)
                .iter()
                .map(LinkRecord::from)
                .collect(),
            premises: (premises.iter().enumerate())
                .map(|(i, premise)| PremiseRecord {
                    removed: mark(&premise.removed),
                    given: marks(&premise.given),
                    step: (premise.step.as_ref()).map(|s| Box::new(StepRecord::new(i + 1, s))),
                })
                .collect(),
            text: step.to_string(),
        }
    }
}

/// `explain`: one record per puzzle, its steps and what they came to; or, with `error` and no
/// steps, a position logic cannot start from.
#[derive(Serialize)]
pub struct ExplainRecord {
    /// The puzzle, as an 81-character line.
    pub puzzle: String,
    /// Whether the logic reached the solution.
    pub solved: bool,
    /// The (first) solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// The position reached, when the techniques stalled before the solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining: Option<String>,
    /// The steps, in order.
    pub steps: Vec<StepRecord>,
    /// The hardest technique used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardest: Option<String>,
    /// Steps per technique.
    pub techniques: BTreeMap<String, usize>,
    /// Why there is nothing else.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `hint`: one record per puzzle.
#[derive(Serialize)]
pub struct HintRecord {
    /// The level word.
    pub level: u8,
    /// HoDoKu's name of the technique.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub technique: Option<&'static str>,
    /// The hint's words at its level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The whole step, at level 3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<StepRecord>,
    /// Why there is no hint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl SolveRecord {
    /// The record of `outcome`, a count of `puzzle`'s solutions up to `limit`. `counting`
    /// says that the count was asked for (`--count`): several solutions are then no failure,
    /// and a lone solution found by a search that stopped at it is `solved`, not `unique`.
    pub fn new(
        puzzle: &Grid,
        outcome: &solver::Outcome,
        limit: usize,
        counting: bool,
        stats: Option<SearchStats>,
    ) -> SolveRecord {
        let exact = outcome.count < limit;
        SolveRecord {
            puzzle: puzzle.to_string(),
            status: solve_status(outcome.count, exact, counting),
            count: outcome.count,
            count_exact: exact,
            solution: outcome.solution.as_ref().map(Grid::to_string),
            stats,
        }
    }
}

/// The status word of a search that found `count` solutions (`exact` when it ended below
/// its limit), claiming no more than was checked: `unique` only when the search went on past
/// the first solution and found no other.
pub fn solve_status(count: usize, exact: bool, counting: bool) -> &'static str {
    match count {
        0 => "no solution",
        1 if exact => "unique",
        _ if counting => "solved",
        _ => "multiple solutions",
    }
}

impl RatingRecord {
    /// The record of `puzzle`'s `rating`.
    pub fn new(puzzle: &Grid, rating: &Rating) -> RatingRecord {
        let se = &rating.se;
        RatingRecord {
            puzzle: puzzle.to_string(),
            er: se.er.to_string(),
            ep: se.ep.to_string(),
            ed: se.ed.to_string(),
            complete: se.complete,
            level: rating.level.word(),
            hardest: se.hardest.map(|t| t.name()),
            assumptions: rating.assumptions.to_string(),
            guesses: rating.guesses,
        }
    }
}

impl CanonRecord {
    /// The record of `puzzle`'s canonical form, blanks written as `blank`.
    pub fn new(puzzle: &Grid, canonical: &Canonical, blank: char) -> CanonRecord {
        CanonRecord {
            puzzle: format::line(puzzle, blank),
            canonical: format::line(&canonical.grid, blank),
            transform: (&canonical.transform).into(),
            automorphisms: canonical.automorphisms,
        }
    }
}

impl ExplainRecord {
    /// The record of explaining `puzzle` with `set`: its steps and what they came to, or why
    /// there are none.
    pub fn new(puzzle: &Grid, explained: &Explained, set: &TechniqueSet) -> ExplainRecord {
        let (explanation, error) = match explained {
            Ok(explanation) => (Some(explanation), None),
            Err(refusal) => (None, Some(refusal.to_string())),
        };
        let solved = explanation.is_some_and(|e| e.solved);
        let reached = explanation.map(|e| e.final_state.grid().to_string());
        let (techniques, hardest) = match explanation {
            Some(e) => tutor::summary(&e.steps, set),
            None => (BTreeMap::new(), None),
        };
        ExplainRecord {
            puzzle: puzzle.to_string(),
            solved,
            solution: reached.clone().filter(|_| solved),
            remaining: reached.filter(|_| !solved),
            steps: explanation.map_or_else(Vec::new, |e| {
                e.steps
                    .iter()
                    .enumerate()
                    .map(|(n, step)| StepRecord::new(n + 1, step))
                    .collect()
            }),
            hardest,
            techniques,
            error,
        }
    }
}

impl HintRecord {
    /// The record of `hint` told at `level` (1 to 3).
    pub fn new(hint: &Hint, level: u8) -> HintRecord {
        let step = match hint {
            Hint::Step(step) => Some(step),
            _ => None,
        };
        let text = hint_text(hint, level);
        HintRecord {
            level,
            technique: step.map(|s| s.technique.name()),
            step: step.filter(|_| level >= 3).map(|s| StepRecord::new(1, s)),
            hint: step.is_some().then(|| text.clone()),
            error: step.is_none().then_some(text),
        }
    }
}

/// What a hint says at `level`: its words, or why there is none.
pub fn hint_text(hint: &Hint, level: u8) -> String {
    match hint {
        Hint::Step(step) => tutor::words(step, level),
        Hint::Refused(refusal) => format!("{refusal}: no hint can be given"),
        Hint::Stuck => "no technique in use applies here".to_string(),
        Hint::Solved => "already solved".to_string(),
    }
}

impl GeneratedRecord {
    /// The record of puzzle number `index` of the run seeded `seed`, with its `rating` when
    /// it has one.
    pub fn new(
        generated: &Generated,
        rating: Option<&SeRating>,
        symmetry: Symmetry,
        seed: u64,
        index: u64,
    ) -> GeneratedRecord {
        let practice = generated.practice.as_ref();
        GeneratedRecord {
            puzzle: generated.puzzle.to_string(),
            solution: generated.solution.to_string(),
            clues: generated.puzzle.filled(),
            symmetry: symmetry.name(),
            seed,
            index,
            er: rating.map(|r| r.er.to_string()),
            ep: rating.map(|r| r.ep.to_string()),
            ed: rating.map(|r| r.ed.to_string()),
            level: rating.map(|r| Level::of(r.er).word()),
            hardest: rating.and_then(|r| r.hardest.map(|t| t.name())),
            marks: practice.map(|p| format::marks_line(&p.marks)),
            next_step: practice.map(|p| StepRecord::new(1, &p.step)),
        }
    }
}
