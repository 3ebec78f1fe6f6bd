#!/usr/bin/env bash
# Draws every figure from the exported tables of a results file.
# usage: scripts/figures.sh results/study.json
set -euo pipefail
base=${1%.json}
out=$(dirname "$1")/figures
mkdir -p "$out"
draw() { # script table [args...]
  if [ -f "$2" ]; then local s=$1 t=$2; shift 2; gnuplot -c "plots/$s.gp" "$t" "$out" "$@"; echo "figures: $s <- $t" >&2
  else echo "figures: $2 not found, $1 skipped" >&2; fi
}
if [ -f "${base}_timings.tsv" ]; then
  draw decode_cost "${base}_timings.tsv"      # a results file with timings (make bench)
else
  # clips and codecs from the data; the error scale from the swept curves of self-contained codecs
  clips=$(awk -F'\t' 'NR > 2 && !seen[$1]++ {printf "%s ", $1}' "$base.tsv" 2>/dev/null)
  codecs=$(awk -F'\t' 'NR > 2 && $37 == "-" && !seen[$2]++ {printf "%s ", $2}' "$base.tsv" 2>/dev/null)
  cap=$(awk -F'\t' 'NR > 2 && $37 == "-" && $18 == 1 && $35 != "-" && $12 != "-" && $12 + 0 > m + 0 {m = $12 + 0}
                    END {print (m > 0 ? 2 * m : 1000)}' "$base.tsv" 2>/dev/null)
  layouts=$(awk -F'\t' 'NR > 2 && $37 == "-" && $18 == 0 && $15 != "-" && !seen[$2]++ {printf "%s ", $2}' "$base.tsv")
  draw rate_distortion "$base.tsv" "$clips" "$codecs" "$cap" "$layouts"
  draw techniques "${base}_techniques.tsv" "$(basename "$base")_techniques" "$clips"
  draw jump_keys "${base}_keys.tsv"
fi
