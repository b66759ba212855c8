//! nginx and Caddy configuration: `_headers`' headers (404s and redirects too),
//! clean addresses, `404.html` with status 404, long caching of hashed assets,
//! the precompressed copies. Included unchanged; every build writes it again,
//! since the policy holds its inline code's hashes.

use super::headers::{IMMUTABLE, InlineSources, security};

/// Beside the site, never in it.
pub const NGINX_FILE: &str = "nginx.conf";
pub const CADDY_FILE: &str = "Caddyfile";

/// Paths no visitor is meant to fetch: dotfiles, the precompressed copies (sent
/// for their originals) and `_headers`, `_redirects`. `/.well-known/` is
/// matched before this.
const HIDDEN_REGEX: &str = r"(^|/)\.|\.(br|gz)$|^/_(headers|redirects)$";

/// For the `server` block serving the site.
pub fn nginx(inline: &InlineSources) -> String {
    let headers = security(inline);
    // `add_header` in a location drops every server-level header, so the one
    // location adding one repeats them all; `always` sends them with 404s and redirects too.
    let add = |indent: &str, extra: &[(&str, String)]| {
        headers
            .iter()
            .map(|(name, value)| (*name, value.clone()))
            .chain(extra.iter().cloned())
            .map(|(name, value)| format!("{indent}add_header {name} \"{value}\" always;\n"))
            .collect::<String>()
    };
    let cache = [("Cache-Control", IMMUTABLE.to_string())];
    format!(
        r#"# Written by curbside for nginx 1.22 or later: every build writes it again.
# Include it unchanged in the server block that serves the site, after its root:
#
#     server {{
#         listen 80;
#         server_name example.com;
#         root /srv/curbside/dist;
#         include /srv/curbside/dist-server/nginx.conf;
#     }}
#
# It needs the brotli_static module (Debian: libnginx-mod-http-brotli-static)
# and a site built with `curbside build --hosting nginx`, which writes the .br and
# .gz copies it serves.

charset utf-8;
# Redirects name the path only: right behind a proxy or on another port too.
absolute_redirect off;
error_page 404 /404.html;

brotli_static on;
gzip_static on;
gzip_vary on;

{headers}
location = / {{
    try_files /index.html =404;
}}
location = /index.html {{
    return 301 /;
}}
location = /index {{
    return 301 /;
}}
# The 404 page answers for unknown addresses; it has none of its own.
location = /404 {{
    return 404;
}}
location = /404.html {{
    internal;
}}
# A prefix match that stops the regular expressions: security.txt and
# domain checks live here.
location ^~ /.well-known/ {{
    try_files $uri =404;
}}
location ~ "{hidden}" {{
    return 404;
}}
location /assets/ {{
{asset_headers}    try_files $uri =404;
}}
location / {{
    # One address per page: /page.html and /page/ lead to /page.
    rewrite "^/(.+)\.html$" /$1 permanent;
    rewrite "^/(.+)/$" /$1 permanent;
    try_files $uri $uri.html =404;
}}
"#,
        headers = add("", &[]),
        asset_headers = add("    ", &cache),
        hidden = HIDDEN_REGEX,
    )
}

/// For the site block serving the site.
pub fn caddy(inline: &InlineSources) -> String {
    let headers: String = security(inline)
        .iter()
        .map(|(name, value)| format!("\t\t{name} \"{value}\"\n"))
        .collect();
    format!(
        r#"# Written by curbside for Caddy 2.6 or later: every build writes it again.
# Import it unchanged in the site block that serves the site, after its root:
#
#     example.com {{
#         root * /srv/curbside/dist
#         import /srv/curbside/dist-server/Caddyfile
#     }}
#
# Build the site with `curbside build --hosting caddy`, which writes the .br and
# .gz copies it serves.

header {{
{headers}	}}
header /assets/* Cache-Control "{IMMUTABLE}"

# One address per page: /page.html, /page/ and /index lead to /page and /.
@index path /index /index.html
redir @index / permanent
@html path_regexp html ^/(.+)\.html$
redir @html /{{re.html.1}} permanent
@slash path_regexp slash ^/(.+)/$
redir @slash /{{re.slash.1}} permanent

# The 404 page answers for unknown addresses; it has none of its own.
# (Matched after try_files, which has turned /404 into /404.html.)
@hidden {{
	path_regexp "^/404\.html$|{hidden}"
	not path /.well-known/*
}}
error @hidden 404

try_files {{path}}.html {{path}}
file_server {{
	precompressed br gzip
	disable_canonical_uris
}}

handle_errors {{
	header {{
{headers}	}}
	rewrite * /404.html
	file_server {{
		precompressed br gzip
	}}
}}
"#,
        hidden = HIDDEN_REGEX,
    )
}
