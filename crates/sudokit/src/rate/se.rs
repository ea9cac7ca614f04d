//! A Sudoku Explainer 1.2.1-equivalent search, the source of the `ER/EP/ED` ratings.
//!
//! The numbers only mean what users expect if the search makes the same choices as SE:
//! the same techniques in the same order, the same first hint out of each, the same
//! chain-length bonus. So this module follows SE's rules closely, on its own compact
//! representation (digits 1–9, candidate masks with bit `d - 1`, houses numbered
//! blocks 0–8, rows 9–17, columns 18–26, as SE orders them). Where SE's order is
//! arbitrary (hash-map iteration), cell order is used instead.
//!
//! # Where the time goes, and what avoids it
//! From ER 9.5 up, SE's rules run whole rule searches (loops, multiple and dynamic
//! chains) inside every chain, at every point where the chain stalls, and every step
//! repeats every level from the bottom. Four observations make this affordable without
//! changing a single choice:
//! - A chain stalls at the same reduced grid whatever order it propagated in (the stall
//!   is a fixpoint), so chains of different sources, levels and steps meet the same
//!   grids again. A nested rule's hints on a grid depend on the grid alone; only which
//!   removals each hint rests on depends on where the chain started, and that is a filter.
//!   So nested rules run once per grid (`nested_rule`), as if from the grid the step
//!   started from (every chain of this step and the later ones starts from it or from
//!   less), and are filtered per use. The simple rules nested from ER 9.0 up depend on the
//!   reduced grid and the starting grid, which every level of a step shares, so they
//!   run once per step and grid (`simple_rules`).
//! - Almost no forcing-chain or cycle search of the loops rule finds anything (about one
//!   in 800 inside nested chains). The link graph's strongly connected components and
//!   reachability sets (`Reach`) say beforehand which searches can end in a conclusion.
//!   Where they rule out every search, they do so on any grid with fewer candidates and
//!   no new link (`links_within`), as a reduced grid of the next step often is of this
//!   one's (the step's removals aside), so there the loops rule is not run again
//!   (`inherit_loops`).
//! - What the chains of a multiple or dynamic run reach does not depend on the order
//!   (a fixpoint of the singles rules, or of the grid's links), so a worklist without
//!   reasons finds it at a fraction of the cost; many nested runs find nothing, and the
//!   rest find it in a few of their chains. The `sieve` says which, and only those
//!   chains are built with their reasons. A fixpoint that a removed candidate did not
//!   take part in stays one without it, so the next step's sieve on the same reduced grid
//!   less that step's removals takes nearly all its closures over (`dynamic_sieve`).
//!   A Nishio run's chains follow one digit, and a worklist over its places says which
//!   meet a contradiction, its only hints (`Sieve::nishio`).
//! - Rules between the parallel chain runs are serial, so they are kept lean: aligned
//!   exclusion settles each pair of digits for every third digit at once, searches its
//!   thousands of triplets on all threads, and skips those no change since a grid where
//!   it found nothing could touch.
//! - The rest is bookkeeping done once instead of per hint: no text unless explaining,
//!   memoised chainings read in place, sets and arenas reused per thread; in level-0
//!   runs, ancestor counts kept per potential and the removals a hint rests on found
//!   only for the hints that survive de-duplication.
//! - At the top of a run of nested chains every chain runs to its end and none depends
//!   on another, so they are built ahead on the rayon pool (`Chainer::prebuild`), one job
//!   each, and joined in SE's order: a nested hint's identity is a hash (`Nested`), the
//!   same on every thread; the run's thousands of hint complexities are then found on the
//!   pool too (`Chainer::deferred_complexities`). Half of the chains start from an
//!   assumption the puzzle's solution agrees with; every rule being sound, those never
//!   meet a contradiction and only serve the hints they share with the others, so they
//!   are built last and stop once they have reached what the others reached (at levels
//!   1–3 that halves what they build). From level 4 up, only what a first hint could
//!   rest on: a hint whose part in the others' chains alone is as complex as the least
//!   contradiction they met loses to it (on the slowest puzzle, that halves what they
//!   build at level 4).
//!
//! Each module's tests check these claims against direct computation.
//!
//! # Layout
//! This file holds the grid (`SeGrid`), the hint, SE's rule order (`next_hint`) and rating loop
//! (`se_rate`); the rules live in submodules, in SE's order of difficulty: [`basic`]
//! (singles to XYZ-Wing), [`uniqueness`] (unique loops, BUG), [`exclusion`](mod@exclusion)
//! (aligned pairs and triplets), [`loops`] (cycles and forcing X and Y chains), [`chains`]
//! (Nishio, multiple, dynamic and nested forcing chains, and the `Chainer` that runs
//! every chaining rule), whose top-level nested runs build their chains on all threads
//! with [`ahead`]. The chains rest on [`potentials`] (what a chain assumes and how one
//! assumption leads to the next), [`reach`] (the static link graph), [`nested`] (the
//! rules run inside chains, kept per grid) and [`sieve`] (which chains of a run can find
//! anything).

use std::hash::Hash;
use std::rc::Rc;

use crate::candidates::Candidates;
use crate::grid::{house_cells, house_masks, peer_masks, Grid, House};

mod ahead;
mod basic;
mod chains;
mod exclusion;
mod loops;
mod nested;
mod potentials;
mod reach;
mod sieve;
mod uniqueness;

use basic::{fish, hidden_set, hidden_single, locking, naked_set, naked_single, xy_wing};
use exclusion::aligned_exclusion;
use nested::clear_thread_caches;
use potentials::NONE;
use uniqueness::{bug, unique_loops};

