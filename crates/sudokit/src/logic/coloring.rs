//! Coloring: Simple Colors (trap and wrap), Multi Colors, X-Colors and 3D Medusa.
//!
//! For one digit, a *conjugate pair* is a house holding the digit in exactly two cells: one
//! of them is the digit. Linking pairs that share cells gives a *cluster* whose cells take
//! two colors, and in each cluster either every cell of one color is the digit or every cell
//! of the other is.
//!
//! - Trap: a cell seeing both colors of a cluster loses the digit.
//! - Wrap: two cells of one color see each other, so that color is false everywhere.
//! - Multi Colors 1: a color `a` of one cluster sees a color `b` of another, so `a` and `b`
//!   are not both true: the opposite colors `a'` or `b'` hold the digit, and a cell seeing
//!   both `a'` and `b'` loses it.
//! - Multi Colors 2: one color of a cluster sees both colors of another cluster; it would
//!   leave that cluster no true color, so it is false everywhere.
//! - X-Colors (Sudopedia's eXtended Colors): each color of a cluster grows by *exception
//!   cells*. When every candidate of a house but one sees a cell of color `a`, `a` true
//!   leaves that one cell the house's only place, so it is true whenever `a` is; it joins `a`'s
//!   extension, and the search repeats. An extended color is implied by its color, not
//!   equivalent to it, so: an uncolored cell seeing both extended colors loses the digit; a
//!   cell in both extensions is the digit either way; and a color whose extension holds two
//!   cells of one house, or sees every candidate of a house, is false, which makes every
//!   cell of the other extension true. The step's fins are the exception cells.
//! - 3D Medusa colors candidates of every digit: the two candidates of a bivalue cell and
//!   the two cells of a digit in a house are opposite. A color is false when it holds two
//!   candidates of one cell, one digit twice in a house, or leaves an uncolored cell no
//!   candidate (each sees its digit in the color); then the other color is placed. Otherwise
//!   an uncolored candidate loses when each color *hits* it: holds another digit of its
//!   cell, or its digit in a cell it sees (SudokuWiki's rules 3 to 5 in one). The step's
//!   cells are the colored ones, its fins those holding the second color.
//!
//! (Types 1 and 2 are numbered as HoDoKu numbers them. HoDoKu has neither X-Colors nor 3D
//! Medusa: the first is Sudopedia's, the second SudokuWiki's.)

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::step::{cell_list, Step, Technique};

/// The clusters of `d`: per cluster, its two colors (each non-empty).
fn clusters(c: &Candidates, d: Digit) -> Vec<[CellSet; 2]> {
    let pairs: Vec<CellSet> = House::all()
        .map(|h| c.cells_with_in(h, d))
        .filter(|s| s.len() == 2)
        .collect();
    let mut in_pairs = CellSet::EMPTY;
    for &p in &pairs {
        in_pairs |= p;
    }
    let mut out = Vec::new();
    let mut done = CellSet::EMPTY;
    for start in in_pairs.iter() {
        if done.contains(start) {
            continue;
        }
        let mut colors = [CellSet::single(start), CellSet::EMPTY];
        let mut stack = vec![(start, 0usize)];
        done.insert(start);
        while let Some((x, k)) = stack.pop() {
            for p in pairs.iter().filter(|p| p.contains(x)) {
                for y in p.iter() {
                    if !done.contains(y) {
                        done.insert(y);
                        colors[1 - k].insert(y);
                        stack.push((y, 1 - k));
                    }
                }
            }
        }
        out.push(colors);
    }
    out
}

/// Every cell that sees some cell of `cells`.
fn seen_by_any(cells: CellSet) -> CellSet {
    let mut s = CellSet::EMPTY;
    for x in cells.iter() {
        s |= CellSet::peers(x);
    }
    s
}

fn step(t: Technique, d: Digit, colorings: &[[CellSet; 2]], targets: CellSet) -> Step {
    let mut s = Step::new(t);
    s.digits = DigitSet::single(d);
    s.eliminations = targets.iter().map(|x| (x, d)).collect();
    let mut parts = Vec::new();
    for colors in colorings {
        for col in colors {
            s.cells.extend(col.iter());
        }
        let names: Vec<String> = colors
            .iter()
            .map(|col| cell_list(&col.iter().collect::<Vec<_>>()))
            .collect();
        parts.push(format!("{} / {}", names[0], names[1]));
    }
    s.detail = format!("{d} colored {}", parts.join(" and "));
    s
}

/// Simple Colors Trap: a cell sees both colors of one cluster.
pub fn simple_colors_trap(c: &Candidates) -> Option<Step> {
    simple_colors_traps(c).next()
}

/// Every Simple Colors Trap, one per digit and cluster with targets.
fn simple_colors_traps(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    Digit::all().flat_map(move |d| {
        clusters(c, d).into_iter().filter_map(move |colors| {
            let all = colors[0] | colors[1];
            let targets = seen_by_any(colors[0]) & seen_by_any(colors[1]) & (c.cells_with(d) - all);
            (!targets.is_empty()).then(|| step(Technique::SimpleColorsTrap, d, &[colors], targets))
        })
    })
}

