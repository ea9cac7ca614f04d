//! The API in-process: every endpoint's answer checked against the library, and every
//! error path.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use sudokit::{solver, Grid};
use sudokit_server::{router, Config};
use tower::ServiceExt;

/// Arto Inkala's 2012 puzzle: unique, ER 10.7.
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
/// Singles, pointing, a naked pair and an X-Wing.
const XWING: &str =
    "....2.65.6.2.14...4....8.2..71......83.....16......78..6.5....3...14.5.8.84.9....";
/// Inkala 2012 with r1c1 emptied: several solutions.
const MULTIPLE: &str =
    "...........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// Posts `body` (raw text) to `path`; returns the status and the JSON answer.
async fn post_raw(config: &Config, path: &str, body: &str) -> (StatusCode, Value) {
    let request = Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = router(config).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value)
}

async fn post(path: &str, body: Value) -> (StatusCode, Value) {
    post_raw(&Config::default(), path, &body.to_string()).await
}

#[tokio::test]
async fn solve_answers_the_cli_record() {
    let (status, answer) = post("/api/solve", json!({ "puzzle": INKALA })).await;
    assert_eq!(status, StatusCode::OK);
    let solution: Grid = answer["solution"].as_str().unwrap().parse().unwrap();
    assert!(solution.is_solution_of(&INKALA.parse().unwrap()));
    assert_eq!(answer["status"], "unique");
    let (_, several) = post("/api/solve", json!({ "puzzle": MULTIPLE, "count": 5 })).await;
    let expected = solver::count(&MULTIPLE.parse().unwrap(), 5).count;
    assert_eq!(several["count"], expected);
    assert_eq!(several["status"], "solved");
    assert!(several.get("file").is_none(), "no input place over HTTP");
}

#[tokio::test]
async fn rate_canon_hint_and_explain_answer_their_records() {
    let (status, rated) = post("/api/rate", json!({ "puzzle": INKALA })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (
            rated["er"].as_str(),
            rated["ep"].as_str(),
            rated["ed"].as_str()
        ),
        (Some("10.7"), Some("10.7"), Some("9.7"))
    );
    let (_, canon) = post("/api/canon", json!({ "puzzle": INKALA, "zeros": true })).await;
    let form = sudokit::canon::minlex(&INKALA.parse().unwrap()).0;
    assert_eq!(canon["canonical"], sudokit::format::line(&form, '0'));
    let (_, hint) = post("/api/hint", json!({ "puzzle": XWING, "level": 2 })).await;
    assert_eq!(
        hint["hint"],
        "Look for a Hidden Single on digit 8 in box 1."
    );
    let (_, explained) = post("/api/explain", json!({ "puzzle": XWING })).await;
    assert_eq!(explained["solved"], true);
    assert_eq!(explained["hardest"], "X-Wing");
    assert!(explained["steps"].as_array().unwrap().len() > 10);
}

#[tokio::test]
async fn positions_come_from_marks_too() {
    let marks = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/xy_wing_marks.txt"
    ))
    .unwrap();
    let (status, hint) = post("/api/hint", json!({ "marks": marks, "level": 3 })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(hint["hint"], "Hidden Single: r2c6=3 in box 2");
    let (status, both) = post("/api/hint", json!({ "marks": marks, "puzzle": XWING })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(both["error"].as_str().unwrap().contains("either"));
}

#[tokio::test]
async fn bad_requests_answer_400_with_the_reason() {
    let cases: [(&str, &str, &str); 8] = [
        ("/api/solve", "{not json", "bad request"),
        ("/api/solve", r#"{"puzle": "1"}"#, "unknown field `puzle`"),
        (
            "/api/solve",
            r#"{"puzzle": "12x"}"#,
            "puzzle:1:3: bad character 'x'",
        ),
        (
            "/api/solve",
            &format!(r#"{{"puzzle": "11{}"}}"#, ".".repeat(79)),
            "digit 1 twice in row 1",
        ),
        (
            "/api/solve",
            &format!(r#"{{"puzzle": "{INKALA}", "count": 0}}"#),
            "at least 1",
        ),
        (
            "/api/rate",
            &format!(r#"{{"puzzle": "{INKALA}", "max_level": 9}}"#),
            "at most 5",
        ),
        (
            "/api/hint",
            &format!(r#"{{"puzzle": "{XWING}", "level": 4}}"#),
            "1, 2 or 3",
        ),
        (
            "/api/explain",
            &format!(r#"{{"puzzle": "{XWING}", "techniques": "x-wng"}}"#),
            "did you mean x-wing?",
        ),
    ];
    for (path, body, why) in cases {
        let (status, answer) = post_raw(&Config::default(), path, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path} {body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(why),
            "{path} {body}: {answer}"
        );
    }
}

#[tokio::test]
async fn puzzles_without_one_solution_are_answered_as_the_cli_does() {
    let (status, answer) = post("/api/rate", json!({ "puzzle": MULTIPLE })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer["puzzle"], MULTIPLE);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("more than one solution"),
        "{answer}"
    );
    let (status, hint) = post("/api/hint", json!({ "puzzle": MULTIPLE })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(hint["error"], "multiple solutions: no hint can be given");
}

#[tokio::test]
async fn limits_hold() {
    let small = Config {
        body_limit: 100,
        ..Config::default()
    };
    let (status, _) = post_raw(
        &small,
        "/api/solve",
        &json!({ "puzzle": "1".repeat(200) }).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // Work past the time limit answers 503 rather than holding the connection.
    let hasty = Config {
        time_limit: Duration::ZERO,
        ..Config::default()
    };
    let (status, answer) = post_raw(
        &hasty,
        "/api/rate",
        &json!({ "puzzle": INKALA }).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(answer["error"].as_str().unwrap().contains("took longer"));
    let (status, _) = post_raw(&Config::default(), "/api/nothing", "{}").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
