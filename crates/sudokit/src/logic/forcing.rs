//! Forcing chains and nets, as Sudoku Explainer defines them, for the explain engine.
//!
//! One search serves both the rating and the explanations: these finders run SE's own
//! chaining rules (see [`crate::rate`]) on the current pencil marks and turn SE's first
//! hint into a [`Step`] whose chain text lists the implications (`r1c2=5 -> r1c7<>5 -> …`).
//!
//! - [`nishio`]: assume a candidate, follow its digit alone (bilocal and same-digit links);
//!   if a candidate ends up both on and off, the assumption is false (SE 7.5).
//! - [`chain_verity`]: every candidate of a cell (cell forcing chains) or every place of a
//!   digit in a house (unit/region forcing chains) implies the same conclusion; static
//!   chains first (SE 8.0), then dynamic ones, which also include "double" chains where a
//!   candidate being on and off imply the same (SE 8.5).
//! - [`chain_contradiction`]: a dynamic chain from one assumption reaches a contradiction
//!   (SE 8.5). Dynamic chains apply every elimination along the way, so one chain may
//!   rest on several earlier ones — a net.
//! - [`net_contradiction`], [`net_verity`]: dynamic chains that also apply locked
//!   candidates, hidden and naked pairs and X-Wings on the way (SE's "dynamic (+)", 9.0).
//! - [`nested`]: where every rule before it stalls, SE's chaining rules in SE's order up to
//!   its deepest nesting (ratings up to 11 and more), stopped at the first hint; the step
//!   keeps SE's label. Only what even they cannot do is left to [`Technique::Trial`].

use crate::candidates::Candidates;
use crate::grid::{Cell, Digit};
use crate::rate::{chain_steps, se_chain_step, ChainRule, ChainStep, SeTechnique, MAX_LEVEL};
use crate::step::{Step, Technique};

/// Nishio forcing chain: an assumption whose digit's implications contradict themselves.
pub fn nishio(c: &Candidates) -> Option<Step> {
    first(
        c,
        &[ChainRule::NISHIO],
        Technique::NishioForcingChain,
        |_| true,
    )
}

/// Cell, region (unit) and double forcing chains, static then dynamic.
pub fn chain_verity(c: &Candidates) -> Option<Step> {
    first(
        c,
        &[ChainRule::MULTIPLE, ChainRule::dynamic(0)],
        Technique::ForcingChainVerity,
        |t| !is_contradiction(t),
    )
}

/// Dynamic contradiction forcing chains.
pub fn chain_contradiction(c: &Candidates) -> Option<Step> {
    first(
        c,
        &[ChainRule::dynamic(0)],
        Technique::ForcingChainContradiction,
        is_contradiction,
    )
}

/// Contradiction forcing nets: dynamic chains helped by simple rules on the way.
pub fn net_contradiction(c: &Candidates) -> Option<Step> {
    first(
        c,
        &[ChainRule::dynamic(1)],
        Technique::ForcingNetContradiction,
        is_contradiction,
    )
}

/// Verity forcing nets (cell, region, double), helped by simple rules on the way.
pub fn net_verity(c: &Candidates) -> Option<Step> {
    first(
        c,
        &[ChainRule::dynamic(1)],
        Technique::ForcingNetVerity,
        |t| !is_contradiction(t),
    )
}

/// Sudoku Explainer's chaining rules from the current marks, in SE's order up to its
/// deepest nesting: the first rule that finds something gives the step, named by
/// HoDoKu's closest technique, with SE's name, rating and nested premises kept.
pub fn nested(c: &Candidates) -> Option<Step> {
    se_chain_step(c, MAX_LEVEL)
}

fn is_contradiction(t: SeTechnique) -> bool {
    matches!(t, SeTechnique::ContradictionForcingChains(_))
}

