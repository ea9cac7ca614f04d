//! `sudokit`: the command-line face of the sudokit library.
//!
//! Each subcommand is a module with its arguments and a `run` returning its [`Outcome`];
//! batch subcommands share [`batch`], the streaming, parallel, order-keeping pipeline, and
//! hand their records to a [`printer`], one per output format. The exit status is set here,
//! once.

mod batch;
mod canon;
mod explain;
mod generate;
mod hint;
mod output;
mod printer;
mod rate;
mod same;
mod serve;
mod solve;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use clap_complete::Shell;

use crate::output::{is_closed_pipe, message, Outcome};

/// The hardest ratings allocate and free millions of small chain vectors across two or more
/// threads; mimalloc serves them with a fraction of glibc's instructions (about 3% of the
/// slowest rating's whole work went to glibc's malloc, free and realloc). Without
/// transparent huge pages (`no_thp`): mimalloc asks for them, and the kernel then zeroes
/// two megabytes at the first touch of each; that was a sixth of solving 17-clue puzzles,
/// and the ratings are no slower without them.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A sudoku engine: solve, explain, rate, canonicalise and generate puzzles.
///
/// Every batch command is a line filter: it reads puzzles from files or standard input
/// (81-character lines, drawn grids, Project Euler blocks) and writes one record per puzzle,
/// in input order, keeping each puzzle's trailing text.
#[derive(Parser, Debug)]
#[command(name = "sudokit", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve puzzles: solutions, counts, every solution, search statistics.
    Solve(solve::SolveArgs),
    /// Explain puzzles step by step, each deduction named as HoDoKu names it.
    Explain(explain::ExplainArgs),
    /// Show the next step only, in rising detail.
    Hint(hint::HintArgs),
    /// Rate puzzles: Sudoku Explainer ER/EP/ED, assumptions, guesses, level.
    Rate(rate::RateArgs),
    /// Generate unique puzzles: minimal, symmetric, by clues, pattern, rating or technique.
    Generate(generate::GenerateArgs),
    /// Canonicalise puzzles (minlex form), optionally dropping equivalent duplicates.
    Canon(canon::CanonArgs),
    /// Tell whether two puzzles are equivalent and print the transform between them.
    Same(same::SameArgs),
    /// Serve the HTTP JSON API (solve, rate, canon, hint, explain, generate).
    Serve(serve::ServeArgs),
    /// Print a shell completion script (`sudokit completions bash > ~/.local/share/bash-completion/completions/sudokit`).
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: Shell,
    },
    /// Print the manual page in roff (`sudokit man > sudokit.1; man ./sudokit.1`).
    Man,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Hint(args) => hint::run(args),
        Command::Rate(args) => rate::run(args),
        Command::Canon(args) => canon::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Same(args) => same::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Completions { shell } => completions(*shell),
        Command::Man => manual(),
    };
    match outcome {
        Ok(outcome) => ExitCode::from(outcome.status()),
        // The reader of our output (or of our messages) went away: nothing left to say.
        Err(e) if is_closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Nowhere to say it if stderr is closed too.
            let _ = message(&format!("sudokit: {e:#}"));
            ExitCode::from(2)
        }
    }
}

/// Writes a completion script for `shell` on stdout.
fn completions(shell: Shell) -> anyhow::Result<Outcome> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "sudokit", &mut script);
    io::stdout().lock().write_all(&script)?;
    Ok(Outcome::default())
}

/// Writes the manual page, made from the same definitions as `--help`, on stdout.
fn manual() -> anyhow::Result<Outcome> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    io::stdout().lock().write_all(&page)?;
    Ok(Outcome::default())
}
