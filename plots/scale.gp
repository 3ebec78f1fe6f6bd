# Encode and whole-clip decode time against clip length and against bone
# count, log-log, one line per codec (scripts/scale.sh).
# usage: gnuplot -c plots/scale.gp results/scale.tsv OUTDIR "codecs"
tsv = ARG1
out = ARG2
codecs = ARG3
load "plots/styles.gp"
set datafile separator "\t"
# one series' and codec's rows alone, so that its points join into a line
rows(series, codec) = sprintf("< awk -F'\t' '$1 == \"%s\" && $3 == \"%s\"' '%s'", series, codec, tsv)
set logscale xy
set format y "%g"
set grid xtics ytics lc rgb "#dddddd"
set key outside right top noenhanced
do for [series in "frames bones"] {
  do for [what in "encode decode"] {
    col = what eq "encode" ? 4 : 5
    do for [fmt in "png svg"] {
      if (fmt eq "png") { set terminal pngcairo size 900,560 font "sans,11" noenhanced } \
      else { set terminal svg size 900,560 font "sans,11" noenhanced }
      set output sprintf("%s/scale_%s_%s.%s", out, what, series, fmt)
      set xlabel series eq "frames" ? "frames (31 bones, 120 Hz)" : "bones (1,000 frames)"
      set ylabel sprintf("%s time of the whole clip, ms (median of 3, log)", what)
      set title sprintf("%s time against %s (random clips; a slope of 1 is linear)", what, series) noenhanced
      plot for [i=1:words(codecs)] rows(series, word(codecs, i)) using 2:(column(col) / 1e6) \
        with linespoints lw 2 dt dash_of(i) pt point_of(i) ps size_of(i) lc rgb colour_of(i) title word(codecs, i)
    }
  }
}
