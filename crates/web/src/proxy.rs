//! The client behind a reverse proxy: `--trusted-proxy CIDR...` names the proxies
//! whose `Forwarded` or `X-Forwarded-For` headers are believed.
//!
//! A request from a trusted peer is from the rightmost address of its forwarding
//! chain that is not a trusted proxy: each proxy appends the address it was reached
//! from, so the addresses right of it were written by trusted proxies, and those left
//! of it by the client, who may write anything. A request from any other peer is from
//! that peer, whatever its headers say. `Forwarded` (RFC 7239) is read when a request
//! has it, else `X-Forwarded-For`.

use core::fmt;
use core::str::FromStr;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use axum::http::{header, HeaderMap};

/// A range of addresses: an address and the length of its prefix (`10.0.0.0/8`,
/// `2001:db8::/32`; an address alone is itself, `/32` or `/128`).
///
/// ```
/// use ai2048_web::Cidr;
/// let range: Cidr = "10.0.0.0/8".parse()?;
/// assert!(range.contains("10.1.2.3".parse()?));
/// assert!(!range.contains("11.0.0.1".parse()?));
/// // An IPv4 address as a dual-stack socket gives it is the IPv4 address.
/// assert!(range.contains("::ffff:10.0.0.1".parse()?));
/// assert_eq!("::1".parse::<Cidr>()?.to_string(), "::1/128");
/// assert!("10.0.0.0/33".parse::<Cidr>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Whether `ip` is in the range.
    #[must_use]
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => mask_v4(ip, self.prefix) == net,
            (IpAddr::V6(net), IpAddr::V6(ip)) => mask_v6(ip, self.prefix) == net,
            _ => false,
        }
    }
}

fn mask_v4(ip: Ipv4Addr, prefix: u8) -> Ipv4Addr {
    let bits = u32::from(ip);
    Ipv4Addr::from(bits & u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0))
}

fn mask_v6(ip: Ipv6Addr, prefix: u8) -> Ipv6Addr {
    let bits = u128::from(ip);
    Ipv6Addr::from(bits & u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0))
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

impl FromStr for Cidr {
    type Err = String;

    /// `ADDRESS/PREFIX` or `ADDRESS`; bits past the prefix are ignored.
    fn from_str(text: &str) -> Result<Cidr, String> {
        let bad = || {
            format!(
                "{text:?} is not an address range: expected ADDRESS/PREFIX (like 10.0.0.0/8 \
                 or 2001:db8::/32) or an address"
            )
        };
        let (addr, prefix) = text
            .split_once('/')
            .map_or((text, None), |(a, p)| (a, Some(p)));
        let addr: IpAddr = addr.trim().parse().map_err(|_| bad())?;
        let addr = addr.to_canonical();
        let most = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => most,
            Some(p) => p
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|&p| p <= most)
                .ok_or_else(bad)?,
        };
        let addr = match addr {
            IpAddr::V4(ip) => IpAddr::V4(mask_v4(ip, prefix)),
            IpAddr::V6(ip) => IpAddr::V6(mask_v6(ip, prefix)),
        };
        Ok(Cidr { addr, prefix })
    }
}

/// The key a client's allowance is counted under: an IPv4 address itself, an IPv6
/// address its /64 (a host is given a /64 at least, and picks any address in it).
///
/// ```
/// use ai2048_web::rate_key;
/// let key = |ip: &str| rate_key(ip.parse().unwrap()).to_string();
/// assert_eq!(key("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::");
/// assert_eq!(key("::ffff:192.0.2.7"), "192.0.2.7");
/// ```
#[must_use]
pub fn rate_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(ip) => IpAddr::V6(mask_v6(ip, 64)),
        v4 => v4,
    }
}

/// The client `ip` as the limits count it, for messages: its address, or its /64.
pub(crate) fn rate_key_label(ip: IpAddr) -> String {
    match rate_key(ip) {
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => format!("{ip}/64"),
    }
}

