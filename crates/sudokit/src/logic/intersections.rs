//! Locked candidates: a digit confined to the intersection of a box and a line.
//!
//! Pointing: within a box the digit lies on one line, so the rest of that line loses it.
//! Claiming: within a line the digit lies in one box, so the rest of that box loses it.

use crate::candidates::Candidates;
use crate::grid::{CellSet, Digit, DigitSet, House};
use crate::step::{Step, Technique};

/// Locked Candidates Type 1 (Pointing).
pub fn pointing(c: &Candidates) -> Option<Step> {
    for b in 0..9u8 {
        let bx = House::Box(b);
        for d in Digit::all() {
            let in_box = c.cells_with_in(bx, d);
            if in_box.len() < 2 {
                continue;
            }
            for line in lines_through(in_box) {
                let targets = c.cells_with_in(line, d) - in_box;
                if !targets.is_empty() {
                    return Some(step(
                        Technique::LockedCandidatesPointing,
                        d,
                        bx,
                        line,
                        in_box,
                        targets,
                    ));
                }
            }
        }
    }
    None
}

/// Locked Candidates Type 2 (Claiming).
pub fn claiming(c: &Candidates) -> Option<Step> {
    for line in (0..18).filter_map(House::from_index) {
        for d in Digit::all() {
            let in_line = c.cells_with_in(line, d);
            if in_line.len() < 2 {
                continue;
            }
            let Some(first) = in_line.first() else {
                continue;
            };
            let bx = House::Box(first.box_index() as u8);
            if !(in_line - CellSet::house(bx)).is_empty() {
                continue;
            }
            let targets = c.cells_with_in(bx, d) - in_line;
            if !targets.is_empty() {
                return Some(step(
                    Technique::LockedCandidatesClaiming,
                    d,
                    line,
                    bx,
                    in_line,
                    targets,
                ));
            }
        }
    }
    None
}

/// The row and/or column that contain every cell of `cells` (all in one box).
fn lines_through(cells: CellSet) -> impl Iterator<Item = House> {
    let first = cells.first();
    [
        first.map(|f| House::Row(f.row() as u8)),
        first.map(|f| House::Column(f.col() as u8)),
    ]
    .into_iter()
    .flatten()
    .filter(move |&h| (cells - CellSet::house(h)).is_empty())
}

fn step(
    t: Technique,
    d: Digit,
    base: House,
    cover: House,
    pattern: CellSet,
    targets: CellSet,
) -> Step {
    let mut s = Step::new(t);
    s.digits = DigitSet::single(d);
    s.houses = vec![base, cover];
    s.cells = pattern.iter().collect();
    s.eliminations = targets.iter().map(|cl| (cl, d)).collect();
    s.detail = format!("{d} in {base}");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{elims, only_digit_in};

    #[test]
    fn pointing_clears_the_rest_of_the_row() {
        // 5 in box 4 only at r4c1, r4c3; row 4 also holds 5 at r4c7, r4c9.
        let c = only_digit_in(
            &[
                (4, 1),
                (4, 3),
                (4, 7),
                (4, 9),
                (5, 7),
                (6, 9),
                (1, 2),
                (2, 5),
            ],
            5,
        );
        let s = pointing(&c).unwrap();
        assert_eq!(elims(&s), vec![(4, 7, 5), (4, 9, 5)]);
        assert_eq!(
            s.to_string(),
            "Locked Candidates Type 1 (Pointing): 5 in box 4 => r4c7<>5, r4c9<>5"
        );
    }

    #[test]
    fn claiming_clears_the_rest_of_the_box() {
        // Row 2's 8s are only in box 3 (c7, c9); box 3 also has 8 at r1c8, r3c7.
        let c = only_digit_in(
            &[
                (2, 7),
                (2, 9),
                (1, 8),
                (3, 7),
                (5, 1),
                (5, 4),
                (7, 4),
                (7, 1),
            ],
            8,
        );
        assert!(pointing(&c).is_none());
        let s = claiming(&c).unwrap();
        assert_eq!(elims(&s), vec![(1, 8, 8), (3, 7, 8)]);
        assert_eq!(s.houses, vec![House::Row(1), House::Box(2)]);
    }
}
