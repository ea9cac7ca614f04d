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
//!   So nested rules run once per grid (`nested_rule`) from "every candidate present"
//!   and are filtered per use. The simple rules nested from ER 9.0 up depend on the
//!   reduced grid and the starting grid, which every level of a step shares, so they
//!   run once per step and grid (`simple_rules`).
//! - Almost no forcing-chain or cycle search of the loops rule finds anything (about one
//!   in 800 inside nested chains). The link graph's strongly connected components and
//!   reachability sets (`Reach`) say beforehand which searches can end in a conclusion.
//! - What the chains of a multiple or dynamic run reach does not depend on the order
//!   (a fixpoint of the singles rules, or of the grid's links), so a worklist without
//!   reasons finds it at a fraction of the cost; many nested runs find nothing, and the
//!   rest find it in a few of their chains. The `sieve` says which, and only those
//!   chains are built with their reasons.
//! - The rest is bookkeeping done once instead of per hint: no text unless explaining,
//!   memoised chainings read in place, sets and arenas reused per thread; in level-0
//!   runs, ancestor counts kept per potential and the removals a hint rests on found
//!   only for the hints that survive de-duplication.
//! - At the top of a run of nested chains every chain runs to its end and none depends
//!   on another, so they are built ahead on the rayon pool (`Chainer::prebuild`) and
//!   joined in SE's order: a nested hint's identity is a hash (`Nested`), the same on
//!   every thread. Half of them start from an assumption the puzzle's solution agrees
//!   with; every rule being sound, those never meet a contradiction and only serve the
//!   hints they share with the others, so they are built last and stop once they have
//!   reached what the others reached (at levels 1–3 that halves what they build).
//!
//! The tests at the end (and the sieve's) check these claims against direct computation.

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// Block, row and column house types, in the order SE walks them by default.
mod sieve;

use sieve::{Sieve, Targets};

pub(crate) const BLOCK: usize = 0;
pub(crate) const ROW: usize = 1;
pub(crate) const COL: usize = 2;

const fn region_cell(r: usize, i: usize) -> usize {
    let k = r % 9;
    match r / 9 {
        0 => (k / 3 * 3 + i / 3) * 9 + k % 3 * 3 + i % 3,
        1 => k * 9 + i,
        _ => i * 9 + k,
    }
}

const fn build_rc() -> [[u8; 9]; 27] {
    let mut t = [[0u8; 9]; 27];
    let mut r = 0;
    while r < 27 {
        let mut i = 0;
        while i < 9 {
            t[r][i] = region_cell(r, i) as u8;
            i += 1;
        }
        r += 1;
    }
    t
}

/// Cells of each house, in SE's index order.
pub(crate) static RC: [[u8; 9]; 27] = build_rc();

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
            t[region_cell(r, i)][r / 9] = i as u8;
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
                let o = region_cell(r, i);
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
    let mut t = [0u128; 27];
    let mut r = 0;
    while r < 27 {
        let mut i = 0;
        while i < 9 {
            t[r] |= 1u128 << region_cell(r, i);
            i += 1;
        }
        r += 1;
    }
    t
}

/// Cell masks of the houses.
static RM: [u128; 27] = build_rm();

const fn build_peers() -> [u128; 81] {
    let h = build_house();
    let mut t = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let mut i = 0;
        while i < 20 {
            t[c] |= 1u128 << h[c][i];
            i += 1;
        }
        c += 1;
    }
    t
}

/// The peers of each cell as a mask.
static PEERS: [u128; 81] = build_peers();

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

/// Whether `m` has at most one bit set, and exactly two: cheap without a popcount
/// instruction, which the baseline x86-64 target lacks (these tests sit on the rating's
/// hottest paths).
fn at_most_one_bit(m: u128) -> bool {
    m & m.wrapping_sub(1) == 0
}

fn two_bits(m: u128) -> bool {
    let rest = m & m.wrapping_sub(1);
    rest != 0 && at_most_one_bit(rest)
}

/// A mask of any width, walked bit by bit at its own width (widening the 16-bit masks
/// of the hot chaining loops to 128 bits costs measurable time).
trait Mask: Copy {
    fn is_zero(self) -> bool;
    fn lowest(self) -> usize;
    fn without_lowest(self) -> Self;
}

macro_rules! mask {
    ($($t:ty),*) => {$(
        impl Mask for $t {
            fn is_zero(self) -> bool {
                self == 0
            }
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    )*};
}

mask!(u16, u32, u128);

/// Indexes of the set bits of `m` (a house position mask, a digit mask or a cell mask),
/// ascending.
fn bits(m: impl Mask) -> impl Iterator<Item = usize> {
    let mut m = m;
    std::iter::from_fn(move || {
        (!m.is_zero()).then(|| {
            let i = m.lowest();
            m = m.without_lowest();
            i
        })
    })
}

/// Digits (1–9) of a candidate mask, ascending.
fn digits(m: u16) -> impl Iterator<Item = u8> {
    bits(m).map(|i| i as u8 + 1)
}

fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// SE's grid: values and the candidates ("potential values") of empty cells.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct G {
    pub val: [u8; 81],
    pub cand: [u16; 81],
    /// Cells holding each digit as a candidate (bit = cell index), for fast house counts.
    dm: [u128; 9],
}

impl G {
    /// The grid with candidates rebuilt from the givens, as SE's `rebuildPotentialValues`.
    pub fn from_values(values: &[u8; 81]) -> G {
        let mut g = G {
            val: *values,
            cand: [0; 81],
            dm: [0; 9],
        };
        for (c, house) in HOUSE.iter().enumerate() {
            if g.val[c] == 0 {
                let mut m = 0x1ff;
                for &o in house {
                    let v = g.val[o as usize];
                    if v != 0 {
                        m &= !bit(v);
                    }
                }
                g.cand[c] = m;
                for d in digits(m) {
                    g.dm[d as usize - 1] |= 1u128 << c;
                }
            }
        }
        g
    }

    /// A grid from values and candidate masks (a pencil-mark state).
    pub fn from_parts(values: &[u8; 81], cands: &[u16; 81]) -> G {
        let mut g = G {
            val: *values,
            cand: [0; 81],
            dm: [0; 9],
        };
        for (c, &m) in cands.iter().enumerate() {
            if g.val[c] == 0 {
                g.cand[c] = m & 0x1ff;
                for d in digits(g.cand[c]) {
                    g.dm[d as usize - 1] |= 1u128 << c;
                }
            }
        }
        g
    }

    /// Cells that lost some candidate since `src` (a nested rule's starting grid).
    fn changed_since(&self, src: &G) -> u128 {
        (0..9).fold(0, |m, i| m | (src.dm[i] & !self.dm[i]))
    }

    /// Cells that lost candidate `d` since `src`.
    fn lost(&self, src: &G, d: u8) -> u128 {
        src.dm[d as usize - 1] & !self.dm[d as usize - 1]
    }

    fn has(&self, c: usize, d: u8) -> bool {
        self.cand[c] & bit(d) != 0
    }

    fn card(&self, c: usize) -> u32 {
        self.cand[c].count_ones()
    }

    /// Positions (indexes 0–8) of digit `d` in house `r`: bits gathered from the
    /// row-major cell mask.
    fn pos(&self, r: usize, d: u8) -> u16 {
        let m = self.dm[d as usize - 1];
        let k = r % 9;
        let p = match r / 9 {
            0 => {
                let b = k / 3 * 27 + k % 3 * 3;
                (m >> b) & 7 | ((m >> (b + 9)) & 7) << 3 | ((m >> (b + 18)) & 7) << 6
            }
            1 => (m >> (9 * k)) & 0x1ff,
            _ => (0..9).fold(0, |p, j| p | ((m >> (9 * j + k)) & 1) << j),
        };
        p as u16
    }

    /// Cells of house `r` holding candidate `d`.
    fn cells(&self, r: usize, d: u8) -> u128 {
        self.dm[d as usize - 1] & RM[r]
    }

    fn empty_count(&self, r: usize) -> u32 {
        RC[r].iter().filter(|&&c| self.val[c as usize] == 0).count() as u32
    }

    fn remove(&mut self, c: usize, d: u8) {
        self.cand[c] &= !bit(d);
        self.dm[d as usize - 1] &= !(1u128 << c);
    }

    /// SE's `setValueAndCancel`.
    fn place(&mut self, c: usize, d: u8) {
        self.val[c] = d;
        for v in digits(self.cand[c]) {
            self.dm[v as usize - 1] &= !(1u128 << c);
        }
        self.cand[c] = 0;
        for &o in &HOUSE[c] {
            self.remove(o as usize, d);
        }
    }

    pub fn solved(&self) -> bool {
        self.val.iter().all(|&v| v != 0)
    }
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
/// hint, however many of its potentials rest on it. The identity is a hash of the grid,
/// the rule and the hint's place in the rule's list, so the same hint found again, on
/// another thread or after the cache was emptied, is the same hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Nested {
    id: u64,
    cplx: u32,
}

/// A rule of the basic part of SE's order, producing into a hint list.
type Producer<'a> = &'a dyn Fn(&mut Vec<Hint>);

/// One step found by an SE rule.
#[derive(Clone, Debug)]
pub(crate) struct Hint {
    pub diff: f64,
    /// Chain complexity (number of distinct nodes), for ordering chain hints.
    pub cplx: u32,
    pub sort_key: u8,
    pub tech: SeTechnique,
    /// Candidates removed, as (cell, digit).
    pub rem: Vec<(u8, u8)>,
    /// The digit placed, if the step places one.
    pub place: Option<(u8, u8)>,
    /// Removed candidates of the starting grid this step depends on (nested chains only).
    pub parents: Vec<(u8, u8)>,
    /// The reasoning, for the explain engine.
    pub text: String,
    /// Index of the hint's chain targets in its rule run while its parents are still to
    /// be found (`Chainer::hint`), else `NONE`.
    pending: u32,
}

impl Hint {
    fn new(tech: SeTechnique, diff: f64) -> Hint {
        Hint {
            diff,
            cplx: 0,
            sort_key: 0,
            tech,
            rem: Vec::new(),
            place: None,
            parents: Vec::new(),
            text: String::new(),
            pending: NONE,
        }
    }

    /// SE's `apply`: remove, then place (which also clears the digit from the peers).
    pub fn apply(&self, g: &mut G) {
        for &(c, d) in &self.rem {
            g.remove(c as usize, d);
        }
        if let Some((c, d)) = self.place {
            g.place(c as usize, d);
        }
    }
}

/// Cell name in r1c1 notation.
pub(crate) fn cell_name(c: usize) -> String {
    format!("r{}c{}", c / 9 + 1, c % 9 + 1)
}

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
pub(crate) struct Ctx<'a> {
    pub src: Option<&'a G>,
    /// Stop after the first hint.
    pub first: bool,
    /// Write the reasoning of each hint (the rating does not need it).
    pub explain: bool,
    /// The puzzle's one solution, when known: chains from assumptions it agrees with
    /// never meet a contradiction, which lets a top-level run stop them early (`prebuild`).
    pub solution: Option<&'a [u8; 81]>,
}

// ---------------------------------------------------------------- direct rules

fn hidden_single(g: &G, out: &mut Vec<Hint>) {
    for alone in [true, false] {
        for t in [BLOCK, COL, ROW] {
            for i in 0..9 {
                let r = t * 9 + i;
                for d in 1..=9 {
                    let p = g.pos(r, d);
                    if p.count_ones() == 1 {
                        let c = RC[r][p.trailing_zeros() as usize] as usize;
                        if (g.empty_count(r) == 1) == alone {
                            let (tech, diff) = if alone {
                                (SeTechnique::FullHouse, 1.0)
                            } else if t == BLOCK {
                                (SeTechnique::HiddenSingle, 1.2)
                            } else {
                                (SeTechnique::HiddenSingle, 1.5)
                            };
                            let mut h = Hint::new(tech, diff);
                            h.place = Some((c as u8, d));
                            h.text = format!(
                                "{}={d}: only place for {d} in {}",
                                cell_name(c),
                                region_name(r)
                            );
                            out.push(h);
                            return;
                        }
                    }
                }
            }
        }
    }
}

fn naked_single(g: &G, out: &mut Vec<Hint>) {
    for c in 0..81 {
        if g.card(c) == 1 {
            let d = g.cand[c].trailing_zeros() as u8 + 1;
            let mut h = Hint::new(SeTechnique::NakedSingle, 2.3);
            h.place = Some((c as u8, d));
            h.text = format!("{}={d}: only candidate left in the cell", cell_name(c));
            out.push(h);
            return;
        }
    }
}

/// Per digit, the cells that lost it since the start of the nested chain `ctx` is in
/// (every cell outside one): inside a chain a simple rule counts only if it rests on one.
fn lost_since(g: &G, ctx: Ctx) -> [u128; 9] {
    std::array::from_fn(|i| ctx.src.map_or(u128::MAX, |src| g.lost(src, i as u8 + 1)))
}

/// Locked candidates (SE's `Locking`): `direct` only reports those that give a hidden
/// single in a parallel house at once.
fn locking(g: &G, direct: bool, ctx: Ctx, out: &mut Vec<Hint>) {
    let lost = lost_since(g, ctx);
    for (t1, t2) in [(BLOCK, COL), (BLOCK, ROW), (COL, BLOCK), (ROW, BLOCK)] {
        for i1 in 0..9 {
            let r1 = t1 * 9 + i1;
            // The digits whose places in `r1` (two or more) all lie in one house `r2` of
            // the other type, in SE's order: by `r2`, then digit; with the places the
            // digit lost in `r1` outside `r2`.
            let mut locked = [(0usize, 0u8, 0u128); 9];
            let mut n = 0;
            for d in 1..=9u8 {
                let cells = g.cells(r1, d);
                if at_most_one_bit(cells) {
                    continue;
                }
                let r2 = CR[cells.trailing_zeros() as usize][t2] as usize;
                // Inside a nested chain only rules resting on a removed candidate count:
                // here, one of the digit's places in `r1` outside `r2`.
                let gone = lost[d as usize - 1] & RM[r1] & !RM[r2];
                if cells & !RM[r2] != 0 || gone == 0 {
                    continue;
                }
                locked[n] = (r2, d, gone);
                n += 1;
            }
            locked[..n].sort_unstable();
            for &(r2, d, gone) in &locked[..n] {
                let victims = g.cells(r2, d) & !RM[r1];
                let rem: Vec<(u8, u8)> = bits(victims).map(|c| (c as u8, d)).collect();
                let pointing = t1 == BLOCK;
                if direct {
                    for i3 in 0..9 {
                        let r3 = t1 * 9 + i3;
                        if i3 == i1 || !crosses(r3, r2) {
                            continue;
                        }
                        let c3 = g.cells(r3, d);
                        let outside = c3 & !RM[r2];
                        if at_most_one_bit(c3) || outside == 0 || !at_most_one_bit(outside) {
                            continue;
                        }
                        let single = outside.trailing_zeros() as usize;
                        let (tech, diff) = if pointing {
                            (SeTechnique::DirectPointing, 1.7)
                        } else {
                            (SeTechnique::DirectClaiming, 1.9)
                        };
                        let mut h = Hint::new(tech, diff);
                        h.rem = rem.clone();
                        h.place = Some((single as u8, d));
                        if ctx.explain {
                            h.text = format!(
                                "{d} in {} is locked in {}, so {}={d} (only place left in {})",
                                region_name(r1),
                                region_name(r2),
                                cell_name(single),
                                region_name(r3)
                            );
                        }
                        out.push(h);
                        if ctx.first {
                            return;
                        }
                    }
                } else if !rem.is_empty() {
                    let (tech, diff) = if pointing {
                        (SeTechnique::Pointing, 2.6)
                    } else {
                        (SeTechnique::Claiming, 2.8)
                    };
                    let mut h = Hint::new(tech, diff);
                    h.rem = rem;
                    if ctx.explain {
                        h.text = format!(
                            "{d} in {} is locked in {}",
                            region_name(r1),
                            region_name(r2)
                        );
                    }
                    if ctx.src.is_some() {
                        h.parents = bits(gone).map(|c| (c as u8, d)).collect();
                    }
                    out.push(h);
                    if ctx.first {
                        return;
                    }
                }
            }
        }
    }
}

/// SE's `CommonTuples.searchCommonTuple`: every set has 2+ members, the union `degree`.
fn common_tuple(sets: &[u16], degree: u32) -> Option<u16> {
    common_tuple_of(sets.iter().copied(), degree)
}

fn common_tuple_of(sets: impl Iterator<Item = u16>, degree: u32) -> Option<u16> {
    let mut u = 0;
    for s in sets {
        if at_most_one_bit(s as u128) {
            return None;
        }
        u |= s;
    }
    (u.count_ones() == degree).then_some(u)
}

