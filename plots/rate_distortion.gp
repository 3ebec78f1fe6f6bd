# Rate-distortion: bytes per second of clip against the largest world-space
# joint error, both on log axes, one figure per clip.
# usage: gnuplot -c plots/rate_distortion.gp RESULTS.tsv OUTDIR ["clip clip ..."]
tsv = ARG1
out = ARG2
clips = (ARGC >= 3 && strlen(ARG3) > 0) ? ARG3 : "walk jump mocap"
set datafile separator "\t"
set datafile missing "-"
set logscale xy
set xlabel "largest joint error, decoded from the bytes (mm, log)"
set ylabel "stream size (bytes per second of clip, log)"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key noenhanced inside left bottom box opaque font ",10" spacing 1.1
set format x "%g"
set format y "%g"
set xrange [2e-5:3000]
set yrange [300:400000]
set pointsize 1.2

sel(c, k) = (strcol(1) eq c && strcol(2) eq k)
# columns: 7 bytes, 8 bytes_per_s, 12 max_mm, 15 enc_max_mm
series(c, k) = sprintf("%s %s", c, k)

do for [clip in clips] {
  do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 900,640 font "sans,11" noenhanced } \
    else { set terminal svg size 900,640 font "sans,11" noenhanced }
    set output sprintf("%s/rate_distortion_%s.%s", out, clip, fmt)
    set title sprintf("%s: stream size against error (tolerance sweeps 0.1 to 50 mm)", clip) noenhanced
    plot tsv using (sel(clip, "linear") ? $12 : NaN):8 with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "linear keys", \
         ''  using (sel(clip, "cubic") ? $12 : NaN):8 with linespoints lw 2 pt 5 lc rgb "#d62728" title "cubic keys", \
         ''  using (sel(clip, "cubic-q-sc") ? $12 : NaN):8 with linespoints lw 2 pt 9 lc rgb "#2ca02c" title "cubic keys + quantised (self-contained)", \
         ''  using (sel(clip, "acl") ? $12 : NaN):8 with linespoints lw 2 pt 15 lc rgb "#17becf" title "ACL v2.1 (precision 0.01 to 10 mm)", \
         ''  using (sel(clip, "every-nth") ? $12 : NaN):8 with linespoints lw 1 dt 2 pt 6 lc rgb "#7f7f7f" title "every Nth frame", \
         ''  using (sel(clip, "const") ? $12 : NaN):8 with points pt 13 ps 1.8 lc rgb "#9467bd" title "constant removal only (float32 rounding)", \
         ''  using (sel(clip, "quant-sc") ? $12 : NaN):8 with points pt 11 ps 1.8 lc rgb "#8c564b" title "quantisation only (self-contained)", \
         ''  using (sel(clip, "cubic-q") ? $15 : NaN):8 with points pt 3 ps 2 lw 2 lc rgb "#ff7f0e" title "study layout cubic-q, error as the study measures it", \
         ''  using (sel(clip, "cubic-q") ? $12 : NaN):8 with points pt 2 ps 2 lw 2 lc rgb "#ff7f0e" title "the same bytes, decoded alone"
  }
}
