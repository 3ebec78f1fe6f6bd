#!/usr/bin/env bash
# ACL against the study's rows at equal measured error (make acl-compare):
# for each clip, `acl` at ACL's precision P (0.1 mm, its default, and 1 mm);
# then every other codec's smallest stream whose decoded clip measures the
# same max shell distance (animbench compare / match).  Writes
# results/acl_compare.md.  Clips: the study's three, the four captures in
# $ANIMBENCH_DATA/bvh and six Bandai Namco clips from $ANIMBENCH_DATA/bandai_namco_1.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
out=${OUT:-results/acl_compare.md}
codecs=acl-highest,linear,cubic,cubic-q-sc,quant-sc
if grep -q "UNAVAILABLE: built without ACL" <<<"$("$bin" list)"; then
  echo "acl-compare: the ACL rows are not built here (set ACL_DIR and RTM_DIR): skipped" >&2; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bandai=""
for c in walk_normal_001 dash_happy_001 kick_normal_001 bow_active_001 punch_normal_001 dance-short_normal_001; do
  f="$data/bandai_namco_1/dataset-1_$c.bvh"; [ -f "$f" ] && bandai="$bandai${bandai:+,}$f"
done
{
  echo "# ACL against the study's rows at equal measured error"
  echo
  echo "Written by \`make acl-compare\` ($(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown))."
  echo "Metric: max shell distance (ACL's, virtual vertices at 30 mm) over every joint and frame of the clip"
  echo "decoded from the bytes alone. \`acl\` runs at precision P; every other codec is searched for its smallest"
  echo "stream at the error \`acl\` measures (\`animbench match\`); ratios are bytes over \`acl\`'s."
  for p in 0.1 1; do
    echo; echo "## P = $p mm"
    echo; echo "### The study's clips"; echo
    "$bin" compare --clips walk,jump,mocap --reference acl --reference-tol-mm $p --codecs $codecs 2>>"$tmp/log"
    if [ -d "$data/bvh" ]; then
      echo; echo "### Captures (CMU: unit 0.056444 m; fair1: 0.04 m, Z up)"; echo
      "$bin" compare --clips "$data/bvh/cmu_01_01_mb.bvh,$data/bvh/cmu_01_03_mb.bvh,$data/bvh/cmu_jumping_jacks_30hz.bvh" \
        --unit-m 0.056444 --reference acl --reference-tol-mm $p --codecs $codecs 2>>"$tmp/log"
      "$bin" compare --clips "$data/bvh/fair1_zombie_30hz.bvh" --unit-m 0.04 --up z \
        --reference acl --reference-tol-mm $p --codecs $codecs 2>>"$tmp/log" | tail -n 2
    fi
    if [ -n "$bandai" ]; then
      echo; echo "### Bandai Namco Research Motion Dataset 1 (unit 0.01 m; CC BY-NC 4.0, Kobayashi et al., arXiv:2306.08861)"; echo
      "$bin" compare --clips "$bandai" --unit-m 0.01 --reference acl --reference-tol-mm $p --codecs $codecs 2>>"$tmp/log"
    fi
  done
} > "$tmp/out.md"
mkdir -p "$(dirname "$out")"
mv "$tmp/out.md" "$out.tmp.$$" && mv "$out.tmp.$$" "$out"
scripts/record.sh "$bin" rows:acl,$codecs "$out"
echo "acl-compare: wrote $out" >&2
