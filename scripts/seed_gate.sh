#!/usr/bin/env bash
# make seed-gate: shellpack against ACL under four conventions of "the same error", on the same
# clips and streams, so that a ratio of this harness and one of seed 001 (CurveCodec 2) can be set
# side by side.  For each clip and precision P (0.1 and 1 mm: ACL's 0.01 and 0.1 cm):
#   acl at precision P (its default settings): bytes A0 and its measured max shell distance M0;
#   acl's smallest stream within P (animbench match): A1, or none where ACL's floor is above P;
#   each row's smallest stream within P (S_P) and within G = 1.05 max(P, M0) (S_G);
#   each row under the seed's max gate itself (animbench gate: every joint within 1.05 max(P, ACL's
#   maximum on it), the share of joint-samples above P within ACL's plus half a point): S_S.
# The conventions: this harness's (both at most P measured: S_P / A1); the seed's standalone
# contract (every joint-sample within P, against ACL at precision P, which overshoots it:
# S_P / A0); the seed's max gate (S_S / A0); and a clip-wide form of it, looser (S_G / A0).
# Clips: the study's three, the four captures, and the held-out fifth of the Bandai corpus
# (animbench train-priors --held-out: 34 clips shellpack-trained's states never saw).
# Writes results/seed_gate.tsv and results/seed_gate.md.  About 30 minutes on two cores.
# usage: scripts/seed_gate.sh [bin/animbench]   (ROWS=a,b: the rows; SETS=study,captures,bandai: the clips;
#   JOBS=n: clips measured at once; REPORT_ONLY=1: results/seed_gate.md again from the committed .tsv;
#   OUT=base: write base.tsv and base.md instead)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/animbench}
data=${ANIMBENCH_DATA:-../shared/data}
rows=${ROWS:-shellpack,shellpack-trained,shellpack-comp-trained}
jobs=${JOBS:-2}
sets=${SETS:-study,captures,bandai}
out=${OUT:-results/seed_gate} # the base of both files written
out_tsv=$out.tsv out_md=$out.md
if grep -q "UNAVAILABLE: built without ACL" <<<"$("$bin" list)"; then
  echo "seed-gate: the acl row is not built here (set ACL_DIR and RTM_DIR): skipped" >&2
  exit 0
fi
listing=$("$bin" list)
IFS=, read -ra wanted <<<"$rows"
for r in "${wanted[@]}"; do # before twenty minutes of measuring, not after
  grep -qE "^  $r( |\$)" <<<"$listing" || { echo "seed-gate: ROWS names '$r', which is not a codec (animbench list)" >&2; exit 2; }
done
case ",$sets," in *,study,*|*,captures,*|*,bandai,*) ;; *) echo "seed-gate: SETS '$sets' names none of study, captures, bandai" >&2; exit 2 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
report_only=${REPORT_ONLY:-0} # 1: the tables again from the committed results/seed_gate.tsv, nothing measured

# one line per clip: set, label, clip, unit_m, up
{
  printf 'study\t%s\t%s\t-\t-\n' walk walk jump jump mocap mocap
  if [ -d "$data/bvh" ]; then
    for c in cmu_01_01_mb cmu_01_03_mb cmu_jumping_jacks_30hz; do
      printf 'captures\t%s\t%s\t0.056444\ty\n' "$c" "$data/bvh/$c.bvh"
    done
    printf 'captures\t%s\t%s\t0.04\tz\n' fair1_zombie_30hz "$data/bvh/fair1_zombie_30hz.bvh"
  fi
  if [ -d "$data/bandai_namco_1" ]; then
    "$bin" train-priors --held-out | while read -r c; do
      printf 'bandai\t%s\t%s\t0.01\ty\n' "${c#dataset-1_}" "$data/bandai_namco_1/$c.bvh"
    done
  fi
} | awk -F'\t' -v sets="$sets" 'BEGIN { n = split(sets, s, ","); for (i = 1; i <= n; i++) want[s[i]] = 1 } $1 in want' > "$tmp/clips"

