#!/usr/bin/env bash
# Two builds' whole-clip decode (or encode: AB_PATTERN=encode) side by side, for a change that claims to be faster: each codec on
# each clip is timed by one build and then the other (the order flips every round), so that the
# shared VM's slow phases fall on both; per build the median over the rounds of each run's median,
# with the rounds' min and max, and geometric means over the clips.
# usage: scripts/decode_ab.sh OLD_BIN NEW_BIN OUT   (writes OUT.tsv, every run, and OUT.md)
#   an old build: git worktree add /tmp/old COMMIT && make -C /tmp/old bin/animbench
#   AB_CODECS (default shellpack,shellpack-exchange,shellpack-match,shellpack-trained,shellpack-ra;
#   the first is the reference), AB_NEW_CODECS (none; rows only the new build has, timed in the same
#   rounds and set against both builds' reference), AB_CLIPS (walk,jump,mocap; a capture as
#   FILE.bvh@UNIT_M@UP, say ../shared/data/bvh/cmu_01_01_mb.bvh@0.056444@y), AB_ROUNDS (8),
#   AB_RUNS (7 per bench call), AB_PIN (1), AB_PATTERN (whole-clip, or encode: the encoder's time per
#   clip, bench's encode pattern).  About 2 minutes for the defaults; keep the machine otherwise idle.
set -euo pipefail
[ $# -eq 3 ] || { sed -n 2,13p "$0" >&2; exit 2; }
old=$1 new=$2 out=$3
codecs=${AB_CODECS:-shellpack,shellpack-exchange,shellpack-match,shellpack-trained,shellpack-ra}
new_codecs=${AB_NEW_CODECS:-}
clips=${AB_CLIPS:-walk,jump,mocap} rounds=${AB_ROUNDS:-8} runs=${AB_RUNS:-7} pin=${AB_PIN:-1}
pattern=${AB_PATTERN:-whole-clip}
case $pattern in
  whole-clip) match=' whole clip ' median_field=5 what='Whole-clip decode' time_unit='microseconds per clip' scale=1000 digits=0 ;;
  encode) match=' encode ' median_field=4 what='Encode' time_unit='milliseconds per clip' scale=1000000 digits=1 ;;
  *) echo "decode_ab.sh: AB_PATTERN $pattern: not whole-clip or encode" >&2; exit 2 ;;
