//! What a hostile or careless user does to a line filter: closed pipes, endless output,
//! endless lines, odd line ends, odd paths, odd arguments. Each test here failed before the
//! fix it guards.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdout, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crate::common::{run, sudokit, workspace, INKALA_2012, MULTIPLE, SOLUTION_2012};

/// The empty grid: about 6.7 × 10²¹ solutions.
const EMPTY: &str =
    ".................................................................................";

/// A running `sudokit` whose output is read as it comes, killed after a minute at the latest
/// so that a regression hangs no test run.
struct Running {
    child: Arc<Mutex<Child>>,
    out: BufReader<ChildStdout>,
}

impl Running {
    fn start(args: &[&str], stdin: Option<String>, stderr: Stdio) -> Running {
        let mut child = sudokit()
            .args(args)
            .current_dir(workspace())
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("sudokit starts");
        if let Some(text) = stdin {
            let mut pipe = child.stdin.take().expect("stdin piped");
            // The feeder may meet a closed pipe once sudokit has gone: that is the point.
            thread::spawn(move || {
                let _ = pipe.write_all(text.as_bytes());
            });
        }
        let out = BufReader::new(child.stdout.take().expect("stdout piped"));
        let child = Arc::new(Mutex::new(child));
        let watched = Arc::clone(&child);
        thread::spawn(move || {
            thread::sleep(Duration::from_secs(60));
            let _ = watched.lock().map(|mut c| c.kill());
        });
        Running { child, out }
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        self.out.read_line(&mut line).expect("a line of output");
        line
    }

    /// Whether the process is still running.
    fn running(&self) -> bool {
        self.child.lock().unwrap().try_wait().unwrap().is_none()
    }

    /// Closes our end of its output and waits for it: its exit code.
    fn close(self) -> i32 {
        drop(self.out);
        let status = loop {
            if let Some(status) = self.child.lock().unwrap().try_wait().unwrap() {
                break status;
            }
            thread::sleep(Duration::from_millis(20));
        };
        status.code().expect("exited, not killed")
    }
}

/// Resident memory of a process, from /proc.
#[cfg(target_os = "linux")]
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn every_solution_of_the_empty_grid_streams_in_flat_memory() {
    let mut run = Running::start(&["solve", "--all", EMPTY], None, Stdio::null());
    let first = run.line();
    assert_eq!(first.trim().len(), 81, "{first}");
    for _ in 0..200_000 {
        assert_eq!(run.line().len(), 82);
    }
    #[cfg(target_os = "linux")]
    {
        let pid = run.child.lock().unwrap().id();
        let kib = resident_kib(pid);
        assert!(
            kib < 64 * 1024,
            "{kib} KiB resident after 200,000 solutions"
        );
    }
    assert!(run.running());
    assert_eq!(run.close(), 0, "a closed output ends --all quietly");
}

#[test]
fn all_in_json_is_one_record_with_its_solutions_first() {
    let puzzle = format!("{}\n", MULTIPLE);
    let (out, err, code) = run(&["solve", "--all", "--format", "json"], &puzzle);
    assert_eq!(code, 0, "{err}");
    let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let solutions = record["solutions"].as_array().unwrap();
    assert_eq!(record["count"], solutions.len());
    assert!(solutions.len() >= 2);
    assert_eq!(record["count_exact"], true);
    assert_eq!(record["status"], "solved");
    assert!(out.find("\"solutions\"").unwrap() < out.find("\"count\"").unwrap());
}

#[test]
fn a_count_of_one_claims_no_uniqueness() {
    let input = format!("{EMPTY}\n{INKALA_2012}\n");
    let (out, _, code) = run(&["solve", "--count=1", "--format", "json"], &input);
    assert_eq!(code, 0);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for record in &records {
        assert_eq!(record["status"], "solved", "{record}");
        assert_eq!(record["count_exact"], false);
    }
    let (out, _, _) = run(&["solve", "--count=2", "--format", "json"], &input);
    assert!(out
        .lines()
        .nth(1)
        .unwrap()
        .contains("\"status\":\"unique\""));
    let (_, err, _) = run(&["solve", "--count=1", "--stats"], &input);
    assert!(err.contains("unique 0,"), "{err}");
    assert!(err.contains("uniqueness not checked) 2"), "{err}");
}

