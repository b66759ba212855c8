# shellcheck shell=bash
# Sourced by the bench scripts: a copy of the project to edit freely, and
# `curbside serve` (the preview server) on a folder. The same in JavaScript is
# tests/browser/support/preview.mjs; in Rust, tests/it/support/fixture.rs
# (the copy) and server.rs (the server).

# copy_project REPO BIN WORK makes WORK/site, a copy of the project to edit
# freely: content/ and layouts/ as they are, frontend/ without its packages,
# which are linked (not installed again). Its own .cache stays apart from the
# real one.
copy_project() {
  local repo=$1 bin=$2 work=$3 site="$3/site" entry
  mkdir -p "$site/frontend/node_modules"
  cp -R "$repo/content" "$repo/layouts" "$site/"
  (cd "$repo/frontend" && tar cf - --exclude=./node_modules .) | (cd "$site/frontend" && tar xf -)
  if [ ! -f "$repo/frontend/node_modules/.curbside-installed" ]; then
    # A build installs the frontend's packages first.
    "$bin" --root "$repo" build --out "$work/warm-up" >/dev/null
  fi
  for entry in "$repo"/frontend/node_modules/* "$repo"/frontend/node_modules/.[!.]*; do
    [ -e "$entry" ] || continue
    [ "$(basename "$entry")" = ".cache" ] && continue
    ln -s "$entry" "$site/frontend/node_modules/"
  done
}

# start_preview LOG SECONDS BIN ROOT [ARG...] starts `BIN --root ROOT serve
# ARG...` in the background, with its output (stdout and stderr) in LOG, and
# waits up to SECONDS for its "Serving http://…" line. Sets preview_pid (the
# caller's cleanup calls stop_preview) and preview_url (http://HOST:PORT, with
# no trailing slash). Returns 1, saying why on stderr, when the server stops
# first or does not serve in time; it is stopped then.
start_preview() {
  local log=$1 seconds=$2 bin=$3 root=$4 deadline
  shift 4
  deadline=$(($(date +%s) + seconds))
  preview_url=""
  # Made here, so the wait below never reads it before the server's shell has opened it.
  : >"$log"
  "$bin" --root "$root" serve "$@" >"$log" 2>&1 &
  preview_pid=$!
  # The address is whole once the slash after it has come.
  until grep -q '^Serving http://[^ ]*/$' "$log"; do
    if ! kill -0 "$preview_pid" 2>/dev/null; then
      wait "$preview_pid" 2>/dev/null || true
      preview_pid=""
      echo "the preview server stopped before it served" >&2
      return 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      stop_preview
      echo "the preview server did not serve within $seconds s" >&2
      return 1
    fi
    sleep 0.1
  done
  preview_url=$(grep -m1 '^Serving http://' "$log" | awk '{ print $2 }')
  preview_url=${preview_url%/}
}

# stop_preview stops the server start_preview started, if it still runs, and
# waits for it.
stop_preview() {
  if [ -n "${preview_pid:-}" ]; then
    kill "$preview_pid" 2>/dev/null || true
    wait "$preview_pid" 2>/dev/null || true
    preview_pid=""
  fi
}