fn hidden_set(g: &G, degree: u32, direct: bool, ctx: Ctx, out: &mut Vec<Hint>) {
    let lost = lost_since(g, ctx);
    let changed = ctx.src.map_or(u128::MAX, |src| g.changed_since(src));
    for t in [BLOCK, COL, ROW] {
        for i in 0..9 {
            let r = t * 9 + i;
            let n = g.empty_count(r);
            if !(n > degree * 2 || (direct && n > degree)) {
                continue;
            }
            // Inside a nested chain only rules resting on a removed candidate count.
            if changed & RM[r] == 0 {
                continue;
            }
            let mut pos = [0u16; 9];
            for (d, p) in pos.iter_mut().enumerate() {
                *p = g.pos(r, d as u8 + 1);
            }
            // The digits that lost a place in the house: a set rests on those alone.
            let lost_here = (0..9).fold(0, |m, d| m | ((lost[d] & RM[r] != 0) as u32) << d);
            for vm in combos(degree) {
                if vm & lost_here == 0 {
                    continue;
                }
                let Some(common) = common_tuple_of(bits(vm).map(|v| pos[v]), degree) else {
                    continue;
                };
                let vset = vm as u16;
                let mut rem = Vec::new();
                for idx in bits(common) {
                    let c = RC[r][idx] as usize;
                    for d in digits(g.cand[c] & !vset) {
                        rem.push((c as u8, d));
                    }
                }
                let names = || {
                    digits(vset)
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                };
                if direct {
                    for v in 1..=9u8 {
                        if vset & bit(v) != 0 {
                            continue;
                        }
                        let pv = g.pos(r, v);
                        if pv.count_ones() > 1 && (pv & !common).count_ones() == 1 {
                            let idx = (pv & !common).trailing_zeros() as usize;
                            let c = RC[r][idx];
                            let (tech, diff) = match degree {
                                2 => (SeTechnique::DirectHiddenPair, 2.0),
                                3 => (SeTechnique::DirectHiddenTriplet, 2.5),
                                _ => (SeTechnique::HiddenQuad, 4.3),
                            };
                            let mut h = Hint::new(tech, diff);
                            h.rem = rem;
                            h.place = Some((c, v));
                            if ctx.explain {
                                h.text = format!(
                                    "hidden set {} in {}, so {}={v}",
                                    names(),
                                    region_name(r),
                                    cell_name(c as usize)
                                );
                            }
                            out.push(h);
                            if ctx.first {
                                return;
                            }
                            break;
                        }
                    }
                } else if !rem.is_empty() {
                    let (tech, diff) = match degree {
                        2 => (SeTechnique::HiddenPair, 3.4),
                        3 => (SeTechnique::HiddenTriplet, 4.0),
                        _ => (SeTechnique::HiddenQuad, 5.4),
                    };
                    let mut h = Hint::new(tech, diff);
                    h.rem = rem;
                    if ctx.explain {
                        h.text = format!("hidden set {} in {}", names(), region_name(r));
                    }
                    if let Some(src) = ctx.src {
                        for (idx, &c) in RC[r].iter().enumerate() {
                            if common >> idx & 1 == 0 {
                                for v in digits(vset) {
                                    if src.has(c as usize, v) {
                                        h.parents.push((c, v));
                                    }
                                }
                            }
                        }
                    }
                    out.push(h);
                    if ctx.first {
                        return;
                    }
                }
            }
        }
    }
}

fn naked_set(g: &G, degree: u32, ctx: Ctx, out: &mut Vec<Hint>) {
    let changed = ctx.src.map_or(u128::MAX, |src| g.changed_since(src));
    for t in [BLOCK, COL, ROW] {
        for i in 0..9 {
            let r = t * 9 + i;
            if g.empty_count(r) < degree * 2 {
                continue;
            }
            // Inside a nested chain only rules resting on a removed candidate count.
            if changed & RM[r] == 0 {
                continue;
            }
            let cands: [u16; 9] = std::array::from_fn(|k| g.cand[RC[r][k] as usize]);
            // The cells that lost a candidate: a set rests on those alone.
            let lost_here = (0..9).fold(0, |m, k| m | ((changed >> RC[r][k] & 1) as u32) << k);
            for im in combos(degree) {
                if im & lost_here == 0 {
                    continue;
                }
                let Some(common) = common_tuple_of(bits(im).map(|k| cands[k]), degree) else {
                    continue;
                };
                let mut rem = Vec::new();
                for (k, &c) in RC[r].iter().enumerate() {
                    if im >> k & 1 == 0 {
                        for d in digits(g.cand[c as usize] & common) {
                            rem.push((c, d));
                        }
                    }
                }
                if rem.is_empty() {
                    continue;
                }
                let (tech, diff) = match degree {
                    2 => (SeTechnique::NakedPair, 3.0),
                    3 => (SeTechnique::NakedTriplet, 3.6),
                    _ => (SeTechnique::NakedQuad, 5.0),
                };
                let mut h = Hint::new(tech, diff);
                h.rem = rem;
                if ctx.explain {
                    let cells: Vec<String> =
                        bits(im).map(|k| cell_name(RC[r][k] as usize)).collect();
                    let ds: Vec<String> = digits(common).map(|d| d.to_string()).collect();
                    h.text = format!(
                        "naked set {} in {}: {}",
                        ds.join(","),
                        region_name(r),
                        cells.join(",")
                    );
                }
                if let Some(src) = ctx.src {
                    for k in bits(im) {
                        let c = RC[r][k];
                        for d in digits(src.cand[c as usize] & !common) {
                            h.parents.push((c, d));
                        }
                    }
                }
                out.push(h);
                if ctx.first {
                    return;
                }
            }
        }
    }
}

fn fish(g: &G, degree: u32, ctx: Ctx, out: &mut Vec<Hint>) {
    let mut occ = [0u32; 10];
    for &v in &g.val {
        occ[v as usize] += 1;
    }
    let lost = lost_since(g, ctx);
    for (t1, t2) in [(COL, ROW), (ROW, COL)] {
        // Per digit, the base lines where it lost a place: inside a nested chain only
        // rules resting on a removed candidate count.
        let lost_lines: [u32; 9] = std::array::from_fn(|d| {
            (0..9).fold(0, |m, i| m | ((lost[d] & RM[t1 * 9 + i] != 0) as u32) << i)
        });
        let mut linepos = [[0u16; 9]; 9];
        for (d, pos) in linepos.iter_mut().enumerate() {
            if lost_lines[d] != 0 {
                *pos = std::array::from_fn(|i| g.pos(t1 * 9 + i, d as u8 + 1));
            }
        }
        for base in combos(degree) {
            for d in 1..=9u8 {
                if occ[d as usize] + degree * 2 > 9 || base & lost_lines[d as usize - 1] == 0 {
                    continue;
                }
                let Some(cover) =
                    common_tuple_of(bits(base).map(|i| linepos[d as usize - 1][i]), degree)
                else {
                    continue;
                };
                let mut rem = Vec::new();
                for j in bits(cover) {
                    let line = t2 * 9 + j;
                    let p = g.pos(line, d) & !(base as u16);
                    for k in bits(p) {
                        rem.push((RC[line][k], d));
                    }
                }
                if rem.is_empty() {
                    continue;
                }
                rem.sort_unstable();
                let (tech, diff) = match degree {
                    2 => (SeTechnique::XWing, 3.2),
                    3 => (SeTechnique::Swordfish, 3.8),
                    _ => (SeTechnique::Jellyfish, 5.2),
                };
                let mut h = Hint::new(tech, diff);
                h.rem = rem;
                if ctx.explain {
                    let names: Vec<String> = bits(base).map(|i| region_name(t1 * 9 + i)).collect();
                    h.text = format!("fish on {d} in {}", names.join(", "));
                }
                if let Some(src) = ctx.src {
                    for i in bits(base) {
                        for &c in &RC[t1 * 9 + i] {
                            let cu = c as usize;
                            let in_cover = cover >> (CR[cu][t2] as usize % 9) & 1 != 0;
                            if src.has(cu, d) && !g.has(cu, d) && !in_cover {
                                h.parents.push((c, d));
                            }
                        }
                    }
                }
                out.push(h);
                if ctx.first {
                    return;
                }
            }
        }
    }
}

fn xy_wing(g: &G, xyz: bool, out: &mut Vec<Hint>) {
    let target = if xyz { 3 } else { 2 };
    for (c, house) in HOUSE.iter().enumerate() {
        let xy = g.cand[c];
        if xy.count_ones() != target {
            continue;
        }
        for &xzc in house {
            let xz = g.cand[xzc as usize];
            if xz.count_ones() != 2 || (xy & !xz).count_ones() != 1 {
                continue;
            }
            for &yzc in house {
                let yz = g.cand[yzc as usize];
                if yz.count_ones() != 2 {
                    continue;
                }
                let union = (xy | xz | yz).count_ones();
                let inter = (xy & xz & yz).count_ones();
                let ok = if xyz {
                    union == 3 && inter == 1
                } else {
                    union == 3 && inter == 0
                };
                if !ok {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as u8 + 1;
                let mut victims = peers_mask(xzc as usize) & peers_mask(yzc as usize);
                if xyz {
                    victims &= peers_mask(c);
                }
                victims &= !(1u128 << c | 1u128 << xzc | 1u128 << yzc);
                let rem: Vec<(u8, u8)> = (0..81)
                    .filter(|&v| victims >> v & 1 != 0 && g.has(v, z))
                    .map(|v| (v as u8, z))
                    .collect();
                if rem.is_empty() {
                    continue;
                }
                let (tech, diff) = if xyz {
                    (SeTechnique::XYZWing, 4.4)
                } else {
                    (SeTechnique::XYWing, 4.2)
                };
                let mut h = Hint::new(tech, diff);
                h.rem = rem;
                h.text = format!(
                    "pivot {}, pincers {} and {}, on {z}",
                    cell_name(c),
                    cell_name(xzc as usize),
                    cell_name(yzc as usize)
                );
                out.push(h);
                return;
            }
        }
    }
}

// ---------------------------------------------------------------- uniqueness

/// A unique-loop hint with what SE's equality compares (class, cell set, extra key).
struct UlHint {
    hint: Hint,
    class: u8,
    ltype: u8,
    cells: u128,
    len: usize,
    key: (u8, u16, u16),
}

fn loop_diff(len: usize) -> f64 {
    let mut d = 4.5;
    if len >= 10 {
        d += 0.3;
    }
    if len >= 8 {
        d += 0.2;
    } else if len >= 6 {
        d += 0.1;
    }
    d
}

/// The block, row and column of a cell as bits of the 27 houses.
fn house_bits(c: usize) -> u32 {
    CR[c].iter().fold(0, |m, &r| m | 1 << r)
}

/// SE's `checkForLoops`: every path of cells holding both `v1` and `v2` that returns to its
/// first cell, in SE's order. `seen` holds the houses of the path's cells at even and at odd
/// places: a path that puts two cells of one house at places of the same parity is no valid
/// loop (`valid_loop`), nor is any loop it leads to, so it is not followed. SE follows them
/// all and rejects them at the end; which valid loops are found, and in what order, is the
/// same, without the search's exponential dead ends.
#[allow(clippy::too_many_arguments)]
fn check_for_loops(
    g: &G,
    cell: usize,
    v1: u8,
    v2: u8,
    lp: &mut Vec<u8>,
    seen: [u32; 2],
    allowed: i32,
    ex_in: u16,
    last: Option<usize>,
    results: &mut Vec<Vec<u8>>,
) {
    lp.push(cell as u8);
    let parity = lp.len() % 2;
    let mut ex = ex_in;
    let both = bit(v1) | bit(v2);
    for t in [BLOCK, ROW, COL] {
        if Some(t) == last {
            continue;
        }
        let r = CR[cell][t] as usize;
        for &next in &RC[r] {
            if lp[0] == next && lp.len() >= 4 {
                results.push(lp.clone());
            } else if !lp.contains(&next) {
                let p = g.cand[next as usize];
                if p & both == both {
                    ex |= p;
                    ex &= !both;
                    let card = p.count_ones();
                    let houses = house_bits(next as usize);
                    if (card == 2 || ex.count_ones() == 1 || allowed > 0)
                        && seen[parity] & houses == 0
                    {
                        let na = if card > 2 { allowed - 1 } else { allowed };
                        let mut seen = seen;
                        seen[parity] |= houses;
                        let next = next as usize;
                        check_for_loops(g, next, v1, v2, lp, seen, na, ex, Some(t), results);
                    }
                }
            }
        }
    }
    lp.pop();
}

/// The closed paths of `check_for_loops` from bivalue cell `c` (digits `v1`, `v2`), as SE
/// starts its search: up to two cells with extra candidates, or any number sharing one.
fn loops_from(g: &G, c: usize, v1: u8, v2: u8) -> Vec<Vec<u8>> {
    let mut results = Vec::new();
    let seen = [house_bits(c), 0];
    check_for_loops(
        g,
        c,
        v1,
        v2,
        &mut Vec::new(),
        seen,
        2,
        0,
        None,
        &mut results,
    );
    results
}

fn valid_loop(lp: &[u8]) -> bool {
    let (mut odd, mut even) = (0u32, 0u32);
    let mut is_odd = false;
    for &c in lp {
        for &r in &CR[c as usize] {
            let set = if is_odd { &mut odd } else { &mut even };
            if *set >> r & 1 != 0 {
                return false;
            }
            *set |= 1 << r;
        }
        is_odd = !is_odd;
    }
    odd == even
}

fn loop_text(lp: &[u8], v1: u8, v2: u8) -> String {
    let cells: Vec<String> = lp.iter().map(|&c| cell_name(c as usize)).collect();
    format!("loop {} on {v1},{v2}", cells.join(","))
}

fn unique_loops(g: &G, out: &mut Vec<Hint>) {
    let mut hints: Vec<UlHint> = Vec::new();
    let push = |hints: &mut Vec<UlHint>, h: UlHint| {
        let dup = hints.iter().any(|o| {
            o.class == h.class
                && o.len == h.len
                && o.cells == h.cells
                && (h.class != 4 || o.key == h.key)
        });
        if !dup && !h.hint.rem.is_empty() {
            hints.push(h);
        }
    };
    for c in 0..81 {
        if g.card(c) != 2 {
            continue;
        }
        let mut ds = digits(g.cand[c]);
        let (v1, v2) = (ds.next().unwrap_or(1), ds.next().unwrap_or(1));
        let both = bit(v1) | bit(v2);
        for lp in loops_from(g, c, v1, v2) {
            if !valid_loop(&lp) {
                continue;
            }
            let cells = lp.iter().fold(0u128, |m, &c| m | 1u128 << c);
            let extra: Vec<usize> = lp
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| g.card(c) > 2)
                .collect();
            let base = loop_diff(lp.len());
            let mk = |ltype: u8,
                      class: u8,
                      diff: f64,
                      rem: Vec<(u8, u8)>,
                      key: (u8, u16, u16),
                      what: String| {
                let mut h = Hint::new(SeTechnique::UniqueLoop(ltype), diff);
                h.rem = rem;
                h.text = format!("{}{what}", loop_text(&lp, v1, v2));
                UlHint {
                    hint: h,
                    class,
                    ltype,
                    cells,
                    len: lp.len(),
                    key,
                }
            };
            let type2 = |extra: &[usize]| {
                let value = (g.cand[extra[0]] & !both).trailing_zeros() as u8 + 1;
                let mut common = u128::MAX;
                for &e in extra {
                    common &= peers_mask(e);
                }
                let rem: Vec<(u8, u8)> = (0..81)
                    .filter(|&o| common >> o & 1 != 0 && !extra.contains(&o) && g.has(o, value))
                    .map(|o| (o as u8, value))
                    .collect();
                (rem, value)
            };
            match extra.len() {
                1 => {
                    let e = extra[0] as u8;
                    let h = mk(1, 1, base, vec![(e, v1), (e, v2)], (0, 0, 0), String::new());
                    push(&mut hints, h);
                }
                n if n > 2 => {
                    let (rem, value) = type2(&extra);
                    push(
                        &mut hints,
                        mk(2, 2, base, rem, (0, 0, 0), format!(", extra {value}")),
                    );
                }
                2 => {
                    let (r1, r2) = (extra[0], extra[1]);
                    let rp = (g.cand[r1] | g.cand[r2]) & !both;
                    if rp.count_ones() == 1 {
                        let (rem, value) = type2(&extra);
                        push(
                            &mut hints,
                            mk(2, 2, base, rem, (0, 0, 0), format!(", extra {value}")),
                        );
                    } else if rp.count_ones() >= 2 {
                        for (class, ltype, diff, rem, key, what) in type3(g, r1, r2, v1, v2, base) {
                            push(&mut hints, mk(ltype, class, diff, rem, key, what));
                        }
                    }
                    if let Some((rem, what)) = type4(g, r1, r2, v1, v2) {
                        push(&mut hints, mk(4, 5, base, rem, (0, 0, 0), what));
                    }
                }
                _ => {}
            }
        }
    }
    // Stable sort by difficulty, then type, as SE does.
    hints.sort_by(|a, b| {
        a.hint
            .diff
            .total_cmp(&b.hint.diff)
            .then(a.ltype.cmp(&b.ltype))
    });
    if let Some(h) = hints.into_iter().next() {
        out.push(h.hint);
    }
}

