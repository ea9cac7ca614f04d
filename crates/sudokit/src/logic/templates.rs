//! Templates: Template Set and Template Delete, as HoDoKu defines them.
//!
//! A template of a digit is one way to place it in the whole grid: nine cells, one in each
//! row, column and box (46,656 in all). The templates of a digit that fit the position hold
//! every cell where it is placed and no cell where it is neither placed nor a candidate.
//! HoDoKu then drops, until nothing changes, every template of a digit that uses a cell which
//! every remaining template of another digit holds (that cell is the other digit's). A digit
//! belongs in every empty cell all its remaining templates hold (Template Set), and leaves
//! every cell none of them holds (Template Delete).
//!
//! The templates of a digit are found by a row-by-row search that only tries the digit's
//! cells and prunes a column or box already used, so a constrained digit costs little.

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet};
use crate::step::{cell_list, Step, Technique};

/// Template Set.
pub fn template_set(c: &Candidates) -> Option<Step> {
    template_sets(c).into_iter().next()
}

/// Template Delete.
pub fn template_delete(c: &Candidates) -> Option<Step> {
    template_deletes(c).into_iter().next()
}

/// Every Template Set, one per digit that has cells to take.
pub(crate) fn template_sets(c: &Candidates) -> Vec<Step> {
    let Some(templates) = refined_templates(c) else {
        return Vec::new();
    };
    let mut steps = Vec::new();
    for (d, list) in Digit::all().zip(&templates) {
        let every = list.iter().fold(CellSet::ALL, |acc, &t| acc & t);
        let cells = every - placed(c, d);
        if cells.is_empty() {
            continue;
        }
        let mut s = Step::new(Technique::TemplateSet);
        s.cells = cells.iter().collect();
        s.digits = DigitSet::single(d);
        s.placements = cells.iter().map(|x| (x, d)).collect();
        s.detail = format!(
            "{d} in {} in all {} templates",
            cell_list(&s.cells),
            list.len()
        );
        steps.push(s);
    }
    steps
}

/// Every Template Delete, one per digit that has candidates to lose.
pub(crate) fn template_deletes(c: &Candidates) -> Vec<Step> {
    let Some(templates) = refined_templates(c) else {
        return Vec::new();
    };
    let mut steps = Vec::new();
    for (d, list) in Digit::all().zip(&templates) {
        let some = list.iter().fold(CellSet::EMPTY, |acc, &t| acc | t);
        let gone = c.cells_with(d) - some;
        if gone.is_empty() {
            continue;
        }
        let mut s = Step::new(Technique::TemplateDelete);
        s.cells = (c.cells_with(d) & some).iter().collect();
        s.digits = DigitSet::single(d);
        s.eliminations = gone.iter().map(|x| (x, d)).collect();
        s.detail = format!("{d} in none of {} templates", list.len());
        steps.push(s);
    }
    steps
}

/// The cells where `d` is placed.
fn placed(c: &Candidates, d: Digit) -> CellSet {
    Cell::all().filter(|&x| c.value(x) == Some(d)).collect()
}

/// Each digit's templates that fit the position, less those that use a cell every template
/// of another digit holds, repeated until none goes; `None` when a digit has no template left
/// (the position has no solution, and a deduction from it would mean nothing).
fn refined_templates(c: &Candidates) -> Option<[Vec<CellSet>; 9]> {
    let mut templates: [Vec<CellSet>; 9] = std::array::from_fn(|i| {
        let d = Digit::from_index(i);
        let fixed = placed(c, d);
        fitting_templates(c.cells_with(d) | fixed)
            .into_iter()
            .filter(|&t| (fixed - t).is_empty())
            .collect()
    });
    loop {
        if templates.iter().any(Vec::is_empty) {
            return None;
        }
        let every: [CellSet; 9] =
            std::array::from_fn(|i| templates[i].iter().fold(CellSet::ALL, |acc, &t| acc & t));
        let mut removed = false;
        for (i, list) in templates.iter_mut().enumerate() {
            let taken = (0..9)
                .filter(|&k| k != i)
                .fold(CellSet::EMPTY, |acc, k| acc | every[k]);
            let before = list.len();
            list.retain(|&t| (t & taken).is_empty());
            removed |= list.len() != before;
        }
        if !removed {
            return Some(templates);
        }
    }
}

