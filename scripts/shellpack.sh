#!/usr/bin/env bash
# make shellpack (issues 11, 22 and 23): shellpack, its ablations, its random-access row
# shellpack-ra and both with their slack spent (shellpack-trellis, shellpack-exchange,
# shellpack-ra-trellis, shellpack-ra-exchange), shellpack-match and shellpack-trained against ACL at equal measured shell
# error on the study's clips and the four captures (sweeps/shellpack.json), then decode and encode
# timings of twenty rows and ACL side by side (every whole-clip row of the ablation, the random-access ones), one core, pinned, median, min and max of 5 runs; what a runtime pays at
# equal error (playback, seek, first pose, whole clip, a crowd with cold caches, held memory:
# scripts/runtime.sh); and the trade of shellpack-ra's section length (scripts/shellpack_sections.sh).
# Writes results/shellpack.json and .tsv, results/shellpack_vs_acl.md and
# results/shellpack_ablation.md (animbench summary), results/shellpack_speed.tsv,
# results/shellpack_runtime*, results/shellpack_sections.tsv, results/shellpack_summary.md,
# results/shellpack_ra_summary.md and results/shellpack_slack_summary.md (the tables README quotes).  The Bandai corpus's figures come
# from make corpus (results/corpus*.json); when they are there their tables are added to the
# summaries.  About 1 hour with the sweep's points stored, hours more without (README's table of targets).
# usage: scripts/shellpack.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
# --record-only: only the manifest entries of the summaries (make corpus calls it after rewriting them)
record_summaries() {
  local bin=$1 ra_sources
  scripts/record.sh "$bin" "results/shellpack.json,results/corpus.json" results/shellpack_summary.md
  ra_sources=$(ls results/shellpack.json results/shellpack_runtime_*mm.json results/corpus.json results/corpus_runtime_*mm.json \
    2>/dev/null | paste -sd, -) || true # ls fails on a missing file: the corpus may not have run
  scripts/record.sh "$bin" "$ra_sources" results/shellpack_ra_summary.md
  scripts/record.sh "$bin" "results/shellpack.json,results/corpus.json" results/shellpack_slack_summary.md
}
if [ "${1:-}" = --record-only ]; then
  record_summaries "${2:-bin/animbench}"
  exit 0
fi
# --speed-only: the speed table and the summaries alone (about 35 to 40 minutes), the sweep's points and the
# runtime and section-length tables as they are
speed_only=0
if [ "${1:-}" = --speed-only ]; then
  speed_only=1
  shift
fi
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
pin=$(( $(nproc) - 1 ))

if [ ! -f "$data/bvh/cmu_01_03_mb.bvh" ]; then
  scripts/mark_stale.sh results/shellpack "$data/bvh"
  exit 0
fi
if [ $speed_only = 0 ]; then
"$bin" sweep sweeps/shellpack.json
"$bin" summary results/shellpack.json --baseline acl --out results/shellpack_vs_acl.md \
  --tsv results/shellpack_ratios.tsv >/dev/null
"$bin" summary results/shellpack.json --baseline shellpack --out results/shellpack_ablation.md \
  --tsv results/shellpack_ablation.tsv >/dev/null
fi

