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
    full_houses(c).next()
}

/// Every full house, house by house in the search order.
fn full_houses(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    box_first_houses().filter_map(move |house| {
        let empty: CellSet = house
            .cells()
            .iter()
            .copied()
            .filter(|&cl| c.value(cl).is_none())
            .collect();
        if empty.len() != 1 {
            return None;
        }
        let cell = empty.first()?;
        let missing = !c.placed_in(house);
        let d = missing.only().filter(|&d| c.get(cell).contains(d))?;
        Some(placement(Technique::FullHouse, cell, d, Some(house)))
    })
}

/// A digit with one possible cell in a house goes there.
pub fn hidden_single(c: &Candidates) -> Option<Step> {
    hidden_singles(c).next()
}

/// Every hidden single, house by house in the search order.
fn hidden_singles(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    box_first_houses().flat_map(move |house| {
        let missing = !c.placed_in(house);
        missing.iter().filter_map(move |d| {
            let cells = c.cells_with_in(house, d);
            let cell = cells.first().filter(|_| cells.len() == 1)?;
            Some(placement(Technique::HiddenSingle, cell, d, Some(house)))
        })
    })
}

/// A cell with one candidate takes it.
pub fn naked_single(c: &Candidates) -> Option<Step> {
    naked_singles(c).next()
}

/// Every naked single, cell by cell.
fn naked_singles(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    Cell::all().filter_map(move |cell| {
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
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::grid::{Digit, Grid};
    use crate::logic::testutil::{cell, d, from_line, only_digit_in, random_position, set_cell};

    /// A placement with the house that forces it (none for a naked single).
    type Placement = (Cell, Digit, Option<House>);

    /// Every single straight from the definitions, one set per technique: a house with one
    /// empty cell whose candidates hold the digit the house lacks (Full House); a digit the
    /// house lacks with one candidate cell in it (Hidden Single); an empty cell with one
    /// candidate (Naked Single).
    fn reference(c: &Candidates) -> [BTreeSet<Placement>; 3] {
        let mut out: [BTreeSet<Placement>; 3] = Default::default();
        for house in House::all() {
            let cells = house.cells();
            let empty: Vec<Cell> = cells
                .iter()
                .copied()
                .filter(|&x| c.grid().get(x).is_none())
                .collect();
            for digit in Digit::all() {
                if cells.iter().any(|&x| c.grid().get(x) == Some(digit)) {
                    continue;
                }
                if let [x] = empty[..] {
                    if c.get(x).contains(digit) {
                        out[0].insert((x, digit, Some(house)));
                    }
                }
                let holders: Vec<Cell> = empty
                    .iter()
                    .copied()
                    .filter(|&x| c.get(x).contains(digit))
                    .collect();
                if let [x] = holders[..] {
                    out[1].insert((x, digit, Some(house)));
                }
            }
        }
        for x in Cell::all().filter(|&x| c.grid().get(x).is_none()) {
            if let [digit] = c.get(x).iter().collect::<Vec<_>>()[..] {
                out[2].insert((x, digit, None));
            }
        }
        out
    }

    /// The fast searches' placements, one set per technique, after checking that each finder
    /// returns its search's first step and that every placement is the solution's digit.
    fn found(c: &Candidates, solution: &Grid) -> Result<[BTreeSet<Placement>; 3], TestCaseError> {
        let searches: [(Vec<Step>, Option<Step>); 3] = [
            (full_houses(c).collect(), full_house(c)),
            (hidden_singles(c).collect(), hidden_single(c)),
            (naked_singles(c).collect(), naked_single(c)),
        ];
        let mut out: [BTreeSet<Placement>; 3] = Default::default();
        for (set, (all, first)) in out.iter_mut().zip(searches) {
            prop_assert_eq!(first, all.first().cloned());
            for s in all {
                for &(x, digit) in &s.placements {
                    prop_assert_eq!(solution.get(x), Some(digit), "{} is wrong", s);
                    set.insert((x, digit, s.houses.first().copied()));
                }
            }
        }
        Ok(out)
    }

    #[test]
    fn random_positions_hold_every_kind_of_single() {
        let mut positions = [0; 3];
        for index in 0..300 {
            let (c, solution) = random_position(index, index % 40, index as u64 % 60, index as u64);
            let found = found(&c, &solution).unwrap();
            assert_eq!(found, reference(&c), "{c}");
            for (count, set) in positions.iter_mut().zip(&found) {
                *count += usize::from(!set.is_empty());
            }
        }
        // Full houses are rare: the basic steps that lead to a position take them first.
        let [full_houses, hidden_singles, naked_singles] = positions;
        assert!(
            full_houses > 5 && hidden_singles > 100 && naked_singles > 100,
            "{positions:?}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The searches place exactly the reference's singles, each finder gives its search's
        /// first, and every placement is the solution's.
        #[test]
        fn singles_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..60,
            drop in 0u64..85,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            prop_assert_eq!(found(&c, &solution)?, reference(&c));
        }
    }

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
