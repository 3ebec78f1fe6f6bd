#!/usr/bin/env bash
# The trade of shellpack-ra's section length (issue 22): for each length, the bytes at equal
# measured error against ACL's and the seek and playback times against ACL's, measured side by side
# in one run.  shellpack-ra's values do not depend on the section length (the closed loop chooses
# them before the stream is cut), so at tol_mm = T every length decodes to the same clip, within T;
# ACL is at its smallest stream within T (bench --target).  Clips: the study's three, the four
# captures and every tenth Bandai Namco clip (18 clips, when the data is there).
# Writes results/shellpack_sections.tsv and results/figures/shellpack_sections.{png,svg}.
# usage: scripts/shellpack_sections.sh [bin/animbench]   (SECTION_LENGTHS, SECTION_TARGET to change them)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
lengths=${SECTION_LENGTHS:-4 8 16 32 64 128 256 65535}
target=${SECTION_TARGET:-1}
pin=$(( $(nproc) - 1 ))
flags="--runs 5 --budget-ms 10 --pin $pin --patterns seek,playback"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sets=("study:--clips walk,jump,mocap")
[ -d "$data/bvh" ] && sets+=("captures:--clips-from sweeps/captures.json")
if [ -d "$data/bandai_namco_1" ]; then
  bandai=$(ls "$data"/bandai_namco_1/*.bvh | awk 'NR % 10 == 1' | paste -sd, -)
  sets+=("bandai:--clips $bandai --unit-m 0.01 --up y")
fi
# per set: ACL at the target, then each length; the timings file of each run, tagged
for s in "${sets[@]}"; do
  name=${s%%:*} clips=${s#*:}
  echo "== sections: $name, acl at $target mm" >&2
  # shellcheck disable=SC2086
  "$bin" bench $clips --codecs acl --target "$target" $flags --json "$tmp/$name-acl.json" >/dev/null
  awk -F'\t' -v s="$name" -v l=acl 'NR > 2 { print s "\t" l "\t" $0 }' "$tmp/$name-acl_timings.tsv" >> "$tmp/all.tsv"
  for L in $lengths; do
    echo "== sections: $name, shellpack-ra, $L frames a section" >&2
    # shellcheck disable=SC2086
    "$bin" bench $clips --codecs shellpack-ra --tol-mm "$target" --param section_frames="$L" $flags \
      --json "$tmp/$name-$L.json" >/dev/null
    awk -F'\t' -v s="$name" -v l="$L" 'NR > 2 { print s "\t" l "\t" $0 }' "$tmp/$name-${L}_timings.tsv" >> "$tmp/all.tsv"
  done
done
# per set and length: geometric means over the clips of bytes / acl's, seek / acl's, playback / acl's
{
  echo "# shellpack-ra's section length against bytes and seek time (scripts/shellpack_sections.sh): shellpack-ra at tol_mm $target, ACL at its smallest stream within $target mm of shell distance; geometric means over each set's clips of the per-clip ratios; times are medians of 5 runs, pinned (benchmarks, never asserted)"
  echo -e "set\tsection_frames\tclips\tbytes_vs_acl\tseek_vs_acl\tplayback_vs_acl\tseek_ns\tplayback_ns\tbytes_per_joint_sample"
  awk -F'\t' '
    { set = $1; L = $2; codec = $3; clip = $4; pattern = $5; median = $6; stream = $9; js = $11
      if (pattern != "seek" && pattern != "playback") next
      key = set "\t" clip
      if (L == "acl") { acl[key, pattern] = median; acl_bytes[key] = stream; next }
      v[set "\t" L "\t" clip, pattern] = median; b[set "\t" L "\t" clip] = stream; j[set "\t" L "\t" clip] = js
      if (!((set "\t" L) in seen)) { seen[set "\t" L] = 1; order[++n] = set "\t" L }
      clips[set "\t" L "\t" clip] = 1 }
    END {
      for (i = 1; i <= n; i++) {
        g = order[i]; split(g, f, "\t"); m = 0; sb = ss = sp = st = sq = sj = 0
        for (k in clips) { split(k, c, "\t"); if (c[1] != f[1] || c[2] != f[2]) continue
          a = f[1] "\t" c[3]
          if (!(a in acl_bytes) || acl_bytes[a] <= 0 || acl[a, "seek"] <= 0 || acl[a, "playback"] <= 0) continue
          m++; sb += log(b[k] / acl_bytes[a]); ss += log(v[k, "seek"] / acl[a, "seek"])
          sp += log(v[k, "playback"] / acl[a, "playback"]); st += log(v[k, "seek"]); sq += log(v[k, "playback"])
          sj += log(b[k] / j[k]) }
        if (m) printf "%s\t%s\t%d\t%.4f\t%.3f\t%.3f\t%.0f\t%.0f\t%.4f\n", f[1], f[2], m, exp(sb / m), exp(ss / m),
          exp(sp / m), exp(st / m), exp(sq / m), exp(sj / m)
      }
    }' "$tmp/all.tsv"
} > results/shellpack_sections.tsv.tmp
mv results/shellpack_sections.tsv.tmp results/shellpack_sections.tsv
mkdir -p results/figures
gnuplot -c plots/sections.gp results/shellpack_sections.tsv results/figures/shellpack_sections "$target"
echo "figures: sections -> results/figures/shellpack_sections" >&2
scripts/record.sh "$bin" rows:acl,shellpack-ra results/shellpack_sections.tsv results/figures/shellpack_sections.png \
  results/figures/shellpack_sections.svg
cat results/shellpack_sections.tsv
