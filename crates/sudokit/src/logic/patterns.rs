//! The forum's patterns of the hardest puzzles: Gurth's Symmetrical Placement and Tridagon.
//!
//! Neither belongs to a HoDoKu family (HoDoKu has neither), and both are static patterns read
//! off the whole grid rather than chains, so they live together here. The standard order puts
//! them after the ALS techniques, the last static patterns HoDoKu has, and before every
//! forcing chain: each is one look at the grid, where the chains after them search.
//!
//! **Gurth's Symmetrical Placement** (Sudopedia's "Gurth's Symmetrical Placement";
//! SudokuWiki's "Gurth's Symmetrical Placement Theorem"). If the placed digits are mapped onto
//! themselves by a symmetry `σ` of the grid together with a permutation `π` of the digits
//! (a digit `d` at `x` always faces `π(d)` at `σ(x)`), and the puzzle has one solution `S`,
//! then `S` is symmetric too: `π∘S∘σ⁻¹` solves the placed digits as well, and so equals `S`.
//! (Candidates removed soundly before change nothing: the placed digits are a puzzle whose
//! only solution is `S`.) Hence for every power `k`, `S(σᵏ(x)) = πᵏ(S(x))`, and a candidate
//! `d` of an empty cell `x` goes when
//! - `x` is its own image and `πᵏ(d) ≠ d` (the centre of a central symmetry keeps only the
//!   self-mapped digit),
//! - `x` sees its image and `πᵏ(d) = d` (two equal digits in one house), or
//! - `πᵏ(d)` is no longer a candidate of the image (any removal is mirrored).
//!
//! The symmetries looked for are those Sudopedia and SudokuWiki name: the half turn about
//! r5c5, the quarter turn, and the reflections in either diagonal. The technique needs a
//! unique solution, as the engine's uniqueness flag vouches.
//!
//! **Tridagon** (Denis Berthier's "tridagon elimination rule", 2022, also called
//! anti-tridagon or Thor's hammer; SudokuWiki's "Tridagons"). Four boxes at the corners of a
//! rectangle of two bands and two stacks; in each, three empty cells in different rows and
//! columns (a transversal of the box); three digits `a,b,c`. Filled with `a,b,c` only, each
//! box's cells are a permutation of the digits, the two cells of each of the six rows must
//! differ, and so must the two of each of the six columns. Write each box's cells as the
//! permutation `p` from its rows to its columns and its digits as a bijection `f` from its rows
//! to `a,b,c`; the row rule makes the two boxes of a band differ by a 3-cycle (an even
//! permutation), and the column rule does the same for the digits read by column, `f∘p⁻¹`, in
//! a stack. Multiplying the signs over the four boxes, the signs of the four `p` multiply to
//! `+1`. So when an odd number of the transversals are odd permutations the twelve cells cannot
//! hold `a,b,c` only: some cell, a guardian with another candidate, holds another digit. (A
//! test checks against brute force that exactly these shapes cannot be filled.) With one
//! guardian it loses `a,b,c`; with several whose other candidates are one digit `x`, the cells
//! seeing all of them lose `x`.

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::step::{cell_list, digit_list, Step, Technique};

/// A symmetry of the grid that keeps every row, column and box a house: its name and the
/// image of the cell at (row, column).
struct Symmetry {
    name: &'static str,
    image: fn(usize, usize) -> (usize, usize),
}

/// The symmetries Gurth's Symmetrical Placement looks for.
const SYMMETRIES: [Symmetry; 4] = [
    Symmetry {
        name: "central symmetry",
        image: |r, c| (8 - r, 8 - c),
    },
    Symmetry {
        name: "quarter-turn symmetry",
        image: |r, c| (c, 8 - r),
    },
    Symmetry {
        name: "diagonal symmetry",
        image: |r, c| (c, r),
    },
    Symmetry {
        name: "anti-diagonal symmetry",
        image: |r, c| (8 - c, 8 - r),
    },
];

/// Gurth's Symmetrical Placement: the first symmetry of the placed digits that removes
/// candidates.
pub fn gurths_symmetrical_placement(c: &Candidates) -> Option<Step> {
    gurth_steps(c).next()
}

/// Every Gurth's Symmetrical Placement, one per symmetry of the placed digits that removes
/// candidates, in the table's order.
fn gurth_steps(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    SYMMETRIES.iter().filter_map(move |s| gurth_for(c, s))
}

