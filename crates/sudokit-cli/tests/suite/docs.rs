//! The commands shown in the README and the user guide, run: their documented output must be
//! what the built `sudokit` prints, so the documents stay true.
//!
//! In `README.md` and `docs/guide.md`, every fenced block opened with ```` ```console ```` is
//! a transcript. Each line beginning with `$ ` is a command (a line ending in ` \` continues on
//! the next); the lines after it, up to the next `$ ` line or the end of the block, are what
//! the command writes on standard output. Trailing blank lines are not compared, so a blank
//! line may separate one command's output from the next command. What goes to standard error
//! is never compared: a transcript shows standard output only.
//!
//! A command is `sudokit` and its arguments, split as a POSIX shell splits words (single and
//! double quotes, backslash escapes), run from the workspace root. Two bits of shell are
//! understood, and nothing else: `< FILE` feeds FILE to standard input (otherwise standard
//! input is empty), and a final `; echo $?` prints the exit status after the output. A
//! transcript that uses anything else (a pipe, a redirection of output, a variable) fails
//! here: show such commands in a ```` ```sh ```` block, which is not run. Blocks whose output
//! cannot be compared (timings, terminal-only output) are fenced ```` ```text ````.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use assert_cmd::cargo::CommandCargoExt;

use crate::common::workspace;

/// One command of a transcript and the output the document gives for it.
#[derive(Debug, PartialEq)]
struct Example {
    /// The document's line of the `$ ` line, 1-based.
    line: usize,
    /// The command as written (continuation lines joined).
    command: String,
    /// The documented standard output.
    expected: String,
}

/// Every command of every ```` ```console ```` block of a Markdown text, in order.
fn transcripts(markdown: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    // Some(true) inside a console block, Some(false) inside another fenced block.
    let mut block: Option<bool> = None;
    let mut indent = 0;
    let mut lines = markdown.lines().enumerate().peekable();
    while let Some((n, raw)) = lines.next() {
        let trimmed = raw.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match block {
                None => {
                    block = Some(info.trim() == "console");
                    indent = raw.len() - trimmed.len();
                }
                Some(_) if info.trim().is_empty() => block = None,
                Some(_) => {} // a fence of another length or kind inside: content
            }
            continue;
        }
        if block != Some(true) {
            continue;
        }
        let line = strip_indent(raw, indent);
        if let Some(first) = line.strip_prefix("$ ") {
            let mut command = first.to_string();
            while command.ends_with('\\') {
                command.pop();
                match lines.peek() {
                    Some((_, next)) if !next.trim_start().starts_with("```") => {
                        command.push(' ');
                        command.push_str(next.trim());
                        lines.next();
                    }
                    _ => break,
                }
            }
            examples.push(Example {
                line: n + 1,
                command: command.trim().to_string(),
                expected: String::new(),
            });
        } else if let Some(last) = examples.last_mut() {
            last.expected.push_str(line);
            last.expected.push('\n');
        }
    }
    assert!(block.is_none(), "a fenced block is never closed");
    examples
}

fn strip_indent(line: &str, indent: usize) -> &str {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    &line[spaces.min(indent)..]
}

