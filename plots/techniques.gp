# The study's seven techniques (and the two self-contained layouts) at 1 mm:
# bytes per second for each clip, log scale.
# usage: gnuplot -c plots/techniques.gp RESULTS_techniques.tsv OUTDIR NAME "clip clip ..."
tsv = ARG1
out = ARG2
name = ARGC >= 3 ? ARG3 : "techniques"
clips = ARGC >= 4 ? ARG4 : "walk jump mocap"
colors = "#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b"
set datafile separator "\t"
set datafile missing "-"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set format y "%g"
set ylabel "bytes per second of clip (log)"
set xtics rotate by -30 scale 0
set grid ytics lc rgb "#dddddd"
set key top right noenhanced
set title "The study's techniques at a 1 mm tolerance (6 and 7 again in the self-contained layout)"
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1000,560 font "sans,11" } else { set terminal svg size 1000,560 font "sans,11" }
  set output sprintf("%s/%s.%s", out, name, fmt)
  plot for [i=1:words(clips)] tsv using (column(3*i-1)):xtic(1) title word(clips, i) lc rgb word(colors, (i - 1) % words(colors) + 1)
}
