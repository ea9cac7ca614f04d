//! Sudoku Explainer's path as [`Step`]s: the steps the SE-scale rating applies, in its
//! order, each with SE's name and rating ([`SeLabel`]).
//!
//! One search serves both: the path is the rating's own run ([`se::se_walk`]) told to write
//! each step's reasoning, so its hardest step is the rating's ER, the hardest up to the
//! first placement its EP and the first step its ED. The rating alone writes no text.
//!
//! Each step's [`Step::technique`] names HoDoKu's same idea, so every consumer of steps
//! (text, JSON, pictures, hints) works on both engines:
//!
//! | Sudoku Explainer | HoDoKu technique |
//! |---|---|
//! | Full House, Hidden Single, Naked Single | the same |
//! | Direct Pointing, Pointing / Direct Claiming, Claiming | Locked Candidates Type 1 / Type 2 |
//! | (Direct) Hidden Pair, Triplet; Hidden Quad | Hidden Pair, Triple, Quadruple |
//! | Naked Pair, Triplet, Quad | Naked Pair, Triple, Quadruple |
//! | X-Wing, Swordfish, Jellyfish, XY-Wing, XYZ-Wing | the same |
//! | Unique Rectangle/Loop type 1–4 | Uniqueness Test 1–4 |
//! | Bivalue Universal Grave type 1–4 | Bivalue Universal Grave + 1 (the family) |
//! | Aligned Pair / Triplet Exclusion | Aligned Pair / Triplet Exclusion (SE's, added) |
//! | Bidirectional X-, Y- and XY-Cycles | Continuous Nice Loop |
//! | Forcing X-Chain, Forcing Chain | Discontinuous Nice Loop |
//! | Nishio Forcing Chains | Nishio Forcing Chain |
//! | Contradiction Forcing Chains, static and dynamic | Forcing Chain Contradiction |
//! | Cell, Region and Double Forcing Chains, static and dynamic | Forcing Chain Verity |
//! | the same, dynamic (+) and nested | Forcing Net Contradiction, Forcing Net Verity |
//!
//! SE's exact name stays in [`Step::se`] and is what the step's text shows.

use super::se::{self, Hint, SeGrid, SeOutcome, SeTechnique};
use super::{se_rating_of, SeRating, Tenths};
use crate::candidates::Candidates;
use crate::grid::{Cell, Digit, Grid};
use crate::logic::{apply, Explanation};
use crate::solver;
use crate::step::{SeLabel, SePremise, Step, Technique};

/// Sudoku Explainer's whole path from a position, and the rating it gives.
#[derive(Clone, Debug)]
pub struct SePath {
    /// ER, EP and ED of the path (from the start position).
    pub rating: SeRating,
    /// The steps, each with [`Step::se`] set, and where they led.
    pub explanation: Explanation,
}

/// The steps Sudoku Explainer's rating takes from `start` (the givens' candidates, or a
/// pencil-mark state), with dynamic chains nested at most `max_level` deep
/// ([`super::MAX_LEVEL`]: all of SE's rules). As for the rating, the position should have
/// one solution: SE's uniqueness rules assume it.
pub fn se_path(start: &Candidates, max_level: u8) -> SePath {
    let solution = trusted_solution(start);
    let outcome: SeOutcome = se::se_walk(se_grid(start), solution.as_ref(), max_level, true);
    let rating = se_rating_of(&outcome, start.is_solved(), max_level);
    let mut state = start.clone();
    let steps: Vec<Step> = outcome.steps.iter().map(to_step).collect();
    for step in &steps {
        apply(&mut state, step);
    }
    SePath {
        rating,
        explanation: Explanation {
            solved: state.is_solved(),
            final_state: state,
            steps,
        },
    }
}

/// The first step of Sudoku Explainer's path from `start` (what [`se_path`] would take
/// first, found alone), or `None` when SE's rules find nothing.
pub fn se_next_step(start: &Candidates) -> Option<Step> {
    let solution = trusted_solution(start);
    se::se_next(
        &se_grid(start),
        solution.as_ref(),
        super::MAX_LEVEL,
        true,
        false,
    )
    .map(|h| to_step(&h))
}

/// The first step of Sudoku Explainer's chaining rules alone from `marks`, cheapest first
/// (cycles, Nishio, multiple, dynamic, then dynamic chains nested up to `max_level`), or
/// `None` when none finds anything: the default engine's step where its own rules stall.
pub(crate) fn se_chain_step(marks: &Candidates, max_level: u8) -> Option<Step> {
    let solution = trusted_solution(marks);
    se::se_next(&se_grid(marks), solution.as_ref(), max_level, true, true).map(|h| to_step(&h))
}

/// The first aligned exclusion of `degree` cells (2 or 3) on `marks`, as the default
/// engine's step (no SE label).
pub(crate) fn aligned_exclusion_step(marks: &Candidates, degree: usize) -> Option<Step> {
    let hint = se::aligned_exclusion_hint(&se_grid(marks), degree)?;
    Some(Step {
        se: None,
        ..to_step(&hint)
    })
}

/// The one solution of `marks`' placed digits, when there is one and the marks allow it:
/// SE's search only runs faster with it, and must not be handed one the marks rule out.
fn trusted_solution(marks: &Candidates) -> Option<Grid> {
    let unique = solver::count(marks.grid(), 2);
    unique.solution.filter(|s| {
        unique.count == 1
            && Cell::all().all(|c| {
                s.get(c)
                    .is_some_and(|d| marks.value(c) == Some(d) || marks.get(c).contains(d))
            })
    })
}