#[test]
fn a_count_keeps_the_trailing_text_apart() {
    let (out, _, _) = run(&["solve", "--count"], &format!("{INKALA_2012};note\n"));
    assert_eq!(out, format!("{INKALA_2012} 1 ;note\n"));
    let (out, _, _) = run(&["solve", "--count"], &format!("{INKALA_2012} note\n"));
    assert_eq!(out, format!("{INKALA_2012} 1 note\n"));
}

#[test]
fn count_takes_a_file_after_it_and_a_limit_with_equals() {
    let famous = workspace().join("examples/famous.txt");
    let famous = famous.to_str().unwrap();
    let (out, err, code) = run(&["solve", "--count", famous], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 3);
    assert!(
        out.lines().all(|l| l.split(' ').nth(1) == Some("1")),
        "{out}"
    );
    let (out, _, _) = run(&["solve", "--count=5", famous], "");
    assert_eq!(out.lines().count(), 3);
}

#[test]
fn too_many_threads_is_refused_once() {
    let (_, err, code) = run(
        &["solve", "--threads", "100000"],
        &format!("{INKALA_2012}\n"),
    );
    assert_eq!(code, 2);
    assert_eq!(err.matches("invalid value").count(), 1, "{err}");
}

#[test]
fn an_endless_line_is_one_error_record() {
    let input = format!("{}\n{INKALA_2012}\n", ".".repeat(3_000_000));
    let (out, err, code) = run(&["solve"], &input);
    assert_eq!(code, 2);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[0].starts_with("error: <stdin>:1:"), "{}", lines[0]);
    assert!(lines[0].contains("longer than"), "{}", lines[0]);
    assert_eq!(lines[1], SOLUTION_2012);
}

#[test]
fn a_lone_carriage_return_ends_a_line() {
    let input = format!("{INKALA_2012}\r{INKALA_2012} two\r{INKALA_2012}\r");
    let (out, _, code) = run(&["solve"], &input);
    assert_eq!(code, 0);
    let want = format!("{SOLUTION_2012}\n{SOLUTION_2012} two\n{SOLUTION_2012}\n");
    assert_eq!(out, want);
}

/// Many puzzles, so that every command has more to write after the first line.
fn many_puzzles() -> String {
    let top = std::fs::read_to_string(workspace().join("data/puzzles3_magictour_top1465")).unwrap();
    top.lines().take(300).map(|l| format!("{l}\n")).collect()
}

/// The two ways a batch runs: one worker reading, working and writing in turn, and the
/// pipeline of reader, workers and writer threads.
const THREADS: [&str; 2] = ["--threads=1", "--threads=2"];

#[test]
fn every_command_ends_quietly_when_its_reader_goes_away() {
    let puzzles = many_puzzles();
    for command in ["solve", "explain", "hint", "rate", "canon"] {
        for threads in THREADS {
            let args = [command, threads];
            let mut run = Running::start(&args, Some(puzzles.clone()), Stdio::piped());
            run.line();
            let mut err = run.child.lock().unwrap().stderr.take().unwrap();
            assert_eq!(run.close(), 0, "{args:?}");
            let mut text = String::new();
            err.read_to_string(&mut text).unwrap();
            assert_eq!(text, "", "{args:?}");
        }
    }
    let inkala = workspace().join("data/inkala_2012.txt");
    let inkala = inkala.to_str().unwrap();
    let marks = workspace().join("examples/xy_wing_marks.txt");
    let marks = format!("@{}", marks.to_str().unwrap());
    for args in [
        vec!["same", inkala, inkala],
        vec!["explain", "--marks", &marks],
        vec!["man"],
    ] {
        let run = Running::start(&args, None, Stdio::piped());
        let mut err = run.child.lock().unwrap().stderr.take().unwrap();
        assert_eq!(run.close(), 0, "{args:?}");
        let mut text = String::new();
        err.read_to_string(&mut text).unwrap();
        assert_eq!(text, "", "{args:?}");
    }
}

