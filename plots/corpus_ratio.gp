# Bytes at equal error across a corpus: for each codec, one dot per clip at
# its bytes relative to the baseline's at the same target, log scale, the
# median marked by a bar and written along the top (two alternating rows); one figure per question,
# each codec in its colour (plots/codec_styles.tsv).  Codecs and questions come
# from the data (animbench summary --tsv).
# usage: gnuplot -c plots/corpus_ratio.gp RATIOS.tsv OUTDIR NAME "question" "codecs" BASELINE CLIPS
tsv = ARG1
out = ARG2
name = ARG3
question = ARG4
codecs = ARG5
baseline = ARG6
clips = ARG7
never = ARGC >= 8 ? ARG8 : ""  # codecs that reach the target on no clip
load "plots/styles.gp"
if (strlen(never) > 0) { set label 1 sprintf("reach it on no clip: %s", never) at graph 0.01, graph 0.97 font ",9" noenhanced }
set datafile separator "\t"
set datafile missing "-"
set logscale y
set format y "%gx"
set ylabel sprintf("bytes relative to %s at the same target (log)", baseline) noenhanced
set xrange [0.3:words(codecs) + 0.7]
set xtics () noenhanced rotate by -30
do for [i=1:words(codecs)] { set xtics add (word(codecs, i) i) }
set grid ytics lc rgb "#dddddd"
set key off
set title sprintf("Bytes at %s, per clip (%s clips), relative to %s; bar: median", question, clips, baseline) noenhanced
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "#555555"
set offsets 0, 0, graph 0.05, graph 0.05
sel(c) = (strcol(1) eq question && strcol(2) eq c)
jitter(i) = i + (rand(0) - 0.5) * 0.5
# the medians, as bars
do for [i=1:words(codecs)] {
  undefine STATS_*
  stats tsv using (sel(word(codecs, i)) && valid(4) ? $4 : NaN) nooutput
  if (exists("STATS_records") && STATS_records > 0) {
    set arrow (10 + i) from i - 0.35, first STATS_median to i + 0.35, first STATS_median nohead lw 3 lc rgb "black" front
    # along the top in two alternating rows: above each codec's own dots, neighbours with similar
    # maxima printed over each other
    set label (10 + i) sprintf("%.2fx", STATS_median) at i, graph (i % 2 ? 0.89 : 0.84) center font ",9" front
  }
}
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1000,600 font "sans,11" } else { set terminal svg size 1000,600 font "sans,11" }
  set output sprintf("%s/%s.%s", out, name, fmt)
  plot for [i=1:words(codecs)] tsv using (sel(word(codecs, i)) && $5 == 1 ? jitter(i) : NaN):4 with points pt 7 ps 0.5 lc rgb colour_of(i) notitle
}
