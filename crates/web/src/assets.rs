//! The page: hand-written HTML, CSS and JavaScript, built into the binary.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// One static file: its path, content type and content.
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes.
    pub body: &'static str,
}

/// Every file of the page.
pub const ASSETS: &[Asset] = &[
    asset("/", HTML, include_str!("../assets/index.html")),
    asset("/style.css", CSS, include_str!("../assets/style.css")),
    asset("/app.js", JS, include_str!("../assets/app.js")),
    asset("/engine.js", JS, include_str!("../assets/engine.js")),
    asset("/network.js", JS, include_str!("../assets/network.js")),
    asset("/favicon.svg", SVG, include_str!("../assets/favicon.svg")),
    asset("/ranked.js", JS, include_str!("../assets/ranked.js")),
    asset("/ranked.css", CSS, include_str!("../assets/ranked.css")),
];

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

const fn asset(path: &'static str, content_type: &'static str, body: &'static str) -> Asset {
    Asset {
        path,
        content_type,
        body,
    }
}

/// What the page may load: only its own files, and its own API; WebAssembly of its
/// own when the server serves a built site.
const CONTENT_SECURITY_POLICY: &str =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; \
     object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

impl Asset {
    /// The response that serves it.
    #[must_use]
    pub fn response(&self) -> Response {
        let mut response = (StatusCode::OK, self.body).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(self.content_type),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
        response
    }
}