/// Every template inside `allowed`: one cell per row, column and box.
fn fitting_templates(allowed: CellSet) -> Vec<CellSet> {
    fn extend(
        row: usize,
        allowed: u128,
        columns: u16,
        boxes: u16,
        cells: u128,
        out: &mut Vec<CellSet>,
    ) {
        if row == 9 {
            out.push(CellSet::from_bits(cells));
            return;
        }
        let mut in_row = ((allowed >> (row * 9)) & 0x1ff) as u16 & !columns;
        while in_row != 0 {
            let col = in_row.trailing_zeros() as usize;
            in_row &= in_row - 1;
            let b = row / 3 * 3 + col / 3;
            if boxes & (1 << b) != 0 {
                continue;
            }
            extend(
                row + 1,
                allowed,
                columns | 1 << col,
                boxes | 1 << b,
                cells | 1u128 << (row * 9 + col),
                out,
            );
        }
    }
    let mut out = Vec::new();
    extend(0, allowed.bits(), 0, 0, 0, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::grid::{Grid, House};
    use crate::logic::testutil::{cell, check_search, d, random_position, sweep};

    /// Every template of `digit` on `c`, straight from the definition: nine cells, one per
    /// row, none sharing a column or box with another, each a candidate of the digit or
    /// holding it, every cell holding it included.
    fn reference_templates(c: &Candidates, digit: Digit) -> Vec<Vec<Cell>> {
        fn go(c: &Candidates, digit: Digit, chosen: &mut Vec<Cell>, out: &mut Vec<Vec<Cell>>) {
            let row = chosen.len();
            if row == 9 {
                out.push(chosen.clone());
                return;
            }
            for x in House::Row(row as u8).cells() {
                let fits = c.get(*x).contains(digit) || c.value(*x) == Some(digit);
                let clashes = chosen
                    .iter()
                    .any(|y| y.col() == x.col() || y.box_index() == x.box_index());
                if fits && !clashes {
                    chosen.push(*x);
                    go(c, digit, chosen, out);
                    chosen.pop();
                }
            }
        }
        let mut out = Vec::new();
        go(c, digit, &mut Vec::new(), &mut out);
        out.retain(|t| Cell::all().all(|x| c.value(x) != Some(digit) || t.contains(&x)));
        out
    }

    /// The reference's templates per digit after HoDoKu's refinement, with plain loops;
    /// `None` if a digit has none left.
    fn reference_refined(c: &Candidates) -> Option<Vec<Vec<Vec<Cell>>>> {
        let mut all: Vec<Vec<Vec<Cell>>> =
            Digit::all().map(|dg| reference_templates(c, dg)).collect();
        loop {
            if all.iter().any(Vec::is_empty) {
                return None;
            }
            let in_every = |list: &Vec<Vec<Cell>>| -> Vec<Cell> {
                Cell::all()
                    .filter(|x| list.iter().all(|t| t.contains(x)))
                    .collect()
            };
            let every: Vec<Vec<Cell>> = all.iter().map(in_every).collect();
            let before: usize = all.iter().map(Vec::len).sum();
            for (i, list) in all.iter_mut().enumerate() {
                list.retain(|t| !(0..9).any(|k| k != i && every[k].iter().any(|x| t.contains(x))));
            }
            if all.iter().map(Vec::len).sum::<usize>() == before {
                return Some(all);
            }
        }
    }

    /// Candidates, as (cell, digit).
    type Conclusions = BTreeSet<(Cell, Digit)>;

    /// Template Set's placements and Template Delete's eliminations from the reference.
    fn reference(c: &Candidates) -> (Conclusions, Conclusions) {
        let (mut set, mut delete) = (BTreeSet::new(), BTreeSet::new());
        let Some(all) = reference_refined(c) else {
            return (set, delete);
        };
        for (dg, list) in Digit::all().zip(&all) {
            for x in Cell::all() {
                if c.value(x).is_none() && list.iter().all(|t| t.contains(&x)) {
                    set.insert((x, dg));
                }
                if c.get(x).contains(dg) && !list.iter().any(|t| t.contains(&x)) {
                    delete.insert((x, dg));
                }
            }
        }
        (set, delete)
    }

    #[test]
    fn an_empty_grid_has_every_template() {
        assert_eq!(fitting_templates(CellSet::ALL).len(), 46_656);
        let c = Candidates::new(&Grid::EMPTY);
        assert!(template_set(&c).is_none());
        assert!(template_delete(&c).is_none());
    }

    #[test]
    fn two_lines_holding_a_digit_in_two_columns_take_those_columns_and_boxes() {
        // 1 in rows 1 and 2 only in columns 1 and 4 (an X-Wing): no other cell of those
        // columns holds it in any template, and neither does the rest of boxes 1 and 2.
        let mut c = Candidates::new(&Grid::EMPTY);
        for x in Cell::all() {
            if x.row() < 2 && x.col() != 0 && x.col() != 3 {
                c.eliminate(x, d(1));
            }
        }
        assert!(template_set(&c).is_none());
        let s = template_delete(&c).unwrap();
        assert_eq!(s.digits, DigitSet::single(d(1)));
        // Columns 1 and 4 below row 2 (14 cells) and the four other cells of row 3 in boxes
        // 1 and 2.
        assert_eq!(s.eliminations.len(), 14 + 4);
        for x in [cell(9, 1), cell(5, 4), cell(3, 2), cell(3, 6)] {
            assert!(s.eliminations.contains(&(x, d(1))), "{x}");
        }
        assert!(!s.eliminations.contains(&(cell(3, 7), d(1))));
    }

    #[test]
    fn a_cell_every_template_of_another_digit_holds_is_in_none_of_this_one() {
        // 1 only in r1c5 in row 1, so every template of 1 holds it; 2 in row 1 only in r1c5
        // and r1c7: HoDoKu's refinement leaves 2 the templates through r1c7.
        let mut c = Candidates::new(&Grid::EMPTY);
        for col in 1..=9 {
            if col != 5 {
                c.eliminate(cell(1, col), d(1));
            }
            if col != 5 && col != 7 {
                c.eliminate(cell(1, col), d(2));
            }
        }
        let placed: Vec<(Cell, Digit)> = template_sets(&c)
            .into_iter()
            .flat_map(|s| s.placements)
            .collect();
        assert_eq!(placed, vec![(cell(1, 5), d(1)), (cell(1, 7), d(2))]);
        let removed: BTreeSet<(Cell, Digit)> = template_deletes(&c)
            .into_iter()
            .flat_map(|s| s.eliminations)
            .collect();
        assert!(removed.contains(&(cell(1, 5), d(2))));
        assert_eq!(removed, reference(&c).1);
    }

    #[test]
    fn random_positions_hold_templates() {
        let deletes = sweep(300, (0, 85), template_deletes, |c| reference(c).1);
        assert!(
            deletes > 30,
            "only {deletes} positions with a Template Delete"
        );
        let mut sets = 0;
        for index in 0..300 {
            let (c, solution) = random_position(index, index % 30, index as u64 % 85, index as u64);
            let found: BTreeSet<(Cell, Digit)> = template_sets(&c)
                .into_iter()
                .flat_map(|s| s.placements)
                .collect();
            assert_eq!(found, reference(&c).0, "{c}");
            for &(x, dg) in &found {
                assert_eq!(solution.get(x), Some(dg));
            }
            sets += usize::from(!found.is_empty());
        }
        assert!(sets > 10, "only {sets} positions with a Template Set");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// Both searches find exactly the reference's conclusions, the finders give the first
        /// step, and no step places a wrong digit or removes the solution.
        #[test]
        fn templates_find_every_conclusion_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..85,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let (set, delete) = reference(&c);
            check_search(&template_deletes(&c), template_delete(&c), &delete, &solution)?;
            let sets = template_sets(&c);
            let placed: BTreeSet<(Cell, Digit)> =
                sets.iter().flat_map(|s| s.placements.iter().copied()).collect();
            prop_assert_eq!(placed, set);
            prop_assert_eq!(template_set(&c), sets.first().cloned());
            for &(x, dg) in sets.iter().flat_map(|s| &s.placements) {
                prop_assert_eq!(solution.get(x), Some(dg));
            }
        }
    }
}
