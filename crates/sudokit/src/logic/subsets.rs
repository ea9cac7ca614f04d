//! Naked and hidden subsets (pairs, triples, quadruples).
//!
//! Naked: `n` cells of a house whose candidates together are just `n` digits; those digits
//! leave every other cell of the house — and of any other house all `n` cells share (a pair
//! inside both a box and a row clears both, what HoDoKu calls a locked pair).
//! Hidden: `n` digits of a house confined to the same `n` cells; those cells lose every other
//! digit.

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::step::{cell_list, digit_list, Step, Technique};

const NAKED: [Technique; 3] = [
    Technique::NakedPair,
    Technique::NakedTriple,
    Technique::NakedQuadruple,
];
const HIDDEN: [Technique; 3] = [
    Technique::HiddenPair,
    Technique::HiddenTriple,
    Technique::HiddenQuadruple,
];

/// Calls `f(subset, union)` on every `n`-element subset of `items` whose masks together have
/// exactly `n` bits, stopping at the first `Some`; partial subsets already over `n` bits are
/// pruned, which is what keeps quadruple searches cheap.
fn small_unions<T: Copy, R>(
    items: &[(T, u128)],
    n: usize,
    f: &mut impl FnMut(&[T], u128) -> Option<R>,
) -> Option<R> {
    fn go<T: Copy, R>(
        items: &[(T, u128)],
        n: usize,
        chosen: &mut Vec<T>,
        union: u128,
        f: &mut impl FnMut(&[T], u128) -> Option<R>,
    ) -> Option<R> {
        if chosen.len() == n {
            return (union.count_ones() as usize == n)
                .then(|| f(chosen, union))
                .flatten();
        }
        for (i, &(item, mask)) in items.iter().enumerate() {
            if items.len() - i < n - chosen.len() {
                break;
            }
            let u = union | mask;
            if u.count_ones() as usize > n {
                continue;
            }
            chosen.push(item);
            let r = go(&items[i + 1..], n, chosen, u, f);
            chosen.pop();
            if r.is_some() {
                return r;
            }
        }
        None
    }
    go(items, n, &mut Vec::with_capacity(n), 0, f)
}

/// The first naked subset of size `n` (2–4) that eliminates something. Subsets that also
/// lie in a box-line intersection are found here too (clearing both houses); a technique
/// order that lists [`Technique::LockedPair`] first reports those under that name instead.
pub fn naked(c: &Candidates, n: usize) -> Option<Step> {
    let technique = *NAKED.get(n.checked_sub(2)?)?;
    naked_in(c, n, technique, House::all(), false)
}

/// The first Locked Pair (`n == 2`) or Locked Triple (`n == 3`): a naked subset inside the
/// intersection of a box and a line, whose digits leave both houses.
pub fn locked(c: &Candidates, n: usize) -> Option<Step> {
    let technique = match n {
        2 => Technique::LockedPair,
        3 => Technique::LockedTriple,
        _ => return None,
    };
    naked_in(
        c,
        n,
        technique,
        (18..27).filter_map(House::from_index),
        true,
    )
}

