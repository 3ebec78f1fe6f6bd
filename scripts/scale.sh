#!/usr/bin/env bash
# How encode time, whole-clip decode time and peak memory grow with clip
# length (random clips of 31 bones at 120 Hz, 250 to 32,000 frames) and with
# bone count (1,000 frames, 10 to 500 bones), for a few codecs; least-squares
# slopes on log-log axes; and long clips (16 bones, 100 to 1,000,000 frames)
# through `animbench encode`, time and peak memory.  Timings are benchmarks:
# medians of a few runs on a pinned CPU, never asserted.  Writes results/scale.tsv, results/scale_long.tsv,
# results/scale_slopes.md and results/figures/scale_*.png/svg.
# usage: scripts/scale.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
pin=$(( $(nproc) - 1 ))
codecs=$(scripts/available_codecs.sh "$bin" raw,linear,cubic,cubic-q-sc,every-nth,acl,ozz,shellpack 2>/dev/null)
tsv=results/scale.tsv
tmp=$(mktemp)
echo -e "# animbench scale: medians of 3 runs pinned to CPU $pin; peak RSS of the bench process\nseries\tn\tcodec\tencode_ns\tdecode_ns\tpeak_rss_kib" >"$tmp"
measure() { # series n clip
  local out json
  json=$(mktemp --suffix=.json)
  out=$("$bin" bench --clips "$3" --codecs "$codecs" --patterns whole-clip,encode --runs 3 --budget-ms 5 --pin "$pin" \
        --json "$json" 2>/dev/null)
  local rss
  rss=$(sed -n 's/^peak RSS of this process: \([0-9]*\) KiB/\1/p' <<<"$out")
  awk -F'\t' -v s="$1" -v n="$2" -v rss="$rss" '
    NR > 2 && $3 == "whole_clip" {dec[$1] = $4}
    NR > 2 && $3 == "encode" {enc[$1] = $4; order[++k] = $1}
    END {for (i = 1; i <= k; i++) printf "%s\t%s\t%s\t%s\t%s\t%s\n", s, n, order[i], enc[order[i]], dec[order[i]], rss}' \
    "${json%.json}_timings.tsv" >>"$tmp"
  rm -f "$json" "${json%.json}".tsv "${json%.json}"_timings.tsv "${json%.json}"_techniques.tsv
  echo "scale: $1 $2 done" >&2
}
for frames in 250 500 1000 2000 4000 8000 16000 32000; do  # 31 x 32,000 is within the joint-sample limit
  measure frames "$frames" "random:bones=31,frames=$frames,rate=120,seed=1"
done
for bones in 10 20 40 80 160 320 500; do
  measure bones "$bones" "random:bones=$bones,frames=1000,rate=120,seed=1,branching=4,depth=12"
done
mv "$tmp" "$tsv"

