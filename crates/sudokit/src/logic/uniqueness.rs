//! Uniqueness techniques: Unique Rectangles (HoDoKu's Uniqueness Tests 1–4 and 6) and BUG+1.
//!
//! All of them argue "otherwise the puzzle would have two solutions", so they are valid only
//! for puzzles known to have exactly one; the [`Engine`](crate::logic::Engine) runs them only
//! when told so.
//!
//! A unique rectangle is four unsolved cells on two rows, two columns and exactly two boxes,
//! all holding the digits `a` and `b`. If all four ended as `a`/`b`, swapping them would give
//! a second solution, so at least one cell must take another digit:
//! - Test 1: three corners are exactly `{a,b}`: the fourth loses `a` and `b`.
//! - Test 2: two corners on one side are `{a,b}`, the other two are `{a,b,c}`: one of them is
//!   `c`, so cells seeing both lose `c`.
//! - Test 3: as 2, but the extra digits of the two roof cells, taken as one virtual cell, form
//!   a naked subset with other cells of a house the roof lies in.
//! - Test 4: as 2, and `a` is confined to the roof in a house: the roof cells lose `b`.
//! - Test 6: two diagonal corners are `{a,b}` and `a` is confined to the rectangle in both its
//!   rows (or both columns): the other two corners lose `a`.
//!
//! BUG+1: every unsolved cell is bivalue except one with three candidates. Without the right
//! extra digit every house would hold each digit exactly twice (a "bivalue universal grave",
//! which has two solutions), so that cell takes the digit whose removal would leave the grave.

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::logic::first_combination;
use crate::step::{cell_list, digit_list, Step, Technique};

/// A candidate unique rectangle: corners `[r1c1, r1c2, r2c1, r2c2]` and the pair `{a,b}`.
struct Rect {
    corners: [Cell; 4],
    pair: DigitSet,
}

impl Rect {
    /// The corners that hold exactly the pair.
    fn floor(&self, c: &Candidates) -> Vec<Cell> {
        self.corners
            .iter()
            .copied()
            .filter(|&x| c.get(x) == self.pair)
            .collect()
    }

    fn others(&self, cells: &[Cell]) -> Vec<Cell> {
        self.corners
            .iter()
            .copied()
            .filter(|x| !cells.contains(x))
            .collect()
    }

    fn step(&self, t: Technique) -> Step {
        let mut s = Step::new(t);
        s.cells = self.corners.to_vec();
        s.digits = self.pair;
        s.detail = format!("{} in {}", digit_list(self.pair), cell_list(&self.corners));
        s
    }
}

/// Every rectangle of unsolved cells in two boxes with at least two corners holding exactly
/// the same pair of digits (every test needs such a floor), paired with that pair. Built from
/// pairs of equal bivalue cells rather than from all 1,296 rectangles, since those are few.
fn rectangles(c: &Candidates) -> Vec<Rect> {
    let bivalue: Vec<Cell> = c.bivalue_cells().iter().collect();
    let mut out = Vec::new();
    let mut push = |rows: (usize, usize), cols: (usize, usize), pair: DigitSet| {
        let (r1, r2) = (rows.0.min(rows.1), rows.0.max(rows.1));
        let (c1, c2) = (cols.0.min(cols.1), cols.0.max(cols.1));
        if r1 == r2 || c1 == c2 || (r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3) {
            return;
        }
        let corners = [(r1, c1), (r1, c2), (r2, c1), (r2, c2)]
            .map(|(r, col)| Cell::from_row_col(r, col).expect("in range"));
        if corners.iter().all(|&x| (c.get(x) & pair) == pair) {
            let rect = Rect { corners, pair };
            if !out
                .iter()
                .any(|o: &Rect| o.corners == rect.corners && o.pair == pair)
            {
                out.push(rect);
            }
        }
    };
    for (i, &x) in bivalue.iter().enumerate() {
        for &y in &bivalue[i + 1..] {
            let pair = c.get(x);
            if c.get(y) != pair {
                continue;
            }
            if x.row() == y.row() {
                for r in 0..9 {
                    push((x.row(), r), (x.col(), y.col()), pair);
                }
            } else if x.col() == y.col() {
                for col in 0..9 {
                    push((x.row(), y.row()), (x.col(), col), pair);
                }
            } else {
                push((x.row(), y.row()), (x.col(), y.col()), pair);
            }
        }
    }
    out.sort_by_key(|r| (r.corners, r.pair.bits()));
    out
}

/// Houses (row, column, box) that contain both cells.
fn shared_houses(x: Cell, y: Cell) -> impl Iterator<Item = House> {
    x.houses()
        .into_iter()
        .filter(move |h| y.houses().contains(h))
}

/// Whether two corners of a rectangle lie on one side (share a row or column).
fn same_side(x: Cell, y: Cell) -> bool {
    x.row() == y.row() || x.col() == y.col()
}