fn naked_in(
    c: &Candidates,
    n: usize,
    technique: Technique,
    houses: impl Iterator<Item = House>,
    locked_only: bool,
) -> Option<Step> {
    for house in houses {
        let cells: Vec<(Cell, u128)> = house
            .cells()
            .iter()
            .copied()
            .filter(|&cl| (2..=n).contains(&c.get(cl).len()))
            .map(|cl| (cl, u128::from(c.get(cl).bits())))
            .collect();
        let found = small_unions(&cells, n, &mut |subset, mask| {
            let digits = DigitSet::from_bits(mask as u16);
            let set: CellSet = subset.iter().copied().collect();
            let shared: Vec<House> = House::all()
                .filter(|&h| (set - CellSet::house(h)).is_empty())
                .collect();
            if locked_only && shared.len() < 2 {
                return None;
            }
            let mut region = CellSet::EMPTY;
            for h in shared {
                region |= CellSet::house(h);
            }
            region -= set;
            let eliminations: Vec<(Cell, Digit)> = region
                .iter()
                .flat_map(|cl| (c.get(cl) & digits).iter().map(move |d| (cl, d)))
                .collect();
            if eliminations.is_empty() {
                return None;
            }
            let mut s = Step::new(technique);
            s.cells = subset.to_vec();
            s.digits = digits;
            s.houses = vec![house];
            s.eliminations = eliminations;
            s.detail = format!("{} {} in {house}", cell_list(subset), digit_list(digits));
            Some(s)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The first hidden subset of size `n` (2–4) that eliminates something.
pub fn hidden(c: &Candidates, n: usize) -> Option<Step> {
    let technique = *HIDDEN.get(n.checked_sub(2)?)?;
    for house in House::all() {
        let missing = !c.placed_in(house);
        let digits: Vec<(Digit, u128)> = missing
            .iter()
            .filter(|&d| (1..=n).contains(&c.cells_with_in(house, d).len()))
            .map(|d| (d, c.cells_with_in(house, d).bits()))
            .collect();
        let found = small_unions(&digits, n, &mut |subset, mask| {
            let cells = CellSet::from_bits(mask);
            let keep: DigitSet = subset.iter().copied().collect();
            let eliminations: Vec<(Cell, Digit)> = cells
                .iter()
                .flat_map(|cl| (c.get(cl) - keep).iter().map(move |d| (cl, d)))
                .collect();
            if eliminations.is_empty() {
                return None;
            }
            let list: Vec<Cell> = cells.iter().collect();
            let mut s = Step::new(technique);
            s.detail = format!("{} in {} ({house})", digit_list(keep), cell_list(&list));
            s.cells = list;
            s.digits = keep;
            s.houses = vec![house];
            s.eliminations = eliminations;
            Some(s)
        });
        if found.is_some() {
            return found;
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
    fn naked_pair_in_a_row_only() {
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 1, 1, "27");
        set_cell(&mut c, 1, 5, "27");
        set_cell(&mut c, 1, 9, "1279");
        for col in [2, 3, 4, 6, 7, 8] {
            set_cell(&mut c, 1, col, "134568");
        }
        let s = naked(&c, 2).unwrap();
        assert_eq!(s.technique, Technique::NakedPair);
        assert_eq!(elims(&s), vec![(1, 9, 2), (1, 9, 7)]);
        assert_eq!(
            s.to_string(),
            "Naked Pair: r1c1,r1c5 {2,7} in row 1 => r1c9<>2, r1c9<>7"
        );
    }

    #[test]
    fn naked_pair_in_box_and_row_clears_both() {
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 1, 1, "27");
        set_cell(&mut c, 1, 2, "27");
        let s = naked(&c, 2).unwrap();
        // Row 1 (7 cells) and box 1 (7 cells) lose 2 and 7.
        assert_eq!(s.eliminations.len(), 2 * (7 + 6));
        assert!(elims(&s).contains(&(3, 3, 7)));
        assert!(elims(&s).contains(&(1, 9, 2)));
        assert!(!elims(&s).contains(&(4, 1, 2)));
    }

    #[test]
    fn locked_pair_only_inside_a_box_line_intersection() {
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 1, 1, "27");
        set_cell(&mut c, 1, 5, "27");
        assert!(locked(&c, 2).is_none());
        set_cell(&mut c, 5, 4, "39");
        set_cell(&mut c, 6, 4, "39");
        let s = locked(&c, 2).unwrap();
        assert_eq!(s.technique, Technique::LockedPair);
        assert_eq!(s.cells, vec![cell(5, 4), cell(6, 4)]);
        // Column 4 (7 other cells) and box 5 (7 other cells, r4c4 among both) lose 3 and 9.
        assert_eq!(s.eliminations.len(), 2 * (7 + 6));
        assert_eq!(naked(&c, 2).unwrap().technique, Technique::NakedPair);
        assert!(locked(&c, 4).is_none());
    }

    #[test]
    fn naked_triple_without_any_cell_holding_all_three() {
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 2, 4, "12");
        set_cell(&mut c, 5, 4, "23");
        set_cell(&mut c, 8, 4, "13");
        for r in [1, 3, 4, 6, 7] {
            set_cell(&mut c, r, 4, "456789");
        }
        set_cell(&mut c, 9, 4, "3456789");
        assert!(naked(&c, 2).is_none());
        let s = naked(&c, 3).unwrap();
        assert_eq!(elims(&s), vec![(9, 4, 3)]);
        assert_eq!(s.houses, vec![House::Column(3)]);
    }

    #[test]
    fn hidden_pair_strips_other_digits() {
        // In box 9, 4 and 6 fit only r7c7 and r9c9.
        let mut c = Candidates::new(&Grid::EMPTY);
        for cl in House::Box(8).cells() {
            if ![(6, 6), (8, 8)].contains(&(cl.row(), cl.col())) {
                c.eliminate(*cl, Digit::new(4).unwrap());
                c.eliminate(*cl, Digit::new(6).unwrap());
            }
        }
        assert!(hidden(&c, 2).is_some());
        let s = hidden(&c, 2).unwrap();
        assert_eq!(s.houses, vec![House::Box(8)]);
        let expected: Vec<(usize, usize, u8)> = [(7, 7), (9, 9)]
            .iter()
            .flat_map(|&(r, col)| [1, 2, 3, 5, 7, 8, 9].map(|d| (r, col, d)))
            .collect();
        assert_eq!(elims(&s), expected);
        assert!(s
            .to_string()
            .starts_with("Hidden Pair: {4,6} in r7c7,r9c9 (box 9) => r7c7<>1"));
    }

    #[test]
    fn hidden_triple_in_a_column() {
        let mut c = Candidates::new(&Grid::EMPTY);
        for r in 1..=9 {
            if ![1, 4, 9].contains(&r) {
                set_cell(&mut c, r, 2, "125689");
            }
        }
        set_cell(&mut c, 1, 2, "1347");
        set_cell(&mut c, 4, 2, "37");
        set_cell(&mut c, 9, 2, "2489");
        let s = hidden(&c, 3).unwrap();
        assert_eq!(
            s.digits,
            [3, 4, 7].into_iter().filter_map(Digit::new).collect()
        );
        assert_eq!(elims(&s), vec![(1, 2, 1), (9, 2, 2), (9, 2, 8), (9, 2, 9)]);
    }
}
