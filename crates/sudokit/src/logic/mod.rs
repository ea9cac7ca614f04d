//! The human-style logic engine: named techniques applied simplest first.
//!
//! Each technique family lives in its own module and exposes finders of the shape
//! `fn(&Candidates) -> Option<Step>`: the first step of that technique on the grid (in a fixed,
//! deterministic search order), or `None`. Finders never modify the grid; [`apply`] does.
//!
//! Which techniques run, and in which order, is data: a [`TechniqueSet`] (presets
//! [`TechniqueSet::singles`], [`TechniqueSet::basic`], [`TechniqueSet::standard`],
//! [`TechniqueSet::all`], or parsed from `--techniques` text). The [`Engine`] walks the set in
//! order and takes the first technique that finds something, so the simplest step always
//! wins. Uniqueness-based techniques run only when the caller vouches that the puzzle has a
//! single solution ([`Engine::unique`]); the engine never checks that itself.
//!
//! Adding a technique takes three places: its variant and names in
//! [`Technique`] (one line of the `techniques!` table), its finder in
//! [`finder`] (one line), and its place in [`STANDARD_ORDER`]. A test checks that the order
//! holds every technique once.
//!
//! ```
//! use sudokit::grid::Grid;
//! use sudokit::logic::{Engine, TechniqueSet};
//!
//! let grid: Grid = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!     .parse()
//!     .unwrap();
//! let explanation = Engine::new(TechniqueSet::basic()).explain(&grid);
//! assert!(explanation.solved);
//! assert_eq!(explanation.steps[0].to_string(), "Hidden Single: r2c2=6 in box 1");
//! ```

pub mod als;
pub mod chains;
pub mod coloring;
pub mod exclusion;
pub mod exocet;
pub mod fish;
pub mod forcing;
pub mod intersections;
pub mod patterns;
pub mod sectors;
pub mod single_digit;
pub mod singles;
pub mod subsets;
pub mod templates;
pub mod trial;
pub mod tutor;
pub mod uniqueness;
pub mod wings;

use std::fmt;

use crate::candidates::Candidates;
use crate::grid::{Grid, House};
use crate::logic::fish::Shape;
use crate::step::{Step, Technique};

/// A finder: the first step of one technique on a candidate grid, if any.
pub type Finder = fn(&Candidates) -> Option<Step>;

