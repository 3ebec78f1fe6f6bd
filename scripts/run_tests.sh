#!/usr/bin/env bash
# Runs every test binary (or script printing 'name: N passed, M failed') given, from the repository root, and ends with one
# line "tests: N passed, M failed" summed over all of them.  TEST_JOBS (default 1) of them run at once; each one's output
# is kept until it ends and printed in the order given, so the log reads the same at any TEST_JOBS.
set -u
jobs=${TEST_JOBS:-1}
case $jobs in '' | *[!0-9]* | *[0-9][0-9][0-9][0-9]*) jobs=0 ;; *) jobs=$((10#$jobs)) ;; esac
if [ "$jobs" -lt 1 ]; then echo "run_tests: TEST_JOBS must be an integer from 1 to 999, not '${TEST_JOBS:-}'" >&2; exit 2; fi
out_dir=$(mktemp -d)
trap 'rm -rf "$out_dir"' EXIT
# Ctrl-C (or TERM) stops the tests still running, with whatever they started, and sums nothing.  Each test
# runs in its own process group (set -m): without job control a background job ignores SIGINT and went on
# after the runner had stopped.
pids=()
stop() {
  trap - INT TERM
  echo "run_tests: interrupted: the tests still running are stopped" >&2
  exec 2> /dev/null # not bash's "Terminated" notice for each
  for p in "${pids[@]}"; do kill -TERM -- "-$p"; done
  exit 130
}
trap stop INT TERM
set -m
i=0
for t in "$@"; do
  while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n; done
  # $t unquoted: an entry may be a script with its arguments.  The subshell's own stderr goes to the test's
  # log too: bash's "Segmentation fault" notice for a test that crashed lands beside that test's output.
  ( exec > "$out_dir/$i.out" 2>&1 < /dev/null; $t; echo $? > "$out_dir/$i.rc" ) &
  pids+=($!)
  i=$((i + 1))
done
wait
set +m
passed=0 failed=0 broken=0
i=0
for t in "$@"; do
  out=$(cat "$out_dir/$i.out"); rc=$(cat "$out_dir/$i.rc" 2>/dev/null || echo 255)
  i=$((i + 1))
  printf '%s\n' "$out"
  p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p; s/^[a-z-]*: \([0-9]*\) passed, [0-9]* failed$/\1/p' | tail -n 1)
  f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p; s/^[a-z-]*: [0-9]* passed, \([0-9]*\) failed$/\1/p' | tail -n 1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  if [ "$rc" -ne 0 ] && [ -z "$f" ]; then broken=$((broken + 1)); echo "$t: exited $rc without a cmocka summary"
  elif [ -z "$p" ] && [ -z "$f" ]; then broken=$((broken + 1)); echo "$t: printed no summary of passed or failed tests"; fi
done
failed=$((failed + broken))
echo "tests: $passed passed, $failed failed"
[ -n "${CHECK_SUMMARY:-}" ] && echo "tests: $passed passed, $failed failed" >> "$CHECK_SUMMARY"
[ "$failed" -eq 0 ]
