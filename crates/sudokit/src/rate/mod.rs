//! Difficulty rating: Sudoku Explainer's ER/EP/ED scale from an SE-equivalent search,
//! the least number of assumptions singles need, the exact solver's effort and a level word.
//!
//! ```
//! use sudokit::parse::parse;
//! use sudokit::rate::{rate, Assumptions, Level, RateOptions};
//!
//! // Hidden singles in boxes solve this one: SE rates it 1.2/1.2/1.2.
//! let p = parse("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..").unwrap();
//! let r = rate(&p, &RateOptions::default()).unwrap();
//! assert_eq!(r.se.er.to_string(), "1.2");
//! assert_eq!(r.assumptions, Assumptions::Exact(0));
//! assert_eq!(r.level, Level::Easy);
//! ```
//!
//! # The SE-scale numbers
//! Sudoku Explainer solves by always applying the first hint of the first rule, in its
//! fixed order of rules (roughly easiest first), that has one; each hint has a rating
//! (1.0 for a full house up to 11+ for doubly nested dynamic forcing chains, chains
//! gaining +0.1 each time their length passes 4, 6, 8, 12, 16, 24, …). As the `serate`
//! tool defines them: **ER** is the highest rating of the whole solve, **EP** the highest
//! up to and including the first step that places a digit, **ED** the rating of the first
//! step. [`SeRating::hardest`] names the (first) step rated ER.
//!
//! # Agreement with Sudoku Explainer
//! The SE-scale search follows Sudoku Explainer 1.2.1 (as used by the `serate` rating tool)
//! rule by rule: the same techniques in the same order, the first hint of the first rule
//! that has one, SE's chain bookkeeping (which potentials a chain passes through, counted
//! the way SE counts them) for the length bonus, and SE's sorting of chain hints. Two of
//! SE's choices are arbitrary in its own code (hash-map iteration of the candidates a
//! nested rule removes, and of unique-loop hints of equal rank); cell order is used here,
//! which can change the chain length bonus of nested chains (ER ≥ 9.0) in rare cases.
//! Techniques outside SE's set (Skyscraper, W-Wing, ALS, …) are never used for the rating:
//! they would lower SE's numbers. Measured: all 160 puzzles of `se_rated_calibration.tsv`
//! (ER 2.5–9.2) get SE's exact ER, EP and ED, and so do Inkala 2012 (10.7/10.7/9.7),
//! Inkala 2006 (10.6/1.2/1.2), AI Escargot (10.5/1.2/1.2) and Easter Monster
//! (11.6/11.6/10.8); see `benches/rate.rs`. Of every 500th puzzle of the 2019 forum list
//! published as rated 11 or more (98 puzzles), 95 are rated 11.0 or more here and three
//! 10.x (the list's own rater is not named; nested chain lengths are where SE-family
//! raters are known to differ, as said above).
//!
//! # Cost
//! Milliseconds for ordinary puzzles, but SE's nested rules (ER ≥ 9.5) repeat whole chain
//! searches inside every chain, so the hardest puzzles take tenths of a second to seconds
//! (SE itself takes minutes). The search caches nested rules per reduced grid, rules most
//! chain searches out by reachability before running them, and builds the reasons of
//! multiple chains only where a sieve without reasons finds something (`se` module docs).
//! From ER 9.0 up a rating builds its top-level chains on every thread of the current
//! rayon pool. The measured figures live in one place, `docs/benchmarks.md` (run with
//! `cargo bench --bench rate`).
//! [`RateOptions::max_level`] caps the nesting for a fast lower bound on huge lists.
//!
//! # Assumptions
//! The least number of cells whose (true) digit must be given before naked and hidden
//! singles alone finish the puzzle: 0 when singles solve it. A false assumption can never
//! let singles finish a puzzle with one solution, and singles are order-independent, so
//! the search is over sets of cells (iterative deepening, each level starting from where
//! singles stalled), capped at [`RateOptions::assumptions_cap`] (then `>=cap+1`).

mod assume;
mod path;
mod se;

pub use assume::Assumptions;
pub(crate) use path::{aligned_exclusion_step, se_chain_step};
pub use path::{se_next_step, se_path, SePath};
use se::rating;
pub(crate) use se::ChainRule;
pub use se::{SeTechnique, MAX_LEVEL};

use crate::candidates::Candidates;
use crate::grid::Grid;
use crate::solver;

/// A step of one of SE's forcing-chain rules, for the explain engine.
pub(crate) struct ChainStep {
    /// SE's technique (and nesting level).
    pub tech: SeTechnique,
    /// SE's rating of the step, in tenths.
    pub rating: Tenths,
    /// Candidates removed, as (cell index, digit).
    pub eliminations: Vec<(usize, u8)>,
    /// The digit placed, as (cell index, digit).
    pub placement: Option<(usize, u8)>,
    /// The implications, as text.
    pub text: String,
}