/// The finder for `technique`: the dispatch table of the engine, one line per technique.
pub fn finder(technique: Technique) -> Finder {
    use Technique as T;
    match technique {
        T::FullHouse => singles::full_house,
        T::HiddenSingle => singles::hidden_single,
        T::NakedSingle => singles::naked_single,
        T::LockedCandidatesPointing => intersections::pointing,
        T::LockedCandidatesClaiming => intersections::claiming,
        T::LockedPair => |c| subsets::locked(c, 2),
        T::LockedTriple => |c| subsets::locked(c, 3),
        T::NakedPair => |c| subsets::naked(c, 2),
        T::NakedTriple => |c| subsets::naked(c, 3),
        T::NakedQuadruple => |c| subsets::naked(c, 4),
        T::HiddenPair => |c| subsets::hidden(c, 2),
        T::HiddenTriple => |c| subsets::hidden(c, 3),
        T::HiddenQuadruple => |c| subsets::hidden(c, 4),
        T::XWing => |c| fish::basic(c, 2),
        T::Swordfish => |c| fish::basic(c, 3),
        T::Jellyfish => |c| fish::basic(c, 4),
        T::FinnedXWing => |c| fish::finned(c, 2, false),
        T::FinnedSwordfish => |c| fish::finned(c, 3, false),
        T::FinnedJellyfish => |c| fish::finned(c, 4, false),
        T::SashimiXWing => |c| fish::finned(c, 2, true),
        T::SashimiSwordfish => |c| fish::finned(c, 3, true),
        T::SashimiJellyfish => |c| fish::finned(c, 4, true),
        T::SiameseFinnedXWing => |c| fish::siamese(c, 2, false),
        T::SiameseFinnedSwordfish => |c| fish::siamese(c, 3, false),
        T::SiameseFinnedJellyfish => |c| fish::siamese(c, 4, false),
        T::SiameseSashimiXWing => |c| fish::siamese(c, 2, true),
        T::SiameseSashimiSwordfish => |c| fish::siamese(c, 3, true),
        T::SiameseSashimiJellyfish => |c| fish::siamese(c, 4, true),
        T::KrakenFishType1 => fish::kraken_type_1,
        T::KrakenFishType2 => fish::kraken_type_2,
        T::FrankenXWing => |c| fish::complex(c, 2, Shape::Franken, false),
        T::FrankenSwordfish => |c| fish::complex(c, 3, Shape::Franken, false),
        T::FrankenJellyfish => |c| fish::complex(c, 4, Shape::Franken, false),
        T::FinnedFrankenXWing => |c| fish::complex(c, 2, Shape::Franken, true),
        T::FinnedFrankenSwordfish => |c| fish::complex(c, 3, Shape::Franken, true),
        T::FinnedFrankenJellyfish => |c| fish::complex(c, 4, Shape::Franken, true),
        T::MutantXWing => |c| fish::complex(c, 2, Shape::Mutant, false),
        T::MutantSwordfish => |c| fish::complex(c, 3, Shape::Mutant, false),
        T::MutantJellyfish => |c| fish::complex(c, 4, Shape::Mutant, false),
        T::FinnedMutantXWing => |c| fish::complex(c, 2, Shape::Mutant, true),
        T::FinnedMutantSwordfish => |c| fish::complex(c, 3, Shape::Mutant, true),
        T::FinnedMutantJellyfish => |c| fish::complex(c, 4, Shape::Mutant, true),
        T::Skyscraper => single_digit::skyscraper,
        T::TwoStringKite => single_digit::two_string_kite,
        T::DualTwoStringKite => single_digit::dual_two_string_kite,
        T::TurbotFish => single_digit::turbot_fish,
        T::EmptyRectangle => single_digit::empty_rectangle,
        T::DualEmptyRectangle => single_digit::dual_empty_rectangle,
        T::BrokenWing => single_digit::broken_wing,
        T::XYWing => wings::xy_wing,
        T::XYZWing => wings::xyz_wing,
        T::WWing => wings::w_wing,
        T::WXYZWing => wings::wxyz_wing,
        T::UniquenessTest1 => uniqueness::test1,
        T::UniquenessTest2 => uniqueness::test2,
        T::UniquenessTest3 => uniqueness::test3,
        T::UniquenessTest4 => uniqueness::test4,
        T::UniquenessTest5 => uniqueness::test5,
        T::UniquenessTest6 => uniqueness::test6,
        T::HiddenRectangle => uniqueness::hidden_rectangle,
        T::AvoidableRectangle1 => uniqueness::avoidable_rectangle_1,
        T::AvoidableRectangle2 => uniqueness::avoidable_rectangle_2,
        T::BugPlus1 => uniqueness::bug_plus_1,
        T::BugLite => uniqueness::bug_lite,
        T::SimpleColorsTrap => coloring::simple_colors_trap,
        T::SimpleColorsWrap => coloring::simple_colors_wrap,
        T::MultiColors1 => coloring::multi_colors_1,
        T::MultiColors2 => coloring::multi_colors_2,
        T::XColors => coloring::x_colors,
        T::Medusa3D => coloring::medusa,
        T::RemotePair => chains::remote_pair,
        T::XChain => chains::x_chain,
        T::XYChain => chains::xy_chain,
        T::ContinuousNiceLoop => chains::continuous_nice_loop,
        T::DiscontinuousNiceLoop => chains::discontinuous_nice_loop,
        T::Aic => chains::aic,
        T::GroupedContinuousNiceLoop => chains::grouped_continuous_nice_loop,
        T::GroupedDiscontinuousNiceLoop => chains::grouped_discontinuous_nice_loop,
        T::GroupedAic => chains::grouped_aic,
        T::AlsXz => als::als_xz,
        T::AlsXyWing => als::als_xy_wing,
        T::AlsXyChain => als::als_xy_chain,
        T::DeathBlossom => als::death_blossom,
        T::SueDeCoq => als::sue_de_coq,
        T::GurthsSymmetricalPlacement => patterns::gurths_symmetrical_placement,
        T::Tridagon => patterns::tridagon,
        T::JuniorExocet => exocet::junior_exocet,
        T::SkLoop => sectors::sk_loop,
        T::MultiSectorLockedSet => sectors::multi_sector_locked_set,
        T::AlignedPairExclusion => exclusion::aligned_pairs,
        T::AlignedTripletExclusion => exclusion::aligned_triplets,
        T::TemplateSet => templates::template_set,
        T::TemplateDelete => templates::template_delete,
        T::NishioForcingChain => forcing::nishio,
        T::ForcingChainVerity => forcing::chain_verity,
        T::ForcingChainContradiction => forcing::chain_contradiction,
        T::ForcingNetContradiction => forcing::net_contradiction,
        T::ForcingNetVerity => forcing::net_verity,
        T::NestedForcingChains => forcing::nested,
        T::Trial => trial::trial,
    }
}