pub(crate) use chains::{chaining_hints, nested_rules, ChainRule};
pub(crate) use exclusion::aligned_exclusion_hint;
pub(crate) use nested::NestedCache;

/// Block, row and column house types, in the order SE walks them by default.
pub(crate) const BLOCK: usize = 0;
pub(crate) const ROW: usize = 1;
pub(crate) const COL: usize = 2;

/// SE numbers the houses blocks first (0–8), then rows (9–17), then columns (18–26), and
/// walks them in that order; [`House`] numbers rows, columns, boxes. They are the same 27
/// houses with their cells in the same order, so SE's tables are `grid`'s, permuted.
pub(crate) const fn se_house(r: usize) -> House {
    let k = (r % 9) as u8;
    match r / 9 {
        0 => House::Box(k),
        1 => House::Row(k),
        _ => House::Column(k),
    }
}

const fn build_rc() -> [[u8; 9]; 27] {
    let cells = house_cells();
    let mut t = [[0u8; 9]; 27];
    let mut r = 0;
    while r < 27 {
        let mut i = 0;
        while i < 9 {
            t[r][i] = cells[se_house(r).index()][i].index() as u8;
            i += 1;
        }
        r += 1;
    }
    t
}

/// The cells of each house, in SE's index order, for the tables built from them.
const SE_CELLS: [[u8; 9]; 27] = build_rc();

/// Cells of each house, in SE's index order.
pub(crate) static RC: [[u8; 9]; 27] = SE_CELLS;

const fn build_cr() -> [[u8; 3]; 81] {
    let mut t = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (y, x) = (c / 9, c % 9);
        t[c] = [(y / 3 * 3 + x / 3) as u8, (9 + y) as u8, (18 + x) as u8];
        c += 1;
    }
    t
}

/// The block, row and column of each cell.
pub(crate) static CR: [[u8; 3]; 81] = build_cr();

const fn build_pos() -> [[u8; 3]; 81] {
    let mut t = [[0u8; 3]; 81];
    let mut r = 0;
    while r < 27 {
        let mut i = 0;
        while i < 9 {
            t[SE_CELLS[r][i] as usize][r / 9] = i as u8;
            i += 1;
        }
        r += 1;
    }
    t
}

/// Index of each cell within its block, row and column.
static POS: [[u8; 3]; 81] = build_pos();

const fn build_house() -> [[u8; 20]; 81] {
    let mut t = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut n = 0;
        let mut seen = [false; 81];
        seen[c] = true;
        let mut k = 0;
        while k < 3 {
            let r = build_cr()[c][k] as usize;
            let mut i = 0;
            while i < 9 {
                let o = SE_CELLS[r][i] as usize;
                if !seen[o] {
                    seen[o] = true;
                    t[c][n] = o as u8;
                    n += 1;
                }
                i += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// The 20 peers of each cell in SE's `getHouseCells` order (block, row, column).
pub(crate) static HOUSE: [[u8; 20]; 81] = build_house();

const fn build_rm() -> [u128; 27] {
    let masks = house_masks();
    let mut t = [0u128; 27];
    let mut r = 0;
    while r < 27 {
        t[r] = masks[se_house(r).index()];
        r += 1;
    }
    t
}

/// Cell masks of the houses.
static RM: [u128; 27] = build_rm();

/// The peers of each cell as a mask.
static PEERS: [u128; 81] = peer_masks();

const fn build_cell() -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        t[c] = 1 << c;
        c += 1;
    }
    t
}

/// Each cell's bit in a cell mask: in the hot loops a lookup costs less than a 128-bit
/// shift by a variable amount.
static CELL: [u128; 81] = build_cell();

fn peers_mask(c: usize) -> u128 {
    PEERS[c]
}

fn in_region(c: usize, r: usize) -> bool {
    CR[c][r / 9] as usize == r
}

fn crosses(r1: usize, r2: usize) -> bool {
    RM[r1] & RM[r2] != 0
}

const fn build_combos<const N: usize>(k: u32) -> [u16; N] {
    let mut t = [0u16; N];
    let (mut m, mut i) = (0u16, 0);
    while m < 1 << 9 {
        if m.count_ones() == k {
            t[i] = m;
            i += 1;
        }
        m += 1;
    }
    t
}

static COMBOS2: [u16; 36] = build_combos(2);
static COMBOS3: [u16; 84] = build_combos(3);
static COMBOS4: [u16; 126] = build_combos(4);

/// Masks with `k` (2–4) of the low 9 bits set, in increasing numeric order (SE's
/// `Permutations`); tabled, as the nested rules ask for them thousands of times a step.
fn combos(k: u32) -> impl Iterator<Item = u32> {
    let t: &[u16] = match k {
        2 => &COMBOS2,
        3 => &COMBOS3,
        _ => &COMBOS4,
    };
    t.iter().map(|&m| m as u32)
}

/// Masks with `k` of the low `n` bits set, in increasing numeric order.
fn subsets(k: u32, n: u32) -> impl Iterator<Item = u32> {
    (0u32..1 << n).filter(move |m| m.count_ones() == k)
}

/// Whether `m` has at most one bit set: one subtraction at the mask's own width, where a
/// popcount of a cell mask takes one per word.
fn at_most_one_bit(m: impl Mask) -> bool {
    m.at_most_one()
}

/// A mask of any width, walked bit by bit at its own width (widening the 16-bit masks
/// of the hot chaining loops to 128 bits costs measurable time).
trait Mask: Copy {
    /// Indexes of the set bits, ascending.
    fn set_bits(self) -> impl Iterator<Item = usize>;

    /// Whether at most one bit is set.
    fn at_most_one(self) -> bool;
}

macro_rules! mask {
    ($($t:ty),*) => {$(
        impl Mask for $t {
            fn at_most_one(self) -> bool {
                self & self.wrapping_sub(1) == 0
            }

            fn set_bits(self) -> impl Iterator<Item = usize> {
                let mut m = self;
                std::iter::from_fn(move || {
                    (m != 0).then(|| {
                        let i = m.trailing_zeros() as usize;
                        m &= m - 1;
                        i
                    })
                })
            }
        }
    )*};
}

mask!(u16, u32);

/// Cell masks are walked a 64-bit word at a time: a `u128`'s lowest bit and its removal
/// cost carries across the two words at every step, in the hottest loops of the rating.
impl Mask for u128 {
    fn at_most_one(self) -> bool {
        self & self.wrapping_sub(1) == 0
    }

    fn set_bits(self) -> impl Iterator<Item = usize> {
        let (mut lo, mut hi) = (self as u64, (self >> 64) as u64);
        std::iter::from_fn(move || {
            if lo != 0 {
                let i = lo.trailing_zeros() as usize;
                lo &= lo - 1;
                Some(i)
            } else if hi != 0 {
                let i = hi.trailing_zeros() as usize;
                hi &= hi - 1;
                Some(64 + i)
            } else {
                None
            }
        })
    }
}

/// Indexes of the set bits of `m` (a house position mask, a digit mask or a cell mask),
/// ascending.
fn bits(m: impl Mask) -> impl Iterator<Item = usize> {
    m.set_bits()
}

/// Digits (1–9) of a candidate mask, ascending.
fn digits(m: u16) -> impl Iterator<Item = u8> {
    bits(m).map(|i| i as u8 + 1)
}

fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// Bits 0, 9, 18, …, 72 of `m` (a column's cells, once shifted to column 0) as bits 0–8.
/// Multiplying the first eight by 2^0 + 2^8 + … + 2^56 moves bit 9j to 56 + j, and every
/// other product bit elsewhere, none shared: the top byte gathers them without a loop.
fn column_bits(m: u128) -> u16 {
    let low = (m as u64 & 0x8040_2010_0804_0201).wrapping_mul(0x0101_0101_0101_0101) >> 56;
    low as u16 | ((m >> 72) as u16 & 1) << 8
}

/// SE's grid: the library's pencil-mark state ([`Candidates`]: values, each cell's
/// candidates, each digit's cells) plus what SE's rules ask of it that `Candidates` does not
/// keep: the places of each digit in each house.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct SeGrid {
    marks: Candidates,
    /// Places of each digit in each house: chains ask at every candidate they switch off
    /// whether its houses are left with two (`off_to_on`).
    count: [[u8; 27]; 9],
}

