//! The last resort: trial, so that every puzzle with a unique solution is finished.
//!
//! A trial assumes one candidate and follows the consequences mechanically. It is reported
//! as [`Technique::Trial`], never dressed up as pure logic, and it never guesses: a candidate
//! is only removed when the assumption is *proved* impossible.
//!
//! 1. **Singles trial.** Assume `cell = digit`, then place naked and hidden singles until
//!    they stall. If some cell runs out of candidates, or some digit has no place left in a
//!    house, the assumption is false and the candidate goes. Cells with the fewest
//!    candidates are tried first, so the usual case is a bivalue cell whose other digit is
//!    then a naked single.
//! 2. **Deeper trial.** When no single assumption breaks under singles, assume a candidate,
//!    and when singles stall, branch on the cell with the fewest candidates, propagating
//!    singles after every assumption. If every branch ends in a contradiction the first
//!    assumption is impossible. Only the cells with the fewest candidates are assumed
//!    (usually bivalue cells, where a refutation leaves a single), at rising depth limits
//!    (iterative deepening), so the refutation reported is among the shallowest. At full
//!    depth this is an exhaustive search, hence complete: in a puzzle with one solution
//!    every false candidate fails, and each of those cells holds at least one. The step states how many assumptions the refutation took and how
//!    deep it went.
//!
//! Nothing here relies on the puzzle being unique: a candidate is removed only when no
//! completion of the grid contains it. On a grid with several solutions where every
//! candidate of every cell extends to some solution, no trial succeeds and the finder
//! returns `None`.

use crate::candidates::Candidates;
use crate::grid::{Cell, CellSet, Digit, DigitSet, House};
use crate::step::{Step, Technique};

/// How singles propagation ended.
enum Outcome {
    /// The grid broke; the text says where.
    Contradiction(String),
    /// Every cell is filled.
    Solved,
    /// Singles ran out on an unfinished grid.
    Stalled,
}

/// Trial: a singles trial if one refutes a candidate, else a search trial.
pub fn trial(c: &Candidates) -> Option<Step> {
    let order = trial_order(c);
    for &(cell, digit) in &order {
        let mut s = c.clone();
        s.place(cell, digit);
        let mut placed = 0;
        if let Outcome::Contradiction(why) = propagate(&mut s, &mut placed) {
            let detail = format!(
                "assume {cell}={digit}: {placed} single{} later {why}",
                if placed == 1 { "" } else { "s" }
            );
            return Some(step(cell, digit, detail));
        }
    }
    // Deeper trials, shallowest first: a refutation at depth `k` branches on at most
    // `k - 1` further assumptions below the first. Only the cells with the fewest
    // candidates are tried: refuting a digit there (usually of a bivalue cell, which then
    // becomes a single) is worth the effort, and at full depth one of their digits always
    // falls in a puzzle with one solution. Once no candidate is left undecided at some
    // depth, every one extends to a solution and nothing can go.
    let fewest = order.first().map_or(0, |&(x, _)| c.get(x).len());
    let narrow: Vec<(Cell, Digit)> = order
        .iter()
        .copied()
        .filter(|&(x, _)| c.get(x).len() == fewest)
        .collect();
    for depth in 2..=81 {
        let mut undecided = false;
        for &(cell, digit) in &narrow {
            let mut s = c.clone();
            s.place(cell, digit);
            let mut stats = SearchStats::default();
            match refute(s, depth, 1, &mut stats) {
                Verdict::Refuted => {
                    let detail = format!(
                        "assume {cell}={digit}: singles stall, and all {} branches below it (at most {} assumptions deep) end in a contradiction",
                        stats.nodes, stats.depth,
                    );
                    return Some(step(cell, digit, detail));
                }
                Verdict::Open => undecided = true,
                Verdict::Consistent => {}
            }
        }
        if !undecided {
            break;
        }
    }
    None
}

fn step(cell: Cell, digit: Digit, detail: String) -> Step {
    let mut s = Step::new(Technique::Trial);
    s.eliminations.push((cell, digit));
    s.cells.push(cell);
    s.digits = DigitSet::single(digit);
    s.detail = detail;
    s
}

