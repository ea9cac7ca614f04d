//! Wings: XY-Wing, XYZ-Wing, W-Wing, WXYZ-Wing.
//!
//! XY-Wing: a bivalue pivot `{x,y}` sees two bivalue pincers `{x,z}` and `{y,z}`; whatever the
//! pivot holds, one pincer holds `z`, so cells seeing both pincers lose `z`.
//! XYZ-Wing: the pivot is `{x,y,z}` itself, so the pivot may hold `z` too; only cells seeing
//! the pivot and both pincers lose `z`.
//! W-Wing: two bivalue cells `{x,y}` that do not see each other, joined by a conjugate pair of
//! `x` (one end seeing each cell): one of them must be `y`, so cells seeing both lose `y`.
//! WXYZ-Wing (the "bent quad" form the HoDoKu family uses): four unsolved cells of a line and a
//! box that cross, not all in one house, holding four digits between them, of which exactly one,
//! `z`, is "unrestricted" (its cells do not all see each other). Each restricted digit can take
//! at most one of the cells, so without `z` four cells would share three digits: one of them is
//! `z`, and cells seeing every `z` of the pattern lose it.

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::logic::crossings;
use crate::logic::single_digit::eliminations_text;
use crate::step::{cell_list, digit_list, Step, Technique};

/// XY-Wing.
pub fn xy_wing(c: &Candidates) -> Option<Step> {
    xy_wings(c, true).pop()
}

/// The XY-Wings in search order (pivots, then pincer pairs): only the first when `first` is
/// set.
fn xy_wings(c: &Candidates, first: bool) -> Vec<Step> {
    let mut found = Vec::new();
    let bivalue = c.bivalue_cells();
    for pivot in bivalue.iter() {
        let p = c.get(pivot);
        let wings: Vec<Cell> = (bivalue & CellSet::peers(pivot))
            .iter()
            .filter(|&w| (c.get(w) & p).len() == 1)
            .collect();
        for (i, &a) in wings.iter().enumerate() {
            for &b in &wings[i + 1..] {
                let (ca, cb) = (c.get(a), c.get(b));
                let z_set = (ca - p) & (cb - p);
                let Some(z) = z_set.only() else { continue };
                // The pincers must use different digits of the pivot.
                if (ca & p) == (cb & p) {
                    continue;
                }
                let targets = (c.cells_with(z) & CellSet::peers(a) & CellSet::peers(b))
                    - CellSet::single(pivot);
                if targets.is_empty() {
                    continue;
                }
                let (Some(x), Some(y)) = ((ca & p).only(), (cb & p).only()) else {
                    continue;
                };
                let mut s = wing_step(Technique::XYWing, pivot, a, b, z, targets);
                s.chain = Some(format!(
                    "({z}={x}){a}-({x}={y}){pivot}-({y}={z}){b} => {}",
                    eliminations_text(&s.eliminations)
                ));
                found.push(s);
                if first {
                    return found;
                }
            }
        }
    }
    found
}

/// XYZ-Wing.
pub fn xyz_wing(c: &Candidates) -> Option<Step> {
    xyz_wings(c, true).pop()
}

/// The XYZ-Wings in search order (pivots, then pincer pairs): only the first when `first`
/// is set.
fn xyz_wings(c: &Candidates, first: bool) -> Vec<Step> {
    let mut found = Vec::new();
    let bivalue = c.bivalue_cells();
    for pivot in Cell::all().filter(|&cl| c.get(cl).len() == 3) {
        let p = c.get(pivot);
        let wings: Vec<Cell> = (bivalue & CellSet::peers(pivot))
            .iter()
            .filter(|&w| (c.get(w) - p).is_empty())
            .collect();
        for (i, &a) in wings.iter().enumerate() {
            for &b in &wings[i + 1..] {
                let (ca, cb) = (c.get(a), c.get(b));
                if (ca | cb) != p {
                    continue;
                }
                let Some(z) = (ca & cb).only() else { continue };
                let targets =
                    c.cells_with(z) & CellSet::peers(pivot) & CellSet::peers(a) & CellSet::peers(b);
                if targets.is_empty() {
                    continue;
                }
                found.push(wing_step(Technique::XYZWing, pivot, a, b, z, targets));
                if first {
                    return found;
                }
            }
        }
    }
    found
}

