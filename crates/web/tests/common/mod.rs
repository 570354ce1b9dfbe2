//! A server on 127.0.0.1:0 in this process, and a plain HTTP/1.1 client over a
//! `TcpStream`, written here so that the tests see exactly the bytes on the wire.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use ai2048_web::{Server, ServerConfig};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// Limits for tests: short timeouts, small tables, and no cap per client (every test
/// client is 127.0.0.1) but in the tests of those caps.
pub fn test_config() -> ServerConfig {
    ServerConfig {
        workers: 2,
        queue: 4,
        tt_mb: 4,
        header_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        request_timeout: Duration::from_secs(10),
        max_connections_per_client: 0,
        max_requests_per_client: 0,
        ..ServerConfig::default()
    }
}

/// Starts a server on a free port of 127.0.0.1, served by a task of the current
/// runtime, and returns its address.
pub async fn start(config: ServerConfig) -> SocketAddr {
    let server = Server::bind("127.0.0.1:0".parse().expect("an address"), config)
        .await
        .expect("bind 127.0.0.1:0");
    let addr = server.local_addr().expect("a local address");
    tokio::spawn(server.run());
    addr
}

/// An answer: status, headers (names in lowercase) and body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    /// The `error` of a JSON error answer.
    pub fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error in {:?}", self.body))
            .to_owned()
    }

    /// Asserts that the answer is a 400 whose error is `error` or starts with it.
    pub fn assert_bad_request(&self, error: &str) {
        assert_eq!(self.status, 400, "{}", self.body);
        let found = self.error();
        assert!(found.starts_with(error), "{found:?} is not {error:?}");
    }
}

/// One keep-alive connection.
pub struct Client {
    stream: BufReader<TcpStream>,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> std::io::Result<Client> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(Client {
            stream: BufReader::new(stream),
        })
    }

    /// Sends raw bytes as they are.
    pub async fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.stream.get_mut().write_all(bytes).await
    }

    /// Sends one request and reads its answer.
    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: &[u8],
    ) -> std::io::Result<Reply> {
        self.request_with(method, path, &[], body).await
    }

    /// Sends one request with these extra headers and reads its answer.
    pub async fn request_with(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Reply> {
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: test\r\n");
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if method != "GET" || !body.is_empty() {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        self.send_raw(&bytes).await?;
        self.read_reply().await
    }

    /// Reads one answer.
    pub async fn read_reply(&mut self) -> std::io::Result<Reply> {
        let bad =
            |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
        let mut line = String::new();
        if self.stream.read_line(&mut line).await? == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the server closed the connection",
            ));
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("no status line"))?;
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.stream.read_line(&mut line).await?;
            let trimmed = line.trim_end();
            if trimmed.is_empty() {
                break;
            }
            let (k, v) = trimmed.split_once(':').ok_or_else(|| bad("bad header"))?;
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
        let find = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        let mut body = Vec::new();
        if let Some(n) = find("content-length") {
            let n: usize = n.parse().map_err(|_| bad("bad content-length"))?;
            body.resize(n, 0);
            self.stream.read_exact(&mut body).await?;
        } else if find("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
            loop {
                line.clear();
                self.stream.read_line(&mut line).await?;
                let size = usize::from_str_radix(line.trim(), 16).map_err(|_| bad("chunk"))?;
                let mut chunk = vec![0; size + 2];
                self.stream.read_exact(&mut chunk).await?;
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..size]);
            }
        }
        let body = String::from_utf8(body).map_err(|_| bad("body is not UTF-8"))?;
        Ok(Reply {
            status,
            headers,
            body,
        })
    }

    /// Whether the server has sent anything, or closed the connection, by now (without
    /// waiting, and without taking what it sent).
    pub async fn heard_from_server(&mut self) -> bool {
        let now = tokio::time::timeout(Duration::ZERO, self.stream.fill_buf()).await;
        now.is_ok()
    }

    /// Whether the server has closed this connection (reads end of file).
    pub async fn is_closed_by_server(&mut self) -> bool {
        let mut buf = [0u8; 1024];
        loop {
            match self.stream.read(&mut buf).await {
                Ok(0) | Err(_) => return true,
                // An answer (such as 408) before the close: read on.
                Ok(_) => continue,
            }
        }
    }
}

/// One request on a connection of its own.
pub async fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> Reply {
    let mut client = Client::connect(addr).await.expect("connect");
    client
        .request(method, path, body.as_bytes())
        .await
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
}

/// `POST path` with a JSON body.
pub async fn post(addr: SocketAddr, path: &str, body: &Value) -> Reply {
    request(addr, "POST", path, &body.to_string()).await
}
pub mod ranked;