/// Simple Colors Wrap: two cells of one color see each other; that color is false.
pub fn simple_colors_wrap(c: &Candidates) -> Option<Step> {
    simple_colors_wraps(c).next()
}

/// Every Simple Colors Wrap, one per digit, cluster and false color.
fn simple_colors_wraps(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    Digit::all().flat_map(move |d| {
        clusters(c, d).into_iter().flat_map(move |colors| {
            colors
                .into_iter()
                .filter(|col| col.iter().any(|x| !(CellSet::peers(x) & *col).is_empty()))
                .map(move |col| step(Technique::SimpleColorsWrap, d, &[colors], col))
        })
    })
}

/// Multi Colors 2: a color sees both colors of another cluster; it is false.
pub fn multi_colors_2(c: &Candidates) -> Option<Step> {
    multi_colors_2_steps(c).next()
}

/// Every Multi Colors 2, one per digit, false color and cluster it sees both colors of.
fn multi_colors_2_steps(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    Digit::all().flat_map(move |d| {
        let cl = clusters(c, d);
        let mut found = Vec::new();
        for (i, a) in cl.iter().enumerate() {
            for (j, b) in cl.iter().enumerate() {
                if i == j {
                    continue;
                }
                for col in a {
                    let seen = seen_by_any(*col);
                    if !(seen & b[0]).is_empty() && !(seen & b[1]).is_empty() {
                        found.push(step(Technique::MultiColors2, d, &[*a, *b], *col));
                    }
                }
            }
        }
        found
    })
}

/// Multi Colors 1: colors `a`, `b` of two clusters see each other; a cell seeing both
/// opposite colors loses the digit.
pub fn multi_colors_1(c: &Candidates) -> Option<Step> {
    multi_colors_1_steps(c).next()
}

/// Every Multi Colors 1, one per digit, pair of clusters and pair of colors seeing each
/// other that has targets.
fn multi_colors_1_steps(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    Digit::all().flat_map(move |d| {
        let cl = clusters(c, d);
        let mut found = Vec::new();
        for (i, a) in cl.iter().enumerate() {
            for b in &cl[i + 1..] {
                let all = a[0] | a[1] | b[0] | b[1];
                for ka in 0..2 {
                    for kb in 0..2 {
                        if (seen_by_any(a[ka]) & b[kb]).is_empty() {
                            continue;
                        }
                        let targets = seen_by_any(a[1 - ka])
                            & seen_by_any(b[1 - kb])
                            & (c.cells_with(d) - all);
                        if !targets.is_empty() {
                            found.push(step(Technique::MultiColors1, d, &[*a, *b], targets));
                        }
                    }
                }
            }
        }
        found
    })
}

/// X-Colors: the first cluster whose extended colors conclude something.
pub fn x_colors(c: &Candidates) -> Option<Step> {
    x_colors_steps(c).next()
}

/// `core` grown by exception cells, and whether it proved false on the way: a house
/// every one of whose candidates sees the color.
fn extend(c: &Candidates, d: Digit, core: CellSet) -> (CellSet, bool) {
    let mut color = core;
    let mut emptied = false;
    loop {
        let seen = seen_by_any(color);
        let before = color;
        for h in House::all() {
            let cells = c.cells_with_in(h, d);
            let unseen = cells - seen;
            match unseen.first() {
                // A house where `d` is placed has no candidates and no say.
                None if !cells.is_empty() => emptied = true,
                Some(x) if unseen.len() == 1 => color.insert(x),
                _ => {}
            }
        }
        if color == before {
            return (color, emptied);
        }
    }
}

/// Every X-Colors step, one per digit and cluster with a conclusion, in digit and cluster
/// order.
fn x_colors_steps(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    Digit::all().flat_map(move |d| {
        let with_d = c.cells_with(d);
        clusters(c, d).into_iter().filter_map(move |core| {
            let ext = core.map(|col| extend(c, d, col));
            let false_color = |(col, emptied): (CellSet, bool)| {
                emptied || col.iter().any(|x| !(CellSet::peers(x) & col).is_empty())
            };
            let colored = ext[0].0 | ext[1].0;
            // A false color's extension depends on the order it grew in; the other color's
            // extension is all true and says everything. Both false: no solution, no step.
            let (placed, targets) = match ext.map(false_color) {
                [true, true] => return None,
                [true, false] => (ext[1].0, CellSet::EMPTY),
                [false, true] => (ext[0].0, CellSet::EMPTY),
                [false, false] => (
                    ext[0].0 & ext[1].0,
                    seen_by_any(ext[0].0) & seen_by_any(ext[1].0) & (with_d - colored),
                ),
            };
            if placed.is_empty() && targets.is_empty() {
                return None;
            }
            let mut s = Step::new(Technique::XColors);
            s.digits = DigitSet::single(d);
            s.cells = ext[0].0.iter().chain(ext[1].0.iter()).collect();
            s.fins = (colored - core[0] - core[1]).iter().collect();
            s.placements = placed.iter().map(|x| (x, d)).collect();
            s.eliminations = targets.iter().map(|x| (x, d)).collect();
            let names: Vec<String> = (0..2)
                .map(|k| {
                    let mut name = cell_list(&core[k].iter().collect::<Vec<_>>());
                    let grown = ext[k].0 - core[k];
                    if !grown.is_empty() {
                        name += &format!(" (+{})", cell_list(&grown.iter().collect::<Vec<_>>()));
                    }
                    name
                })
                .collect();
            s.detail = format!("{d} colored {} / {}", names[0], names[1]);
            Some(s)
        })
    })
}

