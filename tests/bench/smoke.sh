#!/usr/bin/env bash
# Starts every benchmark in tests/bench/ in its smallest mode, so that a benchmark whose
# code path breaks (a renamed option, a changed output format, a file that moved) fails
# the test command instead of rotting unseen. Each runs to its end and prints or writes its
# report, which is checked for its parts; no figure and no timing is checked: the figures
# stay a person's to take (tests/bench/README.md). Fails naming each benchmark that failed.
#
#   bash tests/bench/smoke.sh                   # all of them; tests/run.sh runs this
#   bash tests/bench/smoke.sh soak.sh bench.mjs # some (examples: the Rust examples)
#   SMOKE_JOBS=1 bash tests/bench/smoke.sh      # one at a time (two by default)
#
# The binaries are the tests' own, never compiled again here: $CURBSIDE_BIN (tests/run.sh
# exports it; else the one `cargo build` makes, as tests/run.sh does) and $CURBSIDE_EXAMPLES,
# the folder of the examples `cargo test --no-run` built (else that command is run now).
# Results go to a temporary folder ($CURBSIDE_BENCH_RESULTS), not tests/bench/results/.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

if [ -z "${CURBSIDE_BIN:-}" ]; then CURBSIDE_BIN=$(node tests/browser/support/curbside-binary.mjs --tests); fi
if [ -z "${CURBSIDE_EXAMPLES:-}" ]; then CURBSIDE_EXAMPLES=$(node tests/bench/example-binary.mjs --tests); fi
export CURBSIDE_BIN CURBSIDE_EXAMPLES

work=$(mktemp -d "${TMPDIR:-/tmp}/curbside-smoke-XXXXXX")
export CURBSIDE_BENCH_RESULTS="$work/results"
# Photos of 640 × 480, not 12 megapixels: a hero's copies then take seconds, not tens of them.
export MAKE_PHOTOS_SIZE=640x480
# The DSSIM step runs with the real `dssim` when there is one (it is never a dependency), else
# with a stand-in that checks the two images and prints a score of 0.
if [ -z "${DSSIM:-}" ] && ! command -v dssim >/dev/null 2>&1; then export DSSIM="$repo/tests/bench/smoke-dssim.mjs"; fi

