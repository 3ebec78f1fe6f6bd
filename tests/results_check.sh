#!/usr/bin/env bash
# animbench results-check on files made for the test: a results file measured by this build is
# current; one whose points name another measuring code, another row version or a row that no
# longer exists is stale (exit 1) unless the allow-list names it (exit 0, with its reason); a file
# without points is unknown until --record gives it the versions of what it was made from, and
# stale once those differ from the build's.  Prints "results-check-test: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
expect() { # what, expected exit status, expected text, command...
  local what=$1 rc=$2 text=$3; shift 3
  out=$("$@" 2>&1); got=$?
  if [ "$got" -eq "$rc" ] && grep -qF -- "$text" <<<"$out"; then passed=$((passed + 1))
  else failed=$((failed + 1)); echo "results-check-test: FAILED: $what (exit $got, expected $rc and '$text'):"; echo "$out"; fi
}
m=$tmp/manifest.json
"$bin" run --clip walk --codec linear --json "$tmp/a.json" >/dev/null 2>&1
"$bin" run --clip jump --codec raw --json "$tmp/b.json" >/dev/null 2>&1
expect "a file this build measured" 0 "current         $tmp/a.json" "$bin" results-check --manifest "$m" "$tmp/a.json"
sed 's/"measure_version":[^,]*/"measure_version": "0000000000000000"/' "$tmp/b.json" > "$tmp/old_measure.json"
expect "another measuring code" 1 "measuring code 0000000000000000" "$bin" results-check --manifest "$m" "$tmp/old_measure.json"
sed 's/"codec_version":[^,]*/"codec_version": "1111111111111111"/' "$tmp/b.json" > "$tmp/old_row.json"
expect "another row version" 1 "row raw at 1111111111111111" "$bin" results-check --manifest "$m" "$tmp/old_row.json"
sed 's/"raw"/"raw-gone"/' "$tmp/b.json" > "$tmp/gone.json"
expect "a row that no longer exists" 1 "row raw-gone, which no longer exists" "$bin" results-check --manifest "$m" "$tmp/gone.json"
printf '# allowed\n%s\tkept as the published run\n' "$tmp/old_row.json" > "$tmp/allow.txt"
expect "a stale file on the allow-list" 0 "(allowed: kept as the published run)" \
  "$bin" results-check --manifest "$m" --allow "$tmp/allow.txt" "$tmp/old_row.json" "$tmp/a.json"
expect "the allow-list covers only its own files" 1 "STALE           $tmp/old_measure.json" \
  "$bin" results-check --manifest "$m" --allow "$tmp/allow.txt" "$tmp/old_row.json" "$tmp/old_measure.json"
echo "a table" > "$tmp/a_table.md"
expect "a file with no record" 1 "UNKNOWN         $tmp/a_table.md" "$bin" results-check --manifest "$m" "$tmp/a_table.md"
expect "--record from a results file" 0 "" "$bin" results-check --manifest "$m" --record --by test --from "$tmp/a.json" "$tmp/a_table.md"
expect "a recorded file" 0 "current         $tmp/a_table.md" "$bin" results-check --manifest "$m" "$tmp/a_table.md"
expect "--record for timings" 0 "" "$bin" results-check --manifest "$m" --record --codecs raw,linear "$tmp/timings.tsv"
: > "$tmp/timings.tsv"
expect "a recorded timing table" 0 "current         $tmp/timings.tsv" "$bin" results-check --manifest "$m" "$tmp/timings.tsv"
expect "--record from a stale file" 0 "" "$bin" results-check --manifest "$m" --record --from "$tmp/old_row.json" "$tmp/a_table.md"
expect "a file recorded from stale points" 1 "row raw at 1111111111111111" "$bin" results-check --manifest "$m" "$tmp/a_table.md"
expect "an unknown codec to --record" 2 "unknown codec 'nope'" "$bin" results-check --manifest "$m" --record --codecs nope "$tmp/x"
expect "--record without a source" 2 "--record needs one of --from and --codecs" "$bin" results-check --manifest "$m" --record "$tmp/x"
expect "a file that should hold every row, without most" 1 "no point of row raw, const, linear-all" \
  "$bin" results-check --manifest "$m" --every-row "$tmp/a.json" "$tmp/a.json"
expect "a file that should hold every row: current otherwise" 1 "STALE           $tmp/a.json" \
  "$bin" results-check --manifest "$m" --every-row "$tmp/a.json" "$tmp/a.json"
expect "--every-row asks it of the files it names only" 0 "current         $tmp/b.json" \
  "$bin" results-check --manifest "$m" --every-row "$tmp/a.json" "$tmp/b.json"
expect "--every-row without a file" 2 "--every-row needs a value" "$bin" results-check --manifest "$m" "$tmp/b.json" --every-row
echo "results-check-test: $passed passed, $failed failed"
[ -n "${CHECK_SUMMARY:-}" ] && echo "results-check-test: $passed passed, $failed failed" >> "$CHECK_SUMMARY"
[ "$failed" -eq 0 ]
