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
    let cases: [(&str, &str, &str); 10] = [
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
        (
            "/api/explain",
            &format!(r#"{{"puzzle": "{XWING}", "rules": "se", "techniques": "all"}}"#),
            "se takes no techniques",
        ),
        (
            "/api/hint",
            &format!(r#"{{"puzzle": "{XWING}", "rules": "hodoku"}}"#),
            "default or se",
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

#[tokio::test]
async fn generate_makes_what_was_asked_reproducibly() {
    let ask = json!({ "seed": 5, "index": 3, "symmetry": "rot180", "level": "hard" });
    let (status, made) = post("/api/generate", ask.clone()).await;
    assert_eq!(status, StatusCode::OK, "{made}");
    let puzzle: Grid = made["puzzle"].as_str().unwrap().parse().unwrap();
    assert_eq!(solver::count(&puzzle, 2).count, 1);
    assert!(sudokit::generate::Symmetry::Rot180.holds_for(&puzzle));
    assert_eq!(made["level"], "hard");
    let (_, again) = post("/api/generate", ask).await;
    assert_eq!(made, again, "the same seed and index give the same puzzle");
    let (status, practice) =
        post("/api/generate", json!({ "seed": 1, "practice": "x-wing" })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(practice["next_step"]["technique"], "X-Wing");
    for (ask, why) in [
        (json!({ "clues": [10, 16] }), "fewer than 17"),
        (json!({ "symmetry": "spiral" }), "unknown symmetry"),
        (json!({ "techniques": ["x-wng"] }), "did you mean x-wing?"),
        (json!({ "er": [9.0, 9.5], "level": "easy" }), "not both"),
    ] {
        let (status, answer) = post("/api/generate", ask.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{ask}");
        assert!(
            answer["error"].as_str().unwrap().contains(why),
            "{ask}: {answer}"
        );
    }
}

/// Whether `value` has the shape `schema` (a piece of the OpenAPI document `doc`) gives it:
/// types, required fields, no undeclared fields, recursively. Returns what differs.
fn conforms(value: &Value, schema: &Value, doc: &Value, at: &str) -> Result<(), String> {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.trim_start_matches("#/components/schemas/");
        return conforms(value, &doc["components"]["schemas"][name], doc, at);
    }
    let kind = schema["type"].as_str().unwrap_or("any");
    let fits = match kind {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_u64() || value.is_i64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        _ => true,
    };
    if !fits {
        return Err(format!("{at}: {value} is not {kind}"));
    }
    if let Some(fields) = value.as_object() {
        for name in schema["required"].as_array().into_iter().flatten() {
            let name = name.as_str().unwrap();
            if !fields.contains_key(name) {
                return Err(format!("{at}: `{name}` is missing"));
            }
        }
        for (name, field) in fields {
            let declared = &schema["properties"][name];
            let extra = &schema["additionalProperties"];
            let inner = if !declared.is_null() {
                declared
            } else if extra.is_object() {
                extra
            } else {
                return Err(format!("{at}: `{name}` is not in the document"));
            };
            conforms(field, inner, doc, &format!("{at}.{name}"))?;
        }
    }
    if let Some(items) = value.as_array() {
        for (i, item) in items.iter().enumerate() {
            conforms(item, &schema["items"], doc, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

#[tokio::test]
async fn every_answer_is_what_the_openapi_document_says() {
    let request = Request::get("/api/openapi.json")
        .body(Body::empty())
        .unwrap();
    let response = router(&Config::default()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let doc: Value = serde_json::from_slice(&bytes).unwrap();
    let marks = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/xy_wing_marks.txt"
    ))
    .unwrap();
    let asks = [
        ("/api/solve", json!({ "puzzle": INKALA }), "200"),
        (
            "/api/solve",
            json!({ "puzzle": MULTIPLE, "count": 3 }),
            "200",
        ),
        (
            "/api/rate",
            json!({ "puzzle": INKALA, "max_level": 2 }),
            "200",
        ),
        ("/api/rate", json!({ "puzzle": MULTIPLE }), "422"),
        ("/api/canon", json!({ "puzzle": INKALA }), "200"),
        ("/api/hint", json!({ "puzzle": XWING, "level": 3 }), "200"),
        ("/api/hint", json!({ "marks": marks }), "200"),
        ("/api/hint", json!({ "puzzle": MULTIPLE }), "200"),
        ("/api/explain", json!({ "puzzle": XWING }), "200"),
        (
            "/api/explain",
            json!({ "puzzle": XWING, "rules": "se" }),
            "200",
        ),
        (
            "/api/hint",
            json!({ "puzzle": INKALA, "rules": "se", "level": 3 }),
            "200",
        ),
        ("/api/explain", json!({ "puzzle": MULTIPLE }), "200"),
        ("/api/generate", json!({ "seed": 2, "rate": true }), "200"),
        (
            "/api/generate",
            json!({ "seed": 2, "practice": "xy-wing" }),
            "200",
        ),
        ("/api/solve", json!({ "puzzle": "x" }), "400"),
    ];
    for (path, ask, code) in asks {
        let (status, answer) = post(path, ask.clone()).await;
        assert_eq!(status.as_str(), code, "{path} {ask}: {answer}");
        let operation = &doc["paths"][path]["post"];
        conforms(
            &ask,
            &operation["requestBody"]["content"]["application/json"]["schema"],
            &doc,
            "request",
        )
        .unwrap_or_else(|e| panic!("{path} {ask}: {e}"));
        let schema = &operation["responses"][code]["content"]["application/json"]["schema"];
        assert!(!schema.is_null(), "{path}: no {code} in the document");
        conforms(&answer, schema, &doc, "answer").unwrap_or_else(|e| panic!("{path} {ask}: {e}"));
    }
}

#[tokio::test]
async fn the_page_is_served_whole_and_confined() {
    let request = Request::get("/").body(Body::empty()).unwrap();
    let response = router(&Config::default()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "text/html; charset=utf-8");
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("default-src 'self'"), "{policy}");
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let page = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(page.starts_with("<!doctype html>") && page.contains("/api/hint"));
    // The one address in it is SVG's namespace, a name and not a request.
    let page = page.replace("http://www.w3.org/2000/svg", "");
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "no outside request"
    );
}

#[tokio::test]
async fn cors_is_off_unless_asked_for() {
    let ask = |config: Config| async move {
        let request = Request::post("/api/solve")
            .header("origin", "https://elsewhere.example")
            .body(Body::from(json!({ "puzzle": INKALA }).to_string()))
            .unwrap();
        let response = router(&config).oneshot(request).await.unwrap();
        response
            .headers()
            .get("access-control-allow-origin")
            .cloned()
    };
    assert!(ask(Config::default()).await.is_none());
    let open = Config {
        cors: true,
        ..Config::default()
    };
    assert_eq!(ask(open).await.unwrap(), "*");
}

#[tokio::test]
async fn pictures_are_the_svg_explain_draws() {
    let config = Config::default();
    let ask = |body: Value| {
        let config = config.clone();
        async move {
            let request = Request::post("/api/picture")
                .body(Body::from(body.to_string()))
                .unwrap();
            let response = router(&config).oneshot(request).await.unwrap();
            let status = response.status();
            let kind = response.headers().get("content-type").cloned();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            (status, kind, String::from_utf8(bytes.to_vec()).unwrap())
        }
    };
    let (status, kind, svg) = ask(json!({ "puzzle": XWING, "hint": true })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind.unwrap(), "image/svg+xml");
    assert!(svg.starts_with("<svg") && svg.contains("Hidden Single: r1c3=8 in box 1"));
    let (_, _, plain) = ask(json!({ "puzzle": XWING })).await;
    assert!(!plain.contains("Hidden Single"));
    let (_, _, second) = ask(json!({ "puzzle": XWING, "step": 1 })).await;
    let puzzle: Grid = XWING.parse().unwrap();
    let steps = sudokit::logic::Engine::new(sudokit::logic::TechniqueSet::all())
        .unique(true)
        .explain(&puzzle)
        .steps;
    assert!(second.contains(
        &steps[1]
            .to_string()
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    ));
    let (status, _, _) = ask(json!({ "puzzle": XWING, "step": 999 })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
