# Decode cost per pose of every codec at random times, per clip, against the
# ceilings (copying one raw pose, lerping two raw frames).  Bars: median;
# error bars: min and max of the runs.
# usage: gnuplot -c plots/decode_cost.gp RESULTS_timings.tsv OUTDIR "clips"   (from make bench)
# The clips (a column group each) and the codecs (a row each) come from the table.
tsv = ARG1
out = ARG2
clips = ARGC >= 3 && strlen(ARG3) > 0 ? ARG3 : "walk jump mocap"
colors = "#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b"
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
set format y "%g"
set ylabel "ns per pose, random times (log)"
set xtics rotate by -30 scale 0 noenhanced
set grid ytics lc rgb "#dddddd"
set key top left noenhanced
set title "Decode cost of one pose from each codec's bytes (median of the runs; bars span min to max)"
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1100,560 font "sans,11" } else { set terminal svg size 1100,560 font "sans,11" }
  set output sprintf("%s/decode_cost.%s", out, fmt)
  plot for [i=1:words(clips)] tsv using (column(3 * i - 1)):(column(3 * i)):(column(3 * i + 1)):xtic(1) \
       title word(clips, i) lc rgb word(colors, (i - 1) % words(colors) + 1)
}
