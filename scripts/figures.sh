#!/usr/bin/env bash
# Draws every figure from the exported tables of a results file.
# usage: scripts/figures.sh results/study.json
set -euo pipefail
base=${1%.json}
out=$(dirname "$1")/figures
mkdir -p "$out"
draw() { # script table
  if [ -f "$2" ]; then gnuplot -c "plots/$1.gp" "$2" "$out"; echo "figures: $1 <- $2" >&2
  else echo "figures: $2 not found, $1 skipped" >&2; fi
}
if [ -f "${base}_timings.tsv" ]; then
  draw decode_cost "${base}_timings.tsv"      # a results file with timings (make bench)
else
  draw rate_distortion "$base.tsv"
  draw techniques "${base}_techniques.tsv"
  draw jump_keys "${base}_keys.tsv"
fi