/// Uniqueness Test 1.
pub fn test1(c: &Candidates) -> Option<Step> {
    rectangles(c).into_iter().find_map(|rect| {
        let floor = rect.floor(c);
        if floor.len() != 3 {
            return None;
        }
        let target = *rect.others(&floor).first()?;
        let mut s = rect.step(Technique::UniquenessTest1);
        s.fins = vec![target];
        s.eliminations = rect.pair.iter().map(|d| (target, d)).collect();
        Some(s)
    })
}

/// The rectangles with a two-cell floor on one side, as (rect, roof).
fn with_roof(c: &Candidates) -> impl Iterator<Item = (Rect, [Cell; 2])> + '_ {
    rectangles(c).into_iter().filter_map(|rect| {
        let floor = rect.floor(c);
        if floor.len() != 2 || !same_side(floor[0], floor[1]) {
            return None;
        }
        let roof = rect.others(&floor);
        Some((rect, [roof[0], roof[1]]))
    })
}

/// Uniqueness Test 2.
pub fn test2(c: &Candidates) -> Option<Step> {
    with_roof(c).find_map(|(rect, roof)| {
        let (x, y) = (c.get(roof[0]), c.get(roof[1]));
        if x != y || x.len() != 3 {
            return None;
        }
        let extra = (x - rect.pair).only()?;
        let roof_set: CellSet = roof.into_iter().collect();
        let targets = c.cells_with(extra) & roof_set.common_peers();
        if targets.is_empty() {
            return None;
        }
        let mut s = rect.step(Technique::UniquenessTest2);
        s.fins = roof.to_vec();
        s.eliminations = targets.iter().map(|t| (t, extra)).collect();
        Some(s)
    })
}

