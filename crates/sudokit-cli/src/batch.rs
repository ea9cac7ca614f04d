//! The one pipeline every batch command shares.
//!
//! A reader thread turns the inputs into [`Record`]s and cuts them into chunks of up to
//! [`CHUNK`] records, and also whenever the input has nothing more buffered (so an
//! interactive producer sees its answers at once). Each chunk is worked on the rayon pool in
//! groups of records, and each group goes to the writer thread as soon as it is done; the
//! writer puts the groups back in input order and writes each record as soon as it and every
//! record before it are done. A slow command (rating the hardest puzzles) thus shows its
//! first result as soon as that is ready, not when its chunk is.
//!
//! Groups are sized from the measured work: hundreds of records when each takes microseconds
//! (solving), so that handing results over costs nothing next to the work; one when each
//! takes a second. At most one chunk is worked on at a time and the writer's queue is
//! bounded, so memory stays flat however long the input. Bad records travel like good ones
//! and are written in their place, so output lines up with input one to one.
//!
//! With one worker (`--threads 1`) there is nothing to overlap: the worker reads, works and
//! writes each record in turn, with the same flushing rules, since handing records between
//! threads cost more than reading and writing them (a fifth of the process on the 17-clue
//! list).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TryRecvError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use sudokit::parse::{records, Record};
use sudokit::{Grid, ParseError};

use crate::output::{located, message};
use crate::printer::{Printer, Rejected};

/// Records per chunk at most; small enough to keep memory flat, large enough that the
/// threads rarely wait for the last record of a chunk.
const CHUNK: usize = 4096;

/// How long working one group should take: long enough that handing its results over costs
/// nothing next to the work, short enough that a slow command's results come out steadily.
const GROUP_TIME: Duration = Duration::from_millis(2);

/// The largest group, so that even the fastest work spreads a chunk over the threads.
const LARGEST_GROUP: usize = 256;

/// Groups the writer's queue holds at most before the workers wait for it.
const QUEUED: usize = 64;

/// The most threads `--threads` accepts: beyond a few hundred the system runs out of
/// memory for their stacks before the work runs any faster.
pub const MAX_THREADS: usize = 512;

/// Options every batch command takes.
#[derive(Args, Debug, Clone)]
pub struct Input {
    /// Puzzle files; `-` or nothing reads standard input. Formats: 81-character lines, drawn
    /// 9-line grids, Project Euler `Grid NN` blocks (detected line by line). Any existing
    /// path (a file, a FIFO such as `<(cat f)`, `/dev/stdin`) is read; an argument that
    /// names no path, with 81 or more characters and no `/`, is read as a puzzle itself.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Worker threads (default: one per core), shared by the puzzles and by the work
    /// inside one (a hard rating builds its chains on all of them).
    #[arg(long, short = 'j', value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    pub threads: Option<u16>,

    /// Write the records into FILE (created or replaced) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Set by a command whose work is to solve: plain lines then skip the parser's check
    /// for repeated givens, and the command reports them, with
    /// [`plain_line_repeats`](sudokit::parse::plain_line_repeats), for the grids it finds
    /// unsolvable (see [`Records::deferring_repeats`](sudokit::parse::Records)).
    #[arg(skip)]
    pub solver_finds_repeats: bool,
}

impl Input {
    /// The file of `--output`, created, or none for standard output.
    fn create_output(&self) -> Result<Option<File>> {
        self.output
            .as_ref()
            .map(|path| {
                File::create(path).with_context(|| format!("cannot create {}", path.display()))
            })
            .transpose()
    }

    /// Where records go: the `--output` file, or standard output. For commands that write
    /// one position's record outside the pipeline (`--marks`).
    pub fn writer(&self) -> Result<BufWriter<Box<dyn Write>>> {
        let out: Box<dyn Write> = match self.create_output()? {
            Some(file) => Box::new(file),
            None => Box::new(io::stdout().lock()),
        };
        Ok(BufWriter::new(out))
    }
}

/// Where a record came from: its input, the line it starts on, the text after the puzzle.
pub struct Place {
    /// The input's name as given (`<stdin>`, `<argument>`, or the path).
    pub file: Arc<str>,
    /// The 1-based line the record starts on.
    pub line: usize,
    /// The text that followed the puzzle, kept for the output.
    pub trailing: String,
}

