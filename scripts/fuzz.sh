#!/usr/bin/env bash
# Runs the three fuzz targets for SECONDS each under an RSS limit of MB, seeded
# with the corpora kept in the repository; new inputs go to build-fuzz/.
# Prints "fuzz: N passed, M failed" (one per target).
set -u
cd "$(dirname "$0")/.."
seconds=${1:-45} rss=${2:-2048}
passed=0 failed=0
run() { # target, max_len, seed folders...
  local target=$1 max_len=$2; shift 2
  local found=build-fuzz/found_$target log=build-fuzz/log_$target.txt
  mkdir -p "$found"
  echo "== fuzzing $target for $seconds s (-max_len=$max_len -rss_limit_mb=$rss)" >&2
  build-fuzz/fuzz_$target -max_total_time="$seconds" -max_len="$max_len" -rss_limit_mb="$rss" \
    -malloc_limit_mb="$rss" -timeout=20 -print_final_stats=1 -artifact_prefix=build-fuzz/crash_$target- \
    "$found" "$@" 2>"$log"
  local rc=$?
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)' "$log" >&2
  if [ $rc -ne 0 ]; then
    tail -n 40 "$log" >&2; failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}
run bvh 65536 tests/fuzz/corpus/bvh tests/data/bvh_good tests/data/bvh_bad
run decode 65536 tests/fuzz/corpus/decode
run scene 65536 tests/fuzz/corpus/scene
echo "fuzz: $passed passed, $failed failed"
[ -n "${CHECK_SUMMARY:-}" ] && echo "fuzz: $passed passed, $failed failed" >> "$CHECK_SUMMARY"
[ "$failed" -eq 0 ]
