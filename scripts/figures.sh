#!/usr/bin/env bash
# Draws every figure from the exported tables of a results file.
# usage: scripts/figures.sh results/study.json
set -euo pipefail
base=${1%.json}
out=$(dirname "$1")/figures
mkdir -p "$out"
# every figure drawn here, and the tables the sweep exported beside its file, are recorded as made
# from it (results/manifest.json; make results-check)
started=$(mktemp)
trap 'rm -f "$started"' EXIT
# Each figure is drawn from a table that the results file may or may not have (a sweep without
# targets has no equal-error chart): a missing table is expected and says nothing.
draw() { # script table [args...]
  if [ -f "$2" ]; then local s=$1 t=$2; shift 2; gnuplot -c "plots/$s.gp" "$t" "$out" "$@"; echo "figures: $s <- $t" >&2; fi
}
# A dot chart (plots/dots.gp) from lines "codec<TAB>series<TAB>value<TAB>lo<TAB>hi[<TAB>note]" on stdin:
# rows in the order of plots/codec_styles.tsv, a header row per family, the codec's colour; a note
# (the first a codec's lines give) is written after its name.
# usage: dots NAME "series names" "title" "x label" "note" [reference x]
dots() {
  local name=$1 series=$2 title=$3 xlabel=$4 note=$5 ref=${6:-0} tmp codecs
  tmp=$(mktemp -d)
  cat > "$tmp/in.tsv"
  [ -s "$tmp/in.tsv" ] || { rm -rf "$tmp"; return 0; }
  codecs=$(awk -F'\t' '!seen[$1]++ {printf "%s ", $1}' "$tmp/in.tsv")
  awk -F'\t' '$6 != "" && !seen[$1]++ {print $1 "\t" $6}' "$tmp/in.tsv" > "$tmp/notes"
  codecs=$(scripts/codec_style.sh --order $codecs)
  # shellcheck disable=SC2086
  scripts/codec_style.sh $codecs | paste -d ' ' <(printf '%s\n' $codecs) - > "$tmp/styles"
  awk -F'\t' -v stylefile="$tmp/styles" -v notefile="$tmp/notes" -v layout="$tmp/layout.gp" -v series="$series" -v title="$title" \
      -v xlabel="$xlabel" -v note="$note" -v ref="$ref" '
    function hex(h,   i, v) { v = 0; h = tolower(substr(h, 2)); for (i = 1; i <= 6; i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return v }
    function q(t) { gsub(/\\/, "\\\\", t); gsub(/"/, "\\\"", t); return "\"" t "\"" }
    BEGIN {
      while ((getline line < stylefile) > 0) {
        nf = split(line, f, " "); c = f[1]; colour[c] = hex(f[2]); fam = f[6]; for (i = 7; i <= nf; i++) fam = fam " " f[i]
        family[c] = fam; order[++n] = c
      }
      while ((getline line < notefile) > 0) { split(line, f, "\t"); note_of[f[1]] = f[2] }
      row = 0; tics = ""
      for (k = 1; k <= n; k++) {
        c = order[k]
        if (family[c] != last) { row++; tics = tics (tics == "" ? "" : ", ") q(family[c] ":") " " row; last = family[c]
                                 if (length(family[c]) + 1 > widest) widest = length(family[c]) + 1 } # a family name is a label too
        label = "  " c (c in note_of ? " " note_of[c] : ""); if (length(label) > widest) widest = length(label)
        row++; at[c] = row; tics = tics ", " q(label) " " row
      }
      # the note, wrapped at "; " into lines of at most 150 characters
      m = split(note, part, "; "); text = ""; len = 0; lines = note == "" ? 0 : 1
      for (i = 1; i <= m; i++) {
        piece = part[i] (i < m ? ";" : "")
        if (len > 0 && len + length(piece) + 1 > 150) { text = text "\n"; len = 0; lines++ }
        else if (len > 0) { text = text " "; len++ }
        text = text piece; len += length(piece)
      }
      qt = q(text); gsub(/\n/, "\\n", qt)
      printf "series = %s\ntitle_text = %s\nxlabel_text = %s\nnote_text = %s\nnote_lines = %d\nrows = %d\nref_x = %s\n", \
        q(series), q(title), q(xlabel), qt, lines, row, ref + 0 > layout
      printf "label_width = %d\nset ytics (%s)\n", int(widest * 0.72) + 3, tics > layout
    }
    { lo = $4 == "" || $4 == "-" ? $3 : $4; hi = $5 == "" || $5 == "-" ? $3 : $5
      printf "%d\t%s\t%d\t%s\t%s\t%s\t%d\n", at[$1], $1, $2, $3, lo, hi, colour[$1] }' "$tmp/in.tsv" > "$tmp/data.tsv"
  gnuplot -c plots/dots.gp "$tmp/data.tsv" "$tmp/layout.gp" "$out/$name" && echo "figures: dots -> $out/$name" >&2
  rm -rf "$tmp"
}
# a corpus summary's per-clip ratios (make corpus): one figure per question
if [ -f "${base}_ratios.tsv" ]; then
  baseline=$(sed -n '1s/.*relative to \([^,]*\), one row.*/\1/p' "${base}_ratios.tsv")
  awk -F'\t' 'NR > 2 && !seen[$1]++ {print $1}' "${base}_ratios.tsv" | while IFS= read -r question; do
    codecs=$(awk -F'\t' -v q="$question" 'NR > 2 && $1 == q && $4 != "-" && !seen[$2]++ {printf "%s ", $2}' "${base}_ratios.tsv")
    codecs=$(scripts/codec_style.sh --order $codecs)
    never=$(awk -F'\t' -v q="$question" 'NR > 2 && $1 == q { all[$2] = 1; if ($4 != "-") ok[$2] = 1 }
                END { for (c in all) if (!(c in ok)) printf "%s ", c }' "${base}_ratios.tsv")
    nclips=$(awk -F'\t' -v q="$question" 'NR > 2 && $1 == q && !seen[$3]++ {n++} END {print n + 0}' "${base}_ratios.tsv")
    slug=$(printf '%s' "$question" | tr -c 'A-Za-z0-9._' '_' | sed 's/__*/_/g')
    draw corpus_ratio "${base}_ratios.tsv" "$(basename "$base")_ratio_${slug}" "$question" "$codecs" "$baseline" "$nclips" "$never"
  done
fi
if [ -f "${base}_timings.tsv" ]; then
  # a results file with timings (make bench): one row per codec, one marker per clip (or pattern)
  t="${base}_timings.tsv"
  # make bench's own file draws decode_*; any other results file with timings, NAME_decode_*
  pre="$(basename "$base")_"; [ "$pre" = bench_ ] && pre=""
  tclips=$(awk -F'\t' 'NR > 2 && $2 !~ /^\*/ && !seen[$2]++ {printf "%s ", $2}' "$t")
  nt=$(printf '%s' "$tclips" | wc -w)
  ahead="(decodes ahead)"
  # playback per clip (the ceilings are timed on the study's times: nothing is decoded)
  awk -F'\t' -v clips="$tclips" -v ahead="$ahead" '
    BEGIN { k = split(clips, c, " "); for (j = 1; j <= k; j++) idx[c[j]] = j }
    NR > 2 && ($3 == "playback" || $1 ~ /^ceiling/) && ($2 in idx) {
      printf "%s\t%d\t%s\t%s\t%s\t%s\n", $1, idx[$2], $4, $5, $6, ($10 == 1 ? ahead : "") }' "$t" |
    dots "${pre}decode_cost" "$tclips" \
      "Decode cost of one pose, playing each clip at 60 poses per second of game time (median; whiskers: min to max)" \
      "ns per pose (log)" "rows marked (decodes ahead) hold more than their stream plus a small context (32 KiB and two poses): their per-pose cost is that of an already decoded clip (decode_memory); ceilings: copying one raw pose, lerping two raw frames"
  # every pattern, the geometric mean over the clips of each clip's median; the crowd is over all of them
  scope="geometric mean over the $nt clip(s) of each clip's median"
  [ "$nt" -gt 0 ] || scope="median; a crowd over every clip's stream, no per-clip patterns" # make bench's corpus run
  awk -F'\t' -v ahead="$ahead" '
    BEGIN { n = split("study sequential seek playback first_pose crowd every_core", pat, " "); for (i = 1; i <= n; i++) at[pat[i]] = i }
    NR > 2 && ($3 in at) && $1 !~ /^ceiling/ && $4 > 0 { key = $1 "\t" at[$3]; s[key] += log($4); m[key]++
                                                       if (!(key in order)) { order[key] = ++k; keys[k] = key }
                                                       if ($10 == 1) note[$1] = ahead }
    END { for (i = 1; i <= k; i++) { split(keys[i], f, "\t"); printf "%s\t%s\t%.6g\t-\t-\t%s\n", f[1], f[2], exp(s[keys[i]] / m[keys[i]]), note[f[1]] } }' "$t" |
    dots "${pre}decode_patterns" "study sequential seek playback first-pose crowd every-core" \
      "What a pose costs in each access pattern (ns, $scope)" \
      "ns per pose (log)" \
      "first pose: from the bytes to the first pose; crowd: enough characters, each with its own sampler over its own copy of a stream, that their footprint is four times the last-level cache (at most 1 GiB: the row gives the multiple), one pose each in turn; every core: the crowd split over every core, wall time per pose"
  # what the sampler holds against its stream, bytes per joint-sample (geometric mean over the clips)
  awk -F'\t' -v ahead="$ahead" '
    NR > 2 && $3 == "playback" && $7 != "-" && $9 > 0 { s1[$1] += log(($7 > 0 ? $7 : 1) / $9); s2[$1] += log(($8 > 0 ? $8 : 1) / $9); m[$1]++
                                                      if (!($1 in m2)) { m2[$1] = 1; order[++k] = $1 } if ($10 == 1) note[$1] = ahead }
    END { for (i = 1; i <= k; i++) { c = order[i]; printf "%s\t1\t%.6g\t-\t-\t%s\n%s\t2\t%.6g\t-\t-\t%s\n", c, exp(s1[c] / m[c]), note[c], c, exp(s2[c] / m[c]), note[c] } }' "$t" |
    dots "${pre}decode_memory" "stream held" \
      "What a sampler holds against its stream (bytes per joint-sample, geometric mean over the $nt clip(s))" \
      "bytes per joint-sample (log): the stream, and the heap the sampler holds while it plays (measured by the allocator)" \
      "a raw float32 clip is 40 bytes per joint-sample; a clip decoded into doubles, 80"
else
  # clips and codecs from the data; the error scale from the swept curves of self-contained codecs
  clips=$(awk -F'\t' 'NR > 2 && !seen[$1]++ {printf "%s ", $1}' "$base.tsv" 2>/dev/null)
  codecs=$(awk -F'\t' 'NR > 2 && $37 == "-" && !seen[$2]++ {printf "%s ", $2}' "$base.tsv" 2>/dev/null)
  # shellcheck disable=SC2086
  codecs=$(scripts/codec_style.sh --order $codecs)
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
    # rows: "N name"; per clip three columns (bytes per s, gzip bytes per s, max mm)
    awk -F'\t' 'NR > 2 { c = $1; gsub(/"/, "", c); sub(/^[0-9]+ /, "", c)
                         for (k = 0; 3 * k + 2 <= NF; k++) if ($(3 * k + 2) != "-") printf "%s\t%d\t%s\t-\t-\n", c, k + 1, $(3 * k + 2) }' \
      "${base}_techniques.tsv" |
      dots "$(basename "$base")_techniques" "$clips" "The study's techniques at a 1 mm tolerance: bytes per second of clip" \
        "bytes per second of clip (log)" "the study's techniques 6 and 7 again in the self-contained layout (-sc), whose bytes decode alone"
  fi
  # every equal-error question in the file (a sweep's "targets"): one chart each
  [ "$nclips" -le 12 ] && awk -F'\t' 'NR > 2 && $37 != "-" && !seen[$37 "\t" $38]++ {print $37 "\t" $38}' "$base.tsv" |
  while IFS=$'\t' read -r metric target; do
    # bytes per second where the target was met; how close the others got, in the note
    miss=$(awk -F'\t' -v m="$metric" -v t="$target" '
      NR > 2 && $37 == m && $38 == t && $39 != 1 { f = $41 + 0
        if (!(($2) in n)) { order[++k] = $2; lo[$2] = f; hi[$2] = f }
        n[$2]++; if (f < lo[$2]) lo[$2] = f; if (f > hi[$2]) hi[$2] = f }
      END { for (i = 1; i <= k; i++) { c = order[i]
              printf "%s%s on %d clip%s (at best %.3g%s mm)", (i > 1 ? "; " : ""), c, n[c], (n[c] > 1 ? "s" : ""), lo[c], (hi[c] > lo[c] ? sprintf(" to %.3g", hi[c]) : "") } }' "$base.tsv")
    awk -F'\t' -v m="$metric" -v t="$target" -v clips="$clips" '
      BEGIN { k = split(clips, c, " "); for (j = 1; j <= k; j++) idx[c[j]] = j }
      NR > 2 && $37 == m && $38 == t && $39 == 1 { printf "%s\t%d\t%s\t-\t-\n", $2, idx[$1], $8 }' "$base.tsv" |
      dots "$(basename "$base")_equal_error_${metric}_${target}" "$clips" \
        "Smallest stream whose clip, decoded from its bytes, meets $metric <= $target mm" "bytes per second of clip (log)" \
        "${miss:+cannot reach it: $miss}"
  done
  draw jump_keys "${base}_keys.tsv"
fi
mapfile -t drawn < <(find "$out" -type f -newer "$started" | LC_ALL=C sort)
scripts/record.sh "${ANIMBENCH_BIN:-bin/animbench}" "$1" "$base.tsv" "${base}_techniques.tsv" "${base}_keys.tsv" \
  "${base}_timings.tsv" "${drawn[@]}"