impl Place {
    /// The one place of a `--marks` state.
    pub fn marks() -> Place {
        Place {
            file: Arc::from("--marks"),
            line: 1,
            trailing: String::new(),
        }
    }
}

/// A puzzle worked on, as the writer gets it.
pub struct Worked<T> {
    /// Where it came from.
    pub place: Place,
    /// The puzzle.
    pub puzzle: Grid,
    /// What the work found.
    pub result: T,
}

/// One record between the workers and the writer: a worked puzzle, or one that could not be
/// read and is written as an error record in its place.
type Item<T> = (Place, Result<(Grid, T), ParseError>);

/// Where a batch command writes: standard output, buffered, with error records in place and
/// their copies on stderr keeping their place among the results on a shared terminal.
pub struct Sink<'a, R> {
    out: BufWriter<Box<dyn Write + 'a>>,
    progress: ProgressBar,
    /// Whether stdout is a terminal: stderr copies must then wait for the results before them.
    terminal: bool,
    printer: &'a dyn Printer<R>,
}

impl<'a, R> Sink<'a, R> {
    /// The sink writing into `file`, or standard output, with the printer's opening written.
    fn new(
        file: Option<File>,
        printer: &'a dyn Printer<R>,
        progress: ProgressBar,
    ) -> io::Result<Self> {
        let (out, terminal): (Box<dyn Write>, bool) = match file {
            Some(file) => (Box::new(file), false),
            None => {
                let stdout = io::stdout();
                let terminal = stdout.is_terminal();
                (Box::new(stdout.lock()), terminal)
            }
        };
        let mut sink = Sink {
            out: BufWriter::with_capacity(1 << 16, out),
            progress,
            terminal,
            printer,
        };
        printer.begin(&mut sink.out)?;
        Ok(sink)
    }

    /// Writes the printer's closing and flushes everything.
    fn finish(&mut self) -> io::Result<()> {
        self.printer.end(&mut self.out)?;
        self.out.flush()
    }

    /// Writes the record of the puzzle at `place`.
    pub fn print(&mut self, place: &Place, record: &R) -> io::Result<()> {
        self.printer.print(&mut self.out, Some(place), record)
    }

    /// Writes an error record in place of the puzzle at `place` (`puzzle` when it was read
    /// but could not be worked on), and copies its message to stderr.
    pub fn reject(&mut self, place: &Place, puzzle: Option<&Grid>, text: &str) -> io::Result<()> {
        let error = Rejected {
            place,
            puzzle,
            message: text,
        };
        self.printer.error(&mut self.out, &error)?;
        self.tell(&format!("error: {text}"))
    }

    /// Writes a message on stderr, after the results before it when both share a terminal.
    fn tell(&mut self, text: &str) -> io::Result<()> {
        if self.terminal {
            self.out.flush()?;
        }
        self.progress.suspend(|| message(text))
    }
}

impl<R> Write for Sink<'_, R> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// What a batch run saw.
#[derive(Debug, Default, Clone, Copy)]
pub struct Summary {
    /// Records read (puzzles and error records).
    pub records: u64,
    /// Error records among them, and inputs that could not be opened or read.
    pub errors: u64,
}

/// What the reader sends: a chunk of records and the bytes read up to its end, or an input
/// that could not be read, in its place among the others.
enum Incoming {
    Chunk(Vec<(Arc<str>, Record)>, u64),
    Unreadable(String),
}

/// What the writer receives, keyed by the input position of its first record: a group of
/// worked records and the bytes read up to its chunk's end, or an unreadable input's message
/// (which takes one position).
enum Done<T> {
    Group(Vec<Item<T>>, u64),
    Unreadable(String),
}

