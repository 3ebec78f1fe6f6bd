#!/usr/bin/env bash
# How encode time, whole-clip decode time and peak memory grow with clip
# length (random clips of 31 bones at 120 Hz, 250 to 32,000 frames) and with
# bone count (1,000 frames, 10 to 500 bones), for a few codecs; least-squares
# slopes on log-log axes.  Timings are benchmarks: medians of a few runs on
# a pinned CPU, never asserted.  Writes results/scale.tsv,
# results/scale_slopes.md and results/figures/scale_*.png/svg.
# usage: scripts/scale.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
pin=$(( $(nproc) - 1 ))
codecs="raw,linear,cubic,cubic-q-sc,every-nth"
if grep -q "^  acl " <<<"$("$bin" list)" && ! grep -q UNAVAILABLE <<<"$("$bin" list)"; then codecs="$codecs,acl"; fi
tsv=results/scale.tsv
tmp=$(mktemp)
echo -e "# animbench scale: medians of 3 runs pinned to CPU $pin; peak RSS of the bench process\nseries\tn\tcodec\tencode_ns\tdecode_ns\tpeak_rss_kib" >"$tmp"
measure() { # series n clip
  local out
  out=$("$bin" bench --clips "$3" --codecs "$codecs" --runs 3 --budget-ms 5 --pin "$pin" 2>/dev/null)
  local rss
  rss=$(sed -n 's/^peak RSS of this process: \([0-9]*\) KiB/\1/p' <<<"$out")
  awk -v s="$1" -v n="$2" -v rss="$rss" '
    $2 == "whole" && $3 == "clip" {dec[$1] = $4}
    $2 == "encode" {enc[$1] = $3; order[++k] = $1}
    END {for (i = 1; i <= k; i++) printf "%s\t%s\t%s\t%s\t%s\t%s\n", s, n, order[i], enc[order[i]], dec[order[i]], rss}' <<<"$out" >>"$tmp"
  echo "scale: $1 $2 done" >&2
}
for frames in 250 500 1000 2000 4000 8000 16000 32000; do  # 31 x 32,000 is within the joint-sample limit
  measure frames "$frames" "random:bones=31,frames=$frames,rate=120,seed=1"
done
for bones in 10 20 40 80 160 320 500; do
  measure bones "$bones" "random:bones=$bones,frames=1000,rate=120,seed=1,branching=4,depth=12"
done
mv "$tmp" "$tsv"
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
} >results/scale_slopes.md.tmp && mv results/scale_slopes.md.tmp results/scale_slopes.md
mkdir -p results/figures
gnuplot -c plots/scale.gp "$tsv" results/figures "$(tr ',' ' ' <<<"$codecs")"
cat results/scale_slopes.md