/// Every candidate, cells with the fewest candidates first, then by cell and digit.
fn trial_order(c: &Candidates) -> Vec<(Cell, Digit)> {
    let mut cells: Vec<Cell> = Cell::all().filter(|&x| c.get(x).len() >= 2).collect();
    cells.sort_by_key(|&x| (c.get(x).len(), x.index()));
    cells
        .iter()
        .flat_map(|&x| c.get(x).iter().map(move |d| (x, d)))
        .collect()
}

/// Places naked and hidden singles until none is left, the grid is full, or it breaks;
/// `placed` counts the singles placed.
fn propagate(s: &mut Candidates, placed: &mut usize) -> Outcome {
    loop {
        let mut progress = false;
        for cell in Cell::all() {
            if s.value(cell).is_some() {
                continue;
            }
            let cands = s.get(cell);
            match cands.only() {
                Some(d) => {
                    s.place(cell, d);
                    *placed += 1;
                    progress = true;
                }
                None if cands.is_empty() => {
                    return Outcome::Contradiction(format!("{cell} has no candidate left"));
                }
                None => {}
            }
        }
        for house in House::all() {
            let mut placed_here = DigitSet::EMPTY;
            for &cell in house.cells() {
                if let Some(d) = s.value(cell) {
                    if placed_here.contains(d) {
                        return Outcome::Contradiction(format!("{d} appears twice in {house}"));
                    }
                    placed_here.insert(d);
                }
            }
            for d in (!placed_here).iter() {
                let cells = s.cells_with_in(house, d);
                match cells.len() {
                    0 => {
                        return Outcome::Contradiction(format!("{d} has no place left in {house}"))
                    }
                    1 => {
                        if let Some(cell) = cells.first() {
                            s.place(cell, d);
                            *placed += 1;
                            progress = true;
                        }
                    }
                    _ => {}
                }
            }
        }
        if s.is_solved() {
            return Outcome::Solved;
        }
        if !progress {
            return Outcome::Stalled;
        }
    }
}

/// What a search trial cost: assumptions made and the deepest nesting.
#[derive(Default)]
struct SearchStats {
    nodes: usize,
    depth: usize,
}

/// The outcome of a depth-limited trial search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    /// Every branch ends in a contradiction.
    Refuted,
    /// Some branch reached the depth limit undecided.
    Open,
    /// Some branch reached a full, valid grid.
    Consistent,
}

/// Propagates singles from `s`, then branches on the cell with the fewest candidates, at
/// most `limit` assumptions deep in all (`depth` made so far).
fn refute(mut s: Candidates, limit: usize, depth: usize, stats: &mut SearchStats) -> Verdict {
    stats.nodes += 1;
    stats.depth = stats.depth.max(depth);
    let mut placed = 0;
    match propagate(&mut s, &mut placed) {
        Outcome::Contradiction(_) => Verdict::Refuted,
        Outcome::Solved if s.grid().conflict().is_none() => Verdict::Consistent,
        Outcome::Solved => Verdict::Refuted,
        Outcome::Stalled if depth >= limit => Verdict::Open,
        Outcome::Stalled => {
            let Some(cell) = branch_cell(&s) else {
                return Verdict::Refuted;
            };
            for d in s.get(cell).iter() {
                let mut t = s.clone();
                t.place(cell, d);
                match refute(t, limit, depth + 1, stats) {
                    Verdict::Refuted => {}
                    other => return other,
                }
            }
            Verdict::Refuted
        }
    }
}