/// Splits a command line into words as a POSIX shell does for plain words: single quotes
/// keep everything literally, double quotes keep everything but `\"`, `\\`, `\$` and `` \` ``
/// escapes, a backslash outside quotes escapes the next character. An unquoted shell
/// operator (`|`, `&`, `;`, `>`, `(`, `)`, `` ` ``, `$`) is refused: the examples must not
/// depend on a shell. `<` is returned as its own word.
fn split(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                words.extend(word.take());
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err(format!("unclosed ' in {command:?}")),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err(format!("unclosed \" in {command:?}")),
                        },
                        Some(c @ ('$' | '`')) => {
                            return Err(format!("unquoted expansion {c:?} in {command:?}"))
                        }
                        Some(c) => w.push(c),
                        None => return Err(format!("unclosed \" in {command:?}")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(format!("trailing backslash in {command:?}")),
            },
            '<' => {
                words.extend(word.take());
                words.push("<".to_string());
            }
            '|' | '&' | ';' | '>' | '(' | ')' | '`' | '$' => {
                return Err(format!(
                    "shell operator {c:?} in {command:?}: tested examples run sudokit alone \
                     (only `< FILE` and a final `; echo $?` are understood)"
                ))
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// What one documented command printed: its standard output (with the exit status appended
/// when the command ends in `; echo $?`) and its standard error, for the failure message.
fn run(root: &Path, command: &str) -> Result<(String, String), String> {
    let (command, echo_status) = match command.strip_suffix("; echo $?") {
        Some(rest) => (rest, true),
        None => (command, false),
    };
    let mut words = split(command)?;
    let mut stdin = None;
    while let Some(at) = words.iter().position(|w| w == "<") {
        if at + 1 >= words.len() {
            return Err(format!("`<` without a file in {command:?}"));
        }
        let file = words.remove(at + 1);
        words.remove(at);
        stdin = Some(file);
    }
    if words.first().map(String::as_str) != Some("sudokit") {
        return Err(format!(
            "{command:?} is not a sudokit command: show it in a ```sh block"
        ));
    }
    let mut cmd = Command::cargo_bin("sudokit").map_err(|e| format!("no sudokit binary: {e}"))?;
    cmd.args(&words[1..])
        .current_dir(root)
        .stdin(match &stdin {
            Some(file) => Stdio::from(
                fs::File::open(root.join(file)).map_err(|e| format!("cannot open {file}: {e}"))?,
            ),
            None => Stdio::null(),
        })
        .env_remove("RAYON_NUM_THREADS");
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    let mut stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if echo_status {
        match out.status.code() {
            Some(code) => stdout.push_str(&format!("{code}\n")),
            None => stdout.push_str("(killed by a signal)\n"),
        }
    }
    Ok((stdout, String::from_utf8_lossy(&out.stderr).into_owned()))
}

/// Runs every transcript command of `doc` (relative to the workspace root) and fails with
/// every mismatch at once; returns how many commands ran.
fn check(doc: &str) -> usize {
    let root = workspace();
    let path = root.join(doc);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let examples = transcripts(&text);
    let mut failures = Vec::new();
    for ex in &examples {
        let expected = ex.expected.trim_end_matches('\n');
        match run(&root, &ex.command) {
            Err(why) => failures.push(format!("{doc}:{}: $ {}\n  {why}", ex.line, ex.command)),
            Ok((stdout, stderr)) => {
                let actual = stdout.trim_end_matches('\n');
                if actual != expected {
                    failures.push(format!(
                        "{doc}:{}: $ {}\n--- expected (the document)\n{expected}\n\
                         --- actual (standard output)\n{actual}\n--- standard error\n{}",
                        ex.line,
                        ex.command,
                        stderr.trim_end()
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} commands shown in {doc} do not print what it shows:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n\n")
    );
    examples.len()
}

#[test]
fn readme_transcripts_are_what_sudokit_prints() {
    let ran = check("README.md");
    assert!(ran > 0, "README.md shows no ```console transcript");
}

#[test]
fn guide_transcripts_are_what_sudokit_prints() {
    let ran = check("docs/guide.md");
    assert!(ran > 0, "docs/guide.md shows no ```console transcript");
}

#[test]
fn transcripts_are_found_and_split_as_documented() {
    let doc = "text\n```sh\n$ not run\n```\n```console\n$ sudokit a \\\n    b\nout 1\n\nout 2\n\
               $ sudokit c < f\n```\n```text\n$ sudokit ignored\n```\n";
    let found = transcripts(doc);
    assert_eq!(
        found,
        vec![
            Example {
                line: 6,
                command: "sudokit a  b".into(),
                expected: "out 1\n\nout 2\n".into(),
            },
            Example {
                line: 11,
                command: "sudokit c < f".into(),
                expected: String::new(),
            },
        ]
    );
    assert_eq!(
        split(r#"sudokit 'a b' "c \"d\"" e\ f <in"#).unwrap(),
        ["sudokit", "a b", "c \"d\"", "e f", "<", "in"]
    );
    assert!(split("sudokit solve f | head").is_err());
    assert!(split("sudokit solve f > out").is_err());
    assert!(split("sudokit solve $FILE").is_err());
}
