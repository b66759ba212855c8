#!/usr/bin/env bash
# Times a build (wall clock and peak memory) of a project copy given each
# picture the budgets are sized for: an ordinary screen recording that must
# publish, and the hostile files that must be refused before the work (a GIF
# of 100 frames of 5000 × 5000, an SVG whose DTD entity expands 3 KB into
# 90 MB, an SVG of 45 MB of plain paths). Prints one row each.
#
#   bash tests/bench/hostile-pictures.sh [FRAMES]   (the recording's frames, 300 by default)
#
# FRAMES=1 is the test command's smoke run. The make_recording example comes from
# tests/bench/example-binary.mjs ($CURBSIDE_EXAMPLES, or cargo).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/bench/preview.sh"
bin=$(node "$repo/tests/browser/support/curbside-binary.mjs")
frames=${1:-300}
work=$(mktemp -d "${TMPDIR:-/tmp}/curbside-hostile-XXXXXX")
trap 'rm -rf "$work"' EXIT
copy_project "$repo" "$bin" "$work" >&2
site="$work/site"
make_recording=$(node "$repo/tests/bench/example-binary.mjs" make_recording)
"$make_recording" "$work" "$frames" >&2
"$make_recording" "$work" 100 5000 5000 frames flat >&2
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
value = "M0 0h1v1h-1z " * 250
uses = '<path d="&p;"/>' * 30000
open(f"{work}/entities.svg", "w").write(
    f'<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY p "{value}">]><svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">{uses}</svg>')
path = '<path d="' + "M0 0h1v1h-1z " * 340 + '"/>\n'
paths = path * (45 * 1024 * 1024 // len(path))
open(f"{work}/plain.svg", "w").write(f'<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">{paths}</svg>')
PY
policy="$site/content/pages/privacypolicy.md"
cp "$policy" "$work/policy.md"
# A first build, so every row below times the picture and not the islands' bundle.
"$bin" --root "$site" build --out "$site/dist" >/dev/null 2>&1
printf '%-28s %8s %10s  %s\n' file seconds "peak MB" outcome
for file in recording.gif frames.gif entities.svg plain.svg; do
  cp "$work/$file" "$site/content/pages/$file"
  cp "$work/policy.md" "$policy"
  printf '\n![A picture](%s)\n' "$file" >>"$policy"
  status=0
  /usr/bin/time -f '%e %M' -o "$work/time" "$bin" --root "$site" build --out "$site/dist" >"$work/out" 2>&1 || status=$?
  read -r seconds kb < <(tail -1 "$work/time")
  if [ "$status" = 0 ]; then outcome=published; else outcome=$(grep -m1 '^error:' "$work/out" | cut -c1-110); fi
  printf '%-28s %8s %10s  %s\n' "$file ($(($(stat -c %s "$work/$file") / 1024)) KB)" "$seconds" "$((kb / 1024))" "$outcome"
  rm "$site/content/pages/$file"
done
