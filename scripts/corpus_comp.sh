#!/usr/bin/env bash
# make corpus-comp: issue 23's rows with error feedback down the hierarchy (shellpack-comp,
# -comp-allkeys, -comp-trellis, -comp-exchange, -comp-trained, shellpack-ra-comp, -ra-comp-exchange) on
# the whole Bandai Namco corpus
# ($ANIMBENCH_DATA/bandai_namco_1, 174 clips, 30 Hz; CC BY-NC 4.0, Bandai Namco Research Inc.;
# Kobayashi et al., arXiv:2306.08861, 2023) beside ACL and the rows without feedback each extends, at
# 0.1 mm and 1 mm of shell error (sweeps/corpus_comp.json: the same points as make corpus's for these
# rows, resumes where it stopped): results/corpus_comp.json and .tsv (not committed, as
# results/corpus.json), the ratios to ACL (results/corpus_comp_ratios.{md,tsv}), to shellpack-trained
# (results/corpus_comp_ablation.{md,tsv}) and results/corpus_comp_summary.md (scripts/corpus_comp_report.sh:
# the issue's goals, the held-out split, what the feedback pays row by row, a check against make corpus).
# usage: scripts/corpus_comp.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
if [ ! -d "$data/bandai_namco_1" ]; then
  scripts/mark_stale.sh results/corpus_comp "$data/bandai_namco_1"
  exit 0
fi
"$bin" sweep sweeps/corpus_comp.json
"$bin" summary results/corpus_comp.json --baseline acl --out results/corpus_comp_ratios.md \
  --tsv results/corpus_comp_ratios.tsv >/dev/null
"$bin" summary results/corpus_comp.json --baseline shellpack-trained --out results/corpus_comp_ablation.md \
  --tsv results/corpus_comp_ablation.tsv >/dev/null
trap 'rm -f results/corpus_comp_summary.md.tmp' EXIT
ANIMBENCH_BIN=$bin scripts/corpus_comp_report.sh > results/corpus_comp_summary.md.tmp
mv results/corpus_comp_summary.md.tmp results/corpus_comp_summary.md
scripts/record.sh "$bin" results/corpus_comp.json results/corpus_comp_ratios.md results/corpus_comp_ratios.tsv \
  results/corpus_comp_ablation.md results/corpus_comp_ablation.tsv
# the summary's check reads make corpus's ratios too
scripts/record.sh "$bin" results/corpus_comp.json,results/corpus.json results/corpus_comp_summary.md
rm -f results/corpus_comp.NOT_REGENERATED.txt
cat results/corpus_comp_summary.md
