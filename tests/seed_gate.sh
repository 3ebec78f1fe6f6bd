#!/usr/bin/env bash
# scripts/seed_gate.sh on the study's three clips with one row, into a scratch folder: every stream
# it reports is within the target it was searched for (ACL's within P too), each gate is
# 1.05 max(P, ACL's maximum) recomputed here, the table's geometric means are those of its own
# TSV recomputed here, REPORT_ONLY=1 writes the same table again, and a row or set that does not
# exist stops it before it measures, writing nothing.  Prints "seed-gate-test: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { # what, then a command that succeeds when it holds
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "seed-gate-test: FAILED: $what"; fi
}
if grep -q "UNAVAILABLE: built without ACL" <<<"$("$bin" list)"; then
  echo "seed-gate-test: skipped (ACL is not built)"
  echo "seed-gate-test: 0 passed, 0 failed"
  exit 0
fi
OUT=$tmp/g SETS=study ROWS=shellpack scripts/seed_gate.sh "$bin" > "$tmp/stdout" 2> "$tmp/stderr"
check "it runs (exit 0)" test $? -eq 0
check "one line per clip and precision" test "$(awk -F'\t' 'NR > 2' "$tmp/g.tsv" | wc -l)" -eq 6
check "every stream within the target it was searched for" awk -F'\t' 'NR > 2 {
    if ($11 > $3 || $13 > $6 || ($7 != "-" && $8 > $3)) bad = 1 } END { exit bad }' "$tmp/g.tsv"
check "each gate is 1.05 max(P, ACL's maximum), rounded down to 1e-6 mm" awk -F'\t' 'NR > 2 {
    m = $5 > $3 ? $5 : $3; if ($6 > 1.05 * m + 1e-12 || $6 < 1.05 * m - 1.000001e-6) bad = 1 } END { exit bad }' "$tmp/g.tsv"
check "the within-P column is ACL's and the row's figures of the same clip" awk -F'\t' 'NR > 2 {
    if ($4 <= 0 || $10 <= 0 || $12 <= 0 || $9 != "shellpack") bad = 1 } END { exit bad }' "$tmp/g.tsv"
# the table's three ratios at 0.1 mm, from the TSV here
expected=$(awk -F'\t' 'NR > 2 && $3 == 0.1 { n++; h += log($10 / $7); s += log($10 / $4)
    g += log(($10 + 0 < $12 + 0 ? $10 : $12) / $4) }
  END { printf "%.3fx (%d) | %.3fx (%d) | %.3fx (%d)", exp(h / n), n, exp(s / n), n, exp(g / n), n }' "$tmp/g.tsv")
check "the table's geometric means at 0.1 mm are the TSV's ($expected)" grep -qF "| $expected |" "$tmp/g.md"
cp "$tmp/g.md" "$tmp/first.md"
OUT=$tmp/g REPORT_ONLY=1 scripts/seed_gate.sh "$bin" > /dev/null 2>&1
check "REPORT_ONLY=1 writes the same table" cmp -s "$tmp/g.md" "$tmp/first.md"
OUT=$tmp/bad SETS=study ROWS=shellpack,no-such-row scripts/seed_gate.sh "$bin" > /dev/null 2> "$tmp/bad.err"
rc=$?
check "an unknown row: exit 2, named, nothing written" test $rc -eq 2 -a ! -e "$tmp/bad.tsv" -a ! -e "$tmp/bad.md"
check "an unknown row: the message names it" grep -qF "'no-such-row', which is not a codec" "$tmp/bad.err"
OUT=$tmp/bad SETS=nowhere scripts/seed_gate.sh "$bin" > /dev/null 2>&1
check "an unknown set: exit 2" test $? -eq 2
echo "seed-gate-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