/// The step of one symmetry, if the placed digits have it and it removes something.
fn gurth_for(c: &Candidates, symmetry: &Symmetry) -> Option<Step> {
    let image: Vec<Cell> = Cell::all()
        .map(|x| {
            let (r, col) = (symmetry.image)(x.row(), x.col());
            Cell::from_row_col(r, col).expect("a symmetry maps cells to cells")
        })
        .collect();
    let map = digit_map(c, &image)?;
    // The powers of the symmetry up to the identity, each with its digit map.
    let mut powers: Vec<(Vec<Cell>, [Digit; 9])> = vec![(image.clone(), map)];
    loop {
        let (cells, digits) = powers.last().expect("one power at least");
        if Cell::all().all(|x| cells[x.index()] == x) {
            powers.pop();
            break;
        }
        let next_cells = cells.iter().map(|y| image[y.index()]).collect();
        let next_digits = digits.map(|e| map[e.index()]);
        powers.push((next_cells, next_digits));
    }
    let mut eliminations = Vec::new();
    let mut centre = Vec::new();
    for x in c.empty_cells().iter() {
        let mut lost = DigitSet::EMPTY;
        for (cells, digits) in &powers {
            let y = cells[x.index()];
            if y == x || x.sees(y) {
                centre.push(x);
            }
            for d in c.get(x).iter() {
                let e = digits[d.index()];
                let clash = if y == x { e != d } else { x.sees(y) && e == d };
                if clash || !c.get(y).contains(e) {
                    lost.insert(d);
                }
            }
        }
        eliminations.extend(lost.iter().map(|d| (x, d)));
    }
    if eliminations.is_empty() {
        return None;
    }
    centre.sort_unstable();
    centre.dedup();
    let fixed: DigitSet = Digit::all().filter(|&d| map[d.index()] == d).collect();
    let pairs: Vec<String> = Digit::all()
        .filter(|&d| map[d.index()] != d)
        .map(|d| format!("{d}>{}", map[d.index()]))
        .collect();
    let mut s = Step::new(Technique::GurthsSymmetricalPlacement);
    s.eliminations = eliminations;
    s.cells = centre;
    s.digits = fixed;
    s.detail = format!(
        "{}, digits {}, {} self-mapped",
        symmetry.name,
        pairs.join(" "),
        digit_list(fixed)
    );
    Some(s)
}

/// The permutation of the digits under which the placed digits are symmetric by `image`
/// (digit `d` at a cell, `map[d]` at its image), if there is one and the placed digits fix
/// it: all nine digits, or eight and the last by elimination.
fn digit_map(c: &Candidates, image: &[Cell]) -> Option<[Digit; 9]> {
    let mut map: [Option<Digit>; 9] = [None; 9];
    let mut used = DigitSet::EMPTY;
    for x in Cell::all() {
        let y = image[x.index()];
        match (c.value(x), c.value(y)) {
            (None, None) => {}
            (Some(d), Some(e)) => match map[d.index()] {
                Some(known) if known != e => return None,
                Some(_) => {}
                None if used.contains(e) => return None,
                None => {
                    map[d.index()] = Some(e);
                    used.insert(e);
                }
            },
            _ => return None,
        }
    }
    let unmapped: Vec<Digit> = Digit::all().filter(|d| map[d.index()].is_none()).collect();
    match unmapped[..] {
        [] => {}
        [d] => map[d.index()] = (!used).first(),
        _ => return None,
    }
    Some(map.map(|e| e.expect("every digit mapped")))
}

/// The six transversals of a box: the column (0–2 within the box) of the cell in each of its
/// rows, and whether that permutation is odd.
const TRANSVERSALS: [([usize; 3], bool); 6] = [
    ([0, 1, 2], false),
    ([1, 2, 0], false),
    ([2, 0, 1], false),
    ([0, 2, 1], true),
    ([2, 1, 0], true),
    ([1, 0, 2], true),
];

/// Tridagon: the first deadly trivalue pattern of four boxes with eliminations.
pub fn tridagon(c: &Candidates) -> Option<Step> {
    tridagons(c).next()
}

/// Every Tridagon with eliminations: rectangles of boxes in order (bands, then stacks), digit
/// triples in increasing order, transversals in the table's order.
fn tridagons(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    box_rectangles().flat_map(move |boxes| {
        (0u16..512)
            .filter(|bits| bits.count_ones() == 3)
            .flat_map(move |bits| tridagons_in(c, boxes, DigitSet::from_bits(bits)))
    })
}

/// The nine rectangles of boxes: two bands and two stacks, boxes numbered 0–8 in reading order.
pub(crate) fn box_rectangles() -> impl Iterator<Item = [usize; 4]> {
    [(0, 1), (0, 2), (1, 2)].into_iter().flat_map(|(b1, b2)| {
        [(0, 1), (0, 2), (1, 2)]
            .into_iter()
            .map(move |(s1, s2)| [b1 * 3 + s1, b1 * 3 + s2, b2 * 3 + s1, b2 * 3 + s2])
    })
}

/// A transversal of a box that may belong to a Tridagon of `digits`.
#[derive(Clone, Copy)]
struct Part {
    cells: CellSet,
    guardians: CellSet,
    odd: bool,
}

