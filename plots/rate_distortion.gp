# Rate-distortion: bytes per second of clip against the largest world-space
# joint error of the clip decoded from the bytes, log axes, one figure per
# clip, one line per codec.  Codecs, clips and ranges come from the data
# (scripts/figures.sh): a codec added to a sweep appears with no edit here.
# Points past `cap` (a layout that decodes to 950 mm) are drawn at the edge as
# arrows with their value, so that they do not squeeze the useful range.
# usage: gnuplot -c plots/rate_distortion.gp RESULTS.tsv OUTDIR "clips" "codecs" CAP_MM "study-layout codecs" PREFIX
tsv = ARG1
out = ARG2
clips = ARG3
codecs = ARG4
cap = real(ARG5)
layouts = ARGC >= 6 ? ARG6 : ""  # codecs whose bytes alone do not decode to what their encoder reports
prefix = ARGC >= 7 ? ARG7 : "rate_distortion"  # NAME_rate_distortion: one results file's figures never replace another's
set datafile separator "\t"
set datafile missing "-"
set logscale xy
set xlabel "largest joint error, decoded from the bytes (mm, log)"
set ylabel "stream size (bytes per second of clip, log)"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key noenhanced outside right top box opaque font ",10" spacing 1.1
set format x "%g"
set format y "%g"
set pointsize 1.2
set xrange [*:cap * 1.6]


# columns: 1 clip, 2 codec, 8 bytes per s, 12 max_mm, 15 encoder max_mm, 18 self-contained, 37 match metric
curve(c, k) = (strcol(1) eq c && strcol(2) eq k && strlen(strcol(37)) < 2)  # "-": not an equal-error point
inside(x) = (x <= cap ? x : NaN)
outside(x) = (x > cap ? cap : NaN)

do for [clip in clips] {
  do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1000,640 font "sans,11" noenhanced } \
    else { set terminal svg size 1000,640 font "sans,11" noenhanced }
    set output sprintf("%s/%s_%s.%s", out, prefix, clip, fmt)
    set title sprintf("%s: stream size against decoded error (points past %.0f mm drawn at the edge)", clip, cap) noenhanced
    plot for [i=1:words(codecs)] tsv using (curve(clip, word(codecs, i)) ? inside($12) : NaN):8 \
           with linespoints lw 2 pt (i % 13 + 1) lc i title word(codecs, i), \
         for [j=1:words(layouts)] '' using (curve(clip, word(layouts, j)) ? inside($15) : NaN):8 \
           with points pt 3 ps 2 lw 2 lc rgb "#555555" title sprintf("%s, the error its encoder reports", word(layouts, j)), \
         for [i=1:words(codecs)] '' using (curve(clip, word(codecs, i)) ? outside($12) : NaN):8 \
           with points pt 8 ps 2 lw 2 lc i notitle, \
         for [i=1:words(codecs)] '' using (curve(clip, word(codecs, i)) ? outside($12) : NaN):8:(sprintf("%s %.0f mm", word(codecs, i), $12)) \
           with labels right offset -1.5,0 font ",9" tc lt i notitle
  }
}
