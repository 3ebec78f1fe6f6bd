# Where the jump's linear keys land: animated keys stored at each frame, with
# the motion's phases marked.
# usage: gnuplot -c plots/jump_keys.gp RESULTS_keys.tsv OUTDIR
tsv = ARG1
out = ARG2
set datafile separator "\t"
set xlabel "time (s)"
set ylabel "animated keys stored at the frame"
set grid ytics lc rgb "#dddddd"
set style fill solid 0.7 noborder
set key off
set yrange [0:30]
set xrange [-0.05:2.05]
set title "jump clip, linear keys at 1 mm: keys per frame (phases: idle, crouch, launch, airborne, impact, recover, settle)"
phases = "0.30 0.48 0.54 1.10 1.18 1.45"
names = "crouch launch airborne impact recover settle"
do for [i=1:words(phases)] {
  set arrow i from first word(phases, i)+0, graph 0 to first word(phases, i)+0, graph 1 nohead dt 2 lc rgb "#888888"
  set label i word(names, i) at first word(phases, i)+0.005, graph (i % 2 ? 0.96 : 0.90) left font ",9" textcolor rgb "#555555"
}
sel(c, k) = (strcol(1) eq c && strcol(2) eq k && $3 == 1)
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1000,480 font "sans,11" } else { set terminal svg size 1000,480 font "sans,11" }
  set output sprintf("%s/jump_keys.%s", out, fmt)
  plot tsv using (sel("jump", "linear") ? $5 : NaN):6:(0.8/60) with boxes lc rgb "#1f77b4"
}
