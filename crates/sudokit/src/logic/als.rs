//! Almost Locked Sets: ALS-XZ (singly and doubly linked), ALS-XY-Wing, ALS-XY-Chain and
//! Death Blossom.
//!
//! An *almost locked set* (ALS) is `n` unsolved cells of one house holding `n + 1` digits
//! between them: remove any one digit and the rest are locked into those cells. (A bivalue
//! cell is the smallest ALS.)
//!
//! Two disjoint ALSs share a *restricted common* digit `x` when every cell of either that
//! holds `x` sees every such cell of the other: `x` can then be true in at most one of them.
//!
//! - ALS-XZ: ALSs `A`, `B` with restricted common `x` and another common digit `z`. One of
//!   them lacks `x`, so it is locked and holds `z`: a cell seeing every `z` of both loses `z`.
//! - ALS-XY-Wing: ALS `C` shares restricted commons `x` with `A` and `y` with `B` (`x ≠ y`).
//!   `C` cannot lack both, so `A` lacks `x` or `B` lacks `y`, and `A` or `B` holds `z`.
//! - ALS-XY-Chain: the same through any number of sets (see [`als_xy_chain`]).
//! - Death Blossom: a stem cell whose every candidate sees the same digit of its own ALS
//!   (see [`death_blossom`]).
//! - Sue de Coq: two or three cells where a line crosses a box, holding at least two digits
//!   more than cells, with cells of the rest of the line and of the rest of the box that share
//!   no digit, all together as many cells as digits (see [`sue_de_coq`]).
//!
//! Every ALS of the grid is enumerated (all subsets of each house's empty cells), and the
//! restricted commons of every pair computed once per grid state and shared by the four
//! finders, which the solver calls one after another on the same grid.
//!
//! Chains are written in Eureka notation with ALS nodes: `(5=26)r1c23` reads "if 5 is not in
//! these cells, then 2 and 6 are (locked) there".

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::logic::chains::cells_name;
use crate::logic::crossings;
use crate::step::{digit_list, Step, Technique};

/// One almost locked set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Als {
    pub(crate) cells: CellSet,
    pub(crate) digits: DigitSet,
    /// Per digit, the set's cells holding it.
    pub(crate) by_digit: [CellSet; 9],
    /// Per digit, the cells outside the set that see every cell of it holding that digit.
    pub(crate) sees_all: [CellSet; 9],
}

/// Every ALS of the grid (each cell set once), smallest first.
pub(crate) fn all_als(c: &Candidates) -> Vec<Als> {
    let mut out: Vec<Als> = Vec::new();
    let mut seen = HashSet::new();
    for h in House::all() {
        let (free, union) = subsets(c, CellSet::house(h));
        // A set of all free cells holds exactly as many digits as cells: never almost locked.
        for (mask, &digits) in union.iter().enumerate().take(union.len() - 1).skip(1) {
            if digits.len() != mask.count_ones() as usize + 1 {
                continue;
            }
            let cells = chosen(&free, mask);
            if seen.insert(cells.bits()) {
                let by_digit: [CellSet; 9] =
                    std::array::from_fn(|d| cells & c.cells_with(Digit::from_index(d)));
                let sees_all = std::array::from_fn(|d| {
                    if by_digit[d].is_empty() {
                        CellSet::EMPTY
                    } else {
                        by_digit[d].common_peers() - cells
                    }
                });
                out.push(Als {
                    cells,
                    digits,
                    by_digit,
                    sees_all,
                });
            }
        }
    }
    out.sort_by_key(|a| (a.cells.len(), a.cells.bits()));
    out
}

/// The restricted common digits of two disjoint ALSs.
fn rccs(a: &Als, b: &Als) -> DigitSet {
    if !(a.cells & b.cells).is_empty() {
        return DigitSet::EMPTY;
    }
    (a.digits & b.digits)
        .iter()
        .filter(|d| (b.by_digit[d.index()] - a.sees_all[d.index()]).is_empty())
        .collect()
}

/// Cells outside `a` and `b` holding `z` that see every `z` of both.
fn z_targets(c: &Candidates, a: &Als, b: &Als, z: Digit) -> CellSet {
    a.sees_all[z.index()] & b.sees_all[z.index()] & (c.cells_with(z) - a.cells - b.cells)
}

/// An ALS as a Eureka node: `(first=rest)cells`, `rest` listing `next` first.
pub(crate) fn node(a: &Als, first: Digit, next: Digit) -> String {
    let rest: String = std::iter::once(next)
        .chain((a.digits - DigitSet::single(first) - DigitSet::single(next)).iter())
        .map(|d| d.to_string())
        .collect();
    format!("({first}={rest}){}", cells_name(a.cells))
}

fn step(
    t: Technique,
    sets: &[&Als],
    digits: DigitSet,
    z: Digit,
    targets: CellSet,
    chain: String,
) -> Step {
    let mut s = Step::new(t);
    s.digits = digits;
    s.eliminations = targets.iter().map(|x| (x, z)).collect();
    for a in sets {
        s.cells.extend(a.cells.iter());
    }
    s.detail = sets
        .iter()
        .map(|a| cells_name(a.cells))
        .collect::<Vec<_>>()
        .join(" / ");
    s.chain = Some(format!("{chain} => {}", s.effects()));
    s
}

/// The ALSs of a grid and every pair of them with restricted commons (`i < j`).
struct AlsData {
    sets: Vec<Als>,
    pairs: Vec<(usize, usize, DigitSet)>,
}

/// The last grid asked about and its ALS data: both finders run on the same grid in turn.
type AlsCache = Option<(Candidates, Rc<AlsData>)>;

thread_local! {
    static ALS_CACHE: RefCell<AlsCache> = const { RefCell::new(None) };
}

