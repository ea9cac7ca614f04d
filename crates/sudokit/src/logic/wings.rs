//! Wings: XY-Wing, XYZ-Wing, W-Wing.
//!
//! XY-Wing: a bivalue pivot `{x,y}` sees two bivalue pincers `{x,z}` and `{y,z}`; whatever the
//! pivot holds, one pincer holds `z`, so cells seeing both pincers lose `z`.
//! XYZ-Wing: the pivot is `{x,y,z}` itself, so the pivot may hold `z` too; only cells seeing
//! the pivot and both pincers lose `z`.
//! W-Wing: two bivalue cells `{x,y}` that do not see each other, joined by a conjugate pair of
//! `x` (one end seeing each cell): one of them must be `y`, so cells seeing both lose `y`.

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::logic::single_digit::eliminations_text;
use crate::step::{Step, Technique};

/// XY-Wing.
pub fn xy_wing(c: &Candidates) -> Option<Step> {
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
                let (x, y) = ((ca & p).only()?, (cb & p).only()?);
                let mut s = wing_step(Technique::XYWing, pivot, a, b, z, targets);
                s.chain = Some(format!(
                    "({z}={x}){a}-({x}={y}){pivot}-({y}={z}){b} => {}",
                    eliminations_text(&s.eliminations)
                ));
                return Some(s);
            }
        }
    }
    None
}

/// XYZ-Wing.
pub fn xyz_wing(c: &Candidates) -> Option<Step> {
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
                return Some(wing_step(Technique::XYZWing, pivot, a, b, z, targets));
            }
        }
    }
    None
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
                    let (p, q) = (it.next()?, it.next()?);
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
                    return Some(s);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::Candidates;
    use crate::grid::Grid;
    use crate::logic::testutil::{cell, elims, set_cell};

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