/// The steps of one SE chaining rule on a pencil-mark state, in SE's order (easiest
/// first).
pub(crate) fn chain_steps(marks: &Candidates, rule: ChainRule) -> Vec<ChainStep> {
    let g = se::SeGrid::from_parts(marks.grid().values(), &marks.masks);
    let nested = se::NestedCache::default();
    nested.start_step(&g);
    let context = se::Context {
        src: None,
        first: false,
        explain: true,
        solution: None,
        nested: &nested,
    };
    se::chaining_hints(&g, rule, context)
        .into_iter()
        .map(|h| ChainStep {
            tech: h.tech,
            rating: Tenths(se::tenths(h.diff)),
            eliminations: h.removals.iter().map(|&(c, d)| (c as usize, d)).collect(),
            placement: h.place.map(|(c, d)| (c as usize, d)),
            text: h.text,
        })
        .collect()
}

/// An SE-scale rating in tenths (`107` is 10.7), as forum lists print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tenths(pub u16);

impl std::str::FromStr for Tenths {
    type Err = String;

    /// Reads `9`, `9.0` or `10.7`: at most one decimal, as ratings are written.
    fn from_str(text: &str) -> Result<Tenths, String> {
        let bad = || format!("'{text}' is not a rating such as 7.2 (one decimal at most)");
        let (whole, tenth) = match text.split_once('.') {
            Some((whole, tenth)) if tenth.len() == 1 => (whole, tenth),
            Some(_) => return Err(bad()),
            None => (text, "0"),
        };
        let whole: u16 = whole.parse().map_err(|_| bad())?;
        let tenth: u16 = tenth.parse().map_err(|_| bad())?;
        whole
            .checked_mul(10)
            .and_then(|w| w.checked_add(tenth))
            .map(Tenths)
            .ok_or_else(bad)
    }
}

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
    /// Steps SE applies to solve the puzzle.
    pub steps: usize,
    /// False when the search stopped before the grid was full: SE's rules stalled (SE
    /// reports ER 20.0, as here) or the nesting cap of [`RateOptions::max_level`] was hit
    /// (ER, and EP and ED if not reached yet, are then lower bounds).
    pub complete: bool,
}

/// Rates `puzzle` on the SE scale with every SE rule. The puzzle should have a unique
/// solution: SE's uniqueness rules (unique loops, BUG) assume it; [`rate`] checks it.
///
/// From ER 9.0 up the search splits its work over the current rayon pool (the global
/// one unless called inside `ThreadPool::install`); the result never depends on how.
pub fn se_rating(puzzle: &Grid) -> SeRating {
    se_rating_capped(puzzle, 5)
}

/// [`se_rating`] with dynamic forcing chains nested at most `max_level` deep (0: no
/// nesting, SE's 8.5 rule; 1: SE's 9.0 rule "dynamic (+)"; 2–5: the nested rules 9.5,
/// 10.0, 10.5, 11.0). Nested chains cost seconds on the hardest puzzles; a cap gives a
/// fast lower bound for huge lists.
pub fn se_rating_capped(puzzle: &Grid, max_level: u8) -> SeRating {
    let unique = solver::count(puzzle, 2);
    let solution = unique.solution.filter(|_| unique.count == 1);
    se_rating_known(puzzle, solution.as_ref(), max_level)
}

/// [`se_rating_capped`] of a puzzle whose one solution is known (`None`: not, or not
/// one): with it, chains from the assumptions it agrees with stop early.
fn se_rating_known(puzzle: &Grid, solution: Option<&Grid>, max_level: u8) -> SeRating {
    let out = se::se_rate(puzzle, solution, max_level, false);
    se_rating_of(&out, puzzle.is_full(), max_level)
}

/// The numbers of an SE run from a position (`full`: nothing left to fill) with the
/// nesting capped at `max_level`.
fn se_rating_of(out: &se::SeOutcome, full: bool, max_level: u8) -> SeRating {
    let er = if full { 0 } else { se::tenths(out.er) };
    let hardest = out
        .steps
        .iter()
        .find(|h| se::tenths(h.diff) == er)
        .map(|h| h.tech);
    let mut r = SeRating {
        er: Tenths(er),
        ep: Tenths(se::tenths(out.ep)),
        ed: Tenths(se::tenths(out.ed)),
        hardest,
        steps: out.steps.len(),
        complete: out.solved,
    };
    if !out.solved && max_level < MAX_LEVEL {
        // Stopped by the cap: the next step needs the next rule up, so ER is at least its
        // floor; EP and ED likewise when the search stopped before reaching them.
        let floor =
            se::tenths(rating::DYNAMIC_CHAINS_PLUS + rating::NESTING_STEP * max_level as f64);
        let found = out
            .steps
            .iter()
            .map(|h| se::tenths(h.diff))
            .max()
            .unwrap_or(0);
        r.er = Tenths(found.max(floor));
        if out.ep == 0.0 {
            r.ep = r.er;
        }
        if out.ed == 0.0 {
            r.ed = r.er;
        }
    }
    r
}

