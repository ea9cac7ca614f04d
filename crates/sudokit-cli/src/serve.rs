//! `sudokit serve`: the engine as an HTTP JSON API, on loopback unless told otherwise.

use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use sudokit_server::Config;

use crate::output::{message, Outcome};

/// Serve the HTTP JSON API: `POST /api/solve`, `/api/rate`, `/api/canon`, `/api/hint`,
/// `/api/explain` and `/api/generate` take `{"puzzle": "..."}` and the command's options as
/// fields, and answer with the record `--format json` writes; `GET /api/openapi.json`
/// describes them. Ctrl-C or SIGTERM stops it after the requests
/// under way.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (port 0 picks a free port, shown on stderr).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    addr: String,

    /// Requests worked on at once (default: one per core). Slow ones (rate, explain,
    /// generate, pictures) get all but one of them, so quick ones always have a thread.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=512))]
    threads: Option<u16>,

    /// Seconds a request's work may take before it answers 503.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    time_limit: u64,

    /// Let pages of other origins call the API (CORS).
    #[arg(long)]
    cors: bool,

    /// Open the page in the desktop's browser once serving.
    #[arg(long)]
    open: bool,
}

/// Runs `sudokit serve` until it is stopped.
pub fn run(args: &ServeArgs) -> Result<Outcome> {
    let mut config = Config {
        time_limit: Duration::from_secs(args.time_limit),
        cors: args.cors,
        ..Config::default()
    };
    if let Some(threads) = args.threads {
        config.quick = usize::from(threads);
        config.slow = usize::from(threads).saturating_sub(1).max(1);
    }
    sudokit_server::run(&args.addr, &config, |bound| {
        let _ = message(&format!(
            "sudokit: serving the page on http://{bound}/ and the API on http://{bound}/api/ (Ctrl-C stops)"
        ));
        if args.open {
            open_browser(&format!("http://{bound}/"));
        }
    })
    .with_context(|| format!("cannot serve on {}", args.addr))?;
    Ok(Outcome::default())
}

/// Asks the desktop to open `url`; says so on stderr when it cannot.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if std::process::Command::new(opener).arg(url).spawn().is_err() {
        let _ = message(&format!("sudokit: cannot open a browser; visit {url}"));
    }
}