impl SeGrid {
    /// The placed digits, 0 for an empty cell.
    #[inline]
    pub fn val(&self) -> &[u8; 81] {
        &self.marks.grid.0
    }

    /// Each cell's candidates, bit `d - 1` for digit `d`; 0 for a placed cell.
    #[inline]
    pub fn cand(&self) -> &[u16; 81] {
        &self.marks.masks
    }

    /// Cells holding each digit as a candidate (bit = cell index), for fast house counts.
    #[inline]
    fn digit_cells(&self) -> &[u128; 9] {
        &self.marks.digit_cells
    }

    /// A grid of these values with no candidate yet, to fill.
    fn blank(values: &[u8; 81]) -> SeGrid {
        SeGrid {
            marks: Candidates {
                grid: Grid(*values),
                masks: [0; 81],
                digit_cells: [0; 9],
                // SE's rules never ask which cells were given; every placed one counts.
                givens: values
                    .iter()
                    .enumerate()
                    .filter(|&(_, &v)| v != 0)
                    .fold(0, |acc, (i, _)| acc | 1 << i),
            },
            count: [[0; 27]; 9],
        }
    }

    /// The grid with candidates rebuilt from the givens, as SE's `rebuildPotentialValues`.
    pub fn from_values(values: &[u8; 81]) -> SeGrid {
        let mut g = SeGrid::blank(values);
        for (c, house) in HOUSE.iter().enumerate() {
            if g.val()[c] == 0 {
                let mut m = 0x1ff;
                for &o in house {
                    let v = g.val()[o as usize];
                    if v != 0 {
                        m &= !bit(v);
                    }
                }
                g.marks.masks[c] = m;
                for d in digits(m) {
                    g.marks.digit_cells[d as usize - 1] |= 1u128 << c;
                }
            }
        }
        g.count_places();
        g
    }

    /// Fills `count` from `digit_cells`.
    fn count_places(&mut self) {
        for (count, &m) in self.count.iter_mut().zip(&self.marks.digit_cells) {
            for (n, &r) in count.iter_mut().zip(&RM) {
                *n = (m & r).count_ones() as u8;
            }
        }
    }

    /// A grid from values and candidate masks (a pencil-mark state).
    pub fn from_parts(values: &[u8; 81], cands: &[u16; 81]) -> SeGrid {
        let mut g = SeGrid::blank(values);
        for (c, &m) in cands.iter().enumerate() {
            if g.val()[c] == 0 {
                g.marks.masks[c] = m & 0x1ff;
                for d in digits(g.cand()[c]) {
                    g.marks.digit_cells[d as usize - 1] |= 1u128 << c;
                }
            }
        }
        g.count_places();
        g
    }

    /// Cells that lost some candidate since `src` (a nested rule's starting grid).
    fn changed_since(&self, src: &SeGrid) -> u128 {
        (0..9).fold(0, |m, i| {
            m | (src.digit_cells()[i] & !self.digit_cells()[i])
        })
    }

    /// Cells that lost candidate `d` since `src`.
    fn lost(&self, src: &SeGrid, d: u8) -> u128 {
        src.digit_cells()[d as usize - 1] & !self.digit_cells()[d as usize - 1]
    }

