# Bytes at equal measured error: for one equal-error question (a metric and a
# target), the smallest stream of each codec that meets it, per clip, bytes
# per second on a log scale; codecs and clips come from the data.  A codec
# that cannot reach the target on a clip has no bar there and is named under
# the chart with how close it got (its floor).
# usage: gnuplot -c plots/equal_error.gp MATRIX.tsv OUTDIR NAME "clips" "question" "cannot reach ..."
tsv = ARG1
out = ARG2
name = ARG3
clips = ARG4
question = ARG5
unreached = ARGC >= 6 ? ARG6 : ""
set datafile separator "\t"
set datafile missing "-"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set format y "%g"
set ylabel "bytes per second of clip (log)"
set xtics rotate by -30 scale 0 noenhanced
set grid ytics lc rgb "#dddddd"
set key outside right top noenhanced
set title sprintf("Smallest stream meeting %s, decoded from its bytes", question) noenhanced
set bmargin 9
if (strlen(unreached) > 0) { set label 1 sprintf("cannot reach: %s", unreached) at screen 0.02, screen 0.13 font ",9" noenhanced }
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1100,600 font "sans,11" } else { set terminal svg size 1100,600 font "sans,11" }
  set output sprintf("%s/%s.%s", out, name, fmt)
  plot for [i=1:words(clips)] tsv using (column(i + 1)):xtic(1) title word(clips, i) lc i
}
