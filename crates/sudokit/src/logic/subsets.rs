//! Naked and hidden subsets (pairs, triples, quadruples).
//!
//! Naked: `n` cells of a house whose candidates together are just `n` digits; those digits
//! leave every other cell of the house — and of any other house all `n` cells share (a pair
//! inside both a box and a row clears both, what HoDoKu calls a locked pair when it removes
//! digits in each). Cells with one candidate count, as in HoDoKu.
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
/// exactly `n` bits; partial subsets already over `n` bits are pruned, which is what keeps
/// quadruple searches cheap.
fn small_unions<T: Copy>(items: &[(T, u128)], n: usize, f: &mut impl FnMut(&[T], u128)) {
    fn go<T: Copy>(
        items: &[(T, u128)],
        n: usize,
        chosen: &mut Vec<T>,
        union: u128,
        f: &mut impl FnMut(&[T], u128),
    ) {
        if chosen.len() == n {
            if union.count_ones() as usize == n {
                f(chosen, union);
            }
            return;
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
            go(&items[i + 1..], n, chosen, u, f);
            chosen.pop();
        }
    }
    go(items, n, &mut Vec::with_capacity(n), 0, f);
}

/// The first naked subset of size `n` (2–4) that eliminates something. Subsets that also
/// lie in a box-line intersection are found here too (clearing both houses); a technique
/// order that lists [`Technique::LockedPair`] first reports those under that name instead.
pub fn naked(c: &Candidates, n: usize) -> Option<Step> {
    naked_subsets(c, n).next()
}

/// Every naked subset of size `n` that eliminates something, house by house.
fn naked_subsets(c: &Candidates, n: usize) -> impl Iterator<Item = Step> + '_ {
    let technique = n.checked_sub(2).and_then(|i| NAKED.get(i)).copied();
    technique
        .into_iter()
        .flat_map(move |t| House::all().flat_map(move |house| naked_in(c, n, t, house, false)))
}

/// The first Locked Pair (`n == 2`) or Locked Triple (`n == 3`): a naked subset inside the
/// intersection of a box and a line, whose digits leave both houses (removing some in each).
pub fn locked(c: &Candidates, n: usize) -> Option<Step> {
    locked_subsets(c, n).next()
}

/// Every Locked Pair or Triple, box by box.
fn locked_subsets(c: &Candidates, n: usize) -> impl Iterator<Item = Step> + '_ {
    let technique = match n {
        2 => Some(Technique::LockedPair),
        3 => Some(Technique::LockedTriple),
        _ => None,
    };
    let boxes = (18..27).filter_map(House::from_index);
    technique.into_iter().flat_map(move |t| {
        boxes
            .clone()
            .flat_map(move |house| naked_in(c, n, t, house, true))
    })
}

/// The naked subsets of size `n` in `house` that eliminate something (only those that also
/// lie in a second house when `locked_only`). Cells with a single candidate take part: with
/// another cell they are a subset by the definition, though singles come first in a solve.
fn naked_in(
    c: &Candidates,
    n: usize,
    technique: Technique,
    house: House,
    locked_only: bool,
) -> Vec<Step> {
    let cells: Vec<(Cell, u128)> = house
        .cells()
        .iter()
        .copied()
        .filter(|&cl| (1..=n).contains(&c.get(cl).len()))
        .map(|cl| (cl, u128::from(c.get(cl).bits())))
        .collect();
    let mut found = Vec::new();
    small_unions(&cells, n, &mut |subset, mask| {
        let digits = DigitSet::from_bits(mask as u16);
        let set: CellSet = subset.iter().copied().collect();
        let shared: Vec<House> = House::all()
            .filter(|&h| (set - CellSet::house(h)).is_empty())
            .collect();
        let mut region = CellSet::EMPTY;
        for &h in &shared {
            region |= CellSet::house(h);
        }
        region -= set;
        let targets: CellSet = region
            .iter()
            .filter(|&cl| !(c.get(cl) & digits).is_empty())
            .collect();
        if targets.is_empty() {
            return;
        }
        if locked_only {
            // HoDoKu's Locked Pair or Triple removes digits both in its box and in its line
            // outside the box; one that clears only one of them is a Naked Pair or Triple.
            let [line, bx] = shared[..] else {
                return;
            };
            let (line, bx) = (CellSet::house(line), CellSet::house(bx));
            if (targets & (line - bx)).is_empty() || (targets & bx).is_empty() {
                return;
            }
        }
        let eliminations: Vec<(Cell, Digit)> = targets
            .iter()
            .flat_map(|cl| (c.get(cl) & digits).iter().map(move |d| (cl, d)))
            .collect();
        let mut s = Step::new(technique);
        s.cells = subset.to_vec();
        s.digits = digits;
        s.houses = vec![house];
        s.eliminations = eliminations;
        s.detail = format!("{} {} in {house}", cell_list(subset), digit_list(digits));
        found.push(s);
    });
    found
}

