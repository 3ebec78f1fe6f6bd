# Rate-distortion: bytes per second of clip against the largest world-space
# joint error of the clip decoded from the bytes, log axes, one figure per
# clip, one line per codec in its own style (plots/codec_styles.tsv).  Codecs,
# clips and ranges come from the data (scripts/figures.sh): a codec added to a
# sweep appears with no edit here.  Points past `cap` (a layout that decodes to
# 950 mm) are drawn at the right edge, hollow, and the legend says what they
# measure, so that they do not squeeze the useful range.
# usage: gnuplot -c plots/rate_distortion.gp RESULTS.tsv OUTDIR "clips" "codecs" CAP_MM "study-layout codecs" PREFIX
tsv = ARG1
out = ARG2
clips = ARG3
codecs = ARG4
cap = real(ARG5)
layouts = ARGC >= 6 ? ARG6 : ""  # codecs whose bytes alone do not decode to what their encoder reports
prefix = ARGC >= 7 ? ARG7 : "rate_distortion"  # NAME_rate_distortion: one results file's figures never replace another's
load "plots/styles.gp"
layout_styles = strlen(layouts) > 0 ? system("scripts/codec_style.sh --words " . layouts) : ""
layout_colour(j) = j <= words(layouts) ? word(layout_styles, 4 * j - 3) : "#555555"
set datafile separator "\t"
set datafile missing "-"
set logscale xy
set xlabel "largest joint error, decoded from the bytes (mm, log)"
set ylabel "stream size (bytes per second of clip, log)"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key noenhanced outside center bottom horizontal maxcols 4 maxrows 12 font ",10" spacing 1.05 title " "
set format x "%g"
set format y "%g"
set xrange [*:cap * 1.6]
set arrow 1 from first cap, graph 0 to first cap, graph 1 nohead dt 3 lc rgb "#999999"

# columns: 1 clip, 2 codec, 8 bytes per s, 12 max_mm, 15 encoder max_mm, 18 self-contained, 37 match metric
curve(c, k) = (strcol(1) eq c && strcol(2) eq k && strlen(strcol(37)) < 2)  # "-": not an equal-error point
inside(x) = (x <= cap ? x : NaN)
outside(x) = (x > cap ? cap * 1.25 : NaN)

do for [clip in clips] {
  # a codec with points past the cap says in its legend entry what they measure
  array label[words(codecs)]
  do for [i=1:words(codecs)] {
    label[i] = word(codecs, i)
    # counted first: stats over no valid point prints a warning (one per codec and clip in make sweep)
    stats tsv using (curve(clip, word(codecs, i)) && $12 > cap ? 1 : 0) nooutput
    if (STATS_sum > 0) {
      stats tsv using (curve(clip, word(codecs, i)) && $12 > cap ? $12 : NaN) nooutput
      label[i] = sprintf("%s (%s at %.0f%s mm: at the edge)", word(codecs, i), STATS_records > 1 ? "points" : "a point", \
                         STATS_min, STATS_max > STATS_min * 1.005 ? sprintf(" to %.0f", STATS_max) : "")
    }
  }
  do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1000,760 font "sans,11" noenhanced } \
    else { set terminal svg size 1000,760 font "sans,11" noenhanced }
    set output sprintf("%s/%s_%s.%s", out, prefix, clip, fmt)
    set title sprintf("%s: stream size against decoded error", clip) noenhanced
    plot for [i=1:words(codecs)] tsv using (curve(clip, word(codecs, i)) ? inside($12) : NaN):8 \
           with linespoints lw 2 dt dash_of(i) pt point_of(i) ps size_of(i) lc rgb colour_of(i) title label[i], \
         for [j=1:words(layouts)] '' using (curve(clip, word(layouts, j)) ? inside($15) : NaN):8 \
           with points pt 3 ps 1.6 lw 1.5 lc rgb layout_colour(j) \
           title sprintf("%s, its encoder's error", word(layouts, j)), \
         for [i=1:words(codecs)] '' using (curve(clip, word(codecs, i)) ? outside($12) : NaN):8 \
           with points pt point_of(i) ps size_of(i) lc rgb colour_of(i) notitle
  }
}
