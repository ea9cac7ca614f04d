//! Every step of the technique set (all but forcing chains: chains, coloring, ALS and the
//! trial included) checked against the true solution on a sample of every data file; every
//! unique puzzle must be solved to the end. Plus soundness and robustness checks of the
//! chain, coloring, ALS and trial finders on thinned and arbitrary candidate grids.
//!
//! The sample is every `n`-th puzzle so the suite stays fast; the `explain` benchmark runs
//! whole files.

use crate::common::load_every;
use std::collections::BTreeMap;

use sudokit::grid::{Cell, Grid};
use sudokit::logic::{tutor, Engine, TechniqueSet};
use sudokit::solver;
use sudokit::step::{Step, Technique};

/// Every technique with a finder except forcing chains and nets, trial last: the families
/// this suite is about, finishing every puzzle. (Forcing chains have their own tests and are
/// much slower; the explain benchmark runs the full set.)
fn without_forcing() -> TechniqueSet {
    TechniqueSet::new(
        TechniqueSet::all()
            .techniques()
            .iter()
            .copied()
            .filter(|t| {
                !matches!(
                    t,
                    Technique::NishioForcingChain
                        | Technique::ForcingChainContradiction
                        | Technique::ForcingChainVerity
                        | Technique::ForcingNetContradiction
                        | Technique::ForcingNetVerity
                        | Technique::NestedForcingChains
                )
            }),
    )
}

/// Explains every sampled unique puzzle of `name`, checking each step against the solution.
/// Returns the technique counts (for a look at what was exercised).
fn check_file(name: &str, every: usize) -> BTreeMap<Technique, usize> {
    let solver = Engine::new(without_forcing()).unique(true);
    let mut used = BTreeMap::new();
    let mut checked = 0;
    for puzzle in load_every(name, every) {
        if solver::count(&puzzle, 2).count != 1 {
            continue;
        }
        for step in checked_explanation(&solver, &puzzle, name) {
            *used.entry(step.technique).or_insert(0) += 1;
        }
        checked += 1;
    }
    assert!(checked > 0, "{name}: no unique puzzle sampled");
    used
}

/// The steps `engine` explains the unique `puzzle` with, each placement and elimination
/// checked against the solution, and the explanation checked to end at it.
fn checked_explanation(engine: &Engine, puzzle: &Grid, name: &str) -> Vec<Step> {
    let solution = solver::solve(puzzle).expect("a unique puzzle has a solution");
    let truth = |c: Cell| solution.get(c).expect("solution is full");
    let explanation = engine.explain(puzzle);
    for step in &explanation.steps {
        for &(cell, digit) in &step.placements {
            assert_eq!(
                truth(cell),
                digit,
                "{name}: {puzzle}: wrong placement in {step}"
            );
        }
        for &(cell, digit) in &step.eliminations {
            assert_ne!(
                truth(cell),
                digit,
                "{name}: {puzzle}: true digit removed by {step}"
            );
        }
    }
    assert!(explanation.solved, "{name}: {puzzle}: not solved");
    assert_eq!(
        explanation.final_state.grid(),
        &solution,
        "{name}: {puzzle}"
    );
    explanation.steps
}

/// The default set explains Inkala 2012, Easter Monster and a sample of the hardest list
/// with no Trial step: where its own rules stall, Sudoku Explainer's nested chains answer,
/// each step labelled with SE's name and rating and checked against the solution.
#[test]
fn the_hardest_puzzles_need_no_trial() {
    let engine = Engine::new(TechniqueSet::all()).unique(true);
    let famous = [
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    ];
    let puzzles = famous
        .iter()
        .map(|text| text.parse::<Grid>().expect("a puzzle"))
        .chain(load_every("puzzles6_forum_hardest_1106", 125));
    for puzzle in puzzles {
        let steps = checked_explanation(&engine, &puzzle, "hardest");
        assert!(
            steps.iter().all(|s| s.technique != Technique::Trial),
            "{puzzle}: a Trial step"
        );
        let se_steps: Vec<&Step> = steps.iter().filter(|s| s.se.is_some()).collect();
        assert!(!se_steps.is_empty(), "{puzzle}: no step of SE's chains");
        // The hardest step is one of SE's chains, the highest rated of its technique.
        let hardest = tutor::hardest(&steps, engine.techniques()).expect("steps");
        let rating = |s: &Step| s.se.as_ref().map(|label| label.rating);
        let top = (se_steps.iter())
            .filter(|s| s.technique == hardest.technique)
            .filter_map(|s| rating(s))
            .max();
        assert!(
            rating(hardest).is_some() && rating(hardest) == top,
            "{hardest}"
        );
        for step in se_steps {
            let label = step.se.as_ref().expect("filtered on it");
            assert!(
                step.to_string().starts_with(&format!(
                    "{} ({}): ",
                    label.technique.name(),
                    label.rating
                )),
                "{step}"
            );
            assert!(
                matches!(
                    step.technique,
                    Technique::ForcingChainContradiction
                        | Technique::ForcingChainVerity
                        | Technique::ForcingNetContradiction
                        | Technique::ForcingNetVerity
                ),
                "{step}"
            );
        }
    }
}

