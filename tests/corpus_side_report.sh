#!/usr/bin/env bash
# scripts/corpus_side_report.sh on small hand-made inputs whose figures are worked out here by hand (no Bandai
# data needed: the held-out list is given): three clips, one held out, one that ACL cannot bring to 0.1 mm; the
# held-out split, the goals' verdicts (judged unrounded), each side row over the row it carries from the other
# run where both runs give shellpack the same ratio, and inputs it refuses with exit 1, printing nothing.
# Prints "corpus-side-report-test: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 test_name=corpus-side-report-test
. tests/corpus_report_helpers.sh
H=h.1 T=t+1 M=m_1 # H held out; M out of ACL's reach at 0.1 mm
echo "$H" > "$tmp/held"
acl() {
  lines "$q1" acl "$H" 1 1 "$T" 1 1 "$M" - 0
  lines "$q2" acl "$H" 1 1 "$T" 1 1 "$M" 1 1
}
{
  header; acl
  lines "$q1" shellpack "$H" 0.6 1 "$T" 0.6 1 "$M" - 1
  lines "$q2" shellpack "$H" 0.5 1 "$T" 0.5 1 "$M" 0.5 1
  # 0.4 and 0.5: sqrt(0.2) = 0.4472, within 0.45 though 0.5 is not; held out 0.4, training 0.5
  lines "$q1" shellpack-comp-trained-side "$H" 0.4 1 "$T" 0.5 1 "$M" - 1
  # 0.3, 0.3, 0.3375: (0.3^2 0.3375)^(1/3) = 0.3121, within 0.33; worst M; training sqrt(0.3 x 0.3375) = 0.3182
  lines "$q2" shellpack-comp-trained-side "$H" 0.3 1 "$T" 0.3 1 "$M" 0.3375 1
  lines "$q1" shellpack-ra-comp-exchange-side "$H" 0.45 1 "$T" 0.45 1 "$M" - 1
  # one clip it cannot reach: the goal is not its, but the split counts 2 clips
  lines "$q2" shellpack-ra-comp-exchange-side "$H" 0.36 1 "$T" 0.36 1 "$M" - 0
} > "$tmp/side.tsv"
comp() { # shellpack's ratio on T at 1 mm (the other run's)
  header; acl
  lines "$q1" shellpack "$H" 0.6 1 "$T" 0.6 1 "$M" - 1
  lines "$q2" shellpack "$H" 0.5 1 "$T" "$1" 1 "$M" 0.5 1
  # over these: 0.4/0.5 = 0.8 and 0.5/0.5 = 1: sqrt(0.8) = 0.8944 at 0.1 mm
  lines "$q1" shellpack-comp-trained "$H" 0.5 1 "$T" 0.5 1 "$M" - 1
  # 0.3/0.3 = 1, 0.3/0.25 = 1.2, 0.3375/0.3375 = 1: 1.2^(1/3) = 1.0627
  lines "$q2" shellpack-comp-trained "$H" 0.3 1 "$T" 0.25 1 "$M" 0.3375 1
  lines "$q1" shellpack-ra-comp-exchange "$H" 0.5 1 "$T" 0.45 1 "$M" - 1
  lines "$q2" shellpack-ra-comp-exchange "$H" 0.4 1 "$T" 0.4 1 "$M" 0.4 1
}
comp 0.5 > "$tmp/comp.tsv"
run() { CORPUS_SIDE_RATIOS=$1 CORPUS_COMP_RATIOS=$2 HELD_OUT_FILE=$tmp/held scripts/corpus_side_report.sh; }
out=$(run "$tmp/side.tsv" "$tmp/comp.tsv" 2>&1); rc=$?
has() { grep -qF -- "$1" <<<"$out"; }
check "exit 0 on good inputs (got $rc)" [ "$rc" = 0 ]
check "held-out split" has "| shellpack-comp-trained-side | 0.447x (2) | 0.400x (1) | 0.500x (1) | 0.312x (3) | 0.300x (1) | 0.318x (2) |"
check "a clip the row cannot reach is not in its mean" has "| shellpack-ra-comp-exchange-side | 0.450x (2) | 0.450x (1) | 0.450x (1) | 0.360x (2) | 0.360x (1) | 0.360x (1) |"
check "0.1 mm goal met unrounded" has "| Bandai at 0.1 mm: <= 0.45x ACL's bytes | 0.447x (2 clips) | yes |"
check "worst clip at 1 mm" has "| Bandai at 1 mm: no clip above 0.8x | worst 0.338x ($M) | yes |"
check "the container over comp-trained at 0.1 mm" \
  has "| shellpack-comp-trained-side / shellpack-comp-trained | 0.1 mm | 0.8944 | 0.8000 ($H) | 1.0000 ($T) | 1, 1, 0 | 2 |"