/// The first hidden subset of size `n` (2–4) that eliminates something.
pub fn hidden(c: &Candidates, n: usize) -> Option<Step> {
    hidden_subsets(c, n).next()
}

/// Every hidden subset of size `n` that eliminates something, house by house.
fn hidden_subsets(c: &Candidates, n: usize) -> impl Iterator<Item = Step> + '_ {
    let technique = n.checked_sub(2).and_then(|i| HIDDEN.get(i)).copied();
    technique
        .into_iter()
        .flat_map(move |t| House::all().flat_map(move |house| hidden_in(c, n, t, house)))
}

/// The hidden subsets of size `n` in `house` that eliminate something.
fn hidden_in(c: &Candidates, n: usize, technique: Technique, house: House) -> Vec<Step> {
    let missing = !c.placed_in(house);
    let digits: Vec<(Digit, u128)> = missing
        .iter()
        .filter(|&d| (1..=n).contains(&c.cells_with_in(house, d).len()))
        .map(|d| (d, c.cells_with_in(house, d).bits()))
        .collect();
    let mut found = Vec::new();
    small_unions(&digits, n, &mut |subset, mask| {
        let cells = CellSet::from_bits(mask);
        let keep: DigitSet = subset.iter().copied().collect();
        let eliminations: Vec<(Cell, Digit)> = cells
            .iter()
            .flat_map(|cl| (c.get(cl) - keep).iter().map(move |d| (cl, d)))
            .collect();
        if eliminations.is_empty() {
            return;
        }
        let list: Vec<Cell> = cells.iter().collect();
        let mut s = Step::new(technique);
        s.detail = format!("{} in {} ({house})", digit_list(keep), cell_list(&list));
        s.cells = list;
        s.digits = keep;
        s.houses = vec![house];
        s.eliminations = eliminations;
        found.push(s);
    });
    found
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::grid::Grid;
    use crate::logic::first_combination;
    use crate::logic::testutil::{cell, check_search, elims, random_position, set_cell, sweep};

    type Eliminations = BTreeSet<(Cell, Digit)>;

    /// The unsolved cells of `cells`.
    fn unsolved(c: &Candidates, cells: &[Cell]) -> Vec<Cell> {
        cells
            .iter()
            .copied()
            .filter(|&x| c.grid().get(x).is_none())
            .collect()
    }

    /// The digits of `set` together.
    fn union(c: &Candidates, set: &[Cell]) -> DigitSet {
        set.iter().fold(DigitSet::EMPTY, |acc, &x| acc | c.get(x))
    }

    /// The eliminations of every naked subset of size `n`, straight from the definition:
    /// every house, every `n` unsolved cells of it whose candidates together are `n` digits;
    /// those digits leave every other cell of each house holding all `n` cells.
    fn naked_reference(c: &Candidates, n: usize) -> Eliminations {
        let mut out = Eliminations::new();
        for house in House::all() {
            first_combination(&unsolved(c, house.cells()), n, &mut |set| {
                let digits = union(c, set);
                if digits.len() != n {
                    return None::<()>;
                }
                for h in House::all().filter(|h| set.iter().all(|x| h.cells().contains(x))) {
                    for &y in h.cells().iter().filter(|y| !set.contains(y)) {
                        out.extend((c.get(y) & digits).iter().map(|d| (y, d)));
                    }
                }
                None
            });
        }
        out
    }

    /// The eliminations of every Locked Pair (`n == 2`) or Triple (`n == 3`) as HoDoKu
    /// defines them: every box, every line crossing it, every `n` unsolved cells of their
    /// intersection whose candidates together are `n` digits, when those digits occur both
    /// in the rest of the box and in the line outside the box; they leave both houses.
    fn locked_reference(c: &Candidates, n: usize) -> Eliminations {
        let mut out = Eliminations::new();
        for b in 0..9u8 {
            let bx = House::Box(b).cells();
            for line in (0..9u8).flat_map(|i| [House::Row(i), House::Column(i)]) {
                let crossing: Vec<Cell> = bx
                    .iter()
                    .copied()
                    .filter(|x| line.cells().contains(x))
                    .collect();
                first_combination(&unsolved(c, &crossing), n, &mut |set| {
                    let digits = union(c, set);
                    if digits.len() != n {
                        return None::<()>;
                    }
                    let holds = |y: &&Cell| !set.contains(y) && !(c.get(**y) & digits).is_empty();
                    let in_box: Vec<Cell> = bx.iter().filter(holds).copied().collect();
                    let in_line: Vec<Cell> = line
                        .cells()
                        .iter()
                        .filter(holds)
                        .filter(|y| !bx.contains(y))
                        .copied()
                        .collect();
                    if !in_box.is_empty() && !in_line.is_empty() {
                        for y in in_box.into_iter().chain(in_line) {
                            out.extend((c.get(y) & digits).iter().map(|d| (y, d)));
                        }
                    }
                    None
                });
            }
        }
        out
    }

    /// The eliminations of every hidden subset of size `n`, straight from the definition:
    /// every house, every `n` digits not placed in it whose candidates there lie in `n` cells
    /// together; those cells lose every other digit.
    fn hidden_reference(c: &Candidates, n: usize) -> Eliminations {
        let mut out = Eliminations::new();
        for house in House::all() {
            let cells = house.cells();
            let missing: Vec<Digit> = Digit::all()
                .filter(|&d| cells.iter().all(|&x| c.grid().get(x) != Some(d)))
                .collect();
            first_combination(&missing, n, &mut |digits| {
                let keep: DigitSet = digits.iter().copied().collect();
                let holders: Vec<Cell> = cells
                    .iter()
                    .copied()
                    .filter(|&x| !(c.get(x) & keep).is_empty())
                    .collect();
                if holders.len() == n {
                    for x in holders {
                        out.extend((c.get(x) - keep).iter().map(|d| (x, d)));
                    }
                }
                None::<()>
            });
        }
        out
    }

    #[test]
    fn random_positions_hold_every_subset() {
        let mut counts = Vec::new();
        for n in 2..=4 {
            counts.push(sweep(
                300,
                (0, 70),
                |c| naked_subsets(c, n).collect(),
                |c| naked_reference(c, n),
            ));
            counts.push(sweep(
                300,
                (0, 70),
                |c| hidden_subsets(c, n).collect(),
                |c| hidden_reference(c, n),
            ));
        }
        for n in 2..=3 {
            counts.push(sweep(
                300,
                (0, 70),
                |c| locked_subsets(c, n).collect(),
                |c| locked_reference(c, n),
            ));
        }
        // Naked and hidden pairs, triples, quadruples, then locked pairs and triples.
        assert!(counts.iter().all(|&k| k > 10), "{counts:?}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        /// Every subset search finds exactly its reference's eliminations, each finder gives
        /// its search's first instance, and no step removes the solution.
        #[test]
        fn subsets_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..85,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            for n in 2..=4 {
                let all: Vec<Step> = naked_subsets(&c, n).collect();
                check_search(&all, naked(&c, n), &naked_reference(&c, n), &solution)?;
                let all: Vec<Step> = hidden_subsets(&c, n).collect();
                check_search(&all, hidden(&c, n), &hidden_reference(&c, n), &solution)?;
            }
            for n in 2..=3 {
                let all: Vec<Step> = locked_subsets(&c, n).collect();
                check_search(&all, locked(&c, n), &locked_reference(&c, n), &solution)?;
            }
        }
    }

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
