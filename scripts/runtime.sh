#!/usr/bin/env bash
# make runtime: what a game pays to play each row's bytes, at equal measured error.  For each
# target (1 mm and 0.1 mm of ACL's shell distance, max over every joint and frame of the decoded
# clip) and each clip set (the study's three clips, the four captures, the 174 Bandai Namco clips),
# `animbench bench --target` finds each row's smallest stream meeting it (as `match`) and times it:
# playback, seek and first pose per clip, a crowd over the set with cold caches on one core and on
# every core, with the memory its sampler holds.  Then scripts/runtime_report.sh writes
# results/runtime.tsv, results/runtime_summary.md and results/figures/runtime_*mm.
# usage: scripts/runtime.sh BIN   (RUNTIME_CODECS, RUNTIME_TARGETS, RUNTIME_FLAGS to change them)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
codecs=${RUNTIME_CODECS:-raw,linear-sc,cubic-sc,linear-hier-sc,every-nth,acl,acl-highest,shellpack}
targets=${RUNTIME_TARGETS:-1 0.1}
pin=$(( $(nproc) - 1 ))
flags=${RUNTIME_FLAGS:---runs 5 --budget-ms 10 --pin $pin}
keep=$(scripts/available_codecs.sh "$bin" "$codecs")
pairs=()
for t in $targets; do
  echo "== runtime at $t mm: the study's clips" >&2
  # shellcheck disable=SC2086
  "$bin" bench --clips walk,jump,mocap --codecs "$keep" --target "$t" --patterns playback,seek,first-pose,crowd \
    $flags --json "results/runtime_study_${t}mm.json" > "results/runtime_study_${t}mm.txt"
  pairs+=("study=results/runtime_study_${t}mm.json")
  if [ -d "$data/bvh" ]; then
    echo "== runtime at $t mm: the four captures" >&2
    # shellcheck disable=SC2086
    "$bin" bench --clips-from sweeps/captures.json --codecs "$keep" --target "$t" --patterns playback,seek,first-pose,crowd \
      $flags --json "results/runtime_captures_${t}mm.json" > "results/runtime_captures_${t}mm.txt"
    pairs+=("captures=results/runtime_captures_${t}mm.json")
  fi
  if [ -d "$data/bandai_namco_1" ]; then
    echo "== runtime at $t mm: the 174 Bandai Namco clips" >&2
    # shellcheck disable=SC2086
    "$bin" bench --clips data:bandai_namco_1 --unit-m 0.01 --codecs "$keep" --target "$t" \
      --patterns playback,seek,first-pose,crowd $flags --json "results/runtime_bandai_${t}mm.json" \
      > "results/runtime_bandai_${t}mm.txt"
    pairs+=("bandai=results/runtime_bandai_${t}mm.json")
  fi
done
scripts/runtime_report.sh results/runtime "${pairs[@]}"
cat results/runtime_summary.md
