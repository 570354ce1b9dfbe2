//! `ai2048 serve`: the game in the browser, with the AI beside it (see [`ai2048_web`]).
//!
//! Prints `listening on http://HOST:PORT` on stdout, flushed, once the server accepts
//! connections (with the port picked when `--port 0`), then serves until killed.

use std::io::{self, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::process::{Command, Stdio};

use ai2048_web::{serve_blocking, ServerConfig};
use anyhow::{Context, Result};

use crate::args::ServeArgs;

/// Serves the page and the API until the process is stopped.
pub fn run(args: &ServeArgs) -> Result<()> {
    let addr = SocketAddr::new(args.host, args.port);
    let config = ServerConfig::default();
    let (workers, memory) = (config.workers, config.worst_case_memory_mb());
    serve_blocking(addr, config, |bound| {
        let url = format!("http://{bound}");
        let mut out = io::stdout().lock();
        // Nobody reading stdout is no reason not to serve.
        let _ = writeln!(out, "listening on {url}").and_then(|()| out.flush());
        eprintln!("{workers} search threads, players within {memory} MiB; press Ctrl-C to stop");
        if args.open {
            open_browser(&browser_url(bound));
        }
    })
    .with_context(|| format!("cannot serve on {addr}"))
}

/// The address a browser on this machine reaches the server at: a server on every
/// interface (0.0.0.0) is reached on loopback.
fn browser_url(bound: SocketAddr) -> String {
    let ip = match bound.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}/", SocketAddr::new(ip, bound.port()))
}

/// Opens `url` in the desktop's browser, at best: a failure is only a warning.
fn open_browser(url: &str) {
    let (program, args): (&'static str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let warn = move |why: &dyn std::fmt::Display, url: &str| {
        eprintln!("warning: could not open a browser ({program}: {why}); open {url} yourself");
    };
    let started = Command::new(program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match started {
        // The opener may take its time (a browser starting): wait for it aside.
        Ok(mut child) => {
            let url = url.to_owned();
            std::thread::spawn(move || match child.wait() {
                Ok(status) if !status.success() => warn(&status, &url),
                Ok(_) => {}
                Err(e) => warn(&e, &url),
            });
        }
        Err(e) => warn(&e, url),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browsers_reach_every_interface_on_loopback() {
        let url = |s: &str| browser_url(s.parse().unwrap());
        assert_eq!(url("0.0.0.0:80"), "http://127.0.0.1:80/");
        assert_eq!(url("[::]:80"), "http://[::1]:80/");
        assert_eq!(url("192.0.2.1:8048"), "http://192.0.2.1:8048/");
    }
}
