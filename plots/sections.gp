# shellpack-ra's section length: bytes against ACL's at equal measured error, against the seek time
# against ACL's (log), one line per clip set through its lengths, each point labelled with its
# frames per section.  The data is scripts/shellpack_sections.sh's table.
# usage: gnuplot -c plots/sections.gp SECTIONS.tsv OUT_PREFIX TARGET_MM
tsv = ARG1
out = ARG2
target = ARG3
codecs = "shellpack-ra"
load "plots/styles.gp"
set datafile separator "\t"
set logscale x
set format x "%gx"
set format y "%.2fx"
set xlabel "seek: ns per pose over ACL's (log)" noenhanced
set ylabel sprintf("bytes over ACL's, both within %s mm of shell distance", target) noenhanced
set title "shellpack-ra: frames a section against bytes and seek time (labels: frames a section; 65535: one section)" noenhanced font ",10"
set grid xtics ytics mxtics lc rgb "#e4e4e4"
set key outside center bottom horizontal noenhanced font ",10"
set arrow 1 from 10, graph 0 to 10, graph 1 nohead dt 2 lc rgb "#999999"
set label 1 "issue 22: seek <= 10x" at 10, graph 0.97 left offset 0.5,0 font ",9" tc rgb "#777777"
sets = system(sprintf("awk -F'\t' 'NR > 2 && !seen[$1]++ { printf \"%%s \", $1 }' %s", tsv))
marks = "7 5 9 13"
shades = "#1b6ca8 #d1495b #2e8b57 #8c6bb1"
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1000,700 font "sans,11" noenhanced } \
  else { set terminal svg size 1000,700 font "sans,11" noenhanced }
  set output sprintf("%s.%s", out, fmt)
  plot for [j=1:words(sets)] tsv using (strcol(1) eq word(sets, j) ? $5 : NaN):4 every ::1 \
         with linespoints pt int(word(marks, (j - 1) % 4 + 1)) ps 1.3 lw 2 lc rgb word(shades, (j - 1) % 4 + 1) \
         title word(sets, j), \
       for [j=1:words(sets)] tsv using (strcol(1) eq word(sets, j) ? $5 : NaN):4:(sprintf(" %s", strcol(2))) every ::1 \
         with labels left offset 0.6,0.4 font ",8" tc rgb word(shades, (j - 1) % 4 + 1) notitle
}