/// A Medusa coloring: per color, per digit (by index), the cells holding it in that color.
type Medusa = [[CellSet; 9]; 2];

/// The candidates strongly linked to `d` in `x`: the other digit of a bivalue cell, and the
/// other cell of a house holding `d` twice.
fn strong_partners(c: &Candidates, x: Cell, d: Digit) -> Vec<(Cell, Digit)> {
    let mut out = Vec::new();
    let digits = c.get(x);
    if digits.len() == 2 {
        out.extend(digits.iter().filter(|&e| e != d).map(|e| (x, e)));
    }
    for h in x.houses() {
        let cells = c.cells_with_in(h, d);
        if cells.len() == 2 {
            out.extend((cells - CellSet::single(x)).iter().map(|y| (y, d)));
        }
    }
    out
}

/// The Medusa clusters of two or more candidates, by their first candidate in digit, then
/// cell order.
fn medusa_clusters(c: &Candidates) -> Vec<Medusa> {
    let mut done = [CellSet::EMPTY; 9];
    let mut out = Vec::new();
    for d in Digit::all() {
        for x in c.cells_with(d).iter() {
            if done[d.index()].contains(x) || strong_partners(c, x, d).is_empty() {
                continue;
            }
            let mut colors: Medusa = [[CellSet::EMPTY; 9]; 2];
            colors[0][d.index()].insert(x);
            done[d.index()].insert(x);
            let mut stack = vec![(x, d, 0usize)];
            while let Some((y, e, k)) = stack.pop() {
                for (z, f) in strong_partners(c, y, e) {
                    if !done[f.index()].contains(z) {
                        done[f.index()].insert(z);
                        colors[1 - k][f.index()].insert(z);
                        stack.push((z, f, 1 - k));
                    }
                }
            }
            out.push(colors);
        }
    }
    out
}

/// 3D Medusa: the first cluster whose coloring concludes something.
pub fn medusa(c: &Candidates) -> Option<Step> {
    medusa_steps(c).next()
}

