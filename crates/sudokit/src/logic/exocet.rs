//! The Junior Exocet, the pattern of David P Bird's "JExocet Compendium" (the Players'
//! Forum, forum.enjoysudoku.com, t32370; SudokuWiki's "Exocet", a.k.a. jExocet). HoDoKu
//! has no Exocet; the standard order puts it with the forum's other patterns of the hardest
//! puzzles, after Death Blossom and before every forcing chain.
//!
//! **The pattern**, told for a band of rows (the stack version is the same turned a quarter):
//! - the *base*: two empty cells `B1`, `B2` of one row `r0` and one box, holding three or four
//!   candidates between them, the *base digits*;
//! - the *targets*: an empty cell with a base digit in each of the band's other two boxes, in
//!   its other two rows, one per row (`T1` in row `r1`, `T2` in row `r2`);
//! - the *cross lines*: the columns of `T1` and `T2` and the column of the base box that holds
//!   no base cell; their 18 cells outside the band are the *S cells*;
//! - the *companions* `r2` × column of `T1` and `r1` × column of `T2` hold no base digit, neither
//!   as a candidate nor placed;
//! - in the S cells, every base digit (candidate or placed) lies in at most two *cover lines*
//!   (rows or columns).
//!
//! **Why the targets hold the base's digits.** The base cells share a row, so they hold two
//! different digits `a` and `b`. Take `a`. Each cross line holds one `a`, three in all; at most
//! two lie in the S cells, since each cover line holds one, so one lies in the band. Not in the
//! base box's cross line (the box has its `a` in the base), not in row `r0` (it has its `a`),
//! not in a companion: so in `T1` or `T2`. The same for `b`, and two cells hold both: `{T1, T2}
//! = {a, b}`, one each.
//!
//! **The eliminations**, each a consequence of that; rules 1, 3, 4 and 5 carry SudokuWiki's
//! numbers (its Exocet page, after the compendium), 2 and 6 are the compendium's base and
//! mirror arguments:
//! 1. a target loses every candidate that is no base digit;
//! 2. a base digit that neither target holds is not in the base: the base cells lose it;
//! 3. a base digit that the S cells hold on one cover line is not in the base (in the base, it
//!    is in one target, the band's only one on the cross lines, so the S cells need two):
//!    base cells and targets lose it;
//! 4. a target left with one base digit holds it, so the other target loses it;
//! 5. a base digit true in a target fills that target's cross line, so the other two cross
//!    lines need theirs in the S cells: a target loses a base digit whose S-cell places off its
//!    cross line lie on one line;
//! 6. the mirror rule: when `T1` is `x`, the base's other digit `y` is in `T2`, so row `r1`'s
//!    `y` sits in `T1`'s box (rows `r0` and `r2` have theirs in the other boxes), in the rest of
//!    `T1`'s mini-row. So a target loses each base digit that the rest of the *other* target's
//!    mini-row cannot hold.
//!
//! SudokuWiki asks each target to hold every base digit; the argument above needs only one
//! (the targets then lose the rest by rule 1). The compendium's further rules (known base
//! digits, conjugate pairs, incompatible pairs of base digits) and its variants (Senior, Double,
//! Franken and Mutant exocets, a single base cell, targets in one line) are not made here.

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::step::{cell_list, digit_list, Step, Technique};

/// A Junior Exocet: the base cells, the targets (by cell index), the three cross lines (the
/// base box's free line first), their S cells, and the lines the base and targets lie on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Exocet {
    base: [Cell; 2],
    targets: [Cell; 2],
    cross: [House; 3],
    s_cells: CellSet,
    orientation: Orientation,
}

/// Rows and columns seen the same way: `line` is the base's line, `across` the cross lines'
/// direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Orientation {
    transposed: bool,
}

impl Orientation {
    /// The cell on line `line` (a row, or a column when transposed) at position `across`.
    fn cell(self, line: usize, across: usize) -> Cell {
        let (r, c) = if self.transposed {
            (across, line)
        } else {
            (line, across)
        };
        Cell::from_row_col(r, c).expect("coordinates 0-8")
    }