finish() {
  local pid
  # A run stopped early stops the smokes still running: timeout passes the signal to its group.
  for pid in "$work"/*.pid; do
    if [ -f "$pid" ]; then kill -TERM "$(cat "$pid")" 2>/dev/null || true; fi
  done
  wait || true
  rm -rf "$work"
}
trap finish EXIT

# A JSON file's check: node evaluates CHECK with the file's contents as `j`; fails saying so.
json_check() {
  local file=$1 check=$2
  # shellcheck disable=SC2016 # JavaScript, expanded by node
  node -e '
    const [file, check] = process.argv.slice(1);
    let passed = false;
    try {
      const j = JSON.parse(require("node:fs").readFileSync(file, "utf8"));
      passed = new Function("j", `return (${check});`)(j);
    } catch (error) {
      console.error(String(error));
    }
    if (!passed) {
      console.error(`${file} does not pass: ${check}`);
      process.exit(1);
    }' "$file" "$check"
}
# Fails unless the log holds the line.
says() {
  grep -q -- "$2" "$1" || {
    echo "its output has no line matching: $2" >&2
    return 1
  }
}

# Each smoke: its command in its smallest mode, then the checks of what it printed or wrote.
# Each writes its output to $log and keeps its files in a folder of its own, $dir (both set
# for each smoke by run_smoke).
dir="" log=""

# bench.mjs on a photo-site.sh copy (both proved at once, one Lighthouse run instead of
# two): one page, one Lighthouse run, one timed build, no settling, and rebuild.sh, which
# bench.mjs starts, with one edit of each kind. Its exit code is 0 when a step could not
# measure, so its JSON's errors are checked.
smoke_bench() {
  local site
  # Made in the smoke's own folder, so it goes with it whatever happens.
  site=$(TMPDIR="$dir" bash tests/bench/photo-site.sh 2>>"$log")
  [ -f "$site/content/photos/bins-at-curb.jpg" ] || {
    echo "photo-site.sh printed $site, which has no hero photo" >&2
    return 1
  }
  EDITS=1 node tests/bench/bench.mjs --root "$site" --lighthouse-runs 1 --build-runs 1 --settle-ms 0 --paths / >>"$log" 2>&1
  rm -rf "$(dirname "$site")"
  says "$log" '^Targets$'
  json_check "$CURBSIDE_BENCH_RESULTS/latest.json" \
    'j.errors.length === 0 && j.buildTime.runsMs.length === 1 && j.bytes.phone["/"].html.files === 1 && j.lighthouse["/"].runs === 1 && ["content", "layouts", "frontend"].every((k) => j.rebuild.runsMs[k].length === 1)'
}

smoke_js_report() {
  node tests/bench/js-report.mjs --settle-ms 0 --paths / --json "$dir/js.json" >>"$log" 2>&1
  says "$log" '^Totals, gzipped'
  json_check "$dir/js.json" 'j.visits.length === 2 && j.rows.length > 0 && j.visits.every((v) => v.interactions.length > 0)'
}

smoke_scale() {
  node tests/bench/scale.mjs --ns 0,10 --runs 1 >>"$log" 2>&1
  json_check "$CURBSIDE_BENCH_RESULTS/scale.json" 'j.runs === 1 && j.rows.length === 4 && j.rows.every((r) => r.sameFiles === true)'
}

smoke_pictures() {
  node tests/bench/pictures.mjs --runs 1 --cold-runs 1 --photos 2 >>"$log" 2>&1
  json_check "$CURBSIDE_BENCH_RESULTS/pictures.json" 'j.photos === 2 && j.buildMs.coldTenPhotos.length === 1 && j.heroBytes.phone390at3x.bytes > 0 && j.heroBytes.desktop1280at1x.bytes > 0'
}

# Only curbside: Astro is installed from npm's registry and Hugo is the system's `hugo`, which
# a machine running the tests may not reach or have. One cold build and one Lighthouse round.
smoke_pictures_peers() {
  node tests/bench/pictures-peers.mjs --only curbside --runs 1 --lighthouse-runs 1 --photos 2 >>"$log" 2>&1
  json_check "$CURBSIDE_BENCH_RESULTS/pictures-peers.json" \
    'j.results.length === 2 && j.results.every((r) => r.phone390at3x.heroDssim && r.desktop1280at1x.heroDssim) && Object.values(j.lighthouse.bySite).every((s) => s.mobile.runs.length === 1 && s.desktop.runs.length === 1)'
}

smoke_hostile_pictures() {
  bash tests/bench/hostile-pictures.sh 1 >>"$log" 2>&1
  says "$log" '^recording\.gif .* published$'
  [ "$(grep -c '^\(frames\.gif\|entities\.svg\|plain\.svg\) .* error: ' "$log")" = 3 ] || {
    echo "hostile-pictures.sh printed no row for each refused picture" >&2
    return 1
  }
}

# The test command's browser tests already press a sample of the sweep: the script and its
# reporter are proven by the hydration runs, in an output folder of their own.
smoke_tap_sweep() {
  node tests/bench/tap-sweep.mjs --skip-sweep --hydration-runs 1 --output "$dir/test-results" >>"$log" 2>&1
  says "$log" '^desktop: scroll start → pricing hydrated'
  says "$log" '^phone: scroll start → pricing hydrated'
}

smoke_stress_serve() {
  node tests/bench/stress-serve.mjs --smoke --silent-seconds 1 >>"$log" 2>&1
  [ "$(grep -c '^{"name":' "$log")" = 6 ] || {
    echo "stress-serve.mjs did not report six phases" >&2
    return 1
  }
  says "$log" '"figures":"[0-9]* of 20 closed by the server'
  says "$log" '^{"alive":true,"panicked":false,'
}

smoke_soak() {
  EDITS=2 bash tests/bench/soak.sh >>"$log" 2>&1
  says "$log" '^serve --watch soak: 2 saves'
}

smoke_verify() {
  PAGES=1 bash tests/bench/verify.sh >>"$log" 2>&1
  says "$log" '^verify: [0-9]* files (1 pages added) in [0-9]* ms$'
}

# The examples the scripts above do not run as their READMEs do: compression_levels on a
# built site, one round; picture_quality's table of one setting at one width of one photo.
# (make_photos and make_recording run in the picture smokes, picture_quality's reference and
# dssim in pictures-peers.mjs.)
smoke_examples() {
  "$CURBSIDE_BIN" build --root "$PWD" --out "$dir/site" >>"$log" 2>&1
  "$CURBSIDE_EXAMPLES/compression_levels" "$dir/site" 1 >>"$log" 2>&1
  says "$log" '^brotli 11 '
  "$CURBSIDE_EXAMPLES/make_photos" "$dir/photos" 1 >>"$log" 2>&1
  "$CURBSIDE_EXAMPLES/picture_quality" table --repeat 1 --widths 400 --webp "q80 m6" "$dir/photos/photo-01.jpg" >>"$log" 2>&1
  says "$log" '^| webp q80 m6 |'
}

# Longest first, so the short ones fill the other slot; the two with Lighthouse runs apart.
smokes=(pictures_peers js_report tap_sweep stress_serve soak hostile_pictures scale verify examples pictures bench)
# The script each smoke starts, as a failure names it.
declare -A scripts=(
  [bench]="bench.mjs (with bench-report.mjs, photo-site.sh and rebuild.sh)"
  [js_report]=js-report.mjs [scale]=scale.mjs [pictures]=pictures.mjs [pictures_peers]=pictures-peers.mjs
  [hostile_pictures]=hostile-pictures.sh [tap_sweep]=tap-sweep.mjs [stress_serve]=stress-serve.mjs
  [soak]=soak.sh [verify]=verify.sh [examples]="the examples compression_levels, make_photos and picture_quality"
)
# Each smoke's bound, in seconds: several times what it takes on a loaded machine.
declare -A limits=(
  [bench]=300 [js_report]=150 [scale]=120 [pictures]=180 [pictures_peers]=420 [hostile_pictures]=120
  [tap_sweep]=240 [stress_serve]=150 [soak]=150 [verify]=120 [examples]=120
)
export -f json_check says "${smokes[@]/#/smoke_}"
if [ "$#" -gt 0 ]; then
  chosen=()
  for arg in "$@"; do
    name=${arg%.*}
    name=${name//-/_}
    # Those bench.mjs starts, or imports.
    case $name in photo_site | rebuild | bench_report) name=bench ;; esac
    [ -n "${scripts[$name]:-}" ] || {
      echo "no smoke run for $arg; there are: ${smokes[*]}" >&2
      exit 2
    }
    chosen+=("$name")
  done
  smokes=("${chosen[@]}")
fi

# Runs one smoke with its bound; its status and time go to $work/NAME.status.
run_smoke() {
  local name=$1 started=$SECONDS status=0
  mkdir -p "$work/$name"
  # timeout signals the smoke's whole process group: the browsers and servers it started too.
  # The smoke appends its commands' output to the log, and its own messages come here too.
  # shellcheck disable=SC2094
  dir="$work/$name" log="$work/$name.log" timeout --kill-after=10 "${limits[$name]}" \
    bash -c "set -euo pipefail; smoke_$name" >>"$work/$name.log" 2>&1 &
  echo "$!" >"$work/$name.pid"
  wait "$!" || status=$?
  rm -f "$work/$name.pid"
  [ "$status" != 124 ] || echo "stopped after ${limits[$name]} s" >>"$work/$name.log"
  echo "$status $((SECONDS - started))" >"$work/$name.status"
}

jobs_at_once=${SMOKE_JOBS:-2}
started=$SECONDS
running=0
for name in "${smokes[@]}"; do
  if [ "$running" -ge "$jobs_at_once" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_smoke "$name" &
  running=$((running + 1))
done
wait || true

failed=()
printf 'Benchmarks in their smallest mode (%s s in all, %s at once):\n' $((SECONDS - started)) "$jobs_at_once"
for name in "${smokes[@]}"; do
  seconds=""
  read -r status seconds <"$work/$name.status" || status=unknown
  if [ "$status" = 0 ]; then
    printf '  passed  %4ss  %s\n' "$seconds" "${scripts[$name]}"
  else
    printf '  FAILED  %4ss  %s (exit %s); its output:\n' "${seconds:-?}" "${scripts[$name]}" "$status"
    sed 's/^/    | /' "$work/$name.log" | tail -n 60
    failed+=("${scripts[$name]}")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  printf 'FAILED, the smoke run of: %s\n' "${failed[@]}" >&2
  exit 1
fi