/// The empty cell with the fewest candidates (at least two after a stalled propagation).
fn branch_cell(s: &Candidates) -> Option<Cell> {
    let empty: CellSet = Cell::all().filter(|&x| s.value(x).is_none()).collect();
    empty.iter().min_by_key(|&x| s.get(x).len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testutil::{cell, d, from_line};
    use crate::logic::{apply, Engine, TechniqueSet};

    const INKALA_2012: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    const INKALA_2012_SOLUTION: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

    #[test]
    fn singles_trial_refutes_a_candidate_that_breaks_a_house() {
        // Row 1 of an easy puzzle: r1c1 can be 4 (true) or something else; trying the false
        // digit must end in a contradiction found by singles, and the step removes it.
        let line =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let sol =
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
        let c = from_line(line);
        let s = trial(&c).expect("a trial step");
        assert_eq!(s.technique, Technique::Trial);
        assert!(s.placements.is_empty());
        assert_eq!(s.eliminations.len(), 1);
        let (x, dg) = s.eliminations[0];
        assert_ne!(sol.as_bytes()[x.index()] - b'0', dg.get());
        assert!(s.detail.contains("assume"), "{}", s.detail);
        // Bivalue cells first: the eliminated cell has the fewest candidates of the grid.
        let fewest = Cell::all()
            .map(|y| c.get(y).len())
            .filter(|&n| n >= 2)
            .min();
        assert_eq!(Some(c.get(x).len()), fewest);
    }

    #[test]
    fn a_contradiction_is_reported_with_its_reason() {
        // r1c1..r1c8 hold 1..8, so r1c9 can only be 9; assuming r9c9=9 empties r1c9.
        let c = from_line(&format!("{}{}", "12345678.", ".".repeat(72)));
        let mut t = c.clone();
        t.place(cell(9, 9), d(9));
        let mut placed = 0;
        match propagate(&mut t, &mut placed) {
            Outcome::Contradiction(why) => assert!(why.contains("r1c9"), "{why}"),
            _ => panic!("expected a contradiction"),
        }
    }

    #[test]
    fn trial_alone_finishes_the_hardest_puzzle_correctly() {
        let set = TechniqueSet::new([
            Technique::FullHouse,
            Technique::HiddenSingle,
            Technique::NakedSingle,
            Technique::Trial,
        ]);
        let mut c = from_line(INKALA_2012);
        let mut trials = 0;
        while !c.is_solved() {
            let step = Engine::new(set.clone()).next_step(&c).expect("progress");
            for &(x, dg) in &step.eliminations {
                assert_ne!(INKALA_2012_SOLUTION.as_bytes()[x.index()] - b'0', dg.get());
            }
            for &(x, dg) in &step.placements {
                assert_eq!(INKALA_2012_SOLUTION.as_bytes()[x.index()] - b'0', dg.get());
            }
            trials += usize::from(step.technique == Technique::Trial);
            assert!(apply(&mut c, &step));
        }
        assert!(trials > 0);
        assert_eq!(c.grid().to_string(), INKALA_2012_SOLUTION);
    }

    #[test]
    fn deeper_trial_when_no_single_assumption_breaks() {
        // After r4c7<>9 no candidate of the Inkala grid breaks under singles alone.
        let mut c = from_line(INKALA_2012);
        c.eliminate(cell(4, 7), d(9));
        for &(x, dg) in &trial_order(&c) {
            let mut s = c.clone();
            s.place(x, dg);
            let mut placed = 0;
            assert!(!matches!(
                propagate(&mut s, &mut placed),
                Outcome::Contradiction(_)
            ));
        }
        let s = trial(&c).expect("a deeper trial");
        assert!(s.detail.contains("singles stall"), "{}", s.detail);
        let (x, dg) = s.eliminations[0];
        assert_ne!(INKALA_2012_SOLUTION.as_bytes()[x.index()] - b'0', dg.get());
    }

    #[test]
    fn exhaustive_trial_decides_candidates_exactly() {
        // The search trial decides candidates exactly: true ones have a completion, false
        // ones do not.
        let c = from_line(INKALA_2012);
        for &(x, dg) in trial_order(&c).iter().take(6) {
            let mut s = c.clone();
            s.place(x, dg);
            let mut stats = SearchStats::default();
            let truth = INKALA_2012_SOLUTION.as_bytes()[x.index()] - b'0' == dg.get();
            let verdict = refute(s, 81, 1, &mut stats);
            let want = if truth {
                Verdict::Consistent
            } else {
                Verdict::Refuted
            };
            assert_eq!(verdict, want, "{x}={dg}");
            assert!(stats.nodes >= 1);
        }
    }

    #[test]
    fn several_solutions_never_yield_a_step() {
        // A full grid with a deadly rectangle opened: r1c1,r1c2,r4c1,r4c2 hold 1,2 / 2,1 and
        // swapping them gives a second solution, so no candidate can be refuted.
        let sol =
            "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
        let line: String = sol
            .chars()
            .enumerate()
            .map(|(i, ch)| if [0, 1, 27, 28].contains(&i) { '.' } else { ch })
            .collect();
        let c = from_line(&line);
        assert_eq!(c.get(cell(1, 1)).len(), 2);
        assert!(trial(&c).is_none());
    }
}
