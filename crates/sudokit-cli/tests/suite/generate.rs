//! `sudokit generate` end to end: every puzzle checked unique and minimal by the reference
//! solver, symmetric cell by cell, within its targets, the same on any number of threads.

use sudokit::generate::Symmetry;
use sudokit::solver::reference;
use sudokit::{Cell, Grid};

use crate::common::run;

fn generate(args: &[&str]) -> (String, String, i32) {
    run(&[&["generate"], args].concat(), "")
}

/// The puzzles of line output (the first field of each line).
fn puzzles(out: &str) -> Vec<Grid> {
    out.lines()
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect()
}

/// Whether no clue of `p` can go without a second solution (`symmetry`'s orbits going
/// together).
fn minimal(p: &Grid, symmetry: Symmetry) -> bool {
    symmetry.orbits().iter().all(|orbit| {
        if orbit.iter().any(|c| p.get(c).is_none()) {
            return true;
        }
        let mut less = *p;
        for c in orbit.iter() {
            less.set(c, None);
        }
        reference::count(&less, 2) == 2
    })
}

#[test]
fn puzzles_are_unique_minimal_symmetric_and_distinct() {
    for name in ["none", "rot180", "rot90", "diagonal", "dihedral"] {
        let symmetry: Symmetry = name.parse().unwrap();
        let (out, _, code) = generate(&["-n", "8", "--seed", "11", "--symmetry", name]);
        assert_eq!(code, 0);
        let made = puzzles(&out);
        assert_eq!(made.len(), 8);
        let mut forms: Vec<Grid> = made.iter().map(|p| sudokit::canon::minlex(p).0).collect();
        forms.sort_by_key(|g| g.to_string());
        forms.dedup();
        assert_eq!(forms.len(), 8, "no two equivalent");
        for p in &made {
            assert_eq!(reference::count(p, 2), 1, "{name}: {p}");
            assert!(symmetry.holds_for(p), "{name}: {p}");
            assert!(minimal(p, symmetry), "{name}: {p}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_output_on_any_number_of_threads() {
    let args = ["-n", "40", "--seed", "3", "--symmetry", "rot180"];
    let (one, _, _) = generate(&[&args[..], &["-j", "1"]].concat());
    let (two, _, _) = generate(&[&args[..], &["-j", "2"]].concat());
    let (three, _, _) = generate(&[&args[..], &["-j", "3"]].concat());
    assert_eq!(one.lines().count(), 40);
    assert_eq!(one, two);
    assert_eq!(one, three);
    let (other, _, _) = generate(&["-n", "40", "--seed", "4", "--symmetry", "rot180"]);
    assert_ne!(one, other);
}

#[test]
fn rating_claims_are_what_rate_says() {
    let (out, _, code) = generate(&["-n", "4", "--seed", "8", "--er", "3.0..6.0"]);
    assert_eq!(code, 0);
    let bare: String = puzzles(&out).iter().map(|p| format!("{p}\n")).collect();
    let (rated, _, _) = run(&["rate"], &bare);
    assert_eq!(out, rated, "rate gives each puzzle the ER its line carries");
    for line in out.lines() {
        let er: f64 = line
            .split("ER=")
            .nth(1)
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((3.0..=6.0).contains(&er), "{line}");
    }
    let (out, _, _) = generate(&["-n", "2", "--seed", "8", "--level", "easy"]);
    assert!(out.lines().all(|l| l.contains(" ER=1.")), "{out}");
}

#[test]
fn required_techniques_are_used() {
    let (out, _, code) = generate(&["-n", "2", "--seed", "6", "--technique", "x-wing"]);
    assert_eq!(code, 0, "{out}");
    for p in puzzles(&out) {
        let (text, _, _) = run(&["explain", &p.to_string()], "");
        assert!(text.contains(". X-Wing: "), "{text}");
    }
}

#[test]
fn clue_ranges_and_patterns_shape_the_puzzles() {
    let (out, _, _) = generate(&[
        "-n",
        "5",
        "--seed",
        "2",
        "--clues",
        "30..32",
        "--no-minimal",
    ]);
    for p in puzzles(&out) {
        assert!((30..=32).contains(&p.filled()), "{p}");
        assert_eq!(reference::count(&p, 2), 1);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pattern.txt");
    // Every cell but the ten of a scattered pattern.
    let holes = [0, 10, 20, 30, 40, 50, 60, 70, 80, 4];
    let pattern: String = (0..81)
        .map(|i| if holes.contains(&i) { '.' } else { 'x' })
        .collect();
    std::fs::write(&path, &pattern).unwrap();
    let (out, _, code) = generate(&[
        "-n",
        "2",
        "--seed",
        "1",
        "--pattern",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    for p in puzzles(&out) {
        assert!(
            Cell::all().all(|c| p.get(c).is_none() == holes.contains(&c.index())),
            "{p}"
        );
    }
}

#[test]
fn json_records_carry_what_makes_the_puzzle_again() {
    let (out, _, _) = generate(&["-n", "2", "--seed", "9", "--format", "json", "--rate"]);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    for (i, r) in records.iter().enumerate() {
        let puzzle: Grid = r["puzzle"].as_str().unwrap().parse().unwrap();
        let solution: Grid = r["solution"].as_str().unwrap().parse().unwrap();
        assert!(solution.is_solution_of(&puzzle));
        assert_eq!(r["clues"], puzzle.filled());
        assert_eq!(
            (r["seed"].as_u64(), r["index"].as_u64()),
            (Some(9), Some(i as u64))
        );
        assert!(r["er"].is_string() && r["level"].is_string());
    }
}

#[test]
fn impossible_targets_are_refused_at_once_with_the_reason() {
    let cases: [(&[&str], &str); 6] = [
        (&["--clues", "16"], "fewer than 17 clues"),
        (&["--clues", "30..20"], "empty"),
        (
            &["--symmetry", "rot90", "--clues", "18..19"],
            "rot90 symmetry allows no clue count",
        ),
        (&["--er", "12.5.."], "above ER"),
        (&["--technique", "x-wng"], "did you mean x-wing?"),
        (
            &["--practice", "forcing-net-contradiction"],
            "after Trial in the engine's order",
        ),
    ];
    for (args, why) in cases {
        let (out, err, code) = generate(args);
        assert_eq!((out.as_str(), code), ("", 2), "{args:?}");
        assert!(err.contains(why), "{args:?}: {err}");
    }
    let (_, err, code) = generate(&["--er", "nine"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a rating"), "{err}");
}

#[test]
fn a_rare_target_stops_at_the_limit_and_says_how_far_it_got() {
    let (out, err, code) = generate(&[
        "-n",
        "3",
        "--seed",
        "1",
        "--er",
        "11.0..",
        "--max-tries",
        "2",
    ]);
    assert_eq!((out.as_str(), code), ("", 1));
    assert!(
        err.contains("puzzle 1: no puzzle met the target in 2 attempts"),
        "{err}"
    );
    assert!(err.contains("0 of 3 made"), "{err}");
}

#[test]
fn practice_positions_read_back_with_the_technique_next() {
    let (out, _, code) = generate(&["-n", "2", "--seed", "4", "--practice", "xy-wing"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 2);
    for marks in out.lines() {
        assert_eq!(marks.split(' ').count(), 81, "{marks}");
        let (hint, _, code) = run(&["hint", "--marks", marks], "");
        assert_eq!((hint.as_str(), code), ("Look for an XY-Wing.\n", 0));
    }
    let (json, _, _) = generate(&["--seed", "4", "--practice", "xy-wing", "--format", "json"]);
    let record: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(record["next_step"]["technique"], "XY-Wing");
    assert_eq!(record["marks"].as_str().unwrap().split(' ').count(), 81);
}

#[test]
fn first_hard_makes_the_technique_the_hardest_step() {
    let (out, _, code) = generate(&["-n", "2", "--seed", "4", "--first-hard", "x-wing"]);
    assert_eq!(code, 0);
    for p in puzzles(&out) {
        let (text, _, _) = run(&["explain", &p.to_string()], "");
        assert!(text.contains("; hardest: X-Wing\n"), "{text}");
    }
}

#[test]
fn vicinity_search_never_gives_back_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let seeds = dir.path().join("seeds.txt");
    let inkala = crate::common::INKALA_2012;
    std::fs::write(&seeds, format!("{inkala}\n")).unwrap();
    let seeds = seeds.to_str().unwrap();
    let (out, _, code) = generate(&["-n", "3", "--seed", "1", "--from", seeds]);
    assert_eq!(code, 0);
    let seed_form = sudokit::canon::minlex(&inkala.parse().unwrap()).0;
    for p in puzzles(&out) {
        assert_eq!(reference::count(&p, 2), 1, "{p}");
        assert!(minimal(&p, Symmetry::None), "{p}");
        assert_ne!(sudokit::canon::minlex(&p).0, seed_form);
    }
    // A seed that is not a puzzle is named with its position.
    std::fs::write(dir.path().join("bad.txt"), "12x\n").unwrap();
    let bad = dir.path().join("bad.txt");
    let (_, err, code) = generate(&["--from", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.txt:1:3:"), "{err}");
}
