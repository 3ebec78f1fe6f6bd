#!/usr/bin/env bash
# scripts/corpus_fast_report.sh on small hand-made inputs whose figures are worked out here by hand (no
# Bandai data needed: the held-out list is given): four clips, one held out, whose names hold a regular
# expression's characters, one that ACL cannot bring to 0.1 mm; the goals' geometric means, worst clips and
# verdicts (judged unrounded, a clip the row cannot reach failing its goal), the held-out split, what
# shellpack-side's container pays over the row it carries (this run's ratios over each other), the row's
# bytes over shellpack-comp-trained's (the ratio of ratios, ties and extremes in file order), the check that
# the two runs agree on shellpack, and inputs it refuses with exit 1, printing nothing.
# Prints "corpus-fast-report-test: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 test_name=corpus-fast-report-test
. tests/corpus_report_helpers.sh
H=h.1 T=t+1 U=hX1 M=m_1 # H held out; U matches H read as a regular expression, and is a training clip
echo "$H" > "$tmp/held"
acl() {
  lines "$q1" acl "$H" 1 1 "$T" 1 1 "$U" 1 1 "$M" - 0
  lines "$q2" acl "$H" 1 1 "$T" 1 1 "$U" 1 1 "$M" 1 1
}
{
  header; acl
  # 0.4, 0.5, 0.625: 0.125^(1/3) = 0.5, over 0.45; worst U at 0.625; held out 0.4, training sqrt(0.3125) = 0.559
  lines "$q1" shellpack-comp-fast "$H" 0.4 1 "$T" 0.5 1 "$U" 0.625 1 "$M" - 1
  lines "$q2" shellpack-comp-fast "$H" 0.3 1 "$T" 0.3 1 "$U" 0.3 1 "$M" 0.3 1
  # 0.45049 on every clip: 0.450 to three places, yet over 0.45; at 1 mm one clip it cannot reach
  lines "$q1" shellpack-comp-trellis-p2 "$H" 0.45049 1 "$T" 0.45049 1 "$U" 0.45049 1 "$M" - 1
  lines "$q2" shellpack-comp-trellis-p2 "$H" 0.2 1 "$T" 0.2 1 "$U" 0.2 1 "$M" - 0
  lines "$q1" shellpack "$H" 0.6 1 "$T" 0.6 1 "$U" 0.6 1 "$M" - 1
  lines "$q2" shellpack "$H" 0.6 1 "$T" 0.6 1 "$U" 0.6 1 "$M" 0.6 1
  # in the container: 0.36, 0.425, 0.5 = 0.0765^(1/3) = 0.425x, met; over shellpack-comp-fast's 0.9, 0.85, 0.8:
  # 0.612^(1/3) = 0.8490, smallest U, largest H
  lines "$q1" shellpack-comp-fast-side "$H" 0.36 1 "$T" 0.425 1 "$U" 0.5 1 "$M" - 1
  # 0.27, 0.27, 0.27, 0.3: (0.27^3 0.3)^(1/4) = 0.277x; over 0.9, 0.9, 0.9, 1: 0.729^(1/4) = 0.9240, M the same
  lines "$q2" shellpack-comp-fast-side "$H" 0.27 1 "$T" 0.27 1 "$U" 0.27 1 "$M" 0.3 1
  # a run that holds shellpack-comp-trained and its container too (the report pairs every X-side with X):
  # 0.9, 1, 0.9 of it: 0.81^(1/3) = 0.9322
  lines "$q1" shellpack-comp-trained "$H" 0.4 1 "$T" 0.4 1 "$U" 0.5 1 "$M" - 1
  lines "$q2" shellpack-comp-trained "$H" 0.25 1 "$T" 0.25 1 "$U" 0.25 1 "$M" 0.25 1
  lines "$q1" shellpack-comp-trained-side "$H" 0.36 1 "$T" 0.4 1 "$U" 0.45 1 "$M" - 1
  lines "$q2" shellpack-comp-trained-side "$H" 0.25 1 "$T" 0.25 1 "$U" 0.25 1 "$M" 0.25 1
} > "$tmp/fast.tsv"
comp() { # shellpack's ratio on U at 1 mm (the other run's)
  header; acl
  # 0.08^(1/3) = 0.431 (held out 0.4, training sqrt(0.2) = 0.447); fast over these at 0.1 mm: 1, 1.25, 1.25:
  # 1.5625^(1/3) = 1.160; smallest H, largest T (the first of two)
  lines "$q1" shellpack-comp-trained "$H" 0.4 1 "$T" 0.4 1 "$U" 0.5 1 "$M" - 1
  # at 1 mm 0.3 / 0.25 = 1.2 on every clip: M counts (ACL reaches it)
  lines "$q2" shellpack-comp-trained "$H" 0.25 1 "$T" 0.25 1 "$U" 0.25 1 "$M" 0.25 1
  lines "$q1" shellpack-comp-trellis "$H" 0.5 1 "$T" 0.5 1 "$U" 0.5 1 "$M" - 1
  lines "$q2" shellpack-comp-trellis "$H" 0.5 1 "$T" 0.5 1 "$U" 0.5 1 "$M" 0.5 1
  lines "$q1" shellpack "$H" 0.6 1 "$T" 0.6 1 "$U" 0.6 1 "$M" - 1
  lines "$q2" shellpack "$H" 0.6 1 "$T" 0.6 1 "$U" "$1" 1 "$M" 0.6 1
}
comp 0.6 > "$tmp/comp.tsv"
run() { CORPUS_FAST_RATIOS=$1 CORPUS_COMP_RATIOS=$2 HELD_OUT_FILE=$tmp/held scripts/corpus_fast_report.sh; }
out=$(run "$tmp/fast.tsv" "$tmp/comp.tsv" 2>&1); rc=$?
has() { grep -qF -- "$1" <<<"$out"; }
check "exit 0 on good inputs (got $rc)" [ "$rc" = 0 ]
check "the clips ACL reaches" has "3 at 0.1 mm, 4 at 1 mm."
check "0.1 mm goal: 0.500x of 3 clips, not met" has "| Bandai at 0.1 mm: <= 0.45x ACL's bytes | shellpack-comp-fast | 0.500x (3 clips) | **no** |"
check "0.1 mm worst clip U, met" has "| Bandai at 0.1 mm: no clip above 0.8x | shellpack-comp-fast | worst 0.625x ($U) | yes |"
check "1 mm goal met" has "| Bandai at 1 mm: <= 0.33x ACL's bytes | shellpack-comp-fast | 0.300x (4 clips) | yes |"
check "0.45049 is over 0.45 though it prints 0.450" has "| Bandai at 0.1 mm: <= 0.45x ACL's bytes | shellpack-comp-trellis-p2 | 0.450x (3 clips) | **no** |"
check "a clip it cannot reach fails the goal" has "| Bandai at 1 mm: <= 0.33x ACL's bytes | shellpack-comp-trellis-p2 | 0.200x (3 clips; cannot reach 1) | **no** |"
check "held-out split, the regex-like name not taken for the held-out one" \
  has "| shellpack-comp-fast | make corpus-fast | 0.500x (3) | 0.400x (1) | 0.559x (2) | 0.300x (4) | 0.300x (1) | 0.300x (3) |"
