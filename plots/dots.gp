# A dot chart: one row per codec, grouped by family, a value per series (a clip, an access
# pattern) on a log axis, whiskers from lo to hi where the data has them.  The marker says the
# series (legend), the colour the codec (plots/codec_styles.tsv, the same in every figure).  It
# stays readable at 40 rows and more, where grouped bars do not.  scripts/figures.sh writes the
# data and a layout file (row labels, family headers, series names, sizes).
# usage: gnuplot -c plots/dots.gp DATA.tsv LAYOUT.gp OUT_PREFIX
#   DATA: row, codec, series index, value, lo, hi, colour (0xRRGGBB), and an optional note;
#   LAYOUT sets: series (words), title_text, xlabel_text, note_text and note_lines, rows, ref_x (0: none),
#   label_width
data = ARG1
load ARG2
out = ARG3
set datafile separator "\t"
set datafile missing "-"
set logscale x
set format x "%g"
set xlabel xlabel_text noenhanced
set title title_text noenhanced
set yrange [rows + 0.8:0.2]
set grid xtics mxtics lc rgb "#e4e4e4"
set grid ytics lc rgb "#f2f2f2"
set ytics scale 0 font ",9" noenhanced
set lmargin label_width
set key inside top right vertical box opaque noenhanced font ",10" samplen 1
set offsets graph 0.03, graph 0.25, 0, 0
markers = "7 5 9 13 11 15 6 4"
nseries = words(series)
pt_of(s) = int(word(markers, (s - 1) % words(markers) + 1))
shift(s) = nseries > 1 ? (s - (nseries + 1) / 2.0) * 0.6 / nseries : 0
if (ref_x > 0) { set arrow 1 from first ref_x, graph 0 to first ref_x, graph 1 nohead dt 2 lc rgb "#777777" }
set bmargin 3.5 + 1.2 * note_lines
height = 150 + 17 * rows + 16 * note_lines
if (note_lines > 0) { set label 999 note_text at screen 0.01, screen (8.0 + 13 * (note_lines - 1)) / height font ",9" noenhanced }
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1100, height font "sans,11" noenhanced } \
  else { set terminal svg size 1100, height font "sans,11" noenhanced }
  set output sprintf("%s.%s", out, fmt)
  plot for [s=1:nseries] data using ($3 == s ? $4 : NaN):($1 + shift(s)):5:6:7 \
         with xerrorbars pt pt_of(s) ps 1.1 lw 1 lc rgb variable notitle, \
       for [s=1:nseries] NaN with points pt pt_of(s) ps 1.1 lc rgb "#333333" title word(series, s)
}