fn als_data(c: &Candidates) -> Rc<AlsData> {
    let hit = ALS_CACHE.with(|k| {
        k.borrow()
            .as_ref()
            .and_then(|(g, v)| (g == c).then(|| v.clone()))
    });
    if let Some(v) = hit {
        return v;
    }
    let sets = all_als(c);
    let mut pairs = Vec::new();
    for (i, a) in sets.iter().enumerate() {
        for (j, b) in sets.iter().enumerate().skip(i + 1) {
            let r = rccs(a, b);
            if !r.is_empty() {
                pairs.push((i, j, r));
            }
        }
    }
    let v = Rc::new(AlsData { sets, pairs });
    ALS_CACHE.with(|k| *k.borrow_mut() = Some((c.clone(), v.clone())));
    v
}

/// Almost Locked Set XZ-Rule.
pub fn als_xz(c: &Candidates) -> Option<Step> {
    als_xzs(c).next()
}

/// Every ALS-XZ, by pair of sets in the order of [`AlsData::pairs`]: a doubly linked pair as
/// one step, a singly linked one as a step per restricted common and other common digit.
/// (A doubly linked pair's single links remove nothing its locking does not.)
fn als_xzs(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    let data = als_data(c);
    (0..data.pairs.len()).flat_map(move |k| {
        let (i, j, rcc) = data.pairs[k];
        let (a, b) = (&data.sets[i], &data.sets[j]);
        if rcc.len() >= 2 {
            return doubly_linked(c, a, b, rcc).into_iter().collect();
        }
        let mut found = Vec::new();
        for x in rcc.iter() {
            for z in ((a.digits & b.digits) - DigitSet::single(x)).iter() {
                let targets = z_targets(c, a, b, z);
                if !targets.is_empty() {
                    let chain = format!("{}-{}", node(a, z, x), node(b, x, z));
                    found.push(step(
                        Technique::AlsXz,
                        &[a, b],
                        DigitSet::single(x) | DigitSet::single(z),
                        z,
                        targets,
                        chain,
                    ));
                }
            }
        }
        found
    })
}

/// ALS-XZ with two restricted commons: `A ∪ B` is then locked. Each common `x` lies in
/// exactly one of them (cells seeing every `x` of both lose it), and every other digit of
/// either set is locked in that set (cells seeing all its cells with that digit lose it).
fn doubly_linked(c: &Candidates, a: &Als, b: &Als, rcc: DigitSet) -> Option<Step> {
    let mut elims: Vec<(Cell, Digit)> = Vec::new();
    for x in rcc.iter() {
        elims.extend(z_targets(c, a, b, x).iter().map(|t| (t, x)));
    }
    for (s, other) in [(a, b), (b, a)] {
        for d in (s.digits - rcc).iter() {
            let t = s.sees_all[d.index()] & (c.cells_with(d) - other.cells);
            elims.extend(t.iter().map(|t| (t, d)));
        }
    }
    elims.sort_unstable();
    elims.dedup();
    if elims.is_empty() {
        return None;
    }
    let mut ds = rcc.iter();
    let (x1, x2) = (ds.next()?, ds.next()?);
    let mut s = Step::new(Technique::AlsXz);
    s.digits = a.digits | b.digits;
    s.eliminations = elims;
    s.cells = a.cells.iter().chain(b.cells.iter()).collect();
    s.detail = format!(
        "{} / {} doubly linked by {x1} and {x2}",
        cells_name(a.cells),
        cells_name(b.cells)
    );
    s.chain = Some(format!(
        "{}-{}-({x1}){} => {}",
        node(a, x1, x2),
        node(b, x2, x1),
        cells_name(a.cells),
        s.effects()
    ));
    Some(s)
}

/// The restricted-common partners of every ALS, from the pairs.
fn partners(data: &AlsData) -> Vec<Vec<(usize, DigitSet)>> {
    let mut partners = vec![Vec::new(); data.sets.len()];
    for &(i, j, r) in &data.pairs {
        partners[i].push((j, r));
        partners[j].push((i, r));
    }
    partners
}

/// Almost Locked Set XY-Wing.
pub fn als_xy_wing(c: &Candidates) -> Option<Step> {
    als_xy_wings(c).next()
}

/// Every ALS-XY-Wing, by pivot set `C`, its two partners `A` and `B` (disjoint), commons `x`
/// and `y`, and digit `z`: each `A`, `B` and `z` once, through the first pivot found. (Wings
/// through other pivots remove the same; on a hard position they run to millions.)
fn als_xy_wings(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    let data = als_data(c);
    let partners = partners(&data);
    let mut done = HashSet::new();
    (0..data.sets.len()).flat_map(move |ci| {
        let sets = &data.sets;
        let (cset, pc) = (&sets[ci], &partners[ci]);
        let mut found = Vec::new();
        for (k, &(ai, ra)) in pc.iter().enumerate() {
            for &(bi, rb) in &pc[k + 1..] {
                let (a, b) = (&sets[ai], &sets[bi]);
                if !(a.cells & b.cells).is_empty() {
                    continue;
                }
                for x in ra.iter() {
                    for y in rb.iter().filter(|&y| y != x) {
                        let zs = (a.digits & b.digits) - DigitSet::single(x) - DigitSet::single(y);
                        for z in zs.iter() {
                            let targets = z_targets(c, a, b, z);
                            if !targets.is_empty() && done.insert((ai.min(bi), ai.max(bi), z)) {
                                let chain = format!(
                                    "{}-{}-{}",
                                    node(a, z, x),
                                    node(cset, x, y),
                                    node(b, y, z)
                                );
                                found.push(step(
                                    Technique::AlsXyWing,
                                    &[a, b, cset],
                                    DigitSet::single(x) | DigitSet::single(y) | DigitSet::single(z),
                                    z,
                                    targets,
                                    chain,
                                ));
                            }
                        }
                    }
                }
            }
        }
        found
    })
}