esac
for b in "$old" "$new"; do [ -x "$b" ] || { echo "decode_ab.sh: $b: not an executable" >&2; exit 2; }; done
# each clip's label in the table (a file's name without .bvh) and its bench options
labels=""
for spec in ${clips//,/ }; do
  file=${spec%%@*}
  if [ "$file" != "$spec" ]; then
    IFS=@ read -r file unit up extra <<<"$spec"
    [ -f "$file" ] && [ -n "$unit" ] && [ -n "$up" ] && [ -z "$extra" ] ||
      { echo "decode_ab.sh: AB_CLIPS entry $spec: not FILE.bvh@UNIT_M@UP with an existing file" >&2; exit 2; }
  fi
  label=$(basename "$file" .bvh)
  [[ ",$labels," != *",$label,"* ]] || { echo "decode_ab.sh: AB_CLIPS names $label twice" >&2; exit 2; }
  labels=${labels:+$labels,}$label
done
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.md"' EXIT
printf 'build\tround\tcodec\tclip\tmedian_ns\tmin_ns\tmax_ns\theld_bytes_per_joint_sample\n' > "$tmp"
for r in $(seq "$rounds"); do
  for c in ${codecs//,/ } ${new_codecs//,/ }; do
    for spec in ${clips//,/ }; do
      clip_args=(--clips "$spec")
      if [ "${spec%%@*}" != "$spec" ]; then
        IFS=@ read -r file unit up <<<"$spec"
        clip_args=(--clips "$file" --unit-m "$unit" --up "$up")
      fi
      label=$(basename "${spec%%@*}" .bvh)
      order="old new"
      [ $((r % 2)) -eq 0 ] && order="new old"
      [[ ",$new_codecs," == *",$c,"* ]] && order=new
      for b in $order; do
        bin=$old
        [ "$b" = new ] && bin=$new
        report=$("$bin" bench "${clip_args[@]}" --codecs "$c" --patterns "$pattern" --runs "$runs" --pin "$pin" 2>&1)
        line=$(awk -v m="$match" 'index($0, m) && !/memory:/' <<<"$report")
        # what the sampler holds beside the time (bench's memory line): "sampler holds N B (X B/joint-sample)"
        held=$(sed -n 's/.*sampler holds \([0-9]*\) B (\([0-9.]*\) B\/joint-sample).*/\2/p' <<<"$report" | head -1)
        [ -n "$line" ] && [ -n "$held" ] || { echo "decode_ab.sh: $b build gave no $pattern time or held memory for $c on $label" >&2; exit 1; }
        awk -v b="$b" -v r="$r" -v h="$held" -v clip="$label" -v m="$median_field" \
          '{printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", b, r, $1, clip, $m, $(m + 1), $(m + 2), h}' <<<"$line" >> "$tmp"
      done
    done
  done
done
# per build, codec and clip: the median of the rounds' medians, their min and max; then geometric means;
# beside them what the sampler holds (the median over the clips and rounds of bench's figure)
awk -F'\t' -v what="$what" -v time_unit="$time_unit" -v scale="$scale" -v digits="$digits" -v pattern="$pattern" -v old="$old" -v new="$new" -v rounds="$rounds" -v runs="$runs" -v codecs="$codecs" -v new_codecs="$new_codecs" -v clips="$labels" '
function median(list, n,   a, i, j, t) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NR > 1 {
  k = $1 SUBSEP $3 SUBSEP $4
  v[k] = v[k] " " $5
  if (!(k in lo) || $5 + 0 < lo[k]) lo[k] = $5 + 0
  if (!(k in hi) || $5 + 0 > hi[k]) hi[k] = $5 + 0
  held[$1 SUBSEP $3] = held[$1 SUBSEP $3] " " $8
}
END {
  nc = split(codecs, C, ","); nk = split(clips, K, ",")
  nn = new_codecs == "" ? 0 : split(new_codecs, N, ",")
  for (i = 1; i <= nn; i++) { C[nc + i] = N[i]; only_new[N[i]] = 1 }
  printf "# %s, two builds side by side (scripts/decode_ab.sh)\n\n", what
  printf "old: `%s`; new: `%s`. Each codec on each clip timed by `bench --patterns %s --runs %d --pin`, the builds alternating (order flipped each round), %d rounds. Per cell: the median over the rounds of each run'"'"'s median, in %s, with the rounds'"'"' min and max.\n\n", old, new, pattern, runs, rounds, time_unit
  printf "| codec | build |"; for (j = 1; j <= nk; j++) printf " %s |", K[j]; printf " new / old | x old %s | x new %s | sampler holds (B/joint-sample, median over the clips) |\n", C[1], C[1]
  printf "|---|---|"; for (j = 1; j <= nk; j++) printf "---:|"; printf "---:|---:|---:|---:|\n"
  for (i = 1; i <= nc + nn; i++) for (bi = 1; bi <= 2; bi++) {
    b = bi == 1 ? "old" : "new"
    if ((C[i] in only_new) && b == "old") continue
    printf "| `%s` | %s |", C[i], b
    g_self = g_old = g_new = 0
    for (j = 1; j <= nk; j++) {
      m = median(v[b SUBSEP C[i] SUBSEP K[j]])
      f = "%." digits "f"
      printf " " f " (" f "-" f ") |", m / scale, lo[b SUBSEP C[i] SUBSEP K[j]] / scale, hi[b SUBSEP C[i] SUBSEP K[j]] / scale
      if (!(C[i] in only_new)) g_self += log(m / median(v["old" SUBSEP C[i] SUBSEP K[j]]))
      g_old += log(m / median(v["old" SUBSEP C[1] SUBSEP K[j]]))
      g_new += log(m / median(v["new" SUBSEP C[1] SUBSEP K[j]]))
    }
    if (C[i] in only_new) printf " (new build only) | %.3f | %.3f | %s |\n", exp(g_old / nk), exp(g_new / nk), median(held[b SUBSEP C[i]])
    else printf " %.3f | %.3f | %.3f | %s |\n", exp(g_self / nk), exp(g_old / nk), exp(g_new / nk), median(held[b SUBSEP C[i]])
  }
  printf "\nRatios are geometric means over the clips of the cells'"'"' medians."
  if (nn) printf " Rows marked new build only exist in the new build alone: the new build times them in the same rounds, after the rows both builds have."
  printf "\n"
}' "$tmp" > "$tmp.md"
mkdir -p "$(dirname "$out")"
mv "$tmp" "$out.tsv"
mv "$tmp.md" "$out.md"
trap - EXIT
cat "$out.md"
