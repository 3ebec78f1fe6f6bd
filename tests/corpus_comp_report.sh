#!/usr/bin/env bash
# scripts/corpus_comp_report.sh on small hand-made inputs whose figures are worked out here by hand (no
# Bandai data needed: the held-out list is given): four clips, one held out, whose names hold a regular
# expression's characters, one that ACL cannot bring to 0.1 mm; the goals' geometric means, worst clips
# and verdicts (judged unrounded, a clip a row cannot reach failing its goal), the held-out split, a row's
# bytes over another's (smaller, same, larger; ties named in file order), the check against make
# corpus's ratios, and inputs it refuses with exit 1, printing nothing.
# Prints "corpus-comp-report-test: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { # what, then a command that succeeds when it holds
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "corpus-comp-report-test: FAILED: $what"; fi
}
H=h.1 T=t+1 U=hX1 M=m_1 # H held out; U matches H read as a regular expression, and is a training clip
echo "$H" > "$tmp/held"
q1="shell_max_mm <= 0.1 mm" q2="shell_max_mm <= 1 mm"
ratio_lines() { # question codec then clip ratio reached ...
  local q=$1 c=$2; shift 2
  while [ $# -gt 0 ]; do printf '%s\t%s\t%s\t%s\t%s\n' "$q" "$c" "$1" "$2" "$3"; shift 3; done
}
{
  echo "# animbench summary x.json: bytes at equal error relative to acl, one row per clip (hand-made)"
  printf 'question\tcodec\tclip\tratio\treached\n'
  # ACL reaches 0.1 mm on three clips, 1 mm on all four
  ratio_lines "$q1" acl "$H" 1 1 "$T" 1 1 "$U" 1 1 "$M" - 0
  ratio_lines "$q2" acl "$H" 1 1 "$T" 1 1 "$U" 1 1 "$M" 1 1
  # 0.4, 0.9, 0.6: geometric mean 0.216^(1/3) = 0.6, over 0.45; the training clip T worst at 0.9, over 0.8;
  # held out 0.4, training sqrt(0.9 x 0.6) = 0.735 (0.490 if U were taken for H)
  ratio_lines "$q1" shellpack-comp-trained "$H" 0.4 1 "$T" 0.9 1 "$U" 0.6 1 "$M" - 1
  # 0.25, 0.36, 0.3, 0.3: 0.0081^(1/4) = 0.3, within 0.33; worst 0.36
  ratio_lines "$q2" shellpack-comp-trained "$H" 0.25 1 "$T" 0.36 1 "$U" 0.3 1 "$M" 0.3 1
  # 0.45049 on every clip: 0.450 to three places, yet over 0.45; at 1 mm 0.2 but one clip it cannot reach
  ratio_lines "$q1" shellpack-comp-trellis "$H" 0.45049 1 "$T" 0.45049 1 "$U" 0.45049 1 "$M" - 1
  ratio_lines "$q2" shellpack-comp-trellis "$H" 0.2 1 "$T" 0.2 1 "$U" 0.2 1 "$M" - 0
  ratio_lines "$q1" shellpack-trained "$H" 0.5 1 "$T" 0.5 1 "$U" 0.5 1 "$M" - 1
  ratio_lines "$q2" shellpack-trained "$H" 0.5 1 "$T" 0.5 1 "$U" 0.5 1 "$M" 0.5 1
} > "$tmp/cc_ratios.tsv"
# each point's bytes, in the column order of a real results table (make shellpack's), '-' elsewhere
sed -n 2p results/shellpack.tsv > "$tmp/header"
point_lines() { # codec target then clip bytes reachable ...
  local c=$1 t=$2; shift 2
  while [ $# -gt 0 ]; do
    awk -F'\t' -v OFS='\t' -v clip="$1" -v codec="$c" -v t="$t" -v b="$2" -v r="$3" '
      { for (i = 1; i <= NF; i++) { v = "-"
          if ($i == "clip") v = clip; else if ($i == "codec") v = codec; else if ($i == "bytes") v = b
          else if ($i == "match_metric") v = "shell_max_mm"; else if ($i == "target_mm") v = t
          else if ($i == "reachable") v = r; else if ($i == "tol_mm") v = 0.05
          printf "%s%s", v, (i < NF ? OFS : "\n") } }' "$tmp/header"
    shift 3
  done
}
{
  echo "# animbench results table (hand-made)"
  cat "$tmp/header"
  # shellpack-comp over shellpack at 0.1 mm: 1.2, 0.5, 1: (0.6)^(1/3) = 0.843; 0.500 (T) to 1.200 (H); 1, 1, 1 of 3
  point_lines shellpack-comp 0.1 "$H" 120 1 "$T" 50 1 "$U" 100 1
  point_lines shellpack 0.1 "$H" 100 1 "$T" 100 1 "$U" 100 1
  # shellpack-comp-trained over shellpack-trained at 0.1 mm: 0.8 and 1 (U unreachable): sqrt(0.8) = 0.894;
  # at 1 mm the same bytes on H and T: 1.000, both ends the first clip in file order (H)
  point_lines shellpack-comp-trained 0.1 "$H" 80 1 "$T" 90 1 "$U" 10 0
  point_lines shellpack-trained 0.1 "$H" 100 1 "$T" 90 1 "$U" 100 1
  point_lines shellpack-comp-trained 1 "$H" 50 1 "$T" 60 1
  point_lines shellpack-trained 1 "$H" 50 1 "$T" 60 1
} > "$tmp/cc.tsv"
# make corpus's ratios: shellpack-trained the same on H, another on T, '-' on M; U absent
{
  echo "# animbench summary corpus.json: bytes at equal error relative to acl (hand-made)"
  printf 'question\tcodec\tclip\tratio\treached\n'
  ratio_lines "$q1" shellpack-trained "$H" 0.5 1 "$T" 0.51 1 "$M" - 1
} > "$tmp/corpus_ratios.tsv"

report() { # base, then the output's name
  CORPUS_COMP_BASE=$1 CORPUS_RATIOS=$tmp/corpus_ratios.tsv HELD_OUT_FILE=$tmp/held ANIMBENCH_BIN=$bin \
    scripts/corpus_comp_report.sh > "$2" 2> "$2.err"
}
report "$tmp/cc" "$tmp/out.md"
check "it runs (exit 0)" test $? -eq 0
has() { grep -qF -- "$1" "$tmp/out.md"; }
check "ACL's reach counted: 3 clips at 0.1 mm, 4 at 1 mm" has "reaches: 3 at 0.1 mm, 4 at 1 mm."
check "0.1 mm: the geometric mean of 0.4, 0.9 and 0.6 is 0.6, over 0.45; the clip ACL misses left out" \
  has "| Bandai at 0.1 mm: <= 0.45x ACL's bytes | shellpack-comp-trained | 0.600x (3 clips) | **no** |"
check "0.1 mm: the worst clip is T at 0.9, over 0.8" \
  has "| Bandai at 0.1 mm: no clip above 0.8x | shellpack-comp-trained | worst 0.900x ($T) | **no** |"
check "1 mm: the geometric mean of 0.25, 0.36, 0.3 and 0.3 is 0.3: met" \
  has "| Bandai at 1 mm: <= 0.33x ACL's bytes | shellpack-comp-trained | 0.300x (4 clips) | yes |"
check "1 mm: the worst clip 0.36: met" has "| Bandai at 1 mm: no clip above 0.8x | shellpack-comp-trained | worst 0.360x ($T) | yes |"
check "0.45049 prints as 0.450 but misses 0.45 (judged unrounded)" \
  has "| Bandai at 0.1 mm: <= 0.45x ACL's bytes | shellpack-comp-trellis | 0.450x (3 clips) | **no** |"
check "a clip the row cannot reach fails both goals, and is named" \
  has "| Bandai at 1 mm: <= 0.33x ACL's bytes | shellpack-comp-trellis | 0.200x (3 clips; cannot reach 1 clip) | **no** |"
check "... the worst-clip goal too" \
  has "| Bandai at 1 mm: no clip above 0.8x | shellpack-comp-trellis | worst 0.200x ($H; cannot reach 1 clip) | **no** |"
check "the held-out clip alone is held out (its name is not a pattern): 0.4 and 0.25" \
  has "| shellpack-comp-trained | held out (never seen by the training) | 0.400x (1) | 0.250x (1) |"
check "the training clips: sqrt(0.9 x 0.6) = 0.735 at 0.1 mm, (0.36 x 0.3 x 0.3)^(1/3) = 0.0324^(1/3) = 0.3188 at 1 mm" \
  has "| shellpack-comp-trained | the training clips | 0.735x (2) | 0.319x (3) |"
check "the training clips counted from the summary: 3, the held out 1" has "the 3 training clips are counted above"
check "every row against ACL: a clip a row cannot reach is said" \
  has "| shellpack-comp-trellis | 0.450x | 0.450x ($H) | 0.200x (cannot reach 1) | 0.200x ($H) |"
check "bytes over bytes: 1.2, 0.5, 1: 0.843, from 0.5 to 1.2, one each smaller, the same and larger" \
  has "| shellpack-comp | shellpack | 0.843 | 0.500 ($T) to 1.200 ($H) | 1, 1, 1 of 3 | - | - | - |"
check "bytes over bytes: 0.8 and 1 (an unreachable point left out); a tie named by file order" \
  has "| shellpack-comp-trained | shellpack-trained | 0.894 | 0.800 ($H) to 1.000 ($T) | 1, 1, 0 of 2 | 1.000 | 1.000 ($H) to 1.000 ($H) | 0, 2, 0 of 2 |"
check "the check against make corpus: 1 of 2 of shellpack-trained's ratios the same" has "| shellpack-trained | 1 | 2 |"

refused() { # what, base: exit 1, a message, nothing on stdout
  report "$2" "$tmp/bad.md"
  local rc=$?
  check "$1: exit 1" test "$rc" -eq 1
  check "$1: a message" test -s "$tmp/bad.md.err"
  check "$1: nothing printed" test ! -s "$tmp/bad.md"
}
mkdir "$tmp/a" "$tmp/b" "$tmp/c"
cp "$tmp/cc_ratios.tsv" "$tmp/a/cc_ratios.tsv"
refused "no points file" "$tmp/a/cc"
cp "$tmp/cc.tsv" "$tmp/b/cc.tsv"
sed '1s/relative to acl/relative to shellpack/' "$tmp/cc_ratios.tsv" > "$tmp/b/cc_ratios.tsv"
refused "ratios against another baseline" "$tmp/b/cc"
cp "$tmp/cc_ratios.tsv" "$tmp/c/cc_ratios.tsv"
sed '2s/\tbytes\t/\tsize\t/' "$tmp/cc.tsv" > "$tmp/c/cc.tsv"
refused "points without a bytes column" "$tmp/c/cc"
: > "$tmp/held"
refused "an empty held-out list" "$tmp/cc"

echo "corpus-comp-report-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
