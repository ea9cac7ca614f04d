//! Canonical forms: invariance, exactness against the exhaustive reference, published
//! examples, and the 17-clue collection.
//!
//! `SUDOKIT_CANON_REFERENCE=N` raises the number of random grids checked against the
//! exhaustive reference (default 400 random puzzles and 400 17-clue puzzles, 100 each of full
//! grids, symmetric puzzles and Latin squares: about 1,100 exhaustive checks, some fifteen
//! seconds in the optimised test profile).

use std::collections::HashSet;

use crate::common::{
    digits, grid, load, random_full, random_puzzle, random_transform, read_data, Rng,
};
use proptest::prelude::*;
use sudokit::canon::{automorphisms, canonicalize, equivalent, minlex, minlex_reference};
use sudokit::grid::Grid;

fn reference_count() -> usize {
    std::env::var("SUDOKIT_CANON_REFERENCE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000)
}

/// The fast form, transform and automorphism count agree with the exhaustive reference.
fn check_against_reference(g: &Grid) {
    let fast = canonicalize(g);
    let slow = minlex_reference(g);
    assert_eq!(
        digits(&fast.grid),
        digits(&slow.grid),
        "input {}",
        digits(g)
    );
    assert_eq!(fast.transform.apply(g), fast.grid, "input {}", digits(g));
    assert_eq!(
        fast.automorphisms,
        slow.automorphisms,
        "input {}",
        digits(g)
    );
}

#[test]
fn matches_reference_on_random_puzzles_of_every_density() {
    let mut rng = Rng(0x5EED_0001);
    let n = reference_count();
    for i in 0..n {
        let full = random_full(&mut rng);
        // Clue counts 0..=81, weighted towards the sparse and the dense ends.
        let clues = match i % 4 {
            0 => 17 + rng.below(8),
            1 => 50 + rng.below(32),
            2 => rng.below(82),
            _ => rng.below(17),
        };
        check_against_reference(&random_puzzle(&mut rng, &full, clues));
    }
}

#[test]
fn matches_reference_on_full_grids() {
    let mut rng = Rng(0x5EED_0002);
    for _ in 0..reference_count() / 4 {
        let g = random_full(&mut rng);
        check_against_reference(&g);
        assert!(digits(&canonicalize(&g).grid).starts_with("123456789"));
    }
    // Real solution grids: those of a sample of the 17-clue puzzles.
    let puzzles = load("puzzles2_17_clue");
    for p in puzzles.iter().step_by(puzzles.len() / 20) {
        let s = sudokit::solver::solve(p).expect("17-clue puzzles solve");
        check_against_reference(&s);
    }
    // A most symmetric grid: every row a shift of the first.
    let shifted =
        grid("123456789456789123789123456234567891567891234891234567345678912678912345912345678");
    check_against_reference(&shifted);
    assert!(automorphisms(&shifted) > 1);
}

#[test]
fn matches_reference_on_17_clue_puzzles_and_their_images() {
    let puzzles = load("puzzles2_17_clue");
    let mut rng = Rng(0x5EED_0003);
    let n = reference_count();
    let step = (puzzles.len() / n).max(1);
    for p in puzzles.iter().step_by(step) {
        check_against_reference(&random_transform(&mut rng).apply(p));
    }
}

#[test]
fn matches_reference_on_symmetric_puzzles() {
    // Clue sets closed under a symmetry of the grid have many automorphisms: blank the
    // same cells in every row of a band-shifted grid, or keep whole rows/boxes.
    let shifted =
        grid("123456789456789123789123456234567891567891234891234567345678912678912345912345678");
    let mut rng = Rng(0x5EED_0004);
    for _ in 0..reference_count() / 4 {
        let keep: Vec<usize> = (0..9).filter(|_| rng.below(2) == 0).collect();
        let rows_kept = rng.below(512);
        let mut v = *shifted.values();
        for (i, x) in v.iter_mut().enumerate() {
            if !keep.contains(&(i % 9)) && rows_kept >> (i / 9) & 1 == 0 {
                *x = 0;
            }
        }
        let g = Grid::from_values(v).unwrap();
        check_against_reference(&random_transform(&mut rng).apply(&g));
    }
}

#[test]
fn matches_reference_on_latin_squares_with_box_repeats() {
    // Not sudoku grids (digits repeat inside boxes), but each digit is once per row and
    // column, so the fast search handles them; full and partial ones.
    let mut rng = Rng(0x5EED_0006);
    for i in 0..reference_count() / 4 {
        let mut symbols = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut symbols);
        let step = [1, 2, 4, 5, 7, 8][rng.below(6)];
        let mut v = [0u8; 81];
        for (k, x) in v.iter_mut().enumerate() {
            *x = symbols[(k / 9 * step + k % 9) % 9];
        }
        let square = Grid::from_values(v).unwrap();
        let g = if i % 2 == 0 {
            square
        } else {
            let clues = rng.below(82);
            random_puzzle(&mut rng, &square, clues)
        };
        check_against_reference(&random_transform(&mut rng).apply(&g));
    }
}

