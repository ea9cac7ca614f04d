//! The library's integration tests, one module per area, built as one test binary: one link
//! instead of one per file, and one place for the helpers they share (`common`).

mod common;

mod canon;
mod links;
mod logic;
mod logic_chains;
mod parse;
mod rate;
mod se_path;
mod solver;
mod techniques_doc;
