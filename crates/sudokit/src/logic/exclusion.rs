//! Aligned pair and triplet exclusion, as Sudoku Explainer defines them (HoDoKu has
//! neither): the finders run SE's own rule (see [`crate::rate`]) on the current pencil
//! marks, so the default engine can name every step of SE's path too.

use crate::candidates::Candidates;
use crate::rate::aligned_exclusion_step;
use crate::step::Step;

/// Aligned pair exclusion: pairs of digits two cells cannot take together.
pub fn aligned_pairs(c: &Candidates) -> Option<Step> {
    aligned_exclusion_step(c, 2)
}

/// Aligned triplet exclusion: the same over three cells.
pub fn aligned_triplets(c: &Candidates) -> Option<Step> {
    aligned_exclusion_step(c, 3)
}
