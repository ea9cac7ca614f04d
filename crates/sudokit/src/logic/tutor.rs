//! What a tutor needs on top of the engine: a position is vouched for before any logic
//! runs (one solution, no lost candidate), then explained whole, or given a hint that says
//! only as much as its level allows. The CLI's `explain` and `hint` and the server's
//! answers are these functions; [`explain_se`] and [`hint_se`] give Sudoku Explainer's
//! path instead of the engine's steps.

use std::collections::BTreeMap;
use std::fmt;

use crate::candidates::Candidates;
use crate::grid::Cell;
use crate::logic::{Engine, Explanation, TechniqueSet};
use crate::rate::{se_next_step, se_path, MAX_LEVEL};
use crate::solver;
use crate::step::Step;

/// Why the logic engine will not start from a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The placed digits allow no solution (0) or several (2, meaning "2 or more").
    NotUnique(usize),
    /// A pencil mark state that has lost a digit of the only solution.
    WrongMarks(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
    for cell in Cell::all() {
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
    let engine = Engine::new(set.clone()).unique(true);
    Ok(Box::new(engine.explain_from(cands)))
}

/// Vouches for the position, then takes Sudoku Explainer's path from it ([`se_path`]).
pub fn explain_se(cands: Candidates) -> Explained {
    vouch(&cands)?;
    Ok(Box::new(se_path(&cands, MAX_LEVEL).explanation))
}

/// Steps per technique, and the hardest technique used ([`hardest`]), by the names the
/// steps' engine gives them ([`Step::name`]).
pub fn summary(steps: &[Step], set: &TechniqueSet) -> (BTreeMap<String, usize>, Option<String>) {
    let mut counts = BTreeMap::new();
    for s in steps {
        *counts.entry(s.name()).or_insert(0) += 1;
    }
    (counts, hardest(steps, set).map(Step::name))
}

/// The hardest step: the first of the highest SE rating on SE's path, else the first of
/// the technique latest in the set's order, the highest SE rating among those (the default
/// engine's steps from SE's chains keep SE's label).
pub fn hardest<'a>(steps: &'a [Step], set: &TechniqueSet) -> Option<&'a Step> {
    let se_path = steps.iter().all(|s| s.se.is_some());
    let rank = |s: &Step| {
        let rating = s.se.as_ref().map_or(0, |label| label.rating.0);
        let position = set.techniques().iter().position(|&x| x == s.technique);
        if se_path {
            (0, rating)
        } else {
            (position.unwrap_or(usize::MAX), rating)
        }
    };
    // `max_by_key` keeps the last of equals: walk backwards for the first.
    steps.iter().rev().max_by_key(|s| rank(s))
}

/// The next step for a position, or why there is none.
#[derive(Clone, Debug)]
pub enum Hint {
    /// The position is not one logic may start from.
    Refused(Refusal),
    /// No technique in the set applies.
    Stuck,
    /// The position is already solved.
    Solved,
    /// The step.
    Step(Box<Step>),
}

/// Finds the next step from a candidate state, once [`vouch`] accepts the state.
pub fn hint(cands: &Candidates, set: &TechniqueSet) -> Hint {
    hint_by(cands, |c| {
        Engine::new(set.clone()).unique(true).next_step(c)
    })
}

/// The first step of Sudoku Explainer's path from a candidate state ([`se_next_step`]),
/// once [`vouch`] accepts the state.
pub fn hint_se(cands: &Candidates) -> Hint {
    hint_by(cands, se_next_step)
}

/// The hint `next` finds on a state [`vouch`] accepts and that is not solved yet.
fn hint_by(cands: &Candidates, next: impl FnOnce(&Candidates) -> Option<Step>) -> Hint {
    if let Err(refusal) = vouch(cands) {
        return Hint::Refused(refusal);
    }
    if cands.is_solved() {
        return Hint::Solved;
    }
    match next(cands) {
        Some(step) => Hint::Step(Box::new(step)),
        None => Hint::Stuck,
    }
}

/// The hint's words at `level`.
pub fn words(step: &Step, level: u8) -> String {
    let name = step.name();
    let article = if name.starts_with(['A', 'E', 'I', 'O', 'U', 'X']) {
        "an"
    } else {
        "a"
    };
    match level {
        1 => format!("Look for {article} {name}."),
        2 => {
            let digits: Vec<String> = step.digits.iter().map(|d| d.to_string()).collect();
            let place = if !step.houses.is_empty() {
                let houses: Vec<String> = step.houses.iter().map(ToString::to_string).collect();
                format!(" in {}", houses.join(", "))
            } else if !step.cells.is_empty() {
                let cells: Vec<String> = step.cells.iter().map(ToString::to_string).collect();
                format!(" at {}", cells.join(", "))
            } else {
                String::new()
            };
            let on = match digits.len() {
                0 => String::new(),
                1 => format!(" on digit {}", digits[0]),
                _ => format!(" on digits {}", digits.join(", ")),
            };
            format!("Look for {article} {name}{on}{place}.")
        }
        _ => step.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Digit, Grid};

    /// Singles, pointing, a naked pair and an X-Wing.
    const XWING: &str =
        "....2.65.6.2.14...4....8.2..71......83.....16......78..6.5....3...14.5.8.84.9....";

    #[test]
    fn positions_are_vouched_for_before_any_logic() {
        let puzzle: Grid = XWING.parse().unwrap();
        assert_eq!(vouch(&Candidates::new(&puzzle)), Ok(()));
        let mut open = puzzle;
        open.set(Cell::new(4).unwrap(), None);
        open.set(Cell::new(6).unwrap(), None);
        open.set(Cell::new(7).unwrap(), None);
        assert_eq!(vouch(&Candidates::new(&open)), Err(Refusal::NotUnique(2)));
        // r1c3 must be 8: without its candidate 8 the marks are wrong.
        let mut marks = Candidates::new(&puzzle);
        marks.eliminate(Cell::new(2).unwrap(), Digit::new(8).unwrap());
        let refusal = vouch(&marks).unwrap_err();
        assert!(
            refusal
                .to_string()
                .contains("r1c3 has lost its candidate 8"),
            "{refusal}"
        );
    }

    #[test]
    fn hints_rise_in_detail_and_explanations_sum_up() {
        let puzzle: Grid = XWING.parse().unwrap();
        let set = TechniqueSet::all();
        let Hint::Step(step) = hint(&Candidates::new(&puzzle), &set) else {
            panic!("a step")
        };
        assert_eq!(words(&step, 1), "Look for a Hidden Single.");
        assert_eq!(
            words(&step, 2),
            "Look for a Hidden Single on digit 8 in box 1."
        );
        assert_eq!(words(&step, 3), "Hidden Single: r1c3=8 in box 1");
        let explanation = explain(Candidates::new(&puzzle), &set).unwrap();
        let (counts, hardest) = summary(&explanation.steps, &set);
        assert_eq!(counts.values().sum::<usize>(), explanation.steps.len());
        assert_eq!(hardest.as_deref(), Some("X-Wing"));
    }
}
