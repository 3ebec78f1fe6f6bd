#!/usr/bin/env bash
# The style of each codec named, from plots/codec_styles.tsv: one line per codec,
# "colour point size dash family" (family last: it may hold spaces).  A codec not in the table
# takes the hue of the longest listed name it starts with (shellpack-x: shellpack's) with a marker
# from its name, or a colour and marker from its name: the same in every figure.
# usage: scripts/codec_style.sh [--words] CODEC...   (--words: "colour point size dash" for every
# codec on one line, for gnuplot's word(): plots/styles.gp)
#        scripts/codec_style.sh --order CODEC...   the codecs in the table's order
cd "$(dirname "$0")/.." || exit 1
words=0
[ "${1:-}" = --words ] && { words=1; shift; }
if [ "${1:-}" = --order ]; then # the codecs named, in the table's order (families together), unlisted ones last
  # An unlisted codec goes after the last row of the family whose hue it takes (ceiling-x after the
  # ceilings): a dot chart's family heading is written once.
  shift
  awk -F'\t' -v names="$*" '/^#/ || NF < 6 { next } { rank[$1] = ++m; family[$1] = $2; last[$2] = m; listed[m] = $1 }
    END { n = split(names, w, " ")
          for (i = 1; i <= n; i++) {
            c = w[i]; r = 1000
            if (c in rank) r = rank[c]
            else { best = ""; for (j = 1; j <= m; j++) if (index(c, listed[j] "-") == 1 && length(listed[j]) > length(best)) best = listed[j]
                   if (best != "") r = last[family[best]] + 0.5 }
            printf "%s\t%d\t%s\n", r, i, c } }' \
    plots/codec_styles.tsv | LC_ALL=C sort -g -k1,1 -k2,2n | cut -f3 | tr '\n' ' '
  exit 0
fi
awk -F'\t' -v names="$*" -v words=$words '
  BEGIN { n = split(names, want, " ")
          extra = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf" }
  /^#/ || NF < 6 { next }
  { colour[$1] = $3; point[$1] = $4; size[$1] = $5; dash[$1] = $6; family[$1] = $2; listed[++m] = $1 }
  function hash(s,   h, i) { h = 7; for (i = 1; i <= length(s); i++) h = (h * 31 + index("abcdefghijklmnopqrstuvwxyz0123456789-_.", substr(s, i, 1))) % 1000003; return h }
  END {
    split(extra, ex, " ")
    for (k = 1; k <= n; k++) {
      c = want[k]
      if (c in colour) { out(colour[c], point[c], size[c], dash[c], family[c]); continue }
      best = ""
      for (j = 1; j <= m; j++) if (index(c, listed[j] "-") == 1 && length(listed[j]) > length(best)) best = listed[j]
      h = hash(c)
      pt = 1 + h % 15
      if (best != "") out(colour[best], pt, 1.3, 1 + h % 5, family[best])
      else out(ex[1 + h % 10], pt, 1.3, 1 + h % 5, "other")
    }
    if (words) printf "\n"
  }
  function out(c, p, s, d, f) { if (words) printf "%s%s %s %s %s", (k > 1 ? " " : ""), c, p, s, d; else print c, p, s, d, f }' plots/codec_styles.tsv
