//! `sudokit explain` and `sudokit hint` end to end.

use crate::common::{run, MULTIPLE};
use sudokit::Grid;

/// Solved by singles, pointing, a naked pair and an X-Wing (SE 3.2 in the calibration list).
const XWING: &str =
    "....2.65.6.2.14...4....8.2..71......83.....16......78..6.5....3...14.5.8.84.9....";

fn sudokit(args: &[&str]) -> (String, i32) {
    let (out, _, code) = run(args, "");
    (out, code)
}

#[test]
fn explains_to_the_solution_with_numbered_named_steps() {
    let (out, code) = sudokit(&["explain", XWING]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with(&format!("Puzzle {XWING}\n 1. ")), "{out}");
    assert!(out.contains(". X-Wing: "), "{out}");
    assert!(
        out.contains("Locked Candidates Type 1 (Pointing): "),
        "{out}"
    );
    let solution: Grid = out
        .lines()
        .find_map(|l| l.strip_prefix("Solution "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(solution.is_solution_of(&XWING.parse().unwrap()));
    assert!(out.contains("; hardest: X-Wing"), "{out}");
}

#[test]
fn json_steps_replay_to_the_solution() {
    let (out, code) = sudokit(&["explain", "--format", "json", XWING]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "one record per puzzle");
    let record: serde_json::Value = serde_json::from_str(&out).unwrap();
    let steps = record["steps"].as_array().unwrap();
    assert!(!steps.is_empty());
    let mut grid: Grid = XWING.parse().unwrap();
    for (n, s) in steps.iter().enumerate() {
        assert_eq!(s["step"], n + 1);
        assert!(s["text"]
            .as_str()
            .unwrap()
            .starts_with(s["technique"].as_str().unwrap()));
        for p in s["placements"].as_array().unwrap() {
            let name = p["cell"].as_str().unwrap();
            let (r, c) = (name.as_bytes()[1] - b'1', name.as_bytes()[3] - b'1');
            let cell = sudokit::Cell::from_row_col(r.into(), c.into()).unwrap();
            grid.set(
                cell,
                sudokit::Digit::new(p["digit"].as_u64().unwrap() as u8),
            );
        }
    }
    assert_eq!(record["solved"], true);
    assert_eq!(record["solution"], grid.to_string());
    let counted: u64 = record["techniques"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(counted, steps.len() as u64);
}

#[test]
fn json_is_one_record_per_input_puzzle_in_order() {
    let input = format!("{XWING} first\nnot a puzzle\n{MULTIPLE} third\n");
    let (out, _, code) = run(&["explain", "--format", "json"], &input);
    assert_eq!(code, 2, "the unreadable line makes the status 2");
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3, "{out}");
    assert_eq!(records[0]["solved"], true);
    assert_eq!(records[0]["trailing"], " first");
    assert!(records[1]["error"].as_str().unwrap().contains("<stdin>:2:"));
    assert_eq!(records[2]["error"], "multiple solutions");
    assert_eq!(records[2]["steps"].as_array().unwrap().len(), 0);
    assert_eq!(records[2]["trailing"], " third");
}

#[test]
fn grid_and_candidates_views() {
    let (out, _) = sudokit(&["explain", "--grid", "--candidates", XWING]);
    assert!(out.contains("[8]"), "the placed digit is marked");
    assert!(out.contains("---------+---------+---------"));
}

#[test]
fn restricted_techniques_stall_and_say_so() {
    let (out, code) = sudokit(&["explain", "--techniques", "singles", XWING]);
    assert_eq!(code, 1);
    assert!(
        out.contains("Stalled: the techniques in use find nothing more after filling "),
        "{out}"
    );
    assert!(!out.contains("X-Wing"));
    let (_, code) = sudokit(&["explain", "--techniques", "no-such-thing", XWING]);
    assert_eq!(code, 2, "unknown technique names are usage errors");
}

#[test]
fn non_unique_puzzles_are_reported_before_any_logic() {
    let (out, code) = sudokit(&["explain", MULTIPLE]);
    assert_eq!(code, 1);
    assert!(
        out.contains("multiple solutions: nothing to explain"),
        "{out}"
    );
    let (out, _) = sudokit(&["hint", MULTIPLE]);
    assert_eq!(out, "multiple solutions: no hint can be given\n");
}

#[test]
fn hints_rise_in_detail() {
    let (one, _) = sudokit(&["hint", XWING]);
    let (two, _) = sudokit(&["hint", "--level", "2", XWING]);
    let (three, _) = sudokit(&["hint", "--level", "3", XWING]);
    assert_eq!(one, "Look for a Hidden Single.\n");
    assert_eq!(two, "Look for a Hidden Single on digit 8 in box 1.\n");
    assert_eq!(three, "Hidden Single: r1c3=8 in box 1\n");
}

#[test]
fn hint_from_pencil_marks() {
    // The puzzle's candidates as 81 tokens, with r2c4's 9 already removed by hand: the next
    // hint must start from that state.
    let puzzle: Grid = XWING.parse().unwrap();
    let cands = sudokit::candidates::Candidates::new(&puzzle);
    let tokens: Vec<String> = sudokit::Cell::all()
        .map(|c| match cands.value(c) {
            Some(d) => d.to_string(),
            None => cands.get(c).to_string(),
        })
        .collect();
    let (out, code) = sudokit(&["hint", "--level", "3", "--marks", &tokens.join(" ")]);
    assert_eq!(
        (out.as_str(), code),
        ("Hidden Single: r1c3=8 in box 1\n", 0)
    );
    // Marks that remove the true digit are refused with the reason.
    let mut wrong = tokens.clone();
    wrong[2] = "7".into(); // r1c3 must be 8
    let (out, code) = sudokit(&["hint", "--marks", &wrong.join(" ")]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("no solution") || out.contains("pencil marks are wrong"),
        "{out}"
    );
}

#[test]
fn svg_pictures_per_step() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (_, code) = sudokit(&["explain", "--svg", d, XWING]);
    assert_eq!(code, 0);
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    let (json, _) = sudokit(&["explain", "--format", "json", XWING]);
    let record: serde_json::Value = serde_json::from_str(&json).unwrap();
    let steps = record["steps"].as_array().unwrap().len();
    assert_eq!(files, steps, "one picture per step");
    let first = std::fs::read_to_string(dir.path().join("0001-0001.svg")).unwrap();
    assert!(first.starts_with("<svg") && first.contains("Hidden Single: r1c3=8 in box 1"));
}

#[test]
fn html_is_one_self_contained_page_with_a_picture_per_step() {
    let input = format!("{XWING} <script>alert(1)</script>\nnot a puzzle\n");
    let (page, _, code) = run(&["explain", "--format", "html"], &input);
    assert_eq!(code, 2, "the unreadable line makes the status 2");
    assert!(page.starts_with("<!doctype html>") && page.trim_end().ends_with("</body></html>"));
    let (json, _) = sudokit(&["explain", "--format", "json", XWING]);
    let record: serde_json::Value = serde_json::from_str(&json).unwrap();
    let steps = record["steps"].as_array().unwrap().len();
    assert_eq!(
        page.matches("<svg").count(),
        steps + 1,
        "the start and every step"
    );
    assert!(
        !page.contains("<script>"),
        "trailing text is shown, never run"
    );
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("<p class=\"error\">error: &lt;stdin&gt;:2:1:"));
    assert!(page.contains("Summary: "));
}