    fn has(&self, c: usize, d: u8) -> bool {
        self.cand()[c] & bit(d) != 0
    }

    fn card(&self, c: usize) -> u32 {
        self.cand()[c].count_ones()
    }

    /// Positions (indexes 0–8) of digit `d` in house `r`: bits gathered from the
    /// row-major cell mask.
    fn pos(&self, r: usize, d: u8) -> u16 {
        let m = self.digit_cells()[d as usize - 1];
        let k = r % 9;
        let p = match r / 9 {
            0 => {
                let b = k / 3 * 27 + k % 3 * 3;
                (m >> b) & 7 | ((m >> (b + 9)) & 7) << 3 | ((m >> (b + 18)) & 7) << 6
            }
            1 => (m >> (9 * k)) & 0x1ff,
            _ => column_bits(m >> k) as u128,
        };
        p as u16
    }

    /// Cells of house `r` holding candidate `d`.
    fn cells(&self, r: usize, d: u8) -> u128 {
        self.digit_cells()[d as usize - 1] & RM[r]
    }

    fn empty_count(&self, r: usize) -> u32 {
        RC[r]
            .iter()
            .filter(|&&c| self.val()[c as usize] == 0)
            .count() as u32
    }

    /// Places of digit `d` in house `r`.
    fn places(&self, r: usize, d: u8) -> u8 {
        debug_assert_eq!(
            u32::from(self.count[d as usize - 1][r]),
            self.cells(r, d).count_ones()
        );
        self.count[d as usize - 1][r]
    }

    fn remove(&mut self, c: usize, d: u8) {
        if self.has(c, d) {
            self.marks.masks[c] &= !bit(d);
            self.marks.digit_cells[d as usize - 1] &= !CELL[c];
            for &r in &CR[c] {
                self.count[d as usize - 1][r as usize] -= 1;
            }
        }
    }

    /// SE's `setValueAndCancel`.
    fn place(&mut self, c: usize, d: u8) {
        self.marks.grid.0[c] = d;
        for v in digits(self.cand()[c]) {
            self.remove(c, v);
        }
        for &o in &HOUSE[c] {
            self.remove(o as usize, d);
        }
    }

    pub fn solved(&self) -> bool {
        self.val().iter().all(|&v| v != 0)
    }

    /// The strong partners of candidate `d` of cell `c`, the candidates its removal
    /// switches on at once: the other of a cell of two, then the other place of the digit
    /// in each house (block, row, column) with two, as (cell, digit). A cell can be the
    /// other place in two houses, and is then listed twice.
    fn partners(&self, c: usize, d: u8) -> impl Iterator<Item = (usize, u8)> + '_ {
        let cell = (self.card(c) == 2).then(|| (c, digits(self.cand()[c] & !bit(d))));
        let cell = cell.into_iter().flat_map(|(c, ds)| ds.map(move |e| (c, e)));
        let houses = CR[c]
            .iter()
            .filter(move |&&h| self.places(h as usize, d) == 2);
        cell.chain(houses.map(move |&h| {
            let o = (self.cells(h as usize, d) & !(1 << c)).trailing_zeros() as usize;
            (o, d)
        }))
    }
}

/// Sudoku Explainer 1.2.1's difficulty of each kind of hint, in one place. Every rule
/// starts its hints' ratings here; chains then add their length bonus
/// ([`chains::length_diff`]), unique loops their length and type extras, BUGs and unique
/// loops of type 3 a tenth per extra candidate.
pub(crate) mod rating {
    pub const FULL_HOUSE: f64 = 1.0;
    pub const HIDDEN_SINGLE_IN_BLOCK: f64 = 1.2;
    pub const HIDDEN_SINGLE_IN_LINE: f64 = 1.5;
    pub const DIRECT_POINTING: f64 = 1.7;
    pub const DIRECT_CLAIMING: f64 = 1.9;
    pub const DIRECT_HIDDEN_PAIR: f64 = 2.0;
    pub const NAKED_SINGLE: f64 = 2.3;
    pub const DIRECT_HIDDEN_TRIPLET: f64 = 2.5;
    pub const POINTING: f64 = 2.6;
    pub const CLAIMING: f64 = 2.8;
    pub const NAKED_PAIR: f64 = 3.0;
    pub const X_WING: f64 = 3.2;
    pub const HIDDEN_PAIR: f64 = 3.4;
    pub const NAKED_TRIPLET: f64 = 3.6;
    pub const SWORDFISH: f64 = 3.8;
    pub const HIDDEN_TRIPLET: f64 = 4.0;
    pub const XY_WING: f64 = 4.2;
    /// A hidden quad that yields a hidden single at once.
    pub const DIRECT_HIDDEN_QUAD: f64 = 4.3;
    pub const XYZ_WING: f64 = 4.4;
    /// A unique rectangle (4 cells); longer loops add 0.1 to 0.5.
    pub const UNIQUE_LOOP: f64 = 4.5;
    pub const NAKED_QUAD: f64 = 5.0;
    pub const JELLYFISH: f64 = 5.2;
    pub const HIDDEN_QUAD: f64 = 5.4;
    pub const BUG_TYPE_1: f64 = 5.6;
    /// BUG types 2 to 4 (type 3 adds a tenth per extra candidate of its naked set).
    pub const BUG: f64 = 5.7;
    pub const ALIGNED_PAIR_EXCLUSION: f64 = 6.2;
    /// Bidirectional X- and Y-cycles.
    pub const CYCLE: f64 = 6.5;
    pub const FORCING_X_CHAIN: f64 = 6.6;
    /// Bidirectional XY-cycles and forcing XY-chains.
    pub const XY_CHAIN: f64 = 7.0;
    pub const ALIGNED_TRIPLET_EXCLUSION: f64 = 7.5;
    pub const NISHIO: f64 = 7.5;
    pub const MULTIPLE_CHAINS: f64 = 8.0;
    pub const DYNAMIC_CHAINS: f64 = 8.5;
    /// Dynamic chains helped by the simple rules, `Dynamic (+)`.
    pub const DYNAMIC_CHAINS_PLUS: f64 = 9.0;
    /// Dynamic chains helped by forcing chains, the first nesting level.
    pub const NESTED_CHAINS: f64 = 9.5;
    /// What each further nesting level adds.
    pub const NESTING_STEP: f64 = 0.5;
}

