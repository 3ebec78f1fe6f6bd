#!/usr/bin/env bash
# The reproducers of issue 14 ("Bounded by construction") against the built
# binary, under a virtual-memory limit so that a regression fails here
# instead of filling the machine.  Each case: a command, the exit status it
# must have, and text its output must contain.  Prints
# "limits: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
bad=tests/data/bvh_bad
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
# 1 GiB of address space: far more than any case below needs when the limits
# hold, far less than the 5 to 24 GB they reached before.
MEM_KB=1048576
# A sanitizer build reserves terabytes of shadow address space: there the
# messages are checked without the limit (the plain build checks memory).
if { nm -D "$bin"; nm "$bin"; } 2>/dev/null | grep -q __asan_init; then MEM_KB=unlimited; fi

# expect STATUS TEXT -- COMMAND...: runs COMMAND under the memory limit and
# within 60 s, and checks its exit status and combined output.
expect() {
  local want=$1 text=$2; shift 3
  local out rc
  out=$( (ulimit -v $MEM_KB; timeout 60 "$@") 2>&1); rc=$?
  if [ "$rc" -eq "$want" ] && grep -qF -- "$text" <<<"$out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "limits: FAILED: $* -> exit $rc (want $want), output:"
    printf '%s\n' "$out" | head -n 5
    echo "  (want text: $text)"
  fi
}

# The limit lets ordinary work through: the check below is not vacuous.
expect 0 "bytes " -- "$bin" run --clip walk --codec cubic

# Finding 1: a 14 kB BVH of 400 joints without CHANNELS and a million frames
# (24 GB RSS before); the same 400 joints at 65,535 frames (joint-sample limit).
expect 2 "1000000 frames of 400 joints: 400000000 joint-samples, over the limit of 1048576" -- \
  "$bin" run --clip $bad/no_channels_million_frames.bvh --codec raw
expect 2 "26214000 joint-samples, over the limit of 1048576" -- \
  "$bin" run --clip $bad/no_channels_joint_samples.bvh --codec raw

# Finding 2: one flag (14 GB, 5 GB, undefined behaviour before).
expect 2 "6000000 frames: a clip has 2 to 4194304" -- "$bin" run --clip walk --codec cubic --walk-seconds 100000
expect 2 "100000 frames per second: a clip's rate is 0.1 to 10000 Hz" -- "$bin" run --clip walk --codec cubic --fps 100000
expect 2 "30000000000 frames: a clip has 2 to 4194304" -- "$bin" run --clip walk --codec cubic --fps 1e10
expect 2 "frames per second: a clip's rate is 0.1 to 10000 Hz" -- \
  "$bin" run --clip jump --codec cubic --fps 20000 --jump-seconds 1
expect 2 "6000000 frames: a clip has 2 to 4194304" -- "$bin" tables --walk-seconds 100000

# Finding 6: a frame time of 1e-300 and one that underflows.
expect 2 "expected a frame time from 0.0001 to 10 seconds" -- "$bin" run --clip $bad/frame_time_tiny.bvh --codec raw
expect 2 "found '1e-320'" -- "$bin" run --clip $bad/frame_time_denormal.bvh --codec raw
expect 2 "expected a frame count from 2 to 4194304, found '1'" -- "$bin" run --clip $bad/one_frame.bvh --codec raw

# Finding 7: files read whole.  A 2 GB sparse file is refused by its size, a
# link to /dev/zero by its type, both before reading a byte.
truncate -s 2G "$tmp/sparse.bvh"
expect 2 "over the limit of 1073741824 bytes" -- "$bin" run --clip "$tmp/sparse.bvh" --codec raw
# At the size limit the file is read (and fails at its first byte, all zeros); one byte over, refused.
truncate -s 1G "$tmp/edge.bvh"
expect 2 "edge.bvh:1:1: expected 'HIERARCHY', found" -- "$bin" run --clip "$tmp/edge.bvh" --codec raw
truncate -s 1073741825 "$tmp/edge.bvh"
expect 2 "1073741825 bytes, over the limit of 1073741824 bytes" -- "$bin" run --clip "$tmp/edge.bvh" --codec raw
# JSON files (sweep definitions, results): 256 MiB.
truncate -s 268435456 "$tmp/def.json"
expect 2 "not valid JSON here" -- "$bin" sweep "$tmp/def.json"
truncate -s 268435457 "$tmp/def.json"
expect 2 "268435457 bytes, over the limit of 268435456 bytes" -- "$bin" sweep "$tmp/def.json"
rm -f "$tmp/edge.bvh" "$tmp/def.json"
ln -s /dev/zero "$tmp/zero.bvh"
expect 2 "not a regular file (a device)" -- "$bin" run --clip "$tmp/zero.bvh" --codec raw
mkfifo "$tmp/pipe.bvh"
expect 2 "not a regular file (a pipe)" -- "$bin" run --clip "$tmp/pipe.bvh" --codec raw
# A runaway word: 100 kB of one token, stopped after 255 characters.
expect 2 "(a word of over 255 characters)" -- "$bin" run --clip $bad/long_word.bvh --codec raw