/// Runs `work` on every puzzle of the inputs and hands each result, in input order, to
/// `write`, which prints it through the sink; a record that could not be read is written by
/// the sink itself, as `printer` writes errors, and its message copied to stderr.
///
/// A closed stdout or stderr ends the run with the `BrokenPipe` error, which `main` ends on
/// quietly: records not yet begun are skipped, and what came after them is never read.
pub fn run<T, R, W, F>(
    input: &Input,
    printer: &dyn Printer<R>,
    work: W,
    mut write: F,
) -> Result<Summary>
where
    T: Send,
    W: Fn(&Grid) -> T + Sync,
    F: FnMut(&mut Sink<'_, R>, Worked<T>) -> io::Result<()> + Send,
{
    let threads = input.threads.map_or(0, usize::from);
    let mut builder = rayon::ThreadPoolBuilder::new().num_threads(threads);
    if threads == 1 {
        // The one worker is this thread: no thread to start, and no hand-over to it and
        // back, which costs a short run more than its work.
        builder = builder.use_current_thread();
    }
    let pool = builder.build().context("starting worker threads")?;
    let names: Vec<PathBuf> = if input.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        input.files.clone()
    };
    let file = input.create_output()?;
    let progress = progress_bar(&names, file.is_some());
    let defer = input.solver_finds_repeats;
    if pool.current_num_threads() == 1 {
        // One worker: reading and writing take turns with the work in that thread, where
        // handing records between threads would cost more than reading and writing them.
        return pool.install(|| in_turn(&names, defer, file, printer, &work, &mut write, progress));
    }
    let (read_tx, read_rx) = sync_channel::<Incoming>(2);
    // Not joined: after a closed output it may be blocked reading a terminal, and the
    // process ends without it.
    thread::spawn(move || read_all(&names, defer, &read_tx));
    let (done_tx, done_rx) = sync_channel::<(u64, Done<T>)>(QUEUED);
    // Set when the output has gone: records not yet begun skip their work.
    let stopped = AtomicBool::new(false);
    let group = AtomicUsize::new(1);
    thread::scope(|scope| {
        let writer = scope.spawn(|| {
            let written = write_all(done_rx, file, printer, &mut write, progress.clone());
            stopped.store(written.is_err(), Ordering::Relaxed);
            written
        });
        let mut position = 0u64;
        for read in read_rx {
            match read {
                Incoming::Unreadable(text) => {
                    let _ = done_tx.send((position, Done::Unreadable(text)));
                    position += 1;
                }
                Incoming::Chunk(chunk, bytes) => {
                    let start = position;
                    position += chunk.len() as u64;
                    let size = group.load(Ordering::Relaxed);
                    pool.install(|| {
                        chunk
                            .into_par_iter()
                            .enumerate()
                            .chunks(size)
                            .for_each(|records| {
                                let first = start + records[0].0 as u64;
                                let items = run_group(records, &work, &group, &stopped);
                                let _ = done_tx.send((first, Done::Group(items, bytes)));
                            });
                    });
                }
            }
            if stopped.load(Ordering::Relaxed) {
                break;
            }
        }
        drop(done_tx);
        let summary = writer
            .join()
            .map_err(|_| anyhow::anyhow!("writer thread panicked"))??;
        progress.finish_and_clear();
        Ok(summary)
    })
}

/// Works one group of records, and sizes the groups to come from how long it took.
fn run_group<T, W>(
    records: Vec<(usize, (Arc<str>, Record))>,
    work: &W,
    group: &AtomicUsize,
    stopped: &AtomicBool,
) -> Vec<Item<T>>
where
    W: Fn(&Grid) -> T,
{
    if stopped.load(Ordering::Relaxed) {
        return Vec::new(); // nobody will write it
    }
    let start = Instant::now();
    let n = records.len();
    let items = records
        .into_iter()
        .map(|(_, (file, record))| work_record(file, record, work))
        .collect();
    let each = start.elapsed().as_nanos() / n as u128;
    let fits = (GROUP_TIME.as_nanos() / each.max(1)).clamp(1, LARGEST_GROUP as u128);
    group.store(fits as usize, Ordering::Relaxed);
    items
}

/// An input argument opened: the name it is reported under, and its reader.
pub type Opened = (Arc<str>, io::Result<BufReader<Box<dyn io::Read + Send>>>);

/// Opens an input argument: `-` for standard input (`<stdin>`), any existing path, or a
/// puzzle typed as the argument (`<argument>`): at least 81 characters and no `/`, naming
/// no path. Anything else is a path that cannot be opened, and the error says so.
pub fn open(name: &Path) -> Opened {
    const CAPACITY: usize = 1 << 18;
    let typed = name
        .to_str()
        .filter(|text| text.chars().count() >= 81 && !text.contains('/') && !name.exists());
    let (shown, source): (Arc<str>, io::Result<Box<dyn io::Read + Send>>) =
        if name.as_os_str() == "-" {
            ("<stdin>".into(), Ok(Box::new(io::stdin())))
        } else if let Some(text) = typed {
            let text = io::Cursor::new(text.to_owned().into_bytes());
            ("<argument>".into(), Ok(Box::new(text)))
        } else {
            let file = File::open(name).map(|f| Box::new(f) as Box<dyn io::Read + Send>);
            (name.to_string_lossy().into(), file)
        };
    (shown, source.map(|s| BufReader::with_capacity(CAPACITY, s)))
}

