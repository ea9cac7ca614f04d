//! The forum's counting patterns of truths and links: SK Loop and Multi-Sector Locked Set.
//!
//! HoDoKu has neither. Both are one look at a region of the grid, like the patterns of
//! [`super::patterns`]. The standard order puts the SK Loop right after those and before every
//! forcing chain; the Multi-Sector Locked Set search costs far more (below), and before the
//! forcing chains it made `explain` on top1465 1.8 times slower for a handful of steps, so it
//! comes after the forcing chains and templates, where only the nested forcing chains and
//! Trial are left.
//!
//! **The count** (the forum's "truths and links", Allan Barker's sets). Take some empty cells,
//! the *truths*: each will hold exactly one digit. Take some *links*, each a house with a
//! digit: each house holds the digit at most once among the truths. If every candidate of
//! every truth lies in a link and there are as many links as truths, then counting the truths'
//! digits link by link, each link holds its digit in a truth exactly once and each truth's
//! digit lies in exactly one link. So a link's digit leaves the rest of its house, and a
//! candidate of a truth lying in two links goes. The digits are independent: the links of
//! digit `d` must cover the truths' candidates `d`, and fewest links for every digit is the
//! only way to reach the count, so a region is a locked set exactly when the smallest covers
//! add up to the number of truths. A digit with several smallest covers gives a locked set
//! for each: the step takes the eliminations of all.
//!
//! Here each truth lies in exactly one house of each of two families, so the links of a
//! digit are a vertex cover of the graph whose vertices are the houses and whose edges are
//! the truths with that candidate: the smallest cover is as large as the largest matching
//! (König), which is what the search counts. A house lies in some smallest cover exactly when
//! every largest matching uses it (its removal shrinks the matching), and a truth's candidate
//! lies in two houses of one smallest cover exactly when no largest matching takes it.
//!
//! **SK Loop** (Steve Kurzhals' loop, found in Easter Monster in 2006; SudokuWiki's
//! "SK Loops"). Four boxes at the corners of a rectangle of two bands and two stacks, a row
//! of each band and a column of each stack, crossing in one cell of each box. In each box
//! the two other cells of the row and the two of the column: sixteen empty cells, the
//! truths. The links are digits of the eight houses around the ring: the two rows, the two
//! columns and the four boxes, each joining two pairs of cells. Easter Monster's loop is
//! the classic: sixteen links, two digits for each house.
//!
//! **Multi-Sector Locked Set** (the forum's MSLS, Obi-Wahn's "multi-sector locked sets" and
//! the "multi-fish" of the MSLS threads), in the form of rows and columns: a set of rows and
//! a set of columns, the empty cells where they cross as truths, and digits of those rows and
//! columns as links. The search takes every set of two to [`MSLS_LINES`] rows with every set
//! of two to [`MSLS_LINES`] columns, each line holding a truth: 246² regions, each counted by
//! nine matchings of at most four houses a side, read from a table of every such graph's
//! matching (1.2 ms a call in release on Easter Monster, 8.6 ms with augmenting paths), where
//! the SK Loop's 729 rings take well under one. Larger sets are left to the forcing chains:
//! every size up to nine would be 502² sets, four times as many, with larger matchings.

use std::rc::Rc;

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::logic::patterns::box_rectangles;
use crate::step::{cell_list, Step, Technique};

/// The most rows, and the most columns, of a Multi-Sector Locked Set the search looks at.
pub const MSLS_LINES: usize = 4;

/// Truth cells and two families of houses, each truth in exactly one house of each.
struct Region {
    truths: CellSet,
    first: Vec<House>,
    second: Vec<House>,
}

impl Region {
    /// For each digit, the truths holding it as edges: bit `j` of entry `i` when a truth in
    /// house `i` of the first family and house `j` of the second has the digit.
    fn graphs(&self, c: &Candidates) -> [Vec<u16>; 9] {
        std::array::from_fn(|d| {
            let cells = c.cells_with(Digit::from_index(d)) & self.truths;
            self.first
                .iter()
                .map(|&h| {
                    let here = cells & CellSet::house(h);
                    self.second
                        .iter()
                        .enumerate()
                        .filter(|&(_, &k)| !(here & CellSet::house(k)).is_empty())
                        .fold(0, |a, (j, _)| a | 1 << j)
                })
                .collect()
        })
    }

