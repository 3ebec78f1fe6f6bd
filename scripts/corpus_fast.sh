#!/usr/bin/env bash
# make corpus-fast: issue 23's encode budget on the whole Bandai Namco corpus
# ($ANIMBENCH_DATA/bandai_namco_1, 174 clips, 30 Hz; CC BY-NC 4.0, Bandai Namco Research Inc.;
# Kobayashi et al., arXiv:2306.08861, 2023): shellpack-comp-fast, its plan shellpack-comp-trellis-p2 and
# shellpack beside ACL at 0.1 mm and 1 mm of shell error (sweeps/corpus_fast.json, resumes where it
# stopped): results/corpus_fast.json and .tsv (not committed, as results/corpus.json), the ratios to ACL
# (results/corpus_fast_ratios.{md,tsv}), to shellpack (results/corpus_fast_ablation.{md,tsv}: the
# Bandai columns of make shellpack's ablation for these rows) and results/corpus_fast_summary.md (scripts/corpus_fast_report.sh:
# the issue's Bandai goals for the row, the held-out split, its bytes over shellpack-comp-trained's from
# make corpus-comp's committed ratios, and shellpack's ratios as the check that the two runs agree).
# usage: scripts/corpus_fast.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
if [ ! -d "$data/bandai_namco_1" ]; then
  scripts/mark_stale.sh results/corpus_fast "$data/bandai_namco_1"
  exit 0
fi
"$bin" sweep sweeps/corpus_fast.json
"$bin" summary results/corpus_fast.json --baseline acl --out results/corpus_fast_ratios.md \
  --tsv results/corpus_fast_ratios.tsv >/dev/null
"$bin" summary results/corpus_fast.json --baseline shellpack --out results/corpus_fast_ablation.md \
  --tsv results/corpus_fast_ablation.tsv >/dev/null
trap 'rm -f results/corpus_fast_summary.md.tmp' EXIT
ANIMBENCH_BIN=$bin scripts/corpus_fast_report.sh > results/corpus_fast_summary.md.tmp
mv results/corpus_fast_summary.md.tmp results/corpus_fast_summary.md
# the summary reads make corpus-comp's ratios too: their own entry in results/manifest.json says which code
# measured them (--from takes files of points only, and results/corpus_comp.json is not committed)
scripts/record.sh "$bin" results/corpus_fast.json results/corpus_fast_ratios.md results/corpus_fast_ratios.tsv \
  results/corpus_fast_ablation.md results/corpus_fast_ablation.tsv results/corpus_fast_summary.md
rm -f results/corpus_fast.NOT_REGENERATED.txt
cat results/corpus_fast_summary.md
