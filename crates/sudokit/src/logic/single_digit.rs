//! Single-digit patterns: Skyscraper, 2-String Kite, Dual 2-String Kite, Turbot Fish, Empty
//! Rectangle.
//!
//! The first three are the same three-link chain on one digit: a conjugate pair (strong link)
//! `y1 = x1`, a weak link `x1 - x2` (the two cells see each other), and a second conjugate
//! pair `x2 = y2`. One of `y1`, `y2` holds the digit, so any cell seeing both loses it. The
//! names tell the shape: a Skyscraper joins two parallel lines' pairs through a common
//! crossing line, a 2-String Kite joins a row pair and a column pair inside a box, and every
//! other shape is a Turbot Fish. A Dual 2-String Kite is two kites through the same two cells of
//! a box, each cell ending the row string of one kite and the column string of the other: one
//! step with both kites' eliminations (HoDoKu reports them together).
//!
//! Empty Rectangle: in a box, the digit lies on one row and one column (a cross); with a
//! conjugate pair in a line outside the box, one end on the cross's line, the cell where the
//! other end's line meets the cross's other line loses the digit.
//!
//! Broken Wing (Sudopedia's name; SudokuWiki's "Guardians"; HoDoKu has no such step): an odd
//! loop of five or more cells holding the digit, each with the next in a house (its link)
//! that holds no other cell of the loop. Were the link houses' other cells of the digit (the
//! guardians) all false, each link would be a conjugate pair, and an odd ring of conjugate
//! pairs cannot alternate true and false. So a guardian is true: a lone guardian is placed,
//! and cells seeing every guardian lose the digit.

use std::cell::RefCell;

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::step::{cell_list, Step, Technique};

/// A conjugate pair: the only two cells of `house` holding the digit.
#[derive(Clone, Copy)]
struct Link {
    a: Cell,
    b: Cell,
    house: House,
}

