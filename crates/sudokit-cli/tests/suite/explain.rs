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
