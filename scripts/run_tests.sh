#!/usr/bin/env bash
# Runs every test binary (or script printing 'name: N passed, M failed') given, from the repository root, and ends with one
# line "tests: N passed, M failed" summed over all of them.
set -u
passed=0 failed=0 broken=0
for t in "$@"; do
  out=$($t 2>&1); rc=$?
  printf '%s\n' "$out"
  p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p; s/^[a-z-]*: \([0-9]*\) passed, [0-9]* failed$/\1/p' | tail -n 1)
  f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p; s/^[a-z-]*: [0-9]* passed, \([0-9]*\) failed$/\1/p' | tail -n 1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  if [ $rc -ne 0 ] && [ -z "$f" ]; then broken=$((broken + 1)); echo "$t: exited $rc without a cmocka summary"
  elif [ -z "$p" ] && [ -z "$f" ]; then broken=$((broken + 1)); echo "$t: printed no summary of passed or failed tests"; fi
done
failed=$((failed + broken))
echo "tests: $passed passed, $failed failed"
[ -n "${CHECK_SUMMARY:-}" ] && echo "tests: $passed passed, $failed failed" >> "$CHECK_SUMMARY"
[ "$failed" -eq 0 ]
