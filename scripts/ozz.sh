#!/usr/bin/env bash
# make ozz (issue 24): ozz-animation's rows beside ACL, shellpack and the harness's imitation of
# ozz's hierarchical tolerance, at equal measured shell error and at the same tolerance settings
# (sweeps/ozz.json: the study's clips and the four captures), then what each row costs to play, in
# every pattern bench has, on the same clips in one run.  Writes results/ozz.json and .tsv,
# results/ozz_vs_acl.md (animbench summary), results/ozz_bench.json and _timings.tsv, and
# results/ozz_summary.md (scripts/ozz_report.sh).  The Bandai corpus's rows come from make corpus.
# usage: scripts/ozz.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
export ANIMBENCH_BIN=${1:-bin/animbench}
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
pin=$(( $(nproc) - 1 ))
rows=$(scripts/available_codecs.sh "$bin" ozz,ozz-raw,acl,shellpack,linear-hier-sc,cubic-hier-sc)
case ",$rows," in
  *,ozz,*) ;;
  *) echo "ozz: the ozz rows are not built here (animbench list says why): nothing measured" >&2; exit 0 ;;
esac
if [ ! -f "$data/bvh/cmu_01_03_mb.bvh" ]; then
  scripts/mark_stale.sh results/ozz "$data/bvh"
  exit 0
fi
"$bin" sweep sweeps/ozz.json
"$bin" summary results/ozz.json --baseline acl --out results/ozz_vs_acl.md --tsv results/ozz_ratios.tsv >/dev/null
# timings: every pattern, each row at its default setting (ozz 1 mm of its tolerance, ACL and
# shellpack 0.1 mm, the imitations 1 mm), the same clips, one run
"$bin" bench --clips-from sweeps/ozz.json --codecs "$rows" --pin "$pin" --json results/ozz_bench.json \
  > results/ozz_bench.txt
scripts/figures.sh results/ozz.json
scripts/figures.sh results/ozz_bench.json
scripts/ozz_report.sh > results/ozz_summary.md.tmp
mv results/ozz_summary.md.tmp results/ozz_summary.md
scripts/record.sh "$bin" results/ozz.json results/ozz_vs_acl.md results/ozz_ratios.tsv
scripts/record.sh "$bin" results/ozz_bench.json results/ozz_bench.txt
scripts/record.sh "$bin" results/ozz.json,results/ozz_bench.json results/ozz_summary.md
cat results/ozz_summary.md