/// Every 3D Medusa step, one per cluster with a conclusion, in cluster order.
fn medusa_steps(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    medusa_clusters(c).into_iter().filter_map(move |colors| {
        let cells = colors.map(|col| col.iter().fold(CellSet::EMPTY, |a, &s| a | s));
        let colored = cells[0] | cells[1];
        // What color `k` makes false: its digit in the cells it sees, other digits of its cells.
        let hit = |k: usize, d: Digit| {
            let others = (0..9)
                .filter(|&i| i != d.index())
                .fold(CellSet::EMPTY, |a, i| a | colors[k][i]);
            seen_by_any(colors[k][d.index()]) | others
        };
        let is_false = |k: usize| {
            let mut twice_in_cell = false;
            let mut seen = CellSet::EMPTY;
            for col in colors[k] {
                twice_in_cell |= !(seen & col).is_empty();
                seen |= col;
            }
            let twice_in_house = colors[k]
                .iter()
                .any(|&col| col.iter().any(|x| !(CellSet::peers(x) & col).is_empty()));
            let emptied = (c.empty_cells() - colored).iter().any(|x| {
                c.get(x)
                    .iter()
                    .all(|d| seen_by_any(colors[k][d.index()]).contains(x))
            });
            twice_in_cell || twice_in_house || emptied
        };
        let mut s = Step::new(Technique::Medusa3D);
        match [is_false(0), is_false(1)] {
            [true, true] => return None,
            [false, false] => {
                for d in Digit::all() {
                    let uncolored = c.cells_with(d) - colors[0][d.index()] - colors[1][d.index()];
                    let targets = hit(0, d) & hit(1, d) & uncolored;
                    s.eliminations.extend(targets.iter().map(|x| (x, d)));
                }
                s.eliminations.sort_unstable();
            }
            [first, _] => {
                let k = usize::from(first);
                for d in Digit::all() {
                    s.placements
                        .extend(colors[k][d.index()].iter().map(|x| (x, d)));
                }
                s.placements.sort_unstable();
            }
        }
        if s.is_empty() {
            return None;
        }
        s.cells = colored.iter().collect();
        s.fins = cells[1].iter().collect();
        let names: Vec<String> = (0..2)
            .map(|k| {
                let mut v: Vec<(Cell, Digit)> = Vec::new();
                for d in Digit::all() {
                    v.extend(colors[k][d.index()].iter().map(|x| (x, d)));
                    if !colors[k][d.index()].is_empty() {
                        s.digits.insert(d);
                    }
                }
                v.sort_unstable();
                v.iter()
                    .map(|(x, d)| format!("{d}{x}"))
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        s.detail = format!("colored {} / {}", names[0], names[1]);
        Some(s)
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::grid::Grid;
    use crate::logic::testutil::{
        cell, check_search, elims, from_line, keep_digit_only_in, only_digit_in, random_position,
        set_cell, sweep,
    };
    use crate::logic::{apply, Engine, TechniqueSet};

    /// A conclusion: a digit placed (`true`) or removed (`false`) in a cell.
    type Conclusion = (Cell, Digit, bool);

    /// The clusters of `d` from the definition with plain loops: the houses holding `d` in
    /// exactly two cells are the conjugate pairs, and each cluster is colored alternately
    /// from a pair until no pair adds a cell. Per cluster, the cells of each color.
    fn reference_clusters(c: &Candidates, d: Digit) -> Vec<[Vec<Cell>; 2]> {
        let pairs: Vec<(Cell, Cell)> = House::all()
            .map(|h| -> Vec<Cell> {
                h.cells()
                    .iter()
                    .copied()
                    .filter(|&x| c.get(x).contains(d))
                    .collect()
            })
            .filter(|v| v.len() == 2)
            .map(|v| (v[0], v[1]))
            .collect();
        // color[i]: the cluster and color of cell i, if any.
        let mut color: Vec<Option<(usize, usize)>> = vec![None; 81];
        let mut cluster_count = 0;
        for &(a, _) in &pairs {
            if color[a.index()].is_some() {
                continue;
            }
            color[a.index()] = Some((cluster_count, 0));
            let mut changed = true;
            while changed {
                changed = false;
                for &(x, y) in &pairs {
                    for (p, q) in [(x, y), (y, x)] {
                        if let (Some((cl, k)), None) = (color[p.index()], color[q.index()]) {
                            color[q.index()] = Some((cl, 1 - k));
                            changed = true;
                        }
                    }
                }
            }
            cluster_count += 1;
        }
        (0..cluster_count)
            .map(|cl| {
                [0, 1].map(|k| {
                    Cell::all()
                        .filter(|x| color[x.index()] == Some((cl, k)))
                        .collect()
                })
            })
            .collect()
    }

    /// Every conclusion of X-Colors, from the definition with plain loops: each color of
    /// each cluster extended by exception cells until nothing changes, then the trap, the
    /// cell colored twice and the false color.
    fn x_colors_reference(c: &Candidates) -> BTreeSet<Conclusion> {
        let mut out = BTreeSet::new();
        for d in Digit::all() {
            let has = |x: Cell| c.get(x).contains(d);
            let in_house =
                |h: House| -> Vec<Cell> { h.cells().iter().copied().filter(|&x| has(x)).collect() };
            for mut ext in reference_clusters(c, d) {
                let mut false_color = [false; 2];
                for k in 0..2 {
                    loop {
                        let sees_color = |x: Cell| ext[k].iter().any(|&y| y.sees(x));
                        let mut grown = None;
                        for h in House::all() {
                            let cands = in_house(h);
                            let unseen: Vec<Cell> =
                                cands.iter().copied().filter(|&x| !sees_color(x)).collect();
                            if !cands.is_empty() && unseen.is_empty() {
                                false_color[k] = true;
                            }
                            if unseen.len() == 1 && !ext[k].contains(&unseen[0]) {
                                grown = Some(unseen[0]);
                            }
                        }
                        match grown {
                            Some(x) => ext[k].push(x),
                            None => break,
                        }
                    }
                    false_color[k] |= ext[k].iter().any(|&x| ext[k].iter().any(|&y| x.sees(y)));
                }
                for x in Cell::all().filter(|&x| has(x)) {
                    let in_color = [0, 1].map(|k| ext[k].contains(&x));
                    let sees = [0, 1].map(|k| ext[k].iter().any(|&y| y.sees(x)));
                    match false_color {
                        [true, true] => {}
                        [false, false] => {
                            if in_color[0] && in_color[1] {
                                out.insert((x, d, true));
                            }
                            if !in_color[0] && !in_color[1] && sees[0] && sees[1] {
                                out.insert((x, d, false));
                            }
                        }
                        // The color that is not false holds.
                        _ => {
                            let true_color = usize::from(false_color[0]);
                            if in_color[true_color] {
                                out.insert((x, d, true));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The eliminations of Simple Colors Trap, Simple Colors Wrap, Multi Colors 1 and Multi
    /// Colors 2, in that order, from HoDoKu's definitions by brute force over cells: a cell
    /// outside a cluster that sees both its colors; every cell of a color two of whose cells
    /// see each other; with a color `a` of one cluster seeing a color `b` of another, every
    /// cell outside both that sees both opposite colors; every cell of a color seeing both
    /// colors of another cluster.
    fn simple_colors_reference(c: &Candidates) -> [BTreeSet<(Cell, Digit)>; 4] {
        let mut out: [BTreeSet<(Cell, Digit)>; 4] = Default::default();
        for d in Digit::all() {
            let with_d: Vec<Cell> = Cell::all().filter(|&x| c.get(x).contains(d)).collect();
            let clusters = reference_clusters(c, d);
            let sees = |x: Cell, color: &[Cell]| color.iter().any(|&y| y.sees(x));
            let meet = |p: &[Cell], q: &[Cell]| p.iter().any(|&x| sees(x, q));
            let outside = |x: &&Cell, cl: &[Vec<Cell>; 2]| !cl[0].contains(x) && !cl[1].contains(x);
            for (i, a) in clusters.iter().enumerate() {
                for &x in with_d.iter().filter(|x| outside(x, a)) {
                    if sees(x, &a[0]) && sees(x, &a[1]) {
                        out[0].insert((x, d));
                    }
                }
                for color in a.iter().filter(|color| meet(color, color)) {
                    out[1].extend(color.iter().map(|&x| (x, d)));
                }
                for b in clusters
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, b)| b)
                {
                    for ka in 0..2 {
                        if meet(&a[ka], &b[0]) && meet(&a[ka], &b[1]) {
                            out[3].extend(a[ka].iter().map(|&x| (x, d)));
                        }
                        for kb in (0..2).filter(|&kb| meet(&a[ka], &b[kb])) {
                            for &x in with_d.iter().filter(|x| outside(x, a) && outside(x, b)) {
                                if sees(x, &a[1 - ka]) && sees(x, &b[1 - kb]) {
                                    out[2].insert((x, d));
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Every step of the four simple colorings, in the order of the reference's sets, with
    /// each finder's first step.
    fn simple_colors_searches(c: &Candidates) -> [(Vec<Step>, Option<Step>); 4] {
        [
            (simple_colors_traps(c).collect(), simple_colors_trap(c)),
            (simple_colors_wraps(c).collect(), simple_colors_wrap(c)),
            (multi_colors_1_steps(c).collect(), multi_colors_1(c)),
            (multi_colors_2_steps(c).collect(), multi_colors_2(c)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// For Simple Colors Trap and Wrap and Multi Colors 1 and 2: the search removes
        /// exactly what the reference does, the finder gives its first step, and no step
        /// removes the solution.
        #[test]
        fn simple_colorings_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..95,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let searches = simple_colors_searches(&c);
            for ((all, first), reference) in searches.into_iter().zip(simple_colors_reference(&c)) {
                check_search(&all, first, &reference, &solution)?;
            }
        }
    }

    /// The positions of the property test hold each simple coloring: a fixed sweep, with the
    /// number of positions where each technique removes something.
    #[test]
    fn random_positions_hold_simple_colorings() {
        for k in 0..4 {
            let positions = sweep(
                400,
                (20, 75),
                |c| simple_colors_searches(c)[k].0.clone(),
                |c| simple_colors_reference(c)[k].clone(),
            );
            assert!(positions > 10, "technique {k}: {positions} positions");
        }
    }

    /// The conclusions of `steps`, as the reference lists them.
    fn conclusions(steps: &[Step]) -> BTreeSet<Conclusion> {
        steps
            .iter()
            .flat_map(|s| {
                let placed = s.placements.iter().map(|&(x, d)| (x, d, true));
                placed.chain(s.eliminations.iter().map(|&(x, d)| (x, d, false)))
            })
            .collect()
    }

    /// Whether the solution keeps every conclusion.
    fn sound(conclusions: &BTreeSet<Conclusion>, solution: &Grid) -> bool {
        conclusions
            .iter()
            .all(|&(x, d, placed)| (solution.get(x) == Some(d)) == placed)
    }

    /// A fixed sweep of `count` positions on which `search` must conclude what `reference`
    /// does and keep the solution: the numbers of positions with a step that has fins, with a
    /// placement, with an elimination.
    fn sweep_conclusions(
        count: usize,
        search: impl Fn(&Candidates) -> Vec<Step>,
        reference: impl Fn(&Candidates) -> BTreeSet<Conclusion>,
    ) -> [usize; 3] {
        let mut positions = [0; 3];
        for index in 0..count {
            let drop = index as u64 % 80;
            let (c, solution) = random_position(index, index % 30, drop, index as u64);
            let steps = search(&c);
            let found = conclusions(&steps);
            assert_eq!(found, reference(&c), "{c}");
            assert!(sound(&found, &solution), "{c}");
            positions[0] += usize::from(steps.iter().any(|s| !s.fins.is_empty()));
            positions[1] += usize::from(found.iter().any(|f| f.2));
            positions[2] += usize::from(found.iter().any(|f| !f.2));
        }
        positions
    }

    #[test]
    fn random_positions_hold_x_colors() {
        // The fins are the exception cells.
        let positions = sweep_conclusions(600, |c| x_colors_steps(c).collect(), x_colors_reference);
        assert!(positions.iter().all(|&n| n > 10), "{positions:?}");
    }

    #[test]
    fn random_positions_hold_medusa() {
        let positions = sweep_conclusions(300, |c| medusa_steps(c).collect(), medusa_reference);
        assert!(positions[1..].iter().all(|&n| n > 10), "{positions:?}");
    }

    /// Every conclusion of 3D Medusa, from the definition with plain loops: every two
    /// candidates tested for a strong link (the only two of a cell, or of a digit in a
    /// house), clusters colored alternately, then SudokuWiki's six rules one by one.
    fn medusa_reference(c: &Candidates) -> BTreeSet<Conclusion> {
        let nodes: Vec<(Cell, Digit)> = Cell::all()
            .flat_map(|x| c.get(x).iter().map(move |d| (x, d)))
            .collect();
        let in_house = |h: House, d: Digit| -> Vec<Cell> {
            h.cells()
                .iter()
                .copied()
                .filter(|&x| c.get(x).contains(d))
                .collect()
        };
        let strong = |(x, d): (Cell, Digit), (y, e): (Cell, Digit)| {
            (x == y && d != e && c.get(x).len() == 2)
                || (d == e
                    && x.sees(y)
                    && x.houses().into_iter().any(|h| {
                        let v = in_house(h, d);
                        v.len() == 2 && v.contains(&y)
                    }))
        };
        let n = nodes.len();
        let links: Vec<Vec<usize>> = (0..n)
            .map(|i| (0..n).filter(|&j| strong(nodes[i], nodes[j])).collect())
            .collect();
        let mut color: Vec<Option<(usize, usize)>> = vec![None; n];
        let mut out = BTreeSet::new();
        for start in 0..n {
            if color[start].is_some() || links[start].is_empty() {
                continue;
            }
            color[start] = Some((start, 0));
            let mut changed = true;
            while changed {
                changed = false;
                for i in 0..n {
                    for &j in &links[i] {
                        if let (Some((cl, k)), None) = (color[i], color[j]) {
                            color[j] = Some((cl, 1 - k));
                            changed = true;
                        }
                    }
                }
            }
            let of = |k: usize| -> Vec<(Cell, Digit)> {
                (0..n)
                    .filter(|&i| color[i] == Some((start, k)))
                    .map(|i| nodes[i])
                    .collect()
            };
            let cols = [of(0), of(1)];
            let colored = |x: Cell, d: Digit| cols.iter().any(|col| col.contains(&(x, d)));
            let cell_colored = |x: Cell| cols.iter().flatten().any(|&(y, _)| y == x);
            let is_false = |k: usize| {
                let col = &cols[k];
                // Rule 1: a digit twice in a cell. Rule 2: a digit twice in a house.
                let rule1 = col
                    .iter()
                    .any(|&(x, d)| col.iter().any(|&(y, e)| x == y && d != e));
                let rule2 = col
                    .iter()
                    .any(|&(x, d)| col.iter().any(|&(y, e)| d == e && x.sees(y)));
                // Rule 6: an uncolored cell each of whose candidates sees its digit in the color.
                let rule6 = Cell::all().any(|x| {
                    c.value(x).is_none()
                        && !cell_colored(x)
                        && c.get(x)
                            .iter()
                            .all(|d| col.iter().any(|&(y, e)| e == d && y.sees(x)))
                });
                rule1 || rule2 || rule6
            };
            match [is_false(0), is_false(1)] {
                [true, true] => {}
                [false, false] => {
                    for &(x, d) in nodes.iter().filter(|&&(x, d)| !colored(x, d)) {
                        let sees = |k: usize| cols[k].iter().any(|&(y, e)| e == d && y.sees(x));
                        let in_cell = |k: usize| cols[k].iter().any(|&(y, e)| y == x && e != d);
                        // Rule 3: both colors in the cell. Rule 4: it sees both colors of its
                        // digit. Rule 5: one color in the cell, the other of its digit seen.
                        let rule3 = in_cell(0) && in_cell(1);
                        let rule4 = sees(0) && sees(1);
                        let rule5 = (in_cell(0) && sees(1)) || (in_cell(1) && sees(0));
                        if rule3 || rule4 || rule5 {
                            out.insert((x, d, false));
                        }
                    }
                }
                [first, _] => {
                    out.extend(cols[usize::from(first)].iter().map(|&(x, d)| (x, d, true)));
                }
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        /// For X-Colors and 3D Medusa: the search concludes exactly what the reference does,
        /// the finder gives its first step, and the solution keeps every conclusion.
        #[test]
        fn extended_colorings_find_every_conclusion_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..95,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let techniques: [(Vec<Step>, Option<Step>, BTreeSet<Conclusion>); 2] = [
                (x_colors_steps(&c).collect(), x_colors(&c), x_colors_reference(&c)),
                (medusa_steps(&c).collect(), medusa(&c), medusa_reference(&c)),
            ];
            for (all, first, reference) in techniques {
                let found = conclusions(&all);
                prop_assert_eq!(&found, &reference);
                prop_assert_eq!(first, all.first().cloned());
                prop_assert!(sound(&found, &solution));
            }
        }
    }

    /// The first step of `technique` in the standard solve of `line`, checked against the
    /// solution.
    fn first_in_solve(line: &str, technique: Technique) -> Step {
        let mut c = from_line(line);
        let solution = crate::solver::count(c.grid(), 2)
            .solution
            .expect("solvable");
        let engine = Engine::new(TechniqueSet::standard()).unique(true);
        loop {
            let step = engine.next_step(&c).expect("a step");
            if step.technique == technique {
                let found = conclusions(std::slice::from_ref(&step));
                assert!(sound(&found, &solution), "{step}");
                return step;
            }
            apply(&mut c, &step);
        }
    }

    #[test]
    fn x_colors_traps_with_an_exception_cell() {
        // Digit 5 everywhere but in row 1 outside r1c1,r1c5 (the only conjugate pair) and in
        // r4c2,r4c3,r5c3,r6c2,r6c3. Box 4 then holds 5 at r4c1,r5c1,r6c1, which see r1c1, and
        // r5c2: if r1c1 is 5, so is r5c2. r5c5 sees r5c2 and r1c5; Simple Colors sees nothing.
        let removed = [(4, 2), (4, 3), (5, 3), (6, 2), (6, 3)];
        let cells: Vec<(usize, usize)> = (1..=9)
            .flat_map(|r| (1..=9).map(move |col| (r, col)))
            .filter(|&(r, col)| (r != 1 || col == 1 || col == 5) && !removed.contains(&(r, col)))
            .collect();
        let c = only_digit_in(&cells, 5);
        assert!(simple_colors_trap(&c).is_none() && multi_colors_1(&c).is_none());
        let s = x_colors(&c).expect("x-colors");
        assert_eq!(
            s.to_string(),
            "X-Colors: 5 colored r1c1 (+r5c2) / r1c5 => r5c5<>5"
        );
        assert_eq!(s.fins, vec![cell(5, 2)]);
    }

    #[test]
    fn x_colors_in_a_magictour_puzzle() {
        // data/puzzles3_magictour_top1465, puzzle 36. The color r1c2,r7c1 of 9 takes five
        // exception cells and then proves false, so r3c1, the other color, is 9.
        let line =
            ".......71.2.8........5.3...7.9.6.......2..8..1.........3...25..6...1..4..........";
        let s = first_in_solve(line, Technique::XColors);
        assert_eq!(
            s.to_string(),
            "X-Colors: 9 colored r1c2,r7c1 (+r2c8,r3c5,r6c4,r8c6,r9c9) / r3c1 => r3c1=9"
        );
        assert_eq!(s.fins.len(), 5);
    }

    #[test]
    fn medusa_removes_by_two_colors_in_a_cell_and_in_a_row() {
        // r1c1 is {1,2}; row 1 holds 1 and 2 only there and in r1c5; columns 1 and 5 hold 1
        // only in rows 1 and 9. Colors: 1r1c1, 2r1c5, 1r9c5 / 2r1c1, 1r1c5, 1r9c1. r1c5 holds
        // both colors and loses its other digits (rule 3); the rest of row 9 sees 1 in both
        // colors and loses it (rule 4).
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 1, 1, "12");
        let ones: Vec<(usize, usize)> = (1..=9)
            .flat_map(|r| (1..=9).map(move |col| (r, col)))
            .filter(|&(r, col)| match (r, col) {
                (1, _) => col == 1 || col == 5,
                (_, 1 | 5) => r == 9,
                _ => true,
            })
            .collect();
        keep_digit_only_in(&mut c, &ones, 1);
        for col in [2, 3, 4, 6, 7, 8, 9] {
            c.eliminate(cell(1, col), Digit::new(2).expect("digit"));
        }
        let s = medusa(&c).expect("medusa");
        assert_eq!(s.detail, "colored 1r1c1,2r1c5,1r9c5 / 2r1c1,1r1c5,1r9c1");
        let mut expected: Vec<(usize, usize, u8)> = (3..=9).map(|d| (1, 5, d)).collect();
        expected.extend([2, 3, 4, 6, 7, 8, 9].map(|col| (9, col, 1)));
        assert_eq!(elims(&s), expected);
    }

    #[test]
    fn medusa_in_a_magictour_puzzle() {
        // data/puzzles3_magictour_top1465, puzzle 46, after 39 steps of the standard solve
        // without chains through almost locked sets: 2r9c2 sees 2r3c2 (column 2) and shares
        // its cell with 3r9c2, of the opposite color (SudokuWiki's rule 5).
        let c = Candidates::from_pencil_marks(
            "6 47 479 1 3459 3459 2 8 35  48 5 3 2 468 468 1 9 7  29 128 189 7 3589 3589 6 4 35
             357 14 45 8 139 279 49 6 24  48 9 1468 5 16 26 7 3 1248
             37 368 2 4 1369 3679 89 5 18  25 248 458 6 7 148 3 12 9
             39 4678 4678 39 2 148 5 17 48  1 237 79 39 458 458 48 27 6",
        )
        .expect("pencil marks");
        let solution = crate::solver::count(c.grid(), 2)
            .solution
            .expect("solvable");
        let s = medusa(&c).expect("medusa");
        assert!(sound(&conclusions(std::slice::from_ref(&s)), &solution));
        assert_eq!(elims(&s), vec![(9, 2, 2)]);
        assert!(s.detail.contains("3r9c2") && s.detail.contains("2r3c2"));
    }

    #[test]
    fn trap_removes_a_cell_seeing_both_colors() {
        // Digit 3, pairs: column 4 {r1c4,r7c4}, row 7 {r7c4,r7c9}, box 9 {r7c9,r8c8}.
        // Colors r1c4,r7c9 / r7c4,r8c8; r1c8 sees r1c4 (row 1) and r8c8 (column 8).
        let c = only_digit_in(&[(1, 1), (1, 4), (1, 8), (5, 8), (7, 4), (7, 9), (8, 8)], 3);
        let s = simple_colors_trap(&c).expect("trap");
        assert_eq!(s.technique, Technique::SimpleColorsTrap);
        assert_eq!(elims(&s), vec![(1, 8, 3)]);
        assert_eq!(s.detail, "3 colored r1c4,r7c9 / r7c4,r8c8");
        assert!(simple_colors_wrap(&c).is_none());
    }

    #[test]
    fn wrap_removes_a_color_that_sees_itself() {
        // Digit 5, pairs: row 1 {r1c1,r1c5}, column 5 {r1c5,r5c5}, row 5 {r5c5,r5c2},
        // column 2 {r5c2,r2c2}: colors r1c1,r2c2,r5c5 / r1c5,r5c2. r1c1 and r2c2 share box 1
        // (which holds r3c3 too, so it is no pair), so their color is false.
        let c = only_digit_in(
            &[
                (1, 1),
                (1, 5),
                (5, 5),
                (5, 2),
                (2, 2),
                (2, 7),
                (2, 8),
                (3, 3),
                (9, 1),
                (8, 1),
            ],
            5,
        );
        let s = simple_colors_wrap(&c).expect("wrap");
        assert_eq!(elims(&s), vec![(1, 1, 5), (2, 2, 5), (5, 5, 5)]);
    }

    #[test]
    fn multi_colors_1_traps_between_two_clusters() {
        // Digit 7, cluster A: row 1 {r1c1,r1c6}. Cluster B: column 2 {r3c2,r8c2} and box 7
        // {r8c2,r8c1}. r1c1 and r3c2 share box 1, so r1c6 or r8c2 is 7: r8c6 sees both.
        let c = only_digit_in(
            &[
                (1, 1),
                (1, 6),
                (3, 2),
                (8, 2),
                (8, 6),
                (5, 6),
                (2, 3),
                (3, 7),
                (3, 8),
                (3, 9),
                (5, 1),
                (8, 1),
                (5, 4),
                (5, 5),
            ],
            7,
        );
        let s = multi_colors_1(&c).expect("multi colors 1");
        assert_eq!(s.technique, Technique::MultiColors1);
        assert_eq!(elims(&s), vec![(8, 6, 7)]);
        assert!(multi_colors_2(&c).is_none());
    }

    #[test]
    fn multi_colors_2_removes_a_color_seeing_both_colors_of_another_cluster() {
        // Digit 2, cluster A: row 1 {r1c1,r1c9}. Cluster B: row 3 {r3c2,r3c4}, column 4
        // {r3c4,r5c4}, row 5 {r5c4,r5c1}: colors r3c2,r5c4 / r3c4,r5c1. r1c1 sees r3c2 (box
        // 1) and r5c1 (column 1): if it were 2, r3c4 and r5c4 would both be 2.
        let mut cells = vec![
            (1, 1),
            (1, 9),
            (5, 1),
            (5, 4),
            (3, 4),
            (3, 2),
            (2, 3),
            (7, 1),
        ];
        cells.extend((7..=9).flat_map(|r| (7..=9).map(move |col| (r, col))));
        let c = only_digit_in(&cells, 2);
        let s = multi_colors_2(&c).expect("multi colors 2");
        assert_eq!(s.technique, Technique::MultiColors2);
        assert_eq!(elims(&s), vec![(1, 1, 2)]);
        assert_eq!(s.detail, "2 colored r1c1 / r1c9 and r3c2,r5c4 / r3c4,r5c1");
    }
}
