#!/usr/bin/env bash
# make corpus: the Bandai Namco corpus ($ANIMBENCH_DATA/bandai_namco_1, 174 clips, 30 Hz; CC BY-NC 4.0,
# Bandai Namco Research Inc.; Kobayashi et al., arXiv:2306.08861, 2023) through every self-contained
# codec at 0.1 mm and 1 mm of shell error, with curves for BD-rates (sweeps/corpus.json, resumes
# where it stopped): results/corpus.json and results/corpus_summary.md; then what a runtime pays
# at equal error for ACL, shellpack, shellpack-ra, shellpack-ra-trellis, shellpack-ra-exchange and shellpack-ra-comp on every clip (scripts/runtime.sh):
# results/corpus_runtime*; and, when make shellpack has run, the shellpack summaries (issue 23's too) again with
# the corpus's tables.  About 4 h 15 min on two cores (about 176 minutes of sweep, 80 of runtime tables), measured
# before the compensated rows (shellpack-comp and its four) joined the sweep and shellpack-ra-comp the runtime tables.
# usage: scripts/corpus.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
if [ ! -d "$data/bandai_namco_1" ]; then
  scripts/mark_stale.sh results/corpus "$data/bandai_namco_1"
  exit 0
fi
"$bin" sweep sweeps/corpus.json
"$bin" summary results/corpus.json --baseline acl --out results/corpus_summary.md --tsv results/corpus_ratios.tsv >/dev/null
"$bin" summary results/corpus.json --baseline shellpack --out results/corpus_ablation.md --tsv results/corpus_ablation.tsv >/dev/null
ANIMBENCH_BIN=$bin scripts/figures.sh results/corpus.json
scripts/record.sh "$bin" results/corpus.json results/corpus_summary.md results/corpus_ratios.tsv results/corpus_ablation.md \
  results/corpus_ablation.tsv
RUNTIME_CODECS=acl,shellpack,shellpack-ra,shellpack-ra-trellis,shellpack-ra-exchange,shellpack-ra-comp,shellpack-ra-comp-exchange RUNTIME_SETS=bandai RUNTIME_OUT=results/corpus_runtime \
  scripts/runtime.sh "$bin" >/dev/null
rm -f results/corpus.NOT_REGENERATED.txt
if [ -f results/shellpack.tsv ]; then
  scripts/shellpack_report.sh "$bin" > results/shellpack_summary.md.tmp && mv results/shellpack_summary.md.tmp results/shellpack_summary.md
  scripts/shellpack_ra_report.sh "$bin" > results/shellpack_ra_summary.md.tmp &&
    mv results/shellpack_ra_summary.md.tmp results/shellpack_ra_summary.md
  scripts/shellpack_slack_report.sh > results/shellpack_slack_summary.md.tmp &&
    mv results/shellpack_slack_summary.md.tmp results/shellpack_slack_summary.md
  scripts/shellpack.sh --record-only "$bin"
fi
cat results/corpus_summary.md results/corpus_runtime_summary.md
