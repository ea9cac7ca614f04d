//! The JSON every command writes, in one place: each record type is the schema the guide
//! documents for one command (`--format json`), field for field and in the order written.
//!
//! Records that stand for an input puzzle are written [`Placed`]: they begin with `file` and
//! `line` (where the puzzle starts) and end with the puzzle's `trailing` text, around the
//! command's own fields; a puzzle that could not be read or worked on is an [`ErrorRecord`]
//! in its place, the one shape of error for every command. Optional fields are left out
//! rather than written as `null`.

use std::collections::BTreeMap;

use serde::Serialize;
use sudokit::step::Step;
use sudokit::transform::Transform;
use sudokit::{Cell, Digit};

use crate::batch::Place;

/// A record of the puzzle at a place: `file`, `line`, the record's own fields, `trailing`.
#[derive(Serialize)]
pub struct Placed<'a, R> {
    /// The input's name (`<stdin>`, `<argument>`, or the path).
    pub file: &'a str,
    /// The 1-based line the puzzle starts on.
    pub line: usize,
    #[serde(flatten)]
    pub record: R,
    /// The text after the puzzle on its line, passed through.
    pub trailing: &'a str,
}

impl<'a, R> Placed<'a, R> {
    /// `record`, placed where the puzzle at `place` was read.
    pub fn new(place: &'a Place, record: R) -> Placed<'a, R> {
        Placed {
            file: &place.file,
            line: place.line,
            record,
            trailing: &place.trailing,
        }
    }
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
    pub puzzle: String,
    /// `unique`, `multiple solutions`, `no solution`, or `solved` (found, uniqueness not claimed).
    pub status: &'static str,
    pub count: usize,
    /// Whether `count` is the whole count (the search ended below its limit).
    pub count_exact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<SearchStats>,
}

/// `solve --all`: the opening of a record, before its `solutions` array, which is written as
/// the solutions are found and followed by a [`SolveEnd`].
#[derive(Serialize)]
pub struct SolveHead<'a> {
    pub file: &'a str,
    pub line: usize,
    pub puzzle: String,
}

/// `solve --all`: the rest of a record, after its `solutions` array.
#[derive(Serialize)]
pub struct SolveEnd<'a> {
    pub count: usize,
    pub count_exact: bool,
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<SearchStats>,
    pub trailing: &'a str,
}

/// `solve --stats`: what the search cost.
#[derive(Clone, Serialize)]
pub struct SearchStats {
    pub guesses: u64,
    pub propagations: u64,
    pub microseconds: f64,
}

/// `rate`: one record per puzzle.
#[derive(Serialize)]
pub struct RatingRecord {
    pub puzzle: String,
    pub er: String,
    pub ep: String,
    pub ed: String,
    /// False when `--max-level` capped the search: `er` is then a lower bound.
    pub complete: bool,
    pub level: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardest: Option<String>,
    pub assumptions: String,
    pub guesses: u64,
}

/// `generate`: one record per puzzle made (no input, so no place and no trailing text).
#[derive(Serialize)]
pub struct GeneratedRecord {
    pub puzzle: String,
    pub solution: String,
    pub clues: usize,
    pub symmetry: &'static str,
    /// The run's seed and the puzzle's 0-based number in it: together they make it again.
    pub seed: u64,
    pub index: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub er: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ep: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
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
    pub puzzle: String,
    pub canonical: String,
    /// The transform that maps the puzzle onto its canonical form.
    pub transform: TransformRecord,
    pub automorphisms: u64,
}

/// `same`: the one record.
#[derive(Serialize)]
pub struct SameRecord {
    pub equivalent: bool,
    /// The transform that maps A onto B, when they are equivalent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transform: Option<TransformRecord>,
    pub canonical_a: String,
    pub canonical_b: String,
    pub automorphisms: u64,
}

/// A transform: whether it transposes, which line of the source (after the transposition)
/// lands in each line of the image, one-based, and `digits` the images of 1..9.
#[derive(Serialize)]
pub struct TransformRecord {
    pub transpose: bool,
    pub rows: String,
    pub cols: String,
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

/// A placement or an elimination.
#[derive(Serialize)]
pub struct Mark {
    pub cell: String,
    pub digit: u8,
}

/// One step of a solve: the record `explain` writes per step, and `hint --level 3` inside
/// its record.
#[derive(Serialize)]
pub struct StepRecord {
    /// 1-based number of the step in its solve.
    pub step: usize,
    pub technique: &'static str,
    pub placements: Vec<Mark>,
    pub eliminations: Vec<Mark>,
    pub cells: Vec<String>,
    pub houses: Vec<String>,
    pub digits: Vec<u8>,
    /// The chain in Eureka notation, for chain techniques.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain: Option<String>,
    /// The step as the text output writes it.
    pub text: String,
}

impl StepRecord {
    /// Step number `n` (1-based).
    pub fn new(n: usize, step: &Step) -> StepRecord {
        let marks = |list: &[(Cell, Digit)]| {
            list.iter()
                .map(|(c, d)| Mark {
                    cell: c.to_string(),
                    digit: d.get(),
                })
                .collect()
        };
        StepRecord {
            step: n,
            technique: step.technique.name(),
            placements: marks(&step.placements),
            eliminations: marks(&step.eliminations),
            cells: step.cells.iter().map(ToString::to_string).collect(),
            houses: step.houses.iter().map(ToString::to_string).collect(),
            digits: step.digits.iter().map(|d| d.get()).collect(),
            chain: step.chain.clone(),
            text: step.to_string(),
        }
    }
}

/// `explain`: one record per puzzle, its steps and what they came to; or, with `error` and no
/// steps, a position logic cannot start from.
#[derive(Serialize)]
pub struct ExplainRecord {
    pub puzzle: String,
    pub solved: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// The position reached, when the techniques stalled before the solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining: Option<String>,
    /// The steps, in order.
    pub steps: Vec<StepRecord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardest: Option<&'static str>,
    /// Steps per technique.
    pub techniques: BTreeMap<&'static str, usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `hint`: one record per puzzle.
#[derive(Serialize)]
pub struct HintRecord {
    pub level: u8,
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
