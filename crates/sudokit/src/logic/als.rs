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
use std::rc::Rc;

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::logic::chains::cells_name;
use crate::logic::crossings;
use crate::step::{digit_list, Step, Technique};

/// One almost locked set.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Als {
    cells: CellSet,
    digits: DigitSet,
    /// Per digit, the set's cells holding it.
    by_digit: [CellSet; 9],
    /// Per digit, the cells outside the set that see every cell of it holding that digit.
    sees_all: [CellSet; 9],
}

/// Every ALS of the grid (each cell set once), smallest first.
fn all_als(c: &Candidates) -> Vec<Als> {
    let mut out: Vec<Als> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for h in House::all() {
        let free: Vec<Cell> = h
            .cells()
            .iter()
            .copied()
            .filter(|&x| c.value(x).is_none())
            .collect();
        let k = free.len();
        // A set of all free cells holds exactly as many digits as cells: never almost locked.
        // Digits of every subset, each from the subset without its lowest cell.
        let mut union = vec![DigitSet::EMPTY; 1 << k];
        for mask in 1usize..(1 << k) - 1 {
            let digits = union[mask & (mask - 1)] | c.get(free[mask.trailing_zeros() as usize]);
            union[mask] = digits;
            if digits.len() != mask.count_ones() as usize + 1 {
                continue;
            }
            let cells: CellSet = free
                .iter()
                .enumerate()
                .filter(|&(i, _)| mask >> i & 1 == 1)
                .map(|(_, &x)| x)
                .collect();
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
fn node(a: &Als, first: Digit, next: Digit) -> String {
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
    let data = als_data(c);
    for &(i, j, rcc) in &data.pairs {
        let (a, b) = (&data.sets[i], &data.sets[j]);
        let common = a.digits & b.digits;
        if rcc.len() >= 2 {
            if let Some(step) = doubly_linked(c, a, b, rcc) {
                return Some(step);
            }
        }
        for x in rcc.iter() {
            for z in (common - DigitSet::single(x)).iter() {
                let targets = z_targets(c, a, b, z);
                if !targets.is_empty() {
                    let chain = format!("{}-{}", node(a, z, x), node(b, x, z));
                    return Some(step(
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
    }
    None
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

/// Almost Locked Set XY-Wing.
pub fn als_xy_wing(c: &Candidates) -> Option<Step> {
    let data = als_data(c);
    let sets = &data.sets;
    // Restricted-common partners of every ALS.
    let mut partners: Vec<Vec<(usize, DigitSet)>> = vec![Vec::new(); sets.len()];
    for &(i, j, r) in &data.pairs {
        partners[i].push((j, r));
        partners[j].push((i, r));
    }
    for (ci, pc) in partners.iter().enumerate() {
        let cset = &sets[ci];
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
                            if !targets.is_empty() {
                                let chain = format!(
                                    "{}-{}-{}",
                                    node(a, z, x),
                                    node(cset, x, y),
                                    node(b, y, z)
                                );
                                return Some(step(
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
    }
    None
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
    let n = sets.len();
    let mut partners: Vec<Vec<(usize, DigitSet)>> = vec![Vec::new(); n];
    for &(i, j, r) in &data.pairs {
        partners[i].push((j, r));
        partners[j].push((i, r));
    }
    // States: (set, digit it lacks); predecessor per state for the chain.
    let state = |i: usize, d: Digit| i * 9 + d.index();
    let mut pred = vec![usize::MAX; n * 9];
    // `seen[s] == round` marks the states reached from the current start, without
    // clearing `pred` for every start.
    let mut seen = vec![0u32; n * 9];
    let mut round = 0u32;
    let mut best: Option<ChainFound> = None;
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
            let s0 = state(start, z);
            pred[s0] = s0;
            seen[s0] = round;
            let mut frontier = vec![(start, z)];
            let mut length = 1;
            while !frontier.is_empty() {
                length += 1;
                if best.as_ref().is_some_and(|b| b.0.len() <= length) {
                    break;
                }
                let mut next = Vec::new();
                for &(i, lacks) in &frontier {
                    for &(j, rcc) in &partners[i] {
                        for x in rcc.iter().filter(|&x| x != lacks) {
                            let st = state(j, x);
                            if seen[st] != round {
                                seen[st] = round;
                                pred[st] = state(i, lacks);
                                next.push((j, x));
                            }
                        }
                    }
                }
                if length >= 3 {
                    for &(j, lacks) in &next {
                        let end = &sets[j];
                        if lacks == z || !end.digits.contains(z) || j == start {
                            continue;
                        }
                        let targets = base & end.sees_all[z.index()];
                        if !targets.is_empty() {
                            let mut chain = vec![(j, lacks)];
                            let mut st = state(j, lacks);
                            while pred[st] != st {
                                st = pred[st];
                                chain.push((st / 9, Digit::from_index(st % 9)));
                            }
                            chain.reverse();
                            best = Some((chain, z, targets));
                            break;
                        }
                    }
                }
                if best.as_ref().is_some_and(|b| b.0.len() <= length) {
                    break;
                }
                frontier = next;
            }
        }
    }
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

/// Petals tried per stem digit: the smallest sets come first, and more rarely pays.
const MAX_PETALS: usize = 32;

/// Death Blossom: a stem cell with two or three candidates, and for each candidate `d` an
/// ALS (a petal) whose every `d` sees the stem. Whichever digit the stem takes, its petal
/// loses that digit and is locked; a digit `z` in every petal (not in the stem) is then in
/// some petal, so cells seeing every `z` of all petals lose it.
pub fn death_blossom(c: &Candidates) -> Option<Step> {
    let data = als_data(c);
    let sets = &data.sets;
    let mut stems: Vec<Cell> = Cell::all()
        .filter(|&x| (2..=3).contains(&c.get(x).len()))
        .collect();
    stems.sort_by_key(|&x| (c.get(x).len(), x.index()));
    for stem in stems {
        let digits: Vec<Digit> = c.get(stem).iter().collect();
        let seen = CellSet::peers(stem);
        let petals: Vec<Vec<usize>> = digits
            .iter()
            .map(|&d| {
                (0..sets.len())
                    .filter(|&i| {
                        let a = &sets[i];
                        !a.cells.contains(stem)
                            && a.digits.contains(d)
                            && (a.by_digit[d.index()] - seen).is_empty()
                    })
                    .take(MAX_PETALS)
                    .collect()
            })
            .collect();
        if petals.iter().any(|p| p.is_empty()) {
            continue;
        }
        let mut chosen = Vec::with_capacity(digits.len());
        if let Some((z, targets)) = bloom(c, sets, stem, &petals, &mut chosen, !c.get(stem)) {
            let used: Vec<&Als> = chosen.iter().map(|&i| &sets[i]).collect();
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
            return Some(s);
        }
    }
    None
}

/// Chooses one petal per stem digit (in order), keeping the digits common to all chosen
/// petals in `zs`; returns the first `z` with targets, leaving the petals in `chosen`.
fn bloom(
    c: &Candidates,
    sets: &[Als],
    stem: Cell,
    petals: &[Vec<usize>],
    chosen: &mut Vec<usize>,
    zs: DigitSet,
) -> Option<(Digit, CellSet)> {
    let k = chosen.len();
    if k == petals.len() {
        for z in zs.iter() {
            let mut t = c.cells_with(z) - CellSet::single(stem);
            for &i in chosen.iter() {
                t &= sets[i].sees_all[z.index()];
                t -= sets[i].cells;
            }
            if !t.is_empty() {
                return Some((z, t));
            }
        }
        return None;
    }
    for &i in &petals[k] {
        let next = zs & sets[i].digits;
        if next.is_empty() {
            continue;
        }
        chosen.push(i);
        if let Some(found) = bloom(c, sets, stem, petals, chosen, next) {
            return Some(found);
        }
        chosen.pop();
    }
    None
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
    let pick = |free: &[Cell], mask: usize| -> CellSet {
        (0..free.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| free[i])
            .collect()
    };
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
                let parts = [pick(&meet, m), pick(&line_free, l), pick(&box_free, k)];
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
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::grid::Grid;
    use crate::logic::first_combination;
    use crate::logic::testutil::{
        check_search, elims, from_line, random_position, set_cell, sweep,
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
}