/// Uniqueness Test 3.
pub fn test3(c: &Candidates) -> Option<Step> {
    with_roof(c).find_map(|(rect, roof)| {
        let extras = (c.get(roof[0]) | c.get(roof[1])) - rect.pair;
        for house in shared_houses(roof[0], roof[1]) {
            let others: Vec<Cell> = house
                .cells()
                .iter()
                .copied()
                .filter(|x| !roof.contains(x) && !c.get(*x).is_empty())
                .collect();
            for k in 1..=3 {
                let found = first_combination(&others, k, &mut |subset| {
                    let digits = subset.iter().fold(extras, |acc, &x| acc | c.get(x));
                    if digits.len() != k + 1 {
                        return None;
                    }
                    let mut eliminations = Vec::new();
                    for &x in house.cells() {
                        if roof.contains(&x) || subset.contains(&x) {
                            continue;
                        }
                        eliminations.extend((c.get(x) & digits).iter().map(|d| (x, d)));
                    }
                    if eliminations.is_empty() {
                        return None;
                    }
                    let mut s = rect.step(Technique::UniquenessTest3);
                    s.fins = roof.to_vec();
                    s.houses = vec![house];
                    s.detail.push_str(&format!(
                        ", naked subset {} with {} in {house}",
                        digit_list(digits),
                        cell_list(subset)
                    ));
                    s.eliminations = eliminations;
                    Some(s)
                });
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    })
}

/// Uniqueness Test 4.
pub fn test4(c: &Candidates) -> Option<Step> {
    with_roof(c).find_map(|(rect, roof)| {
        let roof_set: CellSet = roof.into_iter().collect();
        for house in shared_houses(roof[0], roof[1]) {
            for locked in rect.pair.iter() {
                if c.cells_with_in(house, locked) != roof_set {
                    continue;
                }
                let other = (rect.pair - DigitSet::single(locked)).only()?;
                let mut s = rect.step(Technique::UniquenessTest4);
                s.fins = roof.to_vec();
                s.houses = vec![house];
                s.detail.push_str(&format!(", {locked} locked in {house}"));
                s.eliminations = roof.iter().map(|&x| (x, other)).collect();
                return Some(s);
            }
        }
        None
    })
}

/// Uniqueness Test 6.
pub fn test6(c: &Candidates) -> Option<Step> {
    rectangles(c).into_iter().find_map(|rect| {
        let floor = rect.floor(c);
        if floor.len() != 2 || same_side(floor[0], floor[1]) {
            return None;
        }
        let roof = rect.others(&floor);
        let [tl, tr, bl, _] = rect.corners;
        let rows = [House::Row(tl.row() as u8), House::Row(bl.row() as u8)];
        let cols = [House::Column(tl.col() as u8), House::Column(tr.col() as u8)];
        let corners: CellSet = rect.corners.into_iter().collect();
        for u in rect.pair.iter() {
            let confined = |houses: [House; 2]| {
                houses
                    .iter()
                    .all(|&h| (c.cells_with_in(h, u) - corners).is_empty())
            };
            if confined(rows) || confined(cols) {
                let mut s = rect.step(Technique::UniquenessTest6);
                s.fins = roof.clone();
                s.detail
                    .push_str(&format!(", {u} confined to the rectangle"));
                s.eliminations = roof.iter().map(|&x| (x, u)).collect();
                return Some(s);
            }
        }
        None
    })
}

/// Bivalue Universal Grave + 1.
pub fn bug_plus_1(c: &Candidates) -> Option<Step> {
    let mut triple = None;
    for cell in Cell::all() {
        match c.get(cell).len() {
            0 | 2 => {}
            3 if triple.is_none() => triple = Some(cell),
            _ => return None,
        }
    }
    let t = triple?;
    let grave = |without: Digit| {
        House::all().all(|h| {
            Digit::all().all(|d| {
                let mut n = c.cells_with_in(h, d).len();
                if d == without && CellSet::house(h).contains(t) {
                    n -= 1;
                }
                n == 0 || n == 2
            })
        })
    };
    let d = c.get(t).iter().find(|&d| grave(d))?;
    let mut s = Step::new(Technique::BugPlus1);
    s.cells = vec![t];
    s.fins = vec![t];
    s.digits = DigitSet::single(d);
    s.placements = vec![(t, d)];
    s.detail = format!("{t}={d}, the only cell with three candidates");
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::Candidates;
    use crate::grid::Grid;
    use crate::logic::testutil::{cell, d, elims, set_cell};
    use crate::logic::{Engine, TechniqueSet};

    fn floor_in_row_1(roof_a: &str, roof_b: &str) -> Candidates {
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 1, 1, "12");
        set_cell(&mut c, 1, 4, "12");
        set_cell(&mut c, 2, 1, roof_a);
        set_cell(&mut c, 2, 4, roof_b);
        c
    }

    #[test]
    fn test1_strips_the_pair_from_the_fourth_corner() {
        let c = floor_in_row_1("12", "1259");
        let s = test1(&c).unwrap();
        assert_eq!(elims(&s), vec![(2, 4, 1), (2, 4, 2)]);
        assert!(test2(&c).is_none());
    }

    #[test]
    fn test2_removes_the_shared_extra_from_common_peers() {
        let c = floor_in_row_1("127", "127");
        assert!(test1(&c).is_none());
        let s = test2(&c).unwrap();
        let expected: Vec<_> = [2, 3, 5, 6, 7, 8, 9]
            .iter()
            .map(|&col| (2, col, 7))
            .collect();
        assert_eq!(elims(&s), expected);
    }

    #[test]
    fn test3_forms_a_naked_subset_with_the_roof() {
        let mut c = floor_in_row_1("123", "124");
        set_cell(&mut c, 2, 7, "34");
        let s = test3(&c).unwrap();
        let expected: Vec<_> = [2, 3, 5, 6, 8, 9]
            .iter()
            .flat_map(|&col| [(2, col, 3), (2, col, 4)])
            .collect();
        assert_eq!(elims(&s), expected);
    }

    #[test]
    fn test4_uses_a_locked_digit_in_the_roof() {
        let mut c = floor_in_row_1("1289", "1259");
        for col in [2, 3, 5, 6, 7, 8, 9] {
            c.eliminate(cell(2, col), d(1));
        }
        let s = test4(&c).unwrap();
        assert_eq!(elims(&s), vec![(2, 1, 2), (2, 4, 2)]);
    }

    #[test]
    fn test6_with_diagonal_floor_and_an_x_wing() {
        let mut c = Candidates::new(&Grid::EMPTY);
        set_cell(&mut c, 1, 1, "12");
        set_cell(&mut c, 2, 4, "12");
        set_cell(&mut c, 1, 4, "1239");
        set_cell(&mut c, 2, 1, "1249");
        for row in [1, 2] {
            for col in [2, 3, 5, 6, 7, 8, 9] {
                c.eliminate(cell(row, col), d(1));
            }
        }
        assert!(test2(&c).is_none() && test4(&c).is_none());
        let s = test6(&c).unwrap();
        assert_eq!(elims(&s), vec![(1, 4, 1), (2, 1, 1)]);
    }

    #[test]
    fn bug_plus_one_places_the_odd_digit_only_when_unique() {
        // A solved grid whose 1s, 2s and 3s become the pairs {1,2}, {2,3}, {3,1} (the grid
        // with 1→2→3→1 is a second solution, so this is a grave); r1c6 (a 1) gets 3 added.
        let solution =
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
        let tokens: Vec<String> = solution
            .chars()
            .enumerate()
            .map(|(i, ch)| match ch {
                '1' if i == 5 => "123".to_string(),
                '1' => "12".to_string(),
                '2' => "23".to_string(),
                '3' => "13".to_string(),
                _ => ch.to_string(),
            })
            .collect();
        let c = Candidates::from_pencil_marks(&tokens.join(" ")).unwrap();
        let s = bug_plus_1(&c).unwrap();
        assert_eq!(s.placements, vec![(cell(1, 6), d(3))]);
        let set = TechniqueSet::new([Technique::BugPlus1]);
        assert!(Engine::new(set.clone()).next_step(&c).is_none());
        assert_eq!(
            Engine::new(set)
                .unique(true)
                .next_step(&c)
                .map(|s| s.technique),
            Some(Technique::BugPlus1)
        );
    }
}