check "comp-trained's figures from the other run" \
  has "| shellpack-comp-trained | make corpus-comp | 0.431x (3) | 0.400x (1) | 0.447x (2) | 0.250x (4) | 0.250x (1) | 0.250x (3) |"
check "the container's row against the goal" has "| Bandai at 0.1 mm: <= 0.45x ACL's bytes | shellpack-comp-fast-side | 0.425x (3 clips) | yes |"
check "the container's row at 1 mm" has "| Bandai at 1 mm: <= 0.33x ACL's bytes | shellpack-comp-fast-side | 0.277x (4 clips) | yes |"
check "the container over the row it carries, 0.1 mm" \
  has "| shellpack-comp-fast-side / shellpack-comp-fast | 0.1 mm | 0.8490 | 0.8000 ($U) | 0.9000 ($H) | 3, 0, 0 | 3 |"
check "the container over the row it carries, 1 mm" \
  has "| shellpack-comp-fast-side / shellpack-comp-fast | 1 mm | 0.9240 | 0.9000 ($H) | 1.0000 ($M) | 3, 1, 0 | 4 |"
check "comp-trained in the container" \
  has "| shellpack-comp-trained-side / shellpack-comp-trained | 0.1 mm | 0.9322 | 0.9000 ($H) | 1.0000 ($T) | 2, 1, 0 | 3 |"
check "the same bytes count as the same" \
  has "| shellpack-comp-trained-side / shellpack-comp-trained | 1 mm | 1.0000 | 1.0000 ($H) | 1.0000 ($H) | 0, 4, 0 | 4 |"
check "fast over comp-trained at 0.1 mm" has "| 0.1 mm | 1.160 | 1.000 ($H) | 1.250 ($T) | 0, 1, 2 | 3 |"
check "fast over comp-trained at 1 mm" has "| 1 mm | 1.200 | 1.200 ($H) | 1.200 ($H) | 0, 0, 4 | 4 |"
check "the runs agree on shellpack" has "the same in both on 8 clip-targets (7"
check "bytes compared where ACL reaches" has "where ACL reaches the target, so that bytes were compared), different on 0,"
check "none differs" has "in this run only on 0."
check "nothing left out when they agree" bash -c "! grep -q 'leaves out' <<<\"\$1\"" _ "$out"
comp 0.61 > "$tmp/comp2.tsv"
out=$(run "$tmp/fast.tsv" "$tmp/comp2.tsv" 2>&1)
check "a different shellpack ratio is counted" has "the same in both on 7 clip-targets (6"
check "as one that differs" has "compared), different on 1, in this run only on 0."
check "named with both ratios, the other run's first" has "- $U at 1 mm: 0.61/1, 0.6/1"
check "and left out of the comparison" has "| 1 mm | 1.200 | 1.200 ($H) | 1.200 ($H) | 0, 0, 3 | 3 |"
check "only there" has "| 0.1 mm | 1.160 | 1.000 ($H) | 1.250 ($T) | 0, 1, 2 | 3 |"
# runs with no clip-target in common
sed "s/\t$H\t/\tother\t/; s/\t$T\t/\tother2\t/; s/\t$U\t/\tother3\t/; s/\t$M\t/\tother4\t/" "$tmp/comp.tsv" > "$tmp/comp3.tsv"
out=$(run "$tmp/fast.tsv" "$tmp/comp3.tsv" 2>&1)
check "no clip-target agreed on is said" has "**The runs agree on no clip-target: the comparison with shellpack-comp-trained above is not valid.**"
refuse_bad_inputs "$tmp/fast.tsv" "$tmp/comp.tsv"
echo "corpus-fast-report-test: $passed passed, $failed failed"
[ "$failed" = 0 ]
