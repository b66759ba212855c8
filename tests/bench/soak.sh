#!/usr/bin/env bash
# The watch-mode soak: `curbside serve --watch` on a temporary copy of the
# project takes 200 rapid saves of content/plans.yaml (20-50 ms apart),
# alternating a valid monthly price and a broken one (`abc`), while a client
# keeps loading / and /privacypolicy. At the end the server must still run,
# never have panicked, have answered every page load with 200 (a failed
# build keeps the last good pages), and serve the last save's price (the
# last save is a valid one). Prints resident memory before and after, and
# the counts of builds, failed builds and requests. Stops by itself within
# about two minutes; exits non-zero on any failure.
#
#   tests/bench/soak.sh               # PORT=0 lets the system choose a port
#   EDITS=50 tests/bench/soak.sh      # a shorter run (EDITS=2, the shortest: the test command's smoke run)
#
# All traffic goes to 127.0.0.1. Results also go to tests/bench/results/
# ($CURBSIDE_BENCH_RESULTS names another folder).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
port=${PORT:-0}
edits=${EDITS:-200}
# One broken save and one good one at the least: the soak is their alternation.
[[ "$edits" =~ ^[0-9]+$ ]] && [ "$edits" -ge 2 ] || {
  echo "EDITS is $edits: give at least 2 saves" >&2
  exit 2
}
final_price=23 # the last save's monthly price; others are 26-29
started=$(date +%s)
deadline=$((started + 110)) # every wait below gives up by then

# The binary cargo builds for this checkout (or $CURBSIDE_BIN), wherever
# CARGO_TARGET_DIR puts it; never a stale one.
bin=$(node "$repo/tests/browser/support/curbside-binary.mjs")

# A copy of the project to edit freely, and the preview server on it.
. "$repo/tests/bench/preview.sh"

work=$(mktemp -d)
log="$work/serve.log"
client=""
cleanup() {
  if [ -n "$client" ]; then
    kill "$client" 2>/dev/null || true
    wait "$client" 2>/dev/null || true
  fi
  stop_preview
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "soak failed: $*" >&2
  echo "--- the server's last lines:" >&2
  tail -n 30 "$log" >&2 2>/dev/null || true
  exit 1
}

copy_project "$repo" "$bin" "$work"
site="$work/site"

[ $((edits % 2)) -eq 0 ] && [ "$edits" -gt 0 ] || fail "EDITS must be even, so that saves alternate and the last is valid"
plans="$site/content/plans.yaml"
grep -q '^  price: 25$' "$plans" || fail "content/plans.yaml has no monthly 'price: 25' line to edit"

start_preview "$log" $((deadline - $(date +%s))) "$bin" "$site" --watch --port "$port" || fail "the server did not start"
server=$preview_pid
url=$preview_url
case "$url" in http://127.0.0.1:*) ;; *) fail "not on loopback: $url" ;; esac

