#!/usr/bin/env bash
# Editing one codec re-measures only its rows: a copy of the sources is
# built, swept, edited (a comment appended to codecs/example/every_nth.c, then to
# codecs/keys/refine.c), rebuilt and swept again; the sweep must reuse every
# point of the rows the edit does not touch.  Prints "cache-keys: N passed,
# M failed".  Built at -O0 without ACL to take seconds, not minutes.
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git ls-files -z | xargs -0 tar -cf - | tar -xf - -C "$tmp"
cd "$tmp"
build() { make -s -j2 BUILD=build OPT=-O0 ACL_DIR=/nonexistent RTM_DIR=/nonexistent bin/animbench >/dev/null 2>&1; }
cat > def.json <<'EOT'
{"name": "keys", "output": "keys.json", "runs": [
  {"clips": ["walk"], "codecs": ["raw", "linear", "cubic"], "tol_mm": [1, 2]},
  {"clips": ["walk"], "codecs": ["every-nth"], "step": [2, 4]}]}
EOT
passed=0 failed=0
check() { # what, expected "stored measured", actual line
  if grep -q "$2" <<<"$3"; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "cache-keys: FAILED: $1: expected '$2' in: $3"; fi
}
build || { echo "cache-keys: the copy does not build"; echo "cache-keys: 0 passed, 1 failed"; exit 1; }
out=$(bin/animbench sweep def.json 2>&1 | grep "points:")
check "first sweep" "7 points: 0 stored for this code version, 7 to measure" "$out"
after_edit() { # file, expected summary: append a comment to file, rebuild, sweep, check what was re-measured
  echo "/* an edit */" >> "$1"
  build
  check "after editing $1" "$2" "$(bin/animbench sweep def.json 2>&1 | grep "points:")"
}
after_edit codecs/example/every_nth.c "7 points: 5 stored for this code version, 2 to measure"
after_edit codecs/keys/refine.c "7 points: 3 stored for this code version, 4 to measure"
after_edit core/fk.c "7 points: 0 stored for this code version, 7 to measure" # the measuring code
echo "cache-keys: $passed passed, $failed failed"
[ -n "${CHECK_SUMMARY:-}" ] && echo "cache-keys: $passed passed, $failed failed" >> "$CHECK_SUMMARY"
[ "$failed" -eq 0 ]
