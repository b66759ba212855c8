//! Which `Host` headers the preview answers. A page elsewhere can point a name
//! it controls at 127.0.0.1 (DNS rebinding) and read the preview or post to the
//! stand-in as same-origin; such a request carries that name, while a visitor's
//! carry an IP address or `localhost`, the only ones answered.

use std::net::{Ipv4Addr, Ipv6Addr};

/// A request without `Host` (HTTP/1.0) cannot come from a rebound name in a browser.
pub fn allowed(host: Option<&str>) -> bool {
    let Some(host) = host else { return true };
    let host = host.trim();
    let name = if let Some(rest) = host.strip_prefix('[') {
        // An IPv6 literal: `[::1]` or `[::1]:4000`.
        return rest.split_once(']').is_some_and(|(address, port)| {
            address.parse::<Ipv6Addr>().is_ok() && is_port_suffix(port)
        });
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) if port.parse::<u16>().is_ok() => name,
            Some(_) => return false,
            None => host,
        }
    };
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    name.parse::<Ipv4Addr>().is_ok() || name == "localhost" || name.ends_with(".localhost")
}

fn is_port_suffix(text: &str) -> bool {
    text.is_empty()
        || text
            .strip_prefix(':')
            .is_some_and(|port| port.parse::<u16>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn addresses_and_localhost_are_answered() {
        for host in [
            "127.0.0.1",
            "127.0.0.1:4000",
            "localhost",
            "LOCALHOST:4000",
            "localhost.:4000",
            "app.localhost:4000",
            "[::1]",
            "[::1]:4000",
            "192.168.1.20:4000",
            " 127.0.0.1:4000 ",
        ] {
            assert!(allowed(Some(host)), "{host}");
        }
        assert!(allowed(None));
    }

    #[test]
    fn other_names_and_malformed_hosts_are_refused() {
        for host in [
            "evil.example",
            "evil.example:4000",
            "localhost.evil.example",
            "notlocalhost:4000",
            "127.0.0.1.nip.io",
            "[::1",
            "[not-an-address]:4000",
            "[::1]4000",
            "127.0.0.1:99999",
            "127.0.0.1:port",
            "",
        ] {
            assert!(!allowed(Some(host)), "{host}");
        }
    }
}