type Ul3 = (u8, u8, f64, Vec<(u8, u8)>, (u8, u16, u16), String);

fn type3(g: &G, c1: usize, c2: usize, v1: u8, v2: u8, base: f64) -> Vec<Ul3> {
    let mut res = Vec::new();
    let both = bit(v1) | bit(v2);
    let extra = (g.cand[c1] | g.cand[c2]) & !both;
    for degree in extra.count_ones()..=7 {
        for t in [BLOCK, ROW, COL] {
            let r = CR[c1][t] as usize;
            if r != CR[c2][t] as usize {
                continue;
            }
            let n = g.empty_count(r);
            let (i1, i2) = (POS[c1][t] as usize, POS[c2][t] as usize);
            if degree * 2 <= n {
                for im in subsets(degree, 9) {
                    if im >> i1 & 1 == 0 || im >> i2 & 1 != 0 {
                        continue;
                    }
                    let mut naked = extra & g.cand[c1] & g.cand[c2];
                    let mut pots = Vec::new();
                    let mut others = 0u32;
                    for k in bits(im) {
                        if k == i1 {
                            pots.push(extra);
                        } else {
                            let p = g.cand[RC[r][k] as usize];
                            pots.push(p);
                            naked |= p;
                            others |= 1 << k;
                        }
                    }
                    if naked.count_ones() != degree {
                        continue;
                    }
                    let Some(common) = common_tuple(&pots, degree) else {
                        continue;
                    };
                    let mut rem = Vec::new();
                    for (k, &o) in RC[r].iter().enumerate() {
                        let o = o as usize;
                        if others >> k & 1 == 0 && o != c1 && o != c2 {
                            for d in digits(g.cand[o] & common) {
                                rem.push((o as u8, d));
                            }
                        }
                    }
                    if !rem.is_empty() {
                        let diff = base + (common.count_ones() as f64 - 1.0) * 0.1;
                        let ds: Vec<String> = digits(common).map(|d| d.to_string()).collect();
                        res.push((
                            3,
                            3,
                            diff,
                            rem,
                            (0, 0, 0),
                            format!(", naked set {} in {}", ds.join(","), region_name(r)),
                        ));
                    }
                }
            }
            if degree * 2 < n {
                let rem_values: Vec<u8> = (1..=9u8)
                    .filter(|&v| v != v1 && v != v2 && extra & bit(v) == 0)
                    .collect();
                if degree as usize >= 2 && degree as usize - 2 <= rem_values.len() {
                    for pm in subsets(degree - 2, rem_values.len() as u32) {
                        let mut values: Vec<u8> = bits(pm).map(|k| rem_values[k]).collect();
                        values.push(v1);
                        values.push(v2);
                        let mut u = 0u16;
                        let mut ok = true;
                        for &v in &values {
                            let p = g.pos(r, v) & !(1 << i2);
                            if p == 0 {
                                ok = false;
                            }
                            u |= p;
                        }
                        if !ok || u.count_ones() != degree {
                            continue;
                        }
                        let hidden: u16 = values.iter().fold(0, |m, &v| m | bit(v));
                        let idxs = u & !(1 << i1) & !(1 << i2);
                        let mut rem = Vec::new();
                        for k in bits(idxs) {
                            let o = RC[r][k] as usize;
                            for d in digits(g.cand[o] & !hidden) {
                                rem.push((o as u8, d));
                            }
                        }
                        if !rem.is_empty() {
                            let diff = base + (idxs.count_ones() as f64 - 1.0) * 0.1;
                            let ds: Vec<String> = digits(hidden).map(|d| d.to_string()).collect();
                            res.push((
                                4,
                                3,
                                diff,
                                rem,
                                (r as u8, hidden, idxs),
                                format!(", hidden set {} in {}", ds.join(","), region_name(r)),
                            ));
                        }
                    }
                }
            }
        }
    }
    res
}

fn type4(g: &G, c1: usize, c2: usize, v1: u8, v2: u8) -> Option<(Vec<(u8, u8)>, String)> {
    let (mut r1, mut r2) = (None, None);
    for t in [BLOCK, ROW, COL] {
        let r = CR[c1][t] as usize;
        if r != CR[c2][t] as usize {
            continue;
        }
        let others = RC[r]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| c != c1 && c != c2);
        let (mut h1, mut h2) = (false, false);
        for o in others {
            h1 |= g.has(o, v1);
            h2 |= g.has(o, v2);
        }
        if !h1 {
            r1 = Some(r);
        }
        if !h2 {
            r2 = Some(r);
        }
    }
    let (r, lock, remv) = match (r1, r2) {
        (Some(r), _) => (r, v1, v2),
        (None, Some(r)) => (r, v2, v1),
        _ => return None,
    };
    let rem = vec![(c1 as u8, remv), (c2 as u8, remv)];
    Some((rem, format!(", {lock} locked in {}", region_name(r))))
}

/// SE's bivalue universal grave rule, types 1–4.
fn bug(g: &G, out: &mut Vec<Hint>) {
    let mut temp = g.clone();
    let mut bug_cells: Vec<usize> = Vec::new();
    let mut bug_values = [0u16; 81];
    let mut all: u16 = 0;
    let mut common: Option<u128> = None;
    for t in [BLOCK, ROW, COL] {
        for i in 0..9 {
            let r = t * 9 + i;
            for d in 1..=9u8 {
                let p = g.pos(r, d);
                let card = p.count_ones();
                if card == 0 || card == 2 {
                    continue;
                }
                let nb: Vec<usize> = bits(p)
                    .map(|k| RC[r][k] as usize)
                    .filter(|&c| g.card(c) >= 3)
                    .collect();
                if nb.len() == 1 {
                    let c = nb[0];
                    if !bug_cells.contains(&c) {
                        bug_cells.push(c);
                    }
                    bug_values[c] |= bit(d);
                    all |= bit(d);
                    temp.remove(c, d);
                    let cm = common.get_or_insert(peers_mask(c));
                    *cm &= peers_mask(c);
                    for &b in &bug_cells {
                        *cm &= !(1u128 << b);
                    }
                    if bug_cells.len() > 1 && all.count_ones() > 1 && *cm == 0 {
                        return;
                    }
                }
                if nb.is_empty() {
                    return;
                }
            }
        }
    }
    for c in 0..81 {
        if temp.val[c] == 0 && temp.card(c) != 2 {
            return;
        }
    }
    for r in 0..27 {
        for d in 1..=9 {
            let card = temp.pos(r, d).count_ones();
            if card != 0 && card != 2 {
                return;
            }
        }
    }
    let common_list = |cm: u128| -> Vec<usize> {
        // SE keeps the common cells in the house order of the first BUG cell.
        HOUSE[bug_cells[0]]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| cm >> c & 1 != 0)
            .collect()
    };
    let names: Vec<String> = bug_cells.iter().map(|&c| cell_name(c)).collect();
    if bug_cells.len() == 1 {
        let c = bug_cells[0];
        let mut h = Hint::new(SeTechnique::Bug(1), 5.6);
        h.rem = digits(g.cand[c] & !all).map(|d| (c as u8, d)).collect();
        h.text = format!("BUG cell {}", names[0]);
        if !h.rem.is_empty() {
            out.push(h);
        }
        return;
    }
    let cm = common.unwrap_or(0);
    if all.count_ones() == 1 {
        let value = all.trailing_zeros() as u8 + 1;
        if cm != 0 {
            let rem: Vec<(u8, u8)> = common_list(cm)
                .into_iter()
                .filter(|&c| g.has(c, value))
                .map(|c| (c as u8, value))
                .collect();
            if !rem.is_empty() {
                let mut h = Hint::new(SeTechnique::Bug(2), 5.7);
                h.rem = rem;
                h.text = format!("BUG cells {} on {value}", names.join(","));
                out.push(h);
                return;
            }
        }
        if bug_cells.len() == 2 {
            bug4(g, &bug_cells, &bug_values, all, out);
        }
    } else if cm != 0 {
        if bug_cells.len() == 2 {
            bug4(g, &bug_cells, &bug_values, all, out);
            if !out.is_empty() {
                return;
            }
        }
        let region_cells_all = common_list(cm);
        for t in [BLOCK, ROW, COL] {
            let r = CR[bug_cells[0]][t] as usize;
            if bug_cells.iter().any(|&c| CR[c][t] as usize != r) {
                continue;
            }
            let rc: Vec<usize> = region_cells_all
                .iter()
                .copied()
                .filter(|&c| in_region(c, r))
                .collect();
            for degree in 2..=6u32 {
                if (rc.len() as u32) < degree {
                    continue;
                }
                for pm in subsets(degree - 1, rc.len() as u32) {
                    let naked: Vec<usize> = bits(pm).map(|k| rc[k]).collect();
                    let mut pots: Vec<u16> = naked.iter().map(|&c| g.cand[c]).collect();
                    let other = pots.iter().fold(0, |m, &p| m | p);
                    pots.push(all);
                    if other.count_ones() != degree {
                        continue;
                    }
                    let Some(set) = common_tuple(&pots, degree) else {
                        continue;
                    };
                    let mut rem = Vec::new();
                    for &c in &rc {
                        if naked.contains(&c) || bug_cells.contains(&c) {
                            continue;
                        }
                        for d in digits(g.cand[c] & set) {
                            rem.push((c as u8, d));
                        }
                    }
                    if !rem.is_empty() {
                        let mut h = Hint::new(
                            SeTechnique::Bug(3),
                            5.7 + (set.count_ones() as f64 - 1.0) * 0.1,
                        );
                        h.rem = rem;
                        h.text = format!(
                            "BUG cells {} with a naked set in {}",
                            names.join(","),
                            region_name(r)
                        );
                        out.push(h);
                        return;
                    }
                }
            }
        }
    }
}

fn bug4(g: &G, cells: &[usize], extra: &[u16; 81], all: u16, out: &mut Vec<Hint>) {
    let (c1, c2) = (cells[0], cells[1]);
    let common = g.cand[c1] & g.cand[c2] & !all;
    if common.count_ones() != 1 {
        return;
    }
    for t in [BLOCK, ROW, COL] {
        if CR[c1][t] != CR[c2][t] {
            continue;
        }
        let value = common.trailing_zeros() as u8 + 1;
        let b1 = g.cand[c1] & !extra[c1] & !bit(value);
        let b2 = g.cand[c2] & !extra[c2] & !bit(value);
        let mut h = Hint::new(SeTechnique::Bug(4), 5.7);
        h.rem = digits(b1)
            .map(|d| (c1 as u8, d))
            .chain(digits(b2).map(|d| (c2 as u8, d)))
            .collect();
        h.text = format!(
            "BUG cells {},{} locked on {value}",
            cell_name(c1),
            cell_name(c2)
        );
        if !h.rem.is_empty() {
            out.push(h);
            return;
        }
    }
}

// ---------------------------------------------------------------- aligned exclusion

/// SE's aligned pair/triplet exclusion (`degree` 2 or 3): combinations of candidates of
/// `degree` cells are ruled out when two of them see each other with the same digit or
/// when they would empty a common excluding cell.
fn aligned_exclusion(g: &G, degree: usize, out: &mut Vec<Hint>) {
    let mut list: Vec<usize> = Vec::new();
    let mut excl: Vec<Vec<usize>> = vec![Vec::new(); 81];
    let mut excl_mask = [0u128; 81];
    for c in 0..81 {
        if g.card(c) < 2 {
            continue;
        }
        let mut single = false;
        let mut ex = Vec::new();
        for &o in &HOUSE[c] {
            let k = g.card(o as usize) as usize;
            if k == 1 {
                single = true;
            } else if k >= 2 && k <= degree {
                ex.push(o as usize);
            }
        }
        if !single && !ex.is_empty() {
            list.push(c);
            excl_mask[c] = ex.iter().fold(0u128, |m, &e| m | 1u128 << e);
            excl[c] = ex;
        }
    }
    if list.len() < degree {
        return;
    }
    let in_list = list.iter().fold(0u128, |m, &c| m | 1u128 << c);
    let n = list.len();
    let mut area: Vec<usize> = Vec::new();
    // SE enumerates pairs by increasing bitmask: (0,1), (0,2), (1,2), (0,3)…
    for j in 1..n {
        for i in 0..j {
            let (c0, c1) = (list[i], list[j]);
            if degree == 2 {
                if let Some(h) = exclusion(g, &[c0, c1], &excl_mask) {
                    out.push(h);
                    return;
                }
                continue;
            }
            // SE's "twin area": the excluders of both cells that are candidates themselves,
            // in the order the excluder lists give them.
            area.clear();
            for &e in excl[c0].iter().chain(excl[c1].iter()) {
                if !area.contains(&e) && in_list >> e & 1 != 0 && e != c0 && e != c1 {
                    area.push(e);
                }
            }
            for &t in &area {
                if let Some(h) = exclusion(g, &[c0, c1, t], &excl_mask) {
                    out.push(h);
                    return;
                }
            }
        }
    }
}

/// The aligned exclusion hint on `cells` (2 or 3), if it removes anything: a candidate
/// goes when no allowed combination of the cells' digits uses it.
fn exclusion(g: &G, cells: &[usize], excl_mask: &[u128; 81]) -> Option<Hint> {
    let common = cells.iter().fold(u128::MAX, |m, &c| m & excl_mask[c]);
    if common.count_ones() < 2 {
        return None;
    }
    let mut ex = [0u16; 20];
    let mut ne = 0;
    let mut m = common;
    while m != 0 && ne < ex.len() {
        let e = m.trailing_zeros() as usize;
        m &= m - 1;
        ex[ne] = g.cand[e];
        ne += 1;
    }
    let ex = &ex[..ne];
    let k = cells.len();
    let sees = |a: usize, b: usize| peers_mask(cells[a]) >> cells[b] & 1 != 0;
    let see = [sees(0, 1), k > 2 && sees(0, 2), k > 2 && sees(1, 2)];
    let mut allowed = [0u16; 3];
    let third: Vec<u8> = if k > 2 {
        digits(g.cand[cells[2]]).collect()
    } else {
        vec![0]
    };
    for d0 in digits(g.cand[cells[0]]) {
        for d1 in digits(g.cand[cells[1]]) {
            if d0 == d1 && see[0] {
                continue;
            }
            for &d2 in &third {
                if k > 2 && ((d0 == d2 && see[1]) || (d1 == d2 && see[2])) {
                    continue;
                }
                let used = bit(d0) | bit(d1) | if k > 2 { bit(d2) } else { 0 };
                if ex.iter().any(|&e| e & !used == 0) {
                    continue;
                }
                allowed[0] |= bit(d0);
                allowed[1] |= bit(d1);
                if k > 2 {
                    allowed[2] |= bit(d2);
                }
            }
        }
    }
    let mut rem = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        for d in digits(g.cand[c] & !allowed[i]) {
            rem.push((c as u8, d));
        }
    }
    if rem.is_empty() {
        return None;
    }
    let (tech, diff) = if k == 2 {
        (SeTechnique::AlignedPairExclusion, 6.2)
    } else {
        (SeTechnique::AlignedTripletExclusion, 7.5)
    };
    let mut h = Hint::new(tech, diff);
    h.rem = rem;
    let names: Vec<String> = cells.iter().map(|&c| cell_name(c)).collect();
    h.text = format!("cells {}", names.join(","));
    Some(h)
}

// ---------------------------------------------------------------- chains

const NKEYS: usize = 81 * 9 * 2;
const NONE: u32 = u32::MAX;

/// Cause of a potential (why it was switched on or off): 0 none, 1 cell, 2–4 block /
/// row / column, 5 a rule applied inside a nested chain.
const C_NONE: u8 = 0;
const C_CELL: u8 = 1;
const C_ADV: u8 = 5;

fn key(c: usize, d: u8, on: bool) -> u16 {
    ((c * 9 + d as usize - 1) * 2 + on as usize) as u16
}

fn kcell(k: u16) -> usize {
    k as usize / 18
}

fn kdig(k: u16) -> u8 {
    (k as usize / 2 % 9) as u8 + 1
}

fn kon(k: u16) -> bool {
    k & 1 == 1
}

fn pot_name(k: u16) -> String {
    format!(
        "{}{}{}",
        cell_name(kcell(k)),
        if kon(k) { "=" } else { "<>" },
        kdig(k)
    )
}

/// A potential: a candidate assumed on or off, with the potentials that caused it.
#[derive(Clone, Copy)]
struct Pot {
    key: u16,
    cause: u8,
    par_start: u32,
    par_len: u32,
    nested: Option<Nested>,
}