# Finding 6: a value that the unit takes out of range (1e308 cm), and a unit past the range.
printf 'HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 1 Xposition\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n1e308\n1\n' >"$tmp/huge.bvh"
expect 2 "frame 1, joint 'a': its position times the unit (100 m) is beyond 1e+06 m, out of range" -- \
  "$bin" run --clip "$tmp/huge.bvh" --codec raw --unit-m 100
expect 2 "--unit-m 1e6: out of range; it takes a number above 0 and at most 1000" -- "$bin" run --clip walk --codec raw --unit-m 1e6

# Finding 7: a CMU-sized skeleton read without --unit-m gets a warning; with it, none.
cmu=tests/data/bvh_good/cmu_like.bvh
expect 0 "is --unit-m right?" -- "$bin" run --clip $cmu --codec raw
out=$("$bin" run --clip $cmu --codec raw --unit-m 0.056444 2>&1)
if grep -q "unit-m right" <<<"$out"; then failed=$((failed + 1)); echo "limits: FAILED: warning with --unit-m 0.056444"; else passed=$((passed + 1)); fi

# Finding 7: distinct messages; --help for every command.
expect 2 "--tol-mm -1: out of range; it takes a number above 0" -- "$bin" run --clip walk --codec cubic --tol-mm -1
expect 2 "--fps: expected a number above 0, found 'abc'" -- "$bin" run --clip walk --codec cubic --fps abc
expect 2 "--fps -1: out of range; it takes a number above 0" -- "$bin" run --clip walk --codec cubic --fps -1
expect 2 "--clip needs a value" -- "$bin" run --clip --codec cubic
expect 2 "codec cubic has no parameter 'bits' (its parameters: tol_mm, lever_m)" -- \
  "$bin" run --clip walk --codec cubic --param bits=3
expect 2 "unknown option '--bogus'" -- "$bin" run --clip walk --codec cubic --bogus 1
expect 2 "--tol-mm needs a value" -- "$bin" run --clip walk --codec cubic --tol-mm
expect 2 "--tol-mm: expected a number above 0, found 'x'" -- "$bin" run --clip walk --codec cubic --tol-mm x
expect 2 "--runs 0: out of range; it takes an integer from 1 to" -- "$bin" bench --runs 0
expect 2 "--step 2.5: out of range; it takes an integer from 1 to 65536" -- "$bin" run --clip walk --codec every-nth --step 2.5
# every command the top-level help lists (17), each with its own usage
cmds=$("$bin" --help 2>&1 | sed -n 's/^  \([a-z][a-z-]*\)\( .*\)\{0,1\}$/\1/p')
[ "$(wc -w <<<"$cmds")" -ge 17 ] && passed=$((passed + 1)) ||
  { failed=$((failed + 1)); echo "limits: FAILED: animbench --help lists $(wc -w <<<"$cmds") commands, not 17 or more: $cmds"; }
for cmd in $cmds; do
  expect 0 "usage: animbench $cmd" -- "$bin" $cmd --help
done

# Finding 7: an output path that is a folder, a pipe, or in a missing folder: refused before any
# work (the audit's: a pipe or a device used to be replaced by a regular file).
expect 2 "cannot write $tmp: it is a folder, not a file" -- "$bin" run --clip walk --codec raw --json "$tmp"
expect 2 "it is a folder, not a file" -- "$bin" export --clip walk --format bvh --out "$tmp"
mkfifo "$tmp/out.fifo"
expect 2 "it is a pipe, not a file" -- "$bin" run --clip walk --codec raw --json "$tmp/out.fifo"
expect 2 "the folder $tmp/nowhere does not exist" -- "$bin" run --clip walk --codec raw --json "$tmp/nowhere/x.json"
expect 2 "an empty output path" -- "$bin" run --clip walk --codec raw --json ""
# An option a command would ignore is unknown to it.
expect 2 "unknown option '--out'" -- "$bin" match --clip walk --codec cubic --target 1 --out "$tmp/x.md"
expect 2 "unknown option '--json'" -- "$bin" compare --clips walk --codecs cubic --reference acl --json "$tmp/c.json"
# A sweep's output reached through a link is written through it (the link stays a link), and a one-off
# --json refuses to replace a file of sweep points.
printf '{"name": "l", "output": "%s/link.json", "metrics": {"substeps": 1}, "runs": [{"clips": ["walk"], "codecs": ["raw"]}]}' \
  "$tmp" >"$tmp/l.json"
echo '{"points": []}' >"$tmp/real.json"
ln -s real.json "$tmp/link.json"
expect 0 "1 points: 0 stored" -- "$bin" sweep "$tmp/l.json"
if [ -L "$tmp/link.json" ] && grep -q '"sweeps"' "$tmp/real.json"; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "limits: FAILED: the sweep did not write through the link"; fi
expect 2 "holds 1 points that sweep 'l' measured; this would replace them" -- \
  "$bin" run --clip walk --codec raw --json "$tmp/real.json"

