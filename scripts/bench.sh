#!/usr/bin/env bash
# make bench: what a game pays to play each row's bytes, at each row's default setting.
#  - every row on the study's three clips: results/bench.json (and its _timings.tsv, figures decode_*);
#  - the rows that play real data (BENCH_REAL_CODECS) on the four captures: results/bench_captures.json;
#  - a crowd over the 174 Bandai Namco clips (each character its own clip, cold caches, one core and
#    every core) for the same rows: results/bench_corpus.json.
# Benchmarks, not tests: the timed thread is pinned to the last CPU (BENCH_PIN=-1 leaves it free);
# ANIMBENCH_BENCH_FLAGS adds options (--runs 21, say).
# usage: scripts/bench.sh BIN
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
export ANIMBENCH_BIN=$bin
data=${ANIMBENCH_DATA:-../shared/data}
pin=${BENCH_PIN:-$(( $(nproc) - 1 ))}
pin_flag=""
[ "$pin" = -1 ] || pin_flag="--pin $pin"
real=$(scripts/available_codecs.sh "$bin" "${BENCH_REAL_CODECS:-raw,const-sc,linear-sc,cubic-sc,cubic-q-sc,linear-hier-sc,every-nth,acl,acl-highest,ozz,shellpack,shellpack-ra}")
mkdir -p results
echo "== decode timings, every row on the study's clips -> results/bench.json" >&2
# shellcheck disable=SC2086
"$bin" bench --clips walk,jump,mocap --json results/bench.json $pin_flag ${ANIMBENCH_BENCH_FLAGS:-}
scripts/figures.sh results/bench.json
if [ -d "$data/bvh" ]; then
  echo "== decode timings on the four captures -> results/bench_captures.json" >&2
  # shellcheck disable=SC2086
  "$bin" bench --clips-from sweeps/captures.json --codecs "$real" --json results/bench_captures.json $pin_flag \
    ${ANIMBENCH_BENCH_FLAGS:-}
  scripts/figures.sh results/bench_captures.json
else
  scripts/mark_stale.sh results/bench_captures "$data/bvh"
fi
if [ -d "$data/bandai_namco_1" ]; then
  echo "== a crowd over the 174 Bandai Namco clips -> results/bench_corpus.json" >&2
  # shellcheck disable=SC2086
  "$bin" bench --clips data:bandai_namco_1 --unit-m 0.01 --codecs "$real" --patterns crowd \
    --json results/bench_corpus.json $pin_flag ${ANIMBENCH_BENCH_FLAGS:-}
  scripts/figures.sh results/bench_corpus.json
else
  scripts/mark_stale.sh results/bench_corpus "$data/bandai_namco_1"
fi
