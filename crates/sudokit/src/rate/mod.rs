//! Difficulty rating: Sudoku Explainer's ER/EP/ED scale from an SE-equivalent search,
//! the least number of assumptions singles need, and the exact solver's effort.

mod se;

pub use se::SeTechnique;

use crate::grid::Grid;

/// An SE-scale rating in tenths (`107` is 10.7), as forum lists print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tenths(pub u16);

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// Sudoku Explainer's three numbers for a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeRating {
    /// ER: the hardest step of the whole solve.
    pub er: Tenths,
    /// EP: the hardest step up to and including the first placement.
    pub ep: Tenths,
    /// ED: the first step.
    pub ed: Tenths,
    /// The technique of the hardest step (the first one rated ER).
    pub hardest: Option<SeTechnique>,
    /// False when SE's rules stall (ER is then 20.0, as SE reports it).
    pub solved: bool,
}

/// Rates `puzzle` on the SE scale. The puzzle should have a unique solution: SE's
/// uniqueness rules (unique loops, BUG) assume it.
pub fn se_rating(puzzle: &Grid) -> SeRating {
    let out = se::se_rate(puzzle.values(), se::MAX_LEVEL, true);
    let er = se::tenths(out.er);
    let hardest = out
        .steps
        .iter()
        .find(|h| se::tenths(h.diff) == er)
        .map(|h| h.tech);
    SeRating {
        er: Tenths(if puzzle.is_full() { 0 } else { er }),
        ep: Tenths(se::tenths(out.ep)),
        ed: Tenths(se::tenths(out.ed)),
        hardest,
        solved: out.solved,
    }
}