rss() { awk '/^VmRSS:/ { print $2 " " $3 }' "/proc/$server/status"; }
# The server's child processes (the Node island server), together.
children_rss() {
  local total=0 child
  for child in $(cat /proc/"$server"/task/*/children 2>/dev/null); do
    total=$((total + $(awk '/^VmRSS:/ { print $2 }' "/proc/$child/status" 2>/dev/null || echo 0)))
  done
  echo "$total kB"
}
threads() { awk '/^Threads:/ { print $2 }' "/proc/$server/status"; }

# Warm up: a few loads, so "before" counts what serving itself keeps.
for _ in $(seq 1 20); do
  curl -s -o /dev/null --max-time 5 "$url/" || true
done
rss_before=$(rss)
children_before=$(children_rss)
threads_before=$(threads)

# The client: loads both pages in a loop until told to stop, writing one
# status per load (000 when curl got no answer). Bounded in count and time.
statuses="$work/statuses"
stop="$work/stop"
: >"$statuses"
(
  n=0
  while [ ! -e "$stop" ] && [ "$n" -lt 20000 ] && [ "$(date +%s)" -lt "$deadline" ]; do
    for page in / /privacypolicy; do
      curl -s -o /dev/null --max-time 5 -w '%{http_code}\n' "$url$page" >>"$statuses" || echo 000 >>"$statuses"
    done
    n=$((n + 2))
  done
) &
client=$!

# The saves: written beside the file and renamed over it, as editors do.
# A valid save sets the monthly price and the annual one to ten of them (the
# content requires a whole number of months); a broken one only the monthly.
save_prices() {
  awk -v monthly="$1" -v annual="${2:-}" '
    /^  price: / { seen++ }
    /^  price: / && seen == 1 { print "  price: " monthly; next }
    /^  price: / && seen == 2 && annual != "" { print "  price: " annual; next }
    { print }' "$plans" >"$plans.tmp-save"
  mv "$plans.tmp-save" "$plans"
}
for n in $(seq 1 "$edits"); do
  if [ "$n" -eq "$edits" ]; then
    save_prices "$final_price" $((final_price * 10))
  elif [ $((n % 2)) -eq 1 ]; then
    save_prices abc
  else
    price=$((26 + n % 4))
    save_prices "$price" $((price * 10))
  fi
  if [ "$n" -eq 1 ] && [ "$edits" -lt 10 ]; then
    # In a short run, the first (broken) save's failed build waited for: saves close together
    # make one build, so a run of two saves could have no failure to recover from. (A long
    # run has many; its first save stays as rapid as the rest.)
    until grep -q '^error:' "$log"; do
      [ "$(date +%s)" -lt "$deadline" ] || fail "the first, broken save made no failed build"
      kill -0 "$server" 2>/dev/null || fail "the server stopped after the first save"
      sleep 0.05
    done
  fi
  sleep "0.0$((20 + RANDOM % 31))"
  kill -0 "$server" 2>/dev/null || fail "the server stopped during the saves (save $n)"
done

# Settle: the last save's build, then its price on the home page.
settled=""
while [ "$(date +%s)" -lt "$deadline" ]; do
  if curl -s --max-time 5 "$url/" | grep -q "\\\$$final_price\\b"; then
    settled=yes
    break
  fi
  sleep 0.2
done
touch "$stop"
wait "$client" || true
client=""
sleep 0.5

kill -0 "$server" 2>/dev/null || fail "the server stopped"
rss_after=$(rss)
children_after=$(children_rss)
threads_after=$(threads)
[ -n "$settled" ] || fail "the home page never showed the last save's price (\$$final_price)"
home=$(curl -s --max-time 5 "$url/")
grep -q "\\\$$final_price\\b" <<<"$home" || fail "the home page does not show \$$final_price"
! grep -q '\$abc' <<<"$home" || fail "the home page shows a broken price"
! grep -q 'panicked' "$log" || fail "the server panicked"

builds=$(grep -c '^rebuilt (' "$log" || true)
errors=$(grep -c '^error:' "$log" || true)
requests=$(wc -l <"$statuses")
ok=$(grep -c '^200$' "$statuses" || true)
other=$((requests - ok))

summary=$(
  printf 'serve --watch soak: %s saves (valid and broken alternating, 20-50 ms apart) in %ss\n' "$edits" "$(($(date +%s) - started))"
  printf '  builds      %s good, %s failed (saves close together make one build)\n' "$builds" "$errors"
  printf '  requests    %s (%s answered 200, %s not)\n' "$requests" "$ok" "$other"
  printf '  memory      VmRSS %s before, %s after (its Node child: %s, %s)\n' "$rss_before" "$rss_after" "$children_before" "$children_after"
  printf '  threads     %s before, %s after\n' "$threads_before" "$threads_after"
  printf '  final page  shows $%s\n' "$final_price"
)
echo "$summary"
results=${CURBSIDE_BENCH_RESULTS:-$repo/tests/bench/results}
mkdir -p "$results"
echo "$summary" >"$results/soak-$(date -u +%Y%m%dT%H%M%SZ).txt"
[ "$other" -eq 0 ] || fail "$other page loads were not answered 200: $(grep -v '^200$' "$statuses" | sort | uniq -c | tr '\n' ' ')"
[ "$builds" -gt 0 ] && [ "$errors" -gt 0 ] || fail "expected both good and failed builds"
