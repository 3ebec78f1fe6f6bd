# Encode time and peak memory against clip length for long clips (16 bones,
# 100 to 1,000,000 frames, `animbench encode`), log-log, one line per codec.
# usage: gnuplot -c plots/scale_long.gp results/scale_long.tsv OUTDIR "codecs"
tsv = ARG1
out = ARG2
codecs = ARG3
load "plots/styles.gp"
set datafile separator "\t"
# one codec's rows alone, so that its points join into a line
rows(codec) = sprintf("< awk -F'\t' '$2 == \"%s\"' '%s'", codec, tsv)
set logscale xy
set format y "%g"
set grid xtics ytics lc rgb "#dddddd"
set key outside right top noenhanced
set xlabel "frames (16 bones, 120 Hz)"
do for [what in "encode memory"] {
  do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 900,560 font "sans,11" noenhanced } \
    else { set terminal svg size 900,560 font "sans,11" noenhanced }
    set output sprintf("%s/scale_long_%s.%s", out, what, fmt)
    if (what eq "encode") {
      set ylabel "encode time, s (log)"
      set title "encode time of long clips (animbench encode; a slope of 1 is linear)" noenhanced
      plot for [i=1:words(codecs)] rows(word(codecs, i)) using 1:3 \
        with linespoints lw 2 dt dash_of(i) pt point_of(i) ps size_of(i) lc rgb colour_of(i) title word(codecs, i)
    } else {
      set ylabel "peak RSS / the clip's own size (log)"
      set title "peak memory of animbench encode against the clip's 80 bytes per joint-sample" noenhanced
      plot for [i=1:words(codecs)] rows(word(codecs, i)) using 1:($4 / $5) \
        with linespoints lw 2 dt dash_of(i) pt point_of(i) ps size_of(i) lc rgb colour_of(i) title word(codecs, i)
    }
  }
}