fn se_grid(marks: &Candidates) -> SeGrid {
    SeGrid::from_parts(marks.grid().values(), &marks.masks)
}

/// The step of an SE hint written with its reasoning.
fn to_step(h: &Hint) -> Step {
    to_step_at(h, 0)
}

/// [`to_step`] for a hint `depth` premises down: a nested chain lists its premises under
/// its text, one a line, indented by depth.
fn to_step_at(h: &Hint, depth: usize) -> Step {
    let pairs = |list: &[(u8, u8)]| list.iter().filter_map(|&e| pair(e)).collect::<Vec<_>>();
    let mut step = Step::concluding(
        technique(h.tech),
        h.place.and_then(pair).into_iter().collect(),
        pairs(&h.removals),
    );
    step.detail.clone_from(&h.text);
    let premises: Vec<SePremise> = (h.premises.iter())
        .filter_map(|(premise, inner)| {
            Some(SePremise {
                removed: pair(premise.removed)?,
                given: pairs(&premise.given),
                step: inner.as_ref().map(|inner| to_step_at(inner, depth + 1)),
            })
        })
        .collect();
    if is_chain(h.tech) {
        let mut chain = format!("{} => {}", h.text, step.effects());
        for premise in &premises {
            let (cell, d) = premise.removed;
            let given: Vec<String> = premise
                .given
                .iter()
                .map(|(c, d)| format!("{c}<>{d}"))
                .collect();
            let why = premise
                .step
                .as_ref()
                .map_or_else(|| "no rule finds it again".to_string(), Step::to_string);
            let indent = "  ".repeat(depth + 2);
            chain += &format!("\n{indent}- {cell}<>{d} from {}: {why}", given.join(", "));
        }
        step.chain = Some(chain);
    }
    step.se = Some(SeLabel {
        technique: h.tech,
        rating: Tenths(se::tenths(h.diff)),
        premises,
    });
    step
}

/// A candidate of SE's, as (cell, digit).
fn pair((c, d): (u8, u8)) -> Option<(Cell, Digit)> {
    Some((Cell::new(c as usize)?, Digit::new(d)?))
}

/// Whether SE's technique is a chain or cycle, whose text is a sequence of implications.
fn is_chain(t: SeTechnique) -> bool {
    use SeTechnique as S;
    matches!(
        t,
        S::XCycle
            | S::YCycle
            | S::XYCycle
            | S::ForcingXChain
            | S::ForcingXYChain
            | S::Nishio
            | S::CellForcingChains(_)
            | S::RegionForcingChains(_)
            | S::ContradictionForcingChains(_)
            | S::DoubleForcingChains(_)
    )
}

/// HoDoKu's technique for SE's (the table of the module docs). SE's chain families 0 and
/// 1 (static, dynamic) are chains; from 2 up (dynamic (+), nested) they rest on other
/// rules' conclusions along the way, which HoDoKu calls nets.
fn technique(t: SeTechnique) -> Technique {
    use SeTechnique as S;
    use Technique as T;
    let net = |level: u8| level >= 2;
    match t {
        S::FullHouse => T::FullHouse,
        S::HiddenSingle => T::HiddenSingle,
        S::NakedSingle => T::NakedSingle,
        S::DirectPointing | S::Pointing => T::LockedCandidatesPointing,
        S::DirectClaiming | S::Claiming => T::LockedCandidatesClaiming,
        S::DirectHiddenPair | S::HiddenPair => T::HiddenPair,
        S::DirectHiddenTriplet | S::HiddenTriplet => T::HiddenTriple,
        S::HiddenQuad => T::HiddenQuadruple,
        S::NakedPair => T::NakedPair,
        S::NakedTriplet => T::NakedTriple,
        S::NakedQuad => T::NakedQuadruple,
        S::XWing => T::XWing,
        S::Swordfish => T::Swordfish,
        S::Jellyfish => T::Jellyfish,
        S::XYWing => T::XYWing,
        S::XYZWing => T::XYZWing,
        S::UniqueLoop(1) => T::UniquenessTest1,
        S::UniqueLoop(2) => T::UniquenessTest2,
        S::UniqueLoop(3) => T::UniquenessTest3,
        S::UniqueLoop(_) => T::UniquenessTest4,
        S::Bug(_) => T::BugPlus1,
        S::AlignedPairExclusion => T::AlignedPairExclusion,
        S::AlignedTripletExclusion => T::AlignedTripletExclusion,
        S::XCycle | S::YCycle | S::XYCycle => T::ContinuousNiceLoop,
        S::ForcingXChain | S::ForcingXYChain => T::DiscontinuousNiceLoop,
        S::Nishio => T::NishioForcingChain,
        S::ContradictionForcingChains(l) if net(l) => T::ForcingNetContradiction,
        S::ContradictionForcingChains(_) => T::ForcingChainContradiction,
        S::CellForcingChains(l) | S::RegionForcingChains(l) | S::DoubleForcingChains(l)
            if net(l) =>
        {
            T::ForcingNetVerity
        }
        S::CellForcingChains(_) | S::RegionForcingChains(_) | S::DoubleForcingChains(_) => {
            T::ForcingChainVerity
        }
    }
}