/// The client of a request from `peer` with `headers`, the proxies of `trusted`
/// believed: the rightmost address of the request's forwarding chain (`Forwarded`, by
/// RFC 7239, else `X-Forwarded-For`) that is not a trusted proxy, when `peer` is
/// trusted; `peer` itself otherwise, whatever its headers say.
///
/// ```
/// use ai2048_web::{client_addr, Cidr};
/// use axum::http::HeaderMap;
/// let trusted: Vec<Cidr> = vec!["127.0.0.1".parse()?];
/// let mut headers = HeaderMap::new();
/// headers.insert("x-forwarded-for", "6.6.6.6, 198.51.100.7".parse()?);
/// assert_eq!(client_addr(&trusted, "127.0.0.1".parse()?, &headers), "198.51.100.7".parse::<std::net::IpAddr>()?);
/// // From a peer that is not trusted, the header is not believed.
/// assert_eq!(client_addr(&trusted, "192.0.2.1".parse()?, &headers), "192.0.2.1".parse::<std::net::IpAddr>()?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn client_addr(trusted: &[Cidr], peer: IpAddr, headers: &HeaderMap) -> IpAddr {
    let trusts = |ip: IpAddr| trusted.iter().any(|range| range.contains(ip));
    let mut client = peer.to_canonical();
    if !trusts(client) {
        return client;
    }
    for hop in forwarding_chain(headers).into_iter().rev() {
        match hop {
            Some(ip) => {
                client = ip.to_canonical();
                if !trusts(client) {
                    return client;
                }
            }
            // A hop that a trusted proxy could not name (`unknown`, an obfuscated
            // name) or that does not read: the request is that proxy's.
            None => return client,
        }
    }
    client
}

/// The addresses of the forwarding chain, the client's first: of the `Forwarded`
/// headers when the request has any, else of `X-Forwarded-For`. `None` for a hop
/// that is not an address.
fn forwarding_chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let forwarded = headers.get_all(header::FORWARDED);
    if forwarded.iter().next().is_some() {
        return forwarded
            .iter()
            .flat_map(|value| value.to_str().unwrap_or("\u{0}").split(','))
            .map(|element| {
                element
                    .split(';')
                    .filter_map(|pair| pair.split_once('='))
                    .find(|(key, _)| key.trim().eq_ignore_ascii_case("for"))
                    .and_then(|(_, node)| node_ip(node))
            })
            .collect();
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|value| value.to_str().unwrap_or("\u{0}").split(','))
        .map(node_ip)
        .collect()
}

