//! `sudokit solve` end to end: output records, order, error records, exit statuses.

use std::io::{Read, Write};
use std::process::Stdio;

use crate::common::{run, sudokit, INKALA_2012, MULTIPLE, SOLUTION_2012};
use sudokit::Grid;

const INKALA_2006: &str =
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
/// No two givens clash, but r1c9 has no candidate left: 1-8 in its row, 9 in its column.
const NONE: &str =
    "12345678.........9...............................................................";

#[test]
fn solves_lines_keeping_trailing_text() {
    let input = format!("{INKALA_2012} ER=10.7/10.7/9.7\n# comment\n\n{INKALA_2006};x\n");
    let (out, err, code) = run(&["solve"], &input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0], format!("{SOLUTION_2012} ER=10.7/10.7/9.7"));
    let s: Grid = lines[1][..81].parse().unwrap();
    assert!(s.is_solution_of(&INKALA_2006.parse().unwrap()));
    assert_eq!(&lines[1][81..], ";x");
}

#[test]
fn no_solution_and_multiple_solutions_are_said_and_exit_1() {
    let input = format!("{NONE}\n{MULTIPLE} tail\n");
    let (out, _, code) = run(&["solve"], &input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "no solution");
    assert!(
        lines[1].ends_with(" multiple solutions tail"),
        "{}",
        lines[1]
    );
    let first: Grid = lines[1][..81].parse().unwrap();
    assert!(first.is_solution_of(&MULTIPLE.parse().unwrap()));
    assert_eq!(code, 1);
}

#[test]
fn counts_up_to_a_limit() {
    let input = format!("{INKALA_2012}\n{MULTIPLE}\n{NONE}\n");
    let (out, _, code) = run(&["solve", "--count"], &input);
    assert_eq!(out, format!("{INKALA_2012} 1\n{MULTIPLE} 2+\n{NONE} 0\n"),);
    assert_eq!(
        code, 1,
        "an unsolvable puzzle still makes the exit status 1"
    );
    let (out, _, _) = run(&["solve", "--count=1000"], &format!("{MULTIPLE}\n"));
    let n: usize = out.trim().rsplit(' ').next().unwrap().parse().unwrap();
    assert!(n > 2 && n < 1000, "{out}");
}

#[test]
fn all_lists_every_distinct_solution() {
    let (out, _, code) = run(&["solve", "--all"], &format!("{MULTIPLE} x\n"));
    assert_eq!(code, 0);
    let puzzle: Grid = MULTIPLE.parse().unwrap();
    let mut seen = std::collections::HashSet::new();
    for line in out.lines() {
        assert!(line.ends_with(" x"));
        let s: Grid = line[..81].parse().unwrap();
        assert!(s.is_solution_of(&puzzle));
        assert!(seen.insert(s), "solutions are distinct");
    }
    let (count, _, _) = run(&["solve", "--count=100000"], &format!("{MULTIPLE}\n"));
    assert_eq!(
        count.trim().rsplit(' ').next(),
        Some(seen.len().to_string().as_str())
    );
}

#[test]
fn bad_lines_become_error_records_in_place_and_exit_2() {
    let bad = format!("{}x{}", &INKALA_2012[..10], &INKALA_2012[11..]);
    let input = format!(
        "{INKALA_2012}\n{bad}\n{}\n{INKALA_2012}\n",
        &INKALA_2012[..50]
    );
    let (out, err, code) = run(&["solve"], &input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(lines[0], SOLUTION_2012);
    assert_eq!(
        lines[1],
        "error: <stdin>:2:11: bad character 'x': expected a digit 1-9 or a blank (. 0 _ - *)"
    );
    assert!(
        lines[2].starts_with("error: <stdin>:3:51: expected 81 cells"),
        "{}",
        lines[2]
    );
    assert_eq!(lines[3], SOLUTION_2012);
    assert!(
        err.contains("<stdin>:2:11"),
        "errors are also shown on stderr: {err}"
    );
    assert_eq!(code, 2);
}

#[test]
fn file_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dup.txt");
    let mut dup = INKALA_2012.to_string();
    dup.replace_range(80..81, "8"); // r7c9 holds 8 already
    std::fs::write(&path, format!("{INKALA_2012}\n{dup}\n")).unwrap();
    let p = path.to_str().unwrap();
    let (out, _, code) = run(&["solve", p], "");
    let second = out.lines().nth(1).unwrap();
    assert!(
        second.starts_with(&format!(
            "error: {p}:2:81: digit 8 twice in column 9: r7c9 and r9c9"
        )),
        "{second}"
    );
    assert_eq!(code, 2);
    let (_, err, code) = run(&["solve", "/nonexistent/puzzles.txt"], "");
    assert!(
        err.contains("cannot open /nonexistent/puzzles.txt"),
        "{err}"
    );
    assert_eq!(code, 2);
}