# Timings: benchmarks, never asserted.  One clip at a time (each has its own unit).
speed=$(mktemp)
speed_rows=$(scripts/available_codecs.sh "$bin" shellpack,shellpack-trellis,shellpack-exchange,shellpack-match,shellpack-trained,shellpack-comp-trellis,shellpack-comp-exchange,shellpack-comp-trained,shellpack-comp-keys,shellpack-comp-trellis-p2,shellpack-comp-fast,shellpack-allkeys,shellpack-trellis-keys,shellpack-trellis-p1,shellpack-slack,shellpack-ra,shellpack-ra-trellis,shellpack-ra-exchange,shellpack-ra-comp,shellpack-ra-comp-exchange,acl)
echo -e "# animbench bench, pinned to CPU $pin, 5 runs, tol_mm 0.1: whole-clip decode and encode, ns per clip; contended: 1 where the decode's or the encode's timed runs waited or were stolen from for more than 2 % of their time or ran beside more than 0.1 CPUs of other work (docs/timings.md, Noise), '-' where not known\nclip\tjoint_samples\tcodec\tdecode_median\tdecode_min\tdecode_max\tencode_median\tencode_min\tencode_max\tdecode_contended\tencode_contended" >"$speed"
bench_one() { # label clip unit up
  local label=$1 clip=$2 unit=$3 up=$4 json
  json=$(mktemp --suffix=.json)
  "$bin" bench --clips "$clip" --unit-m "$unit" --up "$up" --codecs "$speed_rows" --tol-mm 0.1 --runs 5 \
    --patterns whole-clip,encode --pin "$pin" --json "$json" >/dev/null 2>&1
  awk -F'\t' -v l="$label" -v rows="$speed_rows" '
    function contended() { return $16 == "" ? "-" : $16 } # bench_timer.h decides, _timings.tsv says
    NR > 2 && $3 == "whole_clip" {d[$1] = $4 "\t" $5 "\t" $6; dc[$1] = contended(); js = $9}
    NR > 2 && $3 == "encode" {en[$1] = $4 "\t" $5 "\t" $6; ec[$1] = contended()}
    END {n = split(rows, order, ","); for (i = 1; i <= n; i++) if (order[i] in d)
           print l "\t" js "\t" order[i] "\t" d[order[i]] "\t" en[order[i]] "\t" dc[order[i]] "\t" ec[order[i]]}' \
    "${json%.json}_timings.tsv" >>"$speed"
  rm -f "$json" "${json%.json}".tsv "${json%.json}"_timings.tsv "${json%.json}"_techniques.tsv
}
bench_one walk walk 1 y
bench_one jump jump 1 y
bench_one mocap mocap 1 y
bench_one cmu_01_01 "$data/bvh/cmu_01_01_mb.bvh" 0.056444 y
bench_one cmu_01_03 "$data/bvh/cmu_01_03_mb.bvh" 0.056444 y
bench_one jumping_jacks "$data/bvh/cmu_jumping_jacks_30hz.bvh" 0.056444 y
bench_one zombie "$data/bvh/fair1_zombie_30hz.bvh" 0.04 z
if [ -f "$data/bandai_namco_1/dataset-1_walk_normal_001.bvh" ]; then
  bench_one bandai_walk_normal_001 "$data/bandai_namco_1/dataset-1_walk_normal_001.bvh" 0.01 y
fi
mv "$speed" results/shellpack_speed.tsv

if [ $speed_only = 0 ]; then
# What a runtime pays at equal measured error, ACL and the shellpack rows side by side (shellpack-ra-exchange's
# on the Bandai corpus only: make corpus; here its encode would add minutes per capture for each search)
RUNTIME_CODECS=acl,shellpack,shellpack-ra,shellpack-ra-trellis,shellpack-ra-comp,shellpack-ra-comp-exchange RUNTIME_SETS="study captures" RUNTIME_OUT=results/shellpack_runtime \
  scripts/runtime.sh "$bin" >/dev/null
scripts/shellpack_sections.sh "$bin" >/dev/null
fi

scripts/shellpack_report.sh > results/shellpack_summary.md.tmp
mv results/shellpack_summary.md.tmp results/shellpack_summary.md
scripts/shellpack_ra_report.sh > results/shellpack_ra_summary.md.tmp
mv results/shellpack_ra_summary.md.tmp results/shellpack_ra_summary.md
scripts/shellpack_slack_report.sh > results/shellpack_slack_summary.md.tmp
mv results/shellpack_slack_summary.md.tmp results/shellpack_slack_summary.md
if [ $speed_only = 0 ]; then
  scripts/record.sh "$bin" results/shellpack.json results/shellpack.tsv results/shellpack_techniques.tsv \
    results/shellpack_vs_acl.md results/shellpack_ratios.tsv results/shellpack_ablation.md results/shellpack_ablation.tsv
fi
scripts/record.sh "$bin" "rows:$speed_rows" results/shellpack_speed.tsv
record_summaries "$bin"
cat results/shellpack_summary.md results/shellpack_ra_summary.md results/shellpack_slack_summary.md