# Long clips, encode only (`animbench encode`: the clip, its channel view and
# the stream; no measuring): a fixed random rig of 16 bones at 120 Hz from 100
# to 1,000,000 frames (16 x 10^6 is within encode's 16,777,216 joint-samples),
# the rows that hold any length.  Encode time (median of 3 up to 10^4 frames,
# one run above) and peak RSS against the clip's size.
long_codecs=$(scripts/available_codecs.sh "$bin" raw,linear-sc,cubic-sc,cubic-q-sc,every-nth,acl 2>/dev/null | tr ',' ' ')
long=results/scale_long.tsv
tmp=$(mktemp)
echo -e "# animbench scale, long clips: animbench encode pinned to CPU $pin\nframes\tcodec\tencode_s\tpeak_rss_mb\tclip_mb\tbytes" >"$tmp"
for frames in 100 1000 10000 100000 300000 1000000; do
  runs=3; [ "$frames" -gt 10000 ] && runs=1
  for codec in $long_codecs; do
    # ACL's encoder grows faster than linearly past 10^5 frames: 345 s at 10^6 (measured once)
    [ "$codec" = acl ] && [ "$frames" -gt 300000 ] && continue
    times=() out=""
    for ((r = 0; r < runs; r++)); do
      out=$(taskset -c "$pin" "$bin" encode --clip "random:bones=16,frames=$frames,rate=120,seed=1" --codec "$codec")
      times+=("$(sed -n 's/^time .* encode \([0-9.]*\) s.*/\1/p' <<<"$out")")
    done
    median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
    awk -v f="$frames" -v c="$codec" -v t="$median" '
      /^memory/ {rss = $4} /^clip/ {gsub(/[(]/, ""); for (i = 1; i <= NF; i++) if ($i == "MB") mb = $(i - 1)}
      /^bytes/ {b = $2; sub(/,/, "", b)}
      END {printf "%s\t%s\t%s\t%s\t%s\t%s\n", f, c, t, rss, mb, b}' <<<"$out" >>"$tmp"
  done
  echo "scale: long $frames done" >&2
done
mv "$tmp" "$long"
# slopes of log(time) on log(n), least squares, per series and codec
{
  echo "| series | codec | encode slope | decode slope | encode at the largest n | decode at the largest n |"
  echo "|---|---|---:|---:|---:|---:|"
  awk -F'\t' 'NR > 2 {
      key = $1 "\t" $3; if (!(key in n)) order[++k] = key
      x = log($2); n[key]++; sx[key] += x; sxx[key] += x * x
      ye = log($4); syE[key] += ye; sxyE[key] += x * ye
      yd = log($5); syD[key] += yd; sxyD[key] += x * yd
      lastE[key] = $4; lastD[key] = $5; lastN[key] = $2 }
    END {
      for (i = 1; i <= k; i++) { c = order[i]; m = n[c]; d = m * sxx[c] - sx[c] * sx[c]
        split(c, p, "\t")
        printf "| %s | %s | %.2f | %.2f | %.4g ms (n = %s) | %.4g ms |\n", p[1], p[2],
          (m * sxyE[c] - sx[c] * syE[c]) / d, (m * sxyD[c] - sx[c] * syD[c]) / d, lastE[c] / 1e6, lastN[c], lastD[c] / 1e6 } }' "$tsv"
  echo
  echo "Long clips, encode only (\`animbench encode\`, 16 bones at 120 Hz, 100 to 1,000,000 frames):"
  echo
  echo "| codec | encode slope in frames | encode at the largest n | peak RSS there | of the clip's size |"
  echo "|---|---:|---:|---:|---:|"
  awk -F'\t' 'NR > 2 {
      c = $2; if (!(c in n)) order[++k] = c
      x = log($1); y = log($3); n[c]++; sx[c] += x; sxx[c] += x * x; sy[c] += y; sxy[c] += x * y
      if ($1 >= big[c]) { big[c] = $1; t[c] = $3; r[c] = $4; m[c] = $5 } }
    END {
      for (i = 1; i <= k; i++) { c = order[i]; d = n[c] * sxx[c] - sx[c] * sx[c]
        printf "| %s | %.2f | %.2f s (n = %d) | %.0f MB | %.2f x |\n", c, (n[c] * sxy[c] - sx[c] * sy[c]) / d, t[c], big[c], r[c], r[c] / m[c] } }' "$long"
} >results/scale_slopes.md.tmp && mv results/scale_slopes.md.tmp results/scale_slopes.md
mkdir -p results/figures
gnuplot -c plots/scale.gp "$tsv" results/figures "$(tr ',' ' ' <<<"$codecs")"
gnuplot -c plots/scale_long.gp "$long" results/figures "$long_codecs"
scripts/record.sh "$bin" rows:"$(tr ' ' ',' <<<"$codecs,$long_codecs" | tr -s ',' | sed 's/^,//; s/,$//')" results/scale.tsv \
  results/scale_long.tsv results/scale_slopes.md $(ls results/figures/scale_* 2>/dev/null)
cat results/scale_slopes.md
