//! What the end-to-end tests share: running the built `sudokit` and a few known puzzles.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

/// Arto Inkala's 2012 puzzle with r1c1 emptied: still solvable, but no longer uniquely.
pub const MULTIPLE: &str =
    "...........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// Arto Inkala's 2012 puzzle: unique, ER 10.7.
pub const INKALA_2012: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// Its solution.
pub const SOLUTION_2012: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

/// The workspace root: the documents, examples and data the tests read live there.
pub fn workspace() -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// The built `sudokit` binary.
pub fn sudokit() -> Command {
    Command::cargo_bin("sudokit").expect("the sudokit binary is built")
}

/// Runs `sudokit ARGS` with `stdin`; returns (stdout, stderr, exit code).
pub fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = assert_cmd::Command::from_std(sudokit())
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("sudokit runs");
    (
        String::from_utf8(out.stdout).expect("utf-8 output"),
        String::from_utf8(out.stderr).expect("utf-8 errors"),
        out.status.code().expect("exit code"),
    )
}