# Finding 7: SJSON export escapes quotes and backslashes in joint names.
printf 'HIERARCHY\nROOT a"b\\c\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n0 1 0\n0 1 0\n' >"$tmp/quote.bvh"
expect 0 "acl-sjson" -- "$bin" export --clip "$tmp/quote.bvh" --format acl-sjson --out "$tmp/quote.sjson"
if grep -qF 'name = "a\"b\\c"' "$tmp/quote.sjson"; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "limits: FAILED: joint name not escaped in SJSON:"; grep name "$tmp/quote.sjson"; fi

# A file name with a tab and a byte that is not UTF-8: results stay valid JSON and TSV (the name
# becomes a__b; the audit's: the JSON could not be read back).
odd="$tmp/a$(printf '\376\t')b.bvh"
cp tests/data/bvh_good/cmu_like.bvh "$odd"
expect 0 "clip   a__b (bvh)" -- "$bin" run --clip "$odd" --codec raw --unit-m 0.056444 --json "$tmp/odd.json"
if grep -q '"name":	"a__b"' "$tmp/odd.json" && ! LC_ALL=C grep -q "$(printf '\376')" "$tmp/odd.json"; then
  passed=$((passed + 1)); else failed=$((failed + 1)); echo "limits: FAILED: a byte that is not UTF-8 reached the JSON"; fi

# A random clip's own commas stay in it in a list of clips.
expect 0 "random:bones=4,frames=20 memory: stream 3216 B" -- \
  "$bin" bench --clips random:bones=4,frames=20,walk --codecs raw --runs 1 --budget-ms 1

# --rounds: the runs of every round count against the timer's limit, refused before anything is
# timed; two rounds of two codecs write one figure each, of both rounds' runs, in the JSON too
# (timing_setup: runs 2 a timing, rounds 2, 4 a clip's figure).
expect 2 "--rounds 40 times --runs 3 is 120 runs a figure; at most 101" -- "$bin" bench --rounds 40 --runs 3
expect 0 "median, min, max of 4 runs (2 rounds of 2, codecs interleaved; ceilings and crowds of 2)" -- "$bin" bench --clips walk \
  --codecs raw,every-nth --runs 2 --rounds 2 --budget-ms 1 --patterns whole-clip,encode --json "$tmp/rounds.json"
expect 0 '"runs_per_clip_figure":	4' -- cat "$tmp/rounds.json"
expect 0 "4 runs in each of 4 figures" -- awk -F'[][]' '/"runs_ns"/ { n = split($2, v, ","); counts[n]++ }
  END { for (n in counts) printf "%d runs in each of %d figures\n", n, counts[n] }' "$tmp/rounds.json"

# A crowd asked for 64 times the last-level cache stays within a quarter of the address space
# allowed: before, it took up to 1 GiB and failed here under the 1 GiB limit ("out of memory for a
# crowd"), as the default 4 times did on a machine reporting an L3 of 300 MiB.
expect 0 "every core" -- "$bin" bench --clips walk --codecs raw --runs 1 --budget-ms 1 \
  --patterns crowd --crowd-llc 64

# Issue 13: the measuring commands stop at 1,048,576 joint-samples and name
# the encode-only path; encode takes 16,777,216 and refuses more, before
# allocating; a long clip through a study-layout row names its -sc twin.
expect 2 "1200000 joint-samples, over the limit of 1048576" -- "$bin" run --clip random:bones=2,frames=600000 --codec raw
expect 2 "\`animbench encode\` alone takes up to 16,777,216" -- "$bin" run --clip random:bones=2,frames=600000 --codec raw
expect 2 "17000000 joint-samples, over the limit of 16777216" -- \
  "$bin" encode --clip random:bones=17,frames=1000000 --codec cubic-sc
expect 1 "use cubic-sc, its self-contained row" -- "$bin" encode --clip random:bones=1,frames=70000 --codec cubic
# the closed loop holds 168 bytes per joint and sample: refused past 4,194,304 before allocating
expect 1 "is 5120000 joint-samples, over its 4194304" -- "$bin" encode --clip random:bones=64,frames=20000 --codec linear-closed-sc
# shellpack's encoder holds 400 bytes per joint-sample: refused past 2,097,152 before allocating
expect 1 "more than its encoder takes (2097152" -- "$bin" encode --clip random:bones=64,frames=40000 --codec shellpack
expect 0 "verify  decoded by the decoder alone: 70000 frames" -- \
  "$bin" encode --clip random:bones=1,frames=70000 --codec cubic-sc --verify --out "$tmp/long.bin"
if [ -s "$tmp/long.bin" ] && [ "$(head -c 4 "$tmp/long.bin" | od -An -tx1 | tr -d ' ')" = "41420105" ]; then
  passed=$((passed + 1)); else failed=$((failed + 1)); echo "limits: FAILED: encode --out did not write a wide cubic stream"; fi
expect 2 "is a folder" -- "$bin" encode --clip walk --codec cubic --out "$tmp"

echo "limits: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
