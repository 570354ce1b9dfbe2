//! What each client has open at once: its connections, its requests in flight. A
//! client is keyed as the rate limits key it ([`rate_key`]: an IPv4 address, an IPv6
//! /64), so that one host cannot take the server's room from the others.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::rate_key;

/// Counts per client, each at most a cap.
#[derive(Default)]
pub struct PerClient {
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One of a client's places, given back when dropped.
pub struct Place {
    counts: Arc<PerClient>,
    key: IpAddr,
}

impl PerClient {
    fn lock(&self) -> MutexGuard<'_, HashMap<IpAddr, usize>> {
        // The map is whole whatever panicked while it was held.
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for `client` when it has fewer than `max` (0 lets any number in).
    pub fn try_take(counts: &Arc<PerClient>, client: IpAddr, max: usize) -> Option<Place> {
        let key = rate_key(client);
        let mut open = counts.lock();
        let count = open.entry(key).or_insert(0);
        if max > 0 && *count >= max {
            return None;
        }
        *count += 1;
        Some(Place {
            counts: Arc::clone(counts),
            key,
        })
    }

    /// The places `client` has now.
    #[cfg(test)]
    fn count(&self, client: IpAddr) -> usize {
        self.lock().get(&rate_key(client)).copied().unwrap_or(0)
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut open = self.counts.lock();
        if let Some(count) = open.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_capped_per_client_and_given_back() {
        let counts = Arc::new(PerClient::default());
        let ip = |text: &str| text.parse::<IpAddr>().unwrap();
        let a = PerClient::try_take(&counts, ip("192.0.2.1"), 2).unwrap();
        let b = PerClient::try_take(&counts, ip("192.0.2.1"), 2).unwrap();
        assert!(PerClient::try_take(&counts, ip("192.0.2.1"), 2).is_none());
        // Another client, and the same /64 as one client.
        let v6 = PerClient::try_take(&counts, ip("2001:db8::1"), 1).unwrap();
        assert!(PerClient::try_take(&counts, ip("2001:db8::2"), 1).is_none());
        assert!(PerClient::try_take(&counts, ip("2001:db8:0:1::1"), 1).is_some());
        drop(a);
        assert_eq!(counts.count(ip("192.0.2.1")), 1);
        let c = PerClient::try_take(&counts, ip("192.0.2.1"), 2).unwrap();
        drop((b, c, v6));
        assert!(counts.lock().is_empty());
        // 0: no cap.
        let many: Vec<Place> = (0..100)
            .filter_map(|_| PerClient::try_take(&counts, ip("192.0.2.9"), 0))
            .collect();
        assert_eq!(many.len(), 100);
    }
}