/// The first step, in SE's order, of the first rule of `rules` that has one `wanted`.
fn first(
    c: &Candidates,
    rules: &[ChainRule],
    technique: Technique,
    wanted: fn(SeTechnique) -> bool,
) -> Option<Step> {
    rules.iter().find_map(|&rule| {
        chain_steps(c, rule)
            .into_iter()
            .find(|s| wanted(s.tech) && (s.placement.is_some() || !s.eliminations.is_empty()))
            .map(|s| to_step(technique, s))
    })
}

fn to_step(technique: Technique, s: ChainStep) -> Step {
    let pair = |(c, d): (usize, u8)| Some((Cell::new(c)?, Digit::new(d)?));
    let mut step = Step::concluding(
        technique,
        s.placement.and_then(pair).into_iter().collect(),
        s.eliminations.iter().filter_map(|&e| pair(e)).collect(),
    );
    step.detail = format!("{} (SE {})", s.tech.name(), s.rating);
    let effects: Vec<String> = step
        .placements
        .iter()
        .map(|(c, d)| format!("{c}={d}"))
        .chain(step.eliminations.iter().map(|(c, d)| format!("{c}<>{d}")))
        .collect();
    step.chain = Some(format!(
        "{}: {} => {}",
        step.detail,
        s.text,
        effects.join(", ")
    ));
    step
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{apply, Engine, TechniqueSet};
    use crate::parse::parse;
    use crate::solver;
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use crate::grid::{CellSet, DigitSet, House};

    use crate::logic::testutil::{hidden_singles, random_position, singles};

    /// Every conclusion of a step agrees with the solution.
    fn check(step: &Step, solution: &crate::grid::Grid) {
        for &(cell, d) in &step.placements {
            assert_eq!(solution.get(cell), Some(d), "{step}");
        }
        for &(cell, d) in &step.eliminations {
            assert_ne!(solution.get(cell), Some(d), "{step}");
        }
    }

    /// Stalls basic techniques on an SE 9.2 puzzle, then applies forcing steps until solved,
    /// checking each against the solution.
    #[test]
    fn forcing_steps_are_sound_and_finish_a_hard_puzzle() {
        let p = parse(
            "1.......7..2.3.8...7.4.8.2....316....3.....1....7.5...9.7...4.5.4.....8...6.4.2..",
        )
        .unwrap();
        let solution = solver::solve(&p).unwrap();
        let basic = Engine::new(TechniqueSet::basic());
        let mut cands = basic.explain(&p).final_state;
        let finders = [
            nishio,
            chain_verity,
            chain_contradiction,
            net_contradiction,
            net_verity,
        ];
        let mut used = Vec::new();
        for _ in 0..200 {
            if cands.is_solved() {
                break;
            }
            let step = basic
                .next_step(&cands)
                .or_else(|| finders.iter().find_map(|f| f(&cands)))
                .expect("a step");
            check(&step, &solution);
            if let Some(chain) = &step.chain {
                assert!(chain.contains("=>"), "{step}");
                used.push(step.technique);
            }
            assert!(apply(&mut cands, &step));
        }
        assert!(cands.is_solved());
        assert!(!used.is_empty());
    }

    #[test]
    fn nishio_steps_are_sound() {
        // Calibration puzzles SE rates 7.1–8.3; after basic techniques stall, Nishio finds
        // a step in some of them, and every one it finds is right.
        let puzzles = [
            "74.8....1.96.3..573...7.....5.9.8...............5.1.7.....9...867..8.31.9....7.42",
            "8.9..1.266..3......2......1.7...9...4.6.3.9.7...5...4.3......7......4..959.6..8.4",
            ".7.8..5..6.35......1....7.2.8..14...1.6...8.3...68..2.7.2....6......69.8..8..5.1.",
        ];
        let basic = Engine::new(TechniqueSet::basic());
        let mut found = 0;
        for text in puzzles {
            let p = parse(text).unwrap();
            let solution = solver::solve(&p).unwrap();
            let cands = basic.explain(&p).final_state;
            if let Some(step) = nishio(&cands) {
                check(&step, &solution);
                assert_eq!(step.technique, Technique::NishioForcingChain);
                found += 1;
            }
        }
        assert!(found > 0);
    }

    /// Each finder on a position where basic techniques stall: exactly the expected
    /// elimination, proven independently — by the exact solver (the puzzle has no solution
    /// with that digit there) and, for the chains, which use singles only, by singles.
    #[test]
    fn each_finder_gives_exactly_its_proven_elimination() {
        type Finder = fn(&Candidates) -> Option<Step>;
        let cases: [(&str, Finder, &str, bool); 5] = [
            // SE 9.2 (plain dynamic forcing chains).
            (
                "1.......7..2.3.8...7.4.8.2....316....3.....1....7.5...9.7...4.5.4.....8...6.4.2..",
                chain_verity,
                "r9c9<>3",
                true,
            ),
            (
                "1.......7..2.3.8...7.4.8.2....316....3.....1....7.5...9.7...4.5.4.....8...6.4.2..",
                chain_contradiction,
                "r5c1<>8",
                true,
            ),
            (
                "1.......7..2.3.8...7.4.8.2....316....3.....1....7.5...9.7...4.5.4.....8...6.4.2..",
                net_contradiction,
                "r6c3<>4",
                false,
            ),
            (
                "1.......7..2.3.8...7.4.8.2....316....3.....1....7.5...9.7...4.5.4.....8...6.4.2..",
                net_verity,
                "r8c7<>3",
                true,
            ),
            // SE 7.2 in the calibration list.
            (
                "74.8....1.96.3..573...7.....5.9.8...............5.1.7.....9...867..8.31.9....7.42",
                nishio,
                "r6c2<>8",
                true,
            ),
        ];
        for (text, finder, want, by_singles) in cases {
            let p = parse(text).unwrap();
            let cands = Engine::new(TechniqueSet::basic()).explain(&p).final_state;
            let step = finder(&cands).expect(want);
            assert_eq!(step.effects(), want, "{step}");
            for &(cell, d) in &step.eliminations {
                let mut assumed = cands.clone();
                assumed.place(cell, d);
                assert_eq!(
                    solver::count(assumed.grid(), 1).count,
                    0,
                    "{cell}={d} has a solution"
                );
                if by_singles {
                    assert!(singles(assumed).is_none(), "singles refute {cell}={d}");
                }
            }
        }
    }

    /// Digit `d`'s hidden singles alone from `c` (Nishio's one-digit implications): true
    /// when a house that lacks `d` is left with no place for it.
    fn digit_breaks(mut c: Candidates, d: Digit) -> bool {
        loop {
            match hidden_singles(&mut c, DigitSet::single(d)) {
                None => return true,
                Some(false) => return false,
                Some(true) => {}
            }
        }
    }

    /// The candidates a step's conclusions remove from `c`: its eliminations, and for a
    /// placement its cell's other candidates (the effect the definitions compare, since a
    /// cell of two candidates loses the same either way).
    fn removed(c: &Candidates, step: &Step) -> BTreeSet<(Cell, Digit)> {
        let placed = step.placements.iter().flat_map(|&(cell, d)| {
            c.get(cell)
                .iter()
                .filter(move |&x| x != d)
                .map(move |x| (cell, x))
        });
        step.eliminations.iter().copied().chain(placed).collect()
    }

    /// What every hint of SE's Nishio run from `c` removes.
    fn nishio_removals(c: &Candidates) -> BTreeSet<(Cell, Digit)> {
        chain_steps(c, ChainRule::NISHIO)
            .into_iter()
            .flat_map(|s| removed(c, &to_step(Technique::NishioForcingChain, s)))
            .collect()
    }

    /// What the definition removes: every candidate whose placement lets `breaks` break
    /// the grid, and the other candidates of a cell where removing one does.
    fn refuted(
        c: &Candidates,
        breaks: impl Fn(Candidates, Digit) -> bool,
    ) -> BTreeSet<(Cell, Digit)> {
        let mut out = BTreeSet::new();
        for cell in Cell::all().filter(|&x| c.value(x).is_none()) {
            for d in c.get(cell).iter() {
                let mut on = c.clone();
                on.place(cell, d);
                if breaks(on, d) {
                    out.insert((cell, d));
                }
                let mut off = c.clone();
                off.eliminate(cell, d);
                if breaks(off, d) {
                    out.extend(c.get(cell).iter().filter(|&x| x != d).map(|x| (cell, x)));
                }
            }
        }
        out
    }

    type Removals = BTreeSet<(Cell, Digit)>;

    /// The candidates of `c` that `after` (what a chain's implications reached from `c`)
    /// no longer has.
    fn lost(c: &Candidates, after: &Candidates) -> BTreeSet<(Cell, Digit)> {
        Cell::all()
            .flat_map(|x| c.get(x).iter().map(move |d| (x, d)))
            .filter(|&(x, d)| after.value(x) != Some(d) && !after.get(x).contains(d))
            .collect()
    }

    /// How far a chain's implications go from a grid: to the grid they reach, or `None` at
    /// a contradiction.
    type Reach = fn(Candidates) -> Option<Candidates>;

    /// What `reach` removes from `c` with `cell` placed as `d` (`on`) or `d` removed from it.
    fn implied(
        c: &Candidates,
        reach: Reach,
        (cell, d, on): (Cell, Digit, bool),
    ) -> Option<Removals> {
        let mut g = c.clone();
        if on {
            g.place(cell, d);
        } else {
            g.eliminate(cell, d);
        }
        reach(g).map(|after| lost(c, &after))
    }

    /// Singles, and where they stall the simple rules SE's forcing nets use inside chains
    /// (locked candidates, naked and hidden pairs, X-Wings), to their end: the implications
    /// of a net, as a candidate placed or removed sets them off.
    fn with_simple_rules(mut c: Candidates) -> Option<Candidates> {
        loop {
            c = singles(c)?;
            if !simple_rules(&mut c) {
                return Some(c);
            }
        }
    }

    /// One pass of locked candidates, naked pairs, hidden pairs and X-Wings over the grid,
    /// written from their definitions: whether any candidate was removed.
    fn simple_rules(c: &mut Candidates) -> bool {
        let mut removed = false;
        let mut clear = |c: &mut Candidates, cells: CellSet, digits: DigitSet| {
            for x in cells.iter() {
                for d in digits.iter() {
                    removed |= c.eliminate(x, d);
                }
            }
        };
        let houses: Vec<House> = House::all().collect();
        let open = |c: &Candidates, h: House, d: Digit| !c.placed_in(h).contains(d);
        // Locked candidates: a digit's places in one house all in another house.
        for &a in &houses {
            for &b in &houses {
                let crossing = CellSet::house(a) & CellSet::house(b);
                if a == b || crossing.len() != 3 {
                    continue;
                }
                for d in Digit::all() {
                    let places = c.cells_with_in(a, d);
                    if open(c, a, d) && !places.is_empty() && (places - crossing).is_empty() {
                        let rest = c.cells_with_in(b, d) - crossing;
                        clear(c, rest, DigitSet::single(d));
                    }
                }
            }
        }
        for &h in &houses {
            let free: Vec<Cell> = (c.empty_cells() & CellSet::house(h)).iter().collect();
            // Naked pairs: two cells of a house holding the same two digits.
            for (i, &x) in free.iter().enumerate() {
                for &y in &free[i + 1..] {
                    let pair = c.get(x);
                    if pair.len() == 2 && c.get(y) == pair {
                        let rest = CellSet::house(h) - CellSet::single(x) - CellSet::single(y);
                        clear(c, rest, pair);
                    }
                }
            }
            // Hidden pairs: two digits of a house with the same two places.
            for d in Digit::all() {
                for e in Digit::all().filter(|&e| e > d) {
                    let places = c.cells_with_in(h, d);
                    let both = open(c, h, d) && open(c, h, e);
                    if both && places.len() == 2 && c.cells_with_in(h, e) == places {
                        let pair = DigitSet::single(d) | DigitSet::single(e);
                        clear(c, places, !pair);
                    }
                }
            }
        }
        // X-Wings: a digit's places in two parallel lines within two crossing lines.
        for (bases, covers) in [(0..9, 9..18), (9..18, 0..9)] {
            for d in Digit::all() {
                let lines: Vec<CellSet> = bases
                    .clone()
                    .filter_map(House::from_index)
                    .filter(|&h| open(c, h, d))
                    .map(|h| c.cells_with_in(h, d))
                    .collect();
                for (i, &p) in lines.iter().enumerate() {
                    for &q in &lines[i + 1..] {
                        let crossing: Vec<House> = covers
                            .clone()
                            .filter_map(House::from_index)
                            .filter(|&h| !(CellSet::house(h) & (p | q)).is_empty())
                            .collect();
                        if p.len() >= 2 && q.len() >= 2 && crossing.len() == 2 {
                            for h in crossing {
                                let rest = c.cells_with_in(h, d) - p - q;
                                clear(c, rest, DigitSet::single(d));
                            }
                        }
                    }
                }
            }
        }
        removed
    }

    /// The verity definitions through singles. A unit is a cell's candidates, a digit's
    /// places in a house, or one candidate placed and removed; its cases are each of those
    /// placed (or the candidate's two cases), and what all the cases imply is true. Returns
    /// what is implied by every case of a unit where no case breaks the grid (`all`), and
    /// by every case that does not break it, for every unit (`some`: a broken case is false).
    fn verities(c: &Candidates, reach: Reach) -> (Removals, Removals) {
        let mut units: Vec<Vec<(Cell, Digit, bool)>> = Vec::new();
        for cell in Cell::all().filter(|&x| c.value(x).is_none()) {
            units.push(c.get(cell).iter().map(|d| (cell, d, true)).collect());
            units.extend(
                c.get(cell)
                    .iter()
                    .map(|d| vec![(cell, d, true), (cell, d, false)]),
            );
        }
        for house in House::all() {
            for d in Digit::all() {
                let places = c.cells_with_in(house, d);
                if places.len() >= 2 {
                    units.push(places.iter().map(|x| (x, d, true)).collect());
                }
            }
        }
        let (mut all, mut some) = (BTreeSet::new(), BTreeSet::new());
        for unit in units {
            let held: Vec<BTreeSet<(Cell, Digit)>> = unit
                .iter()
                .filter_map(|&case| implied(c, reach, case))
                .collect();
            let whole = held.len() == unit.len();
            if let Some(common) = held
                .into_iter()
                .reduce(|a, b| a.intersection(&b).copied().collect())
            {
                if whole {
                    all.extend(common.iter().copied());
                }
                some.extend(common);
            }
        }
        (all, some)
    }

    /// That SE's `rule` run from `c` concludes every refutation by `reach` and everything
    /// every case of a unit implies where no case breaks the grid, and nothing beyond the
    /// refutations and what the unbroken cases of some unit imply; and nothing false.
    /// Returns that bound: what any chain following `reach` may conclude.
    fn check_rule(
        c: &Candidates,
        rule: ChainRule,
        reach: Reach,
        solution: &crate::grid::Grid,
    ) -> Result<Removals, TestCaseError> {
        let (all, some) = verities(c, reach);
        let refutations = refuted(c, |c, _| reach(c).is_none());
        let found = rule_removals(c, rule);
        let least: Removals = all.union(&refutations).copied().collect();
        let most: Removals = some.union(&refutations).copied().collect();
        prop_assert!(
            least.is_subset(&found),
            "{:?}",
            least.difference(&found).collect::<Vec<_>>()
        );
        prop_assert!(
            found.is_subset(&most),
            "{:?}",
            found.difference(&most).collect::<Vec<_>>()
        );
        for &(x, d) in &found {
            prop_assert!(solution.get(x) != Some(d), "{x}<>{d} removes the solution");
        }
        Ok(most)
    }

    /// What every hint of SE's `rule` run from `c` removes.
    fn rule_removals(c: &Candidates, rule: ChainRule) -> BTreeSet<(Cell, Digit)> {
        chain_steps(c, rule)
            .into_iter()
            .flat_map(|s| removed(c, &to_step(Technique::ForcingChainVerity, s)))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// On positions along real solves where singles stall, the definitions decide what
        /// chains of singles conclude: a candidate is false when placing it lets singles
        /// break the grid (a cell or a house left empty), true when removing it does. Nishio
        /// follows one digit's hidden singles, and SE's Nishio run gives exactly those
        /// refutations. Dynamic chains follow all singles: their finders give the easiest
        /// hint only, so they are applied until the definition refutes nothing more (and
        /// then find nothing), each contradiction step being one of the definition's, every
        /// step true.
        #[test]
        fn chains_conclude_exactly_the_singles_refutations(
            index in 0usize..1000,
            steps in 10usize..80,
            drop in 0u64..60,
            seed in any::<u64>(),
        ) {
            let (mut c, solution) = random_position(index, steps, drop, seed);
            let simple = Engine::new(TechniqueSet::singles());
            loop {
                // Chains come after singles, which the definitions would count as refutations.
                if let Some(step) = simple.next_step(&c) {
                    check(&step, &solution);
                    apply(&mut c, &step);
                    continue;
                }
                prop_assert_eq!(nishio_removals(&c), refuted(&c, digit_breaks));
                let truth = refuted(&c, |c, _| singles(c).is_none());
                let step = match chain_contradiction(&c) {
                    Some(step) => {
                        prop_assert!(removed(&c, &step).is_subset(&truth), "{}", step);
                        step
                    }
                    None if truth.is_empty() => break,
                    // SE keeps the easiest chain of each conclusion; where a cell or region
                    // chain is easier, the contradictions are left to Forcing Chain Verity.
                    None => chain_verity(&c).expect("a step where singles refute"),
                };
                check(&step, &solution);
                prop_assert!(apply(&mut c, &step));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        /// Where singles stall, SE's dynamic run concludes what cases imply through singles. A
        /// unit is a cell's candidates (cell chains), a digit's places in a house (region
        /// chains), or a candidate placed and removed (double chains). The run concludes every
        /// refutation and everything every case of a unit implies when none breaks the grid,
        /// and nothing beyond those and what the unbroken cases of some unit imply. Its static
        /// run before it, which follows only the links of the grid as it is, concludes nothing
        /// beyond either.
        #[test]
        fn verity_chains_conclude_what_every_case_implies(
            index in 0usize..1000,
            steps in 0usize..30,
            drop in 0u64..30,
            seed in any::<u64>(),
        ) {
            let (mut c, solution) = random_position(index, steps, drop, seed);
            let simple = Engine::new(TechniqueSet::singles());
            while let Some(step) = simple.next_step(&c) {
                check(&step, &solution);
                apply(&mut c, &step);
            }
            prop_assume!(!c.is_solved());
            let most = check_rule(&c, ChainRule::dynamic(0), singles, &solution)?;
            // The static run's chains are dynamic ones that follow fewer links.
            let fixed = rule_removals(&c, ChainRule::MULTIPLE);
            prop_assert!(
                fixed.is_subset(&most),
                "{:?}",
                fixed.difference(&most).collect::<Vec<_>>()
            );
        }

        /// The same for SE's forcing nets (its dynamic (+) chains), whose implications go
        /// through singles and the simple rules (locked candidates, naked and hidden pairs,
        /// X-Wings), on positions where those stall: the run concludes every refutation and
        /// verity they give, and nothing else.
        #[test]
        fn nets_conclude_what_every_case_implies(
            index in 0usize..1000,
            steps in 0usize..30,
            drop in 0u64..30,
            seed in any::<u64>(),
        ) {
            let (c, solution) = random_position(index, steps, drop, seed);
            let c = with_simple_rules(c).expect("sound rules keep the solution");
            for x in Cell::all() {
                let truth = solution.get(x).expect("a full solution");
                prop_assert!(c.value(x) == Some(truth) || c.get(x).contains(truth));
            }
            prop_assume!(!c.is_solved());
            check_rule(&c, ChainRule::dynamic(1), with_simple_rules, &solution)?;
        }
    }
}
