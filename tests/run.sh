#!/usr/bin/env bash
# Runs every test suite of curbside, installing what it can itself:
#   1. Rust: format, lints, unit and integration tests (cargo test)
#   2. Frontend: type check and Vitest (frontend/)
#   3. Browser: Playwright with Debian's Chromium against a fresh build (tests/browser/)
#   4. Other engines: the core visitor journey in Debian's Firefox ESR (puppeteer-core,
#      WebDriver BiDi) and WebKitGTK (selenium-webdriver, WebKitWebDriver under xvfb-run)
#   5. Hosts: the site built for each host and served by its own software (Debian's
#      nginx and Caddy with the generated configuration, Cloudflare's wrangler pages dev,
#      Netlify's netlify dev)
# Run from anywhere: bash tests/run.sh. Any CARGO_TARGET_DIR works.
set -euo pipefail
cd "$(dirname "$0")/.."

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

# Firefox ESR, WebKitGTK's WebDriver and a virtual display, from the system's packages too,
# and the web servers the host tests run (nginx with its brotli_static module, Caddy).
engine_packages=()
command -v firefox-esr >/dev/null 2>&1 || engine_packages+=(firefox-esr)
command -v WebKitWebDriver >/dev/null 2>&1 || engine_packages+=(webkit2gtk-driver)
command -v xvfb-run >/dev/null 2>&1 || engine_packages+=(xvfb xauth)
command -v nginx >/dev/null 2>&1 || engine_packages+=(nginx)
[ -e /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ] || engine_packages+=(libnginx-mod-http-brotli-static)
command -v caddy >/dev/null 2>&1 || engine_packages+=(caddy)
if [ "${#engine_packages[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "Installing ${engine_packages[*]} (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${engine_packages[@]}" >/dev/null
  else
    echo "Missing for the Firefox, WebKit and host runs: ${engine_packages[*]}." >&2
    echo "Install your distribution's packages (as root on Debian: apt-get install firefox-esr webkit2gtk-driver xvfb xauth nginx libnginx-mod-http-brotli-static caddy)" >&2
    exit 1
  fi
fi

step "Installing the browser tests' npm packages (npm ci)"
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)

step "Installing the host tests' npm packages (npm ci: wrangler, netlify-cli, deno)"
(cd tests/browser/hosts && npm ci --no-audit --no-fund --loglevel=error)

step "Rust: cargo fmt --check"
cargo fmt --check

step "Rust: cargo clippy"
cargo clippy --all-targets --quiet -- -D warnings

step "Rust: cargo test"
cargo test --quiet

# The binary cargo test just built and ran, wherever CARGO_TARGET_DIR puts it:
# the browser tests use it too, so there is no third compile (a release one).
# It is the same code as `cargo run --release`, in the tests' profile.
CURBSIDE_BIN=$(node tests/browser/support/curbside-binary.mjs --tests)
export CURBSIDE_BIN

# The README's build command, with that binary; it installs the frontend's npm
# packages itself.
step "Building the site (curbside build)"
"$CURBSIDE_BIN" build --out target/test-run-site

step "Frontend: type check and Vitest"
(cd frontend && npm run --silent typecheck && npm test --silent)

step "Browser: Playwright in Chromium against the built site"
(cd tests/browser && npm run --silent typecheck && npx playwright test)

step "Other engines: the core visitor journey in Firefox ESR and WebKitGTK"
(cd tests/browser && node --test engines/firefox.test.mjs && xvfb-run -a node --test engines/webkit.test.mjs)

step "Hosts: nginx, Caddy, wrangler pages dev, netlify dev and a host without headers"
(cd tests/browser && node --test hosts/)