fn conjugate_pairs(c: &Candidates, d: Digit) -> Vec<Link> {
    House::all()
        .filter_map(|house| {
            let cells = c.cells_with_in(house, d);
            if cells.len() != 2 {
                return None;
            }
            let mut it = cells.iter();
            Some(Link {
                a: it.next()?,
                b: it.next()?,
                house,
            })
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Skyscraper,
    Kite,
    Turbot,
}

fn is_line(h: House) -> bool {
    !matches!(h, House::Box(_))
}

/// The shape of `y1 = x1 - x2 = y2` with strong links in `h1`, `h2`.
fn shape(x1: Cell, y1: Cell, h1: House, x2: Cell, y2: Cell, h2: House) -> Shape {
    let both_rows = matches!((h1, h2), (House::Row(_), House::Row(_)));
    let both_cols = matches!((h1, h2), (House::Column(_), House::Column(_)));
    if (both_rows && x1.col() == x2.col() && y1.col() != y2.col())
        || (both_cols && x1.row() == x2.row() && y1.row() != y2.row())
    {
        return Shape::Skyscraper;
    }
    let row_and_col = is_line(h1) && is_line(h2) && !both_rows && !both_cols;
    if row_and_col
        && x1.box_index() == x2.box_index()
        && y1.box_index() != x1.box_index()
        && y2.box_index() != x1.box_index()
    {
        return Shape::Kite;
    }
    Shape::Turbot
}

/// Whether links in these two houses can form the shape at all (a quick pair filter).
fn kinds_allow(wanted: Shape, h1: House, h2: House) -> bool {
    let same_kind = matches!(
        (h1, h2),
        (House::Row(_), House::Row(_)) | (House::Column(_), House::Column(_))
    );
    match wanted {
        Shape::Skyscraper => same_kind && is_line(h1),
        Shape::Kite => is_line(h1) && is_line(h2) && !same_kind,
        Shape::Turbot => true,
    }
}

/// The three-link chains of shape `wanted` in search order (digits, then pairs of links):
/// only the first when `first` is set.
fn three_links(c: &Candidates, wanted: Shape, technique: Technique, first: bool) -> Vec<Step> {
    let mut found = Vec::new();
    for d in Digit::all() {
        let links = conjugate_pairs(c, d);
        let with_d = c.cells_with(d);
        for (i, l1) in links.iter().enumerate() {
            for l2 in &links[i + 1..] {
                if !kinds_allow(wanted, l1.house, l2.house) {
                    continue;
                }
                for (x1, y1) in [(l1.a, l1.b), (l1.b, l1.a)] {
                    for (x2, y2) in [(l2.a, l2.b), (l2.b, l2.a)] {
                        // Cheap tests first: the weak link, four distinct cells, the shape.
                        if !x1.sees(x2) || x1 == y2 || y1 == x2 || y1 == y2 {
                            continue;
                        }
                        if shape(x1, y1, l1.house, x2, y2, l2.house) != wanted {
                            continue;
                        }
                        let ends: CellSet = [x1, y1, x2, y2].into_iter().collect();
                        let targets = (with_d & CellSet::peers(y1) & CellSet::peers(y2)) - ends;
                        if targets.is_empty() {
                            continue;
                        }
                        let mut s = Step::new(technique);
                        s.digits = DigitSet::single(d);
                        s.cells = vec![y1, x1, x2, y2];
                        s.houses = vec![l1.house, l2.house];
                        s.eliminations = targets.iter().map(|t| (t, d)).collect();
                        s.detail =
                            format!("{d} in {y1}={x1} ({}), {x2}={y2} ({})", l1.house, l2.house);
                        s.chain = Some(format!(
                            "({d}){y1}=({d}){x1}-({d}){x2}=({d}){y2} => {}",
                            eliminations_text(&s.eliminations)
                        ));
                        found.push(s);
                        if first {
                            return found;
                        }
                    }
                }
            }
        }
    }
    found
}

/// Eliminations as `r1c1<>5, r2c2<>5` for the tail of a Eureka chain.
pub(crate) fn eliminations_text(elims: &[(Cell, Digit)]) -> String {
    elims
        .iter()
        .map(|(c, d)| format!("{c}<>{d}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Skyscraper: two parallel conjugate pairs whose bases share a crossing line.
pub fn skyscraper(c: &Candidates) -> Option<Step> {
    three_links(c, Shape::Skyscraper, Technique::Skyscraper, true).pop()
}

/// 2-String Kite: a row pair and a column pair with one end of each in a common box.
pub fn two_string_kite(c: &Candidates) -> Option<Step> {
    three_links(c, Shape::Kite, Technique::TwoStringKite, true).pop()
}

/// Dual 2-String Kite.
pub fn dual_two_string_kite(c: &Candidates) -> Option<Step> {
    dual_kites(c).next()
}

/// Every Dual 2-String Kite: per digit and box, every two cells of the box on different rows
/// and columns whose four lines are conjugate pairs leaving the box.
fn dual_kites(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    Digit::all().flat_map(move |d| {
        let with_d = c.cells_with(d);
        // The other end of the conjugate pair of `d` in `line` through `x`, if it leaves x's box.
        let string = move |line: House, x: Cell| {
            let cells = with_d & CellSet::house(line);
            let other = (cells - CellSet::single(x)).first()?;
            (cells.len() == 2 && other.box_index() != x.box_index()).then_some(other)
        };
        let mut found = Vec::new();
        for b in 0..9u8 {
            let in_box: Vec<Cell> = (with_d & CellSet::house(House::Box(b))).iter().collect();
            for (i, &p) in in_box.iter().enumerate() {
                for &q in &in_box[i + 1..] {
                    if p.row() == q.row() || p.col() == q.col() {
                        continue;
                    }
                    let row = |x: Cell| House::Row(x.row() as u8);
                    let col = |x: Cell| House::Column(x.col() as u8);
                    let kites = [(p, q), (q, p)].map(|(x1, x2)| {
                        let (y1, y2) = (string(row(x1), x1)?, string(col(x2), x2)?);
                        let ends: CellSet = [x1, y1, x2, y2].into_iter().collect();
                        let targets = (with_d & CellSet::peers(y1) & CellSet::peers(y2)) - ends;
                        (!targets.is_empty()).then_some((x1, y1, x2, y2, targets))
                    });
                    let [Some(first), Some(second)] = kites else {
                        continue;
                    };
                    let mut s = Step::new(Technique::DualTwoStringKite);
                    s.digits = DigitSet::single(d);
                    let mut texts = Vec::new();
                    for (x1, y1, x2, y2, targets) in [first, second] {
                        s.cells.extend([y1, x1, x2, y2]);
                        s.houses.extend([row(x1), col(x2)]);
                        for t in targets.iter() {
                            if !s.eliminations.contains(&(t, d)) {
                                s.eliminations.push((t, d));
                            }
                        }
                        texts.push(format!("{y1}={x1} ({}), {x2}={y2} ({})", row(x1), col(x2)));
                    }
                    s.eliminations.sort_unstable();
                    s.detail =
                        format!("{d} in {} and {} through box {}", texts[0], texts[1], b + 1);
                    found.push(s);
                }
            }
        }
        found
    })
}

/// Turbot Fish: any other conjugate pair – weak link – conjugate pair on one digit.
pub fn turbot_fish(c: &Candidates) -> Option<Step> {
    three_links(c, Shape::Turbot, Technique::TurbotFish, true).pop()
}

/// Empty Rectangle.
pub fn empty_rectangle(c: &Candidates) -> Option<Step> {
    empty_rectangles(c, true).pop()
}

/// Dual Empty Rectangle: two Empty Rectangles of one digit in the same box with different
/// conjugate pairs and different eliminations, reported as one step.
pub fn dual_empty_rectangle(c: &Candidates) -> Option<Step> {
    dual_empty_rectangles(c).next()
}

/// Every Dual Empty Rectangle, pairing the Empty Rectangles of each digit and box in search
/// order.
fn dual_empty_rectangles(c: &Candidates) -> impl Iterator<Item = Step> {
    let all = empty_rectangles(c, false);
    let mut found = Vec::new();
    for (i, first) in all.iter().enumerate() {
        for second in &all[i + 1..] {
            if first.digits != second.digits
                || first.houses[0] != second.houses[0]
                || first.houses[1] == second.houses[1]
                || first.eliminations == second.eliminations
            {
                continue;
            }
            let mut s = Step::new(Technique::DualEmptyRectangle);
            s.digits = first.digits;
            s.houses = vec![first.houses[0], first.houses[1], second.houses[1]];
            s.cells = first.cells.clone();
            s.cells
                .extend(second.cells.iter().filter(|x| !first.cells.contains(x)));
            s.eliminations = first.eliminations.clone();
            s.eliminations.extend(second.eliminations.iter().copied());
            s.eliminations.sort_unstable();
            s.detail = format!("{} and {}", first.detail, second.detail);
            found.push(s);
        }
    }
    found.into_iter()
}

/// The Empty Rectangles in search order (digits, boxes, crosses, then lines): only the first
/// when `first` is set.
fn empty_rectangles(c: &Candidates, first: bool) -> Vec<Step> {
    let mut found = Vec::new();
    for d in Digit::all() {
        let with_d = c.cells_with(d);
        for b in 0..9u8 {
            let bx = CellSet::house(House::Box(b));
            let in_box = with_d & bx;
            if in_box.len() < 2 {
                continue;
            }
            let (band, stack) = (b as usize / 3 * 3, b as usize % 3 * 3);
            for row in band..band + 3 {
                for col in stack..stack + 3 {
                    let row_set = CellSet::house(House::Row(row as u8));
                    let col_set = CellSet::house(House::Column(col as u8));
                    if !(in_box - row_set - col_set).is_empty()
                        || (in_box - row_set).is_empty()
                        || (in_box - col_set).is_empty()
                    {
                        continue;
                    }
                    // Conjugate pair in a column outside the box, one end on the cross's row.
                    for line in (0..9).filter(|c| !(stack..stack + 3).contains(c)) {
                        let pair = with_d & CellSet::house(House::Column(line as u8));
                        if let Some(step) = er_step(
                            d,
                            b,
                            row,
                            col,
                            pair,
                            |p| p.row() == row,
                            |q| {
                                (q.row() / 3 * 3 != band)
                                    .then(|| Cell::from_row_col(q.row(), col))
                                    .flatten()
                            },
                            with_d,
                            House::Column(line as u8),
                        ) {
                            found.push(step);
                            if first {
                                return found;
                            }
                        }
                    }
                    // Conjugate pair in a row outside the box, one end on the cross's column.
                    for line in (0..9).filter(|r| !(band..band + 3).contains(r)) {
                        let pair = with_d & CellSet::house(House::Row(line as u8));
                        if let Some(step) = er_step(
                            d,
                            b,
                            row,
                            col,
                            pair,
                            |p| p.col() == col,
                            |q| {
                                (q.col() / 3 * 3 != stack)
                                    .then(|| Cell::from_row_col(row, q.col()))
                                    .flatten()
                            },
                            with_d,
                            House::Row(line as u8),
                        ) {
                            found.push(step);
                            if first {
                                return found;
                            }
                        }
                    }
                }
            }
        }
    }
    found
}

#[allow(clippy::too_many_arguments)]
fn er_step(
    d: Digit,
    b: u8,
    row: usize,
    col: usize,
    pair: CellSet,
    on_cross: impl Fn(Cell) -> bool,
    target_of: impl Fn(Cell) -> Option<Cell>,
    with_d: CellSet,
    line: House,
) -> Option<Step> {
    if pair.len() != 2 {
        return None;
    }
    let mut it = pair.iter();
    let (first, second) = (it.next()?, it.next()?);
    for (p, q) in [(first, second), (second, first)] {
        if !on_cross(p) {
            continue;
        }
        let Some(t) = target_of(q) else { continue };
        if !with_d.contains(t) {
            continue;
        }
        let mut s = Step::new(Technique::EmptyRectangle);
        s.digits = DigitSet::single(d);
        s.houses = vec![House::Box(b), line];
        s.cells = (with_d & CellSet::house(House::Box(b))).iter().collect();
        s.cells.extend([p, q]);
        s.eliminations = vec![(t, d)];
        s.detail = format!(
            "{d} in box {} (row {}, column {}), {p}={q} in {line}",
            b + 1,
            row + 1,
            col + 1
        );
        return Some(s);
    }
    None
}

/// The longest Broken Wing loop searched, in cells: the five-cell loops of Sudopedia's and
/// SudokuWiki's examples and the seven-cell ones of the forum. Each guardian must be seen by
/// the target, so longer loops rarely remove anything, and their eliminations are a long
/// X-Chain's too.
pub const BROKEN_WING_MAX_CELLS: usize = 7;

/// The first Broken Wing of each digit and the digit's cells it was found with. A digit's
/// loops depend on its cells only, and the step of another technique between two calls
/// leaves most digits' cells as they were, so only the changed digits are searched again.
type WingCache = [Option<(CellSet, Option<Step>)>; 9];

thread_local! {
    static WING_CACHE: RefCell<WingCache> = const { RefCell::new([const { None }; 9]) };
}

/// Broken Wing.
pub fn broken_wing(c: &Candidates) -> Option<Step> {
    Digit::all().find_map(|d| {
        let holders = c.cells_with(d);
        WING_CACHE.with(|cache| {
            let slot = &mut cache.borrow_mut()[d.index()];
            match slot {
                Some((cells, step)) if *cells == holders => step.clone(),
                _ => {
                    let step = digit_broken_wings(c, d).next();
                    *slot = Some((holders, step.clone()));
                    step
                }
            }
        })
    })
}

/// Every Broken Wing, by digit.
#[cfg(test)]
fn broken_wings(c: &Candidates) -> impl Iterator<Item = Step> + '_ {
    Digit::all().flat_map(move |d| digit_broken_wings(c, d))
}

/// Every Broken Wing of `d`, by its loop's first cell (each loop met once, from its first
/// cell toward the lower of its two neighbours).
fn digit_broken_wings(c: &Candidates, d: Digit) -> impl Iterator<Item = Step> + '_ {
    c.cells_with(d).iter().flat_map(move |start| {
        let mut wing = Wing {
            c,
            d,
            start,
            within: closing_distances(c.cells_with(d), start),
            loop_cells: vec![start],
            on_loop: CellSet::single(start),
            houses: Vec::new(),
            guardians: CellSet::EMPTY,
            seen_by_guardians: CellSet::ALL,
        };
        let mut found = Vec::new();
        wing.extend(CellSet::EMPTY, &mut found);
        found
    })
}

/// The cells of a loop from `start` (the digit's `holders` from `start` on) that can close
/// it within `j` links, for `j` up to [`BROKEN_WING_MAX_CELLS`]: a loop's later cells lie
/// there, so a path whose next cell is too far to close it in time is not grown.
fn closing_distances(holders: CellSet, start: Cell) -> [CellSet; BROKEN_WING_MAX_CELLS + 1] {
    let from_start = CellSet::from_bits(!((1u128 << start.index()) - 1)) & holders;
    let mut within = [CellSet::EMPTY; BROKEN_WING_MAX_CELLS + 1];
    within[1] = from_start & CellSet::peers(start);
    // The cells first reached in the last round: only their peers can be new.
    let mut frontier = within[1];
    for j in 2..=BROKEN_WING_MAX_CELLS {
        within[j] = frontier.iter().fold(within[j - 1], |acc, x| {
            acc | (from_start & CellSet::peers(x))
        });
        frontier = within[j] - within[j - 1];
    }
    within
}

/// A Broken Wing's loop in the making: its cells in order, the houses linking each to the
/// next, the guardians so far and the cells seeing all of them.
struct Wing<'a> {
    c: &'a Candidates,
    d: Digit,
    start: Cell,
    within: [CellSet; BROKEN_WING_MAX_CELLS + 1],
    loop_cells: Vec<Cell>,
    on_loop: CellSet,
    houses: Vec<House>,
    guardians: CellSet,
    seen_by_guardians: CellSet,
}

impl Wing<'_> {
    /// Grows the loop by one link from its last cell, or closes it; `linked` holds the cells
    /// of the link houses so far, where no later loop cell may lie. A loop whose guardians
    /// (two or more) no cell with the digit sees can remove nothing and is dropped, and so
    /// is a path that can no longer close within [`BROKEN_WING_MAX_CELLS`] cells.
    fn extend(&mut self, linked: CellSet, found: &mut Vec<Step>) {
        let (start, last) = (self.start, self.loop_cells[self.loop_cells.len() - 1]);
        let n = self.loop_cells.len();
        // The cells a new (non-closing) cell may be: close enough to close the loop in time.
        let reachable = if n == BROKEN_WING_MAX_CELLS {
            CellSet::EMPTY
        } else {
            self.within[BROKEN_WING_MAX_CELLS - n] - linked - self.on_loop
        };
        for h in last.houses() {
            let holders = self.c.cells_with_in(h, self.d);
            let others = (self.on_loop & CellSet::house(h)) - CellSet::single(last);
            let closes = others == CellSet::single(start)
                && n >= 5
                && n % 2 == 1
                && self.loop_cells[1] < last;
            let nexts = if !others.is_empty() {
                CellSet::single(start) & holders
            } else {
                reachable & holders
            };
            for next in nexts.iter() {
                let closing = next == start;
                if closing && !closes {
                    continue;
                }
                let (guardians, seen) = (self.guardians, self.seen_by_guardians);
                let new = holders - CellSet::single(last) - CellSet::single(next);
                self.guardians |= new;
                self.seen_by_guardians = new.iter().fold(seen, |acc, g| acc & CellSet::peers(g));
                let targets = self.c.cells_with(self.d) & self.seen_by_guardians;
                if self.guardians.len() < 2 || !targets.is_empty() {
                    self.houses.push(h);
                    if closing {
                        found.extend(self.conclude());
                    } else {
                        self.loop_cells.push(next);
                        self.on_loop.insert(next);
                        self.extend(linked | CellSet::house(h), found);
                        self.on_loop.remove(next);
                        self.loop_cells.pop();
                    }
                    self.houses.pop();
                }
                (self.guardians, self.seen_by_guardians) = (guardians, seen);
            }
        }
    }

    /// The step of a closed loop: a lone guardian is the digit, and otherwise cells seeing
    /// every guardian lose it.
    fn conclude(&self) -> Option<Step> {
        let d = self.d;
        let mut s = Step::new(Technique::BrokenWing);
        match self.guardians.len() {
            // No guardian: the candidates are already contradictory.
            0 => return None,
            1 => s.placements = self.guardians.iter().map(|g| (g, d)).collect(),
            _ => {
                let targets = self.c.cells_with(d) & self.guardians.common_peers();
                s.eliminations = targets.iter().map(|t| (t, d)).collect();
            }
        }
        if s.is_empty() {
            return None;
        }
        s.digits = DigitSet::single(d);
        s.cells = self.loop_cells.clone();
        s.fins = self.guardians.iter().collect();
        s.houses = self.houses.clone();
        s.detail = format!(
            "{d} in the loop {}, guardians {}",
            cell_list(&s.cells),
            cell_list(&s.fins)
        );
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;
    use crate::logic::testutil::{
        cell, check_search, conclusions, d, elims, only_digit_in, random_position, sweep,
        Conclusions,
    };
    use crate::logic::Finder;

    /// The placements and eliminations of every Broken Wing, from the definition: every
    /// sequence of five or seven distinct cells of a digit (up to [`BROKEN_WING_MAX_CELLS`]),
    /// from its lowest cell, each seeing the next and the last the first; every choice of a
    /// house shared by each two neighbours that holds no other cell of the loop; the
    /// guardians are those houses' other cells of the digit.
    fn broken_wing_reference(c: &Candidates) -> Conclusions {
        fn loops(holders: CellSet, path: &mut Vec<Cell>, visit: &mut impl FnMut(&[Cell])) {
            let last = path[path.len() - 1];
            if path.len() >= 5 && path.len() % 2 == 1 && last.sees(path[0]) {
                visit(path);
            }
            if path.len() == BROKEN_WING_MAX_CELLS {
                return;
            }
            for next in holders.iter() {
                if next > path[0] && next.sees(last) && !path.contains(&next) {
                    path.push(next);
                    loops(holders, path, visit);
                    path.pop();
                }
            }
        }
        let (mut placed, mut removed) = (BTreeSet::new(), BTreeSet::new());
        for d in Digit::all() {
            let holders = c.cells_with(d);
            for start in holders.iter() {
                loops(holders, &mut vec![start], &mut |cells| {
                    let n = cells.len();
                    let mut choices: Vec<Vec<House>> = Vec::new();
                    for i in 0..n {
                        let (x, y) = (cells[i], cells[(i + 1) % n]);
                        let shared: Vec<House> = x
                            .houses()
                            .into_iter()
                            .filter(|h| y.houses().contains(h))
                            .filter(|&h| {
                                cells
                                    .iter()
                                    .all(|&z| z == x || z == y || !CellSet::house(h).contains(z))
                            })
                            .collect();
                        choices.push(shared);
                    }
                    let mut pick = vec![0; n];
                    'houses: loop {
                        if choices.iter().all(|options| !options.is_empty()) {
                            let mut guardians = CellSet::EMPTY;
                            for (i, options) in choices.iter().enumerate() {
                                guardians |= c.cells_with_in(options[pick[i]], d);
                            }
                            guardians -= cells.iter().copied().collect::<CellSet>();
                            if guardians.len() == 1 {
                                placed.extend(guardians.iter().map(|g| (g, d)));
                            } else if guardians.len() > 1 {
                                for t in holders.iter() {
                                    if guardians.iter().all(|g| g != t && g.sees(t)) {
                                        removed.insert((t, d));
                                    }
                                }
                            }
                        }
                        for (i, options) in choices.iter().enumerate() {
                            if pick[i] + 1 < options.len() {
                                pick[i] += 1;
                                continue 'houses;
                            }
                            pick[i] = 0;
                        }
                        break;
                    }
                });
            }
        }
        (placed, removed)
    }

    /// An empty grid with the digit 1 in `cells` and no other candidate anywhere: one digit's
    /// pattern alone (on a grid full of candidates the loops would be countless).
    fn only_one_in(cells: &[(usize, usize)]) -> Candidates {
        let mut c = only_digit_in(cells, 1);
        for x in Cell::all() {
            for other in Digit::all().filter(|&o| o != d(1)) {
                c.eliminate(x, other);
            }
        }
        c
    }

    #[test]
    fn sudopedia_broken_wing_with_one_and_two_guardians() {
        // The loop of Sudopedia's first Broken Wing example, r5c2-r2c2-r2c5-r1c6-r5c6: four
        // conjugate pairs, and row 5 also holds the digit in r5c8, the one guardian.
        let loop_cells = [(5, 2), (2, 2), (2, 5), (1, 6), (5, 6)];
        let mut cells = loop_cells.to_vec();
        cells.extend([(5, 8), (7, 8), (8, 9), (9, 1)]);
        let c = only_one_in(&cells);
        let steps: Vec<Step> = broken_wings(&c).collect();
        let s = steps.first().expect("the one-guardian wing");
        assert_eq!(s.placements, vec![(cell(5, 8), d(1))]);
        assert_eq!(s.fins, vec![cell(5, 8)]);
        assert_eq!(
            s.to_string(),
            "Broken Wing: 1 in the loop r1c6,r2c5,r2c2,r5c2,r5c6, guardians r5c8 => r5c8=1"
        );
        assert_eq!(broken_wing_reference(&c), conclusions(&steps));
        // Its second example: two guardians in one house (here r5c8 and r5c9 of row 5 and
        // box 6), so the rest of both houses loses the digit, the loop's own r5c2 and r5c6
        // included.
        cells.extend([(5, 9), (4, 7), (6, 9)]);
        let c = only_one_in(&cells);
        let steps: Vec<Step> = broken_wings(&c).collect();
        let (placed, removed) = conclusions(&steps);
        assert!(placed.is_empty());
        let expected: BTreeSet<(Cell, Digit)> = [(4, 7), (5, 2), (5, 6), (6, 9)]
            .into_iter()
            .map(|(r, col)| (cell(r, col), d(1)))
            .collect();
        assert_eq!(removed, expected);
        assert_eq!(broken_wing_reference(&c), (placed, removed));
    }

    #[test]
    fn random_positions_hold_broken_wings() {
        let positions = sweep(
            150,
            (30, 50),
            |c| broken_wings(c).collect(),
            |c| broken_wing_reference(c).1,
        );
        assert!(
            positions > 10,
            "only {positions} positions with a Broken Wing"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]

        /// The search concludes exactly what the reference does, the finder gives the first
        /// instance, and no step removes or misplaces the solution.
        #[test]
        fn broken_wing_finds_every_instance_and_is_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..85,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let all: Vec<Step> = broken_wings(&c).collect();
            let reference = broken_wing_reference(&c);
            prop_assert_eq!(conclusions(&all), reference.clone());
            check_search(&all, broken_wing(&c), &reference.1, &solution)?;
            for s in &all {
                for &(x, digit) in &s.placements {
                    prop_assert_eq!(solution.get(x), Some(digit), "{}", s);
                }
            }
        }
    }

    /// A chain `y1 = x1 - x2 = y2` of one digit: the only two cells of the digit in `h1`
    /// (`y1`, `x1`) and in `h2` (`x2`, `y2`), four distinct cells, `x1` seeing `x2`; and the
    /// cells holding the digit that see both ends, outside the chain.
    struct Chain {
        d: Digit,
        h1: House,
        ends1: (Cell, Cell),
        h2: House,
        ends2: (Cell, Cell),
        targets: Vec<Cell>,
    }

    /// Every such chain with a target, in both orders, straight from the definition.
    fn three_link_chains(c: &Candidates) -> Vec<Chain> {
        let mut out = Vec::new();
        for d in Digit::all() {
            let has = |x: Cell| c.get(x).contains(d);
            let pairs: Vec<(House, Cell, Cell)> = House::all()
                .filter_map(|h| {
                    let v: Vec<Cell> = h.cells().iter().copied().filter(|&x| has(x)).collect();
                    (v.len() == 2).then(|| [(h, v[0], v[1]), (h, v[1], v[0])])
                })
                .flatten()
                .collect();
            for &(h1, y1, x1) in &pairs {
                for &(h2, x2, y2) in &pairs {
                    let four = [y1, x1, x2, y2];
                    let distinct = four.iter().collect::<BTreeSet<_>>().len() == 4;
                    if h1 == h2 || !distinct || !x1.sees(x2) {
                        continue;
                    }
                    let targets: Vec<Cell> = Cell::all()
                        .filter(|&t| has(t) && !four.contains(&t) && t.sees(y1) && t.sees(y2))
                        .collect();
                    if !targets.is_empty() {
                        let (ends1, ends2) = ((y1, x1), (x2, y2));
                        out.push(Chain {
                            d,
                            h1,
                            ends1,
                            h2,
                            ends2,
                            targets,
                        });
                    }
                }
            }
        }
        out
    }

    /// Skyscraper: both strong links in rows (or both in columns), the inner ends `x1`, `x2`
    /// on one crossing line, the outer ends not.
    fn is_skyscraper(ch: &Chain) -> bool {
        let ((y1, x1), (x2, y2)) = (ch.ends1, ch.ends2);
        match (ch.h1, ch.h2) {
            (House::Row(_), House::Row(_)) => x1.col() == x2.col() && y1.col() != y2.col(),
            (House::Column(_), House::Column(_)) => x1.row() == x2.row() && y1.row() != y2.row(),
            _ => false,
        }
    }

    /// 2-String Kite: a row link and a column link whose inner ends share a box that neither
    /// outer end is in.
    fn is_kite(ch: &Chain) -> bool {
        let ((y1, x1), (x2, y2)) = (ch.ends1, ch.ends2);
        let lines = matches!(
            (ch.h1, ch.h2),
            (House::Row(_), House::Column(_)) | (House::Column(_), House::Row(_))
        );
        let b = x1.box_index();
        lines && x2.box_index() == b && y1.box_index() != b && y2.box_index() != b
    }

    /// The eliminations of the chains `keep` accepts.
    fn chain_reference(c: &Candidates, keep: fn(&Chain) -> bool) -> BTreeSet<(Cell, Digit)> {
        three_link_chains(c)
            .iter()
            .filter(|ch| keep(ch))
            .flat_map(|ch| ch.targets.iter().map(move |&t| (t, ch.d)))
            .collect()
    }

    fn skyscraper_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        chain_reference(c, is_skyscraper)
    }

    fn kite_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        chain_reference(c, is_kite)
    }

    /// Turbot Fish: every other such chain (HoDoKu names the two special shapes first).
    fn turbot_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        chain_reference(c, |ch| !is_skyscraper(ch) && !is_kite(ch))
    }

    /// The eliminations of every Dual 2-String Kite, from the definition: all 2-String Kites,
    /// paired when they go through the same two box cells with the roles swapped (one's row
    /// end in the box is the other's column end).
    fn dual_kite_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let kites: Vec<Chain> = three_link_chains(c)
            .into_iter()
            .filter(|ch| is_kite(ch) && matches!(ch.h1, House::Row(_)))
            .collect();
        let mut out = BTreeSet::new();
        for k in &kites {
            for l in &kites {
                if k.d == l.d && k.ends1.1 == l.ends2.0 && k.ends2.0 == l.ends1.1 {
                    out.extend(k.targets.iter().chain(&l.targets).map(|&t| (t, k.d)));
                }
            }
        }
        out
    }

    #[test]
    fn dual_kite_through_two_cells_of_box_1() {
        // Box 1 holds 1 at r1c2 and r2c1 only. Kite A: row 1 (r1c2=r1c7), column 1
        // (r2c1=r7c1), r7c7 sees both ends. Kite B: row 2 (r2c1=r2c8), column 2 (r1c2=r8c2),
        // r8c8 sees both ends.
        let c = only_digit_in(
            &[
                (1, 2),
                (2, 1),
                (1, 7),
                (7, 1),
                (2, 8),
                (8, 2),
                (7, 7),
                (8, 8),
            ],
            1,
        );
        let s = dual_two_string_kite(&c).unwrap();
        assert_eq!(elims(&s), vec![(7, 7, 1), (8, 8, 1)]);
        assert_eq!(elims(&two_string_kite(&c).unwrap()).len(), 1);
        // Without r8c8 kite B eliminates nothing: two plain kites at most, no dual.
        let c = only_digit_in(&[(1, 2), (2, 1), (1, 7), (7, 1), (2, 8), (8, 2), (7, 7)], 1);
        assert!(dual_two_string_kite(&c).is_none());
    }

    /// Every Empty Rectangle from the definition, grouped by digit and box: a box whose cells
    /// of the digit, two or more, lie on one row and one column of it and on neither alone; a
    /// conjugate pair in a line crossing one of those, outside the box, whose other end's line
    /// meets the other one at a candidate (the target). Each as (conjugate line, target).
    fn empty_rectangles_by_box(c: &Candidates) -> Vec<(Digit, Vec<(House, Cell)>)> {
        let mut out = Vec::new();
        for d in Digit::all() {
            let has = |x: Cell| c.get(x).contains(d);
            for b in 0..9usize {
                let in_box: Vec<Cell> = Cell::all()
                    .filter(|x| x.box_index() == b && has(*x))
                    .collect();
                // (conjugate line, target)
                let mut ers: Vec<(House, Cell)> = Vec::new();
                for row in (b / 3 * 3)..(b / 3 * 3 + 3) {
                    for col in (b % 3 * 3)..(b % 3 * 3 + 3) {
                        let cross = in_box.len() >= 2
                            && in_box.iter().all(|x| x.row() == row || x.col() == col)
                            && in_box.iter().any(|x| x.row() != row)
                            && in_box.iter().any(|x| x.col() != col);
                        if !cross {
                            continue;
                        }
                        for line in (0..18).filter_map(House::from_index) {
                            let cells: Vec<Cell> =
                                line.cells().iter().copied().filter(|&x| has(x)).collect();
                            if cells.len() != 2 || cells.iter().any(|x| x.box_index() == b) {
                                continue;
                            }
                            for (p, q) in [(cells[0], cells[1]), (cells[1], cells[0])] {
                                let target = match line {
                                    House::Column(_) if p.row() == row && q.row() / 3 != b / 3 => {
                                        Cell::from_row_col(q.row(), col)
                                    }
                                    House::Row(_) if p.col() == col && q.col() / 3 != b % 3 => {
                                        Cell::from_row_col(row, q.col())
                                    }
                                    _ => None,
                                };
                                if let Some(t) = target.filter(|&t| has(t)) {
                                    ers.push((line, t));
                                }
                            }
                        }
                    }
                }
                out.push((d, ers));
            }
        }
        out
    }

    fn er_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        empty_rectangles_by_box(c)
            .into_iter()
            .flat_map(|(d, ers)| ers.into_iter().map(move |(_, t)| (t, d)))
            .collect()
    }

    /// The eliminations of every Dual Empty Rectangle, from the definition: an Empty
    /// Rectangle paired with another of the same box and digit through another line with
    /// another target.
    fn dual_er_reference(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        let mut out = BTreeSet::new();
        for (d, ers) in empty_rectangles_by_box(c) {
            for &(l1, t1) in &ers {
                for &(l2, t2) in &ers {
                    if l1 != l2 && t1 != t2 {
                        out.extend([(t1, d), (t2, d)]);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn dual_empty_rectangle_with_a_row_and_a_column_pair() {
        // Box 1 holds 5 on row 2 and column 2 (r1c2, r2c1, r2c3). Column 7: r2c7=r6c7, so
        // r6c2 loses 5; row 8: r8c2=r8c9, so r2c9 loses 5. (r6c5 keeps row 6 from being a
        // conjugate pair, which would make more Empty Rectangles.)
        let c = only_digit_in(
            &[
                (1, 2),
                (2, 1),
                (2, 3),
                (2, 7),
                (6, 7),
                (6, 2),
                (6, 5),
                (8, 2),
                (8, 9),
                (2, 9),
                (5, 9),
            ],
            5,
        );
        let s = dual_empty_rectangle(&c).unwrap();
        assert_eq!(elims(&s), vec![(2, 9, 5), (6, 2, 5)]);
        assert_eq!(elims(&empty_rectangle(&c).unwrap()).len(), 1);
    }

    #[test]
    fn random_positions_hold_dual_empty_rectangles() {
        let search = |c: &Candidates| dual_empty_rectangles(c).collect();
        let positions = sweep(600, (40, 50), search, dual_er_reference);
        assert!(
            positions > 10,
            "only {positions} positions with a dual empty rectangle"
        );
    }

    #[test]
    fn random_positions_hold_dual_kites() {
        // Dual kites need many conjugate pairs: mostly heavily thinned positions.
        let positions = sweep(
            1500,
            (55, 40),
            |c| dual_kites(c).collect(),
            dual_kite_reference,
        );
        assert!(
            positions >= 3,
            "only {positions} positions with a dual kite"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        /// Each dual pattern's search finds exactly the reference's eliminations, the finder
        /// gives the first instance, and no step removes the solution.
        #[test]
        fn duals_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..95,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let kites: Vec<Step> = dual_kites(&c).collect();
            check_search(&kites, dual_two_string_kite(&c), &dual_kite_reference(&c), &solution)?;
            let rectangles: Vec<Step> = dual_empty_rectangles(&c).collect();
            let reference = dual_er_reference(&c);
            check_search(&rectangles, dual_empty_rectangle(&c), &reference, &solution)?;
        }
    }

    /// The three-link shapes: each with its technique, finder and reference.
    type ThreeLink = (
        Shape,
        Technique,
        Finder,
        fn(&Candidates) -> BTreeSet<(Cell, Digit)>,
    );
    const THREE_LINKS: [ThreeLink; 3] = [
        (
            Shape::Skyscraper,
            Technique::Skyscraper,
            skyscraper,
            skyscraper_reference,
        ),
        (
            Shape::Kite,
            Technique::TwoStringKite,
            two_string_kite,
            kite_reference,
        ),
        (
            Shape::Turbot,
            Technique::TurbotFish,
            turbot_fish,
            turbot_reference,
        ),
    ];

    #[test]
    fn random_positions_hold_three_link_chains_and_empty_rectangles() {
        for (shape, technique, _, reference) in THREE_LINKS {
            let search = |c: &Candidates| three_links(c, shape, technique, false);
            let positions = sweep(300, (20, 60), search, reference);
            assert!(
                positions > 30,
                "only {positions} positions with a {technique}"
            );
        }
        let positions = sweep(300, (20, 60), |c| empty_rectangles(c, false), er_reference);
        assert!(
            positions > 30,
            "only {positions} positions with an empty rectangle"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        /// Skyscraper, 2-String Kite and Turbot Fish: each search finds exactly the
        /// reference's eliminations, the finder gives the first instance, and no step removes
        /// the solution.
        #[test]
        fn three_link_chains_find_every_instance_and_are_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..90,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            for (shape, technique, finder, reference) in THREE_LINKS {
                let all = three_links(&c, shape, technique, false);
                check_search(&all, finder(&c), &reference(&c), &solution)?;
            }
        }

        /// The Empty Rectangle search finds exactly the reference's eliminations, the finder
        /// gives the first instance, and no step removes the solution.
        #[test]
        fn empty_rectangle_finds_every_instance_and_is_sound(
            index in 0usize..1000,
            steps in 0usize..40,
            drop in 0u64..90,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let all = empty_rectangles(&c, false);
            check_search(&all, empty_rectangle(&c), &er_reference(&c), &solution)?;
        }
    }

    #[test]
    fn skyscraper_on_two_rows() {
        // Row 1: 1 at c2, c7. Row 5: 1 at c2, c9. Bases in column 2; tops r1c7 and r5c9.
        // Cells seeing both tops: r4c7? no (r4c7 sees r5c9 via box 6 and r1c7 via column 7).
        let c = only_digit_in(
            &[
                (1, 2),
                (1, 7),
                (5, 2),
                (5, 9),
                (4, 7),
                (6, 7),
                (2, 9),
                (3, 9),
                (8, 2),
                (8, 5),
                (9, 4),
                (9, 5),
            ],
            1,
        );
        let s = skyscraper(&c).unwrap();
        assert_eq!(elims(&s), vec![(2, 9, 1), (3, 9, 1), (4, 7, 1), (6, 7, 1)]);
        assert_eq!(
            s.chain.as_deref(),
            Some("(1)r1c7=(1)r1c2-(1)r5c2=(1)r5c9 => r2c9<>1, r3c9<>1, r4c7<>1, r6c7<>1")
        );
    }

    #[test]
    fn two_string_kite_through_a_box() {
        // Row 3: 2 at c1, c8. Column 2: 2 at r2, r7. r3c1 and r2c2 share box 1.
        // r7c8 sees both r3c8 (column 8) and r7c2 (row 7).
        let c = only_digit_in(
            &[
                (3, 1),
                (3, 8),
                (2, 2),
                (7, 2),
                (7, 8),
                (7, 5),
                (9, 8),
                (5, 5),
                (9, 5),
            ],
            2,
        );
        assert!(skyscraper(&c).is_none());
        let s = two_string_kite(&c).unwrap();
        assert_eq!(elims(&s), vec![(7, 8, 2)]);
        assert_eq!(
            s.cells,
            vec![cell(3, 8), cell(3, 1), cell(2, 2), cell(7, 2)]
        );
    }

    #[test]
    fn turbot_fish_with_a_box_link() {
        // Box 1: 3 only at r1c1, r3c2. Column 5: 3 only at r1c5, r8c5; r1c1 sees r1c5.
        // r8c2 sees r3c2 (column 2) and r8c5 (row 8). r1c8, r8c9, r5c2 only break other
        // conjugate pairs.
        let c = only_digit_in(
            &[
                (1, 1),
                (3, 2),
                (1, 5),
                (8, 5),
                (8, 2),
                (1, 8),
                (8, 9),
                (5, 2),
            ],
            3,
        );
        assert!(skyscraper(&c).is_none());
        assert!(two_string_kite(&c).is_none());
        let s = turbot_fish(&c).unwrap();
        assert_eq!(elims(&s), vec![(8, 2, 3)]);
        assert_eq!(
            s.chain.as_deref(),
            Some("(3)r8c5=(3)r1c5-(3)r1c1=(3)r3c2 => r8c2<>3")
        );
    }

    #[test]
    fn empty_rectangle_with_a_column_pair() {
        // Box 5 holds 7 on row 5 and column 5 only (r5c4, r5c5, r4c5). Column 8 has the
        // conjugate pair r5c8 / r9c8. Target: r9c5.
        let c = only_digit_in(&[(5, 4), (5, 5), (4, 5), (5, 8), (9, 8), (9, 5)], 7);
        let s = empty_rectangle(&c).unwrap();
        assert_eq!(elims(&s), vec![(9, 5, 7)]);
        assert_eq!(s.houses, vec![House::Box(4), House::Column(7)]);
    }
}
