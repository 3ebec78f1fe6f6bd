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
# a corpus summary's per-clip ratios (make corpus): one figure per question
if [ -f "${base}_ratios.tsv" ]; then
  baseline=$(sed -n '1s/.*relative to \([^,]*\), one row.*/\1/p' "${base}_ratios.tsv")
  awk -F'\t' 'NR > 2 && !seen[$1]++ {print $1}' "${base}_ratios.tsv" | while IFS= read -r question; do
    codecs=$(awk -F'\t' -v q="$question" 'NR > 2 && $1 == q && $4 != "-" && !seen[$2]++ {printf "%s ", $2}' "${base}_ratios.tsv")
    never=$(awk -F'\t' -v q="$question" 'NR > 2 && $1 == q { all[$2] = 1; if ($4 != "-") ok[$2] = 1 }
                END { for (c in all) if (!(c in ok)) printf "%s ", c }' "${base}_ratios.tsv")
    nclips=$(awk -F'\t' -v q="$question" 'NR > 2 && $1 == q && !seen[$3]++ {n++} END {print n + 0}' "${base}_ratios.tsv")
    slug=$(printf '%s' "$question" | tr -c 'A-Za-z0-9._' '_' | sed 's/__*/_/g')
    draw corpus_ratio "${base}_ratios.tsv" "$(basename "$base")_ratio_${slug}" "$question" "$codecs" "$baseline" "$nclips" "$never"
  done
fi
if [ -f "${base}_timings.tsv" ]; then
  # a results file with timings (make bench); its clips from the header's column groups
  tclips=$(sed -n '2s/^# codec//p' "${base}_timings.tsv" | tr '\t' '\n' | sed -n 's/_median$//p' | tr '\n' ' ')
  draw decode_cost "${base}_timings.tsv" "$tclips"
else
  # clips and codecs from the data; the error scale from the swept curves of self-contained codecs
  clips=$(awk -F'\t' 'NR > 2 && !seen[$1]++ {printf "%s ", $1}' "$base.tsv" 2>/dev/null)
  codecs=$(awk -F'\t' 'NR > 2 && $37 == "-" && !seen[$2]++ {printf "%s ", $2}' "$base.tsv" 2>/dev/null)
  cap=$(awk -F'\t' 'NR > 2 && $37 == "-" && $18 == 1 && $35 != "-" && $12 != "-" && $12 + 0 > m + 0 {m = $12 + 0}
                    END {print (m > 0 ? 2 * m : 1000)}' "$base.tsv" 2>/dev/null)
  layouts=$(awk -F'\t' 'NR > 2 && $37 == "-" && $18 == 0 && $15 != "-" && !seen[$2]++ {printf "%s ", $2}' "$base.tsv")
  nclips=$(printf '%s' "$clips" | wc -w)
  # a corpus gets its own figures (a summary's ratios, below): not one chart per clip, nor 174 bars a codec
  if [ "$nclips" -le 12 ]; then
    draw rate_distortion "$base.tsv" "$clips" "$codecs" "$cap" "$layouts" "$(basename "$base")_rate_distortion"
  else
    echo "figures: $nclips clips: per-clip rate-distortion and equal-error charts skipped (animbench summary --tsv)" >&2
  fi
  # the study's techniques chart, for a file that measured at least four of them at 1 mm
  techniques=$(awk -F'\t' 'NR > 2 && $2 != "-" && $2 != "" {n++} END {print n + 0}' "${base}_techniques.tsv" 2>/dev/null)
  if [ "$nclips" -le 12 ] && [ "${techniques:-0}" -ge 4 ]; then
    draw techniques "${base}_techniques.tsv" "$(basename "$base")_techniques" "$clips"
  fi
  # every equal-error question in the file (a sweep's "targets"): one chart each
  [ "$nclips" -le 12 ] && awk -F'\t' 'NR > 2 && $37 != "-" && !seen[$37 "\t" $38]++ {print $37 "\t" $38}' "$base.tsv" |
  while IFS=$'\t' read -r metric target; do
    matrix=$(mktemp)
    # rows: codecs; columns: clips; bytes per second where the target was met
    awk -F'\t' -v m="$metric" -v t="$target" -v clips="$clips" '
      NR > 2 && $37 == m && $38 == t {
        if (!($2 in row)) { order[++n] = $2; row[$2] = 1 }
        v[$2 "\t" $1] = $39 == 1 ? $8 : "-"
        if ($39 != 1) { f = $41 + 0
          if (!nmiss[$2]++) { lo[$2] = f; hi[$2] = f } else { if (f < lo[$2]) lo[$2] = f; if (f > hi[$2]) hi[$2] = f } }
      }
      END {
        k = split(clips, c, " ")
        for (i = 1; i <= n; i++) {
          printf "%s", order[i]
          for (j = 1; j <= k; j++) { x = v[order[i] "\t" c[j]]; printf "\t%s", x == "" ? "-" : x }
          printf "\n"
        }
        for (i = 1; i <= n; i++) if (order[i] in nmiss)
          miss = miss sprintf("%s%s on %d clip%s (at best %.3g to %.3g mm)", miss == "" ? "" : "\n  ", order[i],
                              nmiss[order[i]], nmiss[order[i]] > 1 ? "s" : "", lo[order[i]], hi[order[i]])
        print miss > "/dev/stderr"
      }' "$base.tsv" >"$matrix" 2>"$matrix.miss"
    draw equal_error "$matrix" "$(basename "$base")_equal_error_${metric}_${target}" "$clips" \
      "$metric <= $target mm" "$(cat "$matrix.miss")"
    rm -f "$matrix" "$matrix.miss"
  done
  draw jump_keys "${base}_keys.tsv"
fi
