//! `sudokit serve`: the engine as an HTTP JSON API, and a web page over it (`GET /`) to
//! play and learn with: type or paste a puzzle, hints in three levels, the whole
//! explanation step by step, the rating, checking entries, undo, dark mode.
//!
//! Every endpoint takes a JSON object with a `puzzle` (any text the CLI reads as one puzzle:
//! a line, a drawn grid) and the command's options as fields, and answers with the record
//! the CLI's `--format json` writes for that puzzle ([`sudokit::wire`]), without the input
//! place (`file`, `line`, `trailing`) that only files have:
//!
//! | endpoint | request fields | answer |
//! |---|---|---|
//! | `POST /api/solve` | `puzzle`, `count` (a limit: count solutions up to it) | `SolveRecord` |
//! | `POST /api/rate` | `puzzle`, `max_level` (0–5) | `RatingRecord`; 422 and `{puzzle, error}` without a unique solution |
//! | `POST /api/canon` | `puzzle`, `zeros` | `CanonRecord` |
//! | `POST /api/hint` | `puzzle` or `marks`, `level` (1–3), `techniques` or `rules` (`se`) | `HintRecord` |
//! | `POST /api/explain` | `puzzle` or `marks`, `techniques` or `rules` (`se`) | `ExplainRecord` |
//! | `POST /api/picture` | `puzzle` (the givens), `marks`, `step` (a step of the explanation from `marks`) or `hint`, `techniques` | the SVG picture `explain --svg` draws |
//! | `POST /api/generate` | `seed`, `index`, `symmetry`, `clues`, `minimal`, `er`, `level`, `techniques`, `first_hard`, `practice`, `pattern`, `rate` | `GeneratedRecord`; 503 when nothing met the target in time |
//!
//! `GET /api/openapi.json` describes all of it.
//!
//! A request that cannot be read (bad JSON, an unknown field, a bad puzzle, a bad option)
//! answers 400 with `{"error": ...}`, naming the place as the CLI does
//! (`puzzle:1:46: bad character 'x' ...`). Work runs on blocking threads, never on the
//! threads that serve connections: quick work (solve, canon, hint) and slow work (rate,
//! explain, generate) have their own bounds, so a burst of hard ratings cannot starve quick answers,
//! and work that takes longer than the time limit answers 503 (it finishes in the
//! background, still holding its place, so load stays bounded). Bodies are limited in
//! size; the server binds where it is told (the CLI's default is loopback) and reads no file.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::json;
use sudokit::candidates::Candidates;
use sudokit::canon::canonicalize;
use sudokit::generate::{self, Budget, GaveUp, Generator, Spec, Symmetry};
use sudokit::logic::tutor::{self, Hint};
use sudokit::logic::TechniqueSet;
use sudokit::parse::parse;
use sudokit::rate::{self, Level, RateOptions, Tenths, MAX_LEVEL};
use sudokit::step::Technique;
use sudokit::wire::{
    CanonRecord, ExplainRecord, GeneratedRecord, HintRecord, RatingRecord, SolveRecord,
};
use sudokit::{render, solver, Grid, ParseError};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower_http::cors::CorsLayer;

/// How the server bounds its work.
#[derive(Clone, Debug)]
pub struct Config {
    /// Slow requests (rate, explain) worked on at once; more wait their turn.
    pub slow: usize,
    /// Quick requests (solve, canon, hint) worked on at once.
    pub quick: usize,
    /// How long a request's work may take before it answers 503.
    pub time_limit: Duration,
    /// The largest request body, in bytes.
    pub body_limit: usize,
    /// Whether pages of other origins may call the API (CORS); off by default, so that a
    /// page elsewhere cannot use a server someone runs on their own machine.
    pub cors: bool,
}

impl Default for Config {
    /// Slow work on all cores but one, quick work on all of them, 10 s, 64 KiB, no CORS.
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Config {
            slow: cores.saturating_sub(1).max(1),
            quick: cores,
            time_limit: Duration::from_secs(10),
            body_limit: 64 * 1024,
            cors: false,
        }
    }
}

