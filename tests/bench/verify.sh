#!/usr/bin/env bash
# How long `curbside verify` takes on a site of 1,000 pages: the site built
# for nginx into a temporary folder, PAGES copies of a legal page added, nginx
# with the build's configuration on a free loopback port, then verify, timed.
#
#   bash tests/bench/verify.sh          # PAGES=1000 by default
#
# Needs nginx with the brotli_static module (as the host tests do).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
pages=${PAGES:-1000}

# The binary cargo builds for this checkout (or $CURBSIDE_BIN), wherever
# CARGO_TARGET_DIR puts it; never a stale one.
bin=$(node "$repo/tests/browser/support/curbside-binary.mjs")

work=$(mktemp -d)
# nginx's workers run as another user when started as root.
chmod 755 "$work"
nginx_pid=""
cleanup() {
  if [ -n "$nginx_pid" ]; then kill "$nginx_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

site="$work/site"
"$bin" build --root "$repo" --out "$site" --hosting nginx 2>/dev/null
for i in $(seq -w 1 "$pages"); do
  sed "s/<title>/<title>$i /" "$site/privacypolicy.html" >"$site/page-$i.html"
done

port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
mkdir -p "$work/run"
cat >"$work/run/nginx.conf" <<EOF
daemon off;
pid $work/run/nginx.pid;
error_log stderr warn;
load_module /usr/lib/nginx/modules/ngx_http_brotli_static_module.so;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path $work/run/body;
  proxy_temp_path $work/run/proxy;
  fastcgi_temp_path $work/run/fastcgi;
  uwsgi_temp_path $work/run/uwsgi;
  scgi_temp_path $work/run/scgi;
  server {
    listen 127.0.0.1:$port;
    root $site;
    include $site-server/nginx.conf;
  }
}
EOF
nginx -c "$work/run/nginx.conf" -p "$work/run" 2>"$work/nginx.log" &
nginx_pid=$!
for _ in $(seq 1 50); do
  curl -fsS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null && break
  sleep 0.1
done

files=$(find "$site" -type f ! -name '*.br' ! -name '*.gz' | wc -l)
started=$(date +%s%N)
"$bin" verify "http://127.0.0.1:$port" --out "$site" --allow-samples >/dev/null 2>"$work/verify.log" || {
  cat "$work/verify.log" >&2
  exit 1
}
ended=$(date +%s%N)
tail -1 "$work/verify.log"
echo "verify: $files files ($pages pages added) in $(((ended - started) / 1000000)) ms"