/// Plain lines reach the solver unchecked for repeated givens (the solver finds them
/// unsolvable); the error record is still the parser's, in every mode and on both paths.
#[test]
fn repeated_givens_are_error_records_in_every_mode() {
    let mut dup = INKALA_2012.to_string();
    dup.replace_range(80..81, "8"); // r7c9 holds 8 already
    let input = format!("{dup} kept\n{NONE}\n{INKALA_2012}\n");
    let error = "error: <stdin>:1:81: digit 8 twice in column 9: r7c9 and r9c9";
    for threads in ["--threads=1", "--threads=2"] {
        for mode in [
            "--format=line",
            "--count",
            "--all",
            "--stats",
            "--format=json",
        ] {
            let (out, err, code) = run(&["solve", threads, mode], &input);
            let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
            assert_eq!(code, 2, "{threads} {mode}: {out}");
            if mode == "--format=json" {
                assert!(lines[0].contains(&error[7..]), "{threads}: {}", lines[0]);
                assert!(lines[1].contains("\"no solution\""), "{}", lines[1]);
            } else {
                assert!(
                    lines[0].starts_with(error),
                    "{threads} {mode}: {}",
                    lines[0]
                );
                assert!(
                    lines[1].starts_with(&format!("{NONE} 0"))
                        || lines[1].starts_with("no solution"),
                    "{threads} {mode}: {}",
                    lines[1]
                );
            }
            assert_eq!(lines.len(), 3, "{threads} {mode}: {out}");
            if mode == "--stats" {
                assert!(
                    err.contains("puzzles 2, unique 1, unsolvable 1, multiple 0, errors 1"),
                    "{err}"
                );
            }
        }
    }
}

#[test]
fn order_is_kept_across_threads_and_chunks() {
    // 9,000 records with an error every 997 lines, more than two chunks' worth.
    let puzzles = [INKALA_2012, INKALA_2006, MULTIPLE, NONE];
    let mut input = String::new();
    for i in 0..9000 {
        if i % 997 == 5 {
            input.push_str("bad\n");
        } else {
            input.push_str(&format!("{} #{i}\n", puzzles[i % 4]));
        }
    }
    let (many, _, code_many) = run(&["solve", "--threads", "2"], &input);
    let (one, _, code_one) = run(&["solve", "--threads", "1"], &input);
    assert_eq!(many, one);
    assert_eq!((code_many, code_one), (2, 2));
    let lines: Vec<&str> = many.lines().collect();
    assert_eq!(lines.len(), 9000);
    for (i, line) in lines.iter().enumerate() {
        if i % 997 == 5 {
            assert!(
                line.starts_with(&format!("error: <stdin>:{}:", i + 1)),
                "{line}"
            );
        } else {
            assert!(line.ends_with(&format!(" #{i}")), "{line}");
        }
    }
}

#[test]
fn json_records_are_valid_and_complete() {
    let input = format!("{INKALA_2012} t\n{MULTIPLE}\n???\n");
    let (out, _, _) = run(&["solve", "--format", "json", "--stats"], &input);
    let recs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[0]["solution"], SOLUTION_2012);
    assert_eq!(recs[0]["status"], "unique");
    assert_eq!(recs[0]["count"], 1);
    assert_eq!(recs[0]["trailing"], " t");
    assert!(recs[0]["stats"]["guesses"].is_u64());
    assert_eq!(recs[1]["status"], "multiple solutions");
    assert_eq!(recs[1]["count_exact"], false);
    assert_eq!(recs[2]["line"], 3);
    assert!(recs[2]["error"].as_str().unwrap().contains("<stdin>:3:"));
}

#[test]
fn grid_output_reads_back_in() {
    let (out, _, code) = run(
        &["solve", "--format", "grid"],
        &format!("{INKALA_2012} note\n{NONE}\n"),
    );
    assert_eq!(code, 1);
    let (again, _, _) = run(&["solve"], &out);
    assert_eq!(again, format!("{SOLUTION_2012}\n"));
    assert!(
        out.contains("# note\n") && out.contains("# no solution\n"),
        "{out}"
    );
}

#[test]
fn stats_summary_goes_to_stderr() {
    let (out, err, _) = run(
        &["solve", "--stats"],
        &format!("{INKALA_2012}\n{MULTIPLE}\n"),
    );
    assert!(out.lines().next().unwrap().contains(" guesses="));
    assert!(
        err.contains("puzzles 2, unique 1, unsolvable 0, multiple 1, errors 0"),
        "{err}"
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let input: String = (0..50_000).map(|_| format!("{INKALA_2006}\n")).collect();
    let mut child = sudokit()
        .args(["solve", "--threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut first = [0u8; 82];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take()); // like `| head -1`
    let out = child.wait_with_output().unwrap();
    let _ = feeder.join();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn output_goes_into_the_file_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solved.txt");
    let (out, _, code) = run(
        &["solve", "-o", path.to_str().unwrap()],
        &format!("{INKALA_2012} x\n"),
    );
    assert_eq!((out.as_str(), code), ("", 0));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{SOLUTION_2012} x\n")
    );
    let (_, err, code) = run(&["solve", "-o", "/nonexistent/dir/x"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot create /nonexistent/dir/x"), "{err}");
}