/// The chain-family finders (coloring, chains, ALS, trial) the soundness tests exercise.
const CHAIN_FAMILIES: [Technique; 20] = [
    Technique::SimpleColorsTrap,
    Technique::SimpleColorsWrap,
    Technique::MultiColors1,
    Technique::MultiColors2,
    Technique::XColors,
    Technique::RemotePair,
    Technique::XChain,
    Technique::XYChain,
    Technique::Medusa3D,
    Technique::ContinuousNiceLoop,
    Technique::DiscontinuousNiceLoop,
    Technique::Aic,
    Technique::GroupedContinuousNiceLoop,
    Technique::GroupedDiscontinuousNiceLoop,
    Technique::GroupedAic,
    Technique::AlsXz,
    Technique::AlsXyWing,
    Technique::AlsXyChain,
    Technique::DeathBlossom,
    Technique::Trial,
];

#[test]
fn hardest_1106_sample() {
    let used = check_file("puzzles6_forum_hardest_1106", 8);
    // The hardest puzzles need the families of this test: chains, ALS, and beyond them
    // forcing chains or the trial.
    for t in [Technique::XYChain, Technique::AlsXz, Technique::GroupedAic] {
        assert!(used.contains_key(&t), "{t} never used: {used:?}");
    }
}

#[test]
fn magictour_top1465_sample() {
    let used = check_file("puzzles3_magictour_top1465", 30);
    assert!(
        used.keys().any(|t| matches!(
            t,
            Technique::XChain | Technique::XYChain | Technique::Aic | Technique::GroupedAic
        )),
        "{used:?}"
    );
}

#[test]
fn forum_hardest_1905_sample() {
    check_file("puzzles5_forum_hardest_1905_11+", 1000);
}

#[test]
fn seventeen_clue_sample() {
    check_file("puzzles2_17_clue", 1000);
}

#[test]
fn small_files() {
    for name in crate::common::SMALL_FILES {
        check_file(name, 1);
    }
}

/// Each chain, coloring, ALS and trial finder on unusual candidate grids: random non-solution
/// candidates removed from real puzzles (so the solution stays in the grid), checked against
/// the solution. This reaches patterns the natural solve order rarely produces.
#[test]
fn finders_stay_sound_on_randomly_thinned_grids() {
    use sudokit::candidates::Candidates;
    use sudokit::grid::Digit;
    use sudokit::logic::finder;

    let mine = CHAIN_FAMILIES;
    let mut rng = crate::common::Rng(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next();
    let mut found = BTreeMap::new();
    for puzzle in load_every("puzzles3_magictour_top1465", 15) {
        let solution = solver::solve(&puzzle).expect("solvable");
        for variant in 0..6 {
            // Remove 30% or 60% of the false candidates.
            let rate = if variant % 2 == 0 { 3 } else { 6 };
            let mut c = Candidates::new(&puzzle);
            for cell in Cell::all() {
                for d in Digit::all() {
                    if c.get(cell).contains(d)
                        && solution.get(cell) != Some(d)
                        && next() % 10 < rate
                    {
                        c.eliminate(cell, d);
                    }
                }
            }
            for &t in &mine {
                let f = finder(t);
                let Some(step) = f(&c) else { continue };
                *found.entry(t).or_insert(0) += 1;
                assert_eq!(step.technique, t);
                assert!(!step.is_empty(), "{step}");
                for &(cell, digit) in &step.placements {
                    assert_eq!(solution.get(cell), Some(digit), "{puzzle}: {step}");
                }
                for &(cell, digit) in &step.eliminations {
                    assert!(
                        c.get(cell).contains(digit),
                        "{puzzle}: {step} removes a non-candidate"
                    );
                    assert_ne!(solution.get(cell), Some(digit), "{puzzle}: {step}");
                }
            }
        }
    }
    // The thinned grids are rich in patterns: most families must have fired.
    assert!(found.len() >= 15, "{found:?}");
}

/// Arbitrary pencil marks (often contradictory, as typed by a player): no finder panics,
/// and every step removes only candidates that are there.
#[test]
fn finders_never_panic_on_arbitrary_pencil_marks() {
    use sudokit::candidates::Candidates;
    use sudokit::logic::finder;

    let mut rng = crate::common::Rng(0x9e37_79b9_7f4a_7c15);
    let mut next = move || rng.next();
    let families = CHAIN_FAMILIES;
    for _ in 0..40 {
        // Each cell keeps each digit with probability 1/3 (at least one digit).
        let text: Vec<String> = (0..81)
            .map(|_| {
                let mut cell: String = (1..=9u8)
                    .filter(|_| next() % 3 == 0)
                    .map(|d| char::from(b'0' + d))
                    .collect();
                if cell.is_empty() {
                    cell.push(char::from(b'1' + (next() % 9) as u8));
                }
                cell
            })
            .collect();
        let c = Candidates::from_pencil_marks(&text.join(" ")).expect("valid pencil marks");
        for t in families {
            if let Some(step) = finder(t)(&c) {
                assert!(!step.is_empty(), "{step}");
                for &(cell, digit) in &step.eliminations {
                    assert!(c.get(cell).contains(digit), "{step}");
                }
            }
        }
    }
}