/// An ALS chain found: (set, digit it lacks) per link, the end digit, the targets.
type ChainFound = (Vec<(usize, Digit)>, Digit, CellSet);

/// Almost Locked Set XY-Chain: ALSs `A1 … An` (at least three), each sharing a restricted
/// common with the next, consecutive commons different. If `z` is not in `A1`, `A1` holds
/// its first common, so `A2` lacks it and holds the second, and so on until `An` holds `z`:
/// `z` is in `A1` or `An`, and cells seeing every `z` of both lose it. Breadth-first, so
/// the chain found uses the fewest sets.
pub fn als_xy_chain(c: &Candidates) -> Option<Step> {
    let data = als_data(c);
    let sets = &data.sets;
    let mut best: Option<ChainFound> = None;
    xy_chains(c, &data, usize::MAX, |chain, z, targets| {
        best = Some((chain.to_vec(), z, targets));
        chain.len() - 1
    });
    let (chain, z, targets) = best?;
    // Each set is written `(lacks=holds…)`: the digit it lacks, then the next common.
    let text: Vec<String> = chain
        .iter()
        .enumerate()
        .map(|(k, &(i, lacks))| {
            let holds = chain.get(k + 1).map_or(z, |&(_, x)| x);
            node(&sets[i], lacks, holds)
        })
        .collect();
    let used: Vec<&Als> = chain.iter().map(|&(i, _)| &sets[i]).collect();
    let digits = chain.iter().fold(DigitSet::single(z), |acc, &(_, d)| {
        acc | DigitSet::single(d)
    });
    Some(step(
        Technique::AlsXyChain,
        &used,
        digits,
        z,
        targets,
        text.join("-"),
    ))
}

/// Breadth-first from every set `A1` and digit `z` it lacks, calls `found` with the shortest
/// chain of three sets or more (at most `most`) reaching each end state (a set and the
/// digit it lacks) that removes a `z`; `found` returns the new bound. A set may recur along a
/// chain: each link's reasoning needs only its two sets. States are told apart by whether
/// three sets or more lead to them, so an end that two sets reach (an ALS-XZ) is still
/// reached by the longer chains.
fn xy_chains(
    c: &Candidates,
    data: &AlsData,
    mut most: usize,
    mut found: impl FnMut(&[(usize, Digit)], Digit, CellSet) -> usize,
) {
    let sets = &data.sets;
    let n = sets.len();
    let partners = partners(data);
    let state = |i: usize, d: Digit, long: bool| (usize::from(long) * n + i) * 9 + d.index();
    let link = |s: usize| ((s / 9) % n, Digit::from_index(s % 9));
    // Predecessor per state for the chain; `seen[s] == round` marks the states reached from
    // the current start, without clearing `pred` for every start.
    let mut pred = vec![usize::MAX; 2 * n * 9];
    let mut seen = vec![0u32; 2 * n * 9];
    let mut round = 0u32;
    for start in 0..n {
        if partners[start].is_empty() {
            continue;
        }
        for z in sets[start].digits.iter() {
            // Only cells seeing every z of the first set can lose z.
            let base = sets[start].sees_all[z.index()] & (c.cells_with(z) - sets[start].cells);
            if base.is_empty() {
                continue;
            }
            round += 1;
            let s0 = state(start, z, false);
            pred[s0] = s0;
            seen[s0] = round;
            let mut frontier = vec![s0];
            let mut length = 1;
            while !frontier.is_empty() && length < most {
                length += 1;
                let long = length >= 3;
                let mut next = Vec::new();
                for &s in &frontier {
                    let (i, lacks) = link(s);
                    for &(j, rcc) in &partners[i] {
                        for x in rcc.iter().filter(|&x| x != lacks) {
                            let t = state(j, x, long);
                            if seen[t] != round {
                                seen[t] = round;
                                pred[t] = s;
                                next.push(t);
                            }
                        }
                    }
                }
                for &t in next.iter().filter(|_| long) {
                    let (j, lacks) = link(t);
                    let end = &sets[j];
                    if lacks == z || !end.digits.contains(z) || j == start {
                        continue;
                    }
                    let targets = base & end.sees_all[z.index()];
                    if targets.is_empty() {
                        continue;
                    }
                    let mut chain = vec![link(t)];
                    let mut s = t;
                    while pred[s] != s {
                        s = pred[s];
                        chain.push(link(s));
                    }
                    chain.reverse();
                    most = found(&chain, z, targets);
                    if length > most {
                        break;
                    }
                }
                frontier = next;
            }
        }
    }
}

/// Death Blossom: a stem cell with two or three candidates, and for each candidate `d` an
/// ALS (a petal) whose every `d` sees the stem. Whichever digit the stem takes, its petal
/// loses that digit and is locked; a digit `z` in every petal (not in the stem) is then in
/// some petal, so cells seeing every `z` of all petals lose it.
pub fn death_blossom(c: &Candidates) -> Option<Step> {
    death_blossoms(c).next()
}

/// Every Death Blossom's eliminations, by stem (fewest candidates first), digit `z` and
/// target. A cell loses `z` when every stem digit has a petal holding `z` whose every `z` it
/// sees, so the petals of each digit are tried independently, not in combination. Each step
/// takes, for the first target no earlier step of its stem and `z` removes, the first such
/// petal of each digit, and removes what those petals together remove.
fn death_blossoms(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    let data = als_data(c);
    let mut stems: Vec<Cell> = Cell::all()
        .filter(|&x| (2..=3).contains(&c.get(x).len()))
        .collect();
    stems.sort_by_key(|&x| (c.get(x).len(), x.index()));
    stems
        .into_iter()
        .flat_map(move |stem| blossoms_at(c, &data.sets, stem))
}