/// All potentials created while chaining from one starting point.
#[derive(Default)]
struct Arena {
    pots: Vec<Pot>,
    par: Vec<u32>,
    /// Whether hints should carry their reasoning as text.
    explain: bool,
}

impl Arena {
    fn clear(&mut self, explain: bool) {
        self.pots.clear();
        self.par.clear();
        self.explain = explain;
    }

    fn add(&mut self, key: u16, cause: u8, parents: &[u32], nested: Option<Nested>) -> u32 {
        let start = self.par.len() as u32;
        self.par.extend_from_slice(parents);
        self.pots.push(Pot {
            key,
            cause,
            par_start: start,
            par_len: parents.len() as u32,
            nested,
        });
        self.pots.len() as u32 - 1
    }

    fn key(&self, i: u32) -> u16 {
        self.pots[i as usize].key
    }

    /// Appends a chain built in an arena of its own; its index `i` becomes `offset + i`,
    /// the offset returned. Appended in the order they would have been built, chains
    /// leave the arena as building them here would have.
    fn append(&mut self, chain: &Arena) -> u32 {
        let offset = self.pots.len() as u32;
        let par_offset = self.par.len() as u32;
        self.par.extend(chain.par.iter().map(|&p| p + offset));
        self.pots.extend(chain.pots.iter().map(|&p| Pot {
            par_start: p.par_start + par_offset,
            ..p
        }));
        offset
    }

    fn parents(&self, i: u32) -> &[u32] {
        let p = &self.pots[i as usize];
        &self.par[p.par_start as usize..(p.par_start + p.par_len) as usize]
    }

    fn first_parent(&self, i: u32) -> Option<u32> {
        self.parents(i).first().copied()
    }

    /// SE's `getChain`/`getAncestorCount`: breadth-first over parents, one node per key;
    /// `visit` sees each node in SE's order. `queue` is scratch space.
    fn chain(&self, target: u32, queue: &mut Vec<u32>, mut visit: impl FnMut(u32)) {
        let mut done = [0u64; NKEYS / 64 + 1];
        queue.clear();
        queue.push(target);
        let mut next = 0;
        while let Some(&p) = queue.get(next) {
            next += 1;
            let k = self.key(p) as usize;
            if done[k / 64] >> (k % 64) & 1 == 0 {
                done[k / 64] |= 1 << (k % 64);
                visit(p);
                queue.extend_from_slice(self.parents(p));
            }
        }
    }

    /// The chains leading to each of `targets`, joined with `; `.
    fn describe_all(&self, targets: &[u32]) -> String {
        targets
            .iter()
            .map(|&t| self.describe(t))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The chain leading to `target`, first parents only, as Eureka-like text.
    fn describe(&self, target: u32) -> String {
        if !self.explain {
            return String::new();
        }
        // Follow first parents back to the assumption; a step taken by a simpler rule
        // (nested chains) is marked and followed through its first premise.
        let mut seq = Vec::new();
        let mut p = Some(target);
        while let Some(i) = p {
            let name = pot_name(self.key(i));
            if self.pots[i as usize].cause == C_ADV {
                seq.push(format!("{name} (by a simpler rule)"));
            } else {
                seq.push(name);
            }
            p = self.first_parent(i);
        }
        seq.reverse();
        seq.join(" -> ")
    }
}

/// SE's `LinkedSet<Potential>`: one potential per key, in insertion order.
#[derive(Clone)]
struct PSet {
    map: Vec<u32>,
    order: Vec<u32>,
    keys: Vec<u16>,
}

impl PSet {
    fn new() -> PSet {
        PSet {
            map: vec![NONE; NKEYS],
            order: Vec::new(),
            keys: Vec::new(),
        }
    }

    fn get(&self, k: u16) -> Option<u32> {
        let i = self.map[k as usize];
        (i != NONE).then_some(i)
    }

    fn contains(&self, k: u16) -> bool {
        self.map[k as usize] != NONE
    }

    fn add(&mut self, ar: &Arena, i: u32) {
        let k = ar.key(i);
        if self.map[k as usize] == NONE {
            self.map[k as usize] = i;
            self.order.push(i);
            self.keys.push(k);
        }
    }

    /// Empties the set in time proportional to its size.
    fn reset(&mut self) {
        for &k in &self.keys {
            self.map[k as usize] = NONE;
        }
        self.order.clear();
        self.keys.clear();
    }
}

/// Consequences of a potential switched on, appended to `out`: the other candidates of
/// its cell (when `y`), and the same digit in its houses.
fn on_to_off(g: &G, k: u16, y: bool, out: &mut Vec<(u16, u8)>) {
    let (c, d) = (kcell(k), kdig(k));
    if y {
        for v in digits(g.cand[c]) {
            if v != d {
                out.push((key(c, v, false), C_CELL));
            }
        }
    }
    // Houses list their cells in increasing index order, so masks keep SE's order.
    let mut seen = 1u128 << c;
    for t in [BLOCK, ROW, COL] {
        let mut m = g.cells(CR[c][t] as usize, d) & !seen;
        seen |= m;
        while m != 0 {
            let o = m.trailing_zeros() as usize;
            m &= m - 1;
            out.push((key(o, d, false), 2 + t as u8));
        }
    }
}

/// The candidates removed since `src` that a potential of digit `d` in cell `c`, switched
/// on for `cause`, rests on: the cell's other candidates (cell cause) or the digit's other
/// places in the house that forced it. SE's hidden parents (dynamic chains) and rule
/// parents (nested hints) both. Filled cells are skipped: no start of a chain had a
/// candidate there, though `EVERY_CANDIDATE` says so.
fn removed_for<'a>(
    g: &'a G,
    src: &G,
    c: usize,
    d: u8,
    cause: u8,
) -> impl Iterator<Item = (usize, u8)> + 'a {
    let (cell, house) = if cause == C_CELL {
        (src.cand[c] & !g.cand[c], 0)
    } else {
        (0, g.lost(src, d) & RM[CR[c][(cause - 2) as usize] as usize])
    };
    digits(cell)
        .map(move |v| (c, v))
        .chain(bits(house).filter(|&o| g.val[o] == 0).map(move |o| (o, d)))
}

/// The parents of a potential switched on by `p` (the "off" potential `k0`) for `cause`
/// in a dynamic chain: `p`, then the removals that made the cell bivalue or the house a
/// pair.
fn hidden_parents(g: &G, src: &G, to_off: &PSet, p: u32, k0: u16, cause: u8) -> Parents {
    let mut parents = Parents::one(p);
    for (c, v) in removed_for(g, src, kcell(k0), kdig(k0), cause) {
        if let Some(q) = to_off.get(key(c, v, false)) {
            parents.push(q);
        }
    }
    parents
}

/// Parents of a potential: the one that caused it and, in dynamic chains, the removed
/// candidates that made the cell or house single (at most 8).
#[derive(Clone, Copy)]
struct Parents {
    len: usize,
    items: [u32; 10],
}

impl Parents {
    fn one(p: u32) -> Parents {
        let mut items = [0; 10];
        items[0] = p;
        Parents { len: 1, items }
    }

    fn push(&mut self, q: u32) {
        if self.len < self.items.len() {
            self.items[self.len] = q;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[u32] {
        &self.items[..self.len]
    }
}

/// Consequences of a potential switched off, appended to `out`: the last candidate of a
/// bivalue cell (when `y`), the other place of the digit in a house where it has two
/// (when `x`). Dynamic chains add the removals these rest on (`hidden_parents`).
fn off_to_on(g: &G, k: u16, y: bool, x: bool, out: &mut Vec<(u16, u8)>) {
    let (c, d) = (kcell(k), kdig(k));
    if y && two_bits(g.cand[c] as u128) {
        let rest = g.cand[c] & !bit(d);
        let other = if rest != 0 && at_most_one_bit(rest as u128) {
            rest.trailing_zeros() as u8 + 1
        } else {
            g.cand[c].trailing_zeros() as u8 + 1
        };
        out.push((key(c, other, true), C_CELL));
    }
    if x {
        let mut seen = 0u128;
        for t in [BLOCK, ROW, COL] {
            let pp = g.cells(CR[c][t] as usize, d);
            if !two_bits(pp) {
                continue;
            }
            let mut o = pp.trailing_zeros() as usize;
            if o == c {
                o = (pp & (pp - 1)).trailing_zeros() as usize;
            }
            if seen >> o & 1 == 0 {
                seen |= 1u128 << o;
                out.push((key(o, d, true), 2 + t as u8));
            }
        }
    }
}

/// The links of static chains, precomputed per potential: the grid does not change while
/// cycles and forcing chains are searched from every candidate.
#[derive(Default)]
struct Links {
    start: Vec<u32>,
    data: Vec<(u16, u8)>,
    /// The kinds of the links that lead to this potential (`link_kind`, or'ed).
    target: Vec<u8>,
}

/// A link's kind as a bit: 1 within a cell, 2 within a house.
fn link_kind(cause: u8) -> u8 {
    if cause == C_CELL {
        1
    } else {
        2
    }
}

impl Links {
    /// Refills the tables (their buffers reused) with the links `f` appends for each
    /// candidate of `g` switched on (`on`) or off.
    fn fill(&mut self, g: &G, on: bool, f: impl Fn(u16, &mut Vec<(u16, u8)>)) {
        self.start.clear();
        self.data.clear();
        // Keys run in candidate order; those between two candidates have no links.
        for c in 0..81 {
            for d in digits(g.cand[c]) {
                let k = key(c, d, on);
                self.start.resize(k as usize + 1, self.data.len() as u32);
                f(k, &mut self.data);
            }
        }
        self.start.resize(NKEYS + 1, self.data.len() as u32);
        self.target.clear();
        self.target.resize(NKEYS, 0);
        for &(k, cause) in &self.data {
            self.target[k as usize] |= link_kind(cause);
        }
    }

    fn fill_on_to_off(&mut self, g: &G, y: bool) {
        self.fill(g, true, |k, out| on_to_off(g, k, y, out));
    }

    fn fill_off_to_on(&mut self, g: &G, y: bool, x: bool) {
        self.fill(g, false, |k, out| off_to_on(g, k, y, x, out));
    }

    fn get(&self, k: u16) -> &[(u16, u8)] {
        &self.data[self.start[k as usize] as usize..self.start[k as usize + 1] as usize]
    }

    /// The links of some kinds only (`link_kind` bits), in the same order.
    fn only(&self, kinds: u8) -> LinkView<'_> {
        LinkView { links: self, kinds }
    }
}

/// Links of some kinds only: the X, Y and XY passes of the loops rule each follow some
/// kinds of the grid's links, as if the grid had been walked for those alone.
#[derive(Clone, Copy)]
struct LinkView<'a> {
    links: &'a Links,
    kinds: u8,
}

impl LinkView<'_> {
    fn get(&self, k: u16) -> impl Iterator<Item = (u16, u8)> + '_ {
        let kinds = self.kinds;
        self.links
            .get(k)
            .iter()
            .copied()
            .filter(move |&(_, cause)| link_kind(cause) & kinds != 0)
    }

    /// Whether some potential leads to `k`.
    fn target(&self, k: u16) -> bool {
        self.links.target[k as usize] & self.kinds != 0
    }
}

/// Which potentials reach which over the links of static chains: the strongly connected
/// components of the link graph and, over them, reachability sets. One per thread, its
/// buffers reused: the loops rule builds it for every reduced grid of nested chains.
#[derive(Default)]
struct Reach {
    /// Node of each potential key (`UNSEEN`: not a candidate).
    node: Vec<u16>,
    /// Potential key of each node.
    keys: Vec<u16>,
    /// Component of each node, numbered in the order Tarjan's algorithm completes them.
    comp: Vec<u16>,
    /// Nodes in each component.
    size: Vec<u16>,
    /// Nodes reachable from each component but the sinks, `words` bit words each (`row`).
    sets: Vec<u64>,
    /// Components numbered below this are sinks ("off" nodes without links out).
    sinks: usize,
    words: usize,
    // Scratch space of `build`: the links between nodes, and Tarjan's state.
    adj_start: Vec<u32>,
    adj: Vec<u16>,
    index: Vec<u16>,
    low: Vec<u16>,
    on_stack: Vec<bool>,
    stack: Vec<u16>,
    calls: Vec<(u16, u32)>,
    order: Vec<u16>,
    last: Vec<u16>,
    /// The grid whose XY links the sets are of, if they are (`xy`).
    grid: Option<G>,
    /// That grid's XY links, on to off and off to on (`xy`).
    on_off: Links,
    off_on: Links,
}

const UNSEEN: u16 = u16::MAX;

thread_local! {
    static REACH: std::cell::RefCell<Reach> = Default::default();
}

impl Reach {
    /// The XY links of `g` (`on_off`, `off_on`) and the sets over them, built unless they
    /// are the last built: the loops rule and then static multiple chains ask for them on
    /// the same grid.
    fn xy(&mut self, g: &G) {
        if self.grid.as_ref() == Some(g) {
            return;
        }
        let (mut on_off, mut off_on) = (
            std::mem::take(&mut self.on_off),
            std::mem::take(&mut self.off_on),
        );
        on_off.fill_on_to_off(g, true);
        off_on.fill_off_to_on(g, true, true);
        self.build(g, &on_off, &off_on);
        (self.on_off, self.off_on) = (on_off, off_on);
        self.grid = Some(g.clone());
    }

    /// Tarjan's algorithm, then reachability sets in the order it completes components
    /// (every successor first).
    fn build(&mut self, g: &G, on_off: &Links, off_on: &Links) {
        self.grid = None;
        if self.node.is_empty() {
            self.node = vec![UNSEEN; NKEYS];
        }
        for &k in &self.keys {
            self.node[k as usize] = UNSEEN;
        }
        self.keys.clear();
        for (i, &m) in g.cand.iter().enumerate() {
            for d in digits(m) {
                for on in [false, true] {
                    let k = key(i, d, on);
                    self.node[k as usize] = self.keys.len() as u16;
                    self.keys.push(k);
                }
            }
        }
        let n = self.keys.len();
        // The links between nodes, compactly.
        self.adj_start.clear();
        self.adj.clear();
        for &k in &self.keys {
            self.adj_start.push(self.adj.len() as u32);
            let links = if kon(k) { on_off.get(k) } else { off_on.get(k) };
            self.adj
                .extend(links.iter().map(|&(t, _)| self.node[t as usize]));
        }
        self.adj_start.push(self.adj.len() as u32);
        let (adj, adj_start) = (&self.adj, &self.adj_start);
        let succ = |u: usize| -> &[u16] { &adj[adj_start[u] as usize..adj_start[u + 1] as usize] };
        let (index, low, on_stack) = (&mut self.index, &mut self.low, &mut self.on_stack);
        index.clear();
        index.resize(n, UNSEEN);
        low.clear();
        low.resize(n, 0);
        on_stack.clear();
        on_stack.resize(n, false);
        self.comp.clear();
        self.comp.resize(n, 0);
        self.size.clear();
        // "Off" nodes without links out (most of them) are components of their own,
        // numbered first: they complete before any that reaches them, their sets are
        // themselves (not stored), and the search takes them as done.
        for (u, (i, c)) in index.iter_mut().zip(&mut self.comp).enumerate() {
            if succ(u).is_empty() && !kon(self.keys[u]) {
                *i = 0;
                *c = self.size.len() as u16;
                self.size.push(1);
            }
        }
        let sinks = self.size.len();
        self.sinks = sinks;
        let (stack, calls) = (&mut self.stack, &mut self.calls);
        let mut counter = 0u16;
        for root in 0..n {
            if index[root] != UNSEEN {
                continue;
            }
            // Each call holds its node and where it is in the node's links (`NEW`: not
            // entered yet).
            const NEW: u32 = u32::MAX;
            calls.push((root as u16, NEW));
            while let Some(&(u, mut at)) = calls.last() {
                let u = u as usize;
                if at == NEW {
                    index[u] = counter;
                    low[u] = counter;
                    counter += 1;
                    stack.push(u as u16);
                    on_stack[u] = true;
                    at = adj_start[u];
                }
                let end = adj_start[u + 1];
                let mut next = None;
                while at < end {
                    let v = adj[at as usize] as usize;
                    at += 1;
                    if index[v] == UNSEEN {
                        next = Some(v);
                        break;
                    } else if on_stack[v] {
                        low[u] = low[u].min(index[v]);
                    }
                }
                if let Some(v) = next {
                    if let Some(top) = calls.last_mut() {
                        top.1 = at;
                    }
                    calls.push((v as u16, NEW));
                    continue;
                }
                calls.pop();
                if let Some(&(p, _)) = calls.last() {
                    low[p as usize] = low[p as usize].min(low[u]);
                }
                if low[u] == index[u] {
                    let c = self.size.len() as u16;
                    let mut members = 0;
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        self.comp[w as usize] = c;
                        members += 1;
                        if w as usize == u {
                            break;
                        }
                    }
                    self.size.push(members);
                }
            }
        }
        // Nodes by component (counting sort), then each component's set from its own
        // nodes and the sets of the components it links to, each of those once.
        let nc = self.size.len();
        let words = n.div_ceil(64);
        self.words = words;
        self.sets.clear();
        self.sets.resize((nc - sinks) * words, 0);
        self.order.clear();
        self.order.resize(n, 0);
        let mut start = vec![0u16; nc + 1];
        for &c in &self.comp {
            start[c as usize + 1] += 1;
        }
        for c in 0..nc {
            start[c + 1] += start[c];
        }
        for u in 0..n {
            let c = self.comp[u] as usize;
            self.order[start[c] as usize] = u as u16;
            start[c] += 1;
        }
        self.last.clear();
        self.last.resize(nc, UNSEEN);
        // The sinks, one node each, come first.
        for &u in &self.order[sinks..] {
            let u = u as usize;
            let c = self.comp[u] as usize;
            let row = (c - sinks) * words;
            self.sets[row + u / 64] |= 1 << (u % 64);
            for &v in succ(u) {
                let o = self.comp[v as usize] as usize;
                if o < sinks {
                    self.sets[row + v as usize / 64] |= 1 << (v % 64);
                } else if o != c && self.last[o] != c as u16 {
                    self.last[o] = c as u16;
                    // Components complete after all they reach: `o < c`.
                    let (done, rest) = self.sets.split_at_mut(row);
                    let from = (o - sinks) * words;
                    for (w, &x) in rest[..words].iter_mut().zip(&done[from..][..words]) {
                        *w |= x;
                    }
                }
            }
        }
    }

    /// Where the set of node `u`, not a sink, starts in `sets`.
    fn row(&self, u: usize) -> usize {
        (self.comp[u] as usize - self.sinks) * self.words
    }

    /// Whether potential `a` leads to potential `b` (needs the sets).
    fn reaches(&self, a: u16, b: u16) -> bool {
        let (a, b) = (
            self.node[a as usize] as usize,
            self.node[b as usize] as usize,
        );
        if (self.comp[a] as usize) < self.sinks {
            return a == b;
        }
        self.sets[self.row(a) + b / 64] >> (b % 64) & 1 != 0
    }

    /// Whether potential `a` lies on a cycle of links.
    fn cyclic(&self, a: u16) -> bool {
        self.size[self.comp[self.node[a as usize] as usize] as usize] > 1
    }
}

