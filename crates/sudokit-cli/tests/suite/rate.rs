//! `sudokit rate` end to end: forum-style lines, TSV, JSON, summary, plot, error records.

use crate::common::{run, MULTIPLE};

/// Sudoku Explainer 1.2.1 rates this 6.7/1.2/1.2 (the calibration list's first puzzle).
const RATED_67: &str =
    "9......82..8..6....1...9.7...2..7.43..5.8.7..78.6..1...3.7...1....4..2..42......9";
/// Hidden singles in boxes solve it: 1.2/1.2/1.2, no assumption needed.
const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

fn rate(args: &[&str], stdin: &str) -> (String, String, i32) {
    run(&[&["rate"], args].concat(), stdin)
}

#[test]
fn forum_style_lines_keep_trailing_text() {
    let (out, _, code) = rate(&[], &format!("{RATED_67} #a\n{EASY}\n"));
    assert_eq!(
        out,
        format!("{RATED_67} ER=6.7/1.2/1.2 #a\n{EASY} ER=1.2/1.2/1.2\n")
    );
    assert_eq!(code, 0);
}

#[test]
fn trailing_text_never_runs_into_a_field_before_it() {
    // After the rating (varying width) a space is put in; after a grid, nothing changes.
    let (out, _, _) = rate(&[], &format!("{EASY};x\n"));
    assert_eq!(out, format!("{EASY} ER=1.2/1.2/1.2 ;x\n"));
    let (out, _, _) = run(&["solve", "--count"], &format!("{EASY};x\n"));
    assert_eq!(out, format!("{EASY} 1 ;x\n"));
    let (solved, _, _) = run(&["solve"], &format!("{EASY};x\n"));
    assert!(
        solved.ends_with(";x\n") && !solved.contains(' '),
        "{solved}"
    );
    let (out, _, _) = run(&["hint"], &format!("{EASY};x\n"));
    assert_eq!(out, "Look for a Hidden Single. ;x\n");
}

#[test]
fn tsv_and_json_carry_the_whole_record() {
    let (out, _, _) = rate(&["--format", "tsv"], &format!("{EASY}\n"));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("# puzzle\tER\tEP\tED\tlevel"));
    assert_eq!(
        lines[1],
        format!("{EASY}\t1.2\t1.2\t1.2\teasy\tHidden Single\t0\t0")
    );
    let (out, _, _) = rate(&["--format", "json"], &format!("{RATED_67}\n"));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["er"].as_str(), v["ep"].as_str(), v["ed"].as_str()),
        (Some("6.7"), Some("1.2"), Some("1.2"))
    );
    assert_eq!(v["level"], "extreme");
    assert_eq!(v["complete"], true);
    assert!(v["guesses"].is_u64());
}

#[test]
fn non_unique_and_bad_puzzles_are_error_records_in_place() {
    let (out, err, code) = rate(&[], &format!("{MULTIPLE}\n{EASY}\nnonsense\n"));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0],
        format!("error: <stdin>:1:1: {MULTIPLE}: the puzzle has more than one solution")
    );
    assert!(lines[1].ends_with("ER=1.2/1.2/1.2"));
    assert!(lines[2].starts_with("error: <stdin>:3:1: bad character 'n'"));
    assert!(err.contains("<stdin>:3:1"));
    assert_eq!(code, 2);
    let (_, _, code) = rate(&[], &format!("{MULTIPLE}\n"));
    assert_eq!(code, 1);
}

#[test]
fn summary_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("er.svg");
    let (_, err, _) = rate(
        &["--summary", "--plot", plot.to_str().unwrap()],
        &format!("{RATED_67}\n{EASY}\n{EASY}\n"),
    );
    assert!(
        err.contains("rated 3 (easy 2, extreme 1), not unique 0, errors 0"),
        "{err}"
    );
    assert!(
        err.contains(&format!("ER  1.2        2 {}\n", "#".repeat(50))),
        "{err}"
    );
    assert!(
        err.contains(&format!("ER  6.7        1 {}\n", "#".repeat(25))),
        "{err}"
    );
    let svg = std::fs::read_to_string(plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("ER of 3 rated puzzles"));
}
