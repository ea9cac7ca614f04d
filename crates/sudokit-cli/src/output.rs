//! What every command shares on the way out: writing a JSON record, positioned messages,
//! messages on stderr that never panic, and the outcome `main` turns into the exit status.
//! The records are laid out by the [`printer`](crate::printer)s, their JSON forms are in
//! [`sudokit::wire`], and the batch commands write through
//! [`batch::Sink`](crate::batch::Sink), which hands each record to the command's printer.
//!
//! A closed output (`| head`, `| true`) or a closed stderr is not a failure: a command
//! stops writing and `main` ends with status 0, quietly. Everything here returns
//! `io::Result` so that such an error travels up to `main` like any other, where
//! [`is_closed_pipe`] recognises it.

use std::io::{self, Write};

use clap::ValueEnum;

use serde::Serialize;
use sudokit::ParseError;

/// What a command's run came to, for the exit status `main` sets.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Records that could not be read or parsed, and inputs that could not be opened.
    pub errors: u64,
    /// Puzzles that were read but did not come to what the command promises (no unique
    /// solution, a stalled explanation, no hint, two puzzles that differ).
    pub failures: u64,
}

impl Outcome {
    /// One failure and no error: the outcome of a yes/no command answering no.
    pub fn failed_if(no: bool) -> Outcome {
        Outcome {
            errors: 0,
            failures: u64::from(no),
        }
    }

    /// The exit status: 2 when some input could not be read, else 1 when some puzzle
    /// failed, else 0.
    pub fn status(self) -> u8 {
        if self.errors > 0 {
            2
        } else if self.failures > 0 {
            1
        } else {
            0
        }
    }
}

/// Whether `error` (anywhere in its chain) is a write to a reader that went away.
pub fn is_closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes one line on stderr. Unlike `eprintln!`, a closed stderr is an error returned,
/// not a panic.
pub fn message(text: &str) -> io::Result<()> {
    let mut err = io::stderr().lock();
    writeln!(err, "{text}")?;
    err.flush()
}

/// Writes one JSON object and a newline: a record of JSON Lines output.
pub fn json_line(out: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}

/// `file:line:column: message`, as compilers and grep print positions.
pub fn located(file: &str, e: &ParseError) -> String {
    format!("{file}:{}:{}: {}", e.line, e.column, e.kind)
}

/// The output formats of the commands that write text for people or JSON for programs
/// (`explain`, `hint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TextOrJson {
    /// Text, as the command's help describes it.
    Text,
    /// JSON Lines, as the guide describes each record.
    Json,
}
