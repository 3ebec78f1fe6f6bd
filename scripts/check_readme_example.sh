#!/usr/bin/env bash
# The README's "Adding a codec" example, as written, builds and measures:
# its file is byte for byte codecs/example/every_nth.c, its registry row is in
# codecs/registry.c, and the built binary measures it on a clip.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
fail=0
extract() { # marker -> the fenced block after it
  awk -v m="<!-- example: $1 -->" '$0 == m {on=1; next} on && /^```/ {if (inside) exit; inside=1; next} on && inside {print}' README.md
}
tmp=$(mktemp -d)
extract "codecs/example/every_nth.c" > "$tmp/every_nth.c"
extract "registry row" > "$tmp/row.c"
if [ ! -s "$tmp/every_nth.c" ] || ! cmp -s "$tmp/every_nth.c" codecs/example/every_nth.c; then
  echo "readme example: the README's every_nth.c differs from codecs/example/every_nth.c"; diff "$tmp/every_nth.c" codecs/example/every_nth.c | head; fail=1
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
