#!/usr/bin/env bash
# shellpack-trained's and shellpack-side's built-in states and their training program agree:
# `animbench train-priors [--side] --check` trains again on Bandai dataset 1 (all but the held-out
# fifth) and compares what it would write with codecs/shellpack/shellpack_priors.c
# (shellpack_side_priors.c) byte for byte.  Then each file is edited by one digit in a copy and the
# check must fail on it.  Prints "priors: N passed, M failed"; about a
# minute on two cores.  Without the training data it says so and fails.
set -u
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
passed=0 failed=0
finish() {
  echo "priors: $passed passed, $failed failed"
  [ -z "${CHECK_SUMMARY:-}" ] || echo "priors: $passed passed, $failed failed" >> "$CHECK_SUMMARY"
  [ "$failed" -eq 0 ]
  exit
}
if [ ! -d "$data/bandai_namco_1" ]; then
  echo "priors: FAILED: no $data/bandai_namco_1: the training data of codecs/shellpack/shellpack_priors.c"
  failed=1
  finish
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Each built-in table: shellpack-trained's residual states, and shellpack-side's side-information states (--side).
check_table() {
  local file=$1; shift
  if "$bin" train-priors "$@" --check "$file" > "$tmp/out" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "priors: FAILED: $file and the program disagree:"; cat "$tmp/out"
  fi
  grep -q "is what the program writes" "$tmp/out" || { failed=$((failed + 1)); echo "priors: FAILED: no verdict in:"; cat "$tmp/out"; }
  # one state changed by one unit, as a hand edit would: the check must notice
  sed '0,/{\([0-9]*\)\([0-9]\), /s//{\1X\2, /' "$file" |
    awk '{ if (!done && match($0, /X[0-9]/)) { d = substr($0, RSTART + 1, 1); $0 = substr($0, 1, RSTART - 1) ((d + 1) % 10) substr($0, RSTART + 2); done = 1 } print }' \
    > "$tmp/edited.c"
  if cmp -s "$tmp/edited.c" "$file"; then
    failed=$((failed + 1)); echo "priors: FAILED: the edited copy of $file is the same file"
  elif "$bin" train-priors "$@" --check "$tmp/edited.c" > "$tmp/out2" 2>&1; then
    failed=$((failed + 1)); echo "priors: FAILED: the check accepts a copy of $file with one state changed"
  elif grep -q "is not what the program writes" "$tmp/out2"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "priors: FAILED: refused for another reason:"; cat "$tmp/out2"
  fi
}
check_table codecs/shellpack/shellpack_priors.c
check_table codecs/shellpack/shellpack_side_priors.c --side
finish
