# Encoder time of each key selection strategy against clip length, log-log,
# one line per row (scripts/keys_timing.sh: random clips of 31 bones at 120 Hz).
# usage: gnuplot -c plots/keys_encode.gp results/keys_encode_time.tsv OUTDIR "codecs"
tsv = ARG1
out = ARG2
codecs = ARG3
load "plots/styles.gp"
set datafile separator "\t"
rows(codec) = sprintf("< awk -F'\t' '$1 == \"random\" && $3 == \"%s\"' '%s'", codec, tsv)
set logscale xy
set format y "%g"
set grid xtics ytics lc rgb "#dddddd"
set key outside right top noenhanced
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 900,560 font "sans,11" noenhanced } \
  else { set terminal svg size 900,560 font "sans,11" noenhanced }
  set output sprintf("%s/keys_encode_time.%s", out, fmt)
  set xlabel "frames (31 bones, 120 Hz)"
  set ylabel "encode time at 1 mm, s (median of 3, log)"
  set title "encoder time against clip length (random clips; a slope of 1 is linear, 2 quadratic)" noenhanced
  plot for [i=1:words(codecs)] rows(word(codecs, i)) using 2:4 with linespoints lw 2 dt dash_of(i) pt point_of(i) ps size_of(i) lc rgb colour_of(i) \
    title word(codecs, i)
}
