#!/usr/bin/env bash
# Encoder time of each key selection strategy (issue 12) against clip length:
# `animbench encode` at 1 mm on random clips of 31 bones at 120 Hz, 250 to
# 8,000 frames, and on the 4,511-frame capture cmu_01_03; pinned to the last
# CPU, median, min and max of 3 runs.  Benchmarks: never asserted.  Writes
# results/keys_encode_time.tsv and results/figures/keys_encode_time.png/svg (the slopes are in
# results/keys_summary.md).
# usage: scripts/keys_timing.sh [bin/animbench]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
pin=$(( $(nproc) - 1 ))
rows="linear-sc linear-optimal-sc linear-greedy-sc linear-hier-sc linear-closed-sc cubic-sc cubic-optimal-sc cubic-greedy-sc cubic-peucker-sc cubic-hier-sc cubic-closed-sc"
out=results/keys_encode_time.tsv
tmp=$(mktemp)
echo -e "# animbench keys timing: animbench encode at tol_mm=1, pinned to CPU $pin, 3 runs\nclip\tframes\tcodec\tmedian_s\tmin_s\tmax_s\tbytes" >"$tmp"
time_one() { # label frames clip [args...]
  local label=$1 frames=$2 clip=$3; shift 3
  for codec in $rows; do
    local times=() bytes=""
    for r in 1 2 3; do
      local o
      o=$(taskset -c "$pin" "$bin" encode --clip "$clip" "$@" --codec "$codec" --tol-mm 1)
      times+=("$(sed -n 's/^time .* encode \([0-9.e-]*\) s.*/\1/p' <<<"$o")")
      bytes=$(sed -n 's/^bytes *\([0-9]*\),.*/\1/p' <<<"$o")
    done
    printf '%s\n' "${times[@]}" | sort -g | awk -v l="$label" -v f="$frames" -v c="$codec" -v b="$bytes" '
      {v[NR] = $1} END {printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", l, f, c, v[2], v[1], v[3], b}' >>"$tmp"
  done
  echo "keys timing: $label done" >&2
}
for frames in 250 500 1000 2000 4000 8000; do
  time_one random "$frames" "random:bones=31,frames=$frames,rate=120,seed=1"
done
if [ -f "$data/bvh/cmu_01_03_mb.bvh" ]; then
  time_one cmu_01_03 4511 "$data/bvh/cmu_01_03_mb.bvh" --unit-m 0.056444
fi
mv "$tmp" "$out"
gnuplot -c plots/keys_encode.gp "$out" results/figures "$(awk -F'\t' 'NR > 2 && !seen[$3]++ {printf "%s ", $3}' "$out")"
echo "figures: keys_encode <- $out" >&2