fn wing_step(t: Technique, pivot: Cell, a: Cell, b: Cell, z: Digit, targets: CellSet) -> Step {
    let mut s = Step::new(t);
    s.cells = vec![pivot, a, b];
    s.digits = DigitSet::single(z);
    s.eliminations = targets.iter().map(|cl| (cl, z)).collect();
    s.detail = format!("pivot {pivot}, pincers {a}, {b}, {z} removed");
    s
}

/// W-Wing.
pub fn w_wing(c: &Candidates) -> Option<Step> {
    w_wings(c, true).pop()
}

/// The W-Wings in search order (pairs of cells, the digit of the link, its house): only the
/// first when `first` is set.
fn w_wings(c: &Candidates, first: bool) -> Vec<Step> {
    let mut found = Vec::new();
    let bivalue: Vec<Cell> = c.bivalue_cells().iter().collect();
    for (i, &a) in bivalue.iter().enumerate() {
        for &b in &bivalue[i + 1..] {
            let pair = c.get(a);
            if c.get(b) != pair || a.sees(b) {
                continue;
            }
            for x in pair.iter() {
                let Some(y) = (pair - DigitSet::single(x)).only() else {
                    continue;
                };
                let targets = c.cells_with(y) & CellSet::peers(a) & CellSet::peers(b);
                if targets.is_empty() {
                    continue;
                }
                for house in House::all() {
                    let link = c.cells_with_in(house, x);
                    if link.len() != 2 || link.contains(a) || link.contains(b) {
                        continue;
                    }
                    let mut it = link.iter();
                    let (Some(p), Some(q)) = (it.next(), it.next()) else {
                        continue;
                    };
                    let ends = if p.sees(a) && q.sees(b) {
                        (p, q)
                    } else if q.sees(a) && p.sees(b) {
                        (q, p)
                    } else {
                        continue;
                    };
                    let mut s = Step::new(Technique::WWing);
                    s.cells = vec![a, ends.0, ends.1, b];
                    s.houses = vec![house];
                    s.digits = pair;
                    s.eliminations = targets.iter().map(|cl| (cl, y)).collect();
                    s.detail = format!("{a}, {b} {{{x},{y}}} linked by {x} in {house}");
                    s.chain = Some(format!(
                        "({y}={x}){a}-({x}){}=({x}){}-({x}={y}){b} => {}",
                        ends.0,
                        ends.1,
                        eliminations_text(&s.eliminations)
                    ));
                    found.push(s);
                    if first {
                        return found;
                    }
                }
            }
        }
    }
    found
}

/// WXYZ-Wing.
pub fn wxyz_wing(c: &Candidates) -> Option<Step> {
    wxyz_wings(c).next()
}

/// Every WXYZ-Wing, bent region by bent region (rows then columns, each with the three boxes
/// it crosses).
fn wxyz_wings(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    crossings().flat_map(move |(line, b)| wxyz_in(c, line, b))
}

