//! The server: a listener, a bounded number of connections, and timeouts on every
//! one of them.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use tower::ServiceExt;

use crate::scores::{api::ClientAddr, Scores};
use crate::{client_addr, router_with_scores, ServerConfig};

/// A bound server, ready to run: the page and the API on one address.
///
/// ```no_run
/// use ai2048_web::{Server, ServerConfig};
///
/// # async fn demo() -> std::io::Result<()> {
/// let server = Server::bind("127.0.0.1:0".parse().unwrap(), ServerConfig::default()).await?;
/// println!("listening on http://{}", server.local_addr()?);
/// server.run().await
/// # }
/// ```
pub struct Server {
    listener: TcpListener,
    router: Router,
    config: ServerConfig,
}

impl Server {
    /// Binds `addr` (port 0 picks a free port) and starts the search pool.
    ///
    /// # Errors
    ///
    /// When the address cannot be bound or a search thread cannot be started.
    pub async fn bind(addr: SocketAddr, config: ServerConfig) -> io::Result<Server> {
        Server::bind_with_scores(addr, config, None).await
    }

    /// [`Server::bind`], with the score API of `scores` when it is `Some` (see
    /// [`crate::scores`]).
    ///
    /// # Errors
    ///
    /// As [`Server::bind`].
    pub async fn bind_with_scores(
        addr: SocketAddr,
        config: ServerConfig,
        scores: Option<Arc<Scores>>,
    ) -> io::Result<Server> {
        let router = router_with_scores(config.clone(), scores)?;
        let listener = TcpListener::bind(addr).await?;
        Ok(Server {
            listener,
            router,
            config,
        })
    }

    /// The address the server listens on, with the port picked when it was 0.
    ///
    /// # Errors
    ///
    /// When the system cannot say (which does not happen for a bound socket).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the task is dropped.
    ///
    /// # Errors
    ///
    /// None today: a failed accept (say, out of file descriptors) is retried after a
    /// pause rather than ending the server.
    pub async fn run(self) -> io::Result<()> {
        self.run_until(std::future::pending()).await
    }

    /// Serves until `shutdown` completes; connections still open then are served on
    /// in their own tasks until they end.
    ///
    /// Each connection has [`ServerConfig::header_timeout`] to send a request's
    /// headers (and is closed if it does not), the handlers bound the time of the body
    /// and of the whole request, and at most [`ServerConfig::max_connections`] are
    /// served at once: further clients wait to be accepted.
    ///
    /// # Errors
    ///
    /// As [`Server::run`].
    pub async fn run_until(self, shutdown: impl Future<Output = ()>) -> io::Result<()> {
        let connections = Arc::new(Semaphore::new(self.config.max_connections.max(1)));
        let trusted: Arc<[crate::Cidr]> = self.config.trusted_proxies.clone().into();
        tokio::pin!(shutdown);
        loop {
            let permit = tokio::select! {
                () = &mut shutdown => return Ok(()),
                permit = Arc::clone(&connections).acquire_owned() => match permit {
                    Ok(permit) => permit,
                    // The semaphore is never closed.
                    Err(_) => return Ok(()),
                },
            };
            let accepted = tokio::select! {
                () = &mut shutdown => return Ok(()),
                accepted = self.listener.accept() => accepted,
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of file descriptors, or a connection reset before it was
                    // accepted: wait a little, then go on accepting.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            // The client's address, for the rate limits: the peer, or the client its
            // forwarding headers name when it is a trusted proxy.
            let trusted = Arc::clone(&trusted);
            let service = TowerToHyperService::new(self.router.clone().map_request(
                move |mut request: hyper::Request<hyper::body::Incoming>| {
                    let client = client_addr(&trusted, peer.ip(), request.headers());
                    request.extensions_mut().insert(ClientAddr(client));
                    request
                },
            ));
            let header_timeout = self.config.header_timeout;
            tokio::spawn(async move {
                let _permit = permit;
                let mut builder = http1::Builder::new();
                builder
                    .timer(TokioTimer::new())
                    .header_read_timeout(header_timeout);
                // A connection that fails (reset, timed out) concerns only its client.
                let _ = builder
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    }
}

/// Runs a server on `addr` on a runtime of its own until the process ends, calling
/// `on_ready` with the bound address (the port picked when it was 0) once it accepts
/// connections: what `ai2048 serve` does.
///
/// # Errors
///
/// When the runtime cannot start, or the address cannot be bound.
pub fn serve_blocking(
    addr: SocketAddr,
    config: ServerConfig,
    on_ready: impl FnOnce(SocketAddr),
) -> io::Result<()> {
    serve_blocking_with_scores(addr, config, None, on_ready)
}

/// [`serve_blocking`], with the scores kept in the database of `scores` (opened
/// first) when it is `Some`.
///
/// # Errors
///
/// When the runtime cannot start, the database cannot be opened, or the address
/// cannot be bound.
pub fn serve_blocking_with_scores(
    addr: SocketAddr,
    config: ServerConfig,
    scores: Option<crate::scores::ScoresConfig>,
    on_ready: impl FnOnce(SocketAddr),
) -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("ai2048-web")
        .build()?;
    runtime.block_on(async {
        let scores = match scores {
            Some(scores) => Some(Scores::open(scores).await.map_err(io::Error::other)?),
            None => None,
        };
        let server = Server::bind_with_scores(addr, config, scores).await?;
        on_ready(server.local_addr()?);
        server.run().await
    })
}
