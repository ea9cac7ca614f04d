//! `sudokit canon` and `sudokit same` end to end: records in order, trailing text, dedupe,
//! JSON with a working transform, error records, exit statuses.

use crate::common::run;
use sudokit::transform::Transform;
use sudokit::Grid;

/// kaityo256/minlex's README example and its published minlex form.
const PUZZLE: &str =
    "009000000500080200400020090010300060080600007050000900608730000000106500000040700";
const FORM: &str =
    "000000001000002030014050200000000467300048000700200000003000000106000093980075000";
/// PUZZLE with its rows reversed inside each band and digits 1 and 9 swapped.
const MOVED: &str =
    "400020010500080200001000000050000100080600007090300060000040700000906500608730000";
/// A different puzzle (first line of the 17-clue collection).
const OTHER: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";

/// Parses `transpose=.. rows=.. cols=.. digits=..` as `same` prints it.
fn transform(text: &str) -> Transform {
    let field = |name: &str| -> [u8; 9] {
        let value = text
            .split_whitespace()
            .find_map(|w| w.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} in {text}"));
        let mut out = [0u8; 9];
        for (o, b) in out.iter_mut().zip(value.bytes()) {
            *o = b - b'0';
        }
        out
    };
    let transpose = text.contains("transpose=yes");
    let (rows, cols) = (field("rows=").map(|r| r - 1), field("cols=").map(|c| c - 1));
    Transform::new(transpose, rows, cols, field("digits=")).expect("a valid transform")
}

#[test]
fn canonicalises_lines_in_order_keeping_trailing_text() {
    let input = format!("{MOVED} first\n{OTHER}\n{PUZZLE};x\n");
    let (out, err, code) = run(&["canon", "--zeros"], &input);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], format!("{FORM} first"));
    assert!(lines[1].starts_with("00000000"));
    assert_eq!(lines[2], format!("{FORM};x"));
    let (dots, _, _) = run(&["canon", "-j", "1"], &format!("{PUZZLE}\n"));
    assert_eq!(dots.trim_end(), FORM.replace('0', "."));
}

#[test]
fn dedupe_keeps_the_first_of_each_class() {
    let input = format!("{PUZZLE} a\n{OTHER} b\n{MOVED} c\n{OTHER} d\n");
    let (out, err, code) = run(&["canon", "--dedupe"], &input);
    assert_eq!(code, 0, "{err}");
    let tails: Vec<&str> = out.lines().map(|l| &l[81..]).collect();
    assert_eq!(tails, [" a", " b"]);
    assert!(err.contains("dropped 2 duplicates"), "{err}");
}

#[test]
fn json_records_carry_a_transform_that_works() {
    let input = format!("{MOVED}\nnot a puzzle\n");
    let (out, err, code) = run(&["canon", "--format", "json"], &input);
    assert_eq!(code, 2, "an error record makes the status 2");
    assert!(err.contains("<stdin>:2:"), "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    let t = &lines[0]["transform"];
    let text = format!(
        "transpose={} rows={} cols={} digits={}",
        if t["transpose"].as_bool().unwrap() {
            "yes"
        } else {
            "no"
        },
        t["rows"].as_str().unwrap(),
        t["cols"].as_str().unwrap(),
        t["digits"].as_str().unwrap()
    );
    let moved: Grid = MOVED.parse().unwrap();
    let form: Grid = FORM.parse().unwrap();
    assert_eq!(transform(&text).apply(&moved), form);
    assert_eq!(
        lines[0]["canonical"].as_str().unwrap(),
        FORM.replace('0', ".")
    );
    assert!(lines[0]["automorphisms"].as_u64().unwrap() >= 1);
    assert!(lines[1]["error"].as_str().unwrap().contains(":2:"));
}

#[test]
fn same_prints_a_transform_from_a_to_b() {
    let (out, err, code) = run(&["same", PUZZLE, MOVED], "");
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("equivalent: "), "{out}");
    let (a, b): (Grid, Grid) = (PUZZLE.parse().unwrap(), MOVED.parse().unwrap());
    assert_eq!(transform(first).apply(&a), b);

    let (out, _, code) = run(&["same", "-", OTHER], &format!("{PUZZLE}\n"));
    assert_eq!(code, 1);
    assert!(out.starts_with("different"), "{out}");

    let (out, _, code) = run(&["same", PUZZLE, FORM, "--format", "json"], "");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["equivalent"], true);

    let typo = format!("12x{}", &PUZZLE[3..]);
    let (_, err, code) = run(&["same", &typo, PUZZLE], "");
    assert_eq!(code, 2);
    assert!(err.contains("<argument>:1:3"), "{err}");
}