# one clip at one precision: a line of the TSV per row
measure() { # set label clip unit up P
  local set=$1 label=$2 clip=$3 unit=$4 up=$5 p=$6 args=() rc
  [ "$unit" = - ] || args+=(--unit-m "$unit")
  [ "$up" = - ] || args+=(--up "$up")
  local w="$tmp/$label.$p"
  "$bin" run --clip "$clip" "${args[@]}" --codec acl --tol-mm "$p" --json "$w.acl0.json" > /dev/null 2> "$w.log" ||
    { echo "seed-gate: acl on $label at $p mm failed: $(tail -n 1 "$w.log")" >&2; return 1; }
  local a0 m0 a1=- m1=- g
  # a point's bytes and measured max shell distance (animbench table), or a failure when the harness
  # did not measure its decoded clip (a stream that does not decode has no error to report)
  figures() { # json -> "bytes max" into $w.res
    "$bin" table "$1" --format csv --columns bytes,shell_max_mm --digits 17 2>> "$w.log" | tail -n 1 | tr , ' ' > "$w.res"
    awk 'NF != 2 || $1 !~ /^[0-9]+$/ || $2 !~ /^[0-9.]+(e-?[0-9]+)?$/ { exit 1 }' "$w.res" ||
      { echo "seed-gate: $1: no bytes and measured error (the stream does not decode?)" >&2; return 1; }
  }
  figures "$w.acl0.json" || return 1
  read -r a0 m0 < "$w.res"
  # the gate, rounded down to a nanometre so that no stream is allowed more than it
  g=$(awk -v p="$p" -v m="$m0" 'BEGIN { x = 1.05 * (m > p ? m : p); printf "%.6f", int(x * 1e6) / 1e6 }')
  match_one() { # codec target json: "bytes max" into $w.res, or "- -" where the codec cannot reach the target
    rc=0
    "$bin" match --clip "$clip" "${args[@]}" --codec "$1" --target "$2" --json "$3" > /dev/null 2>> "$w.log" || rc=$?
    if [ "$rc" = 3 ]; then echo "- -" > "$w.res"; return 0; fi
    [ "$rc" = 0 ] || { echo "seed-gate: match $1 on $label at $2 mm failed (exit $rc): $(tail -n 1 "$w.log")" >&2; return 1; }
    figures "$3"
  }
  match_one acl "$p" "$w.acl1.json" || return 1
  read -r a1 m1 < "$w.res"
  local r sp msp sg msg
  IFS=, read -ra list <<<"$rows"
  for r in "${list[@]}"; do
    match_one "$r" "$p" "$w.$r.p.json" || return 1
    read -r sp msp < "$w.res"
    match_one "$r" "$g" "$w.$r.g.json" || return 1
    read -r sg msg < "$w.res"
    # the seed's gate itself, joint by joint (animbench gate: ACL at P again, then the row's search)
    local gb=- gm=- gs=- as=-
    rc=0
    "$bin" gate --clip "$clip" "${args[@]}" --codec "$r" --precision-mm "$p" --tsv > "$w.gate" 2>> "$w.log" || rc=$?
    if [ "$rc" = 0 ]; then
      # ACL's stream there must be the one run measured above
      awk -F'\t' -v a0="$a0" 'NF == 13 && $3 == "acl" && $4 == a0 { print $8, $9, $10, $6 }' "$w.gate" > "$w.res"
      read -r gb gm gs as < "$w.res" || true
      [ "$gb" != - ] && [ -n "$gb" ] ||
        { echo "seed-gate: gate $r on $label at $p mm: no line, or ACL's bytes not $a0" >&2; return 1; }
    elif [ "$rc" != 3 ]; then # 3: the row's stream at P does not meet the gate ('-')
      echo "seed-gate: gate $r on $label at $p mm failed (exit $rc): $(tail -n 1 "$w.log")" >&2; return 1
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$set" "$label" "$p" "$a0" "$m0" "$g" "$a1" \
      "$m1" "$r" "$sp" "$msp" "$sg" "$msg" "$as" "$gb" "$gm" "$gs"
  done > "$w.part"
  mv "$w.part" "$w.tsv"
}
export -f measure
export bin rows tmp

if [ "$report_only" = 1 ]; then
  cp "$out_tsv" "$tmp/out.tsv"
else
  while IFS=$'\t' read -r set label clip unit up; do
    for p in 0.1 1; do printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$set" "$label" "$clip" "$unit" "$up" "$p"; done
  done < "$tmp/clips" > "$tmp/jobs"
  # the long captures first, so that both cores stay busy to the end
  { grep -P '^captures\t' "$tmp/jobs" || true; grep -vP '^captures\t' "$tmp/jobs" || true; } | tr '\t' '\n' |
    xargs -d '\n' -n 6 -P "$jobs" bash -c 'measure "$@"' _
  {
    echo "# animbench seed-gate ($(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)): bytes and max shell distance (mm, vertices at 30 mm) of the decoded streams"
    printf 'set\tclip\tP_mm\tacl_bytes_at_P\tacl_max_at_P\tgate_mm\tacl_bytes_within_P\tacl_max_within_P\tcodec\tbytes_within_P\tmax_within_P\tbytes_within_gate\tmax_within_gate\tacl_share_above_P\tbytes_seed_gate\tmax_seed_gate\tshare_above_P_seed_gate\n'
    while IFS=$'\t' read -r set label clip unit up; do
      for p in 0.1 1; do cat "$tmp/$label.$p.tsv"; done
    done < "$tmp/clips"
  } > "$tmp/out.tsv"
fi
[ "$(grep -vc '^#' "$tmp/out.tsv")" -gt 1 ] || { echo "seed-gate: nothing measured" >&2; exit 1; }