/// The address of a node: `192.0.2.1`, `"192.0.2.1:80"`, `"[2001:db8::1]:443"` or
/// `2001:db8::1`; `None` for `unknown`, an obfuscated name or anything else.
fn node_ip(node: &str) -> Option<IpAddr> {
    let node = node.trim();
    let node = node
        .strip_prefix('"')
        .and_then(|n| n.strip_suffix('"'))
        .unwrap_or(node);
    if let Some(rest) = node.strip_prefix('[') {
        let (ip, port) = rest.split_once(']')?;
        return (port.is_empty() || port.starts_with(':'))
            .then(|| ip.parse::<Ipv6Addr>().ok().map(IpAddr::V6))
            .flatten();
    }
    if let Ok(ip) = node.parse::<IpAddr>() {
        return Some(ip);
    }
    let (ip, port) = node.split_once(':')?;
    port.parse::<u16>().ok()?;
    ip.parse::<Ipv4Addr>().ok().map(IpAddr::V4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for &(name, value) in pairs {
            map.append(name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn ranges_parse_and_contain() {
        let range: Cidr = "192.0.2.77/24".parse().unwrap();
        assert_eq!(range.to_string(), "192.0.2.0/24");
        assert!(range.contains(ip("192.0.2.1")) && !range.contains(ip("192.0.3.1")));
        let all: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("203.0.113.9")) && !all.contains(ip("2001:db8::1")));
        let v6: Cidr = "2001:db8::/32".parse().unwrap();
        assert!(v6.contains(ip("2001:db8:ffff::1")) && !v6.contains(ip("2001:db9::1")));
        assert!("::/0".parse::<Cidr>().unwrap().contains(ip("::1")));
        assert_eq!(
            "::ffff:10.0.0.1/8".parse::<Cidr>().unwrap().to_string(),
            "10.0.0.0/8"
        );
        for bad in [
            "",
            "10.0.0.0/",
            "10.0.0.0/33",
            "::/129",
            "10.0.0/8",
            "x",
            "10.0.0.0/-1",
        ] {
            let e = bad.parse::<Cidr>().unwrap_err();
            assert!(e.contains("is not an address range"), "{e}");
        }
    }

    #[test]
    fn the_client_is_the_rightmost_untrusted_hop() {
        let trusted: Vec<Cidr> = ["127.0.0.1", "10.0.0.0/8", "2001:db8:f::/48"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        let client = |peer: &str, h: &[(&'static str, &str)]| {
            client_addr(&trusted, ip(peer), &headers(h)).to_string()
        };
        let xff = "x-forwarded-for";
        assert_eq!(client("127.0.0.1", &[]), "127.0.0.1");
        assert_eq!(
            client("127.0.0.1", &[(xff, "198.51.100.1")]),
            "198.51.100.1"
        );
        // Forged hops on the left, trusted proxies on the right, lines joined.
        assert_eq!(
            client(
                "127.0.0.1",
                &[(xff, "1.1.1.1, 198.51.100.2"), (xff, "10.1.1.1 ,10.2.2.2")]
            ),
            "198.51.100.2"
        );
        // All trusted: the leftmost.
        assert_eq!(
            client("10.0.0.1", &[(xff, "10.9.9.9, 127.0.0.1")]),
            "10.9.9.9"
        );
        // An untrusted peer's headers are not believed.
        assert_eq!(client("192.0.2.9", &[(xff, "198.51.100.1")]), "192.0.2.9");
        assert_eq!(
            client("::ffff:127.0.0.1", &[(xff, "198.51.100.3")]),
            "198.51.100.3"
        );
        // A hop that is not an address stops at the proxy that wrote it.
        assert_eq!(
            client("127.0.0.1", &[(xff, "198.51.100.1, bogus, 10.0.0.5")]),
            "10.0.0.5"
        );
        assert_eq!(
            client("127.0.0.1", &[(xff, "198.51.100.1:8080")]),
            "198.51.100.1"
        );
        assert_eq!(client("127.0.0.1", &[(xff, "2001:db8::5")]), "2001:db8::5");
        // Forwarded, with quotes, ports, brackets, other parameters; it wins over XFF.
        let fwd = "forwarded";
        assert_eq!(
            client(
                "127.0.0.1",
                &[
                    (fwd, "for=192.0.2.60;proto=http;by=203.0.113.43, For=\"[2001:db8:cafe::17]:4711\""),
                    (xff, "198.51.100.9"),
                ]
            ),
            "2001:db8:cafe::17"
        );
        assert_eq!(
            client(
                "127.0.0.1",
                &[(fwd, "for=198.51.100.4, for=\"[2001:db8:f:1::1]\"")]
            ),
            "198.51.100.4"
        );
        assert_eq!(client("127.0.0.1", &[(fwd, "for=unknown")]), "127.0.0.1");
        assert_eq!(
            client("127.0.0.1", &[(fwd, "for=_hidden, for=10.0.0.2")]),
            "10.0.0.2"
        );
        assert_eq!(client("127.0.0.1", &[(fwd, "proto=https")]), "127.0.0.1");
        assert_eq!(
            client("127.0.0.1", &[(fwd, "for=\"192.0.2.1:80\"")]),
            "192.0.2.1"
        );
        // With no trusted proxy, the peer always.
        assert_eq!(
            client_addr(&[], ip("127.0.0.1"), &headers(&[(xff, "198.51.100.1")])).to_string(),
            "127.0.0.1"
        );
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64() {
        assert_eq!(
            rate_key(ip("2001:db8:1:2::1")),
            rate_key(ip("2001:db8:1:2:ffff:ffff:ffff:ffff"))
        );
        assert_ne!(
            rate_key(ip("2001:db8:1:2::1")),
            rate_key(ip("2001:db8:1:3::1"))
        );
        assert_eq!(rate_key(ip("192.0.2.1")), ip("192.0.2.1"));
        assert_ne!(rate_key(ip("192.0.2.1")), rate_key(ip("192.0.2.2")));
    }
}
