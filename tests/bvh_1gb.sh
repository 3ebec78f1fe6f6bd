#!/usr/bin/env bash
# Issue 13: a 1 GB BVH file imports with bounded memory.  The file (one
# billion bytes, under the 1 GiB file limit) holds a 22-joint chain of 6,000
# frames whose values are separated by long runs of spaces, so that the text
# is 1 GB while the clip is 10 MB.  It is measured with `run --codec raw`
# under an address-space limit of 512 MiB: an importer that held the text (or
# a copy of the MOTION section) in memory could not run at all.  The file is
# written to a temporary folder (TMPDIR) and removed.
# Prints "bvh-1gb: N passed, M failed".
# usage: tests/bvh_1gb.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
file=$work/one_gigabyte.bvh
joints=22 frames=6000 size=1000000000
{
  echo "HIERARCHY"
  echo "ROOT j0"
  echo "{"
  echo "  OFFSET 0 90 0"
  echo "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"
  for ((j = 1; j < joints; j++)); do
    echo "  JOINT j$j"; echo "  {"; echo "    OFFSET 0 5 0"; echo "    CHANNELS 3 Zrotation Xrotation Yrotation"
  done
  echo "  End Site"; echo "  {"; echo "    OFFSET 0 5 0"; echo "  }"
  for ((j = 1; j < joints; j++)); do echo "  }"; done
  echo "}"
  echo "MOTION"
  echo "Frames: $frames"
  echo "Frame Time: 0.0333333"
} >"$file"
head_bytes=$(stat -c %s "$file")
values=$((6 + 3 * (joints - 1)))
# every value is "%.3f" of 5 to 7 characters plus a run of spaces, sized so the file has $size bytes
awk -v frames="$frames" -v values="$values" -v head="$head_bytes" -v size="$size" 'BEGIN {
  line_bytes = int((size - head) / frames)
  for (f = 0; f < frames; f++) {
    text = sprintf("%.3f %.3f %.3f", f * 0.01, 90 + sin(f * 0.1), 0)
    for (v = 3; v < values; v++) text = text sprintf(" %.3f", 20 * sin(f * 0.05 + v))
    last = (f == frames - 1) ? size - head - line_bytes * (frames - 1) : line_bytes
    pad = last - length(text) - 1
    if (pad < 1) { print "bvh_1gb: line too long" > "/dev/stderr"; exit 1 }
    if (pad != padlen) { spaces = " "; while (length(spaces) < pad) spaces = spaces spaces; spaces = substr(spaces, 1, pad); padlen = pad }
    printf "%s%s\n", spaces, text
  }
}' >>"$file"
passed=0 failed=0
check() { if "$@"; then passed=$((passed + 1)); echo "  ok: $name"; else failed=$((failed + 1)); echo "  FAILED: $name"; fi; }
name="the file is 1,000,000,000 bytes"; check test "$(stat -c %s "$file")" = "$size"
start=$(date +%s.%N)
out=$( (ulimit -v 524288; "$bin" run --clip "$file" --codec raw --unit-m 0.01) 2>&1) && rc=0 || rc=$?
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
name="imported and measured under a 512 MiB address-space limit ($secs s)"; check test "$rc" = 0
name="all 6,000 frames of 22 joints"; check grep -q "6000 frames" <<<"$out"
[ "$rc" = 0 ] || echo "$out" | tail -5
echo "bvh-1gb: $passed passed, $failed failed"
[ -z "${CHECK_SUMMARY:-}" ] || echo "bvh-1gb: $passed passed, $failed failed" >>"$CHECK_SUMMARY"
[ "$failed" -eq 0 ]
