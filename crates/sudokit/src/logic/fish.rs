//! Basic fish (X-Wing, Swordfish, Jellyfish) and their finned and sashimi variants.
//!
//! A fish of size `n` on digit `d`: `n` base lines (rows, or columns) whose candidates for `d`
//! all lie in `n` cover lines of the other kind. Each base line takes one `d` in a distinct
//! cover line, so the cover lines' other cells lose `d`.
//!
//! Finned: the base lines also hold candidates outside the cover (fins), all in one box.
//! Either a fin is true, or the fish stands; so only cover cells that also see every fin
//! lose `d`. Sashimi: a finned fish where some base line has a single cover candidate, so the
//! fish without fins would not be a fish at all (HoDoKu's distinction).
//!
//! Lines are handled as 9-bit masks of positions across the line, so the search is
//! combinations of small integers.
//!
//! Franken and Mutant fish (HoDoKu's complex fish, [`complex`]) take boxes too: Franken mixes
//! boxes with rows in the base and columns in the cover (or the reverse), Mutant any houses.
//! Base houses may then share candidates (endo fins, which count as fins) and cover houses
//! too (a base candidate in two covers is false: cannibalism). That search works on cell
//! sets: base houses in order, then covers built candidate by candidate.
//!
//! Two more of HoDoKu's fish build on those. Siamese fish ([`siamese`]) are two finned or
//! sashimi fish with the same base lines and different covers, told as one step. Kraken fish
//! ([`kraken_type_1`], [`kraken_type_2`]) are finned fish that remove nothing themselves,
//! completed by chains from their fins (and, for type 2, from a cover's base candidates).

use std::cell::RefCell;
use std::collections::HashMap;

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::logic::first_combination;
use crate::step::{cell_list, Step, Technique};

/// Whether base lines are rows (covers are columns) or the reverse.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Orientation {
    Rows,
    Columns,
}

impl Orientation {
    fn base(self, line: usize) -> House {
        match self {
            Orientation::Rows => House::Row(line as u8),
            Orientation::Columns => House::Column(line as u8),
        }
    }

    fn cover(self, pos: usize) -> House {
        match self {
            Orientation::Rows => House::Column(pos as u8),
            Orientation::Columns => House::Row(pos as u8),
        }
    }

    /// The cells on base lines `lines` (mask) and cover lines `positions` (mask).
    fn cells(self, lines: u16, positions: u16) -> CellSet {
        let union = |mask: u16, house: fn(Orientation, usize) -> House| {
            bits(mask).fold(CellSet::EMPTY, |acc, i| {
                acc | CellSet::house(house(self, i))
            })
        };
        union(lines, Orientation::base) & union(positions, Orientation::cover)
    }
}

fn bits(mask: u16) -> impl Iterator<Item = usize> {
    (0..9).filter(move |i| mask & (1 << i) != 0)
}

/// Position masks of digit `d` per base line.
fn masks(c: &Candidates, d: Digit, o: Orientation) -> [u16; 9] {
    let mut m = [0u16; 9];
    for cell in c.cells_with(d).iter() {
        match o {
            Orientation::Rows => m[cell.row()] |= 1 << cell.col(),
            Orientation::Columns => m[cell.col()] |= 1 << cell.row(),
        }
    }
    m
}

/// Position masks of the three chutes (bands or stacks) of three lines.
const CHUTES: [u16; 3] = [0b111, 0b111 << 3, 0b111 << 6];

const BASIC: [Technique; 3] = [Technique::XWing, Technique::Swordfish, Technique::Jellyfish];
const FINNED: [Technique; 3] = [
    Technique::FinnedXWing,
    Technique::FinnedSwordfish,
    Technique::FinnedJellyfish,
];
const SASHIMI: [Technique; 3] = [
    Technique::SashimiXWing,
    Technique::SashimiSwordfish,
    Technique::SashimiJellyfish,
];

/// Calls `f(base_mask, bands)` on every set of `n` base lines (from `lines`), where
/// `bands[k]` is the union of the position masks of the chosen lines in band `k` (lines
/// `3k..3k+3`), stopping at the first `Some`. Sets whose partial `bands` fail `fits` are
/// pruned; `fits` must be monotone (once failed, adding lines never helps), which keeps
/// jellyfish searches small.
fn base_sets<R>(
    m: &[u16; 9],
    lines: &[usize],
    n: usize,
    fits: impl Fn(&[u16; 3]) -> bool,
    f: &mut impl FnMut(u16, &[u16; 3]) -> Option<R>,
) -> Option<R> {
    fn go<R>(
        m: &[u16; 9],
        lines: &[usize],
        left: usize,
        (base, bands): (u16, [u16; 3]),
        fits: &impl Fn(&[u16; 3]) -> bool,
        f: &mut impl FnMut(u16, &[u16; 3]) -> Option<R>,
    ) -> Option<R> {
        if left == 0 {
            return f(base, &bands);
        }
        for (i, &l) in lines.iter().enumerate() {
            if lines.len() - i < left {
                break;
            }
            let mut next = bands;
            next[l / 3] |= m[l];
            if fits(&next) {
                let r = go(m, &lines[i + 1..], left - 1, (base | 1 << l, next), fits, f);
                if r.is_some() {
                    return r;
                }
            }
        }
        None
    }
    go(m, lines, n, (0, [0; 3]), &fits, f)
}

/// The positions a finned fish's cover must include if its fins lie in chute `chute` and on
/// base lines of band `band`: everything outside the chute, and the chute positions used by
/// base lines of other bands.
fn forced_cover(bands: &[u16; 3], chute: u16, band: usize) -> u16 {
    let union = bands[0] | bands[1] | bands[2];
    let others = bands[(band + 1) % 3] | bands[(band + 2) % 3];
    (union & !chute) | (others & chute)
}

/// The first basic fish of size `n` (2–4) that eliminates something.
pub fn basic(c: &Candidates, n: usize) -> Option<Step> {
    basic_fish(c, n, &mut Some)
}

