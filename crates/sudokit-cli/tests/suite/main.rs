//! The `sudokit` command's end-to-end tests, one module per area, built as one test binary:
//! one link instead of one per file, and one place for the helpers they share (`common`).

mod common;

mod canon;
mod docs;
mod explain;
mod generate;
mod rate;
mod robust;
mod serve;
mod solve;
