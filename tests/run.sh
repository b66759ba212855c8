#!/usr/bin/env bash
# Runs every test suite of curbside, installing what it can itself:
#   1. Rust: format, lints, unit and integration tests (cargo test)
#   2. Frontend: type check and Vitest (frontend/)
#   3. Browser: Playwright with Debian's Chromium against a fresh build (tests/browser/)
# Run from anywhere: bash tests/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

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

step "Installing the browser tests' npm packages (npm ci)"
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)

# The README's build command; it installs the frontend's npm packages itself.
step "Building the site (cargo run --release -- build)"
cargo run --release --quiet -- build --out target/test-run-site
# The browser tests run the binary just built, wherever CARGO_TARGET_DIR puts it.
CURBSIDE_BIN=$(node tests/browser/support/curbside-binary.mjs)
export CURBSIDE_BIN

step "Rust: cargo fmt --check"
cargo fmt --check

step "Rust: cargo clippy"
cargo clippy --all-targets --quiet -- -D warnings

step "Rust: cargo test"
cargo test --quiet

step "Frontend: type check and Vitest"
(cd frontend && npm run --silent typecheck && npm test --silent)

step "Browser: Playwright in Chromium against the built site"
(cd tests/browser && npm run --silent typecheck && npx playwright test)
