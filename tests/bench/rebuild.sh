#!/usr/bin/env bash
# How long `curbside serve --watch` takes to rebuild after a save: 5 content
# edits, 5 layout edits and 5 frontend edits in a temporary copy of the
# project, each waited for, then the median of each kind. Stops by itself.
#
#   tests/bench/rebuild.sh            # PORT=0 lets the system choose a port
#   EDITS=1 tests/bench/rebuild.sh    # one edit of each kind (the test command's smoke run)
#
# The numbers are the server's own "rebuilt (…) in N ms" lines: the build,
# not the debounce before it. Results also go to tests/bench/results/
# ($CURBSIDE_BENCH_RESULTS names another folder).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
port=${PORT:-0}
edits=${EDITS:-5}
wait_limit=120 # seconds for any one step

# The binary cargo builds for this checkout (or $CURBSIDE_BIN), wherever
# CARGO_TARGET_DIR puts it; never a stale one.
bin=$(node "$repo/tests/browser/support/curbside-binary.mjs")

# A copy of the project to edit freely, and the preview server on it.
. "$repo/tests/bench/preview.sh"

work=$(mktemp -d)
cleanup() {
  stop_preview
  rm -rf "$work"
}
trap cleanup EXIT

copy_project "$repo" "$bin" "$work"
site="$work/site"

log="$work/serve.log"
if ! start_preview "$log" "$wait_limit" "$bin" "$site" --watch --port "$port"; then
  cat "$log" >&2
  exit 1
fi

# Waits until `pattern` has matched more than `count` lines of the log.
wait_for() {
  local pattern=$1 count=$2 waited=0
  while [ "$(grep -c -- "$pattern" "$log" || true)" -le "$count" ]; do
    if ! kill -0 "$preview_pid" 2>/dev/null; then
      echo "the server stopped:" >&2
      cat "$log" >&2
      exit 1
    fi
    if [ "$waited" -ge $((wait_limit * 10)) ]; then
      echo "no \"$pattern\" within ${wait_limit}s; the server printed:" >&2
      cat "$log" >&2
      exit 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
}

# edit KIND FILE LINE: appends LINE to FILE and prints the rebuild's ms.
edit() {
  local kind=$1 file=$2 line=$3 before
  # Appending to a file that moved would make a new one and time that instead.
  [ -f "$site/$file" ] || {
    echo "$file is not in the project any more: edit another file here" >&2
    exit 1
  }
  before=$(grep -c "^rebuilt ($kind) in " "$log" || true)
  printf '%s\n' "$line" >>"$site/$file"
  wait_for "^rebuilt ($kind) in " "$before"
  # Saves spaced out, so each is its own burst.
  sleep 0.3
  grep "^rebuilt ($kind) in " "$log" | tail -n 1 | awk '{ print $4 }'
}

median() {
  sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

content=() layouts=() frontend=()
for n in $(seq 1 "$edits"); do
  content+=("$(edit pages content/faq.yaml "# bench edit $n")")
done
for n in $(seq 1 "$edits"); do
  layouts+=("$(edit pages layouts/base.html "{# bench edit $n #}")")
done
for n in $(seq 1 "$edits"); do
  frontend+=("$(edit frontend frontend/src/islands/pricing.tsx "// bench edit $n")")
done

summary=$(
  printf 'rebuild after a save in serve --watch (median of %s, ms; each run)\n' "$edits"
  printf '  content  %6s   %s\n' "$(printf '%s\n' "${content[@]}" | median)" "${content[*]}"
  printf '  layouts  %6s   %s\n' "$(printf '%s\n' "${layouts[@]}" | median)" "${layouts[*]}"
  printf '  frontend %6s   %s\n' "$(printf '%s\n' "${frontend[@]}" | median)" "${frontend[*]}"
)
echo "$summary"
results=${CURBSIDE_BENCH_RESULTS:-$repo/tests/bench/results}
mkdir -p "$results"
echo "$summary" >"$results/rebuild-$(date -u +%Y%m%dT%H%M%SZ).txt"
