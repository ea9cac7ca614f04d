//! Singles: full house, hidden single, naked single — the steps that place digits directly.
//!
//! Hidden singles are searched in boxes first, then rows, then columns, because players find
//! (and Sudoku Explainer rates) box singles easiest; the step records the house so the rating
//! can tell them apart.

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, DigitSet, House};
use crate::step::{Step, Technique};

/// Houses in the order singles are searched: boxes, rows, columns.
fn box_first_houses() -> impl Iterator<Item = House> {
    (18..27).chain(0..18).filter_map(House::from_index)
}

/// The last empty cell of a house takes the house's missing digit.
pub fn full_house(c: &Candidates) -> Option<Step> {
    for house in box_first_houses() {
        let empty: CellSet = house
            .cells()
            .iter()
            .copied()
            .filter(|&cl| c.value(cl).is_none())
            .collect();
        if empty.len() != 1 {
            continue;
        }
        let cell = empty.first()?;
        let missing = !c.placed_in(house);
        if let Some(d) = missing.only().filter(|&d| c.get(cell).contains(d)) {
            return Some(placement(Technique::FullHouse, cell, d, Some(house)));
        }
    }
    None
}

/// A digit with one possible cell in a house goes there.
pub fn hidden_single(c: &Candidates) -> Option<Step> {
    for house in box_first_houses() {
        let missing = !c.placed_in(house);
        for d in missing.iter() {
            let cells = c.cells_with_in(house, d);
            if cells.len() == 1 {
                let cell = cells.first()?;
                return Some(placement(Technique::HiddenSingle, cell, d, Some(house)));
            }
        }
    }
    None
}

/// A cell with one candidate takes it.
pub fn naked_single(c: &Candidates) -> Option<Step> {
    Cell::all().find_map(|cell| {
        let d = c.get(cell).only()?;
        (c.value(cell).is_none()).then(|| placement(Technique::NakedSingle, cell, d, None))
    })
}

fn placement(t: Technique, cell: Cell, d: crate::grid::Digit, house: Option<House>) -> Step {
    let mut s = Step::new(t);
    s.placements.push((cell, d));
    s.cells.push(cell);
    s.digits = DigitSet::single(d);
    s.detail = format!("{cell}={d}");
    if let Some(h) = house {
        s.houses.push(h);
        s.detail = format!("{cell}={d} in {h}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{cell, d, from_line, only_digit_in, set_cell};

    #[test]
    fn full_house_fills_the_last_cell_of_a_row() {
        let c = from_line("12345678.");
        let s = full_house(&c).unwrap();
        assert_eq!(s.placements, vec![(cell(1, 9), d(9))]);
        assert_eq!(s.houses, vec![House::Row(0)]);
        assert_eq!(s.to_string(), "Full House: r1c9=9 in row 1");
    }

    #[test]
    fn hidden_single_prefers_boxes_and_names_the_house() {
        // 7 may go only at r2c2 in box 1 (and nowhere else is 7 restricted to one cell).
        let c = only_digit_in(&[(2, 2), (5, 5), (5, 6), (9, 9), (9, 8)], 7);
        let s = hidden_single(&c).unwrap();
        assert_eq!(s.placements, vec![(cell(2, 2), d(7))]);
        assert_eq!(s.houses, vec![House::Box(0)]);
        assert_eq!(s.to_string(), "Hidden Single: r2c2=7 in box 1");
        assert!(naked_single(&c).is_none());
    }

    #[test]
    fn hidden_single_in_a_row_when_no_box_has_one() {
        // 4 in row 3 only at r3c8; every box keeps two or more cells for 4.
        let mut c = crate::candidates::Candidates::new(&crate::grid::Grid::EMPTY);
        for col in 1..=9 {
            if col != 8 {
                c.eliminate(cell(3, col), d(4));
            }
        }
        let s = hidden_single(&c).unwrap();
        assert_eq!(s.placements, vec![(cell(3, 8), d(4))]);
        assert_eq!(s.houses, vec![House::Row(2)]);
    }

    #[test]
    fn naked_single_takes_the_only_candidate() {
        let mut c = crate::candidates::Candidates::new(&crate::grid::Grid::EMPTY);
        set_cell(&mut c, 6, 4, "3");
        let s = naked_single(&c).unwrap();
        assert_eq!(s.placements, vec![(cell(6, 4), d(3))]);
        assert_eq!(s.to_string(), "Naked Single: r6c4=3");
        assert!(full_house(&c).is_none());
    }
}