/// The standard order: simplest first, roughly by the difficulty players and ratings agree
/// on. Every technique appears once.
///
/// Where every rule before it stalls, [`Technique::NestedForcingChains`] runs Sudoku
/// Explainer's chaining rules, cheapest first up to its deepest nesting, so that
/// [`Technique::Trial`] is only the last resort for what they cannot do. HoDoKu-style
/// forcing nets come after the trial: SE's search covers them (its dynamic (+) chains,
/// stopped at the first hint), while a net finder lists every net it has at about 50 ms a
/// call. Sudoku Explainer's aligned exclusions come last: they are there to name the steps
/// of SE's path ([`crate::rate::se_path`]) and find little the chains before them miss.
///
/// BUG-Lite and Broken Wing come by their difficulty, just after BUG+1 and X-Chain: their
/// searches run on every position the rules before them leave, so they prune what cannot
/// remove anything (and Broken Wing remembers each digit's result): they add about 3% to
/// `explain`'s time on the first 300 puzzles of top1465 and about 10% on the whole list.
///
/// Each Siamese fish comes just before the finned fish it joins two of: it holds one, so
/// after it, it would never be a step.
///
/// Franken X-Wing and Swordfish take HoDoKu's place, after the ALS techniques. The complex
/// fish HoDoKu leaves off by default (Franken Jellyfish, Mutant fish) and the finned Franken
/// fish come after the trial too: each costs a search of base and cover sets on every
/// position where the rules before it stall, which made `explain` on the hardest list about
/// nine times slower; by name they find every instance. The Kraken fish follow them, as in
/// HoDoKu's order (after the fish, before the forcing chains and nets): placed before the
/// forcing chains they took 363 steps on a quarter of the 1106 list but made `explain` 3.6
/// times slower.
pub const STANDARD_ORDER: &[Technique] = {
    use Technique as T;
    &[
        T::FullHouse,
        T::HiddenSingle,
        T::NakedSingle,
        T::LockedCandidatesPointing,
        T::LockedCandidatesClaiming,
        T::LockedPair,
        T::LockedTriple,
        T::NakedPair,
        T::HiddenPair,
        T::NakedTriple,
        T::HiddenTriple,
        T::XWing,
        T::Skyscraper,
        T::TwoStringKite,
        T::DualTwoStringKite,
        T::TurbotFish,
        T::EmptyRectangle,
        T::DualEmptyRectangle,
        T::XYWing,
        T::XYZWing,
        T::WWing,
        T::WXYZWing,
        T::RemotePair,
        T::Swordfish,
        T::NakedQuadruple,
        T::HiddenQuadruple,
        T::Jellyfish,
        T::UniquenessTest1,
        T::UniquenessTest2,
        T::UniquenessTest4,
        T::UniquenessTest3,
        T::UniquenessTest5,
        T::UniquenessTest6,
        T::HiddenRectangle,
        T::AvoidableRectangle1,
        T::AvoidableRectangle2,
        T::BugPlus1,
        T::BugLite,
        T::SiameseFinnedXWing,
        T::FinnedXWing,
        T::SiameseSashimiXWing,
        T::SashimiXWing,
        T::SiameseFinnedSwordfish,
        T::FinnedSwordfish,
        T::SiameseSashimiSwordfish,
        T::SashimiSwordfish,
        T::SiameseFinnedJellyfish,
        T::FinnedJellyfish,
        T::SiameseSashimiJellyfish,
        T::SashimiJellyfish,
        T::SimpleColorsTrap,
        T::SimpleColorsWrap,
        T::MultiColors1,
        T::MultiColors2,
        T::XColors,
        T::XChain,
        T::BrokenWing,
        T::XYChain,
        T::Medusa3D,
        T::ContinuousNiceLoop,
        T::DiscontinuousNiceLoop,
        T::Aic,
        T::GroupedContinuousNiceLoop,
        T::GroupedDiscontinuousNiceLoop,
        T::GroupedAic,
        T::SueDeCoq,
        T::AlsXz,
        T::AlsXyWing,
        T::AlsXyChain,
        T::DeathBlossom,
        T::FrankenXWing,
        T::FrankenSwordfish,
        T::GurthsSymmetricalPlacement,
        T::Tridagon,
        T::JuniorExocet,
        T::SkLoop,
        T::NishioForcingChain,
        T::ForcingChainContradiction,
        T::ForcingChainVerity,
        T::TemplateSet,
        T::TemplateDelete,
        T::MultiSectorLockedSet,
        T::NestedForcingChains,
        T::Trial,
        T::FrankenJellyfish,
        T::FinnedFrankenXWing,
        T::FinnedFrankenSwordfish,
        T::FinnedFrankenJellyfish,
        T::MutantXWing,
        T::MutantSwordfish,
        T::MutantJellyfish,
        T::FinnedMutantXWing,
        T::FinnedMutantSwordfish,
        T::FinnedMutantJellyfish,
        T::KrakenFishType1,
        T::KrakenFishType2,
        T::ForcingNetContradiction,
        T::ForcingNetVerity,
        T::AlignedPairExclusion,
        T::AlignedTripletExclusion,
    ]
};

