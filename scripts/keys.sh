#!/usr/bin/env bash
# make keys: the key selection strategies of issue 12 side by side.
#   results/keys.json (.tsv, figures/keys_*)   walk, jump, mocap and the four captures: every strategy at
#                                              joint max 0.1 and 1 mm, and along its knob (the figures)
#   results/keys_corpus.json (.tsv, summary)   the 174 Bandai Namco clips at 0.1 and 1 mm, the closed loop
#                                              at its own targets, cubic keys at every frame
#   results/keys_encode_time.tsv               encoder time against clip length (scripts/keys_timing.sh)
#   results/keys_summary.md                    the tables (scripts/keys_report.sh), and the closed loop's
#                                              contract checked on every closed-loop point
# Needs $ANIMBENCH_DATA (../shared/data) for the captures and the corpus.
# usage: scripts/keys.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
export ANIMBENCH_BIN=${1:-bin/animbench}
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
if [ ! -d "$data/bvh" ] || [ ! -d "$data/bandai_namco_1" ]; then
  scripts/mark_stale.sh results/keys "$data/bvh and $data/bandai_namco_1"
  exit 0
fi
echo "== sweep sweeps/keys.json (the study's clips and the captures)" >&2
"$bin" sweep sweeps/keys.json
scripts/figures.sh results/keys.json
echo "== sweep sweeps/keys_corpus.json (the Bandai Namco corpus)" >&2
"$bin" sweep sweeps/keys_corpus.json
"$bin" summary results/keys_corpus.json --baseline linear-sc --metric joint_max_mm \
  --out results/keys_corpus_summary.md --tsv results/keys_corpus_ratios.tsv >/dev/null
scripts/figures.sh results/keys_corpus.json
if [ "${KEYS_TIMING:-1}" = 1 ]; then
  echo "== encoder timings (scripts/keys_timing.sh)" >&2
  scripts/keys_timing.sh "$bin"
fi
rm -f results/keys.NOT_REGENERATED.txt
scripts/keys_report.sh
scripts/record.sh "$bin" results/keys_corpus.json results/keys_corpus_summary.md results/keys_corpus_ratios.tsv
scripts/record.sh "$bin" rows:"$(scripts/available_codecs.sh "$bin" linear-sc,linear-optimal-sc,linear-greedy-sc,linear-peucker-sc,linear-hier-sc,linear-closed-sc,linear-dt-sc 2>/dev/null)" results/keys_encode_time.tsv $(ls results/figures/keys_encode* 2>/dev/null)
scripts/record.sh "$bin" results/keys.json,results/keys_corpus.json results/keys_summary.md