    /// The step of the region if its smallest covers count as many links as truths and
    /// something goes.
    fn locked(&self, c: &Candidates, technique: Technique) -> Option<Step> {
        let graphs = self.graphs(c);
        let sizes: Vec<usize> = graphs.iter().map(|g| matching(g, 0, 0)).collect();
        if sizes.iter().sum::<usize>() != self.truths.len() {
            return None;
        }
        let mut eliminations = Vec::new();
        let mut links: Vec<(House, DigitSet)> = self
            .first
            .iter()
            .chain(&self.second)
            .map(|&h| (h, DigitSet::EMPTY))
            .collect();
        for (d, (graph, &size)) in graphs.iter().zip(&sizes).enumerate() {
            let digit = Digit::from_index(d);
            let rows = graph.len();
            // Houses every largest matching uses: each is a link in some smallest cover.
            let firsts = (0..rows).filter(|&i| matching(graph, 1 << i, 0) < size);
            let seconds = (0..self.second.len())
                .filter(|&j| matching(graph, 0, 1 << j) < size)
                .map(|j| rows + j);
            for k in firsts.chain(seconds) {
                let (house, digits) = &mut links[k];
                digits.insert(digit);
                let outside = c.cells_with_in(*house, digit) - self.truths;
                eliminations.extend(outside.iter().map(|x| (x, digit)));
            }
            // Truths no largest matching takes: their candidate lies in two links.
            for x in (c.cells_with(digit) & self.truths).iter() {
                let i = place_of(&self.first, x);
                let j = place_of(&self.second, x);
                if matching(graph, 1 << i, 1 << j) + 1 < size {
                    eliminations.push((x, digit));
                }
            }
        }
        if eliminations.is_empty() {
            return None;
        }
        eliminations.sort_unstable();
        eliminations.dedup();
        let mut s = Step::new(technique);
        s.eliminations = eliminations;
        s.cells = self.truths.iter().collect();
        s.houses = self.first.iter().chain(&self.second).copied().collect();
        s.digits = s.cells.iter().fold(DigitSet::EMPTY, |a, &x| a | c.get(x));
        let listed: Vec<String> = links
            .iter()
            .filter(|(_, digits)| !digits.is_empty())
            .map(|(h, digits)| {
                let digits: String = digits.iter().map(|d| d.to_string()).collect();
                format!("{digits}{}", short_house(*h))
            })
            .collect();
        s.detail = format!(
            "{} truths {}, links {}",
            self.truths.len(),
            cell_list(&s.cells),
            listed.join(" ")
        );
        Some(s)
    }
}

/// The place in `houses` of the house holding `x`, a truth of the region.
fn place_of(houses: &[House], x: Cell) -> usize {
    let at = houses.iter().position(|&h| CellSet::house(h).contains(x));
    at.expect("every truth lies in a house of each family")
}

/// `r2`, `c8`, `b1`: a house as the forum writes links.
fn short_house(h: House) -> String {
    match h {
        House::Row(r) => format!("r{}", r + 1),
        House::Column(c) => format!("c{}", c + 1),
        House::Box(b) => format!("b{}", b + 1),
    }
}

/// The size of a largest matching of a bipartite graph (bit `j` of `graph[i]` joins `i` to
/// `j`, `j` below 16) without the vertices of `skip_first` and `skip_second`: Kuhn's
/// augmenting paths.
fn matching(graph: &[u16], skip_first: u16, skip_second: u16) -> usize {
    fn augment(i: usize, graph: &[u16], owner: &mut [Option<usize>; 16], seen: &mut u16) -> bool {
        let mut free = graph[i] & !*seen;
        while free != 0 {
            let j = free.trailing_zeros() as usize;
            free &= free - 1;
            *seen |= 1 << j;
            if owner[j].map_or(true, |k| augment(k, graph, owner, seen)) {
                owner[j] = Some(i);
                return true;
            }
        }
        false
    }
    let mut owner = [None; 16];
    (0..graph.len())
        .filter(|&i| skip_first >> i & 1 == 0)
        .filter(|&i| augment(i, graph, &mut owner, &mut { skip_second }))
        .count()
}

/// SK Loop: the first ring of sixteen truths whose links lock them.
pub fn sk_loop(c: &Candidates) -> Option<Step> {
    sk_loops(c).next()
}

