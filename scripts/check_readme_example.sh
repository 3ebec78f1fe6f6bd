#!/usr/bin/env bash
# The "Adding a codec" example, as written, builds and measures: the file in
# docs/adding-a-codec.md is byte for byte codecs/example/every_nth.c, its registry
# row there and in README is in codecs/registry.c, and the built binary measures it.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
fail=0
extract() { # file marker -> the fenced block after the marker
  awk -v m="<!-- example: $2 -->" '$0 == m {on=1; next} on && /^```/ {if (inside) exit; inside=1; next} on && inside {print}' "$1"
}
tmp=$(mktemp -d)
extract docs/adding-a-codec.md "codecs/example/every_nth.c" > "$tmp/every_nth.c"
{ extract docs/adding-a-codec.md "registry row"; extract README.md "registry row"; } > "$tmp/row.c"
[ -n "$(extract README.md "registry row")" ] || { echo "readme example: README has no registry row"; fail=1; }
if [ ! -s "$tmp/every_nth.c" ] || ! cmp -s "$tmp/every_nth.c" codecs/example/every_nth.c; then
  echo "readme example: docs/adding-a-codec.md's every_nth.c differs from codecs/example/every_nth.c"; diff "$tmp/every_nth.c" codecs/example/every_nth.c | head; fail=1
fi
while IFS= read -r line; do
  [ -z "$line" ] && continue
  grep -qF -- "$line" codecs/registry.c || { echo "readme example: registry line not in codecs/registry.c: $line"; fail=1; }
done < "$tmp/row.c"
[ -s "$tmp/row.c" ] || { echo "readme example: no registry row in README"; fail=1; }
out=$("$bin" run --clip walk --codec every-nth --step 3 2>&1)
if [ $? -ne 0 ] || ! grep -q '^bytes ' <<<"$out" || ! grep -q 'error, decoded from bytes: *max' <<<"$out"; then
  echo "readme example: '$bin run --clip walk --codec every-nth --step 3' did not measure:"; echo "$out"; fail=1
fi
rm -rf "$tmp"
if [ $fail -eq 0 ]; then echo "readme-example: 1 passed, 0 failed"; else echo "readme-example: 0 passed, 1 failed"; fi
exit $fail
