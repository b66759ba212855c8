//! Asking the live site: its origin only (no proxy), each answer bounded in
//! time and size, a few retries with backoff, redirects never followed (the
//! caller judges them).

use std::io::Read;
use std::time::Duration;

use ureq::http::Uri;

/// Its body decoded from gzip or Brotli.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    /// Lower-case names; a repeated header's values joined by ", ".
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// No connection, a reset or no answer in time, after every retry.
    Unanswered(String),
    /// Longer than the built file could be.
    TooLarge(u64),
}

/// `scheme://host[:port]`, lower-cased, default port left out, so spellings of
/// one origin compare equal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin(String);

impl Origin {
    pub fn parse(url: &str) -> Result<Origin, String> {
        let uri: Uri = url
            .parse()
            .map_err(|_| format!("\"{url}\" is not a web address"))?;
        let scheme = uri
            .scheme_str()
            .map(str::to_ascii_lowercase)
            .filter(|scheme| scheme == "http" || scheme == "https")
            .ok_or_else(|| format!("\"{url}\" does not start with https:// or http://"))?;
        let host = uri
            .host()
            .filter(|host| !host.is_empty())
            .ok_or_else(|| format!("\"{url}\" names no host"))?
            .to_ascii_lowercase();
        let default_port = if scheme == "https" { 443 } else { 80 };
        Ok(Origin(match uri.port_u16() {
            Some(port) if port != default_port => format!("{scheme}://{host}:{port}"),
            _ => format!("{scheme}://{host}"),
        }))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Where a `Location` leads: a path here, or `Err` with the other address.
    pub fn resolve(&self, location: &str) -> Result<String, String> {
        if location.starts_with('/') && !location.starts_with("//") {
            return Ok(location.to_string());
        }
        let absolute = match location.strip_prefix("//") {
            Some(rest) => format!("{}://{rest}", self.0.split("://").next().unwrap_or("https")),
            None => location.to_string(),
        };
        match Origin::parse(&absolute) {
            Ok(origin) if origin == *self => {
                let uri: Uri = absolute.parse().map_err(|_| absolute.clone())?;
                Ok(uri
                    .path_and_query()
                    .map_or("/".to_string(), |path| path.as_str().to_string()))
            }
            _ => Err(absolute),
        }
    }
}

pub struct Client {
    origin: Origin,
    agent: ureq::Agent,
}

/// Tries of an address before its failure counts: a failed connection, a
/// timeout or a server error may pass.
pub const ATTEMPTS: u32 = 3;

pub const HARD_CAP: u64 = 64 * 1024 * 1024;

impl Client {
    pub fn new(origin: Origin, timeout: Duration) -> Client {
        let agent = ureq::Agent::config_builder()
            .max_redirects(0)
            .http_status_as_error(false)
            .timeout_global(Some(timeout))
            .timeout_connect(Some(timeout))
            // A proxy would see every request.
            .proxy(None)
            .user_agent(concat!("curbside-verify/", env!("CARGO_PKG_VERSION")))
            .accept_encoding("br, gzip")
            .build()
            .into();
        Client { origin, agent }
    }

    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// GETs `path`, retrying failed connections, timeouts and 5xx with backoff;
    /// the body is refused past `limit` decoded bytes.
    pub fn get(&self, path: &str, limit: u64) -> Result<Answer, Failure> {
        let limit = limit.min(HARD_CAP);
        let url = format!("{}{path}", self.origin.as_str());
        let mut last = None;
        for attempt in 0..ATTEMPTS {
            if attempt > 0 {
                std::thread::sleep(Duration::from_millis(200 << attempt));
            }
            match self.once(&url, limit) {
                Ok(answer) if answer.status >= 500 => last = Some(Ok(answer)),
                Err(Failure::Unanswered(why)) => last = Some(Err(Failure::Unanswered(why))),
                done => return done,
            }
        }
        last.unwrap_or_else(|| Err(Failure::Unanswered("no attempt was made".into())))
    }

    fn once(&self, url: &str, limit: u64) -> Result<Answer, Failure> {
        let response = self.agent.get(url).call().map_err(unanswered)?;
        let status = response.status().as_u16();
        let mut headers: Vec<(String, String)> = Vec::new();
        for (name, value) in response.headers() {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            match headers.iter_mut().find(|(key, _)| key == name.as_str()) {
                Some((_, joined)) => {
                    joined.push_str(", ");
                    joined.push_str(&value);
                }
                None => headers.push((name.as_str().to_string(), value)),
            }
        }
        let brotli = headers
            .iter()
            .any(|(name, value)| name == "content-encoding" && value.trim() == "br");
        // ureq undoes gzip; Brotli by the build's own crate, so no second one is compiled.
        let raw = response
            .into_body()
            .with_config()
            .limit(if brotli { HARD_CAP } else { limit })
            .read_to_vec()
            .map_err(|err| match err {
                ureq::Error::BodyExceedsLimit(_) => Failure::TooLarge(limit),
                other => unanswered(other),
            })?;
        let body = if brotli {
            let mut decoded = Vec::new();
            brotli::Decompressor::new(raw.as_slice(), 16 * 1024)
                .take(limit + 1)
                .read_to_end(&mut decoded)
                .map_err(|err| Failure::Unanswered(format!("its Brotli body is broken ({err})")))?;
            if decoded.len() as u64 > limit {
                return Err(Failure::TooLarge(limit));
            }
            decoded
        } else {
            raw
        };
        Ok(Answer {
            status,
            headers,
            body,
        })
    }
}

fn unanswered(err: ureq::Error) -> Failure {
    Failure::Unanswered(match err {
        ureq::Error::Timeout(_) => "no answer in time".to_string(),
        ureq::Error::Io(io) => match io.kind() {
            std::io::ErrorKind::ConnectionRefused => "the connection was refused".to_string(),
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => {
                "no answer in time".to_string()
            }
            _ if io.to_string().contains("lookup address") => {
                "its host name was not found".to_string()
            }
            _ => format!("the connection failed ({io})"),
        },
        ureq::Error::HostNotFound => "its host name was not found".to_string(),
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_compare_by_scheme_host_and_port() {
        let origin = Origin::parse("HTTPS://Example.com:443/x").unwrap();
        assert_eq!(origin.as_str(), "https://example.com");
        assert_eq!(origin.resolve("/a?b").unwrap(), "/a?b");
        assert_eq!(origin.resolve("https://example.com/p").unwrap(), "/p");
        assert_eq!(origin.resolve("//example.com/p").unwrap(), "/p");
        assert!(origin.resolve("http://example.com/p").is_err());
        assert!(origin.resolve("//evil.test/p").is_err());
        assert!(origin.resolve("https://example.com:8443/").is_err());
        assert!(Origin::parse("ftp://x").is_err() && Origin::parse("nothing").is_err());
    }
}