/// An ordered list of techniques: what the engine may use, simplest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TechniqueSet(Vec<Technique>);

impl TechniqueSet {
    /// The set holding `list` in its order; repeats after the first are dropped.
    pub fn new(list: impl IntoIterator<Item = Technique>) -> TechniqueSet {
        let mut v: Vec<Technique> = Vec::new();
        for t in list {
            if !v.contains(&t) {
                v.push(t);
            }
        }
        TechniqueSet(v)
    }

    /// Full house, hidden single, naked single: "how far do singles get".
    pub fn singles() -> TechniqueSet {
        TechniqueSet::new([
            Technique::FullHouse,
            Technique::HiddenSingle,
            Technique::NakedSingle,
        ])
    }

    /// Singles, locked candidates and naked/hidden subsets up to quadruples (locked pairs and
    /// triples included).
    pub fn basic() -> TechniqueSet {
        TechniqueSet::new(STANDARD_ORDER.iter().copied().filter(|t| {
            use Technique as T;
            t.is_single()
                || matches!(
                    t,
                    T::LockedCandidatesPointing
                        | T::LockedCandidatesClaiming
                        | T::LockedPair
                        | T::LockedTriple
                        | T::NakedPair
                        | T::NakedTriple
                        | T::NakedQuadruple
                        | T::HiddenPair
                        | T::HiddenTriple
                        | T::HiddenQuadruple
                )
        }))
    }

    /// Every technique except [`Technique::Trial`], in [`STANDARD_ORDER`]:
    /// pure logic only.
    pub fn standard() -> TechniqueSet {
        TechniqueSet::new(
            STANDARD_ORDER
                .iter()
                .copied()
                .filter(|&t| t != Technique::Trial),
        )
    }

    /// Every technique, in the standard order: SE's nested forcing chains, then the trial,
    /// finish every puzzle with one solution (the forcing nets after it only run where it
    /// finds nothing).
    pub fn all() -> TechniqueSet {
        TechniqueSet::new(STANDARD_ORDER.iter().copied())
    }

    /// Parses `--techniques` text: a comma-separated list of preset names (`singles`,
    /// `basic`, `standard`, `all`) and technique names ([`Technique::from_name`]), joined in
    /// order. Naming a technique that has no finder yet is an error too, so a typo or an
    /// unavailable technique never silently does nothing.
    pub fn parse(text: &str) -> Result<TechniqueSet, UnknownTechnique> {
        let mut list = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            match item.to_ascii_lowercase().as_str() {
                "singles" => list.extend(TechniqueSet::singles().0),
                "basic" => list.extend(TechniqueSet::basic().0),
                "standard" => list.extend(TechniqueSet::standard().0),
                "all" => list.extend(TechniqueSet::all().0),
                _ => match Technique::from_name(item) {
                    Some(t) => list.push(t),
                    None => {
                        return Err(UnknownTechnique {
                            name: item.to_string(),
                        })
                    }
                },
            }
        }
        Ok(TechniqueSet::new(list))
    }

    /// The techniques in order.
    pub fn techniques(&self) -> &[Technique] {
        &self.0
    }

    /// Whether `t` is in the set.
    pub fn contains(&self, t: Technique) -> bool {
        self.0.contains(&t)
    }
}

impl Default for TechniqueSet {
    fn default() -> Self {
        TechniqueSet::all()
    }
}

/// A `--techniques` item that names no usable technique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTechnique {
    /// The item as written.
    pub name: String,
}

impl fmt::Display for UnknownTechnique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown technique {:?} (did you mean {}?): use singles, basic, standard, all or technique names such as hidden-single, x-wing",
            self.name,
            Technique::closest(&self.name).short_name()
        )
    }
}

impl std::error::Error for UnknownTechnique {}

/// Applies a step's placements and eliminations; returns whether the grid changed.
pub fn apply(cands: &mut Candidates, step: &Step) -> bool {
    let mut changed = false;
    for &(cell, digit) in &step.placements {
        if cands.value(cell).is_none() {
            cands.place(cell, digit);
            changed = true;
        }
    }
    for &(cell, digit) in &step.eliminations {
        changed |= cands.eliminate(cell, digit);
    }
    changed
}

/// A whole solve: the steps taken, where they led, and whether that is the solution.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The steps in the order applied.
    pub steps: Vec<Step>,
    /// The candidate grid after the last step.
    pub final_state: Candidates,
    /// Whether every cell is filled (the techniques sufficed).
    pub solved: bool,
}

/// The logic engine: a technique set plus the uniqueness flag. (The exact search is the
/// [`solver`](crate::solver) module.)
#[derive(Clone, Debug, Default)]
pub struct Engine {
    set: TechniqueSet,
    unique: bool,
}