#[test]
fn a_closed_stderr_ends_the_run_quietly() {
    let bad: String = format!("{}\n", "x".repeat(81)).repeat(100_000);
    let commands = ["solve", "explain", "hint", "rate", "canon"];
    for (command, threads) in commands.iter().flat_map(|c| THREADS.map(|t| (c, t))) {
        let mut child = sudokit()
            .args([command, threads])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut pipe = child.stdin.take().unwrap();
        let input = bad.clone();
        thread::spawn(move || {
            let _ = pipe.write_all(input.as_bytes());
        });
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        err.read_line(&mut first).unwrap();
        assert!(first.starts_with("error: <stdin>:1:1:"), "{first}");
        drop(err);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{command} must not panic");
    }
}

#[test]
fn a_slow_command_shows_its_first_result_before_the_rest_is_done() {
    for threads in THREADS {
        let args = ["rate", threads, "data/puzzles6_forum_hardest_1106"];
        let mut run = Running::start(&args, None, Stdio::null());
        let first = run.line();
        assert!(first.contains(" ER="), "{first}");
        // Rating all 375 of the hardest takes minutes: the first line came long before.
        assert!(run.running(), "{args:?}");
        assert_eq!(run.close(), 0, "{args:?}");
    }
}

#[test]
fn each_answer_comes_before_the_next_puzzle_is_written() {
    for threads in THREADS {
        let mut child = sudokit()
            .args(["solve", threads])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut pipe = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        // A hung answer would block `read_line`: the watchdog ends the run, and the test fails.
        let pid = child.id();
        thread::spawn(move || {
            thread::sleep(Duration::from_secs(60));
            let _ = std::process::Command::new("kill")
                .arg(pid.to_string())
                .status();
        });
        for round in 0..3 {
            writeln!(pipe, "{INKALA_2012} #{round}").unwrap();
            pipe.flush().unwrap();
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
            assert_eq!(line, format!("{SOLUTION_2012} #{round}\n"), "{threads}");
        }
        drop(pipe);
        assert_eq!(child.wait().unwrap().code(), Some(0), "{threads}");
    }
}

#[test]
fn an_unreadable_input_keeps_its_place_among_the_others() {
    let inkala = workspace().join("data/inkala_2012.txt");
    let inkala = inkala.to_str().unwrap();
    let folder = workspace().join("data");
    let folder = folder.to_str().unwrap();
    for threads in THREADS {
        let (out, err, code) = run(&["solve", threads, inkala, folder, inkala], "");
        assert_eq!(code, 2, "{threads}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{threads}: {out}");
        assert!(lines.iter().all(|l| l.starts_with(SOLUTION_2012)), "{out}");
        let message = format!("sudokit: cannot read {folder}: ");
        assert_eq!(err.lines().count(), 1, "{threads}: {err}");
        assert!(err.starts_with(&message), "{threads}: {err}");
    }
}

#[test]
fn any_existing_path_is_read_as_a_file() {
    let inkala = workspace().join("data/inkala_2012.txt");
    let mut child = sudokit()
        .args(["same", "/dev/stdin", inkala.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(std::fs::read(&inkala).unwrap().as_slice())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("equivalent: "), "{text}");

    let missing = format!("/nonexistent/{}", "a".repeat(81));
    let (_, err, code) = run(&["same", &missing, INKALA_2012], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot open"), "{err}");
    let (_, err, code) = run(&["solve", &missing], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot open"), "{err}");
}

#[test]
fn same_reports_a_bad_byte_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, b"123\xff45\n").unwrap();
    let (_, err, code) = run(&["same", path.to_str().unwrap(), INKALA_2012], "");
    assert_eq!(code, 2);
    assert!(err.contains("bad.txt:1:4:"), "{err}");
}

#[test]
fn rate_reports_a_puzzle_that_is_not_unique_with_its_place_on_both_streams() {
    let (out, err, code) = run(&["rate"], &format!("{MULTIPLE}\n"));
    assert_eq!(code, 1);
    assert!(
        out.starts_with(&format!("error: <stdin>:1:1: {MULTIPLE}")),
        "{out}"
    );
    assert!(err.contains(&format!("<stdin>:1:1: {MULTIPLE}")), "{err}");
}

#[test]
fn rate_tsv_keeps_a_lower_bound_and_comments_its_errors() {
    let hardest =
        std::fs::read_to_string(workspace().join("data/puzzles6_forum_hardest_1106")).unwrap();
    let input = format!("{}\nnot a puzzle\n", hardest.lines().next().unwrap());
    let (out, _, code) = run(&["rate", "--format", "tsv", "--max-level", "0"], &input);
    assert_eq!(code, 2);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with('#'));
    assert!(
        lines[1].split('\t').nth(1).unwrap().ends_with('+'),
        "{}",
        lines[1]
    );
    assert!(lines[2].starts_with("# error: <stdin>:2:"), "{}", lines[2]);
}

