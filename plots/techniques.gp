# The study's seven techniques (and the two self-contained layouts) at 1 mm:
# bytes per second for each clip, log scale.
# usage: gnuplot -c plots/techniques.gp RESULTS_techniques.tsv OUTDIR
tsv = ARG1
out = ARG2
set datafile separator "\t"
set datafile missing "-"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xrange [-0.6:8.6]
set logscale y
set yrange [500:150000]
set format y "%g"
set ylabel "bytes per second of clip (log)"
set xtics rotate by -30 scale 0
set grid ytics lc rgb "#dddddd"
set key top right
set title "The study's techniques at a 1 mm tolerance (6 and 7 again in the self-contained layout)"
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1000,560 font "sans,11" } else { set terminal svg size 1000,560 font "sans,11" }
  set output sprintf("%s/techniques.%s", out, fmt)
  plot tsv using 2:xtic(1) title "walk" lc rgb "#1f77b4", \
       ''  using 5 title "jump" lc rgb "#d62728", \
       ''  using 8 title "mocap" lc rgb "#2ca02c"
}