impl Engine {
    /// An engine using `set`, with uniqueness techniques off.
    pub fn new(set: TechniqueSet) -> Engine {
        Engine { set, unique: false }
    }

    /// Declares whether the puzzle is known to have exactly one solution; only then are
    /// uniqueness techniques (unique rectangles, BUG+1) used. The caller establishes this
    /// with the exact solver.
    pub fn unique(mut self, unique: bool) -> Engine {
        self.unique = unique;
        self
    }

    /// The technique set in use.
    pub fn techniques(&self) -> &TechniqueSet {
        &self.set
    }

    /// The simplest available step: the first technique of the set, in order, that finds one.
    pub fn next_step(&self, cands: &Candidates) -> Option<Step> {
        self.set
            .techniques()
            .iter()
            .filter(|t| self.unique || !t.needs_uniqueness())
            .find_map(|&t| finder(t)(cands))
    }

    /// Explains a puzzle from its givens: see [`Engine::explain_from`].
    pub fn explain(&self, grid: &Grid) -> Explanation {
        self.explain_from(Candidates::new(grid))
    }

    /// Applies [`Engine::next_step`] until the grid is solved, broken, or no technique
    /// applies.
    pub fn explain_from(&self, mut cands: Candidates) -> Explanation {
        let mut steps = Vec::new();
        while !cands.is_solved() && !cands.is_broken() {
            let Some(step) = self.next_step(&cands) else {
                break;
            };
            if !apply(&mut cands, &step) {
                // A finder must never return a step without effect; stop rather than loop.
                break;
            }
            steps.push(step);
        }
        Explanation {
            solved: cands.is_solved(),
            final_state: cands,
            steps,
        }
    }
}

/// Calls `f` on every `n`-element combination of `items` (in lexicographic order of
/// positions) until it returns `Some`; the shared enumerator of subsets, fish and rectangles.
pub(crate) fn first_combination<T: Copy, R>(
    items: &[T],
    n: usize,
    f: &mut impl FnMut(&[T]) -> Option<R>,
) -> Option<R> {
    fn go<T: Copy, R>(
        items: &[T],
        start: usize,
        n: usize,
        chosen: &mut Vec<T>,
        f: &mut impl FnMut(&[T]) -> Option<R>,
    ) -> Option<R> {
        if chosen.len() == n {
            return f(chosen);
        }
        let need = n - chosen.len();
        for i in start..items.len() {
            if items.len() - i < need {
                break;
            }
            chosen.push(items[i]);
            let r = go(items, i + 1, n, chosen, f);
            chosen.pop();
            if r.is_some() {
                return r;
            }
        }
        None
    }
    if n == 0 || n > items.len() {
        return None;
    }
    go(items, 0, n, &mut Vec::with_capacity(n), f)
}