/// Every field a step record had before SE's path, with its JSON type.
const STEP_FIELDS: [(&str, &str); 11] = [
    ("step", "number"),
    ("technique", "string"),
    ("placements", "array"),
    ("eliminations", "array"),
    ("cells", "array"),
    ("fins", "array"),
    ("houses", "array"),
    ("digits", "array"),
    ("chain", "string"),
    ("links", "array"),
    ("text", "string"),
];

fn json_type(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Null => "null",
    }
}

/// The steps of `explain --format json` with `extra` arguments on a puzzle SE rates 9.2
/// (static, dynamic and Nishio chains, cycles, a BUG), every field checked: the fields of
/// before keep their names and types, and only SE's path adds `se_technique` and `rating`.
fn json_steps(extra: &[&str]) -> Vec<serde_json::Value> {
    let puzzle =
        "1.......7..2.3.8...7.4.8.2....316....3.....1....7.5...9.7...4.5.4.....8...6.4.2..";
    let mut args = vec!["explain", "--format", "json", puzzle];
    args.extend(extra);
    let (out, code) = sudokit(&args);
    assert_eq!(code, 0, "{out}");
    let record: serde_json::Value = serde_json::from_str(&out).unwrap();
    let steps = record["steps"].as_array().unwrap().clone();
    let se = !extra.is_empty();
    for s in &steps {
        for (key, value) in s.as_object().unwrap() {
            let old = STEP_FIELDS.iter().find(|(name, _)| name == key);
            match (old, key.as_str()) {
                (Some((_, kind)), _) => assert_eq!(json_type(value), *kind, "{key} in {s}"),
                (None, "se_technique") if se => assert!(value.is_string(), "{s}"),
                (None, "rating") if se => assert!(value.is_f64(), "{s}"),
                (None, "premises") if se => assert!(value.is_array(), "{s}"),
                _ => panic!("field {key} is new in {s}"),
            }
        }
        for key in [
            "step",
            "technique",
            "placements",
            "eliminations",
            "cells",
            "text",
        ] {
            assert!(s.get(key).is_some(), "{key} missing in {s}");
        }
    }
    steps
}

#[test]
fn json_step_fields_keep_their_schema_on_both_engines() {
    let default = json_steps(&[]);
    assert!(default.iter().all(|s| s.get("rating").is_none()));
    let se = json_steps(&["--rules", "se"]);
    let mut highest = 0.0f64;
    for s in &se {
        // `Dynamic Cell Forcing Chains (9.0): …`: the number is the text's rating.
        let rating = s["rating"].as_f64().unwrap();
        let name = s["se_technique"].as_str().unwrap();
        let text = s["text"].as_str().unwrap();
        assert!(text.starts_with(&format!("{name} ({rating:.1}): ")), "{s}");
        highest = highest.max(rating);
    }
    // SE 1.2.1 rates the puzzle 9.2 (the calibration file).
    assert_eq!(highest, 9.2);
    let chains = se.iter().filter(|s| s.get("links").is_some()).count();
    assert!(chains > 10, "{chains} steps with links");
}

#[test]
fn se_rules_explain_and_hint_with_se_names_and_ratings() {
    let (out, code) = sudokit(&["explain", "--rules", "se", XWING]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(". X-Wing (3.2): "), "{out}");
    assert!(out.contains("; hardest: X-Wing (3.2)\n"), "{out}");
    let first = out.lines().nth(1).unwrap();
    let (hint, code) = sudokit(&["hint", "--rules", "se", "--level", "3", XWING]);
    assert_eq!(code, 0);
    assert_eq!(first.split_once(". ").unwrap().1, hint.trim_end());
    let (hint, _) = sudokit(&["hint", "--rules", "se", XWING]);
    assert_eq!(hint.trim_end(), "Look for a Hidden Single.");
    let (_, _, code) = run(
        &["explain", "--rules", "se", "--techniques", "all", XWING],
        "",
    );
    assert_eq!(code, 2, "--rules se takes no technique list");
}