    /// The cross line at `across`: a column, or a row when transposed.
    fn cross(self, across: usize) -> House {
        if self.transposed {
            House::Row(across as u8)
        } else {
            House::Column(across as u8)
        }
    }

    /// The line `line`: a row, or a column when transposed.
    fn line(self, line: usize) -> House {
        if self.transposed {
            House::Column(line as u8)
        } else {
            House::Row(line as u8)
        }
    }

    /// The cross line through `x`: its column, or its row when transposed.
    fn cross_of(self, x: Cell) -> House {
        self.cross(if self.transposed { x.row() } else { x.col() })
    }

    /// The line of `x` the base's line is parallel to: its row, or its column when transposed.
    fn line_of(self, x: Cell) -> House {
        self.line(if self.transposed { x.col() } else { x.row() })
    }
}

/// The digits of a cell, candidates or placed.
fn holds(c: &Candidates, x: Cell) -> DigitSet {
    match c.value(x) {
        Some(d) => DigitSet::single(d),
        None => c.get(x),
    }
}

/// Junior Exocet: the first pattern that removes candidates.
pub fn junior_exocet(c: &Candidates) -> Option<Step> {
    junior_exocets(c).into_iter().next()
}

/// Every Junior Exocet with eliminations, in [`instances`] order.
fn junior_exocets(c: &Candidates) -> Vec<Step> {
    instances(c)
        .into_iter()
        .filter_map(|e| exocet_step(c, &e))
        .collect()
}

/// Every Junior Exocet of the position: rows before columns, then bands, base lines, base
/// boxes, base pairs, the row of `T1`'s box, `T1`, `T2`.
fn instances(c: &Candidates) -> Vec<Exocet> {
    let mut found = Vec::new();
    for transposed in [false, true] {
        let o = Orientation { transposed };
        for band in 0..3 {
            for r0 in band * 3..band * 3 + 3 {
                for b0 in 0..3 {
                    for free in 0..3 {
                        bases_at(c, o, band, r0, b0, free, &mut found);
                    }
                }
            }
        }
    }
    found
}

/// The patterns whose base is line `r0`'s cells of stack `b0` but the one at `free` (0–2
/// within the box), which gives the base box's cross line.
fn bases_at(
    c: &Candidates,
    o: Orientation,
    band: usize,
    r0: usize,
    b0: usize,
    free: usize,
    found: &mut Vec<Exocet>,
) {
    let across: Vec<usize> = (0..3).filter(|&k| k != free).map(|k| b0 * 3 + k).collect();
    let base = [o.cell(r0, across[0]), o.cell(r0, across[1])];
    if base.iter().any(|&x| c.value(x).is_some()) {
        return;
    }
    let digits = c.get(base[0]) | c.get(base[1]);
    if !(3..=4).contains(&digits.len()) {
        return;
    }
    let free_line = b0 * 3 + free;
    let rows: Vec<usize> = (band * 3..band * 3 + 3).filter(|&r| r != r0).collect();
    let stacks: Vec<usize> = (0..3).filter(|&s| s != b0).collect();
    for (r1, r2) in [(rows[0], rows[1]), (rows[1], rows[0])] {
        for x1 in stacks[0] * 3..stacks[0] * 3 + 3 {
            let t1 = o.cell(r1, x1);
            if !is_target(c, t1, digits) || !(holds(c, o.cell(r2, x1)) & digits).is_empty() {
                continue;
            }
            for x2 in stacks[1] * 3..stacks[1] * 3 + 3 {
                let t2 = o.cell(r2, x2);
                if !is_target(c, t2, digits) || !(holds(c, o.cell(r1, x2)) & digits).is_empty() {
                    continue;
                }
                let cross = [o.cross(free_line), o.cross(x1), o.cross(x2)];
                let s_cells = s_cells(band, o, &cross);
                if digits
                    .iter()
                    .all(|d| covered_by(&positions(c, s_cells, d), 2))
                {
                    let mut targets = [t1, t2];
                    targets.sort_unstable();
                    found.push(Exocet {
                        base,
                        targets,
                        cross,
                        s_cells,
                        orientation: o,
                    });
                }
            }
        }
    }
}