/// The Tridagons of `digits` in the four `boxes`.
fn tridagons_in(c: &Candidates, boxes: [usize; 4], digits: DigitSet) -> Vec<Step> {
    let parts: Vec<Vec<Part>> = boxes
        .iter()
        .map(|&b| {
            TRANSVERSALS
                .iter()
                .filter_map(|&(columns, odd)| {
                    let cells: [Cell; 3] = std::array::from_fn(|r| {
                        Cell::from_row_col(b / 3 * 3 + r, b % 3 * 3 + columns[r])
                            .expect("a cell of the box")
                    });
                    // Empty cells, each with a digit of the pattern.
                    if cells.iter().any(|&x| (c.get(x) & digits).is_empty()) {
                        return None;
                    }
                    Some(Part {
                        cells: cells.into_iter().collect(),
                        guardians: cells
                            .into_iter()
                            .filter(|&x| !(c.get(x) - digits).is_empty())
                            .collect(),
                        odd,
                    })
                })
                .collect()
        })
        .collect();
    let mut found = Vec::new();
    for p0 in &parts[0] {
        for p1 in &parts[1] {
            for p2 in &parts[2] {
                for p3 in &parts[3] {
                    let chosen = [p0, p1, p2, p3];
                    if chosen.iter().filter(|p| p.odd).count() % 2 == 0 {
                        continue;
                    }
                    let cells = chosen.iter().fold(CellSet::EMPTY, |a, p| a | p.cells);
                    let guardians = chosen.iter().fold(CellSet::EMPTY, |a, p| a | p.guardians);
                    if let Some(s) = tridagon_step(c, boxes, digits, cells, guardians) {
                        found.push(s);
                    }
                }
            }
        }
    }
    found
}

