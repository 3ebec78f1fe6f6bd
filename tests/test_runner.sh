#!/usr/bin/env bash
# The test runner (scripts/run_tests.sh) on small scripts made to test it: the summary sums every
# test's counts, the logs come out in the order given whatever order the tests end in, a crashed
# test's "Segmentation fault" notice goes into the log beside its output and counts as a failure, a bad
# TEST_JOBS is refused, and an interrupt stops the tests still running.  Prints "runner: N passed, M failed".
set -u
# the runs below are the test's own: their "tests:" lines must not reach make check's summary
unset CHECK_SUMMARY
cd "$(dirname "$0")/.."
runner=$PWD/scripts/run_tests.sh
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "runner: FAILED: $1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a test: sleeps $1 seconds, says $2 passed and $3 failed, and leaves its pid in $tmp/pid.$4 when asked
cat > "$tmp/counts.sh" <<'EOF'
#!/bin/sh
[ -n "${4:-}" ] && echo $$ > "$(dirname "$0")/pid.$4"
sleep "$1"
echo "counts: $2 passed, $3 failed"
EOF
cat > "$tmp/crash.sh" <<'EOF'
#!/usr/bin/env bash
echo "before the crash"
kill -SEGV $$
EOF
chmod +x "$tmp/counts.sh" "$tmp/crash.sh"

# sums, and order: the first test ends last
out=$(TEST_JOBS=3 "$runner" "$tmp/counts.sh 1 2 0" "$tmp/counts.sh 0 3 1" "$tmp/counts.sh 0 4 0" 2> "$tmp/err"); rc=$?
if [ "$(tail -n 1 <<<"$out")" = "tests: 9 passed, 1 failed" ] && [ $rc -ne 0 ]; then pass
else fail "three tests of 2+3+4 passed and 1 failed: rc $rc, $(tail -n 1 <<<"$out")"; fi
if [ "$(grep -o 'counts: [0-9]' <<<"$out" | tr '\n' ' ')" = "counts: 2 counts: 3 counts: 4 " ]; then pass
else fail "logs not in the order given: $out"; fi

# a crash: counted, its notice in the log after its output, nothing on the runner's stderr
out=$(TEST_JOBS=2 "$runner" "$tmp/counts.sh 0 5 0" "$tmp/crash.sh" 2> "$tmp/err"); rc=$?
if [ $rc -ne 0 ] && [ "$(tail -n 1 <<<"$out")" = "tests: 5 passed, 1 failed" ]; then pass
else fail "a crashed test is not a failure: rc $rc, $(tail -n 1 <<<"$out")"; fi
if grep -A1 '^before the crash$' <<<"$out" | grep -q 'Segmentation fault' && [ ! -s "$tmp/err" ]; then pass
else fail "the crash notice is not beside the test's output (stderr: $(cat "$tmp/err"))"; fi

# TEST_JOBS checked
for bad in 0 x 1000 -1 2.5; do
  if TEST_JOBS=$bad "$runner" "$tmp/counts.sh 0 1 0" > /dev/null 2> "$tmp/err"; then fail "TEST_JOBS='$bad' accepted"
  elif grep -q 'TEST_JOBS must be an integer' "$tmp/err"; then pass
  else fail "TEST_JOBS='$bad' refused without saying why: $(cat "$tmp/err")"; fi
done

# an interrupt stops the runner and the tests still running (their children too), and sums nothing
# (started under job control: a background job of a script without it ignores SIGINT, and a shell cannot trap
# a signal ignored when it started; Ctrl-C at a terminal reaches the runner in the foreground.  The runner
# is started through perl with SIGINT set back to its default, because this script may itself have been
# started with SIGINT ignored, as by nohup or a background job of a shell without job control, and an
# ignored signal is inherited across exec: perl-base is in every Debian image.)
set -m
TEST_JOBS=2 perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec $ARGV[0]: $!\n"' \
  "$runner" "$tmp/counts.sh 60 1 0 a" "$tmp/counts.sh 60 1 0 b" > "$tmp/out" 2> "$tmp/err" &
r=$!
set +m
for _ in $(seq 100); do [ -s "$tmp/pid.a" ] && [ -s "$tmp/pid.b" ] && break; sleep 0.1; done
kill -INT $r
for _ in $(seq 50); do kill -0 $r 2> /dev/null || break; sleep 0.1; done
if kill -0 $r 2> /dev/null; then fail "the runner goes on after an interrupt"; kill -TERM $r; fi
wait $r; rc=$?
left=0
for t in a b; do
  p=$(cat "$tmp/pid.$t" 2> /dev/null)
  [ -n "$p" ] || continue
  for _ in $(seq 20); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done # a signalled process takes a moment
  kill -0 "$p" 2> /dev/null && { left=$((left + 1)); pkill -P "$p"; kill "$p" 2> /dev/null; }
done
if [ $rc -eq 130 ] && [ $left -eq 0 ] && grep -q 'interrupted' "$tmp/err" && ! grep -q '^tests:' "$tmp/out"; then pass
else fail "after an interrupt: exit $rc (want 130), $left test(s) still running, stderr '$(cat "$tmp/err")'"; fi

echo "runner: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
