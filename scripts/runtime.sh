#!/usr/bin/env bash
# make runtime: what a game pays to play each row's bytes, at equal measured error.  For each
# target (1 mm and 0.1 mm of ACL's shell distance, max over every joint and frame of the decoded
# clip) and each clip set (the study's three clips and the four captures by default; the 174 Bandai
# Namco clips with RUNTIME_SETS, which make corpus does for acl, shellpack and shellpack-ra),
# `animbench bench --target` finds each row's smallest stream meeting it (as `match`) and times it:
# playback, seek, first pose and the whole-clip decode per clip, a crowd over the set with cold
# caches on one core and on every core, with the memory its sampler holds.  Then
# scripts/runtime_report.sh writes OUT.tsv, OUT_summary.md and results/figures/NAME_*mm.
# usage: scripts/runtime.sh BIN
#   RUNTIME_CODECS (a,b,...), RUNTIME_TARGETS ("1 0.1"), RUNTIME_SETS ("study captures"; or bandai),
#   RUNTIME_OUT (results/runtime: the base of every file written), RUNTIME_FLAGS (bench's timing options)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
codecs=${RUNTIME_CODECS:-raw,linear-sc,cubic-sc,linear-hier-sc,every-nth,acl,acl-highest,ozz,shellpack,shellpack-ra}
targets=${RUNTIME_TARGETS:-1 0.1}
sets=${RUNTIME_SETS:-study captures}
out=${RUNTIME_OUT:-results/runtime}
pin=$(( $(nproc) - 1 ))
flags=${RUNTIME_FLAGS:---runs 5 --budget-ms 10 --pin $pin}
patterns=playback,seek,first-pose,whole-clip,crowd
keep=$(scripts/available_codecs.sh "$bin" "$codecs")
pairs=()
for t in $targets; do
  for set in $sets; do
    case $set in
      study) clips=(--clips walk,jump,mocap); what="the study's clips" ;;
      captures) [ -d "$data/bvh" ] || continue; clips=(--clips-from sweeps/captures.json); what="the four captures" ;;
      bandai) [ -d "$data/bandai_namco_1" ] || continue
        clips=(--clips data:bandai_namco_1 --unit-m 0.01 --up y); what="the 174 Bandai Namco clips" ;;
      *) echo "runtime.sh: unknown clip set '$set' (study, captures, bandai)" >&2; exit 2 ;;
    esac
    echo "== runtime at $t mm: $what" >&2
    # shellcheck disable=SC2086
    "$bin" bench "${clips[@]}" --codecs "$keep" --target "$t" --patterns "$patterns" $flags \
      --json "${out}_${set}_${t}mm.json" > "${out}_${set}_${t}mm.txt"
    pairs+=("$set=${out}_${set}_${t}mm.json")
  done
done
scripts/runtime_report.sh "$out" "${pairs[@]}"
sources=$(for p in "${pairs[@]}"; do printf '%s,' "${p#*=}"; done | sed 's/,$//')
for p in "${pairs[@]}"; do
  f=${p#*=}
  scripts/record.sh "$bin" "$f" "${f%.json}.txt" "${f%.json}.tsv" "${f%.json}_timings.tsv" "${f%.json}_techniques.tsv"
done
scripts/record.sh "$bin" "$sources" "$out.tsv" "${out}_summary.md" $(ls "$(dirname "$out")/figures/$(basename "$out")"_*mm.* 2>/dev/null)
cat "${out}_summary.md"