fn blossoms_at(c: &Candidates, sets: &[Als], stem: Cell) -> Vec<Step> {
    let digits: Vec<Digit> = c.get(stem).iter().collect();
    let seen = CellSet::peers(stem);
    let petals: Vec<Vec<&Als>> = digits
        .iter()
        .map(|&d| {
            sets.iter()
                .filter(|a| {
                    !a.cells.contains(stem)
                        && a.digits.contains(d)
                        && (a.by_digit[d.index()] - seen).is_empty()
                })
                .collect()
        })
        .collect();
    let mut found = Vec::new();
    if petals.iter().any(|p| p.is_empty()) {
        return found;
    }
    for z in (!c.get(stem)).iter() {
        let holders = c.cells_with(z) - CellSet::single(stem);
        let mut left = petals.iter().fold(holders, |acc, p| {
            acc & p
                .iter()
                .filter(|a| a.digits.contains(z))
                .fold(CellSet::EMPTY, |reach, a| reach | a.sees_all[z.index()])
        });
        while let Some(first) = left.first() {
            let used: Vec<&Als> = petals
                .iter()
                .map(|p| {
                    p.iter()
                        .copied()
                        .find(|a| a.digits.contains(z) && a.sees_all[z.index()].contains(first))
                        .expect("every digit has a petal removing the first target")
                })
                .collect();
            let targets = used
                .iter()
                .fold(holders, |acc, a| acc & a.sees_all[z.index()]);
            left -= targets;
            let mut s = step(
                Technique::DeathBlossom,
                &used,
                c.get(stem) | DigitSet::single(z),
                z,
                targets,
                String::new(),
            );
            s.chain = None;
            s.cells.insert(0, stem);
            let parts: Vec<String> = digits
                .iter()
                .zip(&used)
                .map(|(d, a)| format!("{d}: {} {}", cells_name(a.cells), digit_list(a.digits)))
                .collect();
            s.detail = format!(
                "stem {stem} {}, petals {}",
                digit_list(c.get(stem)),
                parts.join(", ")
            );
            found.push(s);
        }
    }
    found
}

/// Sue de Coq, HoDoKu's form: `C`, two or three unsolved cells of a line `L` and a box `B`,
/// holding digits `V` with at least two more digits than cells; `LS`, unsolved cells of `L`
/// outside `B`, and `BS`, unsolved cells of `B` outside `L`, each holding some digit of `V`, with
/// no digit in both; and as many cells in all as digits. Every digit can take at most one of
/// the cells (a digit of `LS` lies in `L` there, one of `BS` in `B`, the rest only in `C`), so
/// each takes exactly one: the rest of `L` loses the digits of `LS` and those of `V` not in `BS`,
/// the rest of `B` those of `BS` and those of `V` not in `LS`.
pub fn sue_de_coq(c: &Candidates) -> Option<Step> {
    sues_de_coq(c).next()
}

/// Every Sue de Coq, by line (rows, then columns), box, intersection cells and then the cell
/// sets of the line and of the box in the order of their bit masks.
fn sues_de_coq(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    crossings().flat_map(move |(line, b)| sue_de_coq_in(c, line, b))
}

/// The cells of `free` that bit mask `mask` chooses.
fn chosen(free: &[Cell], mask: usize) -> CellSet {
    (0..free.len())
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| free[i])
        .collect()
}

/// The unsolved cells of `cells`, and the digits of each subset of them by bit mask.
fn subsets(c: &Candidates, cells: CellSet) -> (Vec<Cell>, Vec<DigitSet>) {
    let free: Vec<Cell> = cells.iter().filter(|&x| c.value(x).is_none()).collect();
    let mut union = vec![DigitSet::EMPTY; 1 << free.len()];
    for mask in 1..union.len() {
        union[mask] = union[mask & (mask - 1)] | c.get(free[mask.trailing_zeros() as usize]);
    }
    (free, union)
}