/// An empty cell with a base digit.
fn is_target(c: &Candidates, x: Cell, digits: DigitSet) -> bool {
    c.value(x).is_none() && !(c.get(x) & digits).is_empty()
}

/// The cells of the cross lines outside the band.
fn s_cells(band: usize, o: Orientation, cross: &[House; 3]) -> CellSet {
    let band_cells =
        (band * 3..band * 3 + 3).fold(CellSet::EMPTY, |a, l| a | CellSet::house(o.line(l)));
    cross
        .iter()
        .fold(CellSet::EMPTY, |a, &h| a | CellSet::house(h))
        - band_cells
}

/// The cells of `cells` that hold `d`, as a candidate or placed.
fn positions(c: &Candidates, cells: CellSet, d: Digit) -> Vec<Cell> {
    cells.iter().filter(|&x| holds(c, x).contains(d)).collect()
}

/// Whether `lines` rows or columns (0, 1 or 2) hold all of `cells`: some line holds the first
/// cell, its row or its column, and the rest need one line fewer.
fn covered_by(cells: &[Cell], lines: usize) -> bool {
    let Some(&first) = cells.first() else {
        return true;
    };
    if lines == 0 {
        return false;
    }
    let rest_off_row: Vec<Cell> = cells
        .iter()
        .copied()
        .filter(|x| x.row() != first.row())
        .collect();
    let rest_off_column: Vec<Cell> = cells
        .iter()
        .copied()
        .filter(|x| x.col() != first.col())
        .collect();
    covered_by(&rest_off_row, lines - 1) || covered_by(&rest_off_column, lines - 1)
}

