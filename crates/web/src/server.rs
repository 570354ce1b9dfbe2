//! The server: a listener, a bounded number of connections (in all, and per client),
//! timeouts on every one of them, and a graceful shutdown.

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
use tokio::sync::{watch, Semaphore};

use tower::ServiceExt;

use crate::clients::PerClient;
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

    /// Serves until `shutdown` completes, then shuts down gracefully: it stops
    /// accepting (the listener is closed), lets every request in flight finish and
    /// its answer be sent (a move answered is a move committed), closes the idle
    /// connections, and returns once all connections are closed, or after
    /// [`ServerConfig::shutdown_grace`] if some are still busy then.
    ///
    /// Each connection has [`ServerConfig::header_timeout`] to send a request's
    /// headers (and is closed if it does not), the handlers bound the time of the body
    /// and of the whole request, and at most [`ServerConfig::max_connections`] are
    /// served at once: further clients wait to be accepted. A peer that is not a
    /// trusted proxy has at most [`ServerConfig::max_connections_per_client`] of them;
    /// its further connections are closed at once.
    ///
    /// # Errors
    ///
    /// As [`Server::run`].
    pub async fn run_until(self, shutdown: impl Future<Output = ()>) -> io::Result<()> {
        let Server {
            listener,
            router,
            config,
        } = self;
        let most = u32::try_from(config.max_connections.max(1)).unwrap_or(u32::MAX);
        let connections = Arc::new(Semaphore::new(most as usize));
        let per_peer = Arc::new(PerClient::default());
        let trusted: Arc<[crate::Cidr]> = config.trusted_proxies.clone().into();
        let (stop, stopping) = watch::channel(false);
        tokio::pin!(shutdown);
        loop {
            let permit = tokio::select! {
                () = &mut shutdown => break,
                permit = Arc::clone(&connections).acquire_owned() => match permit {
                    Ok(permit) => permit,
                    // The semaphore is never closed.
                    Err(_) => break,
                },
            };
            let accepted = tokio::select! {
                () = &mut shutdown => break,
                accepted = listener.accept() => accepted,
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
            // Behind a trusted proxy, many clients share its address: their own
            // requests are counted, by the router.
            let place = if trusted.iter().any(|range| range.contains(peer.ip())) {
                None
            } else {
                match PerClient::try_take(&per_peer, peer.ip(), config.max_connections_per_client) {
                    Some(place) => Some(place),
                    None => {
                        tracing::warn!(
                            client = %peer.ip(),
                            most = config.max_connections_per_client,
                            "connection refused: the client has the most connections it may"
                        );
                        continue;
                    }
                }
            };
            let _ = stream.set_nodelay(true);
            // The client's address, for the rate limits: the peer, or the client its
            // forwarding headers name when it is a trusted proxy.
            let trusted = Arc::clone(&trusted);
            let service = TowerToHyperService::new(router.clone().map_request(
                move |mut request: hyper::Request<hyper::body::Incoming>| {
                    let client = client_addr(&trusted, peer.ip(), request.headers());
                    request.extensions_mut().insert(ClientAddr(client));
                    request
                },
            ));
            let header_timeout = config.header_timeout;
            let mut stopping = stopping.clone();
            tokio::spawn(async move {
                let _held = (permit, place);
                let mut builder = http1::Builder::new();
                builder
                    .timer(TokioTimer::new())
                    .header_read_timeout(header_timeout);
                let connection = builder.serve_connection(TokioIo::new(stream), service);
                tokio::pin!(connection);
                // A connection that fails (reset, timed out) concerns only its client.
                tokio::select! {
                    _ = connection.as_mut() => return,
                    _ = stopping.wait_for(|stop| *stop) => {}
                }
                // Shutting down: the request in flight is answered, then the
                // connection closes; an idle one closes now.
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            });
        }
        drop(listener);
        let _ = stop.send(true);
        let busy = config.max_connections.max(1) - connections.available_permits();
        tracing::info!(
            connections = busy,
            "shutting down: finishing the requests in flight"
        );
        let all_closed = connections.acquire_many(most);
        if tokio::time::timeout(config.shutdown_grace, all_closed)
            .await
            .is_err()
        {
            tracing::warn!(
                connections = config.max_connections.max(1) - connections.available_permits(),
                grace_ms = u64::try_from(config.shutdown_grace.as_millis()).unwrap_or(u64::MAX),
                "stopped with connections still busy after the grace period"
            );
        }
        Ok(())
    }
}

/// Completes at the first Ctrl-C (SIGINT) or, on Unix, SIGTERM: what
/// [`serve_blocking`] stops at. A signal the system cannot watch is never received.
pub async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                terminate.recv().await;
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

/// Runs a server on `addr` on a runtime of its own until Ctrl-C or SIGTERM
/// ([`shutdown_signal`]), then shuts it down gracefully ([`Server::run_until`]),
/// calling `on_ready` with the bound address (the port picked when it was 0) once it
/// accepts connections: what `ai2048 serve` does.
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
/// first, and closed last) when it is `Some`.
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
        let server = Server::bind_with_scores(addr, config, scores.clone()).await?;
        on_ready(server.local_addr()?);
        server.run_until(shutdown_signal()).await?;
        if let Some(scores) = scores {
            scores.db().close().await;
        }
        tracing::info!("stopped");
        Ok(())
    })
}