/// Calls `f` on every basic fish of size `n` that eliminates something, in the search order,
/// until it returns `Some`.
fn basic_fish<R>(c: &Candidates, n: usize, f: &mut impl FnMut(Step) -> Option<R>) -> Option<R> {
    let technique = *BASIC.get(n.checked_sub(2)?)?;
    for d in Digit::all() {
        for o in [Orientation::Rows, Orientation::Columns] {
            let m = masks(c, d, o);
            let lines: Vec<usize> = (0..9)
                .filter(|&l| (2..=n as u32).contains(&m[l].count_ones()))
                .collect();
            let fits = |b: &[u16; 3]| (b[0] | b[1] | b[2]).count_ones() as usize <= n;
            let found = base_sets(&m, &lines, n, fits, &mut |base_mask, bands| {
                let cover = bands[0] | bands[1] | bands[2];
                if cover.count_ones() as usize != n {
                    return None;
                }
                let targets = (o.cells(0x1ff & !base_mask, cover) & c.cells_with(d))
                    .iter()
                    .collect();
                build(
                    technique,
                    d,
                    o,
                    base_mask,
                    cover,
                    CellSet::EMPTY,
                    targets,
                    c,
                )
                .and_then(&mut *f)
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// The first finned (`sashimi == false`) or sashimi (`true`) fish of size `n` (2–4) that
/// eliminates something.
///
/// The fins lie in one box, so their positions lie in one chute of three; hence the cover is
/// the base lines' positions outside some chute, topped up from inside it. That gives at most
/// a handful of covers per set of base lines instead of every `n`-subset of positions.
pub fn finned(c: &Candidates, n: usize, sashimi: bool) -> Option<Step> {
    let listed = FINNED_LISTED.with(|listed| match &*listed.borrow() {
        Some((at, size, kind, first)) if (*size, *kind) == (n, sashimi) && at == c => {
            Some(first.clone())
        }
        _ => None,
    });
    listed.unwrap_or_else(|| finned_fish(c, n, sashimi, &mut Some))
}

/// The first of a position's finned (or sashimi) fish of one size, from the list the
/// Siamese search makes of them all: the standard order asks for the finned fish of that
/// size next, on the same position.
type FinnedFirst = Option<(Candidates, usize, bool, Option<Step>)>;

thread_local! {
    static FINNED_LISTED: RefCell<FinnedFirst> = const { RefCell::new(None) };
}

/// Calls `f` on every finned or sashimi fish of size `n` that eliminates something, in the
/// search order, until it returns `Some`.
fn finned_fish<R>(
    c: &Candidates,
    n: usize,
    sashimi: bool,
    f: &mut impl FnMut(Step) -> Option<R>,
) -> Option<R> {
    let idx = n.checked_sub(2)?;
    let technique = *if sashimi { &SASHIMI } else { &FINNED }.get(idx)?;
    for d in Digit::all() {
        let with_d = c.cells_with(d);
        for o in [Orientation::Rows, Orientation::Columns] {
            let m = masks(c, d, o);
            let lines: Vec<usize> = (0..9).filter(|&l| m[l].count_ones() >= 2).collect();
            // Some box (chute and band) must be able to hold every fin.
            let fits = |b: &[u16; 3]| {
                let union = b[0] | b[1] | b[2];
                CHUTES.iter().any(|&ch| {
                    (union & !ch).count_ones() as usize <= n
                        && (0..3).any(|band| forced_cover(b, ch, band).count_ones() as usize <= n)
                })
            };
            let found = base_sets(&m, &lines, n, fits, &mut |base_mask, bands| {
                let union = bands[0] | bands[1] | bands[2];
                for chute in CHUTES {
                    for band in (0..3).filter(|&k| bands[k] & chute != 0) {
                        let forced = forced_cover(bands, chute, band);
                        let Some(extra) = n.checked_sub(forced.count_ones() as usize) else {
                            continue;
                        };
                        let inside: Vec<usize> = bits(bands[band] & chute & !forced).collect();
                        if extra >= inside.len() {
                            // No fin would be left in this box.
                            continue;
                        }
                        let found = first_combination_or_none(&inside, extra, &mut |add| {
                            let cover = add.iter().fold(forced, |acc, &p| acc | 1 << p);
                            finned_cover(
                                c, d, o, &m, base_mask, cover, union, sashimi, technique, with_d,
                            )
                            .and_then(&mut *f)
                        });
                        if found.is_some() {
                            return found;
                        }
                    }
                }
                None
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

const SIAMESE_FINNED: [Technique; 3] = [
    Technique::SiameseFinnedXWing,
    Technique::SiameseFinnedSwordfish,
    Technique::SiameseFinnedJellyfish,
];
const SIAMESE_SASHIMI: [Technique; 3] = [
    Technique::SiameseSashimiXWing,
    Technique::SiameseSashimiSwordfish,
    Technique::SiameseSashimiJellyfish,
];

/// The first Siamese fish: two finned (`sashimi == false`) or two sashimi fish of size `n`
/// on one digit with the same base lines and different covers, shown as one step with both
/// fish's eliminations (HoDoKu's "Siamese" fish, a step of its finned fish with "Duals/Siamese"
/// allowed). HoDoKu pairs fish whose first eliminations differ; here each fish must remove
/// something the other does not, so the pair always says more than either fish alone.
pub fn siamese(c: &Candidates, n: usize, sashimi: bool) -> Option<Step> {
    siamese_fish(c, n, sashimi, &mut Some)
}

/// Calls `f` on every Siamese fish of size `n`, in the order of their first fish, until it
/// returns `Some`.
fn siamese_fish<R>(
    c: &Candidates,
    n: usize,
    sashimi: bool,
    f: &mut impl FnMut(Step) -> Option<R>,
) -> Option<R> {
    let technique = *if sashimi {
        &SIAMESE_SASHIMI
    } else {
        &SIAMESE_FINNED
    }
    .get(n.checked_sub(2)?)?;
    let mut fish: Vec<Step> = Vec::new();
    finned_fish(c, n, sashimi, &mut |s| {
        fish.push(s);
        None::<()>
    });
    let first = fish.first().cloned();
    FINNED_LISTED.with(|listed| *listed.borrow_mut() = Some((c.clone(), n, sashimi, first)));
    for (i, a) in fish.iter().enumerate() {
        for b in &fish[i + 1..] {
            let same_base = a.digits == b.digits && a.houses[..n] == b.houses[..n];
            let adds =
                |x: &Step, y: &Step| x.eliminations.iter().any(|e| !y.eliminations.contains(e));
            if !same_base || a.houses[n..] == b.houses[n..] || !adds(a, b) || !adds(b, a) {
                continue;
            }
            let found = f(join_siamese(technique, n, a, b));
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// One step of two fish with the same base: base, then both covers; both bodies, fins and
/// eliminations.
fn join_siamese(technique: Technique, n: usize, a: &Step, b: &Step) -> Step {
    let union = |x: &[Cell], y: &[Cell]| -> Vec<Cell> {
        let set: CellSet = x.iter().chain(y).copied().collect();
        set.iter().collect()
    };
    let mut s = Step::new(technique);
    s.digits = a.digits;
    s.houses = a.houses.iter().chain(&b.houses[n..]).copied().collect();
    s.cells = union(&a.cells, &b.cells);
    s.fins = union(&a.fins, &b.fins);
    let mut eliminations = a.eliminations.clone();
    eliminations.extend(
        b.eliminations
            .iter()
            .filter(|e| !a.eliminations.contains(e)),
    );
    eliminations.sort_unstable();
    s.eliminations = eliminations;
    let names = |houses: &[House]| {
        houses
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let plural = if s.fins.len() > 1 { "s" } else { "" };
    s.detail = format!(
        "{} in {} / {} / {}, fin{plural} {}",
        s.digits.iter().map(|d| d.to_string()).collect::<String>(),
        names(&a.houses[..n]),
        names(&a.houses[n..]),
        names(&b.houses[n..]),
        cell_list(&s.fins)
    );
    s
}

/// `first_combination`, where choosing nothing (`k == 0`) is the one empty combination.
fn first_combination_or_none<R>(
    items: &[usize],
    k: usize,
    f: &mut impl FnMut(&[usize]) -> Option<R>,
) -> Option<R> {
    if k == 0 {
        f(&[])
    } else {
        first_combination(items, k, f)
    }
}

/// Checks one base/cover choice of a finned fish and builds its step.
#[allow(clippy::too_many_arguments)]
fn finned_cover(
    c: &Candidates,
    d: Digit,
    o: Orientation,
    m: &[u16; 9],
    base_mask: u16,
    cover: u16,
    union: u16,
    sashimi: bool,
    technique: Technique,
    with_d: CellSet,
) -> Option<Step> {
    // Mask tests first: fins on base lines of one band (their positions already lie in one
    // chute), every base line touching the cover, and a cover candidate in the fin box.
    let fin_pos = union & !cover;
    let mut fin_lines = 0u16;
    let mut thin_line = false;
    for l in bits(base_mask) {
        if m[l] & fin_pos != 0 {
            fin_lines |= 1 << l;
        }
        match (m[l] & cover).count_ones() {
            0 => return None,
            1 => thin_line = true,
            _ => {}
        }
    }
    if thin_line != sashimi {
        return None;
    }
    let band = CHUTES.iter().copied().find(|&b| fin_lines & !b == 0)?;
    let chute = CHUTES.iter().copied().find(|&b| fin_pos & !b == 0)?;
    if !bits(band & !base_mask).any(|t| m[t] & cover & chute != 0) {
        return None;
    }
    let fins = o.cells(base_mask, fin_pos) & with_d;
    let targets = (o.cells(0x1ff & !base_mask, cover) & with_d & fins.common_peers())
        .iter()
        .collect();
    build(technique, d, o, base_mask, cover, fins, targets, c)
}

#[allow(clippy::too_many_arguments)]
fn build(
    technique: Technique,
    d: Digit,
    o: Orientation,
    base: u16,
    cover: u16,
    fins: CellSet,
    targets: Vec<Cell>,
    c: &Candidates,
) -> Option<Step> {
    if targets.is_empty() {
        return None;
    }
    let mut s = Step::new(technique);
    s.digits = DigitSet::single(d);
    s.houses = bits(base)
        .map(|l| o.base(l))
        .chain(bits(cover).map(|p| o.cover(p)))
        .collect();
    s.cells = (o.cells(base, cover) & c.cells_with(d)).iter().collect();
    s.fins = fins.iter().collect();
    s.eliminations = targets.into_iter().map(|cl| (cl, d)).collect();
    let names = |houses: &[House]| {
        houses
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let n = base.count_ones() as usize;
    s.detail = format!(
        "{d} in {} / {}",
        names(&s.houses[..n]),
        names(&s.houses[n..])
    );
    if !s.fins.is_empty() {
        let plural = if s.fins.len() > 1 { "s" } else { "" };
        s.detail
            .push_str(&format!(", fin{plural} {}", cell_list(&s.fins)));
    }
    Some(s)
}

/// HoDoKu's fish categories, by the kinds of houses in the base and cover sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Rows as base and columns as cover, or the reverse.
    Basic,
    /// Rows and boxes as base and columns and boxes as cover, or the reverse, with a box in
    /// one of them.
    Franken,
    /// Any other mix of rows, columns and boxes.
    Mutant,
}

/// Masks of house kinds over [`House::index`]: rows, columns, boxes.
const ROWS: u32 = 0x1ff;
const COLUMNS: u32 = 0x1ff << 9;
const BOXES: u32 = 0x1ff << 18;

/// HoDoKu's default limits on a complex fish's fins (candidates outside the cover) and endo
/// fins (candidates in two base houses): beyond them the search grows fast and such fish
/// hardly ever eliminate anything.
const MAX_FINS: usize = 5;
const MAX_ENDO_FINS: usize = 2;

impl Shape {
    /// The shape of a fish with base houses `base` and cover houses `cover` (masks over
    /// [`House::index`]).
    fn of(base: u32, cover: u32) -> Shape {
        let within = |set: u32, kinds: u32| set & !kinds == 0;
        let fits = |a: u32, b: u32| {
            within(base, a) && within(cover, b) || within(base, b) && within(cover, a)
        };
        if fits(ROWS, COLUMNS) {
            Shape::Basic
        } else if fits(ROWS | BOXES, COLUMNS | BOXES) {
            Shape::Franken
        } else {
            Shape::Mutant
        }
    }

    /// The (base kinds, cover kinds) pairs that hold every fish of this shape.
    fn orientations(self) -> &'static [(u32, u32)] {
        match self {
            Shape::Basic => &[(ROWS, COLUMNS), (COLUMNS, ROWS)],
            Shape::Franken => &[
                (ROWS | BOXES, COLUMNS | BOXES),
                (COLUMNS | BOXES, ROWS | BOXES),
            ],
            Shape::Mutant => &[(ROWS | COLUMNS | BOXES, ROWS | COLUMNS | BOXES)],
        }
    }

    /// The technique of a fish of this shape and size `n` (2–4), finned or not.
    fn technique(self, n: usize, finned: bool) -> Option<Technique> {
        use Technique as T;
        let row = match (self, finned) {
            (Shape::Basic, false) => BASIC,
            (Shape::Basic, true) => FINNED,
            (Shape::Franken, false) => [T::FrankenXWing, T::FrankenSwordfish, T::FrankenJellyfish],
            (Shape::Franken, true) => [
                T::FinnedFrankenXWing,
                T::FinnedFrankenSwordfish,
                T::FinnedFrankenJellyfish,
            ],
            (Shape::Mutant, false) => [T::MutantXWing, T::MutantSwordfish, T::MutantJellyfish],
            (Shape::Mutant, true) => [
                T::FinnedMutantXWing,
                T::FinnedMutantSwordfish,
                T::FinnedMutantJellyfish,
            ],
        };
        row.get(n.checked_sub(2)?).copied()
    }
}

/// The first Franken or Mutant fish (`shape`) of size `n` (2–4), finned or not, that
/// eliminates something.
///
/// `n` base houses and `n` other cover houses. Candidates in two base houses are endo fins;
/// base candidates in no cover house are fins. Unless a fin is true, each base house holds
/// the digit in a different non-fin cell, each in a different cover house; so a cover cell
/// outside the base loses the digit, and so does a base cell in two cover houses
/// (cannibalism), when it sees every fin (endo fins included). As in HoDoKu, a finned fish
/// has at most five fins and two endo fins, every base house holds at least two candidates
/// and one that is no fin, and every cover house holds a base candidate. Sizes stop at four
/// (Jellyfish): a fish of size `n` has a complementary fish of size at most `9 - n` with the
/// same eliminations, and larger ones cost far more to search.
pub fn complex(c: &Candidates, n: usize, shape: Shape, finned: bool) -> Option<Step> {
    let mut first = None;
    complex_fish(c, n, shape, finned, false, &mut |s| {
        first = Some(s);
        true
    });
    first
}

/// Calls `visit` on every fish of `shape`, size `n` and finnedness `finned` that eliminates
/// something, digit by digit, base sets in house order, then cover sets, until it returns
/// true; returns whether it did. With `kraken`, it visits instead the finned fish within
/// HoDoKu's Kraken limits that eliminate nothing themselves, each with its potential
/// eliminations (cover candidates outside the base, base candidates in two covers) as its
/// eliminations.
fn complex_fish(
    c: &Candidates,
    n: usize,
    shape: Shape,
    finned: bool,
    kraken: bool,
    visit: &mut dyn FnMut(Step) -> bool,
) -> bool {
    let Some(technique) = shape.technique(n, finned) else {
        return false;
    };
    for digit in Digit::all() {
        let with_d = c.cells_with(digit);
        let houses: [CellSet; 27] = std::array::from_fn(|i| {
            House::from_index(i).map_or(CellSet::EMPTY, |h| CellSet::house(h) & with_d)
        });
        for &(base_kinds, cover_kinds) in shape.orientations() {
            let search = Complex {
                n,
                shape,
                finned,
                technique,
                digit,
                with_d,
                houses,
                cover_kinds,
                kraken,
            };
            let bases: Vec<usize> = (0..27)
                .filter(|&i| base_kinds >> i & 1 == 1 && houses[i].len() >= 2)
                .collect();
            if search.bases(&bases, (0, CellSet::EMPTY, CellSet::EMPTY), visit) {
                return true;
            }
        }
    }
    false
}

/// One digit and orientation of a complex fish search.
struct Complex {
    n: usize,
    shape: Shape,
    finned: bool,
    technique: Technique,
    digit: Digit,
    with_d: CellSet,
    /// The digit's candidates in each house, by [`House::index`].
    houses: [CellSet; 27],
    cover_kinds: u32,
    /// Searching the fish of a Kraken fish: at most [`KRAKEN_FINS`] fins, no endo fins, fins
    /// that need not see a common cell, and no eliminations of their own.
    kraken: bool,
}

/// A partial cover set: the houses chosen, the houses no longer allowed, the base
/// candidates covered, the base candidates made fins, and the digit's candidates that see
/// every fin and endo fin (kept as fins are added, so that testing a fin is one
/// intersection).
#[derive(Clone, Copy)]
struct Covering {
    chosen: u32,
    banned: u32,
    covered: CellSet,
    fins: CellSet,
    seen: CellSet,
}

impl Complex {
    /// Chooses the base houses among `candidates` (in order); `base` is the chosen mask, its
    /// candidates and its endo fins so far. Returns whether `visit` asked to stop.
    fn bases(
        &self,
        candidates: &[usize],
        base: (u32, CellSet, CellSet),
        visit: &mut dyn FnMut(Step) -> bool,
    ) -> bool {
        let (mask, cells, endo) = base;
        let left = self.n - mask.count_ones() as usize;
        if left == 0 {
            return self.covers(mask, cells, endo, visit);
        }
        let max_endo = if self.finned && !self.kraken {
            MAX_ENDO_FINS
        } else {
            0
        };
        for (k, &i) in candidates.iter().enumerate() {
            if candidates.len() - k < left {
                break;
            }
            let endo = endo | (cells & self.houses[i]);
            let next = (mask | 1 << i, cells | self.houses[i], endo);
            if endo.len() > max_endo || !self.coverable(next.1 - endo, self.n, 0) {
                continue;
            }
            if self.bases(&candidates[k + 1..], next, visit) {
                return true;
            }
        }
        false
    }

    /// Every cover set of the base `base` with candidates `cells` and endo fins `endo`.
    fn covers(
        &self,
        base: u32,
        cells: CellSet,
        endo: CellSet,
        visit: &mut dyn FnMut(Step) -> bool,
    ) -> bool {
        if !endo.is_empty() && (endo.common_peers() & self.with_d).is_empty() {
            return false;
        }
        let touching = (0..27)
            .filter(|&i| !(self.houses[i] & cells).is_empty())
            .fold(0u32, |acc, i| acc | 1 << i);
        let allowed = self.cover_kinds & touching & !base;
        let start = Covering {
            chosen: 0,
            banned: 0,
            covered: CellSet::EMPTY,
            fins: CellSet::EMPTY,
            seen: endo.common_peers() & self.with_d,
        };
        self.cover(base, cells, endo, allowed, start, visit)
    }

    /// Takes the first base candidate neither covered nor a fin, and covers it by one of its
    /// houses or makes it a fin; no house chosen may hold a fin. A candidate is covered by
    /// the lowest chosen house holding it (houses below the one chosen for it are banned), so
    /// each cover set comes once. When every candidate is placed, the houses left to choose
    /// add cannibalism or eliminations.
    fn cover(
        &self,
        base: u32,
        cells: CellSet,
        endo: CellSet,
        allowed: u32,
        at: Covering,
        visit: &mut dyn FnMut(Step) -> bool,
    ) -> bool {
        let count = at.chosen.count_ones() as usize;
        let open = cells - endo - at.covered - at.fins;
        let Some(x) = open.first() else {
            let fill: Vec<usize> = (0..27)
                .filter(|&i| {
                    (allowed & !at.chosen & !at.banned) >> i & 1 == 1
                        && (self.houses[i] & at.fins).is_empty()
                })
                .collect();
            return first_combination_or_none(&fill, self.n - count, &mut |add| {
                let cover = add.iter().fold(at.chosen, |acc, &i| acc | 1 << i);
                self.check(base, cover, cells, (at.fins, endo), visit)
                    .then_some(())
            })
            .is_some();
        };
        if count == self.n {
            // Every cover is chosen: the open candidates can only all be fins, which is one
            // fish (the walk would make them fins one by one, to the same end).
            let fins = at.fins | open;
            let seen = open.iter().fold(at.seen, |acc, y| acc & CellSet::peers(y));
            return self.fins_allowed(fins, seen)
                && self.check(base, at.chosen, cells, (fins, endo), visit);
        }
        if !self.coverable(open, self.n - count, at.fins.len()) {
            return false;
        }
        let own = x.houses().map(House::index);
        for &i in &own {
            if (allowed & !at.banned) >> i & 1 == 0 || !(self.houses[i] & at.fins).is_empty() {
                continue;
            }
            let below = own
                .iter()
                .filter(|&&j| j < i)
                .fold(0u32, |acc, &j| acc | 1 << j);
            let next = Covering {
                chosen: at.chosen | 1 << i,
                banned: at.banned | below,
                covered: at.covered | self.houses[i],
                ..at
            };
            if self.cover(base, cells, endo, allowed, next, visit) {
                return true;
            }
        }
        let fins = at.fins | CellSet::single(x);
        let seen = at.seen & CellSet::peers(x);
        if self.fins_allowed(fins, seen) {
            let next = Covering { fins, seen, ..at };
            if self.cover(base, cells, endo, allowed, next, visit) {
                return true;
            }
        }
        false
    }

    /// Whether a finned fish may have the fins `fins`, which (with the endo fins) the
    /// digit's candidates `seen` see: at most [`Complex::max_fins`] of them, and something
    /// to eliminate unless for a Kraken fish.
    fn fins_allowed(&self, fins: CellSet, seen: CellSet) -> bool {
        self.finned && fins.len() <= self.max_fins() && (self.kraken || !seen.is_empty())
    }

    fn max_fins(&self) -> usize {
        if self.kraken {
            KRAKEN_FINS
        } else {
            MAX_FINS
        }
    }

    /// Whether `open` candidates could still be covered by `houses` more houses, with `fins`
    /// fins so far. Candidates that see none of each other need a house or a fin each; and
    /// fins all see one cell, so at most three of them see none of each other (the cell's
    /// row, column and box).
    fn coverable(&self, open: CellSet, houses: usize, fins: usize) -> bool {
        let spare = if self.finned {
            self.max_fins().saturating_sub(fins).min(3)
        } else {
            0
        };
        let (mut apart, mut rest) = (0, open);
        while let Some(x) = rest.first() {
            apart += 1;
            if apart > houses + spare {
                return false;
            }
            rest = rest - CellSet::peers(x) - CellSet::single(x);
        }
        true
    }

    /// Checks one base and cover set with its fins and endo fins, and visits its step if it
    /// eliminates something.
    fn check(
        &self,
        base: u32,
        cover: u32,
        cells: CellSet,
        (exo, endo): (CellSet, CellSet),
        visit: &mut dyn FnMut(Step) -> bool,
    ) -> bool {
        let fins = exo | endo;
        if fins.is_empty() == self.finned || Shape::of(base, cover) != self.shape {
            return false;
        }
        if bits27(base).any(|i| (self.houses[i] - fins).is_empty()) {
            return false;
        }
        let (mut once, mut twice) = (CellSet::EMPTY, CellSet::EMPTY);
        for i in bits27(cover) {
            twice |= once & self.houses[i];
            once |= self.houses[i];
        }
        let potential = ((once - cells) | (twice & cells)) - fins;
        let mut targets = potential;
        if !fins.is_empty() {
            targets &= fins.common_peers();
        }
        if self.kraken {
            if !targets.is_empty() || potential.is_empty() {
                return false;
            }
            return visit(self.step((base, cover), cells, (exo, endo), potential));
        }
        if targets.is_empty() {
            return false;
        }
        visit(self.step((base, cover), cells, (exo, endo), targets))
    }

    /// The step: base houses then cover houses, the body, fins then endo fins.
    fn step(
        &self,
        (base, cover): (u32, u32),
        cells: CellSet,
        (exo, endo): (CellSet, CellSet),
        targets: CellSet,
    ) -> Step {
        let d = self.digit;
        let fins = exo | endo;
        let mut s = Step::new(self.technique);
        s.digits = DigitSet::single(d);
        let houses = |mask: u32| bits27(mask).filter_map(House::from_index);
        s.houses = houses(base).chain(houses(cover)).collect();
        s.cells = (cells - fins).iter().collect();
        s.fins = exo.iter().chain(endo.iter()).collect();
        s.eliminations = targets.iter().map(|x| (x, d)).collect();
        let names = |mask: u32| {
            houses(mask)
                .map(|h| h.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        s.detail = format!("{d} in {} / {}", names(base), names(cover));
        for (label, set) in [("fin", exo), ("endo fin", endo)] {
            if !set.is_empty() {
                let plural = if set.len() > 1 { "s" } else { "" };
                let list: Vec<Cell> = set.iter().collect();
                s.detail
                    .push_str(&format!(", {label}{plural} {}", cell_list(&list)));
            }
        }
        s
    }
}

/// HoDoKu's default limits on the fish of a Kraken fish: basic and Franken fish of sizes 2
/// to 4 with at most two fins and no endo fins.
const KRAKEN_FINS: usize = 2;

/// Kraken Fish Type 1: a finned fish that removes nothing itself, and a candidate it would
/// remove without its fins that every fin, set true, removes along a chain. Either the fish
/// stands or a fin is true, so the candidate is false either way.
pub fn kraken_type_1(c: &Candidates) -> Option<Step> {
    kraken_first(c, Technique::KrakenFishType1, 4)
}

/// Kraken Fish Type 2: a finned fish that removes nothing itself, a cover house holding more
/// than base candidates, and a candidate that each of the cover's base candidates and each
/// fin, set true, removes along a chain. Unless a fin is true, every cover holds one true
/// base candidate (a base candidate in two covers is false), so the candidate is false.
pub fn kraken_type_2(c: &Candidates) -> Option<Step> {
    kraken_first(c, Technique::KrakenFishType2, 4)
}

/// The first Kraken fish step of `technique` whose fish has at most `max_n` base houses.
fn kraken_first(c: &Candidates, technique: Technique, max_n: usize) -> Option<Step> {
    let mut first = None;
    kraken_fish(c, technique, max_n, &mut |s| {
        first = Some(s);
        true
    });
    first
}

/// Calls `visit` on every Kraken fish step of `technique` (type 1 or 2), one per candidate
/// removed (by the first fish that removes it, as HoDoKu keeps the smallest), by size up to
/// `max_n`, basic before Franken, then digit, until it returns true.
fn kraken_fish(
    c: &Candidates,
    technique: Technique,
    max_n: usize,
    visit: &mut dyn FnMut(Step) -> bool,
) {
    let mut chains = Implications::new(c);
    let mut done = [CellSet::EMPTY; 9];
    for n in 2..=max_n {
        for shape in [Shape::Basic, Shape::Franken] {
            let stop = complex_fish(c, n, shape, true, true, &mut |fish| {
                let search = Kraken {
                    c,
                    fish: &fish,
                    n,
                    technique,
                };
                search.steps(&mut chains, &mut done, visit)
            });
            if stop {
                return;
            }
        }
    }
}

/// One fish of a Kraken search, with its potential eliminations as `fish.eliminations`.
struct Kraken<'a> {
    c: &'a Candidates,
    fish: &'a Step,
    n: usize,
    technique: Technique,
}

impl Kraken<'_> {
    /// Visits the fish's steps that remove candidates not in `done` (per digit), adding
    /// them; returns whether `visit` asked to stop.
    fn steps(
        &self,
        chains: &mut Implications,
        done: &mut [CellSet; 9],
        visit: &mut dyn FnMut(Step) -> bool,
    ) -> bool {
        let (c, fish) = (self.c, self.fish);
        let Some(d) = fish.digits.first() else {
            return false;
        };
        let fins: Vec<Cell> = fish.fins.clone();
        let body: CellSet = fish.cells.iter().copied().collect();
        let potential: CellSet = fish.eliminations.iter().map(|&(x, _)| x).collect();
        let mut found = |chains: &mut Implications, starts: &[Cell], (y, e): (Cell, Digit)| {
            if done[e.index()].contains(y) {
                return false;
            }
            done[e.index()].insert(y);
            let lines: Vec<String> = starts
                .iter()
                .filter_map(|&x| chains.chain((x, d), (y, e)))
                .collect();
            visit(kraken_step(self.technique, fish, self.n, (y, e), &lines))
        };
        if self.technique == Technique::KrakenFishType1 {
            for x in potential.iter() {
                if fins.iter().all(|&f| chains.removes((f, d), (x, d)))
                    && found(chains, &fins, (x, d))
                {
                    return true;
                }
            }
            return false;
        }
        let cannibal = potential & body;
        for &cover in &fish.houses[self.n..] {
            let in_cover = CellSet::house(cover) & c.cells_with(d);
            let base = (in_cover & body) - cannibal;
            if base == in_cover {
                // Only base candidates: a plain forcing chain on the house, not a fish.
                continue;
            }
            let starts: Vec<Cell> = base.iter().chain(fins.iter().copied()).collect();
            let start_cells: CellSet = starts.iter().copied().collect();
            for e in Digit::all() {
                let mut targets = c.cells_with(e) - start_cells;
                for &x in &starts {
                    targets &= chains.removed((x, d))[e.index()];
                }
                for y in targets.iter() {
                    if found(chains, &starts, (y, e)) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// The step of a Kraken fish removing `target`, with the chain from each start (fin or
/// cover candidate) in the chain text, where pictures read them as links.
fn kraken_step(
    technique: Technique,
    fish: &Step,
    n: usize,
    target: (Cell, Digit),
    chains: &[String],
) -> Step {
    let mut s = Step::new(technique);
    s.digits = fish.digits;
    s.digits.insert(target.1);
    s.houses = fish.houses.clone();
    s.cells = fish.cells.clone();
    s.fins = fish.fins.clone();
    s.eliminations = vec![target];
    let sashimi = fish.technique == FINNED[n - 2]
        && fish.houses[..n].iter().any(|&h| {
            fish.cells
                .iter()
                .filter(|x| CellSet::house(h).contains(**x))
                .count()
                <= 1
        });
    let kind = if sashimi {
        SASHIMI[n - 2]
    } else {
        fish.technique
    };
    s.detail = format!("{} {}", kind.name(), fish.detail);
    s.chain = Some(format!(
        "{}: {} => {}",
        s.detail,
        chains.join("; "),
        s.effects()
    ));
    s
}

/// What setting one candidate true removes along chains on the current marks: weak links
/// (a true candidate removes its peers of the digit and the cell's other digits; a true
/// group of a box/line intersection, the cells seeing all of it) alternating with strong
/// links (a false candidate or group makes the rest of a house's digit true when that is one
/// candidate or group, and a bivalue cell's other digit true). HoDoKu's Kraken chains, less
/// its optional ALS nodes. Each start is walked once, breadth first, and kept.
struct Implications {
    /// Nodes: a digit in one cell, or in two or three cells of a box/line intersection.
    nodes: Vec<(Digit, CellSet)>,
    /// The node of each candidate, by `cell * 9 + digit`.
    single: Vec<Option<usize>>,
    /// Weak links: true ⇒ false.
    weak: Vec<Vec<usize>>,
    /// Strong links: false ⇒ true.
    strong: Vec<Vec<usize>>,
    /// The walk from each start candidate, by `cell * 9 + digit`, once walked.
    walks: Vec<Option<Walk>>,
}

/// A breadth-first walk from one candidate set true.
#[derive(Clone)]
struct Walk {
    /// For each state (`node * 2 + on`), the state it was reached from; the start points to
    /// itself.
    from: Vec<Option<usize>>,
    /// The candidates reached false, per digit.
    off: [CellSet; 9],
}

impl Implications {
    fn new(c: &Candidates) -> Implications {
        let mut nodes: Vec<(Digit, CellSet)> = Vec::new();
        let mut single = vec![None; 729];
        for d in Digit::all() {
            for x in c.cells_with(d).iter() {
                single[x.index() * 9 + d.index()] = Some(nodes.len());
                nodes.push((d, CellSet::single(x)));
            }
            for (line, b) in crate::logic::crossings() {
                let g = c.cells_with_in(line, d) & CellSet::house(b);
                if g.len() >= 2 {
                    nodes.push((d, g));
                }
            }
        }
        let index: HashMap<(Digit, u128), usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, &(d, cells))| ((d, cells.bits()), i))
            .collect();
        let lookup = |d: Digit, cells: CellSet| index.get(&(d, cells.bits())).copied();
        let mut weak = vec![Vec::new(); nodes.len()];
        let mut strong = vec![Vec::new(); nodes.len()];
        for (i, &(d, a)) in nodes.iter().enumerate() {
            let seen = a.common_peers();
            for (j, &(e, b)) in nodes.iter().enumerate() {
                let same_cell = a.len() == 1 && a == b && d != e;
                if (d == e && (b - seen).is_empty() && (a & b).is_empty()) || same_cell {
                    weak[i].push(j);
                }
            }
            if let Some(x) = a.first().filter(|_| a.len() == 1) {
                let digits = c.get(x);
                if digits.len() == 2 {
                    for e in digits.iter().filter(|&e| e != d) {
                        if let Some(j) = single[x.index() * 9 + e.index()] {
                            strong[i].push(j);
                        }
                    }
                }
            }
            for h in House::all() {
                let p = c.cells_with_in(h, d);
                if (a - p).is_empty() && a != p {
                    if let Some(j) = lookup(d, p - a) {
                        if !strong[i].contains(&j) {
                            strong[i].push(j);
                        }
                    }
                }
            }
        }
        Implications {
            walks: vec![None; 729],
            nodes,
            single,
            weak,
            strong,
        }
    }

    /// The candidates that `start` set true removes, per digit.
    fn removed(&mut self, start: (Cell, Digit)) -> [CellSet; 9] {
        self.walk(start)
            .and_then(|key| self.walks[key].as_ref())
            .map_or([CellSet::EMPTY; 9], |walk| walk.off)
    }

    /// Whether `start` set true removes `target`.
    fn removes(&mut self, start: (Cell, Digit), target: (Cell, Digit)) -> bool {
        self.removed(start)[target.1.index()].contains(target.0)
    }

    /// The shortest chain from `start` true to `target` false, as implications
    /// (`r1c5=9 -> r23c6<>9 -> r4c6=9 -> r4c2<>9`).
    fn chain(&mut self, start: (Cell, Digit), target: (Cell, Digit)) -> Option<String> {
        let end = self.single[target.0.index() * 9 + target.1.index()]? * 2;
        let key = self.walk(start)?;
        let from = &self.walks[key].as_ref()?.from;
        from[end]?;
        let mut states = vec![end];
        let mut at = end;
        while let Some(previous) = from[at].filter(|&p| p != at) {
            states.push(previous);
            at = previous;
        }
        let terms: Vec<String> = states
            .iter()
            .rev()
            .map(|&state| {
                let (d, cells) = self.nodes[state / 2];
                let sign = if state % 2 == 1 { "=" } else { "<>" };
                format!("{}{sign}{d}", crate::logic::chains::cells_name(cells))
            })
            .collect();
        Some(terms.join(" -> "))
    }

    /// Walks from `start` true once (predecessors of each state, and what it removes), and
    /// returns where the walk is kept in `walks`.
    fn walk(&mut self, start: (Cell, Digit)) -> Option<usize> {
        let key = start.0.index() * 9 + start.1.index();
        let node = self.single[key]?;
        if self.walks[key].is_none() {
            let mut from = vec![None; self.nodes.len() * 2];
            let mut off = [CellSet::EMPTY; 9];
            let first = node * 2 + 1;
            from[first] = Some(first);
            let mut queue = std::collections::VecDeque::from([first]);
            while let Some(state) = queue.pop_front() {
                let (i, on) = (state / 2, state % 2 == 1);
                let next = if on { &self.weak[i] } else { &self.strong[i] };
                for &j in next {
                    let to = j * 2 + usize::from(!on);
                    if from[to].is_none() {
                        from[to] = Some(state);
                        queue.push_back(to);
                        let (d, cells) = self.nodes[j];
                        if on && cells.len() == 1 {
                            off[d.index()] |= cells;
                        }
                    }
                }
            }
            self.walks[key] = Some(Walk { from, off });
        }
        Some(key)
    }
}

/// The set bits of a mask over the 27 houses.
fn bits27(mask: u32) -> impl Iterator<Item = usize> {
    (0..27).filter(move |i| mask >> i & 1 == 1)
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashMap};

    use proptest::prelude::*;

    use super::*;
    use crate::grid::Grid;
    use crate::logic::testutil::{
        cell, check_search, elims, only_digit_in, random_position, sweep, unique_puzzles,
    };

    /// The kinds of house a reference fish may take its base and cover houses from.
    fn kinds(shape: Shape) -> Vec<(Vec<House>, Vec<House>)> {
        let of = |kind: fn(u8) -> House| (0..9).map(kind).collect::<Vec<_>>();
        let (rows, columns, boxes) = (of(House::Row), of(House::Column), of(House::Box));
        let join = |a: &[House], b: &[House]| [a, b].concat();
        match shape {
            Shape::Basic => vec![(rows.clone(), columns.clone()), (columns, rows)],
            Shape::Franken => vec![
                (join(&rows, &boxes), join(&columns, &boxes)),
                (join(&columns, &boxes), join(&rows, &boxes)),
            ],
            Shape::Mutant => {
                let all = [rows, columns, boxes].concat();
                vec![(all.clone(), all)]
            }
        }
    }

    /// The shape of a fish, from the kinds of its houses.
    fn shape_of(base: &[House], cover: &[House]) -> Shape {
        let all = |set: &[House], ok: fn(&House) -> bool| set.iter().all(ok);
        let row = |h: &House| matches!(h, House::Row(_));
        let column = |h: &House| matches!(h, House::Column(_));
        let row_or_box = |h: &House| matches!(h, House::Row(_) | House::Box(_));
        let column_or_box = |h: &House| matches!(h, House::Column(_) | House::Box(_));
        if all(base, row) && all(cover, column) || all(base, column) && all(cover, row) {
            Shape::Basic
        } else if all(base, row_or_box) && all(cover, column_or_box)
            || all(base, column_or_box) && all(cover, row_or_box)
        {
            Shape::Franken
        } else {
            Shape::Mutant
        }
    }

    /// The eliminations of every fish of `shape` and size `n`, finned or not, straight from
    /// the definition: every `n` base houses with two candidates or more, every `n` other
    /// houses each holding a base candidate as cover; endo fins (candidates in two base
    /// houses) and fins (base candidates in no cover) within the limits, a non-fin candidate
    /// in every base house; then every candidate of a cover that is no fin, lies outside the
    /// base or in two covers, and sees every fin.
    fn reference(
        c: &Candidates,
        n: usize,
        shape: Shape,
        finned: bool,
        limits: (usize, usize),
    ) -> BTreeSet<(Cell, Digit)> {
        reference_fish(c, n, shape, finned, limits)
            .into_iter()
            .flat_map(|f| f.eliminations)
            .collect()
    }

    /// A fish of the reference: digit, base and cover houses, base candidates, fins (endo
    /// fins included), what it would remove without fins, and what it removes.
    struct Fish {
        digit: Digit,
        base: Vec<House>,
        cover: Vec<House>,
        cells: CellSet,
        fins: CellSet,
        potential: CellSet,
        eliminations: BTreeSet<(Cell, Digit)>,
    }

    /// Every fish the reference's definition admits, eliminating something or not.
    fn reference_fish(
        c: &Candidates,
        n: usize,
        shape: Shape,
        finned: bool,
        (max_fins, max_endo): (usize, usize),
    ) -> Vec<Fish> {
        let mut out = Vec::new();
        for d in Digit::all() {
            let with = |h: &House| CellSet::house(*h) & c.cells_with(d);
            // How many of `houses` hold `x`.
            let count =
                |houses: &[House], x: Cell| houses.iter().filter(|h| with(h).contains(x)).count();
            for (base_kinds, cover_kinds) in kinds(shape) {
                let bases: Vec<House> = base_kinds
                    .into_iter()
                    .filter(|h| with(h).len() >= 2)
                    .collect();
                first_combination(&bases, n, &mut |base| {
                    let cells = base.iter().fold(CellSet::EMPTY, |acc, h| acc | with(h));
                    let endo: CellSet = cells.iter().filter(|&x| count(base, x) > 1).collect();
                    if endo.len() > max_endo {
                        return None::<()>;
                    }
                    let covers: Vec<House> = cover_kinds
                        .iter()
                        .copied()
                        .filter(|h| !base.contains(h) && !(with(h) & cells).is_empty())
                        .collect();
                    first_combination(&covers, n, &mut |cover| {
                        let exo: CellSet = (cells - endo)
                            .iter()
                            .filter(|&x| count(cover, x) == 0)
                            .collect();
                        let fins = exo | endo;
                        if exo.len() > max_fins
                            || fins.is_empty() == finned
                            || shape_of(base, cover) != shape
                            || base.iter().any(|h| (with(h) - fins).is_empty())
                        {
                            return None::<()>;
                        }
                        let potential: CellSet = c
                            .cells_with(d)
                            .iter()
                            .filter(|&x| {
                                count(cover, x) > 0
                                    && !fins.contains(x)
                                    && (!cells.contains(x) || count(cover, x) > 1)
                            })
                            .collect();
                        out.push(Fish {
                            digit: d,
                            base: base.to_vec(),
                            cover: cover.to_vec(),
                            cells,
                            fins,
                            potential,
                            eliminations: potential
                                .iter()
                                .filter(|&x| fins.iter().all(|f| x.sees(f)))
                                .map(|x| (x, d))
                                .collect(),
                        });
                        None
                    });
                    None
                });
            }
        }
        out
    }

    /// Every complex fish the search finds, in order.
    fn complex_all(c: &Candidates, n: usize, shape: Shape, finned: bool) -> Vec<Step> {
        let mut all = Vec::new();
        complex_fish(c, n, shape, finned, false, &mut |s| {
            all.push(s);
            false
        });
        all
    }

    /// Every basic fish of size `n`, finned (finned and sashimi) or not.
    fn basic_all(c: &Candidates, n: usize, finned: bool) -> Vec<Step> {
        let mut all = Vec::new();
        let mut push = |s| {
            all.push(s);
            None::<()>
        };
        if finned {
            finned_fish(c, n, false, &mut push);
            finned_fish(c, n, true, &mut push);
        } else {
            basic_fish(c, n, &mut push);
        }
        all
    }

    /// The limits of the fish of `shape`: HoDoKu's for Franken and Mutant fish, none for the
    /// basic ones (whose fins the search confines to one box, where eliminations need them).
    fn limits(shape: Shape) -> (usize, usize) {
        match shape {
            Shape::Basic => (81, 0),
            _ => (MAX_FINS, MAX_ENDO_FINS),
        }
    }

    fn found(c: &Candidates, n: usize, shape: Shape, finned: bool) -> Vec<Step> {
        match shape {
            Shape::Basic => basic_all(c, n, finned),
            _ => complex_all(c, n, shape, finned),
        }
    }

    /// Counts the steps with endo fins and those that remove a base candidate
    /// (cannibalism), so that the sweeps show they met both.
    fn tally(steps: &[Step], endo: &std::cell::Cell<usize>, cannibal: &std::cell::Cell<usize>) {
        for s in steps {
            endo.set(endo.get() + usize::from(s.detail.contains("endo fin")));
            let eats = s.eliminations.iter().any(|(x, _)| s.cells.contains(x));
            cannibal.set(cannibal.get() + usize::from(eats));
        }
    }

    /// Every family of fish on a fixed sweep of positions: the search finds exactly the
    /// reference's eliminations (Mutant Jellyfish excepted: on every digit its reference
    /// would take minutes a position; [`random_positions_hold_mutant_jellyfish`] checks it
    /// on the digits of few candidates), and the positions hold such fish, endo fins and
    /// cannibalism among them.
    #[test]
    fn random_positions_hold_every_fish_family() {
        let (endo, cannibal) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
        for shape in [Shape::Basic, Shape::Franken, Shape::Mutant] {
            for n in 2..=4 {
                for finned in [false, true] {
                    let count = match (shape, n) {
                        (Shape::Mutant, 4) => continue,
                        (Shape::Mutant, 3) | (_, 4) => 10,
                        _ => 30,
                    };
                    let search = |c: &Candidates| {
                        let all = found(c, n, shape, finned);
                        tally(&all, &endo, &cannibal);
                        all
                    };
                    let reference = |c: &Candidates| reference(c, n, shape, finned, limits(shape));
                    let positions = sweep(count, (20, 60), search, reference);
                    assert!(
                        positions > count / 3,
                        "{shape:?} {n} finned {finned}: only {positions} positions"
                    );
                }
            }
        }
        let (endo, cannibal) = (endo.get(), cannibal.get());
        assert!(
            endo > 0 && cannibal > 0,
            "{endo} endo fins, {cannibal} cannibals"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Franken and Mutant X-Wings and Franken Swordfish, finned or not: the search finds
        /// exactly the reference's eliminations, the finder gives the first, and no step
        /// removes the solution.
        #[test]
        fn complex_fish_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..85,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            for (shape, n) in [(Shape::Franken, 2), (Shape::Franken, 3), (Shape::Mutant, 2)] {
                check_complex(&c, n, shape, &solution)?;
            }
        }
    }

    /// The complex fish of `shape` and size `n` on `c`, finned or not: the search finds
    /// exactly the reference's eliminations, the finder gives the first, and no step removes
    /// the solution.
    fn check_complex(
        c: &Candidates,
        n: usize,
        shape: Shape,
        solution: &Grid,
    ) -> Result<(), TestCaseError> {
        for finned in [false, true] {
            let all = complex_all(c, n, shape, finned);
            let reference = reference(c, n, shape, finned, limits(shape));
            check_search(&all, complex(c, n, shape, finned), &reference, solution)?;
        }
        Ok(())
    }

    /// The most candidates a digit may hold for the Mutant Jellyfish reference to run on it:
    /// every four of up to 27 base houses against every four of the houses they touch takes
    /// up to a tenth of a second on a digit of 14 candidates, a second on one of 20, and it
    /// grows fast beyond.
    const MUTANT_JELLYFISH_CANDIDATES: usize = 14;

    /// `c` with the candidates of every digit holding more than `most` erased. A fish sees
    /// only its digit's candidates, so the fish of the digits kept are exactly those of `c`.
    fn few_candidate_digits(c: &Candidates, most: usize) -> Candidates {
        let mut kept = c.clone();
        for d in Digit::all().filter(|&d| c.cells_with(d).len() > most) {
            for x in c.cells_with(d).iter() {
                kept.eliminate(x, d);
            }
        }
        kept
    }

    /// Mutant Jellyfish, finned or not, on a fixed sweep of positions, on the digits of at
    /// most [`MUTANT_JELLYFISH_CANDIDATES`] candidates: the search finds exactly the
    /// reference's eliminations, and the positions hold such fish, with endo fins and
    /// cannibalism among them.
    #[test]
    fn random_positions_hold_mutant_jellyfish() {
        let (endo, cannibal) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
        for finned in [false, true] {
            let search = |c: &Candidates| {
                let c = few_candidate_digits(c, MUTANT_JELLYFISH_CANDIDATES);
                let all = complex_all(&c, 4, Shape::Mutant, finned);
                tally(&all, &endo, &cannibal);
                all
            };
            let reference = |c: &Candidates| {
                let c = few_candidate_digits(c, MUTANT_JELLYFISH_CANDIDATES);
                reference(&c, 4, Shape::Mutant, finned, limits(Shape::Mutant))
            };
            let positions = sweep(12, (40, 40), search, reference);
            assert!(positions > 4, "finned {finned}: only {positions} positions");
        }
        let (endo, cannibal) = (endo.get(), cannibal.get());
        assert!(
            endo > 0 && cannibal > 0,
            "{endo} endo fins, {cannibal} cannibals"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// Mutant Jellyfish, finned or not, on the digits of at most
        /// [`MUTANT_JELLYFISH_CANDIDATES`] candidates: the search finds exactly the
        /// reference's eliminations, the finder gives the first, and no step removes the
        /// solution.
        #[test]
        fn mutant_jellyfish_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 30u64..90,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let c = few_candidate_digits(&c, MUTANT_JELLYFISH_CANDIDATES);
            check_complex(&c, 4, Shape::Mutant, &solution)?;
        }
    }

    #[test]
    fn franken_x_wing_mixes_a_row_and_a_box() {
        // Row 1 holds 7 in c2 and c5, box 5 only in column 5: columns 2 and 5 cover both.
        let c = only_digit_in(&[(1, 2), (1, 5), (4, 5), (5, 5), (7, 2), (8, 5), (3, 6)], 7);
        assert!(basic(&c, 2).is_none());
        let s = complex(&c, 2, Shape::Franken, false).unwrap();
        assert_eq!(s.technique, Technique::FrankenXWing);
        assert_eq!(elims(&s), vec![(7, 2, 7), (8, 5, 7)]);
        assert_eq!(
            s.to_string(),
            "Franken X-Wing: 7 in row 1, box 5 / column 2, column 5 => r7c2<>7, r8c5<>7"
        );
    }

    #[test]
    fn mutant_x_wing_bases_a_row_and_a_column_on_boxes() {
        // Row 1 holds 3 only in box 1, column 9 only in box 6.
        let c = only_digit_in(&[(1, 2), (1, 3), (5, 9), (6, 9), (2, 1), (4, 8)], 3);
        let s = complex(&c, 2, Shape::Mutant, false).unwrap();
        assert_eq!(s.technique, Technique::MutantXWing);
        assert_eq!(
            s.houses,
            vec![
                House::Row(0),
                House::Column(8),
                House::Box(0),
                House::Box(5)
            ]
        );
        assert_eq!(elims(&s), vec![(2, 1, 3), (4, 8, 3)]);
        assert!(s.fins.is_empty());
    }

    #[test]
    fn x_wing_on_rows() {
        // 5 in rows 2 and 6 only in columns 3 and 7.
        let c = only_digit_in(
            &[
                (2, 3),
                (2, 7),
                (6, 3),
                (6, 7),
                (1, 3),
                (8, 7),
                (9, 3),
                (4, 1),
                (5, 9),
            ],
            5,
        );
        let s = basic(&c, 2).unwrap();
        assert_eq!(elims(&s), vec![(1, 3, 5), (8, 7, 5), (9, 3, 5)]);
        assert_eq!(
            s.to_string(),
            "X-Wing: 5 in row 2, row 6 / column 3, column 7 => r1c3<>5, r8c7<>5, r9c3<>5"
        );
        assert_eq!(s.cells.len(), 4);
    }

    #[test]
    fn swordfish_on_columns_with_a_two_two_two_shape() {
        // Columns 1, 4, 8 hold 3 only in rows 2, 5, 9 (two cells each).
        let c = only_digit_in(
            &[
                (2, 1),
                (5, 1),
                (5, 4),
                (9, 4),
                (2, 8),
                (9, 8),
                (2, 5),
                (5, 6),
                (9, 2),
                (7, 3),
            ],
            3,
        );
        assert!(basic(&c, 2).is_none());
        let s = basic(&c, 3).unwrap();
        assert_eq!(s.technique, Technique::Swordfish);
        assert_eq!(elims(&s), vec![(2, 5, 3), (5, 6, 3), (9, 2, 3)]);
    }

    #[test]
    fn jellyfish_on_rows() {
        let body = [
            (1, 1),
            (1, 3),
            (3, 3),
            (3, 5),
            (5, 5),
            (5, 8),
            (8, 8),
            (8, 1),
        ];
        let mut cells: Vec<(usize, usize)> = body.to_vec();
        cells.extend([(2, 1), (6, 3), (9, 5), (4, 8), (7, 9)]);
        let c = only_digit_in(&cells, 9);
        assert!(basic(&c, 3).is_none());
        let s = basic(&c, 4).unwrap();
        assert_eq!(elims(&s), vec![(2, 1, 9), (4, 8, 9), (6, 3, 9), (9, 5, 9)]);
    }

    #[test]
    fn finned_x_wing_eliminates_only_in_the_fin_box() {
        // Rows 1 and 5: 4 at c2, c8; row 1 also at c9 (fin, box 3). Column 8 has 4 at r2, r3
        // (box 3) and r8: only the box-3 cells see the fin.
        let c = only_digit_in(
            &[
                (1, 2),
                (1, 8),
                (1, 9),
                (5, 2),
                (5, 8),
                (2, 8),
                (3, 8),
                (8, 8),
                (7, 2),
                (4, 5),
            ],
            4,
        );
        assert!(basic(&c, 2).is_none());
        assert!(finned(&c, 2, true).is_none());
        let s = finned(&c, 2, false).unwrap();
        assert_eq!(s.technique, Technique::FinnedXWing);
        assert_eq!(elims(&s), vec![(2, 8, 4), (3, 8, 4)]);
        assert_eq!(s.fins, vec![cell(1, 9)]);
        assert_eq!(
            s.to_string(),
            "Finned X-Wing: 4 in row 1, row 5 / column 2, column 8, fin r1c9 => r2c8<>4, r3c8<>4"
        );
    }

    #[test]
    fn sashimi_x_wing_lacks_a_body_cell() {
        // Row 5: 6 at c2, c8. Row 1: 6 at c2 and fins c7, c9 (box 3), not c8.
        // Column 8 holds 6 at r2 (box 3) and r9; only r2c8 sees both fins.
        let c = only_digit_in(
            &[
                (1, 2),
                (1, 7),
                (1, 9),
                (5, 2),
                (5, 8),
                (2, 8),
                (9, 8),
                (8, 2),
                (6, 5),
            ],
            6,
        );
        assert!(finned(&c, 2, false).is_none());
        let s = finned(&c, 2, true).unwrap();
        assert_eq!(s.technique, Technique::SashimiXWing);
        assert_eq!(elims(&s), vec![(2, 8, 6)]);
    }

    /// Every Siamese fish the search finds, in order.
    fn siamese_all(c: &Candidates, n: usize, sashimi: bool) -> Vec<Step> {
        let mut all = Vec::new();
        siamese_fish(c, n, sashimi, &mut |s| {
            all.push(s);
            None::<()>
        });
        all
    }

    /// Siamese fish from the definition: pairs of the reference's basic finned fish of one
    /// kind (sashimi when a base line holds one candidate besides the fins) on one digit,
    /// with the same base and different covers, each removing something the other does not.
    fn siamese_reference(c: &Candidates, n: usize, sashimi: bool) -> BTreeSet<(Cell, Digit)> {
        let fish: Vec<Fish> = reference_fish(c, n, Shape::Basic, true, (81, 0))
            .into_iter()
            .filter(|f| {
                let thin = f
                    .base
                    .iter()
                    .any(|&h| ((CellSet::house(h) & c.cells_with(f.digit)) - f.fins).len() <= 1);
                !f.eliminations.is_empty() && thin == sashimi
            })
            .collect();
        let mut out = BTreeSet::new();
        for (i, a) in fish.iter().enumerate() {
            for b in &fish[i + 1..] {
                if a.digit == b.digit
                    && a.base == b.base
                    && a.cover != b.cover
                    && !a.eliminations.is_subset(&b.eliminations)
                    && !b.eliminations.is_subset(&a.eliminations)
                {
                    out.extend(a.eliminations.iter().chain(&b.eliminations));
                }
            }
        }
        out
    }

    /// Every Kraken step of `technique` with fish of at most `max_n` base houses, in order.
    fn kraken_all(c: &Candidates, technique: Technique, max_n: usize) -> Vec<Step> {
        let mut all = Vec::new();
        kraken_fish(c, technique, max_n, &mut |s| {
            all.push(s);
            false
        });
        all
    }

    /// The nodes of chains: every candidate, and every digit's two or three candidates in a
    /// box/line intersection.
    fn chain_nodes(c: &Candidates) -> Vec<(Digit, CellSet)> {
        let mut nodes = Vec::new();
        for d in Digit::all() {
            nodes.extend(c.cells_with(d).iter().map(|x| (d, CellSet::single(x))));
            for b in 0..9 {
                for line in House::all().filter(|h| !matches!(h, House::Box(_))) {
                    let g = c.cells_with_in(line, d) & CellSet::house(House::Box(b));
                    if g.len() >= 2 {
                        nodes.push((d, g));
                    }
                }
            }
        }
        nodes
    }

    /// The candidates `start` set true makes false, straight from the definitions of the
    /// links: a true node makes false every node of its digit whose cells all see all of its
    /// cells, and its cell's other digits; a false node makes true the rest of a house's
    /// digit when that is a node, and a bivalue cell's other digit.
    fn reference_removed(
        c: &Candidates,
        nodes: &[(Digit, CellSet)],
        start: (Cell, Digit),
    ) -> BTreeSet<(Cell, Digit)> {
        let weak = |(d, a): (Digit, CellSet), (e, b): (Digit, CellSet)| {
            if d == e {
                (a & b).is_empty() && b.iter().all(|y| a.iter().all(|x| x.sees(y)))
            } else {
                a.len() == 1 && a == b
            }
        };
        let strong = |(d, a): (Digit, CellSet), (e, b): (Digit, CellSet)| {
            if d == e {
                let first = a.first().expect("a node has cells");
                (a & b).is_empty()
                    && first
                        .houses()
                        .iter()
                        .any(|&h| c.cells_with_in(h, d) == a | b)
            } else {
                let x = a.first().expect("a node has cells");
                a.len() == 1 && a == b && c.get(x).len() == 2
            }
        };
        let mut on = vec![(start.1, CellSet::single(start.0))];
        let mut off: Vec<(Digit, CellSet)> = Vec::new();
        let (mut next_on, mut next_off) = (0, 0);
        while next_on < on.len() || next_off < off.len() {
            if next_on < on.len() {
                let a = on[next_on];
                next_on += 1;
                for &b in nodes {
                    if weak(a, b) && !off.contains(&b) {
                        off.push(b);
                    }
                }
            } else {
                let a = off[next_off];
                next_off += 1;
                for &b in nodes {
                    if strong(a, b) && !on.contains(&b) {
                        on.push(b);
                    }
                }
            }
        }
        off.into_iter()
            .filter(|(_, cells)| cells.len() == 1)
            .filter_map(|(d, cells)| Some((cells.first()?, d)))
            .collect()
    }

    /// Kraken eliminations from the definition: every basic and Franken fish of size up to
    /// `max_n` with one or two fins, no endo fins, nothing removed by itself but something
    /// it would remove without fins. Type 1: such a candidate every fin removes. Type 2: a
    /// candidate that each fin and each base candidate of one cover (not all of whose
    /// candidates are base candidates) removes, cannibal candidates left out.
    fn kraken_reference(c: &Candidates, max_n: usize) -> [BTreeSet<(Cell, Digit)>; 2] {
        let nodes = chain_nodes(c);
        let mut memo: HashMap<(Cell, Digit), BTreeSet<(Cell, Digit)>> = HashMap::new();
        let mut removes = |start: (Cell, Digit), target: (Cell, Digit)| {
            memo.entry(start)
                .or_insert_with(|| reference_removed(c, &nodes, start))
                .contains(&target)
        };
        let mut out = [BTreeSet::new(), BTreeSet::new()];
        for n in 2..=max_n {
            for shape in [Shape::Basic, Shape::Franken] {
                for f in reference_fish(c, n, shape, true, (KRAKEN_FINS, 0)) {
                    if !f.eliminations.is_empty() || f.potential.is_empty() {
                        continue;
                    }
                    let d = f.digit;
                    let body = f.cells - f.fins;
                    for x in f.potential.iter() {
                        if f.fins.iter().all(|fin| removes((fin, d), (x, d))) {
                            out[0].insert((x, d));
                        }
                    }
                    let cannibal = f.potential & body;
                    for &h in &f.cover {
                        let in_cover = CellSet::house(h) & c.cells_with(d);
                        let base = (in_cover & body) - cannibal;
                        if base == in_cover {
                            continue;
                        }
                        let starts = base | f.fins;
                        for y in Cell::all().filter(|&y| !starts.contains(y)) {
                            for e in c.get(y).iter() {
                                if starts.iter().all(|s| removes((s, d), (y, e))) {
                                    out[1].insert((y, e));
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Siamese fish on a fixed sweep of positions: the search finds exactly the reference's
    /// eliminations, and the positions hold both kinds.
    #[test]
    fn random_positions_hold_siamese_fish() {
        for sashimi in [false, true] {
            let mut positions = 0;
            for n in 2..=4 {
                let count = if n == 4 { 10 } else { 30 };
                positions += sweep(
                    count,
                    (20, 60),
                    |c| siamese_all(c, n, sashimi),
                    |c| siamese_reference(c, n, sashimi),
                );
            }
            assert!(
                positions > 2,
                "sashimi {sashimi}: only {positions} positions"
            );
        }
    }

    /// Kraken fish up to Swordfish on a fixed sweep of positions: the search finds exactly
    /// the reference's eliminations, and the positions hold both types.
    #[test]
    fn random_positions_hold_kraken_fish() {
        let mut positions = [0, 0];
        for index in 0..10 {
            let drop = 20 + index as u64 % 60;
            let (c, _) = random_position(index, index % 30, drop, index as u64);
            let reference = kraken_reference(&c, 3);
            for (k, technique) in [Technique::KrakenFishType1, Technique::KrakenFishType2]
                .into_iter()
                .enumerate()
            {
                let found: BTreeSet<(Cell, Digit)> = kraken_all(&c, technique, 3)
                    .into_iter()
                    .flat_map(|s| s.eliminations)
                    .collect();
                assert_eq!(found, reference[k], "{technique} on {c}");
                positions[k] += usize::from(!found.is_empty());
            }
        }
        assert!(positions[0] > 2 && positions[1] > 2, "{positions:?}");
    }

    /// The finned finder answers from the Siamese search's list only for the position, size
    /// and kind listed: on the same position as its own search, on another as that one's.
    #[test]
    fn finned_fish_read_the_siamese_list_only_for_its_position() {
        let mut listed = 0;
        for index in 0..40 {
            let (c, _) = random_position(index, index % 30, 40 + index as u64, index as u64);
            let (other, _) = random_position(index + 500, 10, 50, index as u64);
            for n in 2..=4 {
                for sashimi in [false, true] {
                    let fresh = finned_fish(&c, n, sashimi, &mut Some);
                    siamese(&c, n, sashimi);
                    assert_eq!(finned(&c, n, sashimi), fresh, "{c}");
                    listed += usize::from(fresh.is_some());
                    siamese(&other, n, sashimi);
                    assert_eq!(finned(&c, n, sashimi), fresh, "{c} after {other}");
                    siamese(&c, n, !sashimi);
                    assert_eq!(finned(&c, n, sashimi), fresh, "{c}, the other kind listed");
                }
            }
        }
        assert!(listed > 20, "{listed} finned fish");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]

        /// Siamese fish: the search finds exactly the reference's eliminations, the finder
        /// gives the first, and no step removes the solution.
        #[test]
        fn siamese_fish_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..85,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            for n in 2..=3 {
                for sashimi in [false, true] {
                    let all = siamese_all(&c, n, sashimi);
                    let reference = siamese_reference(&c, n, sashimi);
                    check_search(&all, siamese(&c, n, sashimi), &reference, &solution)?;
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(8))]

        /// Kraken fish up to Swordfish: the search finds exactly the reference's
        /// eliminations, the finder gives the first, and no step removes the solution.
        #[test]
        fn kraken_fish_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..85,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let reference = kraken_reference(&c, 3);
            for (k, technique) in [Technique::KrakenFishType1, Technique::KrakenFishType2]
                .into_iter()
                .enumerate()
            {
                let all = kraken_all(&c, technique, 3);
                check_search(&all, kraken_first(&c, technique, 3), &reference[k], &solution)?;
            }
        }
    }

    #[test]
    fn kraken_fish_type_1_of_the_forum_sashimi_x_wing() {
        // HoDoKu's step quoted at http://forum.enjoysudoku.com/where-do-i-go-from-here-t6638-15.html:
        // "Kraken Fish Type 1: => r4c2<>9, Sashimi X-Wing: 9 r16 c27 fr1c5 fr6c3,
        // r1c5 -9- r23c6 =9= r4c6 -9- r4c2, r6c3 -9- r4c2" (its marks, placed cells as digits).
        let marks = "4 159 2 6 159 3 159 7 8 \
                     8 159 19 12459 7 1249 3 6 145 \
                     6 3 7 1459 8 149 2 49 145 \
                     37 19 6 13459 13459 149 1579 8 2 \
                     37 2 8 1359 1359 6 1579 49 145 \
                     5 4 19 8 2 7 19 3 6 \
                     9 6 45 1234 134 124 8 15 7 \
                     1 8 3 7 6 5 4 2 9 \
                     2 7 45 149 149 8 6 15 3";
        let c = Candidates::from_pencil_marks(marks).unwrap();
        let all = kraken_all(&c, Technique::KrakenFishType1, 4);
        let step = all
            .iter()
            .find(|s| s.fins == vec![cell(1, 5), cell(6, 3)] && elims(s) == vec![(4, 2, 9)])
            .expect("the forum's Kraken fish");
        assert_eq!(
            step.houses,
            vec![
                House::Row(0),
                House::Row(5),
                House::Column(1),
                House::Column(6)
            ]
        );
        assert_eq!(
            step.to_string(),
            "Kraken Fish Type 1: Sashimi X-Wing 9 in row 1, row 6 / column 2, column 7, \
             fins r1c5,r6c3: r1c5=9 -> r23c6<>9 -> r4c6=9 -> r4c2<>9; r6c3=9 -> r4c2<>9 \
             => r4c2<>9"
        );
        let links = crate::links::links(step.chain.as_deref().unwrap());
        assert_eq!(links.len(), 4);
        assert_eq!(links.iter().filter(|l| l.strong).count(), 1);
    }

    #[test]
    fn siamese_finned_x_wing_joins_two_covers_of_one_base() {
        // HoDoKu's Siamese fish (FishSolver.findSiameseFish in hobiwan's HoDoKu source,
        // https://sourceforge.net/projects/hodoku/): rows 1 and 2 hold 4 in column 2 and in
        // c8, c9 of box 3. Covers c2, c8 (fins r1c9, r2c9) remove r3c8; covers c2, c9 (fins
        // r1c8, r2c8) remove r3c9.
        let c = only_digit_in(
            &[
                (1, 2),
                (1, 8),
                (1, 9),
                (2, 2),
                (2, 8),
                (2, 9),
                (3, 5),
                (3, 8),
                (3, 9),
                (4, 1),
                (5, 3),
                (6, 4),
                (7, 6),
                (8, 7),
                (9, 5),
            ],
            4,
        );
        let s = siamese(&c, 2, false).unwrap();
        assert_eq!(s.technique, Technique::SiameseFinnedXWing);
        assert_eq!(elims(&s), vec![(3, 8, 4), (3, 9, 4)]);
        assert_eq!(
            s.to_string(),
            "Siamese Finned X-Wing: 4 in row 1, row 2 / column 2, column 8 / column 2, column 9, \
             fins r1c8,r1c9,r2c8,r2c9 => r3c8<>4, r3c9<>4"
        );
        assert!(siamese(&c, 2, true).is_none());
    }

    /// The first puzzles of the magictour collection, explained with the standard order up
    /// to the forcing chains and then the Kraken fish: no step removes a digit of the
    /// solution, and the new fish take steps.
    #[test]
    fn real_solves_take_sound_siamese_and_kraken_steps() {
        use crate::logic::{Engine, TechniqueSet, STANDARD_ORDER};
        let end = STANDARD_ORDER
            .iter()
            .position(|&t| t == Technique::NishioForcingChain)
            .expect("the forcing chains are in the order");
        let kraken = [Technique::KrakenFishType1, Technique::KrakenFishType2];
        let set = STANDARD_ORDER[..end].iter().chain(&kraken).copied();
        let engine = Engine::new(TechniqueSet::new(set));
        let mut taken = 0;
        for (puzzle, solution) in unique_puzzles().iter().take(40) {
            for step in engine.explain(puzzle).steps {
                for &(x, dg) in &step.eliminations {
                    assert_ne!(solution.get(x), Some(dg), "{step} on {puzzle}");
                }
                let name = step.technique.name();
                taken += usize::from(name.starts_with("Siamese") || name.starts_with("Kraken"));
            }
        }
        assert!(taken > 0, "no Siamese or Kraken step");
    }
}
