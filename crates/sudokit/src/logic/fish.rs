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
    finned_fish(c, n, sashimi, &mut Some)
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
    complex_fish(c, n, shape, finned, &mut |s| {
        first = Some(s);
        true
    });
    first
}

/// Calls `visit` on every fish of `shape`, size `n` and finnedness `finned` that eliminates
/// something, digit by digit, base sets in house order, then cover sets, until it returns
/// true.
fn complex_fish(
    c: &Candidates,
    n: usize,
    shape: Shape,
    finned: bool,
    visit: &mut dyn FnMut(Step) -> bool,
) {
    let Some(technique) = shape.technique(n, finned) else {
        return;
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
            };
            let bases: Vec<usize> = (0..27)
                .filter(|&i| base_kinds >> i & 1 == 1 && houses[i].len() >= 2)
                .collect();
            if search.bases(&bases, (0, CellSet::EMPTY, CellSet::EMPTY), visit) {
                return;
            }
        }
    }
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
}

/// A partial cover set: the houses chosen, the houses no longer allowed, the base
/// candidates covered and the base candidates made fins.
#[derive(Clone, Copy)]
struct Covering {
    chosen: u32,
    banned: u32,
    covered: CellSet,
    fins: CellSet,
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
        let max_endo = if self.finned { MAX_ENDO_FINS } else { 0 };
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
        let Some(x) = (cells - endo - at.covered - at.fins).first() else {
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
        if !self.coverable(
            cells - endo - at.covered - at.fins,
            self.n - count,
            at.fins.len(),
        ) {
            return false;
        }
        if count < self.n {
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
                    fins: at.fins,
                };
                if self.cover(base, cells, endo, allowed, next, visit) {
                    return true;
                }
            }
        }
        let fins = at.fins | CellSet::single(x);
        if self.finned
            && fins.len() <= MAX_FINS
            && !((fins | endo).common_peers() & self.with_d).is_empty()
        {
            let next = Covering { fins, ..at };
            if self.cover(base, cells, endo, allowed, next, visit) {
                return true;
            }
        }
        false
    }

    /// Whether `open` candidates could still be covered by `houses` more houses, with `fins`
    /// fins so far. Candidates that see none of each other need a house or a fin each; and
    /// fins all see one cell, so at most three of them see none of each other (the cell's
    /// row, column and box).
    fn coverable(&self, open: CellSet, houses: usize, fins: usize) -> bool {
        let spare = if self.finned {
            MAX_FINS.saturating_sub(fins).min(3)
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
        let mut targets = ((once - cells) | (twice & cells)) - fins;
        if !fins.is_empty() {
            targets &= fins.common_peers();
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

/// The set bits of a mask over the 27 houses.
fn bits27(mask: u32) -> impl Iterator<Item = usize> {
    (0..27).filter(move |i| mask >> i & 1 == 1)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::logic::testutil::{
        cell, check_search, elims, only_digit_in, random_position, sweep,
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
        (max_fins, max_endo): (usize, usize),
    ) -> BTreeSet<(Cell, Digit)> {
        let mut out = BTreeSet::new();
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
                        for x in c.cells_with(d).iter() {
                            let removable = count(cover, x) > 0
                                && !fins.contains(x)
                                && (!cells.contains(x) || count(cover, x) > 1)
                                && fins.iter().all(|f| x.sees(f));
                            if removable {
                                out.insert((x, d));
                            }
                        }
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
        complex_fish(c, n, shape, finned, &mut |s| {
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

    /// Every family of fish on a fixed sweep of positions: the search finds exactly the
    /// reference's eliminations (Mutant Jellyfish excepted: its reference would take minutes
    /// a position), and the positions hold such fish, endo fins and cannibalism among them.
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
                        for s in &all {
                            endo.set(endo.get() + usize::from(s.detail.contains("endo fin")));
                            let eats = s.eliminations.iter().any(|(x, _)| s.cells.contains(x));
                            cannibal.set(cannibal.get() + usize::from(eats));
                        }
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
                for finned in [false, true] {
                    let all = complex_all(&c, n, shape, finned);
                    let reference = reference(&c, n, shape, finned, limits(shape));
                    check_search(&all, complex(&c, n, shape, finned), &reference, &solution)?;
                }
            }
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
}
