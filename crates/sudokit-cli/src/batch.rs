//! The one pipeline every batch command shares.
//!
//! Input files (or `-` for stdin) are read as one stream of [`Record`]s on a reader thread,
//! cut into chunks, each chunk mapped on the rayon pool with the subcommand's pure per-puzzle
//! function, and the results written on a writer thread *in input order*. Memory stays
//! constant however long the input: at most a few chunks are in flight. A chunk is also cut
//! whenever the input has nothing more buffered, so an interactive or slow producer sees
//! its answers at once rather than when a chunk fills.
//!
//! Bad records travel through the pipeline like good ones and are written in their place
//! by the subcommand's writer, so output lines up with input one to one.

use std::fs::File;
use std::io::{self, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TryRecvError};
use std::thread;

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use sudokit::parse::{records, Record};
use sudokit::{Grid, ParseError};

/// Records per chunk at most; small enough to keep memory flat, large enough that rayon's
/// per-chunk overhead disappears next to the work.
const CHUNK: usize = 4096;

/// Options every batch command takes.
#[derive(Args, Debug, Clone)]
pub struct Input {
    /// Puzzle files; `-` or nothing reads standard input. Formats: 81-character lines, drawn
    /// 9-line grids, Project Euler `Grid NN` blocks (detected line by line). An argument that
    /// is no file but 81 or more characters long is read as a puzzle itself.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Worker threads (default: one per core), shared by the puzzles and by the work
    /// inside one (a hard rating builds its chains on all of them).
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
}

/// One record as the writer sees it: where it came from, and the work's result.
pub struct Item<T> {
    /// The input's name as given (`-` for stdin).
    pub file: std::sync::Arc<str>,
    /// The record itself: line, parsed puzzle or error, trailing text.
    pub record: Record,
    /// The per-puzzle result; `None` for error records.
    pub result: Option<T>,
}

impl<T> Item<T> {
    /// The compiler-style error message of an error record: `file:line:column: what`.
    pub fn error(&self) -> Option<String> {
        self.record
            .puzzle
            .as_ref()
            .err()
            .map(|e| located(&self.file, e))
    }
}

/// The JSON record every batch command writes in place of a puzzle it could not read.
#[derive(Serialize)]
pub struct ErrorRecord<'a> {
    file: &'a str,
    line: usize,
    trailing: &'a str,
    error: String,
}

impl<T> Item<T> {
    /// This record as a JSON error record (for records whose puzzle did not parse).
    pub fn error_record(&self) -> ErrorRecord<'_> {
        ErrorRecord {
            file: &self.file,
            line: self.record.line,
            trailing: &self.record.trailing,
            error: self.error().unwrap_or_default(),
        }
    }
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

/// What a batch run saw, for the exit status and summaries.
#[derive(Debug, Default, Clone, Copy)]
pub struct Summary {
    /// Records read (puzzles and error records).
    pub records: u64,
    /// Error records among them.
    pub errors: u64,
    /// Whether output stopped early because its reader went away (`| head`).
    pub broken_pipe: bool,
}

type Chunk = Vec<(std::sync::Arc<str>, Record)>;

/// Runs `work` on every puzzle of the inputs and hands each result, in input order, to
/// `write` together with its record; error records reach `write` with no result (and are
/// echoed to stderr so that a person watching sees them even when stdout is a file).
pub fn run<T, W, F>(input: &Input, work: W, mut write: F) -> Result<Summary>
where
    T: Send,
    W: Fn(&Grid) -> T + Sync,
    F: FnMut(&mut dyn Write, &Item<T>) -> io::Result<()> + Send,
{
    let threads = input.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting worker threads")?;
    let names: Vec<PathBuf> = if input.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        input.files.clone()
    };
    let progress = progress_bar(&names);
    let (chunk_tx, chunk_rx) = sync_channel::<(Chunk, u64)>(2);
    let (done_tx, done_rx) = sync_channel::<(Vec<Item<T>>, u64)>(2);

    thread::scope(|scope| -> Result<Summary> {
        let reader = scope.spawn(move || read_all(&names, chunk_tx));
        let writer = scope.spawn({
            let progress = progress.clone();
            move || write_all(done_rx, &mut write, progress)
        });
        for (chunk, bytes) in chunk_rx {
            let map = |(file, record): (std::sync::Arc<str>, Record)| {
                let result = record.puzzle.as_ref().ok().map(&work);
                Item {
                    file,
                    record,
                    result,
                }
            };
            // On the pool even with one thread: work that runs in parallel inside one
            // puzzle (the rating of the hardest) then keeps to the threads asked for.
            let items: Vec<Item<T>> = pool.install(|| chunk.into_par_iter().map(map).collect());
            if done_tx.send((items, bytes)).is_err() {
                break; // the writer stopped: broken pipe or write error
            }
        }
        drop(done_tx);
        let summary = writer
            .join()
            .map_err(|_| anyhow::anyhow!("writer thread panicked"))??;
        // After a broken pipe the reader may still be blocked on its channel; its result no
        // longer matters once the output is gone.
        let read = reader
            .join()
            .map_err(|_| anyhow::anyhow!("reader thread panicked"))?;
        if !summary.broken_pipe {
            read?;
        }
        progress.finish_and_clear();
        Ok(summary)
    })
}