/// What every handler shares: the bounds on work.
#[derive(Clone)]
struct Bounds {
    slow: Arc<Semaphore>,
    quick: Arc<Semaphore>,
    time_limit: Duration,
}

/// The API's routes, with their limits.
pub fn router(config: &Config) -> Router {
    let bounds = Bounds {
        slow: Arc::new(Semaphore::new(config.slow.max(1))),
        quick: Arc::new(Semaphore::new(config.quick.max(1))),
        time_limit: config.time_limit,
    };
    let routes = Router::new()
        .route("/api/solve", post(solve))
        .route("/api/rate", post(rate))
        .route("/api/canon", post(canon))
        .route("/api/hint", post(hint))
        .route("/api/explain", post(explain))
        .route("/api/generate", post(generate))
        .route("/api/picture", post(picture))
        .route("/api/openapi.json", get(openapi))
        .route("/", get(page))
        .layer(DefaultBodyLimit::max(config.body_limit))
        .with_state(bounds);
    if config.cors {
        routes.layer(CorsLayer::permissive())
    } else {
        routes
    }
}

/// Serves the API on `listener` until `shutdown` completes, then finishes the requests
/// under way.
pub async fn serve(
    listener: TcpListener,
    config: &Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    axum::serve(listener, router(config))
        .with_graceful_shutdown(shutdown)
        .await
}

/// Binds `addr` and serves until Ctrl-C or SIGTERM, on a runtime of its own: what `sudokit
/// serve` runs. `ready` is told the address bound (the port, when `addr` asked for any).
pub fn run(addr: &str, config: &Config, ready: impl FnOnce(SocketAddr)) -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        serve(listener, config, stopped()).await
    })
}

/// Completes on Ctrl-C, or on SIGTERM where there are signals.
async fn stopped() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}

/// The web page: one file, its script and styles inline, so the binary serves it with
/// nothing else to install and it makes no request but to this API.
const PAGE: &str = include_str!("page/index.html");

async fn page() -> Response {
    (
        [
            ("content-type", "text/html; charset=utf-8"),
            (
                "content-security-policy",
                "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'",
            ),
        ],
        PAGE,
    )
        .into_response()
}

/// The OpenAPI document of these endpoints, which the tests hold every answer to.
pub const OPENAPI: &str = include_str!("openapi.json");

async fn openapi() -> Response {
    ([("content-type", "application/json")], OPENAPI).into_response()
}

/// An answer that is not a record: its status and message.
#[derive(Debug)]
struct Failure {
    status: StatusCode,
    body: serde_json::Value,
}