/// Every line with each of the three boxes it crosses (rows first, then columns, boxes left to
/// right or top to bottom): the regions of the patterns built on a line and a box.
pub(crate) fn crossings() -> impl Iterator<Item = (House, House)> {
    (0..18).filter_map(House::from_index).flat_map(|line| {
        line.cells()
            .iter()
            .step_by(3)
            .map(move |x| (line, House::Box(x.box_index() as u8)))
    })
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Helpers for the technique tests: build candidate grids by hand.

    use std::collections::{BTreeSet, HashSet};
    use std::sync::OnceLock;

    use proptest::prelude::*;

    use crate::candidates::Candidates;
    use crate::grid::{Cell, CellSet, Digit, DigitSet, Grid, House};
    use crate::logic::{apply, first_combination, Engine, TechniqueSet, STANDARD_ORDER};
    use crate::step::{Step, Technique};

    /// An almost locked set as the references see it: its cells, its digits, and per digit
    /// the cells outside it that see every cell of it holding that digit.
    pub struct Definition {
        pub cells: CellSet,
        pub digits: DigitSet,
        pub sees_every: [CellSet; 9],
    }

    /// Every ALS, from the definition: for every house, every subset of its unsolved cells
    /// with one digit more than cells (each cell set once).
    pub fn als_reference(c: &Candidates) -> Vec<Definition> {
        let mut out: Vec<Definition> = Vec::new();
        let mut seen = HashSet::new();
        for h in House::all() {
            let free: Vec<Cell> = (c.empty_cells() & CellSet::house(h)).iter().collect();
            for n in 1..=free.len() {
                first_combination(&free, n, &mut |cs| {
                    let digits = cs.iter().fold(DigitSet::EMPTY, |a, &x| a | c.get(x));
                    let cells: CellSet = cs.iter().copied().collect();
                    if digits.len() == n + 1 && seen.insert(cells.bits()) {
                        let sees_every = std::array::from_fn(|d| {
                            let holding: Vec<Cell> = cs
                                .iter()
                                .copied()
                                .filter(|&x| c.get(x).contains(Digit::from_index(d)))
                                .collect();
                            Cell::all()
                                .filter(|t| !cells.contains(*t))
                                .filter(|t| holding.iter().all(|&x| t.sees(x)))
                                .collect()
                        });
                        out.push(Definition {
                            cells,
                            digits,
                            sees_every,
                        });
                    }
                    None::<()>
                });
            }
        }
        out
    }

    /// The cell at 1-based row and column.
    pub fn cell(r: usize, c: usize) -> Cell {
        Cell::from_row_col(r - 1, c - 1).expect("test cell")
    }

    /// The digit `v`.
    pub fn d(v: u8) -> Digit {
        Digit::new(v).expect("test digit")
    }

    /// Candidates of an 81-character puzzle line (`.` or `0` for blanks).
    pub fn from_line(line: &str) -> Candidates {
        let mut values = [0u8; 81];
        for (v, ch) in values.iter_mut().zip(line.chars()) {
            *v = ch.to_digit(10).unwrap_or(0) as u8;
        }
        Candidates::new(&Grid::from_values(values).expect("test grid"))
    }

    /// An empty grid where every candidate of `digit` is removed except in `cells`.
    pub fn only_digit_in(cells: &[(usize, usize)], digit: u8) -> Candidates {
        let mut c = Candidates::new(&Grid::EMPTY);
        keep_digit_only_in(&mut c, cells, digit);
        c
    }

    /// Removes `digit` from every cell of `c` not listed.
    pub fn keep_digit_only_in(c: &mut Candidates, cells: &[(usize, usize)], digit: u8) {
        for cl in Cell::all() {
            if !cells.iter().any(|&(r, col)| cell(r, col) == cl) {
                c.eliminate(cl, d(digit));
            }
        }
    }

    /// Sets the candidates of a cell to exactly the digits of `digits` (e.g. `"127"`).
    pub fn set_cell(c: &mut Candidates, r: usize, col: usize, digits: &str) {
        for dg in Digit::all() {
            if !digits.contains(char::from(b'0' + dg.get())) {
                c.eliminate(cell(r, col), dg);
            }
        }
    }

    /// Naked and hidden singles from `c`, written apart from the engine, to their end: the
    /// grid they reach, or `None` at a contradiction (a cell without candidates, or a house
    /// without a place for a digit it lacks). The definition the chain tests compare with.
    pub fn singles(mut c: Candidates) -> Option<Candidates> {
        loop {
            let mut moved = false;
            for cell in Cell::all() {
                if c.value(cell).is_some() {
                    continue;
                }
                match c.get(cell).first() {
                    None => return None,
                    Some(d) if c.get(cell).len() == 1 => {
                        c.place(cell, d);
                        moved = true;
                    }
                    Some(_) => {}
                }
            }
            match hidden_singles(&mut c, DigitSet::ALL) {
                None => return None,
                Some(placed) if !moved && !placed => return Some(c),
                Some(_) => {}
            }
        }
    }

    /// One pass of hidden singles of `digits` over every house: whether one was placed, or
    /// `None` when a house lacking a digit has no place left for it.
    pub fn hidden_singles(c: &mut Candidates, digits: DigitSet) -> Option<bool> {
        let mut moved = false;
        for house in House::all() {
            for d in digits.iter() {
                if c.placed_in(house).contains(d) {
                    continue;
                }
                let places = c.cells_with_in(house, d);
                match places.first() {
                    None => return None,
                    Some(cell) if places.len() == 1 => {
                        c.place(cell, d);
                        moved = true;
                    }
                    Some(_) => {}
                }
            }
        }
        Some(moved)
    }

    /// Puzzles with one solution, paired with it: the first 300 of the repository's
    /// magictour collection (`SUDOKIT_DATA` overrides the folder, as for the other tests),
    /// read once. The ground of the property tests of the techniques.
    pub fn unique_puzzles() -> &'static [(Grid, Grid)] {
        static PUZZLES: OnceLock<Vec<(Grid, Grid)>> = OnceLock::new();
        PUZZLES.get_or_init(|| {
            let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
            let dir = root.join(std::env::var_os("SUDOKIT_DATA").unwrap_or_else(|| "data".into()));
            let path = dir.join("puzzles3_magictour_top1465");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let puzzles: Vec<(Grid, Grid)> = crate::parse::records(text.as_bytes())
                .filter_map(|r| r.expect("reading from memory").puzzle.ok())
                .take(300)
                .filter_map(|p| {
                    let outcome = crate::solver::count(&p, 2);
                    (outcome.count == 1).then(|| (p, outcome.solution.expect("one solution")))
                })
                .collect();
            assert!(puzzles.len() > 200, "{} unique puzzles read", puzzles.len());
            puzzles
        })
    }

    /// A position on the way to solving unique puzzle `index` (modulo their number): `steps`
    /// basic steps, then every false candidate removed with probability `drop` in 100 (by a
    /// generator seeded with `seed`), as earlier techniques would have done. Such removals
    /// leave rectangles with missing digits and many bivalue cells. Returns the position and
    /// the solution.
    pub fn random_position(index: usize, steps: usize, drop: u64, seed: u64) -> (Candidates, Grid) {
        let puzzles = unique_puzzles();
        let (puzzle, solution) = puzzles[index % puzzles.len()];
        let engine = Engine::new(TechniqueSet::basic());
        let mut c = Candidates::new(&puzzle);
        for _ in 0..steps {
            match engine.next_step(&c) {
                Some(step) => apply(&mut c, &step),
                None => break,
            };
        }
        thin(&mut c, &solution, drop, seed);
        (c, solution)
    }

    /// Removes every candidate of `c` that is not `solution`'s with probability `drop` in
    /// 100, by a generator seeded with `seed`: what earlier techniques might have removed.
    pub fn thin(c: &mut Candidates, solution: &Grid, drop: u64, seed: u64) {
        let mut state = seed | 1;
        for cl in Cell::all() {
            let truth = solution.get(cl).expect("a full solution");
            for dg in c.get(cl).iter().filter(|&dg| dg != truth) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if state % 100 < drop {
                    c.eliminate(cl, dg);
                }
            }
        }
    }

    /// The puzzles of a repository data file, every `every`th.
    pub fn sample(file: &str, every: usize) -> Vec<Grid> {
        let path =
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data")).join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        crate::parse::records(text.as_bytes())
            .filter_map(|r| r.unwrap().puzzle.ok())
            .step_by(every)
            .collect()
    }

    /// The engine of every technique before `technique` in the standard order, trusting the
    /// puzzle's uniqueness: what a finder meets in a solve.
    pub fn engine_before(technique: Technique) -> Engine {
        let before: Vec<Technique> = STANDARD_ORDER
            .iter()
            .copied()
            .take_while(|&t| t != technique)
            .collect();
        Engine::new(TechniqueSet::new(before)).unique(true)
    }

    /// The hardest puzzles the path tests walk: every 12th of the 1106 list and every
    /// 4000th of the 11+ list.
    pub fn hardest_sample() -> Vec<Grid> {
        let mut puzzles = sample("puzzles6_forum_hardest_1106", 12);
        puzzles.extend(sample("puzzles5_forum_hardest_1905_11+", 4000));
        puzzles
    }

    /// Calls `visit` with every position along the way to solving `puzzle` (with its
    /// solution): `engine`'s steps, and where it stalls the solution's digit in a cell of
    /// fewest candidates, standing in for what comes later in the order.
    pub fn walk(engine: &Engine, puzzle: &Grid, mut visit: impl FnMut(&Candidates, &Grid)) {
        let solution = crate::solver::count(puzzle, 2)
            .solution
            .expect("one solution");
        let mut c = Candidates::new(puzzle);
        while !c.is_solved() {
            visit(&c, &solution);
            match engine.next_step(&c) {
                Some(s) => {
                    apply(&mut c, &s);
                }
                None => {
                    let x = c
                        .empty_cells()
                        .iter()
                        .min_by_key(|&x| c.get(x).len())
                        .expect("an empty cell");
                    c.place(x, solution.get(x).expect("a full solution"));
                }
            }
        }
    }

    /// A fixed sweep of `count` positions (`random_position` with steps `index % 30` and
    /// drop `lowest + index % spread`), on each of which the search's eliminations must equal
    /// the reference's: the number of positions where there were any. The property tests
    /// mean something only if their positions hold instances, which this measures.
    pub fn sweep(
        count: usize,
        (lowest, spread): (u64, u64),
        search: impl Fn(&Candidates) -> Vec<Step>,
        reference: impl Fn(&Candidates) -> BTreeSet<(Cell, Digit)>,
    ) -> usize {
        let mut positions = 0;
        for index in 0..count {
            let drop = lowest + index as u64 % spread;
            let (c, _) = random_position(index, index % 30, drop, index as u64);
            let found: BTreeSet<(Cell, Digit)> = search(&c)
                .into_iter()
                .flat_map(|s| s.eliminations)
                .collect();
            assert_eq!(found, reference(&c), "{c}");
            positions += usize::from(!found.is_empty());
        }
        positions
    }

    /// What every technique's exhaustive search must satisfy on a position: its steps remove
    /// exactly the eliminations of the slow `reference`, the finder returns the first of them,
    /// and none removes a digit of the solution.
    pub fn check_search(
        all: &[Step],
        first: Option<Step>,
        reference: &BTreeSet<(Cell, Digit)>,
        solution: &Grid,
    ) -> Result<(), TestCaseError> {
        let found: BTreeSet<(Cell, Digit)> = all
            .iter()
            .flat_map(|s| s.eliminations.iter().copied())
            .collect();
        prop_assert_eq!(&found, reference);
        prop_assert_eq!(first, all.first().cloned());
        for s in all {
            for &(x, dg) in &s.eliminations {
                prop_assert!(solution.get(x) != Some(dg), "{} removes the solution", s);
            }
        }
        Ok(())
    }

    /// A technique's placements and eliminations, for those that may conclude both.
    pub type Conclusions = (BTreeSet<(Cell, Digit)>, BTreeSet<(Cell, Digit)>);

    /// The placements and eliminations of a list of steps.
    pub fn conclusions(steps: &[Step]) -> Conclusions {
        (
            steps
                .iter()
                .flat_map(|s| s.placements.iter().copied())
                .collect(),
            steps
                .iter()
                .flat_map(|s| s.eliminations.iter().copied())
                .collect(),
        )
    }

    /// The eliminations of a step as sorted `(row, col, digit)` triples, 1-based.
    pub fn elims(step: &crate::step::Step) -> Vec<(usize, usize, u8)> {
        let mut v: Vec<_> = step
            .eliminations
            .iter()
            .map(|(c, dg)| (c.row() + 1, c.col() + 1, dg.get()))
            .collect();
        v.sort_unstable();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_nest_and_parse() {
        let singles = TechniqueSet::singles();
        let basic = TechniqueSet::basic();
        let all = TechniqueSet::all();
        assert!(singles.techniques().iter().all(|&t| basic.contains(t)));
        assert!(basic.techniques().iter().all(|&t| all.contains(t)));
        assert_eq!(basic.techniques().len(), 13);
        assert_eq!(TechniqueSet::parse("singles").unwrap(), singles);
        let custom = TechniqueSet::parse("singles, x-wing ,Naked Pair,hidden-single").unwrap();
        assert_eq!(
            custom.techniques(),
            &[
                Technique::FullHouse,
                Technique::HiddenSingle,
                Technique::NakedSingle,
                Technique::XWing,
                Technique::NakedPair
            ]
        );
        assert!(TechniqueSet::parse("x-wong").is_err());
        assert!(TechniqueSet::parse("").is_err());
    }

    /// Arbitrary pencil-mark states (most of them contradictory): no pattern finder may panic,
    /// and every step must only remove candidates that are there, place digits only in empty
    /// cells that allow them, and name its own technique.
    #[test]
    fn finders_are_well_behaved_on_arbitrary_marks() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..1000 {
            let density = next() % 5 + 2;
            let tokens: Vec<String> = (0..81)
                .map(|_| {
                    let set: String = (1..=9u8)
                        .filter(|_| next() % 9 < density)
                        .map(|d| char::from(b'0' + d))
                        .collect();
                    if set.is_empty() {
                        "12".to_string()
                    } else {
                        set
                    }
                })
                .collect();
            let c = Candidates::from_pencil_marks(&tokens.join(" ")).expect("valid marks");
            // The pattern families; chain, ALS, forcing and trial finders have their own
            // robustness test (and are far slower on such grids).
            let patterns = STANDARD_ORDER
                .iter()
                .take_while(|&&t| t != Technique::SimpleColorsTrap);
            for &t in patterns {
                let Some(step) = finder(t)(&c) else {
                    continue;
                };
                assert_eq!(step.technique, t);
                assert!(!step.is_empty(), "{step}");
                for &(cell, d) in &step.eliminations {
                    assert!(
                        c.get(cell).contains(d),
                        "{step} removes a missing candidate"
                    );
                }
                for &(cell, d) in &step.placements {
                    assert!(c.value(cell).is_none() && c.get(cell).contains(d), "{step}");
                }
                assert!(!step.to_string().is_empty());
            }
        }
    }

    #[test]
    fn every_standard_technique_is_listed_once_and_all_are_ordered() {
        for &t in Technique::ALL {
            assert_eq!(STANDARD_ORDER.iter().filter(|&&u| u == t).count(), 1, "{t}");
        }
    }

    #[test]
    fn singles_solve_an_easy_puzzle_correctly() {
        let line =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let sol =
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
        let c = testutil::from_line(line);
        let e = Engine::new(TechniqueSet::singles()).explain_from(c);
        assert!(e.solved);
        assert_eq!(e.final_state.grid().to_string(), sol);
        assert_eq!(e.steps.len(), line.chars().filter(|&ch| ch == '.').count());
    }
}