/// The WXYZ-Wings of the region `line` ∪ `b`: a depth-first choice of four cells that stops
/// as soon as the chosen cells hold more than four digits.
fn wxyz_in(c: &Candidates, line: House, b: House) -> Vec<Step> {
    let (in_line, in_box) = (CellSet::house(line), CellSet::house(b));
    let cells: Vec<Cell> = (in_line | in_box)
        .iter()
        .filter(|&x| (1..=4).contains(&c.get(x).len()))
        .collect();
    let mut found = Vec::new();
    let mut chosen = Vec::with_capacity(4);
    fn choose(
        c: &Candidates,
        cells: &[Cell],
        chosen: &mut Vec<Cell>,
        digits: DigitSet,
        visit: &mut impl FnMut(&[Cell], DigitSet),
    ) {
        if chosen.len() == 4 {
            visit(chosen, digits);
            return;
        }
        for (i, &x) in cells.iter().enumerate() {
            let union = digits | c.get(x);
            if union.len() > 4 {
                continue;
            }
            chosen.push(x);
            choose(c, &cells[i + 1..], chosen, union, visit);
            chosen.pop();
        }
    }
    choose(
        c,
        &cells,
        &mut chosen,
        DigitSet::EMPTY,
        &mut |set, digits| {
            let cells: CellSet = set.iter().copied().collect();
            if digits.len() != 4 || (cells - in_box).is_empty() || (cells - in_line).is_empty() {
                return;
            }
            let mut unrestricted = digits.iter().filter(|&d| {
                let holders = cells & c.cells_with(d);
                !(holders - in_line).is_empty() && !(holders - in_box).is_empty()
            });
            let (Some(z), None) = (unrestricted.next(), unrestricted.next()) else {
                return;
            };
            let holders = cells & c.cells_with(z);
            let targets = c.cells_with(z) & holders.common_peers();
            if targets.is_empty() {
                return;
            }
            let mut s = Step::new(Technique::WXYZWing);
            s.cells = set.to_vec();
            s.fins = holders.iter().collect();
            s.houses = vec![line, b];
            s.digits = digits;
            s.eliminations = targets.iter().map(|x| (x, z)).collect();
            s.detail = format!(
                "{} {} in {line} and {b}, {z} unrestricted",
                cell_list(set),
                digit_list(digits)
            );
            found.push(s);
        },
    );
    found
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::candidates::Candidates;
    use crate::grid::Grid;
    use crate::logic::testutil::{cell, check_search, elims, random_position, set_cell, sweep};
    use crate::logic::{first_combination, Finder};

    /// The eliminations of every WXYZ-Wing, straight from the definition: every four unsolved
    /// cells holding four digits between them, not in one house but inside one crossing line
    /// and box, with exactly one digit whose cells are not all peers of each other.
    fn wxyz_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let mut out = BTreeSet::new();
        let cells: Vec<Cell> = Cell::all()
            .filter(|&x| (1..=4).contains(&c.get(x).len()))
            .collect();
        first_combination(&cells, 4, &mut |set| {
            let digits = set.iter().fold(DigitSet::EMPTY, |acc, &x| acc | c.get(x));
            if digits.len() != 4 {
                return None::<()>;
            }
            let cells: CellSet = set.iter().copied().collect();
            let within = |h: House| (cells - CellSet::house(h)).is_empty();
            // The line and box of a bent region each hold one of the cells.
            let bent = || {
                set.iter().any(|x| {
                    set.iter().any(|y| {
                        let b = CellSet::house(House::Box(y.box_index() as u8));
                        [House::Row(x.row() as u8), House::Column(x.col() as u8)]
                            .into_iter()
                            .any(|line| {
                                let l = CellSet::house(line);
                                !(l & b).is_empty() && (cells - l - b).is_empty()
                            })
                    })
                })
            };
            if House::all().any(within) || !bent() {
                return None;
            }
            let holders = |d: Digit| -> Vec<Cell> {
                set.iter()
                    .copied()
                    .filter(|&x| c.get(x).contains(d))
                    .collect()
            };
            let unrestricted: Vec<Digit> = digits
                .iter()
                .filter(|&d| {
                    let h = holders(d);
                    h.iter().any(|x| h.iter().any(|y| x != y && !x.sees(*y)))
                })
                .collect();
            if let [z] = unrestricted[..] {
                let h = holders(z);
                for y in Cell::all() {
                    if c.get(y).contains(z) && h.iter().all(|&x| x != y && x.sees(y)) {
                        out.insert((y, z));
                    }
                }
            }
            None
        });
        out
    }

    #[test]
    fn wxyz_wing_in_a_row_and_a_box() {
        // Hinge r1c5 {1,2,5,9} in row 1 and box 2, r1c1 {1,9} and r1c2 {2,9} in row 1, r2c6
        // {5,9} in box 2: 1, 2 and 5 each lie in one house of the pattern, 9 does not. Only
        // r1c4 and r1c6 see all four 9s.
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 1, 5, "1259");
        set_cell(&mut c, 1, 1, "19");
        set_cell(&mut c, 1, 2, "29");
        set_cell(&mut c, 2, 6, "59");
        let s = wxyz_wing(&c).unwrap();
        assert_eq!(elims(&s), vec![(1, 4, 9), (1, 6, 9)]);
        assert_eq!(s.fins.len(), 4);
        // With 5 in r1c1 too, 5 is unrestricted as well: no wing.
        let mut c = Candidates::new(&Grid::EMPTY);
        for (r, col, digits) in [(1, 5, "1259"), (1, 1, "159"), (1, 2, "29"), (2, 6, "59")] {
            set_cell(&mut c, r, col, digits);
        }
        assert!(wxyz_wing(&c).is_none());
    }

    #[test]
    fn random_positions_hold_wxyz_wings() {
        let positions = sweep(300, (40, 45), |c| wxyz_wings(c).collect(), wxyz_reference);
        assert!(
            positions > 10,
            "only {positions} positions with a WXYZ-Wing"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        /// The search finds exactly the reference's eliminations, the finder gives the first
        /// instance, and no step removes the solution.
        #[test]
        fn wxyz_wing_finds_every_instance_and_is_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..85,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let all: Vec<Step> = wxyz_wings(&c).collect();
            check_search(&all, wxyz_wing(&c), &wxyz_reference(&c), &solution)?;
        }
    }

    /// The cells holding `z` that see every cell of `pattern`, outside it.
    fn seeing_all(c: &Candidates, z: Digit, pattern: &[Cell]) -> Vec<(Cell, Digit)> {
        Cell::all()
            .filter(|&t| c.get(t).contains(z) && pattern.iter().all(|&x| x != t && x.sees(t)))
            .map(|t| (t, z))
            .collect()
    }

    /// The eliminations of every XY-Wing, from the definition: a bivalue pivot `{x,y}` and
    /// two bivalue pincers `{x,z}` and `{y,z}` that see it; cells seeing both pincers lose `z`.
    fn xy_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let bivalue: Vec<Cell> = Cell::all().filter(|&x| c.get(x).len() == 2).collect();
        let mut out = BTreeSet::new();
        for &pivot in &bivalue {
            let p: Vec<Digit> = c.get(pivot).iter().collect();
            for &a in bivalue.iter().filter(|&&a| a.sees(pivot)) {
                for &b in bivalue.iter().filter(|&&b| b.sees(pivot) && b != a) {
                    for z in Digit::all().filter(|&z| !p.contains(&z)) {
                        let pair = |u: Digit| -> DigitSet { [u, z].into_iter().collect() };
                        if c.get(a) == pair(p[0]) && c.get(b) == pair(p[1]) {
                            out.extend(seeing_all(c, z, &[a, b]));
                        }
                    }
                }
            }
        }
        out
    }

    /// The eliminations of every XYZ-Wing, from the definition: a pivot holding exactly
    /// `{x,y,z}` and two bivalue pincers `{x,z}` and `{y,z}` that see it; cells seeing all
    /// three lose `z`.
    fn xyz_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let bivalue: Vec<Cell> = Cell::all().filter(|&x| c.get(x).len() == 2).collect();
        let mut out = BTreeSet::new();
        for pivot in Cell::all().filter(|&x| c.get(x).len() == 3) {
            let p = c.get(pivot);
            for &a in bivalue.iter().filter(|&&a| a.sees(pivot)) {
                for &b in bivalue.iter().filter(|&&b| b.sees(pivot) && b != a) {
                    let (ca, cb) = (c.get(a), c.get(b));
                    let Some(z) = (ca & cb).only() else { continue };
                    if (ca | cb) == p {
                        out.extend(seeing_all(c, z, &[pivot, a, b]));
                    }
                }
            }
        }
        out
    }

    /// The eliminations of every W-Wing, from the definition: two bivalue cells `{x,y}` that
    /// do not see each other, and a house holding `x` in exactly two other cells, one seeing
    /// each of them; cells seeing both bivalue cells lose `y`.
    fn w_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let bivalue: Vec<Cell> = Cell::all().filter(|&x| c.get(x).len() == 2).collect();
        let mut out = BTreeSet::new();
        for &a in &bivalue {
            for &b in bivalue.iter().filter(|&&b| b != a && !b.sees(a)) {
                if c.get(a) != c.get(b) {
                    continue;
                }
                let pair: Vec<Digit> = c.get(a).iter().collect();
                for (x, y) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                    let linked = House::all().any(|h| {
                        let ends: Vec<Cell> = h
                            .cells()
                            .iter()
                            .copied()
                            .filter(|&e| c.get(e).contains(x))
                            .collect();
                        ends.len() == 2
                            && !ends.contains(&a)
                            && !ends.contains(&b)
                            && ((ends[0].sees(a) && ends[1].sees(b))
                                || (ends[1].sees(a) && ends[0].sees(b)))
                    });
                    if linked {
                        out.extend(seeing_all(c, y, &[a, b]));
                    }
                }
            }
        }
        out
    }

    /// The three wings: each with its search, finder and reference.
    type Wing = (
        fn(&Candidates, bool) -> Vec<Step>,
        Finder,
        fn(&Candidates) -> BTreeSet<(Cell, Digit)>,
    );
    const WINGS: [Wing; 3] = [
        (xy_wings, xy_wing, xy_reference),
        (xyz_wings, xyz_wing, xyz_reference),
        (w_wings, w_wing, w_reference),
    ];

    #[test]
    fn random_positions_hold_xy_xyz_and_w_wings() {
        for (search, _, reference) in WINGS {
            let positions = sweep(300, (20, 60), |c| search(c, false), reference);
            assert!(positions > 30, "only {positions} positions with a wing");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        /// XY-Wing, XYZ-Wing and W-Wing: each search finds exactly the reference's
        /// eliminations, the finder gives the first instance, and no step removes the solution.
        #[test]
        fn wings_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..90,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            for (search, finder, reference) in WINGS {
                check_search(&search(&c, false), finder(&c), &reference(&c), &solution)?;
            }
        }
    }

    #[test]
    fn xy_wing_removes_z_from_cells_seeing_both_pincers() {
        // Pivot r2c2 {1,2}; pincers r2c7 {1,3} (row 2) and r6c2 {2,3} (column 2).
        // r6c7 sees both pincers; so does nothing else holding 3 except... r2c2's box? no.
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 2, 2, "12");
        set_cell(&mut c, 2, 7, "13");
        set_cell(&mut c, 6, 2, "23");
        let s = xy_wing(&c).unwrap();
        assert_eq!(elims(&s), vec![(6, 7, 3)]);
        assert_eq!(s.cells, vec![cell(2, 2), cell(2, 7), cell(6, 2)]);
        assert_eq!(
            s.chain.as_deref(),
            Some("(3=1)r2c7-(1=2)r2c2-(2=3)r6c2 => r6c7<>3")
        );
    }

    #[test]
    fn xy_wing_with_a_pincer_in_the_pivot_box() {
        // Pivot r1c1 {4,5}; pincers r3c2 {4,9} (box 1) and r1c8 {5,9} (row 1).
        // Cells seeing both: r1c2, r1c3 (row 1 + box 1) and r3c7, r3c8, r3c9 (row 3 + box 3).
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 1, 1, "45");
        set_cell(&mut c, 3, 2, "49");
        set_cell(&mut c, 1, 8, "59");
        let s = xy_wing(&c).unwrap();
        assert_eq!(
            elims(&s),
            vec![(1, 2, 9), (1, 3, 9), (3, 7, 9), (3, 8, 9), (3, 9, 9)]
        );
    }

    #[test]
    fn xyz_wing_needs_the_pivot_too() {
        // Pivot r5c5 {1,2,7}; pincers r5c2 {1,7} (row 5) and r4c6 {2,7} (box 5).
        // Cells seeing all three: r5c4, r5c6 (row 5, box 5).
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 5, 5, "127");
        set_cell(&mut c, 5, 2, "17");
        set_cell(&mut c, 4, 6, "27");
        assert!(xy_wing(&c).is_none());
        let s = xyz_wing(&c).unwrap();
        assert_eq!(elims(&s), vec![(5, 4, 7), (5, 6, 7)]);
    }

    #[test]
    fn w_wing_through_a_conjugate_pair() {
        // r1c1 and r5c9 both {3,8}; 8 in row 9 only at r9c1 and r9c9 (conjugate pair), r9c1
        // sees r1c1 and r9c9 sees r5c9. Cells seeing both {3,8} cells: r1c9, r5c1.
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 1, 1, "38");
        set_cell(&mut c, 5, 9, "38");
        for col in 2..=8 {
            c.eliminate(cell(9, col), crate::logic::testutil::d(8));
        }
        let s = w_wing(&c).unwrap();
        assert_eq!(elims(&s), vec![(1, 9, 3), (5, 1, 3)]);
        assert_eq!(
            s.chain.as_deref(),
            Some("(3=8)r1c1-(8)r9c1=(8)r9c9-(8=3)r5c9 => r1c9<>3, r5c1<>3")
        );
    }
}