#[test]
fn grids_repeating_a_digit_in_a_line_are_still_exact() {
    let mut rng = Rng(0x5EED_0007);
    for _ in 0..8 {
        let full = random_full(&mut rng);
        let clues = 20 + rng.below(40);
        let mut v = *random_puzzle(&mut rng, &full, clues).values();
        // Same row, different cells: a repeat the fast search cannot take.
        let a = rng.below(81);
        let b = a / 9 * 9 + (a % 9 + 1 + rng.below(8)) % 9;
        v[a] = 1 + rng.below(9) as u8;
        v[b] = v[a];
        check_against_reference(&Grid::from_values(v).unwrap());
    }
}

#[test]
fn published_minlex_examples_match_exactly() {
    let text = read_data("canon_published_pairs.tsv");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (kind, input, expected) = (fields[0], grid(fields[1]), grid(fields[2]));
        // Every published form, whatever its kind, is the same puzzle as its input.
        let t = equivalent(&input, &expected).unwrap_or_else(|| panic!("{line}"));
        assert_eq!(t.apply(&input), expected);
        if kind == "minlex" {
            assert_eq!(minlex(&input).0, expected, "{line}");
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} minlex examples found");
}

#[test]
fn all_17_clue_puzzles_have_distinct_forms_stable_under_transformation() {
    let puzzles = load("puzzles2_17_clue");
    assert_eq!(puzzles.len(), 49_158);
    let forms: Vec<Grid> = puzzles.iter().map(|p| minlex(p).0).collect();
    let set: HashSet<Grid> = forms.iter().copied().collect();
    assert_eq!(set.len(), puzzles.len());
    let mut rng = Rng(0x5EED_0005);
    let moved: HashSet<Grid> = puzzles
        .iter()
        .map(|p| minlex(&random_transform(&mut rng).apply(p)).0)
        .collect();
    assert_eq!(moved, set);
    // The facts quoted in the module docs.
    assert!(forms.iter().all(|f| f.values()[..8] == [0; 8]));
    let ninth_is_one = forms.iter().filter(|f| f.values()[8] == 1).count();
    assert_eq!(ninth_is_one, 16_930);
    // The file is stored in another canonical form: some lines are not minlex.
    let not_minimal = puzzles.iter().zip(&forms).filter(|(p, f)| p != f).count();
    assert_eq!(not_minimal, 1_505);
    // The example quoted in the module docs.
    let stored =
        grid("................12..3..4...........5....4.36.78..1.........5..4.1...3....2.....8.");
    let form =
        grid("................12..1.34...........5...6.2..7..4.............4..2.7...8..6..1.3..");
    assert_eq!(minlex(&stored).0, form);
}

#[test]
fn inequivalent_puzzles_are_told_apart() {
    let puzzles = load("puzzles2_17_clue");
    assert_eq!(equivalent(&puzzles[0], &puzzles[1]), None);
    let full = random_full(&mut Rng(7));
    let mut v = *full.values();
    v[0] = 0;
    let one_less = Grid::from_values(v).unwrap();
    assert_eq!(equivalent(&full, &one_less), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn form_is_invariant_exact_idempotent_and_minimal(
        seed in 1u64..,
        clues in 0usize..=81,
    ) {
        let mut rng = Rng(seed);
        let full = random_full(&mut rng);
        let p = random_puzzle(&mut rng, &full, clues);
        let t = random_transform(&mut rng);
        let q = t.apply(&p);

        let cp = canonicalize(&p);
        let cq = canonicalize(&q);
        prop_assert_eq!(cp.grid, cq.grid);
        prop_assert_eq!(cp.automorphisms, cq.automorphisms);
        prop_assert_eq!(cp.transform.apply(&p), cp.grid);
        prop_assert_eq!(cq.transform.apply(&q), cq.grid);
        prop_assert_eq!(minlex(&cp.grid).0, cp.grid);
        prop_assert!(cp.grid.values() <= p.values());
        prop_assert!(cp.grid.values() <= q.values());
        prop_assert_eq!(cp.grid.filled(), clues);

        let e = equivalent(&p, &q).expect("a transformed puzzle is equivalent");
        prop_assert_eq!(e.apply(&p), q);
    }
}