/// What reading the inputs hands on, in input order.
enum Reading<'a> {
    /// A record and where it was read.
    Record(ReadRecord<'a>),
    /// An input that could not be opened or read any further, after its records read.
    Unreadable(String),
}

/// A record as read: its input's name, the bytes read up to its end over all inputs, and
/// whether the input has nothing more buffered (the next read may wait).
struct ReadRecord<'a> {
    file: &'a Arc<str>,
    record: Record,
    bytes: u64,
    idle: bool,
}

/// Reads every input in turn and hands each record, and each input that cannot be opened or
/// read, to `each`; stops at the first `Err` from `each` and returns it.
fn read_inputs<E>(
    names: &[PathBuf],
    defer_repeats: bool,
    mut each: impl FnMut(Reading<'_>) -> Result<(), E>,
) -> Result<(), E> {
    let mut before = 0;
    for name in names {
        let (file, reader) = open(name);
        let text = match reader {
            Err(e) => format!("cannot open {}: {e}", name.display()),
            Ok(reader) => {
                let mut recs = records(reader);
                if defer_repeats {
                    recs = recs.deferring_repeats();
                }
                let read = loop {
                    match recs.next() {
                        None => break Ok(()),
                        Some(Err(e)) => break Err(e),
                        Some(Ok(record)) => each(Reading::Record(ReadRecord {
                            file: &file,
                            record,
                            bytes: before + recs.bytes_read(),
                            idle: recs.get_ref().buffer().is_empty(),
                        }))?,
                    }
                };
                before += recs.bytes_read();
                match read {
                    Ok(()) => continue,
                    Err(e) => format!("cannot read {}: {e}", name.display()),
                }
            }
        };
        each(Reading::Unreadable(text))?;
    }
    Ok(())
}

/// Reads every input in turn into chunks, cut at [`CHUNK`] records and wherever the input
/// has nothing more buffered. An input that cannot be opened or read becomes a message in
/// its place, and the others are still read.
fn read_all(names: &[PathBuf], defer_repeats: bool, tx: &SyncSender<Incoming>) {
    let mut chunk = Vec::new();
    let mut sent = 0;
    // An `Err` means nobody is listening any more.
    let read = read_inputs(names, defer_repeats, |read| match read {
        Reading::Record(read) => {
            chunk.push((read.file.clone(), read.record));
            sent = read.bytes;
            if chunk.len() == CHUNK || read.idle {
                tx.send(Incoming::Chunk(std::mem::take(&mut chunk), sent))?;
            }
            Ok(())
        }
        Reading::Unreadable(text) => {
            // What was read before the failure keeps its place ahead of the message.
            if !chunk.is_empty() {
                tx.send(Incoming::Chunk(std::mem::take(&mut chunk), sent))?;
            }
            tx.send(Incoming::Unreadable(text))
        }
    });
    if read.is_ok() && !chunk.is_empty() {
        let _ = tx.send(Incoming::Chunk(chunk, sent));
    }
}

/// Writes the finished groups in input order; stops at the first failed write.
fn write_all<T, R, F>(
    rx: Receiver<(u64, Done<T>)>,
    file: Option<File>,
    printer: &dyn Printer<R>,
    write: &mut F,
    progress: ProgressBar,
) -> Result<Summary>
where
    F: FnMut(&mut Sink<'_, R>, Worked<T>) -> io::Result<()>,
{
    let mut sink = Sink::new(file, printer, progress)?;
    let mut summary = Summary::default();
    let mut waiting: BTreeMap<u64, Done<T>> = BTreeMap::new();
    let mut next = 0u64;
    let mut received = rx.recv().ok();
    while let Some((seq, done)) = received {
        waiting.insert(seq, done);
        while let Some(done) = waiting.remove(&next) {
            match done {
                Done::Unreadable(text) => {
                    next += 1;
                    write_unreadable(&mut sink, &mut summary, &text)?;
                }
                Done::Group(items, bytes) => {
                    next += items.len() as u64;
                    for item in items {
                        write_item(&mut sink, &mut summary, item, write)?;
                    }
                    sink.progress.set_position(bytes);
                }
            }
        }
        received = match rx.try_recv() {
            Ok(more) => Some(more),
            Err(TryRecvError::Empty) => {
                // Nothing else is ready: let the reader of our output see what we have.
                sink.flush()?;
                rx.recv().ok()
            }
            Err(TryRecvError::Disconnected) => None,
        };
    }
    sink.finish()?;
    Ok(summary)
}

/// Reads, works and writes every record in turn, in the calling thread: the pipeline for one
/// worker. Output is flushed whenever the input has nothing more buffered, as the reader
/// thread cuts its chunks, so an interactive producer still sees its answers at once, and
/// whenever a group's time has passed, so a slow command's results come out steadily. The
/// clock is read every `stride` records, a stride sized like the pipeline's groups.
fn in_turn<T, R, W, F>(
    names: &[PathBuf],
    defer_repeats: bool,
    file: Option<File>,
    printer: &dyn Printer<R>,
    work: &W,
    write: &mut F,
    progress: ProgressBar,
) -> Result<Summary>
where
    W: Fn(&Grid) -> T,
    F: FnMut(&mut Sink<'_, R>, Worked<T>) -> io::Result<()>,
{
    let mut sink = Sink::new(file, printer, progress)?;
    let mut summary = Summary::default();
    let (mut stride, mut since, mut flushed) = (1, 0, Instant::now());
    read_inputs(names, defer_repeats, |read| match read {
        Reading::Record(read) => {
            let item = work_record(read.file.clone(), read.record, work);
            write_item(&mut sink, &mut summary, item, write)?;
            since += 1;
            if since == stride || read.idle {
                let now = Instant::now();
                let taken = now - flushed;
                stride = if taken < GROUP_TIME {
                    (stride * 2).min(LARGEST_GROUP)
                } else {
                    (stride / 2).max(1)
                };
                since = 0;
                if taken >= GROUP_TIME || read.idle {
                    sink.progress.set_position(read.bytes);
                    sink.flush()?;
                    flushed = now;
                }
            }
            Ok(())
        }
        Reading::Unreadable(text) => write_unreadable(&mut sink, &mut summary, &text),
    })?;
    sink.finish()?;
    Ok(summary)
}

/// The item of one record: where it came from, and the work's result or why it could not
/// be read.
// Inlined, so that the item is built where it is written, not moved there.
#[inline(always)]
fn work_record<T>(file: Arc<str>, record: Record, work: &impl Fn(&Grid) -> T) -> Item<T> {
    let place = Place {
        file,
        line: record.line,
        trailing: record.trailing,
    };
    let worked = record.puzzle.map(|puzzle| (puzzle, work(&puzzle)));
    (place, worked)
}

/// Reports an input that could not be opened or read, in its place, and counts it.
fn write_unreadable<R>(
    sink: &mut Sink<'_, R>,
    summary: &mut Summary,
    text: &str,
) -> io::Result<()> {
    summary.errors += 1;
    sink.tell(&format!("sudokit: {text}"))
}

/// Writes one record, worked or an error record in its place, and counts it.
#[inline(always)]
fn write_item<T, R, F>(
    sink: &mut Sink<'_, R>,
    summary: &mut Summary,
    (place, worked): Item<T>,
    write: &mut F,
) -> io::Result<()>
where
    F: FnMut(&mut Sink<'_, R>, Worked<T>) -> io::Result<()>,
{
    summary.records += 1;
    match worked {
        Ok((puzzle, result)) => write(
            sink,
            Worked {
                place,
                puzzle,
                result,
            },
        ),
        Err(e) => {
            summary.errors += 1;
            sink.reject(&place, None, &located(&place.file, &e))
        }
    }
}

/// A byte-based progress bar on stderr when stderr is a terminal and the results go
/// elsewhere (a file, a pipe); results on the terminal are their own progress.
fn progress_bar(names: &[PathBuf], to_file: bool) -> ProgressBar {
    if !io::stderr().is_terminal() || (io::stdout().is_terminal() && !to_file) {
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