fn is_parent(ar: &Arena, p: u32, k: u16) -> bool {
    let mut q = ar.first_parent(p);
    while let Some(i) = q {
        if ar.key(i) == k {
            return true;
        }
        q = ar.first_parent(i);
    }
    false
}

/// SE's chain-length bonus: +0.1 each time the length passes 4, 6, 8, 12, 16, 24, …
fn length_diff(cplx: u32) -> f64 {
    const STEPS: [i64; 23] = [
        4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072,
        4096, 6144, 8192,
    ];
    let length = cplx as i64 - 2;
    let mut added = 0.0;
    let mut i = 0;
    while i < STEPS.len() && length > STEPS[i] {
        added += 0.1;
        i += 1;
    }
    added
}

/// One of SE's `Chaining` rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cfg {
    pub mult: bool,
    pub dynamic: bool,
    pub nishio: bool,
    pub level: u8,
}

impl Cfg {
    /// SE's Nishio rule (7.5).
    pub(crate) const NISHIO: Cfg = Cfg {
        mult: false,
        dynamic: true,
        nishio: true,
        level: 0,
    };
    /// SE's static multiple forcing chains (8.0).
    pub(crate) const MULTIPLE: Cfg = Cfg {
        mult: true,
        dynamic: false,
        nishio: false,
        level: 0,
    };

    /// SE's dynamic forcing chains, nested `level` deep (8.5, 9.0, 9.5, …).
    pub(crate) const fn dynamic(level: u8) -> Cfg {
        Cfg {
            mult: true,
            dynamic: true,
            nishio: false,
            level,
        }
    }

    pub(crate) const LOOPS: Cfg = Cfg {
        mult: false,
        dynamic: false,
        nishio: false,
        level: 0,
    };

    fn diff(self) -> f64 {
        if self.level >= 2 {
            9.5 + 0.5 * (self.level - 2) as f64
        } else if self.level > 0 {
            8.5 + 0.5 * self.level as f64
        } else if self.nishio {
            7.5
        } else if self.dynamic {
            8.5
        } else {
            8.0
        }
    }

    /// Whether a run looks for what both states of a candidate imply, in a cell with
    /// `card` candidates (double chains).
    fn doubles(self, card: u32) -> bool {
        card >= 3 && !self.nishio && self.dynamic
    }

    /// Whether a run looks for what all `n` candidates of a cell, or places of a digit in
    /// a house, imply (cell and region chains).
    fn shares(self, n: u32) -> bool {
        !self.nishio && (n == 2 || (self.mult && n > 2))
    }

    /// Level shown in technique names: 0 static, 1 dynamic, 2 dynamic (+), 3+ nested.
    fn tech_level(self) -> u8 {
        if self.dynamic {
            1 + self.level
        } else {
            0
        }
    }
}

/// What a chain hint needs to rate and order itself, and to report its dependencies.
struct ChainSpec<'a> {
    tech: SeTechnique,
    base: f64,
    sort_key: u8,
    /// The chain targets: their ancestors make up the complexity, and are walked for
    /// nested chains and rule parents.
    targets: &'a [u32],
    /// SE treats a source without cause as a cell (cell chains) or house (region chains) step.
    null_cause: u8,
    rem: Vec<(u8, u8)>,
    place: Option<(u8, u8)>,
    text: String,
}

impl ChainSpec<'_> {
    /// The hint, rated by its complexity `cplx` (parents left to the caller).
    fn into_hint(self, cplx: u32) -> Hint {
        let mut h = Hint::new(self.tech, self.base + length_diff(cplx));
        h.cplx = cplx;
        h.sort_key = self.sort_key;
        h.rem = self.rem;
        h.place = self.place;
        h.text = self.text;
        h
    }
}

fn chain_hint(g: &G, ar: &Arena, ctx: Ctx, queue: &mut Vec<u32>, spec: ChainSpec) -> Hint {
    let mut flat = 0;
    let mut nested = 0;
    let mut seen: Vec<u64> = Vec::new();
    let mut parents = RuleParents::new(Vec::new());
    for &t in spec.targets {
        ar.chain(t, queue, |p| {
            flat += 1;
            let pot = &ar.pots[p as usize];
            if let Some(n) = pot.nested {
                if !seen.contains(&n.id) {
                    seen.push(n.id);
                    nested += n.cplx;
                }
            }
            if let Some(src) = ctx.src {
                pot_parents(g, src, pot, spec.null_cause, &mut parents);
            }
        });
    }
    let mut h = spec.into_hint(flat + nested);
    h.parents = parents.list;
    h
}

/// The removals a hint's chains rest on: those of each "on" potential of the chains,
/// switched on by a single rule (`null_cause` stands for the starts' own cause).
fn pot_parents(g: &G, src: &G, pot: &Pot, null_cause: u8, out: &mut RuleParents) {
    let cause = if pot.cause == C_NONE {
        null_cause
    } else {
        pot.cause
    };
    if kon(pot.key) && cause != C_NONE && cause != C_ADV {
        rule_parents(g, src, pot.key, cause, out);
    }
}

/// SE's `collectRuleParents` for one "on" potential `k` (see `removed_for`).
fn rule_parents(g: &G, src: &G, k: u16, cause: u8, out: &mut RuleParents) {
    for (c, v) in removed_for(g, src, kcell(k), kdig(k), cause) {
        out.add(c, v);
    }
}

/// The candidates a nested hint rests on, in the order found, each once.
struct RuleParents {
    list: Vec<(u8, u8)>,
    seen: [u64; 12],
}

impl RuleParents {
    fn new(list: Vec<(u8, u8)>) -> RuleParents {
        let mut p = RuleParents {
            list: Vec::new(),
            seen: [0; 12],
        };
        for (c, v) in list {
            p.add(c as usize, v);
        }
        p
    }

    fn add(&mut self, c: usize, v: u8) {
        let i = c * 9 + v as usize - 1;
        if self.seen[i / 64] >> (i % 64) & 1 == 0 {
            self.seen[i / 64] |= 1 << (i % 64);
            self.list.push((c as u8, v));
        }
    }
}

fn rem_for(g: &G, k: u16) -> (Vec<(u8, u8)>, Placement) {
    let (c, d) = (kcell(k), kdig(k));
    if kon(k) {
        (
            digits(g.cand[c] & !bit(d)).map(|v| (c as u8, v)).collect(),
            Some((c as u8, d)),
        )
    } else {
        (vec![(c as u8, d)], None)
    }
}

struct Chainer<'a> {
    cfg: Cfg,
    ctx: Ctx<'a>,
    buf_off: Vec<(u16, u8)>,
    /// Reused arena (from `SPARE`): chaining creates thousands of them per step.
    arena: Arena,
    adv_cache: AdvCache,
    /// Chains from candidates switched on, within one rule run.
    memo: Memo,
    /// Scratch space of `Arena::chain`.
    queue: Vec<u32>,
    /// Whether runs take the shortcuts that cannot change their hints: the sieve of
    /// multiple-chain runs and the chains it stops early, deferred parents in level-0
    /// runs, chains built ahead on the pool (off only to test them).
    shortcuts: bool,
    /// The sieve of the multiple-chain run under way.
    sieve: Option<Sieve>,
    /// Ancestor counts of the run's potentials (0: not counted yet), level-0 runs only.
    counts: Vec<u32>,
    /// Targets and null cause of the hints whose parents are still to be found.
    pending: Vec<(Vec<u32>, u8)>,
    /// Chainings built ahead on all threads (`prebuild`), by starting potential key.
    built: Vec<Option<Built>>,
    /// The identity of the grid the run's chains start from (`grid_id`), once needed.
    src_id: Option<u64>,
    /// The "on" and "off" queues of the loops rule's searches, reused from search to
    /// search (`queues`).
    queues: (VecDeque<u32>, VecDeque<u32>),
}

/// Whether grid `g` still allows the solution `sol`.
fn holds(g: &G, sol: &[u8; 81]) -> bool {
    (0..81).all(|c| g.val[c] == sol[c] || (g.val[c] == 0 && g.has(c, sol[c])))
}

/// A chaining built in an arena of its own, from the potential at index 0: what it
/// switched on and off, and the contradiction it met, as indices into `arena`.
struct Built {
    arena: Arena,
    on: Vec<u32>,
    off: Vec<u32>,
    absurd: Option<(u32, u32)>,
}

/// A chaining from one candidate switched on: what it turned on and off, and the
/// contradiction it met, if any.
type OnChain = (PSet, PSet, Option<(u32, u32)>);

/// What a chaining switched on (`on`) or off.
fn side(chain: &OnChain, on: bool) -> &PSet {
    if on {
        &chain.0
    } else {
        &chain.1
    }
}

/// Chainings from candidates switched on, by potential key.
#[derive(Default)]
struct Memo {
    /// Slot of each candidate in `chains` (`NONE`: not computed).
    slot: Vec<u32>,
    chains: Vec<OnChain>,
}

impl Memo {
    fn get(&self, on: u16) -> Option<&OnChain> {
        let i = *self.slot.get(on as usize / 2)?;
        self.chains.get(i as usize)
    }

    fn insert(&mut self, on: u16, chain: OnChain) {
        if self.slot.is_empty() {
            self.slot = vec![NONE; NKEYS / 2];
        }
        self.slot[on as usize / 2] = self.chains.len() as u32;
        self.chains.push(chain);
    }

    /// Empties the memo, handing back its sets.
    fn drain(&mut self) -> std::vec::Drain<'_, OnChain> {
        for s in &mut self.slot {
            *s = NONE;
        }
        self.chains.drain(..)
    }
}

thread_local! {
    /// Sets no longer used and arenas of finished rule runs, for reuse on this thread:
    /// nested rules start thousands of runs per step, and a fresh set costs a page.
    static SPARE: std::cell::RefCell<(Vec<PSet>, Vec<Arena>)> = Default::default();
}

impl Drop for Chainer<'_> {
    fn drop(&mut self) {
        let arena = std::mem::take(&mut self.arena);
        SPARE.with(|s| s.borrow_mut().1.push(arena));
    }
}

/// The hints of a chaining rule used inside a chain, on one grid: eliminations (sorted),
/// the candidates they rest on as if the grid had started from every candidate, and the
/// complexity the hint adds.
type NestedHints = Rc<Vec<(Vec<(u8, u8)>, Vec<(u8, u8)>, Nested)>>;

/// A grid and a nested rule.
#[derive(PartialEq, Eq, Hash)]
struct NestedKey {
    val: [u8; 81],
    cand: [u16; 81],
    cfg: (bool, bool, u8),
}

/// Nested rule runs kept before the cache is emptied, to bound its memory. It may be
/// emptied at any time: a hint found again keeps its identity (`Nested`).
const NESTED_CAPACITY: usize = 1 << 14;

thread_local! {
    /// Nested chaining rules on reduced grids, the bulk of the work at ER 9.5 and up.
    /// Chains of every level, every step and every nesting depth reach the same reduced
    /// grids again (what a chain derives before it calls the nested rules is the same
    /// fixpoint, whatever the order), and a rule's hints on a grid do not depend on where
    /// the chain started: only which removals they rest on does, and that is filtered at
    /// each use (`chain_rules`).
    static NESTED: std::cell::RefCell<FxHashMap<NestedKey, NestedHints>> =
        Default::default();
}

/// Every candidate present: the starting grid under which a nested rule reports all the
/// removals it could rest on.
static EVERY_CANDIDATE: G = G {
    val: [0; 81],
    cand: [0x1ff; 81],
    dm: [(1 << 81) - 1; 9],
};

/// The hints of chaining rule `cfg` on `g` (cached, see `NESTED`).
fn nested_rule(g: &G, cfg: Cfg) -> NestedHints {
    let key = NestedKey {
        val: g.val,
        cand: g.cand,
        cfg: (cfg.mult, cfg.dynamic, cfg.level),
    };
    if let Some(found) = NESTED.with(|n| n.borrow().get(&key).cloned()) {
        return found;
    }
    let ctx = Ctx {
        src: Some(&EVERY_CANDIDATE),
        first: false,
        explain: false,
        solution: None,
    };
    // Fixed keys: the same grid and rule hash alike on every thread.
    let mut grid_hash = std::hash::DefaultHasher::new();
    key.hash(&mut grid_hash);
    let hints: Vec<_> = chaining_hints(g, cfg, ctx)
        .into_iter()
        .filter(|h| !h.parents.is_empty())
        .enumerate()
        .map(|(i, h)| {
            let mut rem = h.rem;
            rem.sort_unstable();
            let mut id = grid_hash.clone();
            id.write_usize(i);
            let nested = Nested {
                id: id.finish(),
                cplx: h.cplx,
            };
            (rem, h.parents, nested)
        })
        .collect();
    let hints = Rc::new(hints);
    NESTED.with(|n| {
        let mut n = n.borrow_mut();
        if n.len() >= NESTED_CAPACITY {
            n.clear();
            FIXED_SIEVES.with(|f| f.borrow_mut().clear());
        }
        n.insert(key, hints.clone())
    });
    hints
}

/// Forgets the nested rule runs of earlier puzzles: they would only take up room.
fn clear_nested_cache() {
    NESTED.with(|n| n.borrow_mut().clear());
    FIXED_SIEVES.with(|f| f.borrow_mut().clear());
    SIMPLE.with(|n| n.borrow_mut().clear());
}

/// A grid's identity as a key (fixed hash keys: the same on every thread).
fn grid_id(g: &G) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    (g.val, g.cand).hash(&mut h);
    h.finish()
}

thread_local! {
    /// What the simple rules remove inside chains, by starting grid (`grid_id`) and
    /// reduced grid. Every level of a step chains from the same grid, and a level's
    /// chains meet the reduced grids of the level below before they go further.
    static SIMPLE: std::cell::RefCell<FxHashMap<(u64, [u16; 81]), RemovedRc>> =
        Default::default();
}