/// The techniques of SE's set, as its hints name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SeTechnique {
    /// Last empty cell of a house (1.0).
    FullHouse,
    /// Hidden single in a block (1.2) or a line (1.5).
    HiddenSingle,
    /// Pointing that yields a hidden single at once (1.7).
    DirectPointing,
    /// Claiming that yields a hidden single at once (1.9).
    DirectClaiming,
    /// Hidden pair that yields a hidden single at once (2.0).
    DirectHiddenPair,
    /// Naked single (2.3).
    NakedSingle,
    /// Hidden triple that yields a hidden single at once (2.5).
    DirectHiddenTriplet,
    /// Locked candidates, pointing (2.6).
    Pointing,
    /// Locked candidates, claiming (2.8).
    Claiming,
    /// Naked pair (3.0).
    NakedPair,
    /// X-Wing (3.2).
    XWing,
    /// Hidden pair (3.4).
    HiddenPair,
    /// Naked triple (3.6).
    NakedTriplet,
    /// Swordfish (3.8).
    Swordfish,
    /// Hidden triple (4.0).
    HiddenTriplet,
    /// XY-Wing (4.2).
    XYWing,
    /// XYZ-Wing (4.4).
    XYZWing,
    /// Unique rectangle or loop, type 1–4 (4.5+).
    UniqueLoop(u8),
    /// Naked quad (5.0).
    NakedQuad,
    /// Jellyfish (5.2).
    Jellyfish,
    /// Hidden quad (5.4).
    HiddenQuad,
    /// Bivalue universal grave, type 1–4 (5.6+).
    Bug(u8),
    /// Aligned pair exclusion (6.2).
    AlignedPairExclusion,
    /// Bidirectional X-cycle (6.5+).
    XCycle,
    /// Bidirectional Y-cycle (6.5+).
    YCycle,
    /// Forcing X-chain (6.6+).
    ForcingXChain,
    /// Bidirectional XY-cycle (7.0+).
    XYCycle,
    /// Forcing XY-chain (7.0+).
    ForcingXYChain,
    /// Aligned triplet exclusion (7.5).
    AlignedTripletExclusion,
    /// Nishio forcing chain (7.5+).
    Nishio,
    /// Cell forcing chains. The number, here and in the three variants below, is the
    /// family: 0 static multiple chains (8.0+), 1 dynamic (8.5+), 2 dynamic (+) (9.0+),
    /// 3–6 nested (9.5+, 10.0+, 10.5+, 11.0+).
    CellForcingChains(u8),
    /// Region (unit) forcing chains.
    RegionForcingChains(u8),
    /// Contradiction forcing chains: an assumption leads to a contradiction.
    ContradictionForcingChains(u8),
    /// Double forcing chains: both states of a candidate imply the same.
    DoubleForcingChains(u8),
}

impl SeTechnique {
    /// SE's name for the technique (for chains, with the family of the producing rule:
    /// level 0 = static multiple, 1 = dynamic, 2 = dynamic (+), 3+ = nested).
    pub fn name(self) -> String {
        fn family(kind: &str, level: u8) -> String {
            match level {
                0 => format!("{kind} Forcing Chains"),
                1 => format!("Dynamic {kind} Forcing Chains"),
                2 => format!("Dynamic {kind} Forcing Chains (+)"),
                3 => format!("Dynamic {kind} Forcing Chains (+ Forcing Chains)"),
                4 => format!("Dynamic {kind} Forcing Chains (+ Multiple Forcing Chains)"),
                5 => format!("Dynamic {kind} Forcing Chains (+ Dynamic Forcing Chains)"),
                _ => format!(
                    "Dynamic {kind} Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))"
                ),
            }
        }
        use SeTechnique::*;
        match self {
            FullHouse => "Full House".into(),
            HiddenSingle => "Hidden Single".into(),
            DirectPointing => "Direct Pointing".into(),
            DirectClaiming => "Direct Claiming".into(),
            DirectHiddenPair => "Direct Hidden Pair".into(),
            NakedSingle => "Naked Single".into(),
            DirectHiddenTriplet => "Direct Hidden Triplet".into(),
            Pointing => "Pointing".into(),
            Claiming => "Claiming".into(),
            NakedPair => "Naked Pair".into(),
            XWing => "X-Wing".into(),
            HiddenPair => "Hidden Pair".into(),
            NakedTriplet => "Naked Triplet".into(),
            Swordfish => "Swordfish".into(),
            HiddenTriplet => "Hidden Triplet".into(),
            XYWing => "XY-Wing".into(),
            XYZWing => "XYZ-Wing".into(),
            UniqueLoop(t) => format!("Unique Rectangle/Loop type {t}"),
            NakedQuad => "Naked Quad".into(),
            Jellyfish => "Jellyfish".into(),
            HiddenQuad => "Hidden Quad".into(),
            Bug(t) => format!("Bivalue Universal Grave type {t}"),
            AlignedPairExclusion => "Aligned Pair Exclusion".into(),
            XCycle => "Bidirectional X-Cycle".into(),
            YCycle => "Bidirectional Y-Cycle".into(),
            ForcingXChain => "Forcing X-Chain".into(),
            XYCycle => "Bidirectional Cycle".into(),
            ForcingXYChain => "Forcing Chain".into(),
            AlignedTripletExclusion => "Aligned Triplet Exclusion".into(),
            Nishio => "Nishio Forcing Chains".into(),
            CellForcingChains(l) => family("Cell", l),
            RegionForcingChains(l) => family("Region", l),
            ContradictionForcingChains(l) => family("Contradiction", l),
            DoubleForcingChains(l) => family("Double", l),
        }
    }
}

