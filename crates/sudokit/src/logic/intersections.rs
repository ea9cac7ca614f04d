//! Locked candidates: a digit confined to the intersection of a box and a line.
//!
//! Pointing: within a box the digit lies on one line, so the rest of that line loses it.
//! Claiming: within a line the digit lies in one box, so the rest of that box loses it.

use crate::candidates::Candidates;
use crate::grid::{CellSet, Digit, DigitSet, House};
use crate::step::{Step, Technique};

/// Locked Candidates Type 1 (Pointing).
pub fn pointing(c: &Candidates) -> Option<Step> {
    pointings(c).next()
}

/// Every pointing instance, box by box and digit by digit.
fn pointings(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    boxes_and_digits().flat_map(move |(bx, d)| {
        let in_box = c.cells_with_in(bx, d);
        // One cell is a hidden single, not a locked candidate.
        let lines = lines_through(in_box).filter(move |_| in_box.len() >= 2);
        lines.filter_map(move |line| {
            let targets = c.cells_with_in(line, d) - in_box;
            (!targets.is_empty()).then(|| {
                step(
                    Technique::LockedCandidatesPointing,
                    d,
                    bx,
                    line,
                    in_box,
                    targets,
                )
            })
        })
    })
}

/// Locked Candidates Type 2 (Claiming).
pub fn claiming(c: &Candidates) -> Option<Step> {
    claimings(c).next()
}

/// Every claiming instance, line by line (rows, then columns) and digit by digit.
fn claimings(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    let lines = (0..18).filter_map(House::from_index);
    lines
        .flat_map(|line| Digit::all().map(move |d| (line, d)))
        .filter_map(move |(line, d)| {
            let in_line = c.cells_with_in(line, d);
            if in_line.len() < 2 {
                return None;
            }
            let bx = House::Box(in_line.first()?.box_index() as u8);
            if !(in_line - CellSet::house(bx)).is_empty() {
                return None;
            }
            let targets = c.cells_with_in(bx, d) - in_line;
            (!targets.is_empty()).then(|| {
                step(
                    Technique::LockedCandidatesClaiming,
                    d,
                    line,
                    bx,
                    in_line,
                    targets,
                )
            })
        })
}

/// Every box with every digit, in the pointing search's order.
fn boxes_and_digits() -> impl Iterator<Item = (House, Digit)> {
    (0..9u8).flat_map(|b| Digit::all().map(move |d| (House::Box(b), d)))
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
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::grid::Cell;
    use crate::logic::testutil::{check_search, elims, only_digit_in, random_position, sweep};

    /// The eliminations of every locked candidate straight from the definition, pointing then
    /// claiming: for each box, each line crossing it and each digit, when the digit's two or
    /// more candidates in one of the two houses all lie in their intersection, the rest of
    /// the other house loses it.
    fn reference(c: &Candidates) -> [BTreeSet<(Cell, Digit)>; 2] {
        let mut out: [BTreeSet<(Cell, Digit)>; 2] = Default::default();
        for b in 0..9u8 {
            let lines = (0..9u8).flat_map(|i| [House::Row(i), House::Column(i)]);
            for line in lines {
                let in_box = |x: &Cell| House::Box(b).cells().contains(x);
                let on_line = |x: &Cell| line.cells().contains(x);
                if !Cell::all().any(|x| in_box(&x) && on_line(&x)) {
                    continue;
                }
                for d in Digit::all() {
                    let holders = |inside: &dyn Fn(&Cell) -> bool| -> Vec<Cell> {
                        Cell::all()
                            .filter(|x| inside(x) && c.get(*x).contains(d))
                            .collect()
                    };
                    let (box_cells, line_cells) = (holders(&in_box), holders(&on_line));
                    for (kind, base, cover) in
                        [(0, &box_cells, &line_cells), (1, &line_cells, &box_cells)]
                    {
                        if base.len() >= 2 && base.iter().all(|x| in_box(x) && on_line(x)) {
                            out[kind].extend(
                                cover.iter().filter(|x| !base.contains(x)).map(|&x| (x, d)),
                            );
                        }
                    }
                }
            }
        }
        out
    }

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

    #[test]
    fn random_positions_hold_locked_candidates() {
        let pointing_reference = |c: &Candidates| reference(c)[0].clone();
        let claiming_reference = |c: &Candidates| reference(c)[1].clone();
        let positions = sweep(300, (0, 60), |c| pointings(c).collect(), pointing_reference);
        assert!(positions > 100, "only {positions} positions with pointing");
        let positions = sweep(300, (0, 60), |c| claimings(c).collect(), claiming_reference);
        assert!(positions > 50, "only {positions} positions with claiming");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Both searches find exactly the reference's eliminations, each finder gives its
        /// search's first instance, and no step removes the solution.
        #[test]
        fn locked_candidates_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..85,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let [pointing_reference, claiming_reference] = reference(&c);
            let all: Vec<Step> = pointings(&c).collect();
            check_search(&all, pointing(&c), &pointing_reference, &solution)?;
            let all: Vec<Step> = claimings(&c).collect();
            check_search(&all, claiming(&c), &claiming_reference, &solution)?;
        }
    }
}