#[test]
fn hint_json_errors_keep_their_trailing_text() {
    let input = format!("{MULTIPLE} first\nbad line second\n");
    let (out, _, _) = run(&["hint", "--format", "json"], &input);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records[0]["trailing"], " first");
    assert!(records[0]["error"].is_string());
    assert!(records[1]["error"].is_string());
    assert!(records[1]["trailing"].is_string());
}

#[test]
fn hint_draws_one_picture_per_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!("{INKALA_2012}\n{INKALA_2012}\n");
    let svg = dir.path().join("pictures");
    let (_, err, code) = run(&["hint", "--svg", svg.to_str().unwrap()], &input);
    assert_eq!(code, 0, "{err}");
    assert!(svg.join("0001.svg").is_file());
    assert!(svg.join("0002.svg").is_file());
}

#[test]
fn dedupe_counts_nothing_after_its_reader_has_gone() {
    let mut run = Running::start(
        &["canon", "--dedupe", "data/puzzles2_17_clue"],
        None,
        Stdio::piped(),
    );
    run.line();
    let mut err = run.child.lock().unwrap().stderr.take().unwrap();
    assert_eq!(run.close(), 0);
    let mut text = String::new();
    err.read_to_string(&mut text).unwrap();
    assert!(!text.contains("kept"), "{text}");
}

#[test]
fn completions_and_manual_are_made_from_the_command_line_definitions() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (out, err, code) = run(&["completions", shell], "");
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("sudokit"), "{shell}");
        assert!(
            out.contains("max-level"),
            "{shell}: the rate options are completed"
        );
    }
    let (out, _, code) = run(&["man"], "");
    assert_eq!(code, 0);
    assert!(
        out.starts_with(".ie") || out.contains(".TH sudokit"),
        "{}",
        &out[..200]
    );
    assert!(out.contains("solve"));
}

/// On a terminal, an error's copy on stderr comes after the results before it. `script`
/// (util-linux) gives the command a terminal for both streams.
#[test]
fn on_a_terminal_error_copies_keep_their_place() {
    let with_errors = workspace().join("examples/with_errors.txt");
    for threads in THREADS {
        let command = format!(
            "{} solve {threads} {}",
            assert_cmd::cargo::cargo_bin("sudokit").display(),
            with_errors.display()
        );
        let out = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .stdin(Stdio::null())
            .output()
            .expect("script (util-linux) runs");
        let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
        let solved = text
            .find("gosudoku 17-clue example")
            .expect("the first result");
        let copy = text.find("error: ").expect("an error copy");
        assert!(solved < copy, "{threads}: {text}");
        assert!(!text.contains('%'), "no progress bar over results: {text}");
    }
}

#[test]
fn a_marks_file_too_large_for_a_grid_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.txt");
    std::fs::write(&path, "123456789 ".repeat(10_000)).unwrap();
    let marks = format!("@{}", path.display());
    let (_, err, code) = run(&["explain", "--marks", &marks], "");
    assert_eq!(code, 2);
    assert!(err.contains("larger than 65536 bytes"), "{err}");
}
