#!/usr/bin/env bash
# What shellpack-side's container pays over the row it carries, on the Bandai corpus at tol_mm equal to each
# target (0.1 and 1 mm): both rows encode every clip at the same setting, so the plan, the residual bytes and
# the decoded clip are the same (the side row's encoder checks it) and the bytes differ by the container
# alone.  Prints, per target, the geometric mean of the side row's bytes over the inner row's on all the
# clips, the held-out ones (animbench train-priors --held-out) and the training ones, the extremes, and the
# mean bytes saved.  Every figure is computed from `animbench run`'s byte counts.
# usage: scripts/side_gain.sh [bin/animbench] [SIDE_ROW]  (default shellpack-comp-trained-side; its inner row
#   is its name without -side); about 8 to 10 minutes on two cores for shellpack-comp-trained-side.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench} side=${2:-shellpack-comp-trained-side}
inner=${side%-side}
data=${ANIMBENCH_DATA:-../shared/data}/bandai_namco_1
[ "$inner" != "$side" ] || { echo "side_gain.sh: $side is not a row named X-side" >&2; exit 2; }
[ -d "$data" ] || { echo "side_gain.sh: no $data" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" train-priors --held-out > "$tmp/held"
one() { # clip target row: "clip target row bytes"
  local b
  b=$("$bin" run --clip "$1" --unit-m 0.01 --up y --codec "$3" --tol-mm "$2" 2>&1 | awk '$1 == "bytes" { print $2; exit }')
  [ -n "$b" ] || { echo "side_gain.sh: $3 on $1 at $2 mm gave no byte count" >&2; exit 1; }
  echo "$(basename "$1" .bvh) $2 $3 $b"
}
export -f one
export bin
for f in "$data"/*.bvh; do for t in 0.1 1; do for r in "$inner" "$side"; do echo "$f $t $r"; done; done; done |
  xargs -P "${JOBS:-2}" -n 3 bash -c 'one "$0" "$1" "$2"' > "$tmp/bytes"
awk -v side="$side" -v inner="$inner" '
  FILENAME == ARGV[1] { held[$1] = 1; next }
  $3 == inner { a[$1 " " $2] = $4 } $3 == side { b[$1 " " $2] = $4 }
  END {
    n = split("0.1 1", targets, " ")
    for (i = 1; i <= n; i++) {
      t = targets[i]; delete s; delete c; lo = 9; hi = 0; saved = 0
      for (k in b) { split(k, f, " "); if (f[2] != t || !(k in a)) continue
        r = b[k] / a[k]; s["all"] += log(r); c["all"]++; set = (f[1] in held) ? "held" : "training"; s[set] += log(r); c[set]++
        saved += a[k] - b[k]; if (r < lo) { lo = r; lc = f[1] } if (r > hi) { hi = r; hc = f[1] } }
      if (!c["all"]) { printf "%s over %s at %s mm: no clip\n", side, inner, t; continue }
      printf "%s over %s at %s mm: %s (%d clips); held out %s (%d); training %s (%d); smallest %.4f (%s), largest %.4f (%s); %.1f bytes saved on the mean\n",
        side, inner, t, gm(s["all"], c["all"]), c["all"], gm(s["held"], c["held"]), c["held"],
        gm(s["training"], c["training"]), c["training"], lo, lc, hi, hc, saved / c["all"]
    } }
  function gm(sum, n) { return n ? sprintf("%.4f", exp(sum / n)) : "-" }' "$tmp/held" "$tmp/bytes"
