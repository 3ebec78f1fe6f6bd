#!/usr/bin/env bash
# scripts/seed_gate.sh on the study's three clips with one row, into a scratch folder: every stream
# it reports is within the target it was searched for (ACL's within P too), each gate is
# 1.05 max(P, ACL's maximum) recomputed here, the table's geometric means are those of its own
# TSV recomputed here, REPORT_ONLY=1 writes the same table again, and a row or set that does not
# exist stops it before it measures, writing nothing; animbench gate against itself (every bound 1.05 P)
# and what it refuses.  Prints "seed-gate-test: N passed, M failed".
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
check "the seed gate's streams within the clip-wide gate, their share above P within ACL's + 0.005" awk -F'\t' 'NR > 2 {
    if (NF != 17 || $15 <= 0 || $16 > $6 || $17 > $14 + 0.005 || $14 < 0 || $14 > 1) bad = 1 } END { exit bad }' "$tmp/g.tsv"
# the table's three ratios at 0.1 mm, from the TSV here
expected=$(awk -F'\t' 'NR > 2 && $3 == 0.1 { n++; h += log($10 / $7); s += log($10 / $4)
    q += log(($10 + 0 < $15 + 0 ? $10 : $15) / $4); g += log(($10 + 0 < $12 + 0 ? $10 : $12) / $4) }
  END { printf "%.3fx (%d) | %.3fx (%d) | %.3fx (%d) | %.3fx (%d)", exp(h / n), n, exp(s / n), n, exp(q / n), n,
    exp(g / n), n }' "$tmp/g.tsv")
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
# against itself at P = 1 mm every joint's bound is 1.05 mm (shellpack's own stream is within 1 mm) and
# no sample of the reference is above P: so the gate's stream is within 1.05 mm, at most 0.5 % above 1 mm
"$bin" gate --clip walk --codec shellpack --reference shellpack --precision-mm 1 --tsv > "$tmp/self.tsv" 2>&1
check "gate against itself: within 1.05 P, share above P at most 0.005, no more bytes" awk -F'\t' '
  NF == 13 { n++; if ($5 > 1 || $6 != 0 || $9 > 1.05 || $10 > 0.005 || $8 > $4 || $12 != 1.05) bad = 1 } END { exit bad || n != 1 }' "$tmp/self.tsv"
# animbench gate on its own: what it refuses
"$bin" gate --clip walk --codec no-such-row --precision-mm 0.1 > /dev/null 2> "$tmp/gate.err"
check "gate: an unknown codec, exit 2 and named" test $? -eq 2 -a -n "$(grep -F "unknown codec 'no-such-row'" "$tmp/gate.err")"
"$bin" gate --clip walk --codec every-nth --precision-mm 0.1 > /dev/null 2> "$tmp/gate.err"
check "gate: a codec without tol_mm as its knob, exit 2" test $? -eq 2 -a -n "$(grep -F "must both take tol_mm" "$tmp/gate.err")"
"$bin" gate --clip walk --codec shellpack > /dev/null 2>&1
check "gate: no --precision-mm, exit 2" test $? -eq 2
"$bin" gate --clip walk --codec linear --precision-mm 0.1 > /dev/null 2> "$tmp/gate.err"
check "gate: a codec whose tol_mm is not a bound on the shell distance, exit 3 (cannot reach)" \
  test $? -eq 3 -a -n "$(grep -F "cannot reach" "$tmp/gate.err")"
echo "seed-gate-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