/// The candidates removed on `g` by the first of the simple rules used inside chains
/// (locking, hidden and naked pairs, X-wings) that removes any, from chains that started
/// on `src` (`id`): only what rests on a candidate the chain removed counts.
fn simple_rules(g: &G, src: &G, id: u64) -> RemovedRc {
    let grids = (id, g.cand);
    if let Some(found) = SIMPLE.with(|s| s.borrow().get(&grids).cloned()) {
        return found;
    }
    let ctx = Ctx {
        src: Some(src),
        first: false,
        explain: false,
        solution: None,
    };
    let mut res = Vec::new();
    for rule in 0..4 {
        let mut hints = Vec::new();
        match rule {
            0 => locking(g, false, ctx, &mut hints),
            1 => hidden_set(g, 2, false, ctx, &mut hints),
            2 => naked_set(g, 2, ctx, &mut hints),
            _ => fish(g, 2, ctx, &mut hints),
        }
        for h in hints {
            if h.parents.is_empty() {
                continue;
            }
            let mut rem = h.rem;
            rem.sort_unstable();
            for (c, d) in rem {
                res.push((key(c as usize, d, false), h.parents.clone(), None));
            }
        }
        if !res.is_empty() {
            break;
        }
    }
    let res = Rc::new(res);
    SIMPLE.with(|s| {
        let mut s = s.borrow_mut();
        if s.len() >= NESTED_CAPACITY {
            s.clear();
        }
        s.insert(grids, res.clone());
    });
    res
}

/// A grid's values and candidates, as a map key.
type GridKey = ([u8; 81], [u16; 81]);

thread_local! {
    /// Sieves of static multiple chains on reduced grids, made where the loops rule has
    /// just built the grid's reachability sets and found nothing: the nested static rule
    /// runs where the nested loops rule gave nothing, often at an earlier level or step.
    static FIXED_SIEVES: std::cell::RefCell<FxHashMap<GridKey, Sieve>> =
        Default::default();
}

/// Keeps the sieve of static multiple chains on `g`, whose reachability sets `reach`
/// holds.
fn keep_fixed_sieve(g: &G, reach: &Reach) {
    FIXED_SIEVES.with(|f| {
        f.borrow_mut()
            .entry((g.val, g.cand))
            .or_insert_with(|| Sieve::fixed(g, reach));
    });
}

/// The sieve of static multiple chains on `g`: kept from the loops rule's run on `g`, or
/// made from the reachability sets, built for `g` if need be.
fn fixed_sieve(g: &G) -> Sieve {
    if let Some(sieve) = FIXED_SIEVES.with(|f| f.borrow().get(&(g.val, g.cand)).cloned()) {
        return sieve;
    }
    REACH.with(|reach| {
        let mut reach = reach.borrow_mut();
        reach.xy(g);
        Sieve::fixed(g, &reach)
    })
}

type AdvCache = FxHashMap<[u16; 81], RemovedRc>;

impl<'a> Chainer<'a> {
    fn new(cfg: Cfg, ctx: Ctx<'a>) -> Chainer<'a> {
        Chainer {
            cfg,
            ctx,
            buf_off: Vec::with_capacity(32),
            arena: SPARE.with(|s| s.borrow_mut().1.pop().unwrap_or_default()),
            adv_cache: AdvCache::default(),
            memo: Default::default(),
            queue: Vec::new(),
            shortcuts: true,
            sieve: None,
            counts: Vec::new(),
            pending: Vec::new(),
            built: Vec::new(),
            queues: Default::default(),
            src_id: None,
        }
    }

    /// The loops rule's queues, emptied (hand them back to `queues` after the search).
    fn queues(&mut self) -> (VecDeque<u32>, VecDeque<u32>) {
        let (mut pon, mut poff) = std::mem::take(&mut self.queues);
        pon.clear();
        poff.clear();
        (pon, poff)
    }

    fn set(&mut self) -> PSet {
        SPARE
            .with(|s| s.borrow_mut().0.pop())
            .unwrap_or_else(PSet::new)
    }

    fn recycle(&mut self, mut s: PSet) {
        s.reset();
        SPARE.with(|spare| spare.borrow_mut().0.push(s));
    }

    fn take_arena(&mut self) -> Arena {
        let mut ar = std::mem::take(&mut self.arena);
        ar.clear(self.ctx.explain);
        ar
    }

    /// SE's `doChaining`: propagate from the potentials in `to_on`/`to_off` until a
    /// potential is both on and off (returned) or nothing new follows.
    ///
    /// With `targets`, the chain stops once it has reached them all: what it found up to
    /// there, and why, is what the full chain finds (`Sieve::targets`).
    fn do_chaining(
        &mut self,
        g: &mut G,
        ar: &mut Arena,
        to_on: &mut PSet,
        to_off: &mut PSet,
        mut targets: Option<Targets>,
    ) -> Option<(u32, u32)> {
        let mut done = |k: u16| targets.as_mut().is_some_and(|t| t.reached(k));
        // The starts count too (a chain with nothing to reach stops at once).
        let starts = to_on.order.iter().chain(&to_off.order).map(|&p| ar.key(p));
        if starts.map(&mut done).last().unwrap_or(false) {
            return None;
        }
        let save = g.clone();
        let y = !self.cfg.nishio;
        // The sets keep their potentials in insertion order: what is left to process is
        // the part of each after its cursor.
        let (mut next_on, mut next_off) = (0, 0);
        let mut result = None;
        'main: while next_on < to_on.order.len() || next_off < to_off.order.len() {
            if let Some(&p) = to_on.order.get(next_on) {
                next_on += 1;
                let mut buf = std::mem::take(&mut self.buf_off);
                buf.clear();
                on_to_off(g, ar.key(p), y, &mut buf);
                for &(k, cause) in &buf {
                    if let Some(on) = to_on.get(k | 1) {
                        let off = ar.add(k, cause, &[p], None);
                        result = Some((on, off));
                        self.buf_off = buf;
                        break 'main;
                    }
                    if !to_off.contains(k) {
                        let i = ar.add(k, cause, &[p], None);
                        to_off.add(ar, i);
                        if done(k) {
                            self.buf_off = buf;
                            break 'main;
                        }
                    }
                }
                self.buf_off = buf;
            } else if let Some(&p) = to_off.order.get(next_off) {
                next_off += 1;
                let k0 = ar.key(p);
                let mut buf = std::mem::take(&mut self.buf_off);
                buf.clear();
                off_to_on(g, k0, y, true, &mut buf);
                for &(k, cause) in &buf {
                    let conflict = to_off.get(k & !1);
                    if conflict.is_none() && to_on.contains(k) {
                        continue;
                    }
                    let parents = if self.cfg.dynamic {
                        hidden_parents(g, &save, to_off, p, k0, cause)
                    } else {
                        Parents::one(p)
                    };
                    let i = ar.add(k, cause, parents.as_slice(), None);
                    if let Some(off) = conflict {
                        result = Some((i, off));
                        break;
                    }
                    to_on.add(ar, i);
                    if done(k) {
                        self.buf_off = buf;
                        break 'main;
                    }
                }
                self.buf_off = buf;
                if self.cfg.dynamic {
                    g.remove(kcell(k0), kdig(k0));
                }
                if result.is_some() {
                    break 'main;
                }
            }
            let idle = next_on == to_on.order.len() && next_off == to_off.order.len();
            if idle && self.cfg.level > 0 {
                for (k, parents, nested) in self.advanced(g, &save, to_off) {
                    if !to_off.contains(k) {
                        let i = ar.add(k, C_ADV, &parents, nested);
                        to_off.add(ar, i);
                    }
                }
            }
        }
        *g = save;
        result
    }

    /// SE's `getAdvancedPotentials`: candidates removed by simpler rules on the grid as the
    /// chain has reduced it, provided the rule depends on something the chain removed.
    fn advanced(&mut self, g: &G, src: &G, to_off: &PSet) -> Vec<(u16, Vec<u32>, Option<Nested>)> {
        // The starting grid is the same for every chain of one rule run, so what the rules
        // find depends on the reduced grid alone: different assumptions often reach the
        // same reduced grid, and the nested rules are by far the costliest part.
        let found = match self.adv_cache.get(&g.cand) {
            Some(f) => f.clone(),
            None => {
                let id = *self.src_id.get_or_insert_with(|| grid_id(src));
                let simple = simple_rules(g, src, id);
                let f = if simple.is_empty() {
                    Rc::new(self.chain_rules(g, src))
                } else {
                    simple
                };
                self.adv_cache.insert(g.cand, f.clone());
                f
            }
        };
        found
            .iter()
            .map(|(k, parents, nested)| {
                let ps = parents
                    .iter()
                    .filter_map(|&(c, d)| to_off.get(key(c as usize, d, false)))
                    .collect();
                (*k, ps, *nested)
            })
            .collect()
    }

    /// The candidates removed by the first of the nested chaining rules that removes any
    /// (the simple rules found none).
    fn chain_rules(&self, g: &G, src: &G) -> Removed {
        let mut res = Vec::new();
        let level = self.cfg.level;
        let chain_rules: &[Cfg] = match level {
            0 | 1 => &[],
            2 => &[Cfg::LOOPS],
            3 => &[Cfg::LOOPS, Cfg::MULTIPLE],
            4 => &[Cfg::dynamic(0)],
            _ => &[Cfg::dynamic(0), Cfg::dynamic(level - 3)],
        };
        for &cfg in chain_rules {
            for (rem, parents, nested) in nested_rule(g, cfg).iter() {
                // Only what rests on a candidate the chain removed counts.
                let parents: Vec<(u8, u8)> = parents
                    .iter()
                    .copied()
                    .filter(|&(c, d)| src.has(c as usize, d))
                    .collect();
                if parents.is_empty() {
                    continue;
                }
                for &(c, d) in rem {
                    res.push((key(c as usize, d, false), parents.clone(), Some(*nested)));
                }
            }
            if !res.is_empty() {
                return res;
            }
        }
        res
    }

    /// A hint's text, written only when asked for: nested rules make thousands of hints.
    fn text(&self, f: impl FnOnce() -> String) -> String {
        if self.ctx.explain {
            f()
        } else {
            String::new()
        }
    }

    fn tech(&self, kind: u8) -> SeTechnique {
        let l = self.cfg.tech_level();
        match kind {
            _ if self.cfg.nishio => SeTechnique::Nishio,
            0 => SeTechnique::ContradictionForcingChains(l),
            1 => SeTechnique::DoubleForcingChains(l),
            2 => SeTechnique::CellForcingChains(l),
            _ => SeTechnique::RegionForcingChains(l),
        }
    }

    /// SE's `getMultipleChainsHintList` (multiple, dynamic, Nishio and nested rules).
    fn multiple(&mut self, g: &G, out: &mut Vec<Hint>) {
        let mut gm = g.clone();
        let (dynamic, nishio) = (self.cfg.dynamic, self.cfg.nishio);
        self.counts.clear();
        self.pending.clear();
        // One arena for the whole run: the chains from a candidate switched on are shared
        // between its own cell's chains and the region chains of its houses.
        let mut ar = self.take_arena();
        // Chains from every candidate: most of what they could combine into finds nothing,
        // and a sieve without reasons tells which (see `sieve`).
        let sieve = match self.cfg {
            _ if !self.shortcuts => None,
            Cfg::MULTIPLE => Some(fixed_sieve(g)),
            cfg if cfg == Cfg::dynamic(0) => Some(Sieve::dynamic(g)),
            _ => None,
        };
        if sieve.as_ref().is_some_and(Sieve::is_empty) {
            self.arena = ar;
            return;
        }
        self.sieve = sieve;
        if self.shortcuts && self.cfg.level > 0 && self.ctx.src.is_none() {
            self.prebuild(g);
        }
        for c in 0..81 {
            if g.val[c] != 0 {
                continue;
            }
            let card = g.card(c);
            if !(card > 2 || (card > 1 && dynamic)) {
                continue;
            }
            let reduction = self.cfg.doubles(card);
            for d in digits(g.cand[c]) {
                if self.sieve.as_ref().map_or(true, |s| s.binary(c, d)) {
                    self.binary(g, &mut gm, &mut ar, c, d, reduction, out);
                }
                if !nishio {
                    self.region(g, &mut gm, &mut ar, c, d, out);
                }
            }
            if self.cfg.shares(card) && self.sieve.as_ref().map_or(true, |s| s.cell(c)) {
                for d in digits(g.cand[c]) {
                    self.on_chain(&mut gm, &mut ar, c, d);
                }
                let starts: Vec<u16> = digits(g.cand[c]).map(|d| key(c, d, true)).collect();
                let what = || format!("each candidate of {}", cell_name(c));
                self.shared_outcomes(g, &ar, &starts, (2, 5, C_CELL), &what, out);
            }
        }
        let mut memo = std::mem::take(&mut self.memo);
        for (on, off, _) in memo.drain() {
            self.recycle(on);
            self.recycle(off);
        }
        self.memo = memo;
        self.arena = ar;
        self.sieve = None;
        self.built.clear();
    }

    /// Builds every chaining a top-level run of nested chains will ask for (each
    /// candidate switched on, and off) on all threads of the pool, ahead of the run:
    /// there, each costs up to thousands of nested rule runs, and none depends on another.
    fn prebuild(&mut self, g: &G) {
        let starts: Vec<u16> = (0..81)
            .filter(|&c| g.val[c] == 0 && g.card(c) >= 2)
            .flat_map(|c| digits(g.cand[c]).flat_map(move |d| [key(c, d, true), key(c, d, false)]))
            .collect();
        self.built.clear();
        self.built.resize_with(NKEYS, || None);
        // A chain from an assumption the solution agrees with derives only what holds in
        // the solution (every rule is sound), so it never meets a contradiction: it serves
        // only the hints it shares with chains from false assumptions, and may stop once
        // it has reached what they reached. So those are built first.
        let Some(sol) = self.ctx.solution.filter(|s| holds(g, s)) else {
            self.build_ahead(g, starts.into_iter().map(|k| (k, None)).collect());
            return;
        };
        let mut truth = [0u128; 9];
        for (c, &v) in sol.iter().enumerate() {
            truth[v as usize - 1] |= 1 << c;
        }
        let agrees = |k: u16| (truth[kdig(k) as usize - 1] >> kcell(k) & 1 != 0) == kon(k);
        let (sure, rest): (Vec<u16>, Vec<u16>) = starts.into_iter().partition(|&k| agrees(k));
        self.build_ahead(g, rest.into_iter().map(|k| (k, None)).collect());
        let sure = sure
            .into_iter()
            .map(|k| (k, Some(self.shared_with_false(g, &truth, k))))
            .collect();
        self.build_ahead(g, sure);
    }

    /// Builds the chainings from `starts` (each with the outcomes it may stop after, or to
    /// its end) on the pool, into `built`.
    fn build_ahead(&mut self, g: &G, starts: Vec<(u16, Option<Targets>)>) {
        use rayon::prelude::*;
        let (cfg, ctx) = (self.cfg, self.ctx);
        let built: Vec<Built> = starts
            .par_iter()
            .map_init(
                || (Chainer::new(cfg, ctx), g.clone()),
                |(ch, gm), (k, targets)| {
                    let mut arena = Arena::default();
                    arena.clear(ctx.explain);
                    let (on, off, absurd) = ch.chain_from(gm, &mut arena, *k, targets.clone());
                    let b = Built {
                        arena,
                        on: on.order.clone(),
                        off: off.order.clone(),
                        absurd,
                    };
                    ch.recycle(on);
                    ch.recycle(off);
                    b
                },
            )
            .collect();
        for ((k, _), b) in starts.into_iter().zip(built) {
            self.built[k as usize] = Some(b);
        }
    }

    /// What the chaining from `k`, an assumption the solution agrees with, must reach:
    /// what it can share with the (built) chainings it combines with in `multiple`, all
    /// from false assumptions, as far as it holds in the solution (`truth`: per digit,
    /// its cells).
    fn shared_with_false(&self, g: &G, truth: &[u128; 9], k: u16) -> Targets {
        let facts = |k: u16| -> [[u128; 9]; 2] {
            let mut out = [[0; 9]; 2];
            if let Some(b) = &self.built[k as usize] {
                for &i in b.on.iter().chain(&b.off) {
                    let p = b.arena.key(i);
                    out[kon(p) as usize][kdig(p) as usize - 1] |= 1 << kcell(p);
                }
            }
            out
        };
        let common = |keys: &mut dyn Iterator<Item = u16>| {
            keys.map(facts)
                .reduce(|a, b| std::array::from_fn(|s| std::array::from_fn(|i| a[s][i] & b[s][i])))
        };
        let (c, d) = (kcell(k), kdig(k));
        let card = g.card(c);
        let mut need = [[0u128; 9]; 2];
        let mut add = |f: Option<[[u128; 9]; 2]>| {
            for (s, side) in f.into_iter().flatten().enumerate() {
                for (i, m) in side.into_iter().enumerate() {
                    need[s][i] |= m;
                }
            }
        };
        // The same candidate's other state (`binary`).
        if self.cfg.doubles(card) {
            add(Some(facts(k ^ 1)));
        }
        if kon(k) {
            // The cell's other candidates, the digit's other places in each of its houses.
            if self.cfg.shares(card) {
                add(common(
                    &mut digits(g.cand[c])
                        .filter(|&e| e != d)
                        .map(|e| key(c, e, true)),
                ));
            }
            for r in CR[c] {
                let pp = g.pos(r as usize, d);
                if self.cfg.shares(pp.count_ones()) {
                    let others = bits(pp).map(|i| RC[r as usize][i] as usize);
                    add(common(
                        &mut others.filter(|&o| o != c).map(|o| key(o, d, true)),
                    ));
                }
            }
        }
        // What the solution refutes, this chaining never reaches.
        let [off, on] = need;
        Targets::new(
            std::array::from_fn(|i| on[i] & truth[i]),
            std::array::from_fn(|i| off[i] & !truth[i]),
        )
    }