/// Every SK Loop with eliminations: rectangles of boxes in order (bands, then stacks), then
/// the crossing rows and columns in order.
fn sk_loops(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    box_rectangles().flat_map(move |boxes| {
        (0..81).filter_map(move |choice| {
            let region = sk_region(boxes, choice);
            if (region.truths - c.empty_cells()).is_empty() {
                region.locked(c, Technique::SkLoop)
            } else {
                None
            }
        })
    })
}

/// The ring of the four `boxes` (two of a band, then the two below them) crossing at the
/// rows and columns `choice` picks, in base 3: the first row's place in its band, the
/// second's, the first column's in its stack, the second's.
fn sk_region(boxes: [usize; 4], choice: usize) -> Region {
    let place = |k: usize| choice / 3usize.pow(k as u32) % 3;
    let rows = [boxes[0] / 3 * 3 + place(0), boxes[2] / 3 * 3 + place(1)];
    let columns = [boxes[0] % 3 * 3 + place(2), boxes[1] % 3 * 3 + place(3)];
    let mut truths = CellSet::EMPTY;
    for (k, &b) in boxes.iter().enumerate() {
        let (row, column) = (rows[k / 2], columns[k % 2]);
        for other in 0..3 {
            let in_row = Cell::from_row_col(row, b % 3 * 3 + other).expect("a cell");
            let in_column = Cell::from_row_col(b / 3 * 3 + other, column).expect("a cell");
            for x in [in_row, in_column] {
                if x.row() != row || x.col() != column {
                    truths.insert(x);
                }
            }
        }
    }
    Region {
        truths,
        first: vec![
            House::Row(rows[0] as u8),
            House::Row(rows[1] as u8),
            House::Column(columns[0] as u8),
            House::Column(columns[1] as u8),
        ],
        second: boxes.iter().map(|&b| House::Box(b as u8)).collect(),
    }
}

/// Multi-Sector Locked Set: the first set of rows and columns whose crossing cells are
/// locked by digits of those lines.
pub fn multi_sector_locked_set(c: &Candidates) -> Option<Step> {
    multi_sector_locked_sets(c, MSLS_LINES).next()
}

/// Every Multi-Sector Locked Set of two to `most` rows and two to `most` columns with
/// eliminations: by number of rows, then of columns, then sets of rows and of columns in
/// increasing order.
///
/// Most of the 246² regions fail the count, so the count is made cheap: a digit's graph
/// of at most four rows and four columns packs into 16 bits (each row's columns as four
/// bits), and [`SMALL_MATCHINGS`] holds the size of a largest matching of every such graph.
fn multi_sector_locked_sets(c: &Candidates, most: usize) -> impl Iterator<Item = Step> + '_ {
    assert!(
        most <= 4,
        "graphs of at most four rows and columns pack into 16 bits"
    );
    let empty: [u16; 9] = std::array::from_fn(|r| line_mask(c, House::Row(r as u8), None));
    let columns_of: [[u16; 9]; 9] = std::array::from_fn(|d| {
        std::array::from_fn(|r| line_mask(c, House::Row(r as u8), Some(Digit::from_index(d))))
    });
    let sets = |n: usize| (0u16..512).filter(move |s| s.count_ones() as usize == n);
    // Per set of columns: per digit and row, the row's candidates in those columns, packed
    // into four bits (the set's first column lowest).
    let packed: Rc<Vec<Vec<PackedColumns>>> = Rc::new(
        (0..=most)
            .map(|m| {
                sets(m)
                    .map(|columns| {
                        let rows = std::array::from_fn(|d| {
                            std::array::from_fn(|r| pack(columns_of[d][r], columns))
                        });
                        (columns, rows)
                    })
                    .collect()
            })
            .collect(),
    );
    (2..=most).flat_map(move |n| {
        let packed = Rc::clone(&packed);
        (2..=most).flat_map(move |m| {
            let packed = Rc::clone(&packed);
            sets(n).flat_map(move |rows| {
                let rows: Vec<usize> = (0..9).filter(|&r| rows >> r & 1 == 1).collect();
                let packed = Rc::clone(&packed);
                (0..packed[m].len()).filter_map(move |k| {
                    let (columns, by_digit) = &packed[m][k];
                    let columns = *columns;
                    // Each line holds a truth, else a smaller set is the same.
                    let held = rows.iter().fold(0, |a, &r| a | empty[r] & columns);
                    if held != columns || rows.iter().any(|&r| empty[r] & columns == 0) {
                        return None;
                    }
                    let truths: usize = rows
                        .iter()
                        .map(|&r| (empty[r] & columns).count_ones() as usize)
                        .sum();
                    let mut links = 0;
                    for of_digit in by_digit {
                        let graph = (rows.iter().enumerate())
                            .fold(0, |a, (i, &r)| a | usize::from(of_digit[r]) << (4 * i));
                        links += usize::from(SMALL_MATCHINGS[graph]);
                        if links > truths {
                            return None;
                        }
                    }
                    if links != truths {
                        return None;
                    }
                    msls_region(c, &rows, columns).locked(c, Technique::MultiSectorLockedSet)
                })
            })
        })
    })
}

