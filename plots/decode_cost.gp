# Decode cost per pose of every codec at random times, per clip, against the
# ceilings (copying one raw pose, lerping two raw frames).  Bars: median;
# error bars: min and max of the runs.
# usage: gnuplot -c plots/decode_cost.gp RESULTS_timings.tsv OUTDIR   (from make bench)
tsv = ARG1
out = ARG2
set datafile separator "\t"
set datafile missing "-"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.85 border -1
set boxwidth 0.9
# one group per row of the table: the range follows the data, so a new codec is never cut off
stats tsv using 2 nooutput
set xrange [-0.6:STATS_records - 0.4]
set logscale y
set yrange [10:5000]
set format y "%g"
set ylabel "ns per 30-bone pose, random times (log)"
set xtics rotate by -30 scale 0 noenhanced
set grid ytics lc rgb "#dddddd"
set key top left noenhanced
set title "Decode cost of one pose from each codec's bytes (median of 9 runs; bars span min to max)"
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1100,560 font "sans,11" } else { set terminal svg size 1100,560 font "sans,11" }
  set output sprintf("%s/decode_cost.%s", out, fmt)
  plot tsv using 2:3:4:xtic(1) title "walk" lc rgb "#1f77b4", \
       ''  using 5:6:7 title "jump" lc rgb "#d62728", \
       ''  using 8:9:10 title "mocap" lc rgb "#2ca02c"
}
