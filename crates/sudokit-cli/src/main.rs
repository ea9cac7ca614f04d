//! `sudokit`: the command-line face of the sudokit library.
//!
//! Each subcommand is a module with its arguments and a `run` returning the exit status;
//! batch subcommands share [`batch`], the streaming, parallel, order-keeping pipeline.

mod batch;
mod canon;
mod explain;
mod hint;
mod rate;
mod same;
mod solve;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The hardest ratings allocate and free millions of small chain vectors across two or more
/// threads; mimalloc serves them with a fraction of glibc's instructions (about 3% of the
/// slowest rating's whole work went to glibc's malloc, free and realloc).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A sudoku engine: solve, explain, rate and canonicalise puzzles, line by line.
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
    /// Canonicalise puzzles (minlex form), optionally dropping equivalent duplicates.
    Canon(canon::CanonArgs),
    /// Tell whether two puzzles are equivalent and print the transform between them.
    Same(same::SameArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match &cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Hint(args) => hint::run(args),
        Command::Rate(args) => rate::run(args),
        Command::Canon(args) => canon::run(args),
        Command::Same(args) => same::run(args),
    };
    match status {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("sudokit: {e:#}");
            ExitCode::from(2)
        }
    }
}