/// The level word, from documented thresholds on ER (SE's scale):
///
/// | level | ER | what it takes (SE's techniques) |
/// |---|---|---|
/// | easy | ≤ 1.5 | hidden singles |
/// | medium | 1.6–2.5 | naked singles, direct locked candidates and hidden sets |
/// | hard | 2.6–4.4 | locked candidates, pairs, triples, X-Wing, Swordfish, XY- and XYZ-Wing |
/// | expert | 4.5–6.5 | unique rectangles, quads, Jellyfish, BUG, aligned pairs, X-cycles |
/// | extreme | 6.6–8.9 | forcing chains: X-, XY-, Nishio, multiple and dynamic |
/// | diabolical | ≥ 9.0 | dynamic (+) and nested forcing chains |
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// ER ≤ 1.5.
    Easy,
    /// ER 1.6–2.5.
    Medium,
    /// ER 2.6–4.4.
    Hard,
    /// ER 4.5–6.5.
    Expert,
    /// ER 6.6–8.9.
    Extreme,
    /// ER ≥ 9.0.
    Diabolical,
}

impl Level {
    /// The level of an ER.
    pub fn of(er: Tenths) -> Level {
        Level::ALL
            .into_iter()
            .find(|level| er <= level.ers().1)
            .unwrap_or(Level::Diabolical)
    }

    /// Every level, easiest first.
    pub const ALL: [Level; 6] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
        Level::Diabolical,
    ];

    /// The ERs of the level, inclusive: what a generator asked for the level looks for.
    pub fn ers(self) -> (Tenths, Tenths) {
        let (low, high) = match self {
            Level::Easy => (0, 15),
            Level::Medium => (16, 25),
            Level::Hard => (26, 44),
            Level::Expert => (45, 65),
            Level::Extreme => (66, 89),
            Level::Diabolical => (90, u16::MAX),
        };
        (Tenths(low), Tenths(high))
    }

    /// The level a word names, as [`Level::word`] writes it (any case).
    pub fn from_word(word: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.word().eq_ignore_ascii_case(word))
    }

    /// The word: `easy`, `medium`, `hard`, `expert`, `extreme`, `diabolical`.
    pub fn word(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
            Level::Diabolical => "diabolical",
        }
    }
}

/// Settings of [`rate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateOptions {
    /// Deepest nesting of dynamic forcing chains ([`MAX_LEVEL`] = all of SE's rules; see
    /// [`se_rating_capped`]).
    pub max_level: u8,
    /// The assumptions search stops here and reports `AtLeast(cap + 1)`.
    pub assumptions_cap: u8,
}

impl Default for RateOptions {
    fn default() -> RateOptions {
        RateOptions {
            max_level: MAX_LEVEL,
            assumptions_cap: 3,
        }
    }
}

/// Why a puzzle cannot be rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateError {
    /// Two givens clash or no solution exists.
    NoSolution,
    /// More than one solution: SE's rules would give a meaningless number.
    MultipleSolutions,
}

impl std::fmt::Display for RateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RateError::NoSolution => "the puzzle has no solution",
            RateError::MultipleSolutions => "the puzzle has more than one solution",
        })
    }
}

impl std::error::Error for RateError {}

/// Everything known about a puzzle's difficulty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    /// Sudoku Explainer's ER/EP/ED.
    pub se: SeRating,
    /// Least number of true digits to assume before singles finish the puzzle.
    pub assumptions: Assumptions,
    /// Branch points of the exact solver proving the solution unique.
    pub guesses: u64,
    /// The level word of ER.
    pub level: Level,
    /// The solution.
    pub solution: Grid,
}

/// Rates a puzzle: checks it has exactly one solution, then runs the SE-scale search,
/// the assumptions search and records the exact solver's effort.
pub fn rate(puzzle: &Grid, opts: &RateOptions) -> Result<Rating, RateError> {
    if puzzle.conflict().is_some() {
        return Err(RateError::NoSolution);
    }
    let outcome = solver::count(puzzle, 2);
    let solution = match (outcome.count, outcome.solution) {
        (1, Some(s)) => s,
        (0, _) | (_, None) => return Err(RateError::NoSolution),
        _ => return Err(RateError::MultipleSolutions),
    };
    let se = se_rating_known(puzzle, Some(&solution), opts.max_level);
    let assumptions = assume::assumptions(puzzle, &solution, opts.assumptions_cap);
    Ok(Rating {
        level: Level::of(se.er),
        se,
        assumptions,
        guesses: outcome.stats.guesses,
        solution,
    })
}
