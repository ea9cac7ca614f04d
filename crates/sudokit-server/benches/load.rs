//! Load on loopback: `cargo bench -p sudokit-server --bench load`.
//!
//! Serves the API in-process on 127.0.0.1 and drives it with keep-alive HTTP/1.1 clients
//! written here (a request, then its answer read by its length), each for a few seconds:
//! requests per second and p50/p99 latency of `/api/solve` and `/api/hint` with 1, 8 and
//! 64 clients, then 64 quick clients while two more rate puzzles of the forum's hardest
//! list without pause, which must not hold the quick answers up. Every answer must be 200.

#[path = "../../sudokit/tests/suite/common.rs"]
#[allow(dead_code)] // the benchmark uses only the data reader
mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use sudokit_server::{serve, Config};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

/// How long each scenario runs.
const SPELL: Duration = Duration::from_secs(3);

/// The first `take` puzzles of a data file, as the library's tests and benchmarks read them
/// (`data/`, or `SUDOKIT_DATA`).
fn puzzles(name: &str, take: usize) -> Vec<String> {
    common::load(name)
        .iter()
        .take(take)
        .map(ToString::to_string)
        .collect()
}

/// One keep-alive connection: sends `bodies` in turn to `path` until `until`; returns the
/// latency of each request. Panics on any answer but 200.
async fn client(
    addr: SocketAddr,
    path: &'static str,
    bodies: Vec<String>,
    until: Instant,
) -> Vec<Duration> {
    let stream = TcpStream::connect(addr).await.expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    let (read, mut write) = stream.into_split();
    let mut read = BufReader::new(read);
    let mut latencies = Vec::new();
    let mut line = String::new();
    for body in bodies.iter().cycle() {
        if Instant::now() >= until {
            break;
        }
        let started = Instant::now();
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        write.write_all(request.as_bytes()).await.expect("send");
        line.clear();
        read.read_line(&mut line).await.expect("status line");
        assert!(line.starts_with("HTTP/1.1 200"), "{path}: {line}");
        let mut length = 0;
        loop {
            line.clear();
            read.read_line(&mut line).await.expect("header");
            if line == "\r\n" {
                break;
            }
            if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = value.trim().parse().expect("a length");
            }
        }
        let mut answer = vec![0; length];
        read.read_exact(&mut answer).await.expect("body");
        latencies.push(started.elapsed());
    }
    latencies
}

/// Runs `clients` quick clients on `path` for [`SPELL`], with `slow` rating clients beside
/// them; prints requests/s and the quick clients' p50 and p99.
async fn scenario(
    addr: SocketAddr,
    path: &'static str,
    bodies: &[String],
    clients: usize,
    slow: &[String],
) {
    let until = Instant::now() + SPELL;
    let mut tasks = Vec::new();
    for i in 0..clients {
        let mine: Vec<String> = bodies.iter().skip(i).step_by(clients).cloned().collect();
        tasks.push(tokio::spawn(client(addr, path, mine, until)));
    }
    let raters: Vec<_> = (0..if slow.is_empty() { 0 } else { 2 })
        .map(|i| {
            let mine: Vec<String> = slow.iter().skip(i).step_by(2).cloned().collect();
            tokio::spawn(client(addr, "/api/rate", mine, until))
        })
        .collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.expect("a client"));
    }
    let mut rated = 0;
    for task in raters {
        rated += task.await.expect("a rater").len();
    }
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    let label = if slow.is_empty() {
        format!("{path} x{clients}")
    } else {
        format!("{path} x{clients} + 2 raters ({rated} hard ratings)")
    };
    println!(
        "{label:<48} {:>9.0} req/s  p50 {:>7.2} ms  p99 {:>7.2} ms",
        latencies.len() as f64 / SPELL.as_secs_f64(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3
    );
}

#[tokio::main]
async fn main() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("an address");
    let config = Config {
        time_limit: Duration::from_secs(60),
        ..Config::default()
    };
    tokio::spawn(async move { serve(listener, &config, std::future::pending()).await });
    let quick = puzzles("puzzles2_17_clue", 5000);
    let solve: Vec<String> = quick
        .iter()
        .map(|p| format!(r#"{{"puzzle":"{p}"}}"#))
        .collect();
    let hint: Vec<String> = quick
        .iter()
        .map(|p| format!(r#"{{"puzzle":"{p}","level":2}}"#))
        .collect();
    let hardest: Vec<String> = puzzles("puzzles6_forum_hardest_1106", 375)
        .iter()
        .map(|p| format!(r#"{{"puzzle":"{p}"}}"#))
        .collect();
    println!(
        "loopback, {} cores, {} s per line",
        std::thread::available_parallelism().map_or(0, usize::from),
        SPELL.as_secs()
    );
    for clients in [1, 8, 64] {
        scenario(addr, "/api/solve", &solve, clients, &[]).await;
    }
    for clients in [1, 8, 64] {
        scenario(addr, "/api/hint", &hint, clients, &[]).await;
    }
    scenario(addr, "/api/solve", &solve, 64, &hardest).await;
    scenario(addr, "/api/hint", &hint, 64, &hardest).await;
}