impl Failure {
    /// 400: the request could not be read.
    fn bad(error: impl ToString) -> Failure {
        Failure {
            status: StatusCode::BAD_REQUEST,
            body: json!({ "error": error.to_string() }),
        }
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

type Answer<T> = Result<Json<T>, Failure>;

/// The request body as `T`, or 400 naming what is wrong with it.
fn read<T: DeserializeOwned>(body: &Bytes) -> Result<T, Failure> {
    serde_json::from_slice(body).map_err(|e| Failure::bad(format!("bad request: {e}")))
}

/// The puzzle of a request, or 400 with the CLI's positioned message.
fn puzzle(text: &str) -> Result<Grid, Failure> {
    parse(text).map_err(|e: ParseError| {
        Failure::bad(format!("puzzle:{}:{}: {}", e.line, e.column, e.kind))
    })
}

/// The position of a hint or explain request: its `marks`, or its `puzzle`'s candidates.
fn position(puzzle_text: Option<&str>, marks: Option<&str>) -> Result<Candidates, Failure> {
    match (puzzle_text, marks) {
        (Some(text), None) => Ok(Candidates::new(&puzzle(text)?)),
        (None, Some(marks)) => {
            Candidates::from_pencil_marks(marks).map_err(|e| Failure::bad(format!("marks: {e}")))
        }
        _ => Err(Failure::bad("give either `puzzle` or `marks`")),
    }
}

/// The technique set a request names (`all` when it names none).
fn techniques(list: Option<&str>) -> Result<TechniqueSet, Failure> {
    TechniqueSet::parse(list.unwrap_or("all")).map_err(Failure::bad)
}

/// Runs `work` on a blocking thread within the bound `slow` picks, or answers 503 when it
/// takes longer than the time limit.
async fn work<T: Send + 'static>(
    bounds: &Bounds,
    slow: bool,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Failure> {
    let semaphore = if slow { &bounds.slow } else { &bounds.quick };
    let permit = Arc::clone(semaphore)
        .acquire_owned()
        .await
        .map_err(|_| Failure::bad("the server is shutting down"))?;
    let task = tokio::task::spawn_blocking(move || {
        let done = work();
        drop(permit);
        done
    });
    match tokio::time::timeout(bounds.time_limit, task).await {
        Ok(Ok(done)) => Ok(done),
        Ok(Err(_)) => Err(Failure {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            body: json!({ "error": "the work failed" }),
        }),
        Err(_) => Err(Failure {
            status: StatusCode::SERVICE_UNAVAILABLE,
            body: json!({
                "error": format!("the work took longer than {} s", bounds.time_limit.as_secs_f64())
            }),
        }),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveRequest {
    puzzle: String,
    /// Count solutions up to this limit (the CLI's `--count=LIMIT`).
    count: Option<usize>,
}

async fn solve(State(bounds): State<Bounds>, body: Bytes) -> Answer<SolveRecord> {
    let request: SolveRequest = read(&body)?;
    let grid = puzzle(&request.puzzle)?;
    if request.count == Some(0) {
        return Err(Failure::bad("count: the limit is at least 1"));
    }
    let counting = request.count.is_some();
    let limit = request.count.unwrap_or(2);
    let record = work(&bounds, false, move || {
        SolveRecord::new(&grid, &solver::count(&grid, limit), limit, counting, None)
    })
    .await?;
    Ok(Json(record))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RateRequest {
    puzzle: String,
    /// The deepest nesting of forcing chains searched (the CLI's `--max-level`).
    max_level: Option<u8>,
}

async fn rate(State(bounds): State<Bounds>, body: Bytes) -> Answer<RatingRecord> {
    let request: RateRequest = read(&body)?;
    let grid = puzzle(&request.puzzle)?;
    let max_level = request.max_level.unwrap_or(MAX_LEVEL);
    if max_level > MAX_LEVEL {
        return Err(Failure::bad(format!("max_level: at most {MAX_LEVEL}")));
    }
    let options = RateOptions {
        max_level,
        ..RateOptions::default()
    };
    let rated = work(&bounds, true, move || rate::rate(&grid, &options)).await?;
    match rated {
        Ok(rating) => Ok(Json(RatingRecord::new(&grid, &rating))),
        Err(e) => Err(Failure {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            body: json!({ "puzzle": grid.to_string(), "error": e.to_string() }),
        }),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CanonRequest {
    puzzle: String,
    /// Write blanks as `0` (the CLI's `--zeros`).
    #[serde(default)]
    zeros: bool,
}

async fn canon(State(bounds): State<Bounds>, body: Bytes) -> Answer<CanonRecord> {
    let request: CanonRequest = read(&body)?;
    let grid = puzzle(&request.puzzle)?;
    let blank = if request.zeros { '0' } else { '.' };
    let record = work(&bounds, false, move || {
        CanonRecord::new(&grid, &canonicalize(&grid), blank)
    })
    .await?;
    Ok(Json(record))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HintRequest {
    puzzle: Option<String>,
    marks: Option<String>,
    /// 1 names the technique, 2 adds where to look, 3 gives the whole step.
    level: Option<u8>,
    techniques: Option<String>,
    rules: Option<String>,
}

async fn hint(State(bounds): State<Bounds>, body: Bytes) -> Answer<HintRecord> {
    let request: HintRequest = read(&body)?;
    let cands = position(request.puzzle.as_deref(), request.marks.as_deref())?;
    let set = techniques(request.techniques.as_deref())?;
    let level = request.level.unwrap_or(1);
    if !(1..=3).contains(&level) {
        return Err(Failure::bad("level: 1, 2 or 3"));
    }
    let se = se_rules(request.rules.as_deref(), request.techniques.as_deref())?;
    let found: Hint = work(&bounds, se, move || {
        if se {
            tutor::hint_se(&cands)
        } else {
            tutor::hint(&cands, &set)
        }
    })
    .await?;
    Ok(Json(HintRecord::new(&found, level)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainRequest {
    puzzle: Option<String>,
    marks: Option<String>,
    techniques: Option<String>,
    rules: Option<String>,
}

/// Whether a request asks for Sudoku Explainer's path (`"rules": "se"`, which takes no
/// technique list) rather than the logic engine (`"default"`, or no `rules`).
fn se_rules(rules: Option<&str>, techniques: Option<&str>) -> Result<bool, Failure> {
    match (rules, techniques) {
        (None | Some("default"), _) => Ok(false),
        (Some("se"), None) => Ok(true),
        (Some("se"), Some(_)) => Err(Failure::bad("rules: se takes no techniques")),
        (Some(_), _) => Err(Failure::bad("rules: default or se")),
    }
}

async fn explain(State(bounds): State<Bounds>, body: Bytes) -> Answer<ExplainRecord> {
    let request: ExplainRequest = read(&body)?;
    let cands = position(request.puzzle.as_deref(), request.marks.as_deref())?;
    let set = techniques(request.techniques.as_deref())?;
    let se = se_rules(request.rules.as_deref(), request.techniques.as_deref())?;
    let record = work(&bounds, true, move || {
        let grid = *cands.grid();
        let explained = if se {
            tutor::explain_se(cands)
        } else {
            tutor::explain(cands, &set)
        };
        ExplainRecord::new(&grid, &explained, &set)
    })
    .await?;
    Ok(Json(record))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GenerateRequest {
    /// The run's seed (default: from the clock) and the puzzle's number in it.
    seed: Option<u64>,
    index: Option<u64>,
    symmetry: Option<String>,
    /// The clue count, inclusive: `[min, max]`.
    clues: Option<[usize; 2]>,
    minimal: Option<bool>,
    /// The ER range, inclusive: `[min, max]`, such as `[9.0, 12.0]`.
    er: Option<[f64; 2]>,
    level: Option<String>,
    #[serde(default)]
    techniques: Vec<String>,
    first_hard: Option<String>,
    practice: Option<String>,
    /// The cells to give, marked as `generate --pattern` reads them.
    pattern: Option<String>,
    /// Rate the puzzle even without an ER target.
    #[serde(default)]
    rate: bool,
}

/// A technique a request names, or 400 with the nearest name.
fn technique(field: &str, name: &str) -> Result<Technique, Failure> {
    Technique::parse(name).map_err(|e| Failure::bad(format!("{field}: {e}")))
}

/// The ER of a JSON number (`9.0`): tenths, rounded.
fn tenths(field: &str, er: f64) -> Result<Tenths, Failure> {
    if !(0.0..=6553.5).contains(&er) {
        return Err(Failure::bad(format!("{field}: {er} is not a rating")));
    }
    Ok(Tenths((er * 10.0).round() as u16))
}

async fn generate(State(bounds): State<Bounds>, body: Bytes) -> Answer<GeneratedRecord> {
    let request: GenerateRequest = read(&body)?;
    let symmetry: Symmetry = match &request.symmetry {
        Some(name) => name
            .parse()
            .map_err(|e| Failure::bad(format!("symmetry: {e}")))?,
        None => Symmetry::None,
    };
    let er = match (&request.er, &request.level) {
        (Some(_), Some(_)) => return Err(Failure::bad("give `er` or `level`, not both")),
        (Some([min, max]), None) => Some((tenths("er", *min)?, tenths("er", *max)?)),
        (None, Some(word)) => {
            let level = Level::from_word(word)
                .ok_or_else(|| Failure::bad(format!("level: unknown level {word:?}")))?;
            Some(level.ers())
        }
        (None, None) => None,
    };
    let pattern = match &request.pattern {
        Some(text) => {
            Some(generate::pattern(text).map_err(|e| Failure::bad(format!("pattern: {e}")))?)
        }
        None => None,
    };
    let [low, high] = request.clues.unwrap_or([17, 81]);
    let spec = Spec {
        symmetry,
        clues: (low, high),
        minimal: request.minimal.unwrap_or(true),
        pattern,
        er,
        techniques: request
            .techniques
            .iter()
            .map(|name| technique("techniques", name))
            .collect::<Result<_, _>>()?,
        hardest: request
            .first_hard
            .as_deref()
            .map(|name| technique("first_hard", name))
            .transpose()?,
        practice: request
            .practice
            .as_deref()
            .map(|name| technique("practice", name))
            .transpose()?,
        from: Vec::new(),
    };
    let generator =
        Generator::new(spec).map_err(|e| Failure::bad(format!("impossible target: {e}")))?;
    let seed = request.seed.unwrap_or_else(generate::seed_from_clock);
    let index = request.index.unwrap_or(0);
    let budget = Budget {
        attempts: u64::MAX,
        deadline: Some(Instant::now() + bounds.time_limit),
    };
    let rate_it = request.rate;
    let made = work(&bounds, true, move || {
        let made = generator.generate(seed, index, &budget)?;
        let rating = match &made.rating {
            Some(rating) => Some(rating.clone()),
            None if rate_it => Some(rate::se_rating(&made.puzzle)),
            None => None,
        };
        Ok::<_, GaveUp>((made, rating))
    })
    .await?;
    match made {
        Ok((made, rating)) => Ok(Json(GeneratedRecord::new(
            &made,
            rating.as_ref(),
            symmetry,
            seed,
            index,
        ))),
        Err(gave_up) => Err(Failure {
            status: StatusCode::SERVICE_UNAVAILABLE,
            body: json!({ "error": gave_up.to_string() }),
        }),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PictureRequest {
    /// The givens, told apart from placed digits in the picture.
    puzzle: String,
    /// The position drawn (default: the puzzle's own candidates).
    marks: Option<String>,
    /// Draw step `step` (0-based) of the explanation from the position, on the position
    /// before it.
    step: Option<usize>,
    /// Draw the position's next step.
    #[serde(default)]
    hint: bool,
    techniques: Option<String>,
}

async fn picture(State(bounds): State<Bounds>, body: Bytes) -> Result<Response, Failure> {
    let request: PictureRequest = read(&body)?;
    let givens = puzzle(&request.puzzle)?;
    let start = match &request.marks {
        Some(marks) => position(None, Some(marks))?,
        None => Candidates::new(&givens),
    };
    let set = techniques(request.techniques.as_deref())?;
    if request.hint && request.step.is_some() {
        return Err(Failure::bad("give `step` or `hint`, not both"));
    }
    let (step, hint) = (request.step, request.hint);
    let drawn = work(&bounds, true, move || {
        let engine = sudokit::logic::Engine::new(set).unique(tutor::vouch(&start).is_ok());
        let (state, shown) = match (step, hint) {
            (Some(k), _) => {
                let steps = engine.explain_from(start.clone()).steps;
                let Some(shown) = steps.get(k).cloned() else {
                    return Err(format!("step: the explanation has {} steps", steps.len()));
                };
                let mut state = start;
                for done in &steps[..k] {
                    sudokit::logic::apply(&mut state, done);
                }
                (state, Some(shown))
            }
            (None, true) => {
                let shown = engine.next_step(&start);
                (start, shown)
            }
            (None, false) => (start, None),
        };
        Ok(render::svg(&givens, &state, shown.as_ref()))
    })
    .await?;
    let svg = drawn.map_err(Failure::bad)?;
    Ok(([("content-type", "image/svg+xml")], svg).into_response())
}