fn sue_de_coq_in(c: &Candidates, line: House, b: House) -> Vec<Step> {
    let (in_line, in_box) = (CellSet::house(line), CellSet::house(b));
    let (meet, meet_digits) = subsets(c, in_line & in_box);
    let (line_free, line_digits) = subsets(c, in_line - in_box);
    let (box_free, box_digits) = subsets(c, in_box - in_line);
    let mut found = Vec::new();
    for (m, &v) in meet_digits.iter().enumerate().skip(1) {
        let size = m.count_ones() as usize;
        if size < 2 || v.len() < size + 2 {
            continue;
        }
        for (l, &vl) in line_digits.iter().enumerate().skip(1) {
            if (vl & v).is_empty() {
                continue;
            }
            for (k, &vb) in box_digits.iter().enumerate().skip(1) {
                let cells = size + l.count_ones() as usize + k.count_ones() as usize;
                if (vb & v).is_empty() || !(vb & vl).is_empty() || (v | vl | vb).len() != cells {
                    continue;
                }
                let parts = [
                    chosen(&meet, m),
                    chosen(&line_free, l),
                    chosen(&box_free, k),
                ];
                let set_cells = parts[0] | parts[1] | parts[2];
                let mut eliminations = Vec::new();
                for (house, digits) in [(in_line, vl | (v - vb)), (in_box, vb | (v - vl))] {
                    for x in (house - set_cells).iter() {
                        eliminations.extend((c.get(x) & digits).iter().map(|d| (x, d)));
                    }
                }
                if eliminations.is_empty() {
                    continue;
                }
                eliminations.sort_unstable();
                let mut s = Step::new(Technique::SueDeCoq);
                s.cells = set_cells.iter().collect();
                s.fins = parts[0].iter().collect();
                s.houses = vec![line, b];
                s.digits = v | vl | vb;
                s.detail = format!(
                    "{} {} in {line} and {b}, with {} {} and {} {}",
                    cells_name(parts[0]),
                    digit_list(v),
                    cells_name(parts[1]),
                    digit_list(vl),
                    cells_name(parts[2]),
                    digit_list(vb)
                );
                s.eliminations = eliminations;
                found.push(s);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashMap};

    use proptest::prelude::*;

    use super::*;
    use crate::grid::Grid;
    use crate::logic::first_combination;
    use crate::logic::testutil::{
        als_reference, check_search, elims, from_line, random_position, set_cell, sweep, Definition,
    };

    /// The eliminations of every Sue de Coq, from the definition: for every line and box that
    /// cross, every two or three of their common unsolved cells, every set of the line's other
    /// unsolved cells and every set of the box's, as lists of cells.
    fn sue_de_coq_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let mut out = BTreeSet::new();
        let digits = |cells: &[Cell]| cells.iter().fold(DigitSet::EMPTY, |a, &x| a | c.get(x));
        let free = |f: &dyn Fn(&Cell) -> bool| -> Vec<Cell> {
            Cell::all()
                .filter(|x| c.value(*x).is_none() && f(x))
                .collect()
        };
        for line in (0..18).filter_map(House::from_index) {
            for b in (18..27).filter_map(House::from_index) {
                let (l, bx) = (line.cells(), b.cells());
                let meet = free(&|x| l.contains(x) && bx.contains(x));
                let rest_line = free(&|x| l.contains(x) && !bx.contains(x));
                let rest_box = free(&|x| bx.contains(x) && !l.contains(x));
                for size in 2..=3 {
                    first_combination(&meet, size, &mut |cs| {
                        let v = digits(cs);
                        if v.len() < size + 2 {
                            return None::<()>;
                        }
                        for nl in 1..=rest_line.len() {
                            first_combination(&rest_line, nl, &mut |ls| {
                                for nb in 1..=rest_box.len() {
                                    first_combination(&rest_box, nb, &mut |bs| {
                                        let (vl, vb) = (digits(ls), digits(bs));
                                        if (vl & v).is_empty()
                                            || (vb & v).is_empty()
                                            || !(vl & vb).is_empty()
                                            || (v | vl | vb).len() != size + nl + nb
                                        {
                                            return None::<()>;
                                        }
                                        let inside = |x: &Cell| {
                                            cs.contains(x) || ls.contains(x) || bs.contains(x)
                                        };
                                        for (cells, lose) in
                                            [(l, vl | (v - vb)), (bx, vb | (v - vl))]
                                        {
                                            for x in cells.iter().filter(|x| !inside(x)) {
                                                out.extend(
                                                    (c.get(*x) & lose).iter().map(|d| (*x, d)),
                                                );
                                            }
                                        }
                                        None
                                    });
                                }
                                None::<()>
                            });
                        }
                        None
                    });
                }
            }
        }
        out
    }

    #[test]
    fn sue_de_coq_splits_four_digits_between_a_row_and_a_box() {
        // r1c1 {1,2,3}, r1c2 {2,3,4}: two cells, four digits. r1c5 {1,2} in row 1 and r2c1
        // {3,4} in box 1 take the rest: row 1 loses 1 and 2, box 1 loses 3 and 4.
        let c = with_cells(&[(1, 1, "123"), (1, 2, "234"), (1, 5, "12"), (2, 1, "34")]);
        let s = sue_de_coq(&c).unwrap();
        let mut expected: Vec<(usize, usize, u8)> = [3, 4, 6, 7, 8, 9]
            .iter()
            .flat_map(|&col| [(1, col, 1), (1, col, 2)])
            .chain(
                [(1, 3), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)]
                    .iter()
                    .flat_map(|&(r, col)| [(r, col, 3), (r, col, 4)]),
            )
            .collect();
        expected.sort_unstable();
        assert_eq!(elims(&s), expected);
        assert_eq!(s.fins.len(), 2);
    }

    #[test]
    fn random_positions_hold_sues_de_coq() {
        let positions = sweep(
            300,
            (30, 50),
            |c| sues_de_coq(c).collect(),
            sue_de_coq_reference,
        );
        assert!(
            positions > 10,
            "only {positions} positions with a Sue de Coq"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// The search finds exactly the reference's eliminations, the finder gives the first
        /// instance, and no step removes the solution.
        #[test]
        fn sue_de_coq_finds_every_instance_and_is_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..85,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let all: Vec<Step> = sues_de_coq(&c).collect();
            check_search(&all, sue_de_coq(&c), &sue_de_coq_reference(&c), &solution)?;
        }
    }

    fn with_cells(cells: &[(usize, usize, &str)]) -> Candidates {
        let mut c = Candidates::new(&Grid::EMPTY);
        for &(r, col, ds) in cells {
            set_cell(&mut c, r, col, ds);
        }
        c
    }

    #[test]
    fn als_xz_with_a_cell_and_a_two_cell_set() {
        // A = r1c1 {1,2}; B = r4c1 {2,3} + r4c5 {1,3}, digits {1,2,3} in two cells. The 2s
        // of A and B share column 1 (restricted common); so A holds 1 or B holds 1, and
        // r1c5 sees r1c1 and r4c5.
        let c = with_cells(&[(1, 1, "12"), (4, 1, "23"), (4, 5, "13")]);
        let s = als_xz(&c).expect("als-xz");
        assert_eq!(s.technique, Technique::AlsXz);
        assert_eq!(elims(&s), vec![(1, 5, 1)]);
        assert_eq!(s.chain.as_deref(), Some("(1=2)r1c1-(2=13)r4c15 => r1c5<>1"));
    }

    #[test]
    fn doubly_linked_als_xz_locks_both_sets() {
        // A = r1c1 {1,2}; B = r1c5 {1,3} + r1c6 {2,3}. Both 1 and 2 are restricted commons
        // (all in row 1), so A ∪ B holds 1, 2 and 3 once each: the rest of row 1 loses 1, 2
        // and 3, and box 2 loses 3 (locked in B's cells).
        let c = with_cells(&[(1, 1, "12"), (1, 5, "13"), (1, 6, "23")]);
        let s = als_xz(&c).expect("als-xz");
        let mut want = Vec::new();
        for col in [2, 3, 4, 7, 8, 9] {
            for d in 1..=3 {
                want.push((1, col, d));
            }
        }
        for r in 2..=3 {
            for col in 4..=6 {
                want.push((r, col, 3));
            }
        }
        want.sort_unstable();
        assert_eq!(elims(&s), want);
        assert_eq!(s.detail, "r1c1 / r1c56 doubly linked by 1 and 2");
        assert!(s
            .chain
            .as_deref()
            .is_some_and(|t| t.starts_with("(1=2)r1c1-(2=13)r1c56-(1)r1c1 => ")));
    }

    #[test]
    fn als_xy_wing_through_a_pivot_set() {
        // C = r5c5 {1,2}; A = r1c5 {2,3} (restricted common 2, column 5); B = r5c1 {1,3}
        // (restricted common 1, row 5). A or B holds 3; r1c1 sees both.
        let c = with_cells(&[(5, 5, "12"), (1, 5, "23"), (5, 1, "13")]);
        let s = als_xy_wing(&c).expect("als-xy-wing");
        assert_eq!(s.technique, Technique::AlsXyWing);
        assert_eq!(elims(&s), vec![(1, 1, 3)]);
        assert_eq!(
            s.chain.as_deref(),
            Some("(3=2)r1c5-(2=1)r5c5-(1=3)r5c1 => r1c1<>3")
        );
    }

    #[test]
    fn als_xy_chain_of_three_sets() {
        // r1c1 {1,2} -2- r1c5 {2,3} -3- r5c5,r5c9 {1,3,4}. If r1c1 lacks 1 it is 2, r1c5
        // is 3, and the pair in row 5 lacks 3, so it holds 1 and 4: r1c1 or r5c9 holds 1,
        // and r1c9 and r5c1 see both. (The four single cells form a longer chain.)
        let c = with_cells(&[(1, 1, "12"), (1, 5, "23"), (5, 5, "34"), (5, 9, "41")]);
        let s = als_xy_chain(&c).expect("als-xy-chain");
        assert_eq!(s.technique, Technique::AlsXyChain);
        assert_eq!(elims(&s), vec![(1, 9, 1), (5, 1, 1)]);
        assert_eq!(
            s.chain.as_deref(),
            Some("(1=2)r1c1-(2=3)r1c5-(3=14)r5c59 => r1c9<>1, r5c1<>1")
        );
    }

    #[test]
    fn death_blossom_with_a_two_cell_petal() {
        // Stem r1c1 {1,2}. Petal for 1: r1c5 {1,3}; petal for 2: r5c1 {2,4} + r5c2 {3,4}
        // (row 5, digits {2,3,4}). Either petal then holds 3: r1c2 and r5c5 see all its 3s.
        let c = with_cells(&[(1, 1, "12"), (1, 5, "13"), (5, 1, "24"), (5, 2, "34")]);
        let s = death_blossom(&c).expect("death blossom");
        assert_eq!(s.technique, Technique::DeathBlossom);
        assert_eq!(elims(&s), vec![(1, 2, 3), (5, 5, 3)]);
        assert_eq!(
            s.detail,
            "stem r1c1 {1,2}, petals 1: r1c5 {1,3}, 2: r5c12 {2,3,4}"
        );
    }

    #[test]
    fn almost_locked_sets_have_one_digit_more_than_cells() {
        let c = from_line(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        );
        let sets = all_als(&c);
        assert!(!sets.is_empty());
        for a in &sets {
            assert_eq!(a.digits.len(), a.cells.len() + 1);
            assert!(House::all().any(|h| (a.cells - CellSet::house(h)).is_empty()));
            for x in a.cells.iter() {
                assert!(c.value(x).is_none());
            }
        }
        // Bivalue cells are the smallest ALSs and come first.
        let bivalue = c.bivalue_cells().len();
        assert!(sets.iter().take(bivalue).all(|a| a.cells.len() == 1));
    }

    /// The restricted commons of two ALSs, from the definition: they share no cell, and
    /// every cell of either holding the digit sees every such cell of the other.
    fn restricted_commons(c: &Candidates, a: &Definition, b: &Definition) -> DigitSet {
        if !(a.cells & b.cells).is_empty() {
            return DigitSet::EMPTY;
        }
        (a.digits & b.digits)
            .iter()
            .filter(|&x| {
                a.cells.iter().filter(|&p| c.get(p).contains(x)).all(|p| {
                    b.cells
                        .iter()
                        .filter(|&q| c.get(q).contains(x))
                        .all(|q| p.sees(q))
                })
            })
            .collect()
    }

    /// Every ALS paired with its restricted commons with every other.
    fn linked(c: &Candidates, sets: &[Definition]) -> Vec<Vec<(usize, DigitSet)>> {
        let mut links = vec![Vec::new(); sets.len()];
        for (i, a) in sets.iter().enumerate() {
            for (j, b) in sets.iter().enumerate().skip(i + 1) {
                let r = restricted_commons(c, a, b);
                if !r.is_empty() {
                    links[i].push((j, r));
                    links[j].push((i, r));
                }
            }
        }
        links
    }

    /// The candidates `z` of unsolved cells outside `outside` that see every `z` of `sets`.
    fn removed(
        c: &Candidates,
        sets: &[&Definition],
        outside: CellSet,
        z: Digit,
    ) -> impl Iterator<Item = (Cell, Digit)> {
        let seeing = sets
            .iter()
            .fold(CellSet::ALL, |acc, a| acc & a.sees_every[z.index()]);
        let holders: Vec<Cell> = Cell::all()
            .filter(|&t| c.value(t).is_none() && c.get(t).contains(z) && !outside.contains(t))
            .filter(|&t| seeing.contains(t))
            .collect();
        holders.into_iter().map(move |t| (t, z))
    }

    /// Every ALS-XZ's eliminations, from the definition: every two ALSs with a restricted
    /// common `x` remove every other common digit `z` seen in both; two with two restricted
    /// commons also remove each common seen in both and each other digit of either seen in
    /// that set.
    fn als_xz_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let sets = als_reference(c);
        let mut out = BTreeSet::new();
        for (i, a) in sets.iter().enumerate() {
            for b in &sets[i + 1..] {
                let r = restricted_commons(c, a, b);
                let both = a.cells | b.cells;
                for x in r.iter() {
                    for z in (a.digits & b.digits).iter().filter(|&z| z != x) {
                        out.extend(removed(c, &[a, b], both, z));
                    }
                }
                if r.len() >= 2 {
                    for x in r.iter() {
                        out.extend(removed(c, &[a, b], both, x));
                    }
                    for s in [a, b] {
                        for d in (s.digits - r).iter() {
                            out.extend(removed(c, &[s], both, d));
                        }
                    }
                }
            }
        }
        out
    }

    /// Every ALS-XY-Wing's eliminations, from the definition: every ALS `C` with restricted
    /// commons `x` with an ALS `A` and `y ≠ x` with an ALS `B` sharing no cell with `A`
    /// removes every common digit `z` of `A` and `B` (not `x` or `y`) seen in both. The
    /// digits `z` each pair of wings may take are gathered over every pivot first.
    fn als_xy_wing_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let sets = als_reference(c);
        let links = linked(c, &sets);
        let mut wings: HashMap<(usize, usize), DigitSet> = HashMap::new();
        for pivot in &links {
            for &(ai, ra) in pivot {
                for &(bi, rb) in pivot.iter().filter(|&&(bi, _)| bi > ai) {
                    let common = sets[ai].digits & sets[bi].digits;
                    for x in ra.iter() {
                        for y in rb.iter().filter(|&y| y != x) {
                            let zs = common - DigitSet::single(x) - DigitSet::single(y);
                            *wings.entry((ai, bi)).or_default() |= zs;
                        }
                    }
                }
            }
        }
        let mut out = BTreeSet::new();
        for ((ai, bi), zs) in wings {
            let (a, b) = (&sets[ai], &sets[bi]);
            if (a.cells & b.cells).is_empty() {
                for z in zs.iter() {
                    out.extend(removed(c, &[a, b], a.cells | b.cells, z));
                }
            }
        }
        out
    }

    /// Every ALS-XY-Chain's eliminations with `3..=most` sets, from the definition: every
    /// sequence of ALSs, each with a restricted common with the next, consecutive commons
    /// different, the first differing from a digit `z` of the first set, the last from a
    /// digit `z` of the last set (not the first), removes the `z`s seen in both ends. The
    /// sequences from each first set and `z` are followed as layers: the states (set, digit
    /// it lacks) that sequences of exactly `k` sets end in, every such state kept.
    fn als_xy_chain_reference(c: &Candidates, most: usize) -> BTreeSet<(Cell, Digit)> {
        let sets = als_reference(c);
        let links = linked(c, &sets);
        let mut out = BTreeSet::new();
        for (start, first) in sets.iter().enumerate() {
            for z in first.digits.iter() {
                let mut layer = vec![(start, z)];
                for length in 2..=most {
                    let mut next: Vec<(usize, Digit)> = layer
                        .iter()
                        .flat_map(|&(i, lacks)| {
                            links[i].iter().flat_map(move |&(j, r)| {
                                r.iter().filter(move |&x| x != lacks).map(move |x| (j, x))
                            })
                        })
                        .collect();
                    next.sort_unstable();
                    next.dedup();
                    layer = next;
                    if length < 3 {
                        continue;
                    }
                    for &(j, lacks) in &layer {
                        let last = &sets[j];
                        if j != start && lacks != z && last.digits.contains(z) {
                            out.extend(removed(c, &[first, last], first.cells | last.cells, z));
                        }
                    }
                }
            }
        }
        out
    }

    /// Every Death Blossom's eliminations, from the definition: every cell with two or three
    /// candidates, every digit `z` not among them, every choice of an ALS holding `z` per
    /// candidate `d` (not holding the cell, every `d` of it seeing the cell), the `z`s seen in
    /// every chosen ALS. A choice is abandoned once no `z` is seen in all its sets so far.
    fn death_blossom_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        fn choose(
            petals: &[Vec<&Definition>],
            z: Digit,
            seeing: CellSet,
            out: &mut BTreeSet<(Cell, Digit)>,
        ) {
            let Some((options, rest)) = petals.split_first() else {
                out.extend(seeing.iter().map(|t| (t, z)));
                return;
            };
            for a in options.iter().filter(|a| a.digits.contains(z)) {
                let left = seeing & a.sees_every[z.index()];
                if !left.is_empty() {
                    choose(rest, z, left, out);
                }
            }
        }
        let sets = als_reference(c);
        let mut out = BTreeSet::new();
        for stem in Cell::all().filter(|&x| c.value(x).is_none()) {
            let digits = c.get(stem);
            if !(2..=3).contains(&digits.len()) {
                continue;
            }
            let petals: Vec<Vec<&Definition>> = digits
                .iter()
                .map(|d| {
                    sets.iter()
                        .filter(|a| !a.cells.contains(stem) && a.digits.contains(d))
                        .filter(|a| {
                            a.cells
                                .iter()
                                .filter(|&x| c.get(x).contains(d))
                                .all(|x| x.sees(stem))
                        })
                        .collect()
                })
                .collect();
            for z in (!digits).iter() {
                let holders: CellSet = Cell::all()
                    .filter(|&t| t != stem && c.value(t).is_none() && c.get(t).contains(z))
                    .collect();
                choose(&petals, z, holders, &mut out);
            }
        }
        out
    }

    /// The most sets the chain reference follows: each set more multiplies its layers.
    const CHAIN_SETS: usize = 4;

    /// The most ALSs of a position the wing and chain tests run on. Over 800 ALSs, their
    /// references take seconds a position: tens of millions of pivots with two partners, and
    /// chain layers of thousands of states from each first set. (The exhaustive chain search
    /// takes seconds there too, unlike the finder, which stops at its first chain's length.)
    const REFERENCE_SETS: usize = 400;

    /// The ALS-XY-Chain search's eliminations with at most `most` sets.
    fn chain_conclusions(c: &Candidates, most: usize) -> BTreeSet<(Cell, Digit)> {
        let mut out = BTreeSet::new();
        xy_chains(c, &als_data(c), most, |_, z, targets| {
            out.extend(targets.iter().map(|t| (t, z)));
            most
        });
        out
    }

    #[test]
    fn random_positions_hold_als_instances() {
        let range = (55, 30);
        let xz = sweep(40, range, |c| als_xzs(c).collect(), als_xz_reference);
        let blossoms = sweep(
            40,
            range,
            |c| death_blossoms(c).collect(),
            death_blossom_reference,
        );
        assert!(
            xz > 10 && blossoms > 5,
            "positions with instances: {xz} ALS-XZ, {blossoms} Death Blossom"
        );
    }

    /// Positions further along than the sweeps': at most [`REFERENCE_SETS`] ALSs.
    fn smaller_positions() -> impl Iterator<Item = Candidates> {
        (0..40)
            .map(|index| random_position(index, 40, index as u64 % 5 * 10, index as u64).0)
            .filter(|c| all_als(c).len() <= REFERENCE_SETS)
    }

    #[test]
    fn random_positions_hold_als_wings_and_chains() {
        let (mut wings, mut chains) = (0, 0);
        for c in smaller_positions() {
            let found: BTreeSet<(Cell, Digit)> =
                als_xy_wings(&c).flat_map(|s| s.eliminations).collect();
            assert_eq!(found, als_xy_wing_reference(&c), "{c}");
            wings += usize::from(!found.is_empty());
            let found = chain_conclusions(&c, CHAIN_SETS);
            assert_eq!(found, als_xy_chain_reference(&c, CHAIN_SETS), "{c}");
            chains += usize::from(!found.is_empty());
        }
        assert!(
            wings > 10 && chains > 10,
            "positions with instances: {wings} ALS-XY-Wing, {chains} ALS-XY-Chain"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(30))]

        /// Each search finds exactly its reference's eliminations, the finder gives the first
        /// instance, and no step removes the solution.
        #[test]
        fn als_xz_and_death_blossom_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 55u64..85,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let all: Vec<Step> = als_xzs(&c).collect();
            check_search(&all, als_xz(&c), &als_xz_reference(&c), &solution)?;
            let all: Vec<Step> = death_blossoms(&c).collect();
            check_search(&all, death_blossom(&c), &death_blossom_reference(&c), &solution)?;
        }

        /// As for ALS-XZ, on positions of at most [`REFERENCE_SETS`] sets.
        #[test]
        fn als_xy_wing_finds_every_instance_and_is_sound(
            index in 0usize..1000,
            steps in 20usize..60,
            drop in 0u64..50,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            prop_assume!(all_als(&c).len() <= REFERENCE_SETS);
            let all: Vec<Step> = als_xy_wings(&c).collect();
            check_search(&all, als_xy_wing(&c), &als_xy_wing_reference(&c), &solution)?;
        }

        /// The breadth-first search, bounded to the reference's length, finds exactly its
        /// eliminations; unbounded, none removes the solution. The finder finds a chain
        /// whenever the search does, a shortest one: within the bound when the reference has
        /// one, and then removing only what the reference removes.
        #[test]
        fn als_xy_chain_finds_every_conclusion_and_is_sound(
            index in 0usize..1000,
            steps in 20usize..60,
            drop in 0u64..50,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            prop_assume!(all_als(&c).len() <= REFERENCE_SETS);
            let bounded = chain_conclusions(&c, CHAIN_SETS);
            prop_assert_eq!(&bounded, &als_xy_chain_reference(&c, CHAIN_SETS));
            let every = chain_conclusions(&c, usize::MAX);
            for &(x, d) in &every {
                prop_assert!(solution.get(x) != Some(d), "{x}<>{d} removes the solution");
            }
            let step = als_xy_chain(&c);
            prop_assert_eq!(step.is_some(), !every.is_empty());
            if let Some(s) = step {
                let sets = s.detail.split(" / ").count();
                prop_assert!(bounded.is_empty() || sets <= CHAIN_SETS, "{}", s);
                for e in &s.eliminations {
                    prop_assert!(every.contains(e), "{}", s);
                    prop_assert!(sets > CHAIN_SETS || bounded.contains(e), "{}", s);
                }
            }
        }
    }
}