/// A set of columns (a bit per column) and, per digit and row, the row's candidates in
/// those columns packed by [`pack`].
type PackedColumns = (u16, [[u8; 9]; 9]);

/// The bits of `mask` at the columns of `columns`, packed low (at most four columns).
fn pack(mask: u16, columns: u16) -> u8 {
    let mut out = 0;
    let mut rest = columns;
    let mut k = 0;
    while rest != 0 {
        let j = rest.trailing_zeros();
        out |= ((mask >> j & 1) as u8) << k;
        k += 1;
        rest &= rest - 1;
    }
    out
}

/// The size of a largest matching of every bipartite graph of four rows and four columns,
/// indexed by the graph packed as row `i`'s columns in bits `4i..4i + 4`: the first row
/// either matches none of its columns or one of them, whose column the rest then lacks.
static SMALL_MATCHINGS: [u8; 1 << 16] = small_matchings();

const fn small_matchings() -> [u8; 1 << 16] {
    let mut table = [0u8; 1 << 16];
    let mut graph = 1;
    while graph < 1 << 16 {
        let first = graph & 0xF;
        table[graph] = if first == 0 {
            // Rows one to three, moved down a row: a smaller index, already counted.
            table[graph >> 4]
        } else {
            let rest = graph & !0xF;
            let mut best = table[rest];
            let mut j = 0;
            while j < 4 {
                if first >> j & 1 == 1 {
                    let with = 1 + table[rest & !(0x1111 << j)];
                    if with > best {
                        best = with;
                    }
                }
                j += 1;
            }
            best
        };
        graph += 1;
    }
    table
}

/// The columns (bit per column) of the empty cells of `row`, or of its candidates `digit`.
fn line_mask(c: &Candidates, row: House, digit: Option<Digit>) -> u16 {
    let cells = match digit {
        Some(d) => c.cells_with_in(row, d),
        None => c.empty_cells() & CellSet::house(row),
    };
    cells.iter().fold(0, |a, x| a | 1 << x.col())
}

