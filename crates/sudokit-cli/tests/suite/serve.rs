//! `sudokit serve` as a process: it tells where it listens, answers over real HTTP, and
//! stops cleanly on SIGTERM.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Stdio;

use crate::common::{sudokit, INKALA_2012};

/// Sends one HTTP/1.1 request and returns the whole response.
fn request(port: &str, path: &str, body: &str) -> String {
    let mut stream = TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[cfg(unix)]
#[test]
fn serves_over_http_and_stops_on_sigterm() {
    let mut server = sudokit()
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(server.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let port = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let solved = request(
        &port,
        "/api/solve",
        &format!(r#"{{"puzzle":"{INKALA_2012}"}}"#),
    );
    assert!(solved.starts_with("HTTP/1.1 200"), "{solved}");
    assert!(solved.contains(r#""status":"unique""#), "{solved}");
    let bad = request(&port, "/api/solve", "{");
    assert!(bad.starts_with("HTTP/1.1 400"), "{bad}");
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = server.wait().unwrap();
    assert_eq!(status.code(), Some(0), "a clean stop");
}
