//! `sudokit rate` end to end.

use assert_cmd::Command;

/// SE 3.2/1.2/1.2 in the calibration list (an X-Wing).
const XWING: &str =
    "....2.65.6.2.14...4....8.2..71......83.....16......78..6.5....3...14.5.8.84.9....";
/// SE 6.7/1.2/1.2 in the calibration list.
const CHAIN: &str =
    "9......82..8..6....1...9.7...2..7.43..5.8.7..78.6..1...3.7...1....4..2..42......9";
const MULTIPLE: &str =
    "...........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn sudokit(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = Command::cargo_bin("sudokit")
        .unwrap()
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn line_output_in_input_order_with_trailing_text() {
    let input = format!("{XWING} first\n{CHAIN}\n");
    let (out, _, code) = sudokit(&["rate", "-j", "2"], &input);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(&format!("{XWING} ER=3.2/1.2/1.2 ")),
        "{out}"
    );
    assert!(lines[0].ends_with(" first"), "{out}");
    assert!(lines[0].contains("level=hard"), "{out}");
    assert!(
        lines[1].starts_with(&format!("{CHAIN} ER=6.7/1.2/1.2 ")),
        "{out}"
    );
}

#[test]
fn bad_and_non_unique_puzzles_become_error_records() {
    let input = format!("{MULTIPLE}\nnot a puzzle\n{XWING}\n");
    let (out, _, code) = sudokit(&["rate"], &input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].contains("more than one solution"), "{out}");
    assert!(lines[1].starts_with("error: "), "{out}");
    assert!(lines[2].contains("ER=3.2/1.2/1.2"), "{out}");
    assert_eq!(code, 2);
}

#[test]
fn json_tsv_and_summary() {
    let (out, _, code) = sudokit(&["rate", "--format", "json"], XWING);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["er"], 3.2);
    assert_eq!(v["level"], "hard");
    assert_eq!(v["assumptions_exact"], true);
    let (out, err, _) = sudokit(
        &["rate", "--format", "tsv", "--summary"],
        &format!("{XWING}\n{CHAIN}\n"),
    );
    assert!(out.starts_with("puzzle\tER\tEP\tED\t"), "{out}");
    assert_eq!(out.lines().count(), 3);
    assert!(err.contains("rated 2"), "{err}");
    assert!(err.contains(" 3.x "), "{err}");
}