    /// The chaining from potential `k` (a candidate switched on or off) in `ar`: moved
    /// there if it was built ahead (`prebuild`), else built, stopping at the sieve's
    /// targets.
    fn chaining(&mut self, gm: &mut G, ar: &mut Arena, k: u16) -> OnChain {
        let Some(b) = self.built.get_mut(k as usize).and_then(Option::take) else {
            let targets = (self.sieve.as_ref()).and_then(|s| s.targets(kcell(k), kdig(k), kon(k)));
            return self.chain_from(gm, ar, k, targets);
        };
        let offset = ar.append(&b.arena);
        let (mut on, mut off) = (self.set(), self.set());
        for &i in &b.on {
            on.add(ar, i + offset);
        }
        for &i in &b.off {
            off.add(ar, i + offset);
        }
        (on, off, b.absurd.map(|(x, y)| (x + offset, y + offset)))
    }

    /// Builds the chaining from potential `k` in `ar`.
    fn chain_from(
        &mut self,
        gm: &mut G,
        ar: &mut Arena,
        k: u16,
        targets: Option<Targets>,
    ) -> OnChain {
        let (mut on, mut off) = (self.set(), self.set());
        let p = ar.add(k, C_NONE, &[], None);
        if kon(k) {
            on.add(ar, p);
        } else {
            off.add(ar, p);
        }
        let absurd = self.do_chaining(gm, ar, &mut on, &mut off, targets);
        (on, off, absurd)
    }

    /// The chaining from candidate `d` of cell `c` switched on, kept in `memo`: computed
    /// once per rule run (SE repeats it for cell and region chains; the outcome is the same).
    fn on_chain(&mut self, gm: &mut G, ar: &mut Arena, c: usize, d: u8) {
        let k = key(c, d, true);
        if self.memo.get(k).is_some() {
            return;
        }
        let chain = self.chaining(gm, ar, k);
        self.memo.insert(k, chain);
    }

    #[allow(clippy::too_many_arguments)]
    fn binary(
        &mut self,
        g: &G,
        gm: &mut G,
        ar: &mut Arena,
        c: usize,
        d: u8,
        reduction: bool,
        out: &mut Vec<Hint>,
    ) {
        let contradiction = self.cfg.dynamic || self.cfg.nishio;
        self.on_chain(gm, ar, c, d);
        let absurd = self.memo.get(key(c, d, true)).and_then(|ch| ch.2);
        if let (true, Some(clash)) = (contradiction, absurd) {
            let rem = vec![(c as u8, d)];
            out.push(self.contradiction(g, ar, key(c, d, true), clash, rem, None));
        }
        // The chains from the candidate switched off serve contradictions and double
        // chains only (static multiple chains have neither).
        if !contradiction && !reduction {
            return;
        }
        let (off_on, off_off, absurd) = self.chaining(gm, ar, key(c, d, false));
        if let (true, Some(clash)) = (contradiction, absurd) {
            let (rem, _) = rem_for(g, key(c, d, true));
            if !rem.is_empty() {
                let place = Some((c as u8, d));
                out.push(self.contradiction(g, ar, key(c, d, false), clash, rem, place));
            }
        }
        if reduction {
            let memo = std::mem::take(&mut self.memo);
            if let Some((on_on, on_off, _)) = memo.get(key(c, d, true)) {
                for (from, other) in [(on_on, &off_on), (on_off, &off_off)] {
                    for &p in &from.order {
                        let k = ar.key(p);
                        let Some(q) = other.get(k) else { continue };
                        let (rem, place) = rem_for(g, k);
                        if rem.is_empty() {
                            continue;
                        }
                        let t = [p, q];
                        let spec = ChainSpec {
                            tech: self.tech(1),
                            base: self.cfg.diff(),
                            sort_key: 1,
                            targets: &t,
                            null_cause: C_NONE,
                            rem,
                            place,
                            text: self.text(|| {
                                format!(
                                    "both {0}=… and {0}<>… imply {1}: {2}; {3}",
                                    cell_name(c),
                                    pot_name(k),
                                    ar.describe(p),
                                    ar.describe(q)
                                )
                            }),
                        };
                        out.push(self.hint(g, ar, spec));
                    }
                }
            }
            self.memo = memo;
        }
        self.recycle(off_on);
        self.recycle(off_off);
    }

    /// Hints for what every chaining from `starts` (the candidates of a cell, or the places
    /// of a digit in a house, all memoised) implies: the first chaining's outcomes in their
    /// order, kept when all the others share them. `(kind, sort_key, null_cause)` say
    /// which technique (2 cell, 3 region), `what` names the starting set in texts.
    fn shared_outcomes(
        &mut self,
        g: &G,
        ar: &Arena,
        starts: &[u16],
        (kind, sort_key, null_cause): (u8, u8, u8),
        what: &dyn Fn() -> String,
        out: &mut Vec<Hint>,
    ) {
        let memo = std::mem::take(&mut self.memo);
        let chains: Vec<&OnChain> = starts.iter().filter_map(|&k| memo.get(k)).collect();
        for on in [true, false] {
            for &p in &side(chains[0], on).order {
                let k = ar.key(p);
                if !chains[1..].iter().all(|ch| side(ch, on).contains(k)) {
                    continue;
                }
                let targets: Vec<u32> =
                    chains.iter().filter_map(|ch| side(ch, on).get(k)).collect();
                let (rem, place) = rem_for(g, k);
                if rem.is_empty() {
                    continue;
                }
                let text = self.text(|| {
                    format!(
                        "{} implies {}: {}",
                        what(),
                        pot_name(k),
                        ar.describe_all(&targets)
                    )
                });
                let spec = ChainSpec {
                    tech: self.tech(kind),
                    base: self.cfg.diff(),
                    sort_key,
                    targets: &targets,
                    null_cause,
                    rem,
                    place,
                    text,
                };
                out.push(self.hint(g, ar, spec));
            }
        }
        self.memo = memo;
    }

    /// The hint of a chain from potential `k` that met a contradiction (`a` and `b`,
    /// a potential switched both on and off).
    fn contradiction(
        &mut self,
        g: &G,
        ar: &Arena,
        k: u16,
        (a, b): (u32, u32),
        rem: Vec<(u8, u8)>,
        place: Placement,
    ) -> Hint {
        let spec = ChainSpec {
            tech: self.tech(0),
            base: self.cfg.diff(),
            sort_key: 7,
            targets: &[a, b],
            null_cause: C_NONE,
            rem,
            place,
            text: self.text(|| {
                format!(
                    "{} leads to a contradiction: {} and {}",
                    pot_name(k),
                    ar.describe(a),
                    ar.describe(b)
                )
            }),
        };
        self.hint(g, ar, spec)
    }

    /// A hint of a multiple-chain run. Level-0 runs have no nested chains, so a hint's
    /// complexity is the sum of its targets' ancestor counts, kept per potential; and
    /// the removals a nested run's hint rests on are found only for the hints that
    /// survive sorting and de-duplication (`finish`), about one in six.
    fn hint(&mut self, g: &G, ar: &Arena, spec: ChainSpec) -> Hint {
        if self.cfg.level > 0 || !self.shortcuts {
            return chain_hint(g, ar, self.ctx, &mut self.queue, spec);
        }
        let mut cplx = 0;
        for &t in spec.targets {
            if self.counts.len() <= t as usize {
                self.counts.resize(ar.pots.len(), 0);
            }
            if self.counts[t as usize] == 0 {
                let mut n = 0;
                ar.chain(t, &mut self.queue, |_| n += 1);
                self.counts[t as usize] = n;
            }
            cplx += self.counts[t as usize];
        }
        let pending = (spec.targets.to_vec(), spec.null_cause);
        let mut h = spec.into_hint(cplx);
        if self.ctx.src.is_some() {
            h.pending = self.pending.len() as u32;
            self.pending.push(pending);
        }
        h
    }

    /// Finds the parents of the hints `hint` left pending.
    fn finish(&mut self, g: &G, hints: &mut [Hint]) {
        let Some(src) = self.ctx.src else { return };
        for h in hints.iter_mut().filter(|h| h.pending != NONE) {
            let (targets, null_cause) = &self.pending[h.pending as usize];
            let mut parents = RuleParents::new(Vec::new());
            for &t in targets {
                self.arena.chain(t, &mut self.queue, |p| {
                    pot_parents(
                        g,
                        src,
                        &self.arena.pots[p as usize],
                        *null_cause,
                        &mut parents,
                    )
                });
            }
            h.parents = parents.list;
            h.pending = NONE;
        }
    }

    /// Region forcing chains of digit `d` in the houses of cell `c` where `c` is the
    /// digit's first place (each house is taken once).
    #[allow(clippy::too_many_arguments)]
    fn region(&mut self, g: &G, gm: &mut G, ar: &mut Arena, c: usize, d: u8, out: &mut Vec<Hint>) {
        for t in [BLOCK, ROW, COL] {
            let r = CR[c][t] as usize;
            let pp = g.pos(r, d);
            let n = pp.count_ones();
            if !self.cfg.shares(n) {
                continue;
            }
            if RC[r][pp.trailing_zeros() as usize] as usize != c {
                continue;
            }
            if self.sieve.as_ref().is_some_and(|s| !s.region(r, d)) {
                continue;
            }
            for i in bits(pp) {
                self.on_chain(gm, ar, RC[r][i] as usize, d);
            }
            let starts: Vec<u16> = bits(pp).map(|i| key(RC[r][i] as usize, d, true)).collect();
            let what = || format!("each place of {d} in {}", region_name(r));
            self.shared_outcomes(g, ar, &starts, (3, 6, 2 + t as u8), &what, out);
        }
    }

