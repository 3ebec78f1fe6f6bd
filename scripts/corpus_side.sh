#!/usr/bin/env bash
# make corpus-side: shellpack-side's container around the smallest whole-clip row (shellpack-comp-trained-side) and
# the smallest random-access row (shellpack-ra-comp-exchange-side) on the whole Bandai Namco corpus
# ($ANIMBENCH_DATA/bandai_namco_1, 174 clips, 30 Hz; CC BY-NC 4.0, Bandai Namco Research Inc.; Kobayashi et al.,
# arXiv:2306.08861, 2023), with shellpack, beside ACL at 0.1 mm and 1 mm of shell error (sweeps/corpus_side.json,
# resumes where it stopped): results/corpus_side.json and .tsv (not committed, as results/corpus.json), the ratios
# to ACL (results/corpus_side_ratios.{md,tsv}) and results/corpus_side_summary.md (scripts/corpus_side_report.sh:
# the held-out split, issue 23's Bandai goals for shellpack-comp-trained-side, and each side row's bytes over the
# row it carries from make corpus-comp's committed ratios, where the two runs agree on shellpack).
# usage: scripts/corpus_side.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
if [ ! -d "$data/bandai_namco_1" ]; then
  scripts/mark_stale.sh results/corpus_side "$data/bandai_namco_1"
  exit 0
fi
"$bin" sweep sweeps/corpus_side.json
"$bin" summary results/corpus_side.json --baseline acl --out results/corpus_side_ratios.md \
  --tsv results/corpus_side_ratios.tsv >/dev/null
trap 'rm -f results/corpus_side_summary.md.tmp' EXIT
ANIMBENCH_BIN=$bin scripts/corpus_side_report.sh > results/corpus_side_summary.md.tmp
mv results/corpus_side_summary.md.tmp results/corpus_side_summary.md
scripts/record.sh "$bin" results/corpus_side.json results/corpus_side_ratios.md \
  results/corpus_side_ratios.tsv results/corpus_side_summary.md
rm -f results/corpus_side.NOT_REGENERATED.txt
cat results/corpus_side_summary.md