check "the container over comp-trained at 1 mm, ties by name" \
  has "| shellpack-comp-trained-side / shellpack-comp-trained | 1 mm | 1.0627 | 1.0000 ($H) | 1.2000 ($T) | 0, 2, 1 | 3 |"
check "the random-access pair at 0.1 mm" \
  has "| shellpack-ra-comp-exchange-side / shellpack-ra-comp-exchange | 0.1 mm | 0.9487 | 0.9000 ($H) | 1.0000 ($T) | 1, 1, 0 | 2 |"
check "the runs agree everywhere" has "the same ratio to ACL in both on 6 clip-targets and another on 0."
comp 0.51 > "$tmp/comp2.tsv"
out=$(run "$tmp/side.tsv" "$tmp/comp2.tsv" 2>&1)
check "a clip-target where shellpack differs is left out" \
  has "| shellpack-comp-trained-side / shellpack-comp-trained | 1 mm | 1.0000 | 1.0000 ($H) | 1.0000 ($H) | 0, 2, 0 | 2 |"
check "and counted" has "on 5 clip-targets and another on 1 (ACL's own bytes"
sed "s/\t0.3375\t1$/\t0.3301\t1/" "$tmp/side.tsv" > "$tmp/side2.tsv"
out=$(run "$tmp/side2.tsv" "$tmp/comp.tsv" 2>&1)
check "0.3301 on one clip: (0.09 x 0.3301)^(1/3) = 0.3097, met" has "| Bandai at 1 mm: <= 0.33x ACL's bytes | 0.310x (3 clips) | yes |"
sed "s/\t$M\t0.3375\t1$/\t$M\t0.5\t1/; s/\t$H\t0.3\t1$/\t$H\t0.2\t1/" "$tmp/side.tsv" > "$tmp/side3.tsv"
out=$(run "$tmp/side3.tsv" "$tmp/comp.tsv" 2>&1)
check "(0.2 x 0.3 x 0.5)^(1/3) = 0.3107 but a clip at 0.5 is still under 0.8" has "| Bandai at 1 mm: no clip above 0.8x | worst 0.500x ($M) | yes |"
sed "s/\t$M\t0.3375\t1$/\t$M\t0.9\t1/; s/\t$H\t0.3\t1$/\t$H\t0.1\t1/" "$tmp/side.tsv" > "$tmp/side4.tsv"
out=$(run "$tmp/side4.tsv" "$tmp/comp.tsv" 2>&1)
check "a clip above 0.8x fails its goal though the mean (0.027)^(1/3) = 0.3 is met" has "| Bandai at 1 mm: no clip above 0.8x | worst 0.900x ($M) | **no** |"
check "the mean's goal still met" has "| Bandai at 1 mm: <= 0.33x ACL's bytes | 0.300x (3 clips) | yes |"
refuse_bad_inputs "$tmp/side.tsv" "$tmp/comp.tsv"
echo "corpus-side-report-test: $passed passed, $failed failed"
[ "$failed" = 0 ]