    /// One pass of SE's cycles and forcing chains (the rule rated 6.5–7.x) over X, Y or XY
    /// links, its searches filtered by `reach`.
    #[allow(clippy::too_many_arguments)]
    fn loops(
        &mut self,
        g: &G,
        y: bool,
        x: bool,
        on_off: LinkView,
        off_on: LinkView,
        reach: &Reach,
        out: &mut Vec<Hint>,
    ) {
        for c in 0..81 {
            if g.val[c] != 0 || at_most_one_bit(g.cand[c] as u128) {
                continue;
            }
            for d in digits(g.cand[c]) {
                self.unary(g, c, d, y, x, (on_off, off_on, reach), out);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn unary(
        &mut self,
        g: &G,
        c: usize,
        d: u8,
        y: bool,
        x: bool,
        (on_off, off_on, reach): (LinkView, LinkView, &Reach),
        out: &mut Vec<Hint>,
    ) {
        if g.card(c) > 2 && !x {
            return;
        }
        let mut ar = self.take_arena();
        let source = ar.add(key(c, d, true), C_NONE, &[], None);
        // A cycle closes, and an "off" source is forced on, only through a link into the
        // source: without one the searches cannot find anything.
        // Nor can a cycle close where the source is alone in its strongly connected
        // component, or a forcing chain end where the source does not reach its negation:
        // most searches end so, and the reachability sets rule them out at once.
        let (on, off) = (key(c, d, true), key(c, d, false));
        let into_source = off_on.target(on);
        let cycles = if into_source && reach.cyclic(on) {
            self.cycles(&mut ar, source, on_off, off_on)
        } else {
            Vec::new()
        };
        let mut chains = Vec::new();
        if x {
            if reach.reaches(on, off) {
                self.forcing(&mut ar, source, on_off, off_on, &mut chains);
            }
            if off_on.target(on) && reach.reaches(off, on) {
                let off = ar.add(off, C_NONE, &[], None);
                self.forcing(&mut ar, off, on_off, off_on, &mut chains);
            }
        }
        let sort_key = match (x, y) {
            (true, true) => 4,
            (false, true) => 3,
            _ => 2,
        };
        for dst in cycles {
            let mut cells = 0u128;
            let mut p = dst;
            while let Some(q) = ar.first_parent(p) {
                cells |= 1u128 << kcell(ar.key(p));
                p = q;
            }
            let mut forw: Vec<(u8, u8)> = Vec::new();
            let mut back: Vec<(u8, u8)> = Vec::new();
            let mut p = dst;
            while let Some(q) = ar.first_parent(p) {
                let k = ar.key(p);
                let v = kdig(k);
                for &o in &HOUSE[kcell(k)] {
                    if cells >> o & 1 == 0 && g.has(o as usize, v) {
                        let set = if kon(k) { &mut forw } else { &mut back };
                        if !set.contains(&(o, v)) {
                            set.push((o, v));
                        }
                    }
                }
                p = q;
            }
            let mut rem: Vec<(u8, u8)> = forw.into_iter().filter(|e| back.contains(e)).collect();
            if rem.is_empty() {
                continue;
            }
            rem.sort_unstable();
            let (tech, base) = match (x, y) {
                (true, true) => (SeTechnique::XYCycle, 7.0),
                (false, true) => (SeTechnique::YCycle, 6.5),
                _ => (SeTechnique::XCycle, 6.5),
            };
            let t = [dst];
            let text = self.text(|| format!("cycle {}", ar.describe(dst)));
            let mut h = chain_hint(
                g,
                &ar,
                self.ctx,
                &mut self.queue,
                ChainSpec {
                    tech,
                    base,
                    sort_key,
                    targets: &t,
                    null_cause: C_NONE,
                    rem,
                    place: None,
                    text,
                },
            );
            if let Some(src) = self.ctx.src {
                // The reversed cycle: every "off" of the chain is "on" the other way round.
                let mut parents = RuleParents::new(std::mem::take(&mut h.parents));
                let mut p = dst;
                while let Some(q) = ar.first_parent(p) {
                    let pot = &ar.pots[p as usize];
                    if !kon(pot.key) && pot.cause != C_NONE && pot.cause != C_ADV {
                        rule_parents(g, src, pot.key ^ 1, pot.cause, &mut parents);
                    }
                    p = q;
                }
                h.parents = parents.list;
            }
            out.push(h);
        }
        for t in chains {
            let k = ar.key(t);
            let (rem, place) = rem_for(g, k);
            if rem.is_empty() {
                continue;
            }
            let (tech, base) = if y {
                (SeTechnique::ForcingXYChain, 7.0)
            } else {
                (SeTechnique::ForcingXChain, 6.6)
            };
            let tt = [t];
            let spec = ChainSpec {
                tech,
                base,
                sort_key,
                targets: &tt,
                null_cause: C_NONE,
                rem,
                place,
                text: self.text(|| format!("chain {}", ar.describe(t))),
            };
            out.push(chain_hint(g, &ar, self.ctx, &mut self.queue, spec));
        }
        self.arena = ar;
    }

    fn cycles(
        &mut self,
        ar: &mut Arena,
        source: u32,
        on_off: LinkView,
        off_on: LinkView,
    ) -> Vec<u32> {
        let skey = ar.key(source);
        let mut to_on = self.set();
        let mut to_off = self.set();
        to_on.add(ar, source);
        let (mut pon, mut poff) = self.queues();
        pon.push_back(source);
        let mut length = 0;
        let mut cycles = Vec::new();
        while !pon.is_empty() || !poff.is_empty() {
            length += 1;
            while let Some(p) = pon.pop_front() {
                for (k, cause) in on_off.get(ar.key(p)) {
                    // SE queues an "off" again for every path to it. Once its first copy is
                    // queued, the others can only close a cycle back to the source: the
                    // potentials they imply are on the list already.
                    // Every potential on the path to `p` is queued already, so SE's "not a
                    // parent" test can only fail for a potential already in the set.
                    if to_off.contains(k)
                        && (!off_on.get(k).any(|(t, _)| t == skey) || is_parent(ar, p, k))
                    {
                        continue;
                    }
                    let i = ar.add(k, cause, &[p], None);
                    poff.push_back(i);
                    to_off.add(ar, i);
                }
            }
            length += 1;
            while let Some(p) = poff.pop_front() {
                for (k, cause) in off_on.get(ar.key(p)) {
                    let fresh = !to_on.contains(k);
                    let hit = length >= 4 && k == skey;
                    if fresh || hit {
                        let i = ar.add(k, cause, &[p], None);
                        if hit {
                            cycles.push(i);
                        }
                        if fresh {
                            pon.push_back(i);
                            to_on.add(ar, i);
                        }
                    }
                }
            }
        }
        self.recycle(to_on);
        self.recycle(to_off);
        self.queues = (pon, poff);
        cycles
    }

    fn forcing(
        &mut self,
        ar: &mut Arena,
        source: u32,
        on_off: LinkView,
        off_on: LinkView,
        chains: &mut Vec<u32>,
    ) {
        let skey = ar.key(source);
        let mut to_on = self.set();
        let mut to_off = self.set();
        let (mut pon, mut poff) = self.queues();
        if kon(skey) {
            to_on.add(ar, source);
            pon.push_back(source);
        } else {
            to_off.add(ar, source);
            poff.push_back(source);
        }
        // The only conclusion a source can reach is its own negation, recorded once: the
        // search stops there, as nothing found later could be recorded.
        'search: while !pon.is_empty() || !poff.is_empty() {
            while let Some(p) = pon.pop_front() {
                for (k, cause) in on_off.get(ar.key(p)) {
                    if skey == k | 1 && !chains.iter().any(|&q| ar.key(q) == k) {
                        let i = ar.add(k, cause, &[p], None);
                        chains.push(i);
                        break 'search;
                    }
                    // SE also skips parents of `p`; they are all in `to_off` already.
                    if !to_off.contains(k) {
                        let i = ar.add(k, cause, &[p], None);
                        poff.push_back(i);
                        to_off.add(ar, i);
                    }
                }
            }
            while let Some(p) = poff.pop_front() {
                for (k, cause) in off_on.get(ar.key(p)) {
                    if skey == k & !1 && !chains.iter().any(|&q| ar.key(q) == k) {
                        let i = ar.add(k, cause, &[p], None);
                        chains.push(i);
                        break 'search;
                    }
                    if !to_on.contains(k) {
                        let i = ar.add(k, cause, &[p], None);
                        pon.push_back(i);
                        to_on.add(ar, i);
                    }
                }
            }
        }
        self.recycle(to_on);
        self.recycle(to_off);
        self.queues = (pon, poff);
    }
}

/// All hints of one SE chaining rule, in SE's order (difficulty, complexity, kind), each
/// set of eliminations once.
pub(crate) fn chaining_hints(g: &G, cfg: Cfg, ctx: Ctx) -> Vec<Hint> {
    rule_hints(g, cfg, ctx, true)
}

/// `chaining_hints`, with or without `Chainer::shortcuts` (without only to test them).
fn rule_hints(g: &G, cfg: Cfg, ctx: Ctx, shortcuts: bool) -> Vec<Hint> {
    let mut ch = Chainer::new(cfg, ctx);
    ch.shortcuts = shortcuts;
    let mut out = Vec::new();
    if cfg.mult || cfg.dynamic {
        ch.multiple(g, &mut out);
    } else {
        // X, Y and XY chains, in SE's order, each over its own links: the X and Y links
        // are the XY links of one kind. Whatever X or Y links reach, XY links reach too,
        // so the XY reachability filters all three passes.
        REACH.with(|reach| {
            let mut reach = reach.borrow_mut();
            reach.xy(g);
            for (y, x) in [(false, true), (true, false), (true, true)] {
                // X links: within houses; Y links: "off" to "on" within cells.
                let on_off = reach.on_off.only(2 | y as u8);
                let off_on = reach.off_on.only(y as u8 | (x as u8) << 1);
                ch.loops(g, y, x, on_off, off_on, &reach, &mut out);
            }
            if ctx.src.is_some() && out.is_empty() {
                keep_fixed_sieve(g, &reach);
            }
        });
    }
    out.sort_by(|a, b| {
        a.diff
            .total_cmp(&b.diff)
            .then(a.cplx.cmp(&b.cplx))
            .then(a.sort_key.cmp(&b.sort_key))
    });
    let mut seen = FxHashSet::default();
    out.retain(|h| {
        // The set of eliminations as a 729-bit key: rem lists hold no repeats.
        let mut k = [0u64; 12];
        for &(c, d) in &h.rem {
            let i = c as usize * 9 + d as usize - 1;
            k[i / 64] |= 1 << (i % 64);
        }
        seen.insert(k)
    });
    ch.finish(g, &mut out);
    out
}

// ---------------------------------------------------------------- the solver

/// The highest nesting level SE's rating uses (`Chaining(true, true, false, 5)`).
pub(crate) const MAX_LEVEL: u8 = 5;

/// The next hint SE's rating would apply: the first hint of the first rule, in SE's
/// order, that has one. `max_level` caps the nesting of dynamic chains.
pub(crate) fn next_hint(
    g: &G,
    max_level: u8,
    explain: bool,
    solution: Option<&[u8; 81]>,
) -> Option<Hint> {
    let ctx = Ctx {
        src: None,
        first: true,
        explain,
        solution,
    };
    let mut out = Vec::new();
    let basic: [Producer; 20] = [
        &|o| hidden_single(g, o),
        &|o| locking(g, true, ctx, o),
        &|o| hidden_set(g, 2, true, ctx, o),
        &|o| naked_single(g, o),
        &|o| hidden_set(g, 3, true, ctx, o),
        &|o| locking(g, false, ctx, o),
        &|o| naked_set(g, 2, ctx, o),
        &|o| fish(g, 2, ctx, o),
        &|o| hidden_set(g, 2, false, ctx, o),
        &|o| naked_set(g, 3, ctx, o),
        &|o| fish(g, 3, ctx, o),
        &|o| hidden_set(g, 3, false, ctx, o),
        &|o| xy_wing(g, false, o),
        &|o| xy_wing(g, true, o),
        &|o| unique_loops(g, o),
        &|o| naked_set(g, 4, ctx, o),
        &|o| fish(g, 4, ctx, o),
        &|o| hidden_set(g, 4, false, ctx, o),
        &|o| bug(g, o),
        &|o| aligned_exclusion(g, 2, o),
    ];
    for p in basic {
        p(&mut out);
        if !out.is_empty() {
            return Some(out.swap_remove(0));
        }
    }
    let chain = |cfg: Cfg| chaining_hints(g, cfg, ctx).into_iter().next();
    if let Some(h) = chain(Cfg::LOOPS) {
        return Some(h);
    }
    aligned_exclusion(g, 3, &mut out);
    if !out.is_empty() {
        return Some(out.swap_remove(0));
    }
    let cfgs = [
        Cfg {
            mult: false,
            dynamic: true,
            nishio: true,
            level: 0,
        },
        Cfg {
            mult: true,
            dynamic: false,
            nishio: false,
            level: 0,
        },
        Cfg {
            mult: true,
            dynamic: true,
            nishio: false,
            level: 0,
        },
    ];
    for cfg in cfgs {
        if let Some(h) = chain(cfg) {
            return Some(h);
        }
    }
    for level in 1..=max_level.min(MAX_LEVEL) {
        if let Some(h) = chain(Cfg {
            mult: true,
            dynamic: true,
            nishio: false,
            level,
        }) {
            return Some(h);
        }
    }
    None
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
/// one solution when known, only saves time.
pub(crate) fn se_rate(
    values: &[u8; 81],
    solution: Option<&[u8; 81]>,
    max_level: u8,
    keep_steps: bool,
) -> SeOutcome {
    clear_nested_cache();
    let mut g = G::from_values(values);
    let mut out = SeOutcome {
        er: f64::NEG_INFINITY,
        ep: 0.0,
        ed: 0.0,
        solved: true,
        steps: Vec::new(),
    };
    while !g.solved() {
        let Some(h) = next_hint(&g, max_level, false, solution) else {
            out.er = 20.0;
            out.solved = false;
            break;
        };
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
        if out.ep == 0.0 {
            if out.ed == 0.0 {
                out.ed = out.er;
            }
            if h.place.is_some() {
                out.ep = out.er;
            }
        }
        if keep_steps {
            out.steps.push(h);
        }
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

    const HARD: [&str; 3] = [
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        "1.......9.4...3.8...2...6...7..58.......2.......7.4.5...6...2...3.8...7.9.......1",
    ];

    /// Pairs (`src`, `g`) as nested rules meet them: a hard puzzle's grid with some false
    /// candidates gone, and the same with more gone (the solution's candidates all stay).
    pub(super) fn reduced_pairs(per_puzzle: usize) -> Vec<(G, G)> {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut pairs = Vec::new();
        for text in HARD {
            let puzzle: Grid = text.parse().expect("test puzzle");
            let solution = crate::solver::solve(&puzzle).expect("unique solution");
            let start = G::from_values(puzzle.values());
            let sol = solution.values();
            for i in 0..per_puzzle {
                let mut thin = |g: &G, percent: u64| {
                    let mut cand = g.cand;
                    for (c, m) in cand.iter_mut().enumerate() {
                        for d in digits(*m) {
                            if d != sol[c] && rng.below(100) < percent {
                                *m &= !bit(d);
                            }
                        }
                    }
                    G::from_parts(&g.val, &cand)
                };
                let src = thin(&start, (i as u64 * 7) % 30);
                let g = thin(&src, 10 + (i as u64 * 13) % 40);
                pairs.push((src, g));
            }
        }
        pairs
    }

    #[test]
    fn reachability_sets_agree_with_a_search() {
        for (_, g) in reduced_pairs(4) {
            for (y, x) in [(false, true), (true, false), (true, true)] {
                let (mut on_off, mut off_on) = (Links::default(), Links::default());
                on_off.fill_on_to_off(&g, y);
                off_on.fill_off_to_on(&g, y, x);
                let mut reach = Reach::default();
                reach.build(&g, &on_off, &off_on);
                let live: Vec<u16> = (0..NKEYS as u16)
                    .filter(|&k| g.has(kcell(k), kdig(k)))
                    .collect();
                let next = |k: u16| if kon(k) { on_off.get(k) } else { off_on.get(k) };
                for &a in &live {
                    // Everything a path of one or more links reaches from `a`.
                    let mut seen = vec![false; NKEYS];
                    let mut todo: Vec<u16> = next(a).iter().map(|&(t, _)| t).collect();
                    while let Some(k) = todo.pop() {
                        if !seen[k as usize] {
                            seen[k as usize] = true;
                            todo.extend(next(k).iter().map(|&(t, _)| t));
                        }
                    }
                    assert_eq!(reach.cyclic(a), seen[a as usize], "cycle through {a}");
                    for &b in &live {
                        let expected = a == b || seen[b as usize];
                        assert_eq!(reach.reaches(a, b), expected, "{a} -> {b}");
                    }
                }
            }
        }
    }

    /// The unique-loop search finds the valid loops SE's unpruned search finds, in its order.
    #[test]
    fn pruned_loop_search_finds_what_the_full_search_finds() {
        // SE's search as it is: every path, loops checked at the end.
        #[allow(clippy::too_many_arguments)]
        fn full(
            g: &G,
            cell: usize,
            v: (u8, u8),
            lp: &mut Vec<u8>,
            allowed: i32,
            ex_in: u16,
            last: Option<usize>,
            out: &mut Vec<Vec<u8>>,
        ) {
            lp.push(cell as u8);
            let mut ex = ex_in;
            let both = bit(v.0) | bit(v.1);
            for t in [BLOCK, ROW, COL] {
                if Some(t) == last {
                    continue;
                }
                for &next in &RC[CR[cell][t] as usize] {
                    if lp[0] == next && lp.len() >= 4 {
                        out.push(lp.clone());
                    } else if !lp.contains(&next) && g.cand[next as usize] & both == both {
                        let p = g.cand[next as usize];
                        ex = (ex | p) & !both;
                        if p.count_ones() == 2 || ex.count_ones() == 1 || allowed > 0 {
                            let na = if p.count_ones() > 2 {
                                allowed - 1
                            } else {
                                allowed
                            };
                            full(g, next as usize, v, lp, na, ex, Some(t), out);
                        }
                    }
                }
            }
            lp.pop();
        }
        let mut grids: Vec<G> = reduced_pairs(6).into_iter().map(|(_, g)| g).collect();
        // Every grid on the way through a 17-clue puzzle where the full search follows
        // millions of paths.
        let many: Grid =
            "........1.....2..3..4.5..........46...2.......3...1.......2.....1......77..64.8.."
                .parse()
                .expect("test puzzle");
        let mut g = G::from_values(many.values());
        for h in se_rate(many.values(), None, MAX_LEVEL, true).steps {
            grids.push(g.clone());
            h.apply(&mut g);
        }
        let (mut found, mut paths) = (0, 0);
        for g in &grids {
            for c in (0..81).filter(|&c| g.card(c) == 2) {
                let mut ds = digits(g.cand[c]);
                let v = (ds.next().unwrap_or(1), ds.next().unwrap_or(1));
                let mut a = Vec::new();
                full(g, c, v, &mut Vec::new(), 2, 0, None, &mut a);
                let mut b = loops_from(g, c, v.0, v.1);
                paths += a.len();
                a.retain(|lp| valid_loop(lp));
                b.retain(|lp| valid_loop(lp));
                assert_eq!(a, b, "loops from {}", cell_name(c));
                found += a.len();
            }
        }
        assert!(found > 100, "only {found} loops to compare, {paths} paths");
    }

    /// Following some kinds of a grid's links is following links built for those alone.
    #[test]
    fn links_of_one_kind_equal_links_built_so() {
        let same = |a: LinkView, b: &Links| {
            (0..NKEYS as u16).all(|k| {
                a.get(k).eq(b.get(k).iter().copied()) && a.target(k) == (b.target[k as usize] != 0)
            })
        };
        let on_off = |g: &G, y| {
            let mut l = Links::default();
            l.fill_on_to_off(g, y);
            l
        };
        let off_on = |g: &G, y, x| {
            let mut l = Links::default();
            l.fill_off_to_on(g, y, x);
            l
        };
        for (_, g) in reduced_pairs(4) {
            let (xy_on_off, xy_off_on) = (on_off(&g, true), off_on(&g, true, true));
            assert!(same(xy_on_off.only(3), &xy_on_off));
            assert!(same(xy_off_on.only(3), &xy_off_on));
            assert!(same(xy_on_off.only(2), &on_off(&g, false)));
            assert!(same(xy_off_on.only(2), &off_on(&g, false, true)));
            assert!(same(xy_off_on.only(1), &off_on(&g, true, false)));
        }
    }

    /// A top-level run that knows the solution stops the chains from assumptions the
    /// solution agrees with once they reach what they could share: every hint is the same,
    /// in the same order, as when they run to their end.
    #[test]
    fn chains_that_cannot_fail_stop_early_and_find_the_same_hints() {
        let mut hints = 0;
        for (i, text) in HARD.iter().enumerate() {
            let puzzle: Grid = text.parse().expect("test puzzle");
            let solution = crate::solver::solve(&puzzle).expect("unique solution");
            let sol = solution.values();
            let pairs = reduced_pairs(2);
            for g in [G::from_values(puzzle.values()), pairs[2 * i + 1].1.clone()] {
                assert!(holds(&g, sol));
                for level in 1..=3 {
                    let key = |h: &Hint| (h.tech, h.cplx, h.sort_key, h.rem.clone(), h.place);
                    let run = |solution| {
                        let ctx = Ctx {
                            src: None,
                            first: true,
                            explain: false,
                            solution,
                        };
                        chaining_hints(&g, Cfg::dynamic(level), ctx)
                            .iter()
                            .map(key)
                            .collect::<Vec<_>>()
                    };
                    let whole = run(None);
                    assert_eq!(whole, run(Some(sol)), "level {level}");
                    hints += whole.len();
                }
            }
        }
        assert!(hints > 100, "too few hints compared: {hints}");
    }

    /// The nested-rule cache computes once with every candidate as the start and filters
    /// the removals each hint rests on per use: the same as running the rule from `src`.
    #[test]
    fn cached_nested_rules_agree_with_a_direct_run() {
        type Found = Vec<(Vec<(u8, u8)>, Vec<(u8, u8)>, u32)>;
        let mut compared = 0;
        for (src, g) in reduced_pairs(6) {
            for cfg in [Cfg::LOOPS, Cfg::MULTIPLE, Cfg::dynamic(0)] {
                let ctx = Ctx {
                    src: Some(&src),
                    first: false,
                    explain: false,
                    solution: None,
                };
                let direct: Found = chaining_hints(&g, cfg, ctx)
                    .into_iter()
                    .filter(|h| !h.parents.is_empty())
                    .map(|h| {
                        let mut rem = h.rem;
                        rem.sort_unstable();
                        (rem, h.parents, h.cplx)
                    })
                    .collect();
                let cached: Found = nested_rule(&g, cfg)
                    .iter()
                    .map(|(rem, parents, nested)| {
                        let parents: Vec<(u8, u8)> = parents
                            .iter()
                            .copied()
                            .filter(|&(c, d)| src.has(c as usize, d))
                            .collect();
                        (rem.clone(), parents, nested.cplx)
                    })
                    .filter(|(_, parents, _)| !parents.is_empty())
                    .collect();
                compared += direct.len();
                assert_eq!(direct, cached, "{cfg:?}");
            }
        }
        assert!(compared > 50, "too few nested hints compared: {compared}");
    }
}
