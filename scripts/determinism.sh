#!/usr/bin/env bash
# Same inputs, same bytes: builds animbench with gcc -O0, gcc -O3, clang
# -O0 and clang -O3 (when clang is installed) and checks that `animbench tables`
# prints byte-identical output with each, on one thread and on several, and
# that `animbench run` reports identical figures (every metric, and the
# stream's FNV-1a fingerprint) for a few codecs (shellpack's slack, match and compensated rows of issue 23 among them), clips and an imported BVH
# file, ACL's and ozz's rows included when they are built, and that bench reports the same memory held
# by their samplers (not its timings).
set -euo pipefail
cd "$(dirname "$0")/.."
# Under make check's job server (stages side by side) this script is not a recipe make knows to run
# make, so its builds cannot reach the job server: they are told to build on their own, one job at
# a time (as they did), rather than warn "jobserver unavailable" at each build.
# Only the options before " -- " are edited: what follows is variables, whose values may hold " -j".
make_options=${MAKEFLAGS:-} make_variables=""
case ${MAKEFLAGS:-} in *" -- "*) make_options=${MAKEFLAGS%% -- *} make_variables=" -- ${MAKEFLAGS#* -- }" ;; esac
make_options=$(sed -E 's/ ?--jobserver-(auth|fds)=[^ ]*//g; s/(^| )-j[0-9]*( |$)/\1\2/g' <<<"$make_options")
export MAKEFLAGS="$make_options$make_variables"
ref=""
status=0
same=0
differ=0
run() {
  local name=$1 cc=$2 opt=$3
  make -s BUILD="build-det-$name" BIN="build-det-$name/animbench" CC="$cc" OPT="$opt" "build-det-$name/animbench" >/dev/null
  for threads in 1 2; do
    { ANIMBENCH_THREADS=$threads "build-det-$name/animbench" tables --no-timings
      for codec in cubic-q-sc linear quant-sc every-nth linear-optimal-sc cubic-optimal-sc cubic-greedy-sc cubic-peucker-sc \
                   cubic-hier-sc linear-closed-sc cubic-closed-sc cubic-dt-sc shellpack shellpack-quat shellpack-channel \
                   shellpack-nopred shellpack-gzip shellpack-ra shellpack-trellis shellpack-exchange shellpack-slack shellpack-ra-trellis shellpack-ra-exchange shellpack-match shellpack-trained \
                   shellpack-comp shellpack-comp-trellis shellpack-comp-trained shellpack-ra-comp shellpack-comp-exchange \
                   shellpack-ra-comp-exchange shellpack-comp-keys shellpack-comp-trellis-p2 shellpack-comp-fast \
                   shellpack-comp-fast-side shellpack-ra-side; do
        "build-det-$name/animbench" run --clip jump --codec $codec --tol-mm 0.5
        "build-det-$name/animbench" run --clip mocap --codec $codec
      done
      # shellpack-side's header with a rate read as a frame time (0.0333333 s), where the data is here
      bandai=${ANIMBENCH_DATA:-../shared/data}/bandai_namco_1/dataset-1_bye_normal_001.bvh
      [ ! -f "$bandai" ] || for side in shellpack-comp-fast-side shellpack-ra-side; do
        "build-det-$name/animbench" run --clip "$bandai" --unit-m 0.01 --codec $side --tol-mm 1; done
      # where shellpack-comp-keys keeps shellpack-trellis-keys's stream (test_shellpack_slack.c)
      "build-det-$name/animbench" run --clip mocap --codec shellpack-comp-keys --tol-mm 1
      "build-det-$name/animbench" run --clip tests/data/bvh_good/two_joints_crlf.bvh --codec cubic
      "build-det-$name/animbench" run --clip random:bones=40,frames=120,seed=3 --codec cubic
      "build-det-$name/animbench" run --clip random:bones=40,frames=120,seed=3 --codec shellpack --tol-mm 0.1
      "build-det-$name/animbench" run --clip tests/data/bvh_good/two_joints_crlf.bvh --codec shellpack
      "build-det-$name/animbench" run --clip random:bones=40,frames=120,seed=3 --codec shellpack-ra --tol-mm 0.1 \
        --param section_frames=7
      "build-det-$name/animbench" run --clip random:bones=40,frames=120,seed=3 --codec shellpack-trellis --tol-mm 0.1
      # ACL (C++, built with the matching C++ compiler) when its headers are found
      # the listing is read whole first: `list | grep -q` under pipefail fails when grep stops
      # reading before list has written everything (SIGPIPE), at random
      listing=$("build-det-$name/animbench" list)
      if grep -q "^  acl " <<<"$listing" && ! grep -q UNAVAILABLE <<<"$listing"; then
        "build-det-$name/animbench" run --clip jump --codec acl --tol-mm 0.1
        "build-det-$name/animbench" run --clip mocap --codec acl-highest --tol-mm 1
        "build-det-$name/animbench" run --clip tests/data/bvh_good/two_joints_crlf.bvh --codec acl
      else
        echo "determinism: ACL rows not built here (skipped)" >&2
      fi
      # ozz-animation (C++17, the matching C++ compiler) when its sources are found
      if grep -q "^  ozz " <<<"$listing" && ! awk '$1 == "ozz" {f = 1; next} f && /^  [a-z]/ {exit} f && /UNAVAILABLE/ {u = 1} END {exit !u}' <<<"$listing"; then
        "build-det-$name/animbench" run --clip jump --codec ozz --tol-mm 0.5
        "build-det-$name/animbench" run --clip mocap --codec ozz-raw
        "build-det-$name/animbench" run --clip tests/data/bvh_good/two_joints_crlf.bvh --codec ozz
      else
        echo "determinism: ozz rows not built here (skipped)" >&2
      fi
      # what a sampler holds, a figure like the others (harness/measure/alloc_track.c's window): bench's
      # memory columns, not its timings, for eight rows (those of them this build has) on a study clip and a BVH
      held_rows=$(scripts/available_codecs.sh "build-det-$name/animbench" acl,ozz,shellpack,shellpack-ra,shellpack-ra-comp-exchange,shellpack-ra-side,cubic-sc,raw)
      "build-det-$name/animbench" bench --clips jump,tests/data/bvh_good/two_joints_crlf.bvh --codecs "$held_rows" \
        --patterns first-pose --runs 1 --budget-ms 1 --json "build-det-$name/held.json" >/dev/null
      awk -F'\t' 'NR > 2 {print "held", $1, $2, $3, $7, $8, $9, $10}' "build-det-$name/held_timings.tsv"
    } > "build-det-$name/tables.$threads.txt" || { echo "determinism: $name: a run failed"; status=1; differ=$((differ + 1)); }
    if [ -z "$ref" ]; then ref="build-det-$name/tables.$threads.txt"; continue; fi
    if cmp -s "$ref" "build-det-$name/tables.$threads.txt"; then
      echo "determinism: $name ($cc $opt), $threads thread(s): identical"; same=$((same + 1))
    else
      echo "determinism: $name ($cc $opt), $threads thread(s): DIFFERS from $ref"; status=1; differ=$((differ + 1))
      diff "$ref" "build-det-$name/tables.$threads.txt" | head -5
    fi
  done
}
run gcc-O0 gcc -O0
run gcc-O3 gcc -O3
if command -v clang >/dev/null 2>&1; then
  run clang-O0 clang -O0
  run clang-O3 clang -O3
else
  echo "determinism: clang not installed, skipped"
fi
echo "determinism: $same passed, $differ failed"
[ -n "${CHECK_SUMMARY:-}" ] && echo "determinism: $same passed, $differ failed" >> "$CHECK_SUMMARY"
exit $status
