# Sourced by the bench scripts: copy_project REPO BIN WORK makes WORK/site, a
# copy of the project to edit freely: content/ and layouts/ as they are,
# frontend/ without its packages, which are linked (not installed again),
# as tests/common does. Its own .cache stays apart from the real one.
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