/// A digit placed, as (cell, digit).
type Placement = Option<(u8, u8)>;

/// Candidates a nested rule removes: (potential key, rule parents, nested chain).
type Removed = Vec<(u16, Vec<(u8, u8)>, Option<Nested>)>;
/// `Removed` as the caches hand it out, shared.
type RemovedRc = Rc<Removed>;

/// A chain hint used inside a nested chain: an outer chain adds its complexity once per
/// hint, however many of its potentials rest on it. As in SE (`FullChain`), hints are
/// the same when their chains are: the identity hashes the chains' potentials
/// (`Arena::identity`), not the grid or the run they were found in, so two branches of
/// an outer chain that reach the same nested chain on different grids count it once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Nested {
    id: u64,
    complexity: u32,
}

/// A rule of the basic part of SE's order, producing into a hint list.
type Producer<'a> = &'a dyn Fn(&mut Vec<Hint>);

/// One step found by an SE rule.
#[derive(Clone, Debug)]
pub(crate) struct Hint {
    pub diff: f64,
    /// Chain complexity (number of distinct nodes), for ordering chain hints.
    pub complexity: u32,
    pub sort_key: u8,
    pub tech: SeTechnique,
    /// Candidates removed, as (cell, digit).
    pub removals: Vec<(u8, u8)>,
    /// The digit placed, if the step places one.
    pub place: Option<(u8, u8)>,
    /// Removed candidates of the starting grid this step depends on (nested chains only).
    pub parents: Vec<(u8, u8)>,
    /// The identity of its chains (`Arena::identity`; nested chains only).
    pub identity: u64,
    /// The reasoning, for the explain engine.
    pub text: String,
    /// With the reasoning: the candidates rules inside the chains removed, each with what
    /// it rests on and, in SE's path, the inner hint that removed it ([`inner_hints`]).
    pub premises: Vec<(Premise, Option<Hint>)>,
    /// Index of the hint's chain targets in its rule run while its parents are still to
    /// be found (`Chainer::hint`), else `NONE`.
    pending: u32,
}

impl Hint {
    fn new(tech: SeTechnique, diff: f64) -> Hint {
        Hint {
            diff,
            complexity: 0,
            sort_key: 0,
            tech,
            removals: Vec::new(),
            place: None,
            parents: Vec::new(),
            identity: 0,
            text: String::new(),
            premises: Vec::new(),
            pending: NONE,
        }
    }

    /// SE's `apply`: remove, then place (which also clears the digit from the peers).
    pub fn apply(&self, g: &mut SeGrid) {
        for &(c, d) in &self.removals {
            g.remove(c as usize, d);
        }
        if let Some((c, d)) = self.place {
            g.place(c as usize, d);
        }
    }
}

/// A candidate a rule removed inside a chain (`removed`), with the candidates the chain
/// had removed that the rule's reasoning rests on (`given`), as (cell, digit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Premise {
    pub removed: (u8, u8),
    pub given: Vec<(u8, u8)>,
}

/// The hint behind each premise of `h`, a hint found on `src` (the step's grid): the
/// rules a chain of `h`'s family runs inside it, in SE's order, on `src` less the
/// premise's `given`, explained, the first hint that removes the candidate. The rating
/// kept only what each premise rests on; this finds the reasoning again for the one hint
/// a path shows. Inner hints get theirs too, as deep as the nesting goes.
pub(crate) fn inner_hints(src: &SeGrid, h: &mut Hint, nested: &NestedCache) {
    let level = match h.tech {
        SeTechnique::CellForcingChains(l)
        | SeTechnique::RegionForcingChains(l)
        | SeTechnique::DoubleForcingChains(l)
        | SeTechnique::ContradictionForcingChains(l) => l.saturating_sub(1),
        _ => return,
    };
    for (premise, inner) in &mut h.premises {
        let mut g = src.clone();
        for &(c, d) in &premise.given {
            g.remove(c as usize, d);
        }
        let context = Context {
            src: Some(src),
            first: false,
            explain: true,
            solution: None,
            nested,
        };
        let simple: [Producer; 4] = [
            &|o| locking(&g, false, context, o),
            &|o| hidden_set(&g, 2, false, context, o),
            &|o| naked_set(&g, 2, context, o),
            &|o| fish(&g, 2, context, o),
        ];
        let removes = |h: &Hint| h.removals.contains(&premise.removed);
        let mut found = simple.iter().find_map(|rule| {
            let mut out = Vec::new();
            rule(&mut out);
            out.into_iter().find(removes)
        });
        for rule in nested_rules(level) {
            if found.is_some() {
                break;
            }
            found = chaining_hints(&g, rule, context).into_iter().find(removes);
        }
        if let Some(mut hint) = found {
            inner_hints(src, &mut hint, nested);
            *inner = Some(hint);
        }
    }
}