/// The step of a pattern by rules 1–6 of the module docs, or `None` when nothing goes.
fn exocet_step(c: &Candidates, e: &Exocet) -> Option<Step> {
    let digits = c.get(e.base[0]) | c.get(e.base[1]);
    let in_targets = c.get(e.targets[0]) | c.get(e.targets[1]);
    let mut out: Vec<(Cell, Digit)> = Vec::new();
    for d in digits.iter() {
        // Rule 3: a base digit the S cells hold on one cover line is in neither base nor target;
        // rule 2: one in neither target is not in the base.
        let single_cover = covered_by(&positions(c, e.s_cells, d), 1);
        let losers = if single_cover {
            [e.base, e.targets].concat()
        } else if !in_targets.contains(d) {
            e.base.to_vec()
        } else {
            Vec::new()
        };
        out.extend(
            losers
                .into_iter()
                .filter(|&x| c.get(x).contains(d))
                .map(|x| (x, d)),
        );
    }
    for (k, &t) in e.targets.iter().enumerate() {
        let other = e.targets[1 - k];
        // Rule 1: only base digits in a target.
        out.extend((c.get(t) - digits).iter().map(|d| (t, d)));
        // Rule 4: a target with one base digit holds it, and the other target does not.
        if let Some(d) = (c.get(other) & digits).only() {
            if c.get(t).contains(d) {
                out.push((t, d));
            }
        }
        let off_cross = e.s_cells - CellSet::house(e.orientation.cross_of(t));
        let mirror = mirror(e, other);
        for d in (c.get(t) & digits).iter() {
            // Rule 5: true in `t`, a digit needs two places in the S cells off `t`'s cross line.
            let cramped = covered_by(&positions(c, off_cross, d), 1);
            // Rule 6: true in `t`, a digit lies in the mirror, the rest of the other target's
            // mini-row.
            let unmirrored = mirror.iter().all(|x| !holds(c, x).contains(d));
            if cramped || unmirrored {
                out.push((t, d));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    if out.is_empty() {
        return None;
    }
    let mut step = Step::new(Technique::JuniorExocet);
    step.eliminations = out;
    step.cells = e.base.to_vec();
    step.fins = e.targets.to_vec();
    step.houses = e.cross.to_vec();
    step.digits = digits;
    step.detail = format!(
        "base {} {}, targets {}, cross lines {}",
        cell_list(&e.base),
        digit_list(digits),
        cell_list(&e.targets),
        e.cross
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Some(step)
}

/// The mirror of the target other than `t`: the two other cells of `t`'s mini-row.
fn mirror(e: &Exocet, t: Cell) -> CellSet {
    let mut cells =
        CellSet::house(e.orientation.line_of(t)) & CellSet::house(House::Box(t.box_index() as u8));
    cells.remove(t);
    cells
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::grid::Grid;
    use crate::logic::testutil::{
        cell, check_search, elims, engine_before, hardest_sample, random_position, walk,
    };
    use crate::logic::{apply, Engine, TechniqueSet};

    /// A pattern as the reference sees it: base cells, then targets, by cell index.
    type Key = ([Cell; 2], [Cell; 2]);

    /// The 18 lines of the grid.
    fn lines() -> Vec<House> {
        (0..9u8)
            .flat_map(|k| [House::Row(k), House::Column(k)])
            .collect()
    }

    /// Whether `count` lines (1 or 2) hold every one of `cells`, by trying all of them.
    fn coverable(cells: &[Cell], count: usize) -> bool {
        let lines = lines();
        lines.iter().any(|&a| {
            lines.iter().any(|&b| {
                let cover = CellSet::house(a)
                    | if count == 2 {
                        CellSet::house(b)
                    } else {
                        CellSet::EMPTY
                    };
                cells.iter().all(|&x| cover.contains(x))
            })
        })
    }

    /// The Junior Exocets and their eliminations, straight from the definition in the module
    /// docs: every pair of empty cells of one box and one line as the base, every pair of
    /// empty cells of its band as the targets, each condition checked on its own.
    fn reference(c: &Candidates) -> (BTreeSet<Key>, BTreeSet<(Cell, Digit)>) {
        let holding = |x: Cell| match c.value(x) {
            Some(d) => DigitSet::single(d),
            None => c.get(x),
        };
        let empty: Vec<Cell> = c.empty_cells().iter().collect();
        let (mut keys, mut out) = (BTreeSet::new(), BTreeSet::new());
        for (i, &b1) in empty.iter().enumerate() {
            for &b2 in &empty[i + 1..] {
                let rowwise = b1.row() == b2.row();
                if b1.box_index() != b2.box_index() || !(rowwise || b1.col() == b2.col()) {
                    continue;
                }
                let digits = c.get(b1) | c.get(b2);
                if !(3..=4).contains(&digits.len()) {
                    continue;
                }
                // Coordinates along the base's line (`line`) and across it.
                let line = |x: Cell| if rowwise { x.row() } else { x.col() };
                let across = |x: Cell| if rowwise { x.col() } else { x.row() };
                let cross_line = |k: usize| {
                    if rowwise {
                        House::Column(k as u8)
                    } else {
                        House::Row(k as u8)
                    }
                };
                let in_band = |x: Cell| line(x) / 3 == line(b1) / 3;
                let band: Vec<Cell> = empty.iter().copied().filter(|&x| in_band(x)).collect();
                for (j, &t1) in band.iter().enumerate() {
                    for &t2 in &band[j + 1..] {
                        let boxes: BTreeSet<usize> =
                            [b1, t1, t2].iter().map(|x| x.box_index()).collect();
                        let rows: BTreeSet<usize> = [b1, t1, t2].iter().map(|&x| line(x)).collect();
                        if boxes.len() < 3 || rows.len() < 3 {
                            continue;
                        }
                        if (c.get(t1) & digits).is_empty() || (c.get(t2) & digits).is_empty() {
                            continue;
                        }
                        let free = (across(b1) / 3 * 3..across(b1) / 3 * 3 + 3)
                            .find(|&k| k != across(b1) && k != across(b2))
                            .unwrap();
                        let cross = [
                            cross_line(free),
                            cross_line(across(t1)),
                            cross_line(across(t2)),
                        ];
                        let on_cross =
                            |x: Cell| cross.iter().any(|&h| CellSet::house(h).contains(x));
                        let companions_clear = Cell::all().all(|x| {
                            !(in_band(x) && on_cross(x))
                                || line(x) == line(b1)
                                || x.box_index() == b1.box_index()
                                || x == t1
                                || x == t2
                                || (holding(x) & digits).is_empty()
                        });
                        if !companions_clear {
                            continue;
                        }
                        let s_cells: Vec<Cell> = Cell::all()
                            .filter(|&x| on_cross(x) && !in_band(x))
                            .collect();
                        let places = |d: Digit| -> Vec<Cell> {
                            s_cells
                                .iter()
                                .copied()
                                .filter(|&x| holding(x).contains(d))
                                .collect()
                        };
                        if !digits.iter().all(|d| coverable(&places(d), 2)) {
                            continue;
                        }
                        keys.insert(([b1, b2], [t1, t2]));
                        let targets = [t1, t2];
                        for (k, &t) in targets.iter().enumerate() {
                            let other = targets[1 - k];
                            for d in c.get(t).iter() {
                                // Rule 1.
                                if !digits.contains(d) {
                                    out.insert((t, d));
                                    continue;
                                }
                                // Rule 4: the other target has no other base digit.
                                if (c.get(other) & digits) == DigitSet::single(d) {
                                    out.insert((t, d));
                                }
                                // Rule 5: off `t`'s cross line, the S cells hold `d` on one line.
                                let off: Vec<Cell> = places(d)
                                    .into_iter()
                                    .filter(|&x| across(x) != across(t))
                                    .collect();
                                if coverable(&off, 1) {
                                    out.insert((t, d));
                                }
                                // Rule 6: the rest of the other target's mini-row.
                                let mirror_has = Cell::all().any(|x| {
                                    x != other
                                        && line(x) == line(other)
                                        && x.box_index() == other.box_index()
                                        && holding(x).contains(d)
                                });
                                if !mirror_has {
                                    out.insert((t, d));
                                }
                            }
                        }
                        for d in digits.iter() {
                            let in_targets = targets.iter().any(|&t| c.get(t).contains(d));
                            let one_line = coverable(&places(d), 1);
                            let losers: Vec<Cell> = if one_line {
                                vec![b1, b2, t1, t2]
                            } else if !in_targets {
                                vec![b1, b2]
                            } else {
                                vec![]
                            };
                            for x in losers {
                                if c.get(x).contains(d) {
                                    out.insert((x, d));
                                }
                            }
                        }
                    }
                }
            }
        }
        (keys, out)
    }

    /// The fast search's patterns as reference keys.
    fn keys(c: &Candidates) -> BTreeSet<Key> {
        instances(c).iter().map(|e| (e.base, e.targets)).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]

        /// On random positions of real solves: the search finds the reference's patterns and
        /// exactly its eliminations, the finder gives the first, and no step removes the
        /// solution.
        #[test]
        fn junior_exocet_matches_the_reference_and_is_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..100,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let (patterns, eliminations) = reference(&c);
            prop_assert_eq!(keys(&c), patterns);
            let all = junior_exocets(&c);
            check_search(&all, junior_exocet(&c), &eliminations, &solution)?;
        }
    }

    /// Every position along the way to solving a sample of both hardest lists: the
    /// techniques before the Junior Exocet in the standard order, and where they stall the
    /// solution's digit in a cell of fewest candidates, standing in for the forcing chains.
    /// At each, the search agrees with the reference, patterns and eliminations, and removes
    /// no solution digit; the sample holds Junior Exocets that remove something.
    #[test]
    fn nothing_wrong_on_the_paths_of_the_hardest_puzzles() {
        let engine = engine_before(Technique::JuniorExocet);
        let puzzles = hardest_sample();
        let (mut positions, mut patterns, mut steps) = (0, 0, 0);
        for puzzle in &puzzles {
            walk(&engine, puzzle, |c, solution| {
                positions += 1;
                let (reference_patterns, eliminations) = reference(c);
                assert_eq!(keys(c), reference_patterns, "{}", c.grid());
                patterns += reference_patterns.len();
                let all = junior_exocets(c);
                steps += all.len();
                check_search(&all, junior_exocet(c), &eliminations, solution).unwrap();
            });
        }
        eprintln!("{positions} positions, {patterns} patterns, {steps} steps");
        assert!(positions > 2000, "{positions} positions");
        assert!(steps > 0, "{steps} steps");
    }

    /// The position where singles, locked candidates and subsets stall on `line`, its
    /// Junior Exocets, and the puzzle's solution.
    fn at_basic_stall(line: &str) -> (Vec<Step>, Grid) {
        let puzzle: Grid = line.parse().unwrap();
        let engine = Engine::new(TechniqueSet::basic());
        let mut c = Candidates::new(&puzzle);
        while let Some(s) = engine.next_step(&c) {
            apply(&mut c, &s);
        }
        let solution = crate::solver::count(&puzzle, 2).solution.unwrap();
        let steps = junior_exocets(&c);
        for s in &steps {
            for &(x, d) in &s.eliminations {
                assert_ne!(solution.get(x), Some(d), "{s}");
            }
        }
        (steps, solution)
    }

    /// SudokuWiki's Exocet page (sudokuwiki.org/Exocet), its rule 1 example ("From the
    /// start", with X-Cycles off): the targets B4 and C7 lose the 4 and the 2 and 7 that are
    /// no base digits. Found here after the basic techniques, with base r1c1,r1c2.
    #[test]
    fn sudokuwiki_rule_1_example() {
        let (steps, _) = at_basic_stall(
            "007020004930000600600300000000000050200010008006900400003700900020050001000008000",
        );
        assert_eq!(
            steps.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            vec![
                "Junior Exocet: base r1c1,r1c2 {1,5,8}, targets r2c4,r3c7, cross lines column 3, \
                 column 4, column 7 => r2c4<>4, r3c7<>2, r3c7<>7"
            ]
        );
    }

    /// Klaus Brenner's puzzle, SudokuWiki's Exocet practice puzzle ("otherwise
    /// straightforward"): its Junior Exocet in box 1 after the basic techniques.
    #[test]
    fn sudokuwiki_practice_puzzle() {
        let (steps, _) = at_basic_stall(
            "900000006050300010020400003000100280000860070030004000000020800400500060090000005",
        );
        let s = &steps[0];
        assert_eq!(s.cells, vec![cell(3, 1), cell(3, 3)]);
        assert_eq!(s.fins, vec![cell(1, 5), cell(2, 7)]);
        assert_eq!(
            s.houses,
            vec![House::Column(1), House::Column(4), House::Column(6)]
        );
        assert_eq!(elims(s), vec![(1, 5, 5), (2, 7, 4)]);
    }

    /// Allan Barker's "Fata Morgana", the puzzle the Exocet was first found in (SudokuWiki's
    /// Exocet credits; sysudoku.com, "Fata Morgana Exocet", 2015): the standard order opens
    /// with its Junior Exocet, base r5c4,r5c6, targets r4c2 and r6c8, and comes back to it
    /// twice as the marks thin, each time removing no solution digit.
    #[test]
    fn fata_morgana_opens_with_its_junior_exocet() {
        let line =
            "000000003001005600090040070000009050700050008050402000080020090003500100600000000";
        let puzzle: Grid = line.parse().unwrap();
        let solution = crate::solver::count(&puzzle, 2).solution.unwrap();
        let explanation = Engine::new(TechniqueSet::all())
            .unique(true)
            .explain(&puzzle);
        assert!(explanation.solved);
        let exocets: Vec<&Step> = explanation
            .steps
            .iter()
            .filter(|s| s.technique == Technique::JuniorExocet)
            .collect();
        assert_eq!(explanation.steps[0].technique, Technique::JuniorExocet);
        assert_eq!(
            explanation.steps[0].to_string(),
            "Junior Exocet: base r5c4,r5c6 {1,3,6}, targets r4c2,r6c8, cross lines column 5, \
             column 2, column 8 => r4c2<>2, r4c2<>4"
        );
        assert!(exocets.len() >= 3, "{} Junior Exocet steps", exocets.len());
        for s in exocets {
            assert_eq!(s.cells, vec![cell(5, 4), cell(5, 6)]);
            for &(x, d) in &s.eliminations {
                assert_ne!(solution.get(x), Some(d), "{s}");
            }
        }
    }
}
