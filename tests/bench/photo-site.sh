#!/usr/bin/env bash
# Makes a copy of the project whose hero shows a phone's 12-megapixel photo
# (made by the make_photos example: 4000 × 3000, with EXIF and GPS), and prints
# its folder, for the benchmarks' --root:
#
#   node tests/bench/bench.mjs --root "$(bash tests/bench/photo-site.sh)" --paths /
#
# The copy is left in a temporary folder for the caller to remove. The example
# comes from tests/bench/example-binary.mjs ($CURBSIDE_EXAMPLES, or cargo).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/bench/preview.sh"
bin=$(node "$repo/tests/browser/support/curbside-binary.mjs")
work=$(mktemp -d "${TMPDIR:-/tmp}/curbside-photo-site-XXXXXX")
copy_project "$repo" "$bin" "$work" >&2
make_photos=$(node "$repo/tests/bench/example-binary.mjs" make_photos)
"$make_photos" "$work/site/content/photos" 1 >&2
mv "$work/site/content/photos/photo-01.jpg" "$work/site/content/photos/bins-at-curb.jpg"
home="$work/site/content/home.yaml"
grep -q '^  button: Start Service$' "$home"
sed -i 's/^  button: Start Service$/  button: Start Service\n  image:\n    src: photos\/bins-at-curb.jpg\n    alt: Two bins at the curb at dusk/' "$home"
echo "$work/site"
