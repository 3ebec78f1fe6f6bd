# What a runtime pays at equal measured error: a point per codec and clip set, the stream's bytes
# per joint-sample against the playback cost of a pose, log axes; the colour is the codec's
# (plots/codec_styles.tsv), the marker the clip set, and beside each point the bytes per
# joint-sample its sampler holds (a hollow marker: the sampler decodes ahead).  The data is
# scripts/runtime_report.sh's table: codecs and sets come from it.
# usage: gnuplot -c plots/runtime.gp RUNTIME.tsv OUT_PREFIX TARGET_MM "sets" "codecs"
tsv = ARG1
out = ARG2
target = ARG3
sets = ARG4
codecs = ARG5
load "plots/styles.gp"
set datafile separator "\t"
set datafile missing "-"
set logscale xy
set format x "%g"
set format y "%g"
set xlabel "stream: bytes per joint-sample (log; raw float32 is 40)" noenhanced
set ylabel "playback: ns per pose at 60 poses per second of game time (log)" noenhanced
set title sprintf("What a runtime pays at equal measured error (shell distance <= %s mm): bytes, time per pose, and (beside each point) what the sampler holds", target) noenhanced font ",10"
set grid xtics ytics mxtics mytics lc rgb "#e4e4e4"
set key outside center bottom horizontal maxcols 5 noenhanced font ",10" title " "
set offsets graph 0.08, graph 0.25, graph 0.1, graph 0.1
filled = "7 5 9 13"
hollow = "6 4 8 12"
sel(s, c) = (strcol(1) eq s && strcol(2) eq target && strcol(3) eq c)
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1100,800 font "sans,11" noenhanced } \
  else { set terminal svg size 1100,800 font "sans,11" noenhanced }
  set output sprintf("%s.%s", out, fmt)
  plot for [j=1:words(sets)] for [i=1:words(codecs)] tsv \
         using (sel(word(sets, j), word(codecs, i)) && $10 == 0 ? $8 : NaN):11 \
         with points pt int(word(filled, (j - 1) % 4 + 1)) ps 1.5 lc rgb colour_of(i) notitle, \
       for [j=1:words(sets)] for [i=1:words(codecs)] tsv \
         using (sel(word(sets, j), word(codecs, i)) && $10 == 1 ? $8 : NaN):11 \
         with points pt int(word(hollow, (j - 1) % 4 + 1)) ps 1.5 lw 1.5 lc rgb colour_of(i) notitle, \
       for [j=1:words(sets)] for [i=1:words(codecs)] tsv \
         using (sel(word(sets, j), word(codecs, i)) ? $8 : NaN):11:(sprintf(" %.3g", $9)) \
         with labels left offset 0.8,0 font ",8" tc rgb colour_of(i) notitle, \
       for [i=1:words(codecs)] NaN with lines lw 4 lc rgb colour_of(i) title word(codecs, i), \
       for [j=1:words(sets)] NaN with points pt int(word(filled, (j - 1) % 4 + 1)) ps 1.5 lc rgb "#333333" title word(sets, j), \
       NaN with points pt 6 ps 1.5 lc rgb "#333333" title "hollow: decodes ahead"
}