/// The step of a Tridagon of `digits` on `cells`, by its guardians: a lone guardian loses
/// the digits; several whose other candidates are one digit take it from the cells seeing
/// them all. `None` when nothing goes (or with no guardian, a position without solution).
fn tridagon_step(
    c: &Candidates,
    boxes: [usize; 4],
    digits: DigitSet,
    cells: CellSet,
    guardians: CellSet,
) -> Option<Step> {
    let eliminations: Vec<(Cell, Digit)> = if guardians.len() == 1 {
        let g = guardians.first()?;
        (c.get(g) & digits).iter().map(|d| (g, d)).collect()
    } else {
        let others = guardians
            .iter()
            .fold(DigitSet::EMPTY, |a, g| a | (c.get(g) - digits));
        let x = others.only()?;
        (c.cells_with(x) & guardians.common_peers())
            .iter()
            .map(|t| (t, x))
            .collect()
    };
    if eliminations.is_empty() {
        return None;
    }
    let houses: Vec<House> = boxes.iter().map(|&b| House::Box(b as u8)).collect();
    let mut s = Step::new(Technique::Tridagon);
    s.eliminations = eliminations;
    s.cells = cells.iter().collect();
    s.fins = guardians.iter().collect();
    s.digits = digits;
    s.detail = format!(
        "{} in boxes {}, guardians {}",
        digit_list(digits),
        boxes
            .iter()
            .map(|b| (b + 1).to_string())
            .collect::<Vec<_>>()
            .join(","),
        cell_list(&s.fins)
    );
    s.houses = houses;
    Some(s)
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashMap};

    use proptest::prelude::*;

    use super::*;
    use crate::grid::Grid;
    use crate::logic::testutil::{
        cell, check_search, elims, engine_before, hardest_sample, random_position, set_cell, thin,
        walk,
    };
    use crate::logic::{apply, Engine, TechniqueSet, STANDARD_ORDER};

    /// Whether twelve cells of a 6×6 block of four boxes (row, column from 0 to 5) can take
    /// three digits so that no row, column or box repeats one: plain backtracking.
    fn fillable(cells: &[(usize, usize)]) -> bool {
        fn go(cells: &[(usize, usize)], done: &mut Vec<((usize, usize), u8)>) -> bool {
            let Some(&(r, c)) = cells.get(done.len()) else {
                return true;
            };
            for v in 0..3 {
                let clash = done.iter().any(|&((r2, c2), v2)| {
                    v2 == v && (r2 == r || c2 == c || (r2 / 3, c2 / 3) == (r / 3, c / 3))
                });
                if !clash {
                    done.push(((r, c), v));
                    if go(cells, done) {
                        return true;
                    }
                    done.pop();
                }
            }
            false
        }
        go(cells, &mut Vec::new())
    }

    /// The sign argument of the module docs, checked against brute force on all 6⁴ shapes:
    /// four transversals cannot hold three digits exactly when an odd number are odd.
    #[test]
    fn odd_transversals_decide_that_three_digits_cannot_fill_the_pattern() {
        let mut unfillable = 0;
        for shape in 0..6usize.pow(4) {
            let parts: Vec<&([usize; 3], bool)> = (0..4)
                .map(|k| &TRANSVERSALS[shape / 6usize.pow(k) % 6])
                .collect();
            let cells: Vec<(usize, usize)> = parts
                .iter()
                .enumerate()
                .flat_map(|(k, (columns, _))| {
                    (0..3).map(move |r| (k / 2 * 3 + r, k % 2 * 3 + columns[r]))
                })
                .collect();
            let odd = parts.iter().filter(|(_, odd)| *odd).count() % 2 == 1;
            assert_eq!(odd, !fillable(&cells), "{cells:?}");
            unfillable += usize::from(odd);
        }
        assert_eq!(unfillable, 648);
    }

    /// Every choice of three cells of a box in different rows and columns, as (row, column)
    /// within the box: the 3-subsets of its nine cells that pass the test.
    fn box_transversals() -> Vec<[(usize, usize); 3]> {
        let mut v = Vec::new();
        for i in 0..9 {
            for j in i + 1..9 {
                for k in j + 1..9 {
                    let set = [i, j, k].map(|n| (n / 3, n % 3));
                    let distinct = |f: fn(&(usize, usize)) -> usize| {
                        set.iter().map(f).collect::<BTreeSet<_>>().len() == 3
                    };
                    if distinct(|p| p.0) && distinct(|p| p.1) {
                        v.push(set);
                    }
                }
            }
        }
        v
    }

    /// Three cells of a box: in the grid, and as (row, column) in the 6×6 block of the four
    /// boxes.
    type Placed = (Vec<Cell>, Vec<(usize, usize)>);

    /// The eliminations of every Tridagon, from Berthier's definition: in each rectangle of
    /// boxes, for each three digits, every choice of three empty cells per box in different
    /// rows and columns, each holding one of the digits, that brute force cannot fill with
    /// the three digits; then the guardian rules.
    fn tridagon_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let shapes = box_transversals();
        let mut memo: HashMap<Vec<(usize, usize)>, bool> = HashMap::new();
        let mut out = BTreeSet::new();
        let rectangles = (0..3).flat_map(|b1| {
            (b1 + 1..3).flat_map(move |b2| {
                (0..3).flat_map(move |s1| {
                    (s1 + 1..3).map(move |s2| [(b1, s1), (b1, s2), (b2, s1), (b2, s2)])
                })
            })
        });
        for boxes in rectangles {
            for bits in 0u16..512 {
                let digits = DigitSet::from_bits(bits);
                if digits.len() != 3 {
                    continue;
                }
                // Per box: the usable transversals, in grid cells and in the 6×6 block.
                let choices: Vec<Vec<Placed>> = boxes
                    .iter()
                    .enumerate()
                    .map(|(k, &(band, stack))| {
                        shapes
                            .iter()
                            .map(|shape| {
                                let cells: Vec<Cell> = shape
                                    .iter()
                                    .map(|&(r, col)| {
                                        Cell::from_row_col(band * 3 + r, stack * 3 + col).unwrap()
                                    })
                                    .collect();
                                let local = shape
                                    .iter()
                                    .map(|&(r, col)| (k / 2 * 3 + r, k % 2 * 3 + col))
                                    .collect();
                                (cells, local)
                            })
                            .filter(|(cells, _)| {
                                cells.iter().all(|&x| !(c.get(x) & digits).is_empty())
                            })
                            .collect()
                    })
                    .collect();
                for x0 in &choices[0] {
                    for x1 in &choices[1] {
                        for x2 in &choices[2] {
                            for x3 in &choices[3] {
                                let parts = [x0, x1, x2, x3];
                                let local: Vec<(usize, usize)> =
                                    parts.iter().flat_map(|p| p.1.iter().copied()).collect();
                                if *memo
                                    .entry(local.clone())
                                    .or_insert_with(|| fillable(&local))
                                {
                                    continue;
                                }
                                let guardians: Vec<Cell> = parts
                                    .iter()
                                    .flat_map(|p| p.0.iter().copied())
                                    .filter(|&x| !(c.get(x) - digits).is_empty())
                                    .collect();
                                if let [g] = guardians[..] {
                                    out.extend((c.get(g) & digits).iter().map(|d| (g, d)));
                                    continue;
                                }
                                let others: BTreeSet<Digit> = guardians
                                    .iter()
                                    .flat_map(|&g| (c.get(g) - digits).iter())
                                    .collect();
                                let [x] = others.into_iter().collect::<Vec<_>>()[..] else {
                                    continue;
                                };
                                for t in Cell::all() {
                                    if c.get(t).contains(x)
                                        && guardians.iter().all(|&g| g != t && g.sees(t))
                                    {
                                        out.insert((t, x));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The position of the forum thread "Help a player to spot a Tridagon"
    /// (forum.enjoysudoku.com, t41955), puzzle
    /// `57....9..........8.1.........168..42...1.28.9..2.9416.....26....6.9.82.4...41.6..`:
    /// the post's candidate grid.
    const SPOT_A_TRIDAGON: &str = "
        5 7 3468 | 238 346 13 | 9 123 136
        23469 2349 3469 | 2357 34567 13579 | 3457 12357 8
        234689 1 34689 | 23578 34567 3579 | 3457 2357 3567
        379 359 1 | 6 8 357 | 357 4 2
        3467 345 34567 | 1 357 2 | 8 357 9
        378 358 2 | 357 9 4 | 1 6 357
        134789 34589 345789 | 357 2 6 | 357 135789 1357
        137 6 357 | 9 357 8 | 2 1357 4
        23789 23589 35789 | 4 1 357 | 6 35789 357";

    /// The thread's Tridagon: digits 3, 5, 7 in boxes 5, 6, 8 and 9 (three transversals
    /// falling, one rising), r8c8 the only cell with another candidate; as the post says, it
    /// loses 3, 5 and 7 and is solved as 1, the puzzle's solution there.
    #[test]
    fn tridagon_of_the_forum_thread_help_a_player_to_spot_a_tridagon() {
        let c = Candidates::from_pencil_marks(SPOT_A_TRIDAGON).unwrap();
        let s = tridagon(&c).unwrap();
        assert_eq!(elims(&s), vec![(8, 8, 3), (8, 8, 5), (8, 8, 7)]);
        assert_eq!(s.fins, vec![cell(8, 8)]);
        assert_eq!(
            s.to_string(),
            "Tridagon: {3,5,7} in boxes 5,6,8,9, guardians r8c8 => r8c8<>3, r8c8<>5, r8c8<>7"
        );
        let puzzle: Grid =
            "57....9..........8.1.........168..42...1.28.9..2.9416.....26....6.9.82.4...41.6.."
                .parse()
                .unwrap();
        let solution = crate::solver::count(&puzzle, 2).solution.unwrap();
        assert_eq!(solution.get(cell(8, 8)).map(Digit::get), Some(1));
        assert_eq!(
            tridagon_reference(&c),
            s.eliminations.iter().copied().collect()
        );
    }

    /// In the standard order the thread's puzzle meets its Tridagon at the second step, and
    /// the rest needs no forcing chain (without the Tridagon it takes dynamic forcing chains).
    #[test]
    fn the_standard_order_explains_the_threads_puzzle_with_its_tridagon() {
        let puzzle: Grid =
            "57....9..........8.1.........168..42...1.28.9..2.9416.....26....6.9.82.4...41.6.."
                .parse()
                .unwrap();
        let explanation = Engine::new(TechniqueSet::all())
            .unique(true)
            .explain(&puzzle);
        assert!(explanation.solved);
        assert_eq!(explanation.steps[1].technique, Technique::Tridagon);
        assert!(explanation.steps.iter().all(|s| STANDARD_ORDER
            .iter()
            .position(|&t| t == s.technique)
            < STANDARD_ORDER
                .iter()
                .position(|&t| t == Technique::NishioForcingChain)));
    }

    /// The thread's pattern on an empty grid, with two guardians whose other candidate is 1:
    /// one of them is 1, so the rest of box 9 loses it.
    #[test]
    fn tridagon_with_two_guardians_of_one_digit() {
        let pattern = |last: &str| {
            let mut c = Candidates::new(&Grid::EMPTY);
            for (r, col) in [
                (4, 6),
                (5, 5),
                (6, 4),
                (4, 7),
                (5, 8),
                (6, 9),
                (7, 4),
                (8, 5),
                (9, 6),
                (7, 7),
            ] {
                set_cell(&mut c, r, col, "357");
            }
            set_cell(&mut c, 8, 8, "1357");
            set_cell(&mut c, 9, 9, last);
            c
        };
        let c = pattern("1357");
        let all: Vec<Step> = tridagons(&c).collect();
        let two = all
            .iter()
            .find(|s| s.fins == vec![cell(8, 8), cell(9, 9)])
            .unwrap();
        assert_eq!(
            elims(two),
            vec![
                (7, 8, 1),
                (7, 9, 1),
                (8, 7, 1),
                (8, 9, 1),
                (9, 7, 1),
                (9, 8, 1)
            ]
        );
        let found: BTreeSet<(Cell, Digit)> = all
            .iter()
            .flat_map(|s| s.eliminations.iter().copied())
            .collect();
        assert_eq!(found, tridagon_reference(&c));
        // A second other digit in one guardian leaves no single digit to remove.
        let c = pattern("13579");
        assert!(tridagons(&c).all(|s| s.fins != vec![cell(8, 8), cell(9, 9)]));
    }

    /// The thread's position with false candidates thinned at random, by the thread's
    /// puzzle's solution: Tridagons with fewer guardians, or none left.
    fn thinned_spot_a_tridagon(drop: u64, seed: u64) -> (Candidates, Grid) {
        let puzzle: Grid =
            "57....9..........8.1.........168..42...1.28.9..2.9416.....26....6.9.82.4...41.6.."
                .parse()
                .unwrap();
        let solution = crate::solver::count(&puzzle, 2).solution.unwrap();
        let mut c = Candidates::from_pencil_marks(SPOT_A_TRIDAGON).unwrap();
        thin(&mut c, &solution, drop, seed);
        (c, solution)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        /// The search finds exactly the reference's eliminations, the finder gives the first
        /// instance, and no step removes the solution: on random positions of real solves and
        /// on thinned copies of the forum's Tridagon position.
        #[test]
        fn tridagon_finds_every_instance_and_is_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..100,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let all: Vec<Step> = tridagons(&c).collect();
            check_search(&all, tridagon(&c), &tridagon_reference(&c), &solution)?;
            let (c, solution) = thinned_spot_a_tridagon(drop / 3, seed);
            let all: Vec<Step> = tridagons(&c).collect();
            check_search(&all, tridagon(&c), &tridagon_reference(&c), &solution)?;
        }
    }

    /// Three puzzles of the forum thread "Gurth's symmetrical placement theorem"
    /// (forum.enjoysudoku.com, t38400, urhegyi, 5 Nov 2020), posted as examples the theorem
    /// makes much easier: givens symmetric about r5c5 with 1↔9, 2↔8, 3↔7, 4↔6 and 5 facing
    /// itself.
    const GURTH_EXAMPLES: [&str; 3] = [
        "...........4.35...97.6..8...9....5...6.8.2.4...5....1...2..4.31...57.6...........",
        "..........24..51..97.6.......8....633.18.29.774....2.......4.31..95..68..........",
        "..............51.69736.....29......3.6.8.2.4.7......18.....47314.95..............",
    ];

    /// On the thread's puzzles: the symmetry and digit map are found, the solution has them
    /// too (the theorem itself, checked by the solver), r5c5 keeps only 5, the self-mapped
    /// digit (Sudopedia's centre rule), and 5 leaves the rest of row 5 and column 5.
    #[test]
    fn gurth_on_the_forum_threads_examples() {
        for line in GURTH_EXAMPLES {
            let puzzle: Grid = line.parse().unwrap();
            let solution = crate::solver::count(&puzzle, 2).solution.unwrap();
            let c = Candidates::new(&puzzle);
            let s = gurths_symmetrical_placement(&c).unwrap();
            assert!(s
                .detail
                .starts_with("central symmetry, digits 1>9 2>8 3>7 4>6 6>4"));
            assert_eq!(s.digits, DigitSet::single(Digit::new(5).unwrap()));
            for x in Cell::all() {
                let facing = Cell::new(80 - x.index()).unwrap();
                let (d, e) = (solution.get(x).unwrap(), solution.get(facing).unwrap());
                assert_eq!(d.get() + e.get(), 10, "{x} and {facing} in the solution");
            }
            let mut after = c.clone();
            apply(&mut after, &s);
            assert_eq!(
                after.get(cell(5, 5)),
                DigitSet::single(Digit::new(5).unwrap())
            );
            for k in [1, 2, 3, 4, 6, 7, 8, 9] {
                assert!(!after.get(cell(5, k)).contains(Digit::new(5).unwrap()));
                assert!(!after.get(cell(k, 5)).contains(Digit::new(5).unwrap()));
            }
            for &(x, d) in &s.eliminations {
                assert_ne!(solution.get(x), Some(d), "{s}");
            }
        }
    }

    /// Every removal is mirrored: a candidate whose image is gone goes too; and one given
    /// without its mirror image breaks the symmetry, so nothing is found.
    #[test]
    fn gurth_mirrors_removals_and_needs_every_given_mirrored() {
        let puzzle: Grid = GURTH_EXAMPLES[0].parse().unwrap();
        let mut c = Candidates::new(&puzzle);
        let first = gurths_symmetrical_placement(&c).unwrap();
        apply(&mut c, &first);
        assert!(gurths_symmetrical_placement(&c).is_none());
        // r1c1 faces r9c9, and d faces 10 - d: removing 10 - d from r9c9 removes d from r1c1.
        let d = c.get(cell(1, 1)).iter().find(|d| d.get() != 5).unwrap();
        let facing = Digit::new(10 - d.get()).unwrap();
        assert!(c.eliminate(cell(9, 9), facing));
        let s = gurths_symmetrical_placement(&c).unwrap();
        assert_eq!(elims(&s), vec![(1, 1, d.get())]);
        // Without the given 4 of r2c3, r8c7's 6 faces an empty cell.
        let mut lopsided = *puzzle.values();
        assert_eq!(lopsided[11], 4);
        lopsided[11] = 0;
        let c = Candidates::new(&Grid::from_values(lopsided).unwrap());
        assert!(gurths_symmetrical_placement(&c).is_none());
    }

    /// Every elimination of Gurth's Symmetrical Placement, from the definition by brute force:
    /// for each symmetry `σ` and each of the 9! digit permutations `π` under which every
    /// placed digit `d` at `x` faces `π(d)` at `σ(x)` (and every empty cell an empty one), the
    /// solution is symmetric too, so a candidate holds only with its whole orbit `(σᵏ(x),
    /// πᵏ(d))`: it goes when a member of the orbit is no candidate, or two members are
    /// different digits of one cell or one digit in two cells that see each other.
    fn gurth_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let mut out = BTreeSet::new();
        let digits: Vec<Digit> = Digit::all().collect();
        for symmetry in &SYMMETRIES {
            let image = |x: Cell| {
                let (r, col) = (symmetry.image)(x.row(), x.col());
                Cell::from_row_col(r, col).unwrap()
            };
            for_each_permutation(&mut digits.clone(), 0, &mut |pi: &[Digit]| {
                let apply = |d: Digit| pi[d.index()];
                let symmetric = Cell::all().all(|x| c.value(image(x)) == c.value(x).map(apply));
                if !symmetric {
                    return;
                }
                for x in c.empty_cells().iter() {
                    for d in c.get(x).iter() {
                        let mut orbit = vec![(x, d)];
                        loop {
                            let (y, e) = *orbit.last().unwrap();
                            let next = (image(y), apply(e));
                            if next == (x, d) {
                                break;
                            }
                            orbit.push(next);
                        }
                        let missing = orbit.iter().any(|&(y, e)| !c.get(y).contains(e));
                        let clash = orbit.iter().any(|&(y, e)| {
                            orbit
                                .iter()
                                .any(|&(z, f)| (y == z && e != f) || (y.sees(z) && e == f))
                        });
                        if missing || clash {
                            out.insert((x, d));
                        }
                    }
                }
            });
        }
        out
    }

    /// Calls `visit` with every ordering of `items[k..]` after the fixed `items[..k]`.
    fn for_each_permutation<T: Copy>(items: &mut [T], k: usize, visit: &mut impl FnMut(&[T])) {
        if k == items.len() {
            visit(items);
            return;
        }
        for i in k..items.len() {
            items.swap(k, i);
            for_each_permutation(items, k + 1, visit);
            items.swap(k, i);
        }
    }

    /// A random solution grid symmetric under `SYMMETRIES[which]` with a digit permutation of
    /// the cycle shape such a grid needs (one self-mapped digit for the turns, whose centre
    /// is its own image; three for the reflections, whose diagonal is), digits relabelled at
    /// random: randomized backtracking that fills a cell's whole orbit at once, cell of
    /// fewest candidates first. `None` when it gives up after many dead ends.
    fn symmetric_solution(which: usize, seed: u64) -> Option<(Grid, [u8; 9])> {
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // The shape on digits 0–8, then relabelled by a random permutation.
        let shape: [u8; 9] = match which {
            0 => [0, 2, 1, 4, 3, 6, 5, 8, 7],
            1 => [0, 2, 3, 4, 1, 6, 7, 8, 5],
            _ => [0, 1, 2, 4, 3, 6, 5, 8, 7],
        };
        let mut label: Vec<u8> = (0..9).collect();
        for i in (1..9).rev() {
            label.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        let mut pi = [0u8; 9];
        for i in 0..9 {
            pi[label[i] as usize] = label[shape[i] as usize];
        }
        let image = |i: usize| {
            let (r, col) = (SYMMETRIES[which].image)(i / 9, i % 9);
            r * 9 + col
        };
        let allowed = |values: &[u8; 81], i: usize, v: u8| {
            (0..81).all(|j| {
                let shares =
                    j / 9 == i / 9 || j % 9 == i % 9 || (j / 27, j % 9 / 3) == (i / 27, i % 9 / 3);
                j == i || !shares || values[j] != v + 1
            })
        };
        fn fill(
            values: &mut [u8; 81],
            budget: &mut usize,
            pi: &[u8; 9],
            image: &dyn Fn(usize) -> usize,
            allowed: &dyn Fn(&[u8; 81], usize, u8) -> bool,
            next: &mut dyn FnMut() -> u64,
        ) -> bool {
            let options = |values: &[u8; 81], i: usize| -> Vec<u8> {
                (0..9).filter(|&v| allowed(values, i, v)).collect()
            };
            let Some(i) = (0..81)
                .filter(|&i| values[i] == 0)
                .min_by_key(|&i| options(values, i).len())
            else {
                return true;
            };
            let mut choices = options(values, i);
            for k in (1..choices.len()).rev() {
                choices.swap(k, (next() % (k as u64 + 1)) as usize);
            }
            for v in choices {
                if *budget == 0 {
                    return false;
                }
                *budget -= 1;
                let saved = *values;
                let (mut j, mut w, mut ok) = (i, v, true);
                loop {
                    if values[j] == 0 && allowed(values, j, w) {
                        values[j] = w + 1;
                    } else if values[j] != w + 1 {
                        ok = false;
                        break;
                    }
                    (j, w) = (image(j), pi[w as usize]);
                    if (j, w) == (i, v) {
                        break;
                    }
                }
                if ok && fill(values, budget, pi, image, allowed, next) {
                    return true;
                }
                *values = saved;
            }
            false
        }
        let mut values = [0u8; 81];
        let mut budget = 20_000;
        fill(&mut values, &mut budget, &pi, &image, &allowed, &mut next)
            .then(|| (Grid::from_values(values).unwrap(), pi.map(|v| v + 1)))
    }

    /// A puzzle with one solution whose givens are symmetric under `SYMMETRIES[which]`: the
    /// orbits of a random symmetric solution added in random order until the solution is
    /// unique, then each taken away again where the solution stays unique; the cells that are
    /// their own image stay empty, and one of them keeps a candidate the permutation moves
    /// (else the next seed is tried). With the solution and the digit permutation (1-based).
    fn symmetric_puzzle(which: usize, seed: u64) -> (Grid, Grid, [u8; 9]) {
        let image = |i: usize| {
            let (r, col) = (SYMMETRIES[which].image)(i / 9, i % 9);
            r * 9 + col
        };
        let orbit = |i: usize| {
            let mut cells = vec![i];
            while image(*cells.last().unwrap()) != i {
                cells.push(image(*cells.last().unwrap()));
            }
            cells
        };
        let unique = |values: [u8; 81]| {
            crate::solver::count(&Grid::from_values(values).unwrap(), 2).count == 1
        };
        for seed in seed.. {
            let Some((solution, pi)) = symmetric_solution(which, seed.wrapping_mul(0x9e37_79b9))
            else {
                continue;
            };
            let mut order: Vec<usize> = (0..81).filter(|&i| image(i) != i).collect();
            let mut state = seed | 1;
            for k in (1..order.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                order.swap(k, (state % (k as u64 + 1)) as usize);
            }
            let mut values = [0u8; 81];
            for &i in &order {
                if unique(values) {
                    break;
                }
                for j in orbit(i) {
                    values[j] = solution.values()[j];
                }
            }
            for &i in &order {
                let mut fewer = values;
                for j in orbit(i) {
                    fewer[j] = 0;
                }
                if unique(fewer) {
                    values = fewer;
                }
            }
            let puzzle = Grid::from_values(values).unwrap();
            let c = Candidates::new(&puzzle);
            let open = Cell::all().any(|x| {
                image(x.index()) == x.index() && c.get(x).iter().any(|d| pi[d.index()] != d.get())
            });
            if open {
                return (puzzle, solution, pi);
            }
        }
        unreachable!("seeds run out")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// On symmetric puzzles built from random symmetric solutions, for each symmetry:
        /// the search removes exactly what the reference does, at the start and with false
        /// candidates thinned at random; it removes something at the start; no step removes
        /// the solution; and one given taken away without its image breaks the symmetry, so
        /// nothing is found.
        #[test]
        fn gurth_finds_every_instance_and_is_sound(
            which in 0usize..4,
            seed in any::<u64>(),
            drop in 0u64..60,
        ) {
            let (puzzle, solution, pi) = symmetric_puzzle(which, seed);
            for x in Cell::all() {
                let (r, col) = (SYMMETRIES[which].image)(x.row(), x.col());
                let facing = solution.get(Cell::from_row_col(r, col).unwrap()).unwrap();
                prop_assert_eq!(pi[solution.get(x).unwrap().index()], facing.get());
            }
            let mut c = Candidates::new(&puzzle);
            let all: Vec<Step> = gurth_steps(&c).collect();
            prop_assert!(!all.is_empty(), "{}", puzzle);
            check_search(&all, gurths_symmetrical_placement(&c), &gurth_reference(&c), &solution)?;
            thin(&mut c, &solution, drop, seed);
            let all: Vec<Step> = gurth_steps(&c).collect();
            check_search(&all, gurths_symmetrical_placement(&c), &gurth_reference(&c), &solution)?;
            let mut lopsided = *puzzle.values();
            let given = lopsided.iter().position(|&v| v != 0).unwrap();
            lopsided[given] = 0;
            let c = Candidates::new(&Grid::from_values(lopsided).unwrap());
            prop_assert!(gurths_symmetrical_placement(&c).is_none());
            prop_assert!(gurth_reference(&c).is_empty());
        }

        /// Positions along the solves of the magictour puzzles, which have no symmetry:
        /// neither the search nor the reference finds anything.
        #[test]
        fn gurth_finds_nothing_without_symmetry(
            index in 0usize..1000,
            steps in 0usize..40,
        ) {
            let (c, _) = random_position(index, steps, 0, 1);
            prop_assert!(gurths_symmetrical_placement(&c).is_none());
            prop_assert!(gurth_reference(&c).is_empty());
        }
    }

    /// The forum thread's examples: the search removes exactly what the reference does.
    #[test]
    fn gurth_matches_the_reference_on_the_forum_threads_examples() {
        for line in GURTH_EXAMPLES {
            let puzzle: Grid = line.parse().unwrap();
            let solution = crate::solver::count(&puzzle, 2).solution.unwrap();
            let c = Candidates::new(&puzzle);
            let all: Vec<Step> = gurth_steps(&c).collect();
            assert!(!all.is_empty());
            check_search(
                &all,
                gurths_symmetrical_placement(&c),
                &gurth_reference(&c),
                &solution,
            )
            .unwrap();
        }
    }

    /// Every position along the way to solving a sample of the hardest lists (and the Gurth
    /// examples): the techniques before these patterns in the standard order, and where they
    /// stall the solution's digit in a cell of fewest candidates, standing in for the forcing
    /// chains. At each, the patterns remove no solution digit, and the Tridagon search
    /// matches the reference; the Gurth examples make sure Gurth fires.
    #[test]
    fn nothing_wrong_on_the_paths_of_the_hardest_puzzles() {
        let engine = engine_before(Technique::GurthsSymmetricalPlacement);
        let mut puzzles = hardest_sample();
        puzzles.extend(GURTH_EXAMPLES.map(|l| l.parse::<Grid>().unwrap()));
        let (mut positions, mut gurths) = (0, 0);
        for puzzle in &puzzles {
            walk(&engine, puzzle, |c, solution| {
                positions += 1;
                let all: Vec<Step> = tridagons(c).collect();
                check_search(&all, tridagon(c), &tridagon_reference(c), solution).unwrap();
                if let Some(s) = gurths_symmetrical_placement(c) {
                    gurths += 1;
                    for &(x, d) in &s.eliminations {
                        assert_ne!(solution.get(x), Some(d), "{s}");
                    }
                }
            });
        }
        assert!(positions > 2000, "{positions} positions");
        assert!(gurths >= 3, "{gurths} Gurth steps");
    }
}