report() { # tsv
  awk -F'\t' '
    NR <= 2 { next }
    {
      key = $1 "\t" $3 "\t" $9
      if (!(key in n)) order[++keys] = key
      n[key]++
      # this harness: both within P, over the clips ACL reaches
      if ($7 != "-" && $10 != "-") { h[key] += log($10 / $7); hn[key]++ }
      # the seed standalone contract: the row within P, ACL at precision P
      if ($10 != "-") { s[key] += log($10 / $4); sn[key]++ }
      # a stream within P is within G too: the smaller of the two (match searches each target on its own trail)
      if ($12 != "-") { gb = ($10 != "-" && $10 + 0 < $12 + 0) ? $10 : $12; g[key] += log(gb / $4); gn[key]++; og[key] += log($6 / $3) }
      # the seed max gate, per joint and with its share above P (animbench gate)
      # (a stream within P meets it too: the smaller of the two, as for G)
      if ($15 != "-" && $15 != "") { qb = ($10 != "-" && $10 + 0 < $15 + 0) ? $10 : $15; q[key] += log(qb / $4); qn[key]++ }
      over[key] += ($5 > $3)
    }
    function gm(sum, count) { return count ? sprintf("%.3fx", exp(sum / count)) : "-" }
    END {
      print "| clips | P | row | clips | ACL over P at precision P | this harness: both within P (clips ACL reaches) | the seed standalone: row within P over ACL at P | the seed max gate, per joint, over ACL at P | clip-wide gate: row within 1.05 max(P, ACL max) over ACL at P | gate over P (geometric mean) |"
      print "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"
      for (i = 1; i <= keys; i++) {
        split(order[i], k, "\t")
        printf "| %s | %s mm | `%s` | %d | %d | %s (%d) | %s (%d) | %s (%d) | %s (%d) | %s |\n", k[1], k[2], k[3], n[order[i]],
          over[order[i]], gm(h[order[i]], hn[order[i]]), hn[order[i]], gm(s[order[i]], sn[order[i]]), sn[order[i]],
          gm(q[order[i]], qn[order[i]]), qn[order[i]],
          gm(g[order[i]], gn[order[i]]), gn[order[i]], gn[order[i]] ? sprintf("%.3f", exp(og[order[i]] / gn[order[i]])) : "-"
      }
    }' "$1"
}
{
  echo "# shellpack against ACL under four conventions of the same error (make seed-gate)"
  echo
  echo "Generated by \`make seed-gate\` (scripts/seed_gate.sh) from \`animbench run\`, \`animbench match\` and"
  echo "\`animbench gate\` on each clip; per-clip figures in results/seed_gate.tsv.  Error: ACL's shell distance (vertices"
  echo "at 30 mm) of the clip decoded from the bytes, at every joint and frame.  For each clip and precision P, ACL runs"
  echo "at precision P (its default settings; it overshoots P on most clips) and is searched for its smallest stream"
  echo "within P; each row is searched for its smallest stream under each convention.  Ratios are geometric means over"
  echo "the clips named in brackets."
  echo
  echo "- **this harness**: both codecs within P, measured (the tables of make shellpack and make corpus; clips ACL"
  echo "  cannot bring within P are left out);"
  echo "- **the seed standalone**: the row within P against ACL at precision P, as seed 001's 'standalone contract"
  echo "  that holds every joint-sample within p' (0.438x and 0.265x at 0.01 and 0.1 cm on its 311-clip subset);"
  echo "- **the seed max gate**: seed 001's Eq. 3 (its 0.37x at 0.01 cm), measured joint by joint by \`animbench gate\`:"
  echo "  every joint within 1.05 max(P, ACL's maximum on that joint) and the share of joint-samples above P within"
  echo "  ACL's plus half a point, against ACL at precision P; the row's tol_mm searched from P (a stream that meets"
  echo "  it) to G and bisected, 11 encodes, the smallest passing stream among them, or the row's stream within"
  echo "  P where smaller (it meets the gate too); the row's own bytes, without the seed's fallback to ACL's;"
  echo "- **clip-wide gate**: the row within G = 1.05 max(P, ACL's clip maximum), with no limit on the share above P,"
  echo "  against ACL at precision P: looser than the seed's gate.  A stream within P is within G too, so this column"
  echo "  takes the smaller of the row's two streams (the search for G, on its own trail of settings, can end on a"
  echo "  larger one)."
  echo
  echo "The Bandai clips are the held-out fifth of the Bandai Namco Research Motion Dataset 1 (\`animbench"
  echo "train-priors --held-out\`, 34 clips at 30 Hz; CC BY-NC 4.0, Bandai Namco Research Inc.; Kobayashi et al.,"
  echo "arXiv:2306.08861, 2023): shellpack-trained's states were trained on the other four fifths."
  echo
  report "$tmp/out.tsv"
} > "$tmp/out.md"
[ "$report_only" = 1 ] || { mv "$tmp/out.tsv" "$out_tsv.tmp.$$" && mv "$out_tsv.tmp.$$" "$out_tsv"; }
mv "$tmp/out.md" "$out_md.tmp.$$" && mv "$out_md.tmp.$$" "$out_md"
[ "$report_only" = 1 ] || scripts/record.sh "$bin" "rows:acl,$rows" "$out_tsv" "$out_md"
cat "$out_md"
