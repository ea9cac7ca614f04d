//! Sudoku Explainer's path (`rate::se_path`, `explain --rules se`): every placement and
//! elimination checked against the solution, the path's numbers against the rating's,
//! and the hardest steps of the famous hardest puzzles.
//!
//! Data: the repository's `data/`. The library is optimised in test builds: the hardest
//! puzzles take about half a second each, so a sample of each hardest list runs here.

use crate::common::{grid, load, load_every, read_data, SMALL_FILES};
use sudokit::candidates::Candidates;
use sudokit::logic::apply;
use sudokit::rate::{
    rate, se_next_step, se_path, se_rating, RateOptions, SePath, Tenths, MAX_LEVEL,
};
use sudokit::step::Step;
use sudokit::{solver, Grid};

/// SE's path from the givens, each step checked as it is replayed: its placements and
/// eliminations agree with the solution and change the position, its premises (nested
/// chains) were each found again by a step that removes them and are listed in its text.
/// The replay must end at the solution.
fn checked_path(puzzle: &Grid) -> SePath {
    let solution = solver::solve(puzzle).expect("a solution");
    let start = Candidates::new(puzzle);
    let path = se_path(&start, MAX_LEVEL);
    let mut state = start;
    for step in &path.explanation.steps {
        for &(cell, d) in &step.placements {
            assert_eq!(solution.get(cell), Some(d), "{puzzle}: {step}");
        }
        for &(cell, d) in &step.eliminations {
            assert_ne!(solution.get(cell), Some(d), "{puzzle}: {step}");
        }
        let label = step
            .se
            .as_ref()
            .expect("a step of SE's path has SE's label");
        for premise in &label.premises {
            let inner = premise
                .step
                .as_ref()
                .expect("the premise's rule found again");
            assert!(inner.eliminations.contains(&premise.removed), "{inner}");
            let (cell, d) = premise.removed;
            assert!(
                step.to_string().contains(&format!("- {cell}<>{d} from ")),
                "{step}"
            );
        }
        assert!(apply(&mut state, step), "{puzzle}: {step} changes nothing");
    }
    assert!(path.explanation.solved, "{puzzle}");
    assert_eq!(*state.grid(), solution, "{puzzle}");
    path
}

/// ER, EP and ED as the path's step ratings give them: the highest, the highest up to
/// the first placement, the first.
fn numbers(steps: &[Step]) -> (Tenths, Tenths, Tenths) {
    let rating = |s: &Step| s.se.as_ref().expect("SE's label").rating;
    let first_placement = steps
        .iter()
        .position(|s| !s.placements.is_empty())
        .expect("a placement");
    let highest = |steps: &[Step]| steps.iter().map(rating).max().expect("a step");
    (
        highest(steps),
        highest(&steps[..=first_placement]),
        rating(&steps[0]),
    )
}

#[test]
fn calibration_paths_are_right_and_rate_as_the_rating_does() {
    let puzzles = load("se_rated_calibration.tsv");
    assert!(puzzles.len() >= 150, "{} puzzles", puzzles.len());
    for puzzle in puzzles {
        let path = checked_path(&puzzle);
        let rating = rate(&puzzle, &RateOptions::default())
            .expect("one solution")
            .se;
        assert_eq!(path.rating, rating, "{puzzle}");
        let (er, ep, ed) = numbers(&path.explanation.steps);
        assert_eq!((er, ep, ed), (rating.er, rating.ep, rating.ed), "{puzzle}");
    }
}

#[test]
fn small_collections_paths_are_right() {
    for name in SMALL_FILES {
        for puzzle in load(name) {
            let path = checked_path(&puzzle);
            let (er, ep, ed) = numbers(&path.explanation.steps);
            let r = &path.rating;
            assert_eq!((er, ep, ed), (r.er, r.ep, r.ed), "{puzzle}");
        }
    }
}

/// A sample of the hardest lists (every 25th of the 2011 list, every 2500th of the 2019
/// one): nested chains at every level, each premise found again, and the same numbers
/// as the rating's own run, which writes no text.
#[test]
fn hardest_lists_sample_paths_are_right() {
    let mut puzzles = load_every("puzzles6_forum_hardest_1106", 25);
    puzzles.extend(load_every("puzzles5_forum_hardest_1905_11+", 2500));
    assert!(puzzles.len() >= 30, "{} puzzles", puzzles.len());
    let mut premises = 0;
    for puzzle in puzzles {
        let path = checked_path(&puzzle);
        let (er, ep, ed) = numbers(&path.explanation.steps);
        let r = se_rating(&puzzle);
        assert_eq!(path.rating, r, "{puzzle}");
        assert_eq!((er, ep, ed), (r.er, r.ep, r.ed), "{puzzle}");
        assert!(er >= Tenths(90), "{puzzle}: ER {er}");
        let steps = &path.explanation.steps;
        premises += (steps.iter().filter_map(|s| s.se.as_ref()))
            .map(|label| label.premises.len())
            .sum::<usize>();
    }
    assert!(premises > 0);
}

/// The path's hardest step, hardest up to the first placement and first step are SE
/// 1.2.1's ER, EP and ED, and its nested chains list premises whose own steps are chains.
#[test]
fn famous_hardest_paths_peak_at_their_ratings() {
    for (text, [er, ep, ed]) in [
        (read_data("inkala_2012.txt"), [107, 107, 97]),
        (
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
                .to_string(),
            [116, 116, 108],
        ),
    ] {
        let puzzle = grid(&text);
        let path = checked_path(&puzzle);
        let steps = &path.explanation.steps;
        let er = Tenths(er);
        assert_eq!(numbers(steps), (er, Tenths(ep), Tenths(ed)), "{puzzle}");
        let hardest = (steps.iter())
            .find(|s| s.se.as_ref().is_some_and(|l| l.rating == er))
            .expect("a step rated ER");
        assert!(
            hardest.to_string().contains(&format!("({er}): ")),
            "{hardest}"
        );
        let label = hardest.se.as_ref().expect("SE's label");
        assert!(!label.premises.is_empty(), "{hardest}");
        let inner_chain = label.premises.iter().filter_map(|p| p.step.as_ref());
        assert!(inner_chain.clone().any(|s| s.chain.is_some()), "{hardest}");
    }
}

#[test]
fn the_next_step_is_the_paths_first() {
    for text in [
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        "1.......7..2.3.8...7.4.8.2....316....3.....1....7.5...9.7...4.5.4.....8...6.4.2..",
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    ] {
        let start = Candidates::new(&grid(text));
        let path = se_path(&start, MAX_LEVEL);
        assert_eq!(
            se_next_step(&start).as_ref(),
            path.explanation.steps.first(),
            "{text}"
        );
    }
}