fn open(name: &Path) -> Result<BufReader<Box<dyn Read + Send>>> {
    const CAPACITY: usize = 1 << 18;
    let source: Box<dyn Read + Send> = if name.as_os_str() == "-" {
        Box::new(io::stdin())
    } else if let Some(text) = inline(name) {
        Box::new(io::Cursor::new(text.to_owned().into_bytes()))
    } else {
        Box::new(File::open(name).with_context(|| format!("cannot open {}", name.display()))?)
    };
    Ok(BufReader::with_capacity(CAPACITY, source))
}

/// The puzzle text of an argument that is not a file but a puzzle typed on the command line.
fn inline(name: &Path) -> Option<&str> {
    let text = name.to_str()?;
    (text.trim().chars().count() >= 81 && !name.exists()).then_some(text)
}

/// Reads every input in turn into chunks. An input that cannot be opened or read is reported
/// on stderr and skipped, so the others are still processed; the run then ends with an error
/// (exit status 2).
fn read_all(names: &[PathBuf], tx: SyncSender<(Chunk, u64)>) -> Result<()> {
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut before = 0;
    let mut unreadable = 0;
    for name in names {
        match read_one(name, &mut chunk, &mut before, &tx) {
            Ok(true) => {}
            Ok(false) => return Ok(()), // nobody is listening any more
            Err(e) => {
                eprintln!("sudokit: {e:#}");
                unreadable += 1;
            }
        }
    }
    if !chunk.is_empty() {
        let _ = tx.send((chunk, before));
    }
    if unreadable > 0 {
        anyhow::bail!("{unreadable} of {} inputs could not be read", names.len());
    }
    Ok(())
}

/// Reads one input, sending full chunks (and partial ones whenever the input has nothing
/// more buffered); `Ok(false)` when the receiver has gone.
fn read_one(
    name: &Path,
    chunk: &mut Chunk,
    before: &mut u64,
    tx: &SyncSender<(Chunk, u64)>,
) -> Result<bool> {
    let file: std::sync::Arc<str> = if name.as_os_str() == "-" {
        "<stdin>".into()
    } else if inline(name).is_some() {
        "<argument>".into()
    } else {
        name.to_string_lossy().into()
    };
    let mut recs = records(open(name)?);
    let result = (|| {
        while let Some(rec) = recs.next() {
            let rec = rec.with_context(|| format!("reading {file}"))?;
            chunk.push((file.clone(), rec));
            if chunk.len() == CHUNK || recs.get_ref().buffer().is_empty() {
                let bytes = *before + recs.bytes_read();
                if tx.send((std::mem::take(chunk), bytes)).is_err() {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    })();
    *before += recs.bytes_read();
    result
}

fn write_all<T, F>(
    rx: Receiver<(Vec<Item<T>>, u64)>,
    write: &mut F,
    progress: ProgressBar,
) -> Result<Summary>
where
    F: FnMut(&mut dyn Write, &Item<T>) -> io::Result<()>,
{
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut summary = Summary::default();
    let mut next = rx.recv().ok();
    while let Some((items, bytes)) = next {
        for item in &items {
            summary.records += 1;
            if let Some(message) = item.error() {
                summary.errors += 1;
                progress.suspend(|| eprintln!("error: {message}"));
            }
            if let Err(e) = write(&mut out, item) {
                return finish_on(e, summary);
            }
        }
        progress.set_position(bytes);
        next = match rx.try_recv() {
            Ok(more) => Some(more),
            Err(TryRecvError::Empty) => {
                // Nothing else is ready: let the reader of our output see what we have.
                if let Err(e) = out.flush() {
                    return finish_on(e, summary);
                }
                rx.recv().ok()
            }
            Err(TryRecvError::Disconnected) => None,
        };
    }
    if let Err(e) = out.flush() {
        return finish_on(e, summary);
    }
    Ok(summary)
}

fn finish_on(e: io::Error, mut summary: Summary) -> Result<Summary> {
    if e.kind() == io::ErrorKind::BrokenPipe {
        summary.broken_pipe = true;
        Ok(summary)
    } else {
        Err(e).context("writing output")
    }
}

/// A byte-based progress bar on stderr when stderr is a terminal, hidden otherwise.
fn progress_bar(names: &[PathBuf]) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let total: Option<u64> = names
        .iter()
        .map(|n| {
            std::fs::metadata(n)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len())
        })
        .sum();
    match total {
        Some(len) => ProgressBar::new(len).with_style(
            ProgressStyle::with_template(
                "{bar:40.cyan/blue} {percent:>3}% {binary_bytes}/{binary_total_bytes} {elapsed} eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::new_spinner(),
    }
}