/// Cell name in r1c1 notation.
/// A cell's name, as [`Cell`] writes it (`r4c7`; a test checks they agree). Written here
/// rather than through `Cell`'s `Display`: hints name their cells even when the rating
/// reads no text, and the extra formatting layer cost 0.6% of Inkala 2012's instructions.
pub(crate) fn cell_name(c: usize) -> String {
    format!("r{}c{}", c / 9 + 1, c % 9 + 1)
}

/// SE's house `r`'s name, as [`House`] writes it (`box 5`; a test checks they agree).
pub(crate) fn region_name(r: usize) -> String {
    match r / 9 {
        0 => format!("box {}", r % 9 + 1),
        1 => format!("row {}", r % 9 + 1),
        _ => format!("column {}", r % 9 + 1),
    }
}

/// Context of a search: the starting grid when hints must report the removed
/// candidates they depend on (rules used inside nested chains).
#[derive(Clone, Copy)]
pub(crate) struct Context<'a> {
    pub src: Option<&'a SeGrid>,
    /// Only the first hint is wanted: rules may stop after it (a top-level nested chain
    /// run returns it alone).
    pub first: bool,
    /// Write the reasoning of each hint (the rating does not need it).
    pub explain: bool,
    /// The puzzle's one solution, when known: chains from assumptions it agrees with
    /// never meet a contradiction, which lets a top-level run stop them early (`prebuild`).
    pub solution: Option<&'a [u8; 81]>,
    /// Where the nested rules' runs are kept, for every thread of the rating.
    pub nested: &'a NestedCache,
}

/// The highest nesting level SE's rating uses (`Chaining(true, true, false, 5)`).
pub const MAX_LEVEL: u8 = 5;

/// The next hint SE's rating would apply: the first hint of the first rule, in SE's
/// order, that has one. `max_level` caps the nesting of dynamic chains.
pub(crate) fn next_hint(
    g: &SeGrid,
    max_level: u8,
    explain: bool,
    solution: Option<&[u8; 81]>,
    nested: &NestedCache,
) -> Option<Hint> {
    let context = Context {
        src: None,
        first: true,
        explain,
        solution,
        nested,
    };
    let mut out = Vec::new();
    let basic: [Producer; 20] = [
        &|o| hidden_single(g, o),
        &|o| locking(g, true, context, o),
        &|o| hidden_set(g, 2, true, context, o),
        &|o| naked_single(g, o),
        &|o| hidden_set(g, 3, true, context, o),
        &|o| locking(g, false, context, o),
        &|o| naked_set(g, 2, context, o),
        &|o| fish(g, 2, context, o),
        &|o| hidden_set(g, 2, false, context, o),
        &|o| naked_set(g, 3, context, o),
        &|o| fish(g, 3, context, o),
        &|o| hidden_set(g, 3, false, context, o),
        &|o| xy_wing(g, false, o),
        &|o| xy_wing(g, true, o),
        &|o| unique_loops(g, o),
        &|o| naked_set(g, 4, context, o),
        &|o| fish(g, 4, context, o),
        &|o| hidden_set(g, 4, false, context, o),
        &|o| bug(g, o),
        &|o| aligned_exclusion(g, 2, nested, o),
    ];
    for p in basic {
        p(&mut out);
        if !out.is_empty() {
            return Some(out.swap_remove(0));
        }
    }
    let chain = |chain_rule: ChainRule| chaining_hints(g, chain_rule, context).into_iter().next();
    if let Some(h) = chain(ChainRule::LOOPS) {
        return Some(h);
    }
    aligned_exclusion(g, 3, nested, &mut out);
    if !out.is_empty() {
        return Some(out.swap_remove(0));
    }
    forcing_rules(max_level).find_map(chain)
}

/// SE's chaining rules after the loops (and the aligned triplets), in its order: Nishio,
/// multiple forcing chains, dynamic ones, then dynamic ones nested `1..=max_level` deep.
fn forcing_rules(max_level: u8) -> impl Iterator<Item = ChainRule> {
    [ChainRule::NISHIO, ChainRule::MULTIPLE]
        .into_iter()
        .chain((0..=max_level.min(MAX_LEVEL)).map(ChainRule::dynamic))
}

/// The first step of SE's path from `g` ([`next_hint`]), on a fresh cache. With
/// `chains_only`, the first of SE's chaining rules alone, in SE's order (cycles and
/// forcing X-chains, then [`forcing_rules`]): for an engine whose own rules found nothing
/// on `g`, the cheapest chain SE has there.
pub(crate) fn se_next(
    g: &SeGrid,
    solution: Option<&Grid>,
    max_level: u8,
    explain: bool,
    chains_only: bool,
) -> Option<Hint> {
    clear_thread_caches();
    let nested = NestedCache::default();
    nested.start_step(g);
    let solution = solution.map(Grid::values);
    let mut h = if chains_only {
        let context = Context {
            src: None,
            first: true,
            explain,
            solution,
            nested: &nested,
        };
        std::iter::once(ChainRule::LOOPS)
            .chain(forcing_rules(max_level))
            .find_map(|rule| chaining_hints(g, rule, context).into_iter().next())
    } else {
        next_hint(g, max_level, explain, solution, &nested)
    }?;
    if explain {
        inner_hints(g, &mut h, &nested);
    }
    Some(h)
}

/// Outcome of SE's `getDifficulty`: ER, EP, ED (SE's doubles) and the steps applied.
pub(crate) struct SeOutcome {
    pub er: f64,
    pub ep: f64,
    pub ed: f64,
    /// False when the rules ran out before the grid was full (SE reports 20.0).
    pub solved: bool,
    pub steps: Vec<Hint>,
}