/// The region of `rows` and the columns of the mask `columns`.
fn msls_region(c: &Candidates, rows: &[usize], columns: u16) -> Region {
    let columns: Vec<usize> = (0..9).filter(|&k| columns >> k & 1 == 1).collect();
    let truths = rows
        .iter()
        .flat_map(|&r| columns.iter().map(move |&k| (r, k)))
        .filter_map(|(r, k)| Cell::from_row_col(r, k))
        .filter(|&x| c.value(x).is_none())
        .collect();
    Region {
        truths,
        first: rows.iter().map(|&r| House::Row(r as u8)).collect(),
        second: columns.iter().map(|&k| House::Column(k as u8)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::grid::Grid;
    use crate::logic::testutil::{cell, check_search, random_position, set_cell, sweep, thin};
    use crate::logic::{Engine, TechniqueSet};

    /// The eliminations of the truths `truths` and link houses `houses` straight from the
    /// definition: for each digit, every set of houses whose cells hold all the truths'
    /// candidates of the digit, the smallest kept; when their sizes add up to the number of
    /// truths, each house of each smallest set loses the digit outside the truths, and a truth
    /// in two of its houses loses it.
    fn locked_reference(c: &Candidates, truths: &[Cell], houses: &[House]) -> Vec<(Cell, Digit)> {
        let within: Vec<u32> = truths
            .iter()
            .map(|x| {
                (0..houses.len())
                    .filter(|&k| houses[k].cells().contains(x))
                    .fold(0, |a, k| a | 1 << k)
            })
            .collect();
        let mut total = 0;
        let mut smallest = Vec::new();
        for d in Digit::all() {
            let holding: Vec<u32> = (0..truths.len())
                .filter(|&t| c.get(truths[t]).contains(d))
                .map(|t| within[t])
                .collect();
            // The sets of houses by size, up to the first size with a cover.
            let covers: Vec<u32> = (0..=houses.len() as u32)
                .map(|size| {
                    (0u32..1 << houses.len())
                        .filter(|s| s.count_ones() == size)
                        .filter(|s| holding.iter().all(|h| h & s != 0))
                        .collect::<Vec<u32>>()
                })
                .find(|covers| !covers.is_empty())
                .expect("all the houses cover every truth");
            total += covers[0].count_ones() as usize;
            if total > truths.len() {
                return Vec::new();
            }
            smallest.push((d, covers));
        }
        if total != truths.len() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (d, covers) in smallest {
            for s in covers {
                for (k, h) in houses.iter().enumerate() {
                    if s >> k & 1 == 1 {
                        out.extend(
                            h.cells()
                                .iter()
                                .filter(|x| c.get(**x).contains(d) && !truths.contains(x))
                                .map(|&x| (x, d)),
                        );
                    }
                }
                for (t, &x) in truths.iter().enumerate() {
                    if c.get(x).contains(d) && (within[t] & s).count_ones() >= 2 {
                        out.push((x, d));
                    }
                }
            }
        }
        out
    }

    /// Every SK Loop by plain loops: four boxes of two bands and two stacks, a row through
    /// each band and a column through each stack, the sixteen cells of those lines in those
    /// boxes other than the four crossings, all empty.
    fn sk_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let mut out = BTreeSet::new();
        for (r1, r2) in (0..9).flat_map(|a| (a / 3 * 3 + 3..9).map(move |b| (a, b))) {
            for (c1, c2) in (0..9).flat_map(|a| (a / 3 * 3 + 3..9).map(move |b| (a, b))) {
                let mut truths = Vec::new();
                for x in Cell::all() {
                    let (r, col) = (x.row(), x.col());
                    let in_rows = (r == r1 || r == r2) && (col / 3 == c1 / 3 || col / 3 == c2 / 3);
                    let in_columns =
                        (col == c1 || col == c2) && (r / 3 == r1 / 3 || r / 3 == r2 / 3);
                    if in_rows != in_columns {
                        truths.push(x);
                    }
                }
                if truths.iter().any(|&x| c.value(x).is_some()) {
                    continue;
                }
                let mut houses = vec![
                    House::Row(r1 as u8),
                    House::Row(r2 as u8),
                    House::Column(c1 as u8),
                    House::Column(c2 as u8),
                ];
                for r in [r1, r2] {
                    for col in [c1, c2] {
                        houses.push(House::Box((r / 3 * 3 + col / 3) as u8));
                    }
                }
                out.extend(locked_reference(c, &truths, &houses));
            }
        }
        out
    }

    /// Every Multi-Sector Locked Set of two to `most` rows and columns by plain loops, each
    /// line holding an empty crossing cell.
    fn msls_reference(c: &Candidates, most: usize) -> BTreeSet<(Cell, Digit)> {
        let sets: Vec<Vec<usize>> = (0u32..512)
            .filter(|s| (2..=most as u32).contains(&s.count_ones()))
            .map(|s| (0..9).filter(|&k| s >> k & 1 == 1).collect())
            .collect();
        let mut out = BTreeSet::new();
        for rows in &sets {
            for columns in &sets {
                let truths: Vec<Cell> = rows
                    .iter()
                    .flat_map(|&r| columns.iter().map(move |&k| cell(r + 1, k + 1)))
                    .filter(|&x| c.value(x).is_none())
                    .collect();
                let lonely = |line: &dyn Fn(Cell) -> usize, lines: &[usize]| {
                    lines.iter().any(|&l| truths.iter().all(|&x| line(x) != l))
                };
                if lonely(&|x| x.row(), rows) || lonely(&|x| x.col(), columns) {
                    continue;
                }
                let houses: Vec<House> = rows
                    .iter()
                    .map(|&r| House::Row(r as u8))
                    .chain(columns.iter().map(|&k| House::Column(k as u8)))
                    .collect();
                out.extend(locked_reference(c, &truths, &houses));
            }
        }
        out
    }

    const EASTER_MONSTER: &str =
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1";

    /// Easter Monster where the basic techniques stall, thinned of false candidates at
    /// random (none when `drop` is 0), and its solution.
    fn easter_monster(drop: u64, seed: u64) -> (Candidates, Grid) {
        let puzzle: Grid = EASTER_MONSTER.parse().unwrap();
        let solution = crate::solver::count(&puzzle, 2).solution.unwrap();
        let mut c = Engine::new(TechniqueSet::basic())
            .explain(&puzzle)
            .final_state;
        thin(&mut c, &solution, drop, seed);
        (c, solution)
    }

    /// Easter Monster's loop as SudokuWiki draws it, (27=38)r2c13-(38=16)r2c79-(16=39)r13c8-
    /// (39=27)r79c8-(27=45)r8c79-(45=16)r8c13-(16=48)r79c2-(48=27)r13c2, and the forum's 13
    /// eliminations of the original loop (thread "More Monster Loops", t6556), each false in
    /// the solution.
    #[test]
    fn sk_loop_of_easter_monster() {
        let (c, solution) = easter_monster(0, 1);
        let s = sk_loop(&c).unwrap();
        assert_eq!(
            s.to_string(),
            "SK Loop: 16 truths r1c2,r1c8,r2c1,r2c3,r2c7,r2c9,r3c2,r3c8,r7c2,r7c8,r8c1,r8c3,\
             r8c7,r8c9,r9c2,r9c8, links 38r2 45r8 48c2 39c8 27b1 16b3 16b7 27b9 => r1c3<>7, \
             r2c5<>3, r2c5<>8, r2c6<>8, r3c1<>2, r5c2<>4, r5c2<>8, r5c8<>3, r5c8<>9, r7c3<>1, \
             r8c4<>5, r8c5<>4, r9c1<>6"
        );
        let all: Vec<Step> = sk_loops(&c).collect();
        assert_eq!(all, vec![s]);
        check_search(&all, sk_loop(&c), &sk_reference(&c), &solution).unwrap();
    }

    /// The row and column form does not hold the loop, whose links include boxes, but finds
    /// its own locked set in Easter Monster: rows 2, 4, 6, 8 by columns 1, 3, 7, 9, sixteen
    /// truths and sixteen links, sharing nine eliminations with the loop.
    #[test]
    fn multi_sector_locked_set_of_easter_monster() {
        let (c, solution) = easter_monster(0, 1);
        let s = multi_sector_locked_set(&c).unwrap();
        assert_eq!(
            Technique::from_name("msls"),
            Some(Technique::MultiSectorLockedSet)
        );
        assert_eq!(
            s.houses,
            [2, 4, 6, 8]
                .map(|r| House::Row(r - 1))
                .into_iter()
                .chain([1, 3, 7, 9].map(|k| House::Column(k - 1)))
                .collect::<Vec<_>>()
        );
        assert!(s
            .detail
            .contains("links 38r2 48r4 39r6 45r8 26c1 17c3 12c7 67c9"));
        assert_eq!(s.eliminations.len(), 16);
        let looped = sk_loop(&c).unwrap().eliminations;
        assert_eq!(
            s.eliminations.iter().filter(|e| looped.contains(e)).count(),
            9
        );
        let all: Vec<Step> = multi_sector_locked_sets(&c, MSLS_LINES).collect();
        check_search(&all, Some(s), &msls_reference(&c, MSLS_LINES), &solution).unwrap();
    }

    /// A locked set whose digit has two smallest covers: rows 1 and 2 by columns 1 and 2, the
    /// four cells holding only 1 and 2 (a deadly pattern, which no puzzle with one solution
    /// keeps, but the count does not care). Each digit is covered by both rows or by both
    /// columns: all four lines lose both digits.
    #[test]
    fn every_smallest_cover_gives_its_eliminations() {
        let mut c = Candidates::new(&Grid::EMPTY);
        for (r, k) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
            set_cell(&mut c, r, k, "12");
        }
        let s = multi_sector_locked_set(&c).unwrap();
        assert_eq!(
            s.cells,
            vec![cell(1, 1), cell(1, 2), cell(2, 1), cell(2, 2)]
        );
        assert_eq!(s.eliminations.len(), 4 * 7 * 2);
        assert!(s.detail.ends_with("links 12r1 12r2 12c1 12c2"));
        let all: Vec<Step> = multi_sector_locked_sets(&c, MSLS_LINES).collect();
        let found: BTreeSet<(Cell, Digit)> =
            all.iter().flat_map(|s| s.eliminations.clone()).collect();
        assert_eq!(found, msls_reference(&c, MSLS_LINES));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// The searches find exactly the reference's eliminations, the finders give the first
        /// instance, and no step removes the solution: on random positions of real solves
        /// (sets of up to three rows and columns there, to keep the reference quick) and on
        /// thinned copies of Easter Monster's position.
        #[test]
        fn sectors_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..100,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let all: Vec<Step> = sk_loops(&c).collect();
            check_search(&all, sk_loop(&c), &sk_reference(&c), &solution)?;
            let all: Vec<Step> = multi_sector_locked_sets(&c, 3).collect();
            let first = multi_sector_locked_sets(&c, 3).next();
            check_search(&all, first, &msls_reference(&c, 3), &solution)?;
            let (c, solution) = easter_monster(drop / 2, seed);
            let all: Vec<Step> = sk_loops(&c).collect();
            check_search(&all, sk_loop(&c), &sk_reference(&c), &solution)?;
            let all: Vec<Step> = multi_sector_locked_sets(&c, MSLS_LINES).collect();
            let first = multi_sector_locked_set(&c);
            check_search(&all, first, &msls_reference(&c, MSLS_LINES), &solution)?;
        }
    }

    #[test]
    fn the_small_matching_table_agrees_with_augmenting_paths() {
        for (graph, &size) in SMALL_MATCHINGS.iter().enumerate() {
            let rows: [u16; 4] = std::array::from_fn(|i| (graph >> (4 * i) & 0xF) as u16);
            assert_eq!(usize::from(size), matching(&rows, 0, 0), "{graph:x}");
        }
    }

    /// The property test means something: a fixed sweep of random positions holds locked
    /// sets of rows and columns, and thinned copies of Easter Monster keep SK loops.
    #[test]
    fn the_positions_tested_hold_locked_sets() {
        let search = |c: &Candidates| multi_sector_locked_sets(c, 3).collect();
        let found = sweep(60, (0, 100), search, |c| msls_reference(c, 3));
        assert!(found >= 10, "{found} positions with a locked set");
        let loops = (0..20)
            .filter(|&seed| sk_loop(&easter_monster(seed * 5, seed).0).is_some())
            .count();
        assert!(loops >= 10, "{loops} thinned copies with a loop");
    }

    /// Positions along the way to solving some of the hardest puzzles: basic steps, and
    /// where they stall the solution's digit in a cell of fewest candidates. At each, the
    /// searches match the references (rows and columns up to three) and remove no solution
    /// digit.
    #[test]
    fn nothing_wrong_on_the_paths_of_the_hardest_puzzles() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data"));
        let mut puzzles = Vec::new();
        for (file, every) in [
            ("puzzles6_forum_hardest_1106", 125),
            ("puzzles5_forum_hardest_1905_11+", 16000),
        ] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            puzzles.extend(
                crate::parse::records(text.as_bytes())
                    .filter_map(|r| r.unwrap().puzzle.ok())
                    .step_by(every),
            );
        }
        let engine = Engine::new(TechniqueSet::basic());
        let (mut positions, mut found) = (0, 0);
        for puzzle in &puzzles {
            let solution = crate::solver::count(puzzle, 2).solution.unwrap();
            let mut c = Candidates::new(puzzle);
            while !c.is_solved() {
                match engine.next_step(&c) {
                    Some(s) => {
                        crate::logic::apply(&mut c, &s);
                        continue;
                    }
                    None => {
                        positions += 1;
                        let all: Vec<Step> = sk_loops(&c).collect();
                        check_search(&all, sk_loop(&c), &sk_reference(&c), &solution).unwrap();
                        let all: Vec<Step> = multi_sector_locked_sets(&c, 3).collect();
                        let first = multi_sector_locked_sets(&c, 3).next();
                        check_search(&all, first, &msls_reference(&c, 3), &solution).unwrap();
                        found += all.len();
                    }
                }
                let x = c
                    .empty_cells()
                    .iter()
                    .min_by_key(|&x| c.get(x).len())
                    .unwrap();
                c.place(x, solution.get(x).unwrap());
            }
        }
        assert!(positions >= 20, "{positions} positions");
        assert!(found >= 5, "{found} locked sets");
    }
}