/// SE's rating loop: apply the next hint until solved; ER is the hardest step, EP the
/// hardest up to the first placement, ED the first step's. `solution`, the puzzle's
/// one solution when known, only saves time. With `explain` each step carries its
/// reasoning as text (the rating leaves it out: nothing else differs).
pub(crate) fn se_rate(
    puzzle: &Grid,
    solution: Option<&Grid>,
    max_level: u8,
    explain: bool,
) -> SeOutcome {
    se_walk(
        SeGrid::from_values(puzzle.values()),
        solution,
        max_level,
        explain,
    )
}

/// [`se_rate`] from a pencil-mark state `g` (SE's path from a position part-solved).
pub(crate) fn se_walk(
    mut g: SeGrid,
    solution: Option<&Grid>,
    max_level: u8,
    explain: bool,
) -> SeOutcome {
    let solution = solution.map(Grid::values);
    clear_thread_caches();
    let nested = NestedCache::default();
    let mut out = SeOutcome {
        er: f64::NEG_INFINITY,
        ep: 0.0,
        ed: 0.0,
        solved: true,
        steps: Vec::new(),
    };
    while !g.solved() {
        nested.start_step(&g);
        let Some(mut h) = next_hint(&g, max_level, explain, solution, &nested) else {
            out.er = 20.0;
            out.solved = false;
            break;
        };
        if explain {
            inner_hints(&g, &mut h, &nested);
        }
        if h.diff > out.er {
            out.er = h.diff;
        }
        let before = g.clone();
        h.apply(&mut g);
        if g == before {
            // A step that changes nothing would loop forever.
            out.er = 20.0;
            out.solved = false;
            break;
        }
        nested.step_done(&before, &g);
        if out.ep == 0.0 {
            if out.ed == 0.0 {
                out.ed = out.er;
            }
            if h.place.is_some() {
                out.ep = out.er;
            }
        }
        out.steps.push(h);
    }
    out
}

/// SE's printed form of a rating: `(int)((d + 0.05) * 10)` tenths.
pub(crate) fn tenths(d: f64) -> u16 {
    ((d + 0.05) * 10.0).max(0.0) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn cells_and_houses_are_named_as_the_grid_names_them() {
        use crate::grid::Cell;
        for c in 0..81 {
            assert_eq!(cell_name(c), Cell::new(c).unwrap().to_string());
        }
        for (r, house) in RC.iter().enumerate() {
            assert_eq!(region_name(r), se_house(r).to_string());
            let cells: Vec<usize> = se_house(r).cells().iter().map(|c| c.index()).collect();
            assert_eq!(house.map(usize::from).to_vec(), cells);
        }
    }

    #[test]
    fn column_bits_gather_every_ninth_bit() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..10_000 {
            let m = (rng.below(u64::MAX) as u128) << 64 | rng.below(u64::MAX) as u128;
            let m = m & ((1 << 81) - 1);
            for k in 0..9 {
                let naive = (0..9).fold(0, |p, j| p | ((m >> (9 * j + k)) & 1) << j);
                assert_eq!(column_bits(m >> k) as u128, naive, "{m:x} column {k}");
            }
        }
    }

    /// xorshift64: deterministic test grids.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    pub(super) const HARD: [&str; 3] = [
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        "1.......9.4...3.8...2...6...7..58.......2.......7.4.5...6...2...3.8...7.9.......1",
    ];

    /// The puzzle's solution only saves time: with it, the chains from assumptions it
    /// agrees with stop early, at what a first hint could rest on; without it, every
    /// chain runs to its end. These puzzles (ER 11.0 and more) have steps at level 4 and
    /// up whose first hint such a chain takes part in, and which a cut at half the least
    /// contradiction misses.
    #[test]
    fn the_solution_changes_no_step() {
        for text in [
            "........94....9.2..8.1..5....5..86..3.86......6..15.....2....47.3.5..8......7....",
            ".23.....94.....1...9..3..4.2..81...4.....78..9...4...23...9...1.6..........5.....",
            HARD[2],
        ] {
            let puzzle: Grid = text.parse().expect("test puzzle");
            let solution = crate::solver::solve(&puzzle).expect("unique solution");
            let with = se_rate(&puzzle, Some(&solution), MAX_LEVEL, false);
            let without = se_rate(&puzzle, None, MAX_LEVEL, false);
            let steps = |out: &SeOutcome| {
                let step = |h: &Hint| (tenths(h.diff), h.complexity, h.removals.clone(), h.place);
                out.steps.iter().map(step).collect::<Vec<_>>()
            };
            assert!(with.solved && with.er >= 11.0, "{text}");
            assert_eq!(steps(&with), steps(&without), "{text}");
        }
    }

    /// Pairs (`src`, `g`) as nested rules meet them: a hard puzzle's grid with some false
    /// candidates gone, and the same with more gone (the solution's candidates all stay).
    pub(super) fn reduced_pairs(per_puzzle: usize) -> Vec<(SeGrid, SeGrid)> {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut pairs = Vec::new();
        for text in HARD {
            let puzzle: Grid = text.parse().expect("test puzzle");
            let solution = crate::solver::solve(&puzzle).expect("unique solution");
            let start = SeGrid::from_values(puzzle.values());
            let sol = solution.values();
            for i in 0..per_puzzle {
                let mut thin = |g: &SeGrid, percent: u64| {
                    let mut cand = *g.cand();
                    for (c, m) in cand.iter_mut().enumerate() {
                        for d in digits(*m) {
                            if d != sol[c] && rng.below(100) < percent {
                                *m &= !bit(d);
                            }
                        }
                    }
                    SeGrid::from_parts(g.val(), &cand)
                };
                let src = thin(&start, (i as u64 * 7) % 30);
                let g = thin(&src, 10 + (i as u64 * 13) % 40);
                pairs.push((src, g));
            }
        }
        pairs
    }
}
